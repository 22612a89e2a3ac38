"""The models of a page: unique labels, and unique file names for them (items/<slug>/, sections/<slug>/)."""
from pathlib import Path

from mcqa_probes.experiments.report_card import models
from mcqa_probes.experiments.report_card.models import CAUSAL_LM, GLOVE_CONTROL, CardModel, classify_all, slug


def test_labels_and_their_file_names_are_unique_and_no_model_takes_a_controls(monkeypatch):
    monkeypatch.setattr(models, "classify", lambda argument: CardModel(argument, CAUSAL_LM, Path(argument).name,
                                                                       argument, "fingerprint"))
    page = classify_all(["a/gpt2", "b/gpt2", "d/gpt2_2", "e/gpt2", "x/模型", "y/型号", f"c/{GLOVE_CONTROL}"])
    labels = [model.label for model in page]
    # gpt2 (2)'s file name is gpt2_2: the model named gpt2_2 is relabelled; unicode names whose file names
    # would both be "model" are told apart; a model named after the control is not the control
    assert labels == ["gpt2", "gpt2 (2)", "gpt2_2 (2)", "gpt2 (3)", "模型", "型号 (2)", f"{GLOVE_CONTROL} (2)"]
    slugs = [slug(label) for label in labels]
    assert len(set(slugs)) == len(slugs) and slug(GLOVE_CONTROL) not in slugs
    assert [model.argument for model in page][2] == "d/gpt2_2"  # only the label changes

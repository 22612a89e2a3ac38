import pytest
from allennlp.predictors import Predictor

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from tests.models.test_transformer_mcqa import write_config


@pytest.fixture(scope="module")
def predictor(tmp_path_factory, tiny_roberta):
    from allennlp.commands.train import train_model_from_file

    directory = tmp_path_factory.mktemp("predictor")
    config = write_config(directory, tiny_roberta)
    train_model_from_file(str(config), str(directory / "run"))
    return Predictor.from_path(str(directory / "run" / "model.tar.gz"), "mcqa")


def test_adhoc_question(predictor):
    result = predictor.predict_json({"question": "A sparrow is a kind of", "choices": ["bird", "fish", "rock"]})
    assert len(result["probabilities"]) == 3 and result["labels"] == ["A", "B", "C"]
    assert result["best_choice_text"] == result["choices"][result["best_choice_index"]]
    assert "correct" not in result


def test_full_format_with_answer_key_reports_correctness(predictor):
    line = {"id": "q1", "question": {"stem": "Which is cold?", "choices": [{"label": "1", "text": "ice"}, {"label": "2", "text": "fire"}]},
            "answerKey": "1", "notes": {"hops": 2}}
    result = predictor.predict_json(line)
    assert result["id"] == "q1" and result["answer_index"] == 0
    assert result["correct"] == (result["best_choice_index"] == 0)
    assert result["notes"] == {"hops": 2}


def test_batch_equals_single(predictor):
    inputs = [{"question": "Pick a color", "choices": ["blue", "seven"]},
              {"question": "Pick a bird", "choices": ["sparrow", "oak", "granite", "canoe", "tulip", "hammer"]}]
    batch = predictor.predict_batch_json(inputs)
    for item, result in zip(inputs, batch):
        single = predictor.predict_json(item)
        assert single["probabilities"] == pytest.approx(result["probabilities"], abs=1e-5)


def test_bad_adhoc_input(predictor):
    with pytest.raises(ValueError, match="at least 2 choices"):
        predictor.predict_json({"question": "x", "choices": ["only"]})

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


def test_probe_report_items_file_from_predictions_agrees_with_the_evaluation_path(predictor, tmp_path, capsys):
    """`allennlp predict` lines -> bin/probe_report --items-file: the records of the one writer, with the
    probabilities and answers the model gives through the evaluation loop's records."""
    import json
    import runpy

    from mcqa_probes.common.io import read_jsonl
    from mcqa_probes.data.question import read_questions
    from mcqa_probes.metrics.item_records import read_item_records
    from mcqa_probes.training.evaluation import answer_questions, item_records
    from tests.conftest import FIXTURES, ROOT

    data = FIXTURES / "probes" / "hypernymy" / "dev.jsonl"
    lines = [line for _, line in read_jsonl(data)]
    predictions = predictor.predict_batch_json(lines)
    path = tmp_path / "predictions.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in predictions))
    main = runpy.run_path(str(ROOT / "bin" / "probe_report"), run_name="bin_script")["main"]
    items = tmp_path / "items.jsonl"
    assert main([str(path), "--out", str(tmp_path / "report"), "--items-file", str(items), "--model-label", "tiny",
                 "--probe", "hypernymy"]) == 0
    assert f"item records: {len(lines)} questions written to {items}" in capsys.readouterr().out
    records = read_item_records(items)
    assert [r["id"] for r in records] == [p["id"] for p in predictions]
    assert {(r["model"], r["section"], r["probe"], r["primary"]) for r in records} == {("tiny", "predict", "hypernymy",
                                                                                        "mcqa")}
    answers = answer_questions(predictor._model, predictor._dataset_reader, list(read_questions(str(data))))
    evaluated = item_records(answers, "tiny", "predict", "hypernymy")
    for record, prediction, other in zip(records, predictions, evaluated):
        assert record["chosen"]["mcqa"] == prediction["best_choice_index"] == other["chosen"]["mcqa"]
        assert record["correct"]["mcqa"] == prediction["correct"]
        assert record["probabilities"]["mcqa"] == pytest.approx(prediction["probabilities"], abs=1e-6)
        assert record["probabilities"]["mcqa"] == pytest.approx(other["probabilities"]["mcqa"], abs=1e-5)
        for key in ("gold", "cluster", "hops", "distractor_family", "concept", "choices"):
            assert record[key] == other[key], key

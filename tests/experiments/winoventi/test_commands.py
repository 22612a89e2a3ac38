"""End to end (in process): allennlp train/evaluate with the WinoVenti and CommonsenseQA configs, the bin/ commands, fine-tuning."""
import json
import sys

from mcqa_probes.experiments.winoventi.finetune import finetune_on_exceptions, format_before_after
from tests.conftest import FIXTURES, ROOT, load_bin

TSV = FIXTURES / "winoventi" / "winoventi_small.tsv"


def bin_main(name, argv, capsys):
    """Run bin/<name>'s main(argv) in this process (a subprocess would re-import torch and allennlp)."""
    module = load_bin(name)
    capsys.readouterr()
    code = module.main([str(a) for a in argv])
    return code, capsys.readouterr().out


def allennlp(argv, monkeypatch):
    """The allennlp command line, in process (as `allennlp ...` with the .allennlp_plugins file)."""
    from allennlp.commands import main

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "argv", ["allennlp", *[str(a) for a in argv]])
    main()


def test_allennlp_evaluate_prints_generic_and_exception_accuracy(wv_bert, tmp_path, monkeypatch):
    out = tmp_path / "wv"
    monkeypatch.setenv("MODEL_NAME", wv_bert)
    allennlp(["train", "training_config/winoventi_zero_shot.jsonnet", "-s", out], monkeypatch)
    metrics = tmp_path / "metrics.json"
    allennlp(["evaluate", out / "model.tar.gz", TSV, "--output-file", metrics], monkeypatch)
    values = json.loads(metrics.read_text())
    assert values["generic_count"] == 4 and values["exception_count"] == 4
    assert 0.0 <= values["generic_accuracy"] <= 1.0 and "exception_accuracy" in values


def test_bin_commands(wv_bert, wv_roberta, tmp_path, capsys):
    code, out = bin_main("winoventi_eval", ["--model", wv_bert, "--tsv", TSV,
                                            "--registry", FIXTURES / "winoventi" / "registry_small.tsv"], capsys)
    assert code == 0 and "Intersection" in out and "multi-piece outcome words [soggy]" in out
    code, out = bin_main("winoventi_associations", ["--model", wv_bert, "--model", wv_roberta, "--nouns",
                                                    FIXTURES / "winoventi" / "nouns.txt", "--out-dir", tmp_path / "assoc",
                                                    "--k", "1", "3"], capsys)
    assert code == 0 and "Jaccard similarity" in out and len(list((tmp_path / "assoc").glob("*.jsonl"))) == 2
    code, out = bin_main("winoventi_filter", ["--model", wv_roberta, "--triples", TSV, "--out", tmp_path / "flags.tsv",
                                              "--column", "tiny"], capsys)
    assert code == 0 and "1 not scorable" in out
    assert (tmp_path / "flags.tsv").read_text().splitlines()[0].endswith("\ttiny")
    code, out = bin_main("csqa_split", [FIXTURES / "csqa" / "dev_original.jsonl", "--out-dir", tmp_path / "split"], capsys)
    assert code == 0 and (tmp_path / "split" / "test.jsonl").is_file() and "concepts" in out
    code, out = bin_main("csqa_sanity", [FIXTURES / "csqa" / "dev_hf.jsonl", tmp_path / "sane.jsonl"], capsys)
    assert code == 0 and out.startswith("10 questions in SANITY mode")
    code, out = bin_main("winoventi_finetune", ["--tsv", TSV, "--write-splits", tmp_path / "splits"], capsys)
    assert code == 0 and (tmp_path / "splits" / "full_test_mixed.tsv").is_file()


def test_finetune_before_and_after(wv_bert):
    result = finetune_on_exceptions(wv_bert, TSV, split="half", probe_type="mlp", epochs=2, lr=1e-2, batch_size=2)
    assert set(result["before"]) == {"test"} and result["train_prompts"] >= 1
    assert result["after"]["test"]["generic_prompts"] + result["after"]["test"]["exception_prompts"] >= 1
    assert "Generic before" in format_before_after(result)


def test_csqa_configs_train(tiny_bert, tmp_path, monkeypatch):
    from allennlp.commands.train import train_model_from_file

    csqa = FIXTURES / "csqa"
    for key, value in {"MODEL_NAME": tiny_bert, "EPOCHS": "1", "BATCH_SIZE": "4", "SANITY": "1",
                       "TRAIN_DATA": str(csqa / "dev_original.jsonl"), "DEV_DATA": str(csqa / "dev_hf.jsonl")}.items():
        monkeypatch.setenv(key, value)
    model = train_model_from_file(str(ROOT / "training_config" / "csqa_transformer.jsonnet"), str(tmp_path / "t"))
    config = json.loads((tmp_path / "t" / "config.json").read_text())
    assert config["dataset_reader"]["type"] == "csqa" and config["dataset_reader"]["sanity"] is True
    assert "accuracy" in model.get_metrics()
    for key, value in {"GLOVE_FILE": str(FIXTURES / "glove" / "tiny_glove.txt"), "EMBEDDING_DIM": "6", "HIDDEN": "4",
                       "BASELINE": "choice_only"}.items():
        monkeypatch.setenv(key, value)
    train_model_from_file(str(ROOT / "training_config" / "csqa_glove.jsonnet"), str(tmp_path / "g"))
    assert json.loads((tmp_path / "g" / "config.json").read_text())["model"]["type"] == "choice_only"

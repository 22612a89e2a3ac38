"""bin/winoventi_eval: a header-only TSV is an error before any model loads (not "scored 0/0
prompts"), and --json is strict JSON (an empty subset's accuracy is null, never bare NaN)."""
import json

import pytest

from mcqa_probes.common import cli
from tests.causal_models import tiny_causal  # noqa: F401
from tests.conftest import FIXTURES, load_bin

TSV = FIXTURES / "winoventi" / "winoventi_small.tsv"


def test_a_header_only_tsv_is_an_error_before_the_model_and_writes_nothing(tmp_path, capsys, monkeypatch):
    evaluate = load_bin("winoventi_eval")
    loaded = []
    monkeypatch.setattr(evaluate, "model_is_causal", lambda name: loaded.append(name) or True)
    header = tmp_path / "hdr.tsv"
    for text in (TSV.read_text().splitlines()[0] + "\n", TSV.read_text().splitlines()[0] + "\n\n\t\n"):
        header.write_text(text)
        assert cli.run(evaluate.main, ["--model", str(tmp_path / "no_model"), "--tsv", str(header),
                                       "--json", str(tmp_path / "rows.json"), "--cuda-device", "-1"]) == 2
        assert capsys.readouterr().err == (f"error: {header}: no prompts: the file has only its header row "
                                           "(expected the WinoVenti prompts, one per row after it)\n")
    assert not loaded and not (tmp_path / "rows.json").exists()


def test_strict_json_replaces_nan():
    strict_json = load_bin("winoventi_eval").strict_json
    assert strict_json([{"all": {"generic": float("nan"), "n": 0, "x": [float("inf"), 1.5]}, "m": "a"}]) == \
        [{"all": {"generic": None, "n": 0, "x": [None, 1.5]}, "m": "a"}]


def test_an_empty_individual_subset_is_null_in_the_json(tiny_causal, tmp_path):  # noqa: F811
    directory = tiny_causal("gpt2", 512)
    registry = tmp_path / "registry.tsv"  # model-c passes no pair: Individual N = 0
    lines = (FIXTURES / "winoventi" / "registry_small.tsv").read_text().splitlines()
    registry.write_text("\n".join([lines[0] + "\tmodel-c"] + [line + "\tFalse" for line in lines[1:]]) + "\n")
    out = tmp_path / "rows.json"
    main = load_bin("winoventi_eval").main
    assert main(["--model", directory, "--tsv", str(TSV), "--registry", str(registry), "--registry-name", "model-c",
                 "--cuda-device", "-1", "--json", str(out)]) == 0
    text = out.read_text()
    assert "NaN" not in text and "Infinity" not in text
    [row] = json.loads(text, parse_constant=lambda name: pytest.fail(f"bare {name} in the JSON"))
    assert row["individual"]["n"] == 0 and row["individual"]["generic"] is None
    assert row["individual"]["exception"] is None and row["all"]["n"] == 5
    assert isinstance(row["all"]["generic"], float)


def test_the_header_check_comes_before_torch_loads(tmp_path):
    import sys

    from tests.bin.test_model_names import LOADED, command, error_lines
    from tests.conftest import ROOT

    header = tmp_path / "hdr.tsv"
    header.write_text(TSV.read_text().splitlines()[0] + "\n")
    result = command([sys.executable, "-c", LOADED, ROOT / "bin" / "winoventi_eval", "--model", "minilm", "--tsv",
                      header])
    assert error_lines(result)[0].startswith(f"error: {header}: no prompts")
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"status": cli.BAD_INPUT, "loaded": []}

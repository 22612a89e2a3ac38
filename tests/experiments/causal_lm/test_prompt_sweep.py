"""bin/prompt_sweep on a tiny causal LM: every combination is a grid trial, the table equals the zero-shot
numbers of each combination, a killed sweep resumes with what is missing only, bad options are one line."""
import csv
import json
import runpy

from mcqa_probes.common import cli
from mcqa_probes.experiments.causal_lm.prompt_sweep import prompt_sweep
from mcqa_probes.experiments.causal_lm.zero_shot import PromptSettings, causal_zero_shot_evaluate
from tests.causal_models import tiny_causal  # noqa: F401
from tests.conftest import FIXTURES, ROOT

HYPERNYMY = FIXTURES / "probes" / "hypernymy" / "dev.jsonl"
DICTIONARY = FIXTURES / "probes" / "dictionary" / "dev.jsonl"


def test_every_combination_once_with_its_zero_shot_numbers(tiny_causal, tmp_path):
    model = tiny_causal("gpt2", 1024)
    result = prompt_sweep(model, [str(HYPERNYMY), str(DICTIONARY)], str(tmp_path), ("cloze", "letters"),
                          (None, "{stem} Answer:"), (0, 2), limit=6)
    rows = result["rows"]
    # per file: cloze x 2 templates x 2 shots + letters x 2 shots
    assert len(rows) == 2 * (2 * 2 + 2)
    letters_two_shot = next(r for r in rows if r["file"] == "hypernymy/dev" and r["format"] == "letters"
                            and r["shots"] == 2)
    expected = causal_zero_shot_evaluate(model, str(HYPERNYMY), limit=6, cuda_device=-1, prompts=PromptSettings(
        prompt_format="letters", rotations="cyclic", shots=2, shots_from=str(HYPERNYMY.with_name("train.jsonl"))))
    for key in ("accuracy", "circular_accuracy", "rstd", "debiased_accuracy", "choice_only_accuracy"):
        assert letters_two_shot[key] == expected[key], key
    assert all(r["circular_accuracy"] is None for r in rows if r["format"] == "cloze")
    ranges = result["ranges"]
    for name in ("hypernymy/dev", "dictionary/dev"):
        accuracies = [r["accuracy"] for r in rows if r["file"] == name]
        assert ranges[name]["range"] == max(accuracies) - min(accuracies)
    markdown = (tmp_path / "sweep.md").read_text()
    assert "## The range across prompts" in markdown and "'{stem} Answer:'" in markdown
    with open(tmp_path / "sweep.csv", newline="") as handle:
        table = list(csv.reader(handle))
    assert len(table) == len(rows) + 1 and table[1][2] == "Question: {stem}\nAnswer:"
    assert (tmp_path / "sweep.png").stat().st_size > 5000
    assert json.loads((tmp_path / "sweep.json").read_text())["rows"] == json.loads(json.dumps(rows))


def test_a_killed_sweep_resumes_with_the_missing_combinations(tiny_causal, tmp_path, capsys):
    model = tiny_causal("gpt2", 1024)
    main = runpy.run_path(str(ROOT / "bin" / "prompt_sweep"), run_name="bin_script")["main"]
    arguments = ["--model", model, "--data", str(HYPERNYMY), "--shots", "0,1", "--limit", "4", "--out", str(tmp_path),
                 "--workers", "1", "--cuda-device", "-1"]
    assert main(arguments) == 0
    first = (tmp_path / "sweep.md").read_text()
    # as if the sweep had been killed before these two trials finished
    (tmp_path / "trials" / "hypernymy-dev" / "letters-t0-shots1" / "result.json").unlink()
    (tmp_path / "trials" / "hypernymy-dev" / "cloze-t0-shots0" / "result.json").unlink()
    capsys.readouterr()
    assert main(arguments) == 0
    out = capsys.readouterr().out
    assert "grid: 4 trials: 2 run, 2 finished earlier, 0 failed" in out
    again = (tmp_path / "sweep.md").read_text()
    strip = lambda text: [line.rsplit("|", 2)[0] for line in text.splitlines()]  # noqa: E731  (seconds differ)
    assert strip(again) == strip(first)


def test_bad_options_are_one_line(tmp_path, capsys):
    main = runpy.run_path(str(ROOT / "bin" / "prompt_sweep"), run_name="bin_script")["main"]
    assert cli.run(main, ["--data", str(HYPERNYMY), "--formats", "cloze,essay", "--out", str(tmp_path)]) == 2
    assert "--formats 'cloze,essay'" in capsys.readouterr().err
    assert cli.run(main, ["--data", str(HYPERNYMY), "--template", "no stem", "--out", str(tmp_path)]) == 2
    assert "must contain {stem}" in capsys.readouterr().err


def test_robust_knowledge_across_the_combinations(tiny_causal, tmp_path):
    from mcqa_probes.metrics.item_records import read_item_records

    model = tiny_causal("gpt2", 1024)
    result = prompt_sweep(model, [str(HYPERNYMY)], str(tmp_path), ("cloze", "letters"), (None,), (0,), limit=6)
    cloze = next(r for r in result["rows"] if r["format"] == "cloze")
    letters = next(r for r in result["rows"] if r["format"] == "letters")
    saved = json.loads((tmp_path / "sweep.json").read_text())["robust"]
    (group,) = saved["groups"]
    assert group["key"] == [model, "sweep", "hypernymy/dev"] and group["questions"] == 6
    # the single-prompt accuracies are the rows' numbers
    assert group["accuracy"]["cloze/sum"] == cloze["accuracy"]
    assert group["accuracy"]["choice_only"] == cloze["choice_only_accuracy"]
    (n, entry), = group["circular"].items()
    assert entry["questions"] == 6 and entry["at_least"][n] == letters["circular_accuracy"]
    # known under every prompt, recomputed from the two trials' item files
    files = sorted(tmp_path.glob("hypernymy-dev/*/items.jsonl"))
    assert len(files) == 2
    correct = {}
    for path in files:
        for record in read_item_records(path):
            correct.setdefault(record["id"], {}).update(record["correct"])
    counted = [p for p in next(iter(correct.values())) if p.startswith(("cloze/sum", "cloze/chars", "cloze/pmi",
                                                                        "letters/rot"))]
    assert len(counted) == 3 + int(n)
    known = [all(c[p] for p in counted) for c in correct.values()]
    assert group["robust_accuracy"] == sum(known) / 6
    at_least_one = [any(c[p] for p in counted if p.startswith("letters/")) for c in correct.values()]
    assert entry["at_least"]["1"] == sum(at_least_one) / 6
    assert "## Robust knowledge across prompts" in (tmp_path / "sweep.md").read_text()
    assert saved["agreement"]["prompts"][0] == "cloze/sum" and saved["agreement"]["matrix"][0][0] == 1.0

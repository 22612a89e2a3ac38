"""The self-test's runner on stand-in paths (small Python commands): statuses, the order the paths
wait for, skipped packages, failures with their log, bf16-vs-fp32 agreement and the report files."""
import json
import sys

import pytest

from mcqa_probes.common.io import write_jsonl
from mcqa_probes.experiments.selftest import runner
from mcqa_probes.experiments.selftest.paths import SelftestPath, SelftestSettings, selftest_paths


def _python(code):
    return [sys.executable, "-c", code]


def _fake_paths(work):
    """train writes a marker; evaluate reads it; the bf16 prediction disagrees only on a near-tie."""
    marker = work / "archive.txt"
    fp32, bf16 = work / "fp32.jsonl", work / "bf16.jsonl"
    write_rows = ("import json, sys; rows = {rows!r}; "
                  "open(sys.argv[1], 'w').write(''.join(json.dumps(r) + chr(10) for r in rows))")
    return [
        SelftestPath("train", _python(f"import time; time.sleep(0.3); open({str(marker)!r}, 'w').write('x')"),
                     "writes the archive", questions=10),
        SelftestPath("evaluate_fp32", _python(write_rows.format(rows=[{"logits": [[0.0, 3.0], [1.0, 1.01]]}])
                                              + f"; assert open({str(marker)!r}).read() == 'x'; "
                                                "print(json.dumps({'accuracy': 0.5}))") + [str(fp32)],
                     "reads the archive", after=("train",), predictions=fp32, questions=2),
        SelftestPath("evaluate_bf16", _python(write_rows.format(rows=[{"probabilities": [0.1, 0.9]},
                                                                      {"probabilities": [0.6, 0.4]}]))
                     + [str(bf16)], "bf16", after=("train",), predictions=bf16, agrees_with="evaluate_fp32"),
        SelftestPath("broken", _python("print('boom'); raise SystemExit(3)"), "fails"),
        SelftestPath("needs_broken", _python("pass"), "waits for broken", after=("broken",)),
        SelftestPath("optional", _python("pass"), "needs a package", needs=("no_such_package_for_the_selftest",)),
    ]


@pytest.fixture
def fake_selftest(monkeypatch, tmp_path):
    def build_models(work, cuda_device, quick):
        work.mkdir(parents=True)
        return {"encoder": work / "e", "encoder_large": None, "causal": work / "c"}

    monkeypatch.setattr(runner, "build_models", build_models)
    monkeypatch.setattr(runner, "write_selftest_data", lambda fixtures, work, questions: {})
    monkeypatch.setattr(runner, "selftest_paths", lambda settings: _fake_paths(settings.work))
    return tmp_path


@pytest.mark.parametrize("parallel", [1, 3])
def test_statuses_order_agreement_and_report(fake_selftest, parallel):
    out = fake_selftest / "out"
    lines = []
    report = runner.run_selftest(fake_selftest, out, -1, quick=True, parallel=parallel, progress=lines.append)
    paths = report["paths"]
    assert list(paths) == ["build", "train", "evaluate_fp32", "evaluate_bf16", "broken", "needs_broken", "optional"]
    assert [paths[n]["status"] for n in paths] == ["ok", "ok", "ok", "ok", "failed", "failed", "skipped"]
    assert report["summary"] == {"ok": 4, "failed": 2, "skipped": 1}
    assert paths["evaluate_fp32"]["output"] == {"accuracy": 0.5}  # the last JSON object it printed
    assert isinstance(paths["train"]["seconds"], float) and paths["train"]["questions"] == 10
    assert paths["train"]["questions_per_s"] == 10 / paths["train"]["seconds"]  # unrounded: exact
    assert paths["broken"]["error"] == "exit status 3" and "boom" in paths["broken"]["log_tail"]
    assert "broken did not succeed" in paths["needs_broken"]["error"]
    assert "no_such_package_for_the_selftest" in paths["optional"]["error"]
    # question 1: both pick choice 1; question 2: fp32 prefers 1 by 0.01 (a near-tie), bf16 picks 0
    assert paths["evaluate_bf16"]["agreement_with_fp32"] == 0.5
    assert paths["evaluate_bf16"]["agreement_beyond_ties"] == 1.0
    saved = json.loads((out / "selftest.json").read_text())
    assert saved["summary"] == report["summary"] and saved["device"].startswith("CPU")
    markdown = (out / "selftest.md").read_text()
    assert "4 ok, 2 failed, 1 skipped" in markdown
    assert "| `evaluate_bf16` | ok |" in markdown and "50.0% of 2; 100.0% beyond ties" in markdown
    assert len(lines) == 7 and all(line.startswith("[") for line in lines[1:])


def test_a_real_disagreement_fails_the_bf16_path():
    full = [[0.0, 3.0], [5.0, 0.0], [1.0, 1.0]]
    assert runner.agreement([[0.0, 3.1], [0.0, 5.0], [1.0, 1.0]], full) == {
        "agreement_with_fp32": round(2 / 3, 4), "questions_compared": 3, "agreement_beyond_ties": 0.6667}
    assert runner.agreement([[1.0, 0.0]], [[1.0, 1.02]])["agreement_beyond_ties"] is None  # only a near-tie


def test_prediction_files_of_evaluate_and_predict(tmp_path):
    evaluate, predict = tmp_path / "evaluate.jsonl", tmp_path / "predict.jsonl"
    write_jsonl(evaluate, [{"logits": [[1.0, 2.0], [3.0, 0.5]]}, {"logits": [[0.0, -1.0]]}])
    write_jsonl(predict, [{"probabilities": [0.25, 0.75], "best_choice_index": 1}])
    assert runner._question_scores(evaluate) == [[1.0, 2.0], [3.0, 0.5], [0.0, -1.0]]
    scores = runner._question_scores(predict)
    assert scores[0][1] - scores[0][0] == pytest.approx(1.0986, abs=1e-4)  # log 0.75 - log 0.25


def test_only_adds_what_a_path_reads(tmp_path):
    settings = SelftestSettings(root=tmp_path, work=tmp_path, cuda_device=-1, encoder=tmp_path, causal=tmp_path,
                                files={name: tmp_path / name for name in ("train", "dev", "test", "mc_mlm",
                                                                          "multi_piece", "winoventi", "probe_dir",
                                                                          "glove_stand_in")},
                                questions=8)
    paths = selftest_paths(settings)
    chosen = runner.select_paths(paths, ["evaluate_bf16", "bench_read"])
    assert [p.name for p in chosen] == ["train", "evaluate_fp32", "evaluate_bf16", "bench_read"]
    with pytest.raises(ValueError, match="unknown path"):
        runner.select_paths(paths, ["no_such_path"])


@pytest.mark.parametrize("glove", [True, False])
def test_the_report_card_reads_stand_in_glove_vectors_where_the_real_ones_are_missing(tmp_path, monkeypatch, glove):
    """The GPU machine cannot download GloVe (69 MB): the card's Choice-Only-GloVe control reads random
    vectors for the self-test's words there, and the real ones wherever they are installed."""
    from mcqa_probes.experiments.selftest import paths as paths_module

    monkeypatch.setattr(paths_module, "_has_glove", lambda: glove)
    files = {name: tmp_path / name for name in ("train", "dev", "test", "mc_mlm", "multi_piece", "winoventi",
                                                "probe_dir", "glove_stand_in")}
    settings = SelftestSettings(root=tmp_path, work=tmp_path, cuda_device=-1, encoder=tmp_path, causal=tmp_path,
                                files=files, questions=8)
    report = next(p for p in selftest_paths(settings) if p.name == "probe_report")
    assert report.env == ({} if glove else {"MCQA_GLOVE_FILE": str(files["glove_stand_in"])})
    assert ("stand-in" in report.what) is not glove

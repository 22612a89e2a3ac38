"""bin/gpu_selftest in its CPU mode (tiny models), as one command: every path of the self-test runs
and is ok, with its seconds (numbers, never checked against a speed), memory and log, the bf16 paths compared with fp32, the report written.
(The same command on a GPU builds models of real sizes; docs/gpu.md.)"""
import json
import subprocess
import sys

from mcqa_probes.experiments.selftest.paths import SelftestSettings, selftest_paths
from tests.conftest import ROOT


def _path_names(tmp_path):
    files = {name: tmp_path / name for name in ("train", "dev", "test", "mc_mlm", "multi_piece", "winoventi",
                                                "probe_dir")}
    settings = SelftestSettings(root=ROOT, work=tmp_path, cuda_device=-1, encoder=tmp_path, causal=tmp_path,
                                files=files, questions=8)
    return [path.name for path in selftest_paths(settings)]


def test_the_cpu_mode_runs_every_path(tmp_path):
    out = tmp_path / "selftest"
    process = subprocess.run([sys.executable, str(ROOT / "bin" / "gpu_selftest"), "--cuda-device", "-1", "--quick",
                              "--parallel", "2", "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                             timeout=900)
    report = json.loads((out / "selftest.json").read_text())
    failed = {name: entry.get("log_tail") for name, entry in report["paths"].items() if entry["status"] != "ok"}
    assert process.returncode == 0 and not failed, (failed, process.stdout[-3000:], process.stderr[-3000:])
    assert list(report["paths"]) == ["build"] + _path_names(tmp_path)
    assert report["cuda_device"] == -1 and report["quick"] and report["summary"]["ok"] == len(report["paths"])
    for name, entry in list(report["paths"].items())[1:]:
        assert isinstance(entry["seconds"], (int, float)) and isinstance(entry["peak_memory_mb"], (int, float)), name
        assert (out / "logs" / f"{name}.log").read_text().startswith("$ "), name
        if entry["questions"]:  # the rate is the path's questions over its seconds
            assert entry["questions_per_s"] == (entry["questions"] / entry["seconds"] if entry["seconds"] else None), name
    for name in ("evaluate_bf16", "predict_bf16", "causal_evaluate_bf16"):
        entry = report["paths"][name]
        assert entry["questions_compared"] == report["questions_per_file"], name
        assert 0 <= entry["agreement_with_fp32"] <= 1, name
    # what the paths wrote: the archive, the grid's table, the report card, the benchmarks' figures
    work = out / "work"
    assert (work / "archive" / "model.tar.gz").exists() and (work / "causal_archive" / "model.tar.gz").exists()
    assert (work / "inoculation" / "inoculation.csv").read_text().count("\n") >= 3  # header + 2 trials
    assert (work / "report" / "report.html").exists()
    assert report["paths"]["bench_causal"]["output"]["files"][0]["same_choices"] >= 0.995
    assert report["paths"]["zero_shot_causal"]["output"]["count"] == report["questions_per_file"]
    markdown = (out / "selftest.md").read_text()
    assert f"**{len(report['paths'])} ok, 0 failed, 0 skipped**" in markdown
    assert all(f"| `{name}` | ok |" in markdown for name in report["paths"])
    assert markdown in process.stdout

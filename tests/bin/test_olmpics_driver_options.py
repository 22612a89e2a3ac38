"""bin/learning_curve and bin/olmpics_suite: bad option values and missing files are one line each
before any run starts or anything is written (they failed every run of the grid, wrote an empty
curve for --seeds 0, or named no option)."""
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES, ROOT

TRAIN = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_train.jsonl"
DEV = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl"
CONFIG = ROOT / "training_config" / "olmpics_mc_mlm.jsonnet"


def run(name, *args):
    result = subprocess.run([sys.executable, str(ROOT / "bin" / name), *map(str, args)], capture_output=True,
                            text=True, timeout=300)
    return result.returncode, result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""


@pytest.mark.parametrize("args,expected", [
    (["--sizes", "1,a"], "learning_curve: error: argument --sizes: '1,a': expected comma-separated integers"),
    (["--sizes", "0,8"], "learning_curve: error: argument --sizes: '0,8': 0 is below 1; expected values >= 1"),
    (["--sizes", "8,8"], "learning_curve: error: argument --sizes: '8,8': a value given twice"),
    (["--seeds", "0"], "learning_curve: error: argument --seeds: 0: expected an integer >= 1"),
    (["--dev-limit", "-3"], "learning_curve: error: argument --dev-limit: -3: expected an integer >= 1"),
    (["--overrides", "{x"], "learning_curve: error: argument --overrides: '{x': not JSON"),
    (["--config", "nope.jsonnet"], "error: --config nope.jsonnet: no such file (expected a training config"),
    (["--dev", "nope.jsonl"], "error: --dev nope.jsonl: no such file (expected an oLMpics jsonl file)"),
])
def test_learning_curve_options(args, expected, tmp_path):
    out = tmp_path / "out"
    status, line = run("learning_curve", "--config", CONFIG, "--train", TRAIN, "--dev", DEV, "--out", out, *args)
    assert status == 2 and line.startswith(expected), line
    assert not out.exists()


@pytest.mark.parametrize("args,expected", [
    (["--data-dir", FIXTURES / "olmpics", "--probes", "bogus,age_comparison"],
     "error: --probes bogus,age_comparison: unknown probe bogus (expected a comma list of: always_never, "),
    (["--data-dir", "/nonexistent/olmpics"], "error: --data-dir /nonexistent/olmpics: no such directory"),
    (["--data-dir", FIXTURES / "olmpics", "--sizes", "62,,x"], "olmpics_suite: error: argument --sizes: '62,,x': "
                                                               "expected comma-separated integers"),
])
def test_olmpics_suite_options(args, expected, tmp_path):
    out = tmp_path / "out"
    status, line = run("olmpics_suite", "--out", out, *args)
    assert status == 2 and line.startswith(expected), line
    assert not out.exists()

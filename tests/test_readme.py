"""The README's quick commands print what the README says (bin/check_readme), and the checker
itself tells a matching output from a different one."""
import importlib.machinery
import importlib.util
import subprocess
import sys

from tests.conftest import ROOT


def checker():
    loader = importlib.machinery.SourceFileLoader("check_readme", str(ROOT / "bin" / "check_readme"))
    spec = importlib.util.spec_from_loader("check_readme", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_compare_matches_shape_not_values():
    check = checker()
    expected = 'accuracy 48.6 of 500\n{"id": "q1", ...}'
    assert check.compare(expected, "noise\naccuracy 51.2 of 120\n{\"id\": \"q1\", \"p\": [0.1]}") == []
    assert check.compare(expected, "accuracy high of 500\n{\"id\": \"q1\"}") == ["accuracy 48.6 of 500"]
    assert check.compare(expected, "{\"id\": \"q1\", \"x\": 1}\naccuracy 1 of 2") != []  # order matters


def test_readme_blocks_are_marked():
    checks, outputs = checker().blocks((ROOT / "README.md").read_text())
    names = [name for name, _ in checks]
    assert names == ["smoke", "quick-probes"] and set(outputs) == set(names)
    assert "probe-report" in dict(checks)["quick-probes"] and "predict" in dict(checks)["smoke"]


def test_readme_quick_commands_print_what_the_readme_says():
    result = subprocess.run([sys.executable, str(ROOT / "bin" / "check_readme")], cwd=ROOT, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert result.stdout.count("output as in the README") == 2

"""bin/bench_build --source: one row per source with read and build times, ratio, memory and the
per-1,000-concept figures, the questions and MB written (checked for shape, never for speed)."""
import subprocess
import sys

from tests.conftest import FIXTURES, ROOT, load_bin


def test_each_source_gets_a_row_whose_ratio_is_build_over_read():
    result = subprocess.run([sys.executable, str(ROOT / "bin" / "bench_build"), "--source",
                             str(FIXTURES / "ontologies" / "vehicles.obo"), "--source", "synthetic:300",
                             "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].split()[:4] == ["source", "concepts", "read", "s"]
    rows = {line.split()[0]: line.split() for line in lines[1:3]}
    assert set(rows) == {str(FIXTURES / "ontologies" / "vehicles.obo")[-44:], "synthetic:300"}
    vehicles, synthetic = rows[str(FIXTURES / "ontologies" / "vehicles.obo")[-44:]], rows["synthetic:300"]
    assert vehicles[1] == "27" and synthetic[1] == "300"
    for row in (vehicles, synthetic):
        read, build, ratio = float(row[2]), float(row[3]), row[4]
        assert build >= read                      # the whole build includes the read (rounding keeps >=)
        assert ratio == "n/a" or float(ratio.rstrip("x")) >= 1.0
        assert float(row[5]) > 0 and int(row[8]) > 0           # peak memory, questions
        assert float(row[9]) > 0                                 # MB of jsonl written
    assert lines[-2].startswith("targets: whole build <= 3x the read")
    assert lines[-1].startswith("gen / write cpu s:")


def test_repeated_runs_show_the_run_with_the_median_ratio_and_the_range():
    median_run = load_bin("bench_build").median_run
    runs = [{"read_seconds": 1.0, "build_seconds": build, "tag": tag}
            for build, tag in [(5.0, "a"), (3.0, "b"), (4.0, "c"), (9.0, "d")]]
    chosen = median_run(runs)
    assert chosen["tag"] == "c"                       # ratios 3, 4, 5, 9: the lower middle one
    assert (chosen["ratio_min"], chosen["ratio_max"], chosen["runs"]) == (3.0, 9.0, 4)
    assert median_run(runs[:3])["tag"] == "c"         # 3, 4, 5
    assert median_run([runs[0]])["tag"] == "a"

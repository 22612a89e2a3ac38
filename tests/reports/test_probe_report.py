import json

from mcqa_probes.reports.probe_report import probe_report
from tests.metrics.test_probe_metrics import PREDICTIONS


def test_report_files_and_heatmap_cells(tmp_path):
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text("\n".join(json.dumps(p) for p in PREDICTIONS) + "\n")
    summary = probe_report(str(predictions), str(tmp_path / "out"))
    written = json.loads((tmp_path / "out" / "report.json").read_text())
    assert written["breakdown"]["rows"] == ["1", "2"]
    assert written["breakdown"]["columns"] == ["random@0", "sister@1"]  # families in paper order
    assert written["breakdown"]["cells"]["1"]["random@0"] == {"correct": 1, "total": 2, "accuracy": 0.5}
    markdown = (tmp_path / "out" / "report.md").read_text()
    assert "| 1 | 50.0 (2) | 100.0 (1) |" in markdown and "| 2 |  | 50.0 (2) |" in markdown
    png = (tmp_path / "out" / "breakdown_heatmap.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and summary["heatmap"].endswith("breakdown_heatmap.png")

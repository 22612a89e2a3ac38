"""mcqa_probes.reports.browser and bin/screenshot_report: pages loaded in real headless Chromium.

These tests need Chromium (bin/setup installs the Debian package when run as root): without it
they fail, naming how to install it, rather than being skipped.
"""
import base64
import json
import struct
import subprocess
import sys
import zlib

import pytest

from mcqa_probes.reports.browser import find_chromium, inspect_page
from tests.conftest import ROOT


def tiny_png(width=40, height=20, rgb=(220, 20, 20)) -> bytes:
    """A solid-colour RGB PNG, made by hand."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def png_size(path):
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR"
    return struct.unpack(">II", header[16:24])


DATA_URI = "data:image/png;base64," + base64.b64encode(tiny_png()).decode()
TABLE = """<table><thead><tr><th>Probe</th><th>Acc (%)</th></tr></thead>
<tbody><tr><td>hypernymy</td><td> 71.5 </td></tr>
<tr><td>synonymy &amp; antonymy</td><td>64.0<br>(n = 3)</td></tr></tbody></table>"""
ROWS = [["Probe", "Acc (%)"], ["hypernymy", "71.5"], ["synonymy & antonymy", "64.0 (n = 3)"]]


def page(body, title="Report card"):
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><h1>{title}</h1>{body}</body></html>")


def test_chromium_is_installed():
    assert find_chromium()  # RuntimeError says how to install it


def test_images_broken_images_tables_and_a_full_page_screenshot(tmp_path):
    html = tmp_path / "report.html"
    html.write_text(page(f'{TABLE}<p><img alt="heatmap" src="{DATA_URI}"></p>'
                         '<p><img alt="curve" src="figures/missing.png"></p><div style="height:1500px"></div>'))
    shot = tmp_path / "shots" / "report.png"
    result = inspect_page(html, shot, width=800)
    assert result["images"] == 2
    assert result["broken_images"] == ["figures/missing.png"]
    assert result["tables"] == [ROWS]
    assert result["title"] == "Report card"
    assert result["screenshot"] == str(shot)
    width, height = png_size(shot)
    assert width == 800 and 1600 < height < 2500  # the whole page, not just one window
    # the temporary copy with the check script is gone; the page itself is untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html", "shots"]
    assert "data-mcqa" not in html.read_text()


def test_a_page_whose_images_all_load(tmp_path):
    (tmp_path / "figure.png").write_bytes(tiny_png(rgb=(20, 20, 220)))
    html = tmp_path / "ok.html"
    far = '<img src="figure.png" style="display:block; margin-top:3000px" loading="lazy">'  # off-screen
    html.write_text(page(f'<img alt="inline" src="{DATA_URI}"><img src="figure.png" loading="lazy">{far}',
                         title="All good"))
    result = inspect_page(html, tmp_path / "ok.png", width=640, height=300)
    assert result["images"] == 3 and result["broken_images"] == []
    assert result["tables"] == [] and result["title"] == "All good"
    assert png_size(tmp_path / "ok.png") == (640, 300)  # an explicit height: just that window
    from PIL import Image

    with Image.open(tmp_path / "ok.png") as image:  # the inline image was painted
        colours = {colour: count for count, colour in image.convert("RGB").getcolors(1 << 20)}
        assert colours.get((220, 20, 20), 0) >= 40 * 20


def test_no_screenshot_unless_asked_and_errors(tmp_path, monkeypatch):
    html = tmp_path / "plain.html"
    html.write_text(page(TABLE))
    result = inspect_page(html)
    assert result["screenshot"] is None and result["images"] == 0 and result["tables"] == [ROWS]
    with pytest.raises(FileNotFoundError, match="nowhere.html"):
        inspect_page(tmp_path / "nowhere.html")
    monkeypatch.setenv("MCQA_CHROMIUM", str(tmp_path / "no-such-chromium"))
    with pytest.raises(RuntimeError, match="apt-get install"):
        inspect_page(html)
    fails = tmp_path / "fails"
    fails.write_text("#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n")
    fails.chmod(0o755)
    monkeypatch.setenv("MCQA_CHROMIUM", str(fails))
    with pytest.raises(RuntimeError, match=r"exit code 3(.|\n)*cannot open display"):
        inspect_page(html)


def test_screenshot_report_cli(tmp_path):
    (tmp_path / "report.html").write_text(page(f'{TABLE}<img src="{DATA_URI}"><img src="gone.png">'))
    result = subprocess.run([sys.executable, str(ROOT / "bin" / "screenshot_report"), str(tmp_path),
                             "--width", "700"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr  # a broken image
    assert json.loads(result.stdout) == {"images": 2, "broken_images": 1, "tables": 1,
                                         "screenshot": str(tmp_path / "report.png")}
    assert "broken image: gone.png" in result.stderr
    assert png_size(tmp_path / "report.png")[0] == 700

"""Check that an HTML page renders in a real browser: headless Chromium, no driver library.

* :func:`find_chromium` -- the Chromium (or Chrome) binary: ``$MCQA_CHROMIUM``, else ``chromium``,
  ``chromium-browser``, ``google-chrome`` or ``google-chrome-stable`` on ``PATH``;
* :func:`inspect_page` -- load a page, and say which of its images did not load, what its tables
  hold, how wide they are and what its title is; optionally take a (full-page) screenshot.

How: Chromium's ``--dump-dom`` prints the DOM after the page has run. The page is not required
to carry any check of its own: a temporary copy of it is written next to the original (so that
relative image paths resolve the same way), with a small script appended that, on ``load``,
marks every ``<img>`` with ``data-mcqa-loaded="1"`` or ``"0"`` (``complete && naturalWidth > 0``)
and every ``<table>`` with its rendered width, and writes the page's height, width, viewport width
and title onto ``<html>``. The dumped DOM is then read with :mod:`html.parser`, and the copy removed. A screenshot is a second run on the original page
(``--screenshot``), as tall as the page measured by the first (at most :data:`MAX_HEIGHT` px).

:func:`load_page` is the same load for a page that renders itself with JavaScript (the item
browser): it opens the page at a URL fragment (``#probe=...``: the page's own filters), records any
uncaught JavaScript error (a script put first in ``<head>`` writes them onto ``<html>``) and returns
the dumped DOM for the caller to read.

Each run gets a fresh ``--user-data-dir`` and ``HOME`` in a temporary directory, removed
afterwards, so nothing is left behind. Plain Python: no torch, no third-party packages.
"""
import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Union

PathLike = Union[str, Path]

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL_HINT = ("install it with `apt-get install -y --no-install-recommends chromium` (bin/setup does this "
                "when run as root), or point MCQA_CHROMIUM at a Chromium/Chrome binary")
MAX_HEIGHT = 20000
# Window height for the measuring run: small, so that a page's scrollHeight is its content's
# height and not the viewport's (in --dump-dom runs the viewport is the window less ~143 px).
MEASURE_HEIGHT = 200
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
         "--allow-file-access-from-files", "--no-first-run", "--no-default-browser-check",
         "--disable-extensions", "--disable-background-networking", "--disable-sync",
         "--disable-crash-reporter", "--disable-breakpad", "--mute-audio", "--force-device-scale-factor=1")
MARK = "data-mcqa-inspect"
CHECK_SCRIPT = """
<script %s>(function () {
  var root = document.documentElement;
  for (var k = 0; k < document.images.length; k++) {
    if (document.images[k].loading === "lazy") document.images[k].loading = "eager";
  }
  function done() {
    var images = document.images;
    for (var k = 0; k < images.length; k++) {
      var ok = images[k].complete && images[k].naturalWidth > 0;
      images[k].setAttribute("data-mcqa-loaded", ok ? "1" : "0");
    }
    var tables = document.getElementsByTagName("table");
    for (var t = 0; t < tables.length; t++) {
      tables[t].setAttribute("data-mcqa-width", String(Math.ceil(tables[t].getBoundingClientRect().width)));
    }
    var body = document.body ? document.body.scrollHeight : 0;
    root.setAttribute("data-mcqa-height", String(Math.ceil(Math.max(root.scrollHeight, body))));
    root.setAttribute("data-mcqa-viewport", String(root.clientWidth));
    root.setAttribute("data-mcqa-page-width", String(Math.ceil(Math.max(root.scrollWidth, document.body ? document.body.scrollWidth : 0))));
    root.setAttribute("data-mcqa-title", document.title);
    root.setAttribute("data-mcqa-done", "1");
  }
  if (document.readyState === "complete") { done(); }
  else { window.addEventListener("load", function () { setTimeout(done, 0); }); }
})();</script>
""" % MARK


ERROR_SCRIPT = """<script %s>(function () {
  var errors = [];
  function keep(text) {
    errors.push(String(text));
    document.documentElement.setAttribute("data-mcqa-errors", JSON.stringify(errors));
  }
  window.addEventListener("error", function (event) {
    keep((event.message || "error") + (event.lineno ? " (line " + event.lineno + ")" : ""));
  });
  window.addEventListener("unhandledrejection", function (event) { keep("unhandled rejection: " + event.reason); });
})();</script>""" % MARK


def find_chromium() -> str:
    """Path of the Chromium/Chrome binary: ``$MCQA_CHROMIUM``, else the first of
    :data:`CANDIDATES` on ``PATH``. ``RuntimeError`` (saying how to install it) if there is none."""
    chosen = os.environ.get("MCQA_CHROMIUM")
    if chosen:
        found = shutil.which(chosen)
        if not found:
            raise RuntimeError(f"MCQA_CHROMIUM={chosen}: no such executable; {INSTALL_HINT}")
        return found
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError(f"no Chromium found (looked for {', '.join(CANDIDATES)} on PATH): {INSTALL_HINT}")


def _stderr_tail(stderr: bytes, limit: int = 2000) -> str:
    # Chromium logs D-Bus complaints on machines without a session bus: noise, not the cause.
    lines = [line for line in stderr.decode("utf-8", "replace").splitlines() if "dbus" not in line.lower()]
    return "\n".join(lines)[-limit:] or "(nothing on stderr)"


def _run_chromium(binary: str, args: List[str], timeout: float) -> bytes:
    """Run Chromium once with :data:`FLAGS` + ``args`` in a throw-away profile and HOME; its stdout."""
    with tempfile.TemporaryDirectory(prefix="mcqa_chromium_", ignore_cleanup_errors=True) as scratch:
        env = dict(os.environ, HOME=scratch, XDG_CONFIG_HOME=os.path.join(scratch, "config"),
                   XDG_CACHE_HOME=os.path.join(scratch, "cache"))
        command = [binary, *FLAGS, f"--user-data-dir={os.path.join(scratch, 'profile')}", *args]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                   start_new_session=True)
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the browser and its helper processes (own session)
            _, stderr = process.communicate()
            raise RuntimeError(f"Chromium did not finish within {timeout} s ({binary}); stderr:\n"
                               f"{_stderr_tail(stderr)}") from None
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if process.returncode != 0:
            raise RuntimeError(f"Chromium failed (exit code {process.returncode}, {binary}); stderr:\n"
                               f"{_stderr_tail(stderr)}")
        return stdout


def _with_check_script(html: bytes) -> bytes:
    """The page with :data:`CHECK_SCRIPT` before its last ``</body>`` (or at its end)."""
    script = CHECK_SCRIPT.encode("ascii")
    at = html.lower().rfind(b"</body>")
    return html + script if at < 0 else html[:at] + script + html[at:]


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


class _DumpedDom(HTMLParser):
    """Reads the annotated images, the tables and the marks on ``<html>`` from a dumped DOM."""

    SKIP = {"script", "style", "template", "noscript"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root: Dict[str, str] = {}
        self.images: List[Dict[str, str]] = []
        self.tables: List[List[List[str]]] = []
        self.table_widths: List[int] = []
        self._open_tables: List[List[List[str]]] = []  # innermost last
        self._cells: List[List[str]] = []  # text pieces of the open cells, innermost last
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        if tag in self.SKIP:
            self._skip += 1
        if self._skip:
            return
        if tag == "html" and not self.root:
            self.root = attributes
        elif tag == "img":
            self.images.append(attributes)
        elif tag == "table":
            table: List[List[str]] = []
            self.tables.append(table)
            self.table_widths.append(int(attributes.get("data-mcqa-width") or 0))
            self._open_tables.append(table)
        elif tag == "tr" and self._open_tables:
            self._open_tables[-1].append([])
        elif tag in ("td", "th") and self._open_tables:
            if not self._open_tables[-1]:
                self._open_tables[-1].append([])
            self._cells.append([])
        elif tag == "br":
            self._text(" ")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in self.SKIP:
            self._skip -= 1

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self._skip = max(0, self._skip - 1)
            return
        if self._skip:
            return
        if tag in ("td", "th") and self._cells and self._open_tables:
            text = " ".join("".join(self._cells.pop()).split())
            self._open_tables[-1][-1].append(text)
        elif tag == "table" and self._open_tables:
            self._open_tables.pop()

    def handle_data(self, data):
        if not self._skip:
            self._text(data)

    def _text(self, data):
        for cell in self._cells:  # a nested table's text also counts in its outer cell
            cell.append(data)


def _image_label(attributes: Dict[str, str]) -> str:
    src, alt = attributes.get("src", ""), attributes.get("alt", "")
    if src.startswith("data:") and alt:
        return alt
    return _short(src) if src else (alt or "(img without src)")


def _existing(html_path: PathLike) -> Path:
    page = Path(html_path).resolve()
    if not page.is_file():
        raise FileNotFoundError(f"no HTML page at {html_path}")
    return page


@contextlib.contextmanager
def _instrumented_copy(page: Path, instrumented: bytes) -> Iterator[Path]:
    """A temporary copy of ``page`` with ``instrumented`` content next to it (so that relative paths
    resolve the same way), removed afterwards."""
    copy = page.with_name(f".{page.stem}.mcqa-inspect-{secrets.token_hex(4)}.html")
    base_dir = None
    try:
        try:
            copy.write_bytes(instrumented)
        except OSError:  # read-only directory: a copy elsewhere, with <base> pointing back at the page's
            base_dir = tempfile.mkdtemp(prefix="mcqa_inspect_")
            copy = Path(base_dir) / "page.html"
            base = f'<base href="{page.parent.as_uri()}/">'.encode()
            copy.write_bytes(base + instrumented)
        yield copy
    finally:
        copy.unlink(missing_ok=True)
        if base_dir:
            shutil.rmtree(base_dir, ignore_errors=True)


def _with_error_script(html: bytes) -> bytes:
    """The page with :data:`ERROR_SCRIPT` right after ``<head>`` (before the page's own scripts)."""
    script = ERROR_SCRIPT.encode("ascii")
    lower = html.lower()
    at = lower.find(b"<head")
    if at >= 0:
        at = lower.find(b">", at) + 1
        return html[:at] + script + html[at:]
    return script + html


def load_page(html_path: PathLike, fragment: str = "", width: int = 1280, height: int = 800,
              timeout: float = 60) -> Dict[str, object]:
    """Load ``html_path`` (at ``#fragment`` when given) in headless Chromium, let its scripts run, and
    return ``{"dom": the DOM as Chromium dumps it, "errors": [uncaught JavaScript errors], "title"}``.

    ``FileNotFoundError`` when the page does not exist; ``RuntimeError`` when Chromium is missing or
    fails, or the page's ``load`` event does not come within the time budget."""
    page = _existing(html_path)
    suffix = f"#{fragment.lstrip('#')}" if fragment else ""
    dom, parser = _dump_dom(page, _with_check_script(_with_error_script(page.read_bytes())), width, height, timeout,
                            suffix)
    errors = json.loads(parser.root.get("data-mcqa-errors") or "[]")
    return {"dom": dom, "errors": errors, "title": parser.root.get("data-mcqa-title", "")}


def _budget(timeout: float) -> List[str]:
    return [f"--virtual-time-budget={int(min(timeout, 30) * 1000)}"]


def _dump_dom(page: Path, instrumented: bytes, width: int, height: int, timeout: float, fragment: str = ""):
    """Load an instrumented copy of ``page`` (at ``#fragment``) and return ``(DOM text, parsed DOM)``;
    the one home of the dump-and-check step of :func:`load_page` and :func:`inspect_page`."""
    budget = _budget(timeout)
    with _instrumented_copy(page, instrumented) as copy:
        dom = _run_chromium(find_chromium(), [*budget, f"--window-size={width},{height}", "--dump-dom",
                                              copy.as_uri() + fragment], timeout)
    text = dom.decode("utf-8", "replace")
    parser = _DumpedDom()
    parser.feed(text)
    parser.close()
    if parser.root.get("data-mcqa-done") != "1":
        raise RuntimeError(f"{page}: the page's load event did not come within the time budget "
                           f"({budget[0]}), or Chromium printed no DOM")
    return text, parser


def inspect_page(html_path: PathLike, screenshot_path: Optional[PathLike] = None, width: int = 1280,
                 height: Optional[int] = None, timeout: float = 60) -> dict:
    """Load ``html_path`` in headless Chromium and report what the browser saw.

    Returns ``{"images": n, "broken_images": [...], "tables": [...], "title": str,
    "screenshot": path or None}``: ``broken_images`` names each ``<img>`` that had not loaded by
    the ``load`` event (not ``complete`` or ``naturalWidth == 0``) by its ``src`` (cut to 80
    characters) or, for an inline ``data:`` image with an ``alt``, by that; ``tables`` holds each
    ``<table>`` as rows of cell texts (whitespace collapsed), in document order, and
    ``table_widths`` their rendered widths in px; ``viewport_width`` is the window's width and
    ``page_width`` the page's scroll width (wider than the viewport: the page scrolls sideways). With
    ``screenshot_path`` a PNG of the page at ``width`` px is written: ``height`` px tall, or with
    ``height=None`` the whole page (at most :data:`MAX_HEIGHT` px). ``timeout`` applies to each
    Chromium run. ``FileNotFoundError`` when the page does not exist; ``RuntimeError`` when
    Chromium is missing, fails (its stderr tail is in the message) or the page never loads.
    """
    page = _existing(html_path)
    binary = find_chromium()
    budget = _budget(timeout)
    _, parser = _dump_dom(page, _with_check_script(page.read_bytes()), width, height or MEASURE_HEIGHT, timeout)
    broken = [_image_label(image) for image in parser.images if image.get("data-mcqa-loaded") != "1"]
    shot = None
    if screenshot_path is not None:
        shot = Path(screenshot_path).resolve()
        shot.parent.mkdir(parents=True, exist_ok=True)
        shot.unlink(missing_ok=True)
        tall = height or min(MAX_HEIGHT, max(1, int(parser.root.get("data-mcqa-height") or 0)))
        _run_chromium(binary, [*budget, f"--window-size={width},{tall}", f"--screenshot={shot}",
                               page.as_uri()], timeout)
        if not shot.is_file():
            raise RuntimeError(f"Chromium exited without writing the screenshot {shot}")
    return {"images": len(parser.images), "broken_images": broken, "tables": parser.tables,
            "table_widths": parser.table_widths, "viewport_width": int(parser.root.get("data-mcqa-viewport") or 0),
            "page_width": int(parser.root.get("data-mcqa-page-width") or 0),
            "title": parser.root.get("data-mcqa-title", ""), "screenshot": str(shot) if shot else None}

"""Run the self-test: build the models and data, run every path as a subprocess, measure, write the report.

Each path runs as its own command (``python -m allennlp ...``, ``python bin/...``) from the
checkout's root, with its output in ``OUT/logs/<path>.log``. Measured per path: status (ok /
failed / skipped when an optional package it needs is not installed), wall seconds of the command
(start-up included; unrounded in ``selftest.json``), questions/s (the path's questions over those
seconds), the peak device memory while it ran (GPU: the device's used memory above what it was
before the path, sampled every 0.1 s, so Ray's worker processes count too; CPU: the peak resident
memory of the command's process tree), the last JSON object the command printed (benchmarks print their figures so), and for the
bf16 paths the share of questions whose chosen answer equals the fp32 path's.
"""
import importlib.util
import json
import math
import os
import shutil
import subprocess
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from mcqa_probes.common.io import read_jsonl_values, write_json, write_text
from mcqa_probes.common.timing import ratio
from mcqa_probes.experiments.selftest.data import write_selftest_data
from mcqa_probes.experiments.selftest.paths import SelftestPath, SelftestSettings, selftest_paths
from mcqa_probes.reports.tables import format_number, markdown_table
from mcqa_probes.testing.sized_models import make_sized_causal_lm, make_sized_encoder

#: questions per file: (quick, full) on a GPU, and on the CPU (tiny models)
QUESTIONS = {("gpu", True): 400, ("gpu", False): 2000, ("cpu", True): 24, ("cpu", False): 48}
#: the lowest bf16-vs-fp32 agreement of the choices that passes, on the questions that are not near-ties
#: (random weights give many near-ties: see :func:`agreement`)
MIN_AGREEMENT = 0.95
LOG_TAIL = 15


class _PeakMemory:
    """Samples the memory in use while a path runs (see the module's docstring); ``peak_mb``."""

    def __init__(self, cuda_device: int, pid_getter: Callable[[], Optional[int]]):
        self.cuda_device, self.pid_getter = cuda_device, pid_getter
        self.peak = 0
        self.baseline = self._used_gpu() if cuda_device >= 0 else 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _used_gpu(self) -> int:
        import torch

        free, total = torch.cuda.mem_get_info(self.cuda_device)
        return total - free

    def _used_cpu(self) -> int:
        import psutil

        pid = self.pid_getter()
        if pid is None:
            return 0
        try:
            process = psutil.Process(pid)
            return sum(p.memory_info().rss for p in [process] + process.children(recursive=True))
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            return 0

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                used = self._used_gpu() - self.baseline if self.cuda_device >= 0 else self._used_cpu()
                self.peak = max(self.peak, used)
            except Exception:  # a process that ended between two calls; the next sample will do
                pass
            self._stop.wait(0.1)

    def __enter__(self) -> "_PeakMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def peak_mb(self) -> float:
        return round(self.peak / 2 ** 20, 1)


def describe_device(cuda_device: int) -> str:
    import torch

    if cuda_device < 0:
        return f"CPU ({os.cpu_count()} cores), torch {torch.__version__}"
    properties = torch.cuda.get_device_properties(cuda_device)
    return (f"{properties.name} ({properties.total_memory / 2 ** 30:.0f} GiB), torch {torch.__version__}, "
            f"CUDA {torch.version.cuda}")


def build_models(work: Path, cuda_device: int, quick: bool) -> Dict[str, Optional[Path]]:
    """Random-weight models: BERT-base (and, in full runs, BERT-large) and a ~1B Llama on a GPU; tiny on the CPU."""
    import torch

    gpu = cuda_device >= 0
    models: Dict[str, Optional[Path]] = {
        "encoder": make_sized_encoder(work / "models" / "encoder", "bert-base" if gpu else "tiny"),
        "encoder_large": None,
        "causal": make_sized_causal_lm(work / "models" / "causal", "llama-1b" if gpu else "tiny",
                                       device=f"cuda:{cuda_device}" if gpu else None),
    }
    if gpu and not quick:
        models["encoder_large"] = make_sized_encoder(work / "models" / "encoder_large", "bert-large")
    if gpu:
        torch.cuda.empty_cache()
    return models


def _last_json_object(text: str) -> Optional[Dict[str, Any]]:
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{") and line.endswith("}"):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                return value
    return None


def _question_scores(path: Path) -> List[List[float]]:
    """The choices' scores per question of a predictions file: the log of the ``probabilities`` of
    ``allennlp predict``, or the ``logits`` of ``allennlp evaluate --predictions-output-file`` (one
    line per batch there)."""
    questions: List[List[float]] = []
    for record in read_jsonl_values(path, what="prediction"):
        if "logits" in record:
            values, convert = record["logits"], float
        else:
            values, convert = record["probabilities"], lambda p: math.log(max(float(p), 1e-30))
        for row in (values if values and isinstance(values[0], list) else [values]):
            questions.append([convert(value) for value in row])
    return questions


def tie_margin(top: float) -> float:
    """A gap between two choices' fp32 scores that bf16 rounding can close (random weights give many)."""
    return 0.05 + 0.01 * abs(top)


def agreement(low: List[List[float]], full: List[List[float]]) -> Dict[str, Any]:
    """How often the bf16 scores pick the fp32 choice: over all questions, and over the questions
    whose fp32 winner leads the bf16 pick by more than :func:`tie_margin` (where a different
    pick is a real disagreement, not rounding)."""
    same = decisive = decisive_same = 0
    for ours, theirs in zip(low, full):
        pick = max(range(len(ours)), key=lambda k: ours[k])
        best = max(range(len(theirs)), key=lambda k: theirs[k])
        same += pick == best
        if pick == best or theirs[best] - theirs[pick] > tie_margin(theirs[best]):
            decisive += 1
            decisive_same += pick == best
    return {"agreement_with_fp32": round(same / len(full), 4), "questions_compared": len(full),
            "agreement_beyond_ties": round(decisive_same / decisive, 4) if decisive else None}


def run_path(path: SelftestPath, settings: SelftestSettings, logs: Path, timeout: float) -> Dict[str, Any]:
    log = logs / f"{path.name}.log"
    environment = {**os.environ, **path.env, "PYTHONUNBUFFERED": "1"}
    started = time.perf_counter()
    process: Optional[subprocess.Popen] = None
    with open(log, "w", encoding="utf-8") as handle, _PeakMemory(settings.cuda_device,
                                                                  lambda: process.pid if process else None) as memory:
        handle.write("$ " + " ".join(path.command) + "\n")
        handle.flush()
        process = subprocess.Popen(path.command, cwd=settings.root, env=environment, stdout=handle,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()
            code = None
    seconds = time.perf_counter() - started
    text = log.read_text(encoding="utf-8", errors="replace")
    result: Dict[str, Any] = {
        "status": "ok" if code == 0 else "failed", "what": path.what, "seconds": seconds,
        "questions": path.questions or None,
        "questions_per_s": ratio(path.questions, seconds) if path.questions and code == 0 else None,
        "peak_memory_mb": memory.peak_mb, "log": str(log),
    }
    if code != 0:
        result["error"] = f"timed out after {timeout:.0f} s" if code is None else f"exit status {code}"
        result["log_tail"] = text.splitlines()[-LOG_TAIL:]
    output = _last_json_object(text)
    if output is not None:
        result["output"] = output
    return result


def select_paths(paths: List[SelftestPath], only: Optional[List[str]]) -> List[SelftestPath]:
    """The paths named in ``only`` (all when it is empty) and the paths they read or are compared with."""
    if not only:
        return paths
    by_name = {path.name: path for path in paths}
    unknown = [name for name in only if name not in by_name]
    if unknown:
        raise ValueError(f"--only: unknown path(s) {', '.join(unknown)}; the paths: {', '.join(by_name)}")
    wanted, queue = set(), list(only)
    while queue:
        name = queue.pop()
        if name not in wanted:
            wanted.add(name)
            path = by_name[name]
            queue.extend(path.after + ((path.agrees_with,) if path.agrees_with else ()))
    return [path for path in paths if path.name in wanted]


def run_selftest(root: Path, out: Path, cuda_device: int, quick: bool = False,
                 only: Optional[List[str]] = None, progress: Callable[[str], None] = print,
                 parallel: int = 1) -> Dict[str, Any]:
    """Run every path (or those named in ``only``); writes ``selftest.json`` and ``selftest.md`` in ``out``.

    ``parallel``: paths run at a time (1 for measurements: each path has the device to itself; more
    shortens a CPU check of the commands, a path still waits for the paths it reads)."""
    root, out = Path(root).resolve(), Path(out).resolve()
    work, logs = out / "work", out / "logs"
    for own in (work, logs):  # a fresh run: allennlp refuses a serialization directory that exists
        shutil.rmtree(own, ignore_errors=True)
    logs.mkdir(parents=True, exist_ok=True)
    gpu = cuda_device >= 0
    questions = QUESTIONS[("gpu" if gpu else "cpu", quick)]
    report: Dict[str, Any] = {"device": describe_device(cuda_device), "cuda_device": cuda_device, "quick": quick,
                              "questions_per_file": questions, "date": time.strftime("%Y-%m-%d"), "paths": {}}
    started = time.perf_counter()
    progress(f"self-test on {report['device']}: building models and data")
    try:
        with _PeakMemory(cuda_device, os.getpid) as memory:
            build_start = time.perf_counter()
            models = build_models(work, cuda_device, quick)
            files = write_selftest_data(root / "fixtures", work, questions)
        report["paths"]["build"] = {"status": "ok", "what": "random-weight models of real sizes, probe files",
                                    "seconds": round(time.perf_counter() - build_start, 1),
                                    "peak_memory_mb": memory.peak_mb}
    except Exception as error:  # nothing else can run; the report says why
        report["paths"]["build"] = {"status": "failed", "what": "models and data", "error": f"{type(error).__name__}: {error}"}
        return _finish(report, out, started)
    settings = SelftestSettings(root=root, work=work, cuda_device=cuda_device, encoder=models["encoder"],
                                causal=models["causal"], encoder_large=models["encoder_large"], files=files,
                                questions=questions)
    timeout = 300.0 if quick and gpu else 600.0
    paths = select_paths(selftest_paths(settings), only)
    results: Dict[str, Dict[str, Any]] = {}
    finished = 0

    def settle(path: SelftestPath, entry: Dict[str, Any]) -> None:
        nonlocal finished
        if entry["status"] == "ok" and path.agrees_with:
            try:
                entry.update(_agreement(path, paths, results))
            except (OSError, ValueError, KeyError, TypeError) as error:
                entry.update(status="failed", error=f"bf16 vs fp32 predictions: {type(error).__name__}: {error}")
        results[path.name] = entry
        finished += 1
        progress(f"[{finished}/{len(paths)}] {path.name}: {entry['status']}"
                 + (f" ({entry['seconds']:.1f} s)" if "seconds" in entry else "")
                 + (f": {entry['error']}" if entry.get("error") else ""))

    waiting = list(paths)
    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        running: Dict[Any, SelftestPath] = {}
        while waiting or running:
            unsettled = {p.name for p in waiting} | {p.name for p in running.values()}
            for path in list(waiting):
                if len(running) >= max(1, parallel):
                    break
                if unsettled & set(path.after + ((path.agrees_with,) if path.agrees_with else ())):
                    continue
                waiting.remove(path)
                missing = [module for module in path.needs if importlib.util.find_spec(module) is None]
                blocked = [name for name in path.after if results.get(name, {}).get("status") != "ok"]
                if missing:
                    settle(path, {"status": "skipped", "what": path.what,
                                  "error": f"needs {', '.join(missing)} (not installed)"})
                elif blocked:
                    settle(path, {"status": "failed", "what": path.what,
                                  "error": f"not run: {', '.join(blocked)} did not succeed"})
                else:
                    running[pool.submit(run_path, path, settings, logs, timeout)] = path
            if running:
                done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in done:
                    settle(running.pop(future), future.result())
    for path in paths:  # the report lists the paths in their order, whatever order they finished in
        report["paths"][path.name] = results[path.name]
    return _finish(report, out, started)


def _agreement(path: SelftestPath, paths: List[SelftestPath], results: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    reference = next((p for p in paths if p.name == path.agrees_with), None)
    if reference is None or results.get(reference.name, {}).get("status") != "ok":
        return {}
    ours, theirs = _question_scores(path.predictions), _question_scores(reference.predictions)
    if len(ours) != len(theirs) or not ours:
        return {"status": "failed", "error": f"{len(ours)} predictions vs {len(theirs)} in {reference.name}"}
    entry = agreement(ours, theirs)
    beyond = entry["agreement_beyond_ties"]
    if beyond is not None and beyond < MIN_AGREEMENT:
        entry.update(status="failed", error=f"bf16 picks the fp32 choice on {100 * beyond:.1f}% of the questions "
                                            f"that are not near-ties (< {100 * MIN_AGREEMENT:.0f}%)")
    return entry


def _finish(report: Dict[str, Any], out: Path, started: float) -> Dict[str, Any]:
    statuses = [entry["status"] for entry in report["paths"].values()]
    report["seconds"] = round(time.perf_counter() - started, 1)
    report["summary"] = {status: statuses.count(status) for status in ("ok", "failed", "skipped")}
    write_json(out / "selftest.json", report)
    write_text(out / "selftest.md", render_markdown(report))
    return report


def _agreement_cell(entry: Dict[str, Any]) -> str:
    if entry.get("agreement_with_fp32") is None:
        return format_number(None)
    beyond = entry.get("agreement_beyond_ties")
    return (f"{100 * entry['agreement_with_fp32']:.1f}% of {entry['questions_compared']}; "
            + (f"{100 * beyond:.1f}% beyond ties" if beyond is not None else "all near-ties"))


def render_markdown(report: Dict[str, Any]) -> str:
    rows = []
    for name, entry in report["paths"].items():
        rows.append([f"`{name}`", entry["status"], entry.get("what", ""), format_number(entry.get("seconds")),
                     format_number(entry.get("questions_per_s")), format_number(entry.get("peak_memory_mb"), 0),
                     _agreement_cell(entry), entry.get("error", "")])
    summary = report["summary"]
    memory = "GPU memory" if report["cuda_device"] >= 0 else "memory (RSS)"
    lines = [
        f"# Self-test: {report['device']}",
        "",
        f"{report['date']}, {'quick' if report['quick'] else 'full'} run, {report['questions_per_file']} questions "
        f"per file, {report['seconds']:.0f} s in all: **{summary['ok']} ok, {summary['failed']} failed, "
        f"{summary['skipped']} skipped**.",
        "",
        markdown_table(["path", "status", "what", "seconds", "questions/s", f"peak {memory}, MB", "bf16 = fp32",
                        "error"], rows, align="lllrrrrl"),
        "",
        "Seconds are the whole command's (start-up and model loading included); questions/s is over those "
        "seconds. bf16 = fp32: the share of questions where the bf16 run picks the fp32 run's choice, and "
        "the same share among the questions that are not near-ties (fp32 margin above 0.05 + 1% of the top "
        "score; random weights make many ties). Logs: `logs/<path>.log`.",
    ]
    return "\n".join(lines) + "\n"

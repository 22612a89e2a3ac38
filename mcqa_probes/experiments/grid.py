"""One grid runner for the experiment drivers: a list of trials, run serially in-process or as
Ray tasks with declared resources, resumable, one failing trial does not stop the others.

A :class:`Trial` is a stable id (also its directory name, ``a/b`` allowed), a picklable
function with keyword arguments, a JSON-able ``spec`` (what the result depends on; default:
the function and its arguments) and its resources (CPUs, a GPU fraction). :func:`run_grid`:

* skips a trial whose ``<directory>/result.json`` exists and holds the same spec (so re-running
  the same command after a crash or a kill only runs what is missing); any other trial
  directory (half-finished, or from a different spec) is deleted and the trial runs again;
* runs each trial with its own log file (``<directory>/trial.log``: its logging, stdout, stderr
  and traceback), ``torch.set_num_threads(cpus)``, the environment captured when the trial was
  built, and Python / NumPy / torch seeded from the trial id; the result is written atomically
  (temporary file, then rename) to ``<directory>/result.json``;
* ``workers <= 1``: serially, in this process, without Ray. Otherwise Ray: a local Ray started
  in this process (sized to the machine, no dashboard) or, with ``address`` (or ``RAY_ADDRESS``),
  an existing cluster; at most ``workers`` trials in flight, each a task with ``num_cpus`` /
  ``num_gpus`` (a fraction allowed) and no retries;
* prints a line per finished trial (``[3/8] trial k=100,lr=1e-05 done in 42 s (...)``) and a
  summary; failures are listed with their log path and returned (:class:`GridReport`), the
  driver decides (:meth:`GridReport.raise_for_failures` raises :class:`GridFailed`);
* SIGINT or SIGTERM to the driver stops the grid: the trials in flight are cancelled (their Ray
  workers killed), a local Ray started here is shut down (a cluster given by ``address`` is left
  running: only this driver disconnects), and :class:`GridInterrupted` says how many trials
  finished; their results stay on disk, so the same command resumes (exit status 130 / 143
  through :func:`mcqa_probes.common.cli.run`).

Results do not depend on the number of workers: every trial seeds itself and gets the same
thread count whichever way it runs, and nothing depends on the order of execution.
"""
import argparse
import contextlib
import dataclasses
import hashlib
import json
import logging
import math
import os
import random
import re
import shutil
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from mcqa_probes.common.cli import Interrupted, signal_name, stop_on_signals
from mcqa_probes.common.configs import CONFIG_DIR
from mcqa_probes.common.grid_arguments import add_grid_arguments  # noqa: F401  (light home: parsed before torch loads)
from mcqa_probes.common.environment import environment
from mcqa_probes.common.io import write_text

RESULT_FILE = "result.json"
LOG_FILE = "trial.log"
ROOT = Path(__file__).resolve().parents[2]
_ID_PART = re.compile(r"^[^\W_][\w.,=+-]*$")  # letters of any script (a probe named sinónimo), no spaces
#: environment variables that belong to a process or a device, never forwarded to a trial
_LOCAL_VARIABLES = {"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "OMP_NUM_THREADS",
                    "MKL_NUM_THREADS", "PWD", "OLDPWD", "SHLVL", "_", "PYTHONPATH"}


@dataclass
class Trial:
    id: str
    function: Callable[..., Any]
    kwargs: Dict[str, Any] = field(default_factory=dict)
    #: where result.json and trial.log go (default: ``<out>/trials/<id>`` given to run_grid)
    directory: Optional[Path] = None
    #: JSON-able description of everything the result depends on (default: function + kwargs)
    spec: Any = None
    #: shown in progress lines (default: the id)
    label: Optional[str] = None
    num_cpus: float = 1
    num_gpus: float = 0
    #: environment variables set while the trial runs (default: this process's, at run_grid time)
    env: Optional[Dict[str, Optional[str]]] = None


@dataclass
class GridOptions:
    """How to run a grid (the command-line options of every driver, see :func:`add_grid_arguments`)."""

    workers: Optional[int] = 1  # None: the machine's cores (or GPUs) per trial
    address: Optional[str] = None
    cpus_per_trial: Optional[float] = None  # overrides each trial's num_cpus
    gpus_per_trial: Optional[float] = None  # overrides each trial's num_gpus
    quiet: bool = False


@dataclass
class TrialOutcome:
    id: str
    label: str
    status: str  # "done", "skipped" (finished earlier) or "failed"
    directory: str
    result: Any = None
    seconds: float = 0.0
    error: Optional[str] = None

    @property
    def log(self) -> str:
        return str(Path(self.directory) / LOG_FILE)


class GridFailed(RuntimeError):
    def __init__(self, report: "GridReport"):
        self.report = report
        super().__init__(report.failure_text())


class GridInterrupted(Interrupted):
    """The grid was stopped by SIGINT / SIGTERM; the message says what finished (kept on disk)."""


@dataclass
class GridReport:
    outcomes: List[TrialOutcome]
    seconds: float = 0.0

    @property
    def failed(self) -> List[TrialOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    def results(self) -> Dict[str, Any]:
        """id -> result of every finished trial (done now or earlier), in trial order."""
        return {o.id: o.result for o in self.outcomes if o.status != "failed"}

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    def summary(self) -> str:
        return (f"grid: {len(self.outcomes)} trials: {self.count('done')} run, {self.count('skipped')} finished "
                f"earlier, {self.count('failed')} failed ({self.seconds:.0f} s)")

    def failure_text(self) -> str:
        lines = [f"{len(self.failed)} of {len(self.outcomes)} trials failed:"]
        lines += [f"  {o.label}: {o.error} (log: {o.log})" for o in self.failed]
        return "\n".join(lines)

    def raise_for_failures(self) -> None:
        if self.failed:
            raise GridFailed(self)


# ---------------------------------------------------------------------------- command line
def grid_options(args: argparse.Namespace, cuda_device: Optional[int] = None) -> GridOptions:
    """The options of :func:`add_grid_arguments`; ``cuda_device`` (the command's resolved device) sets
    the default GPUs per trial: a trial that trains on a GPU must get one from Ray."""
    gpus = args.gpus_per_trial
    if gpus is None:
        gpus = 1.0 if cuda_device is not None and cuda_device >= 0 else 0.0
    return GridOptions(workers=args.workers, address=args.address, cpus_per_trial=args.cpus_per_trial,
                       gpus_per_trial=gpus)


def machine_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def default_workers(cpus_per_trial: float = 1.0, gpus_per_trial: float = 0.0) -> int:
    if gpus_per_trial:
        try:
            import torch

            gpus = torch.cuda.device_count()
        except ImportError:
            gpus = 0
        if gpus:
            return max(1, int(gpus / gpus_per_trial + 1e-9))
    return max(1, int(machine_cores() / max(cpus_per_trial or 1.0, 1e-9) + 1e-9))


def forwarded_environment() -> Dict[str, str]:
    """This process's environment, less what belongs to a process or device (captured per trial)."""
    return {k: v for k, v in os.environ.items() if k not in _LOCAL_VARIABLES and not k.startswith("RAY_")}


def jsonable(value: Any) -> Any:
    """A JSON-able, stable rendering (paths as strings, functions as module.name, dataclasses as dicts)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, Path):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in sorted(value.items(), key=lambda item: str(item[0]))}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    if callable(value) and hasattr(value, "__qualname__"):
        return f"{getattr(value, '__module__', '?')}.{value.__qualname__}"
    return repr(value)


_CONFIG_VARIABLE = re.compile(r"""(?:env\.\w+|has|set|extVar)\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]""")
_CONFIG_IMPORT = re.compile(r"""import(?:str)?\s+['"]([^'"]+)['"]""")


def config_variables(config: Any) -> Dict[str, str]:
    """The environment variables a jsonnet config (and what it imports) reads, that are set now
    (upper or lower case): part of a trial's spec, since they change what the run does."""
    names, seen, queue = set(), set(), [Path(config)]
    while queue:
        path = queue.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        text = path.read_text(encoding="utf-8")
        names.update(_CONFIG_VARIABLE.findall(text))
        for imported in _CONFIG_IMPORT.findall(text):
            queue += [path.parent / imported, CONFIG_DIR / imported]
    names.discard("MCQA_PROBES_ENV")
    found = {}
    for name in sorted(names):
        for variant in (name, name.lower()):
            if os.environ.get(variant):
                found[variant] = os.environ[variant]
    return found


def trial_spec(trial: Trial) -> Any:
    spec = trial.spec if trial.spec is not None else {"function": trial.function, "kwargs": trial.kwargs}
    return json.loads(json.dumps(jsonable(spec), sort_keys=True))


def trial_seed(trial_id: str) -> int:
    return int(hashlib.sha256(trial_id.encode("utf-8")).hexdigest()[:8], 16)


def finished_result(directory: Path, spec: Any) -> Optional[Dict[str, Any]]:
    """The record in ``directory/result.json`` if it holds a result for ``spec``, else None."""
    path = Path(directory) / RESULT_FILE
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or "result" not in record or record.get("spec") != spec:
        return None
    return record


# ---------------------------------------------------------------------------- one trial
@contextlib.contextmanager
def _captured(log_path: Path):
    """Send logging (INFO and up), stdout and stderr to ``log_path``; restore everything after."""
    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    with open(log_path, "a", encoding="utf-8", buffering=1) as stream:
        handler = logging.StreamHandler(stream)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        for old in saved_handlers:
            root.removeHandler(old)
        root.addHandler(handler)
        root.setLevel(logging.INFO)
        try:
            with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
                yield stream
        finally:
            root.removeHandler(handler)
            for old in saved_handlers:
                root.addHandler(old)
            root.setLevel(saved_level)


def execute_trial(payload: Dict[str, Any]) -> Dict[str, Any]:
    """Run one trial (in this process or a Ray worker); never raises for the trial's own errors."""
    directory = Path(payload["directory"])
    if directory.exists():  # half-finished, or from another spec: start again
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    log_path = directory / LOG_FILE
    started = time.time()
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is part of the stack
        torch = None
    threads = torch.get_num_threads() if torch is not None else None
    random_state = random.getstate()
    outcome: Dict[str, Any] = {"status": "failed", "seconds": 0.0, "error": None, "result": None}
    with _captured(log_path) as stream, environment(payload["env"] or {}):
        print(f"trial {payload['id']} (pid {os.getpid()}, {payload['num_cpus']:g} CPUs, "
              f"{payload['num_gpus']:g} GPUs)\nspec: {json.dumps(payload['spec'], sort_keys=True)}", file=stream)
        try:
            seed = trial_seed(payload["id"])
            random.seed(seed)
            try:
                import numpy

                numpy.random.seed(seed)
            except ImportError:  # pragma: no cover
                pass
            if torch is not None:
                torch.manual_seed(seed)
                torch.set_num_threads(max(1, int(payload["num_cpus"])))
            result = payload["function"](**payload["kwargs"])
            seconds = round(time.time() - started, 2)
            record = {"id": payload["id"], "spec": payload["spec"], "result": result, "seconds": seconds}
            write_text(directory / RESULT_FILE, json.dumps(jsonable(record), indent=2, sort_keys=True) + "\n")
            outcome.update(status="done", result=json.loads(json.dumps(jsonable(result))), seconds=seconds)
            print(f"done in {seconds} s", file=stream)
        except BaseException as error:  # noqa: B902 - reported, not raised (KeyboardInterrupt re-raised)
            traceback.print_exc(file=stream)
            outcome.update(seconds=round(time.time() - started, 2), error=f"{type(error).__name__}: {error}")
            if isinstance(error, KeyboardInterrupt):
                raise
        finally:
            random.setstate(random_state)
            if torch is not None and threads:
                torch.set_num_threads(threads)
    return outcome


# ---------------------------------------------------------------------------- the grid
class _Printer:
    def __init__(self, quiet: bool):
        self.quiet = quiet

    def __call__(self, message: str) -> None:
        if not self.quiet:
            print(message, file=sys.stderr, flush=True)


def _check_ids(trials: Sequence[Trial]) -> None:
    seen = set()
    for trial in trials:
        parts = trial.id.split("/")
        if not all(_ID_PART.match(part) for part in parts):
            raise ValueError(f"trial id {trial.id!r}: use letters, digits and _.,=+- in '/'-separated parts (no "
                             "space; a part starts with a letter or digit)")
        if trial.id in seen:
            raise ValueError(f"trial id {trial.id!r} appears twice in the grid")
        seen.add(trial.id)


def _payload(trial: Trial, directory: Path, spec: Any, options: GridOptions, env: Dict[str, str]) -> Dict[str, Any]:
    return {
        "id": trial.id, "directory": str(directory), "function": trial.function, "kwargs": trial.kwargs,
        "spec": spec, "env": trial.env if trial.env is not None else env,
        "num_cpus": options.cpus_per_trial if options.cpus_per_trial is not None else trial.num_cpus,
        "num_gpus": options.gpus_per_trial if options.gpus_per_trial is not None else trial.num_gpus,
    }


def run_grid(
    trials: Sequence[Trial],
    out: Optional[Path] = None,
    options: Optional[GridOptions] = None,
    describe: Optional[Callable[[Any], str]] = None,
) -> GridReport:
    """Run (or resume) every trial; ``describe(result)`` adds a note to its progress line."""
    options = options or GridOptions()
    say = _Printer(options.quiet)
    trials = list(trials)
    _check_ids(trials)
    started = time.time()
    env = forwarded_environment()
    outcomes: Dict[str, TrialOutcome] = {}
    pending = []
    for trial in trials:
        if trial.directory is None and out is None:
            raise ValueError(f"trial {trial.id}: no directory and no out directory for the grid")
        directory = Path(trial.directory) if trial.directory is not None else Path(out) / "trials" / trial.id
        spec = trial_spec(trial)
        record = finished_result(directory, spec)
        label = trial.label or trial.id
        if record is not None:
            outcomes[trial.id] = TrialOutcome(trial.id, label, "skipped", str(directory), record["result"],
                                              float(record.get("seconds") or 0.0))
        else:
            pending.append((trial, _payload(trial, directory, spec, options, env), label))
    workers = options.workers if options.workers is not None else default_workers(
        options.cpus_per_trial or 1.0, options.gpus_per_trial or 0.0)
    address = options.address or os.environ.get("RAY_ADDRESS")
    use_ray = workers > 1 and (len(pending) > 1 or bool(address))
    mode = f"on Ray, up to {workers} at a time" if use_ray else "serially in this process"
    say(f"grid: {len(trials)} trials, {len(trials) - len(pending)} finished earlier, running {len(pending)} {mode}")
    done_count = [0]

    def finished(trial: Trial, label: str, directory: str, raw: Dict[str, Any]) -> None:
        done_count[0] += 1
        prefix = f"[{done_count[0]}/{len(pending)}] trial {label}"
        if raw["status"] == "done":
            outcome = TrialOutcome(trial.id, label, "done", directory, raw["result"], raw["seconds"])
            note = ""
            if describe is not None:
                try:
                    note = f" ({describe(raw['result'])})"
                except Exception:  # a progress note never fails the grid
                    note = ""
            say(f"{prefix} done in {raw['seconds']:.0f} s{note}")
        else:
            outcome = TrialOutcome(trial.id, label, "failed", directory, None, raw.get("seconds") or 0.0,
                                   raw.get("error"))
            say(f"{prefix} FAILED after {outcome.seconds:.0f} s: {outcome.error} (log: {outcome.log})")
        outcomes[trial.id] = outcome

    if pending:
        with stop_on_signals() as stop:
            try:
                if not use_ray:
                    for trial, payload, label in pending:
                        finished(trial, label, payload["directory"], execute_trial(payload))
                else:
                    _run_on_ray(pending, workers, options, finished, stop)
            except KeyboardInterrupt as interrupt:  # ray turns the handler's Interrupted into a KeyboardInterrupt
                signum = stop.signum or getattr(interrupt, "signum", signal.SIGINT)
                raise GridInterrupted(signum, _stopped_text(signum, pending, outcomes, out)) from None
    report = GridReport([outcomes[t.id] for t in trials], round(time.time() - started, 1))
    say(report.summary())
    if report.failed:
        say(report.failure_text())
    return report


def _stopped_text(signum: int, pending, outcomes: Dict[str, TrialOutcome], out: Optional[Path]) -> str:
    done = sum(1 for trial, _, _ in pending if trial.id in outcomes)
    where = f" under {Path(out) / 'trials'}" if out is not None else ""
    return (f"grid stopped by {signal_name(signum)}: {done} of {len(pending)} trials finished (kept{where}), "
            f"{len(pending) - done} stopped or not started; run the same command again to resume")


# ---------------------------------------------------------------------------- Ray
def start_ray(address: Optional[str] = None, num_cpus: Optional[int] = None):
    """``ray`` connected to ``address`` (or RAY_ADDRESS), else to a local Ray started in this process
    (no dashboard, small object store, quiet). Reuses a running connection."""
    import ray

    if ray.is_initialized():
        return ray
    address = address or os.environ.get("RAY_ADDRESS")
    # trial functions (mcqa_probes, tests) must import in the workers
    paths = [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != str(ROOT)]
    common = dict(log_to_driver=False, logging_level=logging.ERROR, configure_logging=True)
    if address:
        ray.init(address=address, runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(paths)}}, **common)
        return ray
    # inherited by the local raylet and its workers: the import path, no usage reporting, no memory
    # monitor killing trials on a machine shared with other work, and the workers at the niceness of
    # the command (Ray's default 15 starves the trials behind any other work of the machine: with two
    # builds running beside a 2-core grid, no trial had started after 5 minutes; serial runs do not wait)
    started = {"PYTHONPATH": os.pathsep.join(paths), "RAY_USAGE_STATS_ENABLED": "0",
               "RAY_memory_monitor_refresh_ms": os.environ.get("RAY_memory_monitor_refresh_ms", "0"),
               "RAY_worker_niceness": os.environ.get("RAY_worker_niceness", "0")}
    with environment(started):
        ray.init(num_cpus=num_cpus or machine_cores(), include_dashboard=False,
                 object_store_memory=100 * 1024 * 1024, **common)
    return ray


def stop_ray(ray) -> None:
    """``ray.shutdown()``: a local Ray started by this process stops (its raylet, GCS and workers);
    a driver connected to a cluster (``address``) only disconnects, the cluster runs on."""
    with contextlib.suppress(Exception):
        ray.shutdown()


def _run_on_ray(pending, workers: int, options: GridOptions, finished: Callable, stop=None) -> None:
    import ray as ray_module

    biggest = max(p["num_cpus"] for _, p, _ in pending)
    started_here = not ray_module.is_initialized()  # a Ray the caller started stays the caller's
    in_flight: Dict[Any, Any] = {}
    ray = ray_module
    try:
        ray = start_ray(options.address, num_cpus=max(machine_cores(), math.ceil(workers * biggest)))
        if stop is not None:
            stop.install()  # ray.init replaced the SIGTERM handler with its own
        remote = ray.remote(execute_trial)
        queue = list(pending)
        queue.reverse()
        while queue or in_flight:
            while queue and len(in_flight) < workers:
                trial, payload, label = queue.pop()
                ref = remote.options(num_cpus=payload["num_cpus"], num_gpus=payload["num_gpus"], max_retries=0,
                                     name=f"trial {trial.id}").remote(payload)
                in_flight[ref] = (trial, payload, label, time.time())
            # a timeout, so that a signal is seen within a second whatever ray does meanwhile
            ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=1.0)
            for ref in ready:
                trial, payload, label, submitted = in_flight.pop(ref)
                try:
                    raw = ray.get(ref)
                except Exception as error:  # the worker died (killed, out of memory, ...)
                    raw = {"status": "failed", "seconds": round(time.time() - submitted, 2),
                           "error": f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"}
                    with contextlib.suppress(OSError):
                        Path(payload["directory"]).mkdir(parents=True, exist_ok=True)
                        with open(Path(payload["directory"]) / LOG_FILE, "a", encoding="utf-8") as log:
                            log.write(f"\nthe Ray task failed:\n{error}\n")
                finished(trial, label, payload["directory"], raw)
    except BaseException:  # a signal (Interrupted), or an error of the driver: stop the trials in flight
        for ref in in_flight:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)  # kills the worker running the trial
        if started_here:
            stop_ray(ray)
        raise


def describe_metrics(*keys: str) -> Callable[[Any], str]:
    """A ``describe`` for run_grid: ``key 0.531, ...`` for the numeric ``keys`` present in a dict result."""

    def describe(result: Any) -> str:
        if not isinstance(result, dict):
            return ""
        shown = [f"{k} {result[k]:.3g}" for k in keys if isinstance(result.get(k), (int, float))]
        return ", ".join(shown)

    return describe


__all__ = ["Trial", "GridOptions", "GridReport", "GridFailed", "GridInterrupted", "TrialOutcome", "run_grid",
           "add_grid_arguments", "grid_options", "default_workers", "start_ray", "stop_ray", "execute_trial",
           "describe_metrics", "jsonable"]

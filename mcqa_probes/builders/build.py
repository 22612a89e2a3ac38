"""The probe build pipeline: knowledge sources → questions → de-dup → splits → leakage check → files.

    from mcqa_probes.builders.build import build_probes
    result = build_probes("data/probes", probes=["hypernymy"], seed=13)

writes ``<out>/<probe>/{train,dev,test}.jsonl`` (``mcqa`` format; WordNetQA with string labels,
DictionaryQA with int labels), ``<out>/stats.json`` (paper Table 4 columns per probe) and
``<out>/manifest.json`` (source versions, seed, settings, counts, sha256 of every file). Every file
is written atomically and the same seed and settings give byte-identical files.

Tests pass a ready :class:`KnowledgeGraph` as ``wordnet`` (and any object as ``dictionary``); the
command line (``bin/build_probes``) lets this module load WordNet and GCIDE itself.
"""
import functools
import random
import time
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Union

from mcqa_probes.builders.output import probe_stats, write_json, write_questions
from mcqa_probes.builders.probe_question import ProbeQuestion
from mcqa_probes.builders.splits import SPLITS, answered_both_ways, check_leakage, deduplicate, split_by_concept
from mcqa_probes.builders.wordnetqa import WORDNET_PROBES, WordNetQABuilder, merged_settings
from mcqa_probes.knowledge.graph import KnowledgeGraph
from mcqa_probes.common.io import BackgroundWriter, commit_staged, discard_writes_on_signal, staged_folder
import ctypes
import multiprocessing
import os
import pickle
import signal
import threading
import traceback
from mcqa_probes.knowledge.wordnet import load_wordnet_graph
from mcqa_probes.builders.dictionary_qa import build_dictionary_questions
from mcqa_probes.knowledge.gcide import load_gcide

ALL_PROBES = WORDNET_PROBES + ("dictionary",)
FORMAT_VERSION = 1

Progress = Callable[..., Iterable]


def _no_progress(iterable, **_kwargs):
    return iterable


def probe_rng(seed: int, probe: str, stage: str) -> random.Random:
    """An independent, reproducible generator per (seed, probe, stage): building a subset of the
    probes gives the same files for those probes as building all of them."""
    return random.Random(f"{seed}:{probe}:{stage}")


def write_probe(out: Path, probe: str, questions: List[ProbeQuestion], seed: int, train_size: Optional[int],
                results, progress: Progress = _no_progress, log: Callable[[str], None] = lambda message: None,
                compact: bool = False, together: bool = False) -> None:
    """De-duplicate, split, check and write one probe into ``out`` (a build's staged folder:
    :func:`commit_probe_files`) and ``results`` = ``(stats, files, counts, timings)``; the one home of
    this step for every source (``compact``: see
    :func:`mcqa_probes.builders.output.jsonl_bytes`; ``together``: two concepts that answer each
    other's questions go to one split, :func:`~mcqa_probes.builders.splits.answered_both_ways`)."""
    stats, files, counts, timings = results
    start = time.perf_counter()
    kept, dropped = deduplicate(questions)
    pairs = answered_both_ways(kept) if together else []
    splits = split_by_concept(kept, probe_rng(seed, probe, "split"), train_size, pairs)
    check_leakage(splits, pairs)
    # each file is written (and waited for on the disk) on a thread while the next one is made
    with BackgroundWriter() as writer:
        for split in progress(SPLITS, desc=f"write {probe}", total=len(SPLITS)):
            relative = f"{probe}/{split}.jsonl"
            write_questions(out / relative, splits[split], int_labels=(probe == "dictionary"), compact=compact,
                            writer=writer, then=functools.partial(files.__setitem__, relative))
        stats[probe] = dict(probe_stats(splits), duplicates_dropped=dropped)
        if together:
            stats[probe]["pairs_answered_both_ways"] = len(pairs)
    counts[probe] = {split: len(splits[split]) for split in SPLITS}
    timings[f"split_and_write_{probe}"] = round(time.perf_counter() - start, 2)
    log(f"{probe}: {len(questions)} questions, {dropped} duplicates dropped")


#: what a build writes last, once every probe file is whole: they describe the files beside them
LAST_WRITTEN = ("stats.json", "manifest.json")


def forget_manifest(out: Path) -> None:
    """Remove an earlier build's ``manifest.json`` and ``stats.json`` from ``out`` before the first
    probe file is replaced: never a manifest beside files it does not describe."""
    for name in LAST_WRITTEN:
        (out / name).unlink(missing_ok=True)


def commit_probe_files(stage: Path, out: Path, files: Dict[str, str]) -> None:
    """Move a build's probe files (``files``: their paths relative to ``out``) from its staged folder
    (:func:`~mcqa_probes.common.io.staged_folder`, where :func:`write_probe` wrote them) into ``out``,
    once all of them are whole, an earlier build's manifest and stats removed first; the caller then
    writes its own. A build stopped before (an error, ``kill``) leaves ``out`` as it was: an earlier
    build whole, with its manifest, never mixed with the new files (was: the new files of the probes
    done beside the earlier build's others, a train split of one build beside the dev split of another)."""
    forget_manifest(out)
    commit_staged(stage, out, sorted(files))


def check_out(out: Union[str, Path], probes: Sequence[str] = ()) -> None:
    """Refuse, before any work, an ``out`` (or a probe folder in it) that is a file, not a folder."""
    out = Path(out)
    above = next((folder for folder in out.parents if folder.exists() or folder.is_symlink()), None)
    if above is not None and not out.exists() and not above.is_dir():
        raise ValueError(f"{out}: {above} is a file, not a folder (expected a folder in which to make {out.name})")
    for path in [out, *(out / probe for probe in probes)]:
        if path.is_symlink() and not path.exists():
            raise ValueError(f"{path}: a link to {os.readlink(path)}, which does not exist (expected a folder "
                             "for the probe files)")
        if path.exists() and not path.is_dir():
            raise ValueError(f"{path}: a file, not a folder (expected a folder for the probe files"
                             + (")" if path == out else ", or nothing of that name: remove or rename the file)"))
        if path == out and not out.exists():
            break
    for name in LAST_WRITTEN:
        if (out / name).is_dir():
            raise ValueError(f"{out / name}: a folder (expected the build's {name}, or nothing of that name)")


def stale_probe_dirs(out: Union[str, Path], probes: Sequence[str]) -> List[Path]:
    """Probe directories in ``out`` (a folder with a ``train.jsonl``) that the manifest just written
    does not list: left by an earlier build into the same folder; said, never deleted."""
    out = Path(out)
    if not out.is_dir():
        return []
    return sorted(path for path in out.iterdir()
                  if path.is_dir() and path.name not in set(probes) and (path / "train.jsonl").is_file())


def parse_probes(probes: Union[str, Sequence[str], None]) -> List[str]:
    if probes is None:
        return list(ALL_PROBES)
    names = [p.strip() for p in probes.split(",")] if isinstance(probes, str) else list(probes)
    names = [n for n in names if n]
    unknown = [n for n in names if n not in ALL_PROBES]
    if unknown or not names:
        raise ValueError(f"unknown probe(s) {unknown or names}; choose from {', '.join(ALL_PROBES)}")
    return [p for p in ALL_PROBES if p in names]  # canonical order, no repeats


#: the probes a second worker builds (about half of the work; the parent builds the rest)
FORKED_PROBES = ("definitions", "synonymy")


def _can_fork() -> bool:

    return "fork" in multiprocessing.get_all_start_methods()


def _die_with(parent: int) -> None:
    """Have the kernel stop this (forked) process when ``parent`` dies (Linux ``PR_SET_PDEATHSIG``), so a
    build killed with ``kill PID`` leaves no worker writing on; exit now if it is already gone. A
    thread watches for it too (:func:`_watch_parent`): where there is no ``prctl`` (macOS), and in case
    the kernel's signal is lost (a CI run once saw a worker outlive its killed parent by a minute)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)     # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):      # not Linux: the watching thread alone
        pass
    # a mask inherited from whoever started the build (a job runner that blocks SIGTERM) would hold it
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="build_probes-parent-watch", daemon=True).start()


def _watch_parent(parent: int, every: float = 1.0) -> None:
    """Once ``parent`` is gone (this process handed to another), SIGTERM this process: its handler
    (:func:`~mcqa_probes.common.io.discard_writes_on_signal`) removes what it was writing and ends it."""
    while os.getppid() == parent:
        time.sleep(every)
    os.kill(os.getpid(), signal.SIGTERM)


def _start_child(function, probes, results):
    """Run ``function(probes)`` in a forked process that sends back the result dicts it filled."""

    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    parent = os.getpid()

    def run():
        discard_writes_on_signal()      # stopped (kill, the parent's death): no half-written file left
        _die_with(parent)
        try:
            for result in results:
                result.clear()
            function(probes)
            sender.send(("ok", results))
        except BaseException as error:  # reported by the parent
            if isinstance(error, (ValueError, OSError)):    # bad input (a folder it cannot write in): raised
                try:                                        # there as here, one error line
                    pickle.loads(pickle.dumps(error))       # one the parent can rebuild, else its text
                except Exception:       # noqa: BLE001 - (a SourceError's own arguments) as one of its base
                    error = (ValueError if isinstance(error, ValueError) else OSError)(str(error))
                sender.send(("input", error))
                return
            sender.send(("error", (f"{type(error).__name__}: {error}", traceback.format_exc())))
        finally:
            sender.close()

    process = context.Process(target=run, name="build_probes-worker")
    process.start()
    sender.close()
    return process, receiver


class WorkerTraceback(Exception):
    """The traceback of an error in a build worker, as the cause of the parent's error (its text)."""


#: in a forked build worker, what :func:`build_from_queue`'s ``build_one`` calls returned (empty here)
_KEPT_BY_WORKER: list = []


def build_from_queue(build_one: Callable[[str], object], order: Sequence[str], results, workers: int = 1) -> None:
    """Call ``build_one(probe)`` for every probe of ``order`` (costliest first), shared out among
    ``workers`` forked processes, each taking the next probe nobody has taken yet, so a worker left
    with the cheap probes takes more of them. The children send back the ``results`` dicts they
    filled; this process only waits, so the millions of objects a build makes (questions, the
    builders' caches) are never its own: it neither frees them one by one nor has its cyclic
    garbage collector walk them once the build is over (a third of a second on HPO), and its memory
    stays as it was. What ``build_one`` returns (a probe's questions) a worker keeps until it ends,
    so that they go with its memory, not freed one by one. Every probe has its own random stream and
    the builders' caches are pure, so which process builds a probe does not change a byte."""
    if workers <= 1 or len(order) < 2 or not _can_fork():
        for probe in order:
            build_one(probe)
        return
    context = multiprocessing.get_context("fork")
    taken = context.Value("i", 0)

    def next_probe() -> Optional[str]:
        with taken.get_lock():
            index = taken.value
            taken.value += 1
        return order[index] if index < len(order) else None

    def work(_unused=None) -> None:
        probe = next_probe()
        while probe is not None:
            # what the probe made (its questions) is kept until this forked worker ends: its memory goes
            # back with the process, not object by object (tens of ms per probe, before the parent hears)
            _KEPT_BY_WORKER.append(build_one(probe))
            probe = next_probe()

    children = [_start_child(work, None, results) for _ in range(min(workers, len(order)))]
    try:
        for child in children:
            _join_child(child, results)
    except BaseException:
        for process, _receiver in children:
            if process.is_alive():
                process.terminate()     # SIGTERM: it removes what it was writing (discard_writes_on_signal)
        for process, _receiver in children:
            process.join(10)
        raise


def _join_child(child, results) -> None:
    process, receiver = child
    try:
        status, payload = receiver.recv()
    except EOFError:
        process.join()
        raise RuntimeError(f"the build worker died (exit code {process.exitcode})") from None
    process.join()
    if status == "input":
        raise payload
    if status != "ok":
        summary, where = payload
        # the worker's traceback is shown as the cause, the error line stays one short line
        raise RuntimeError(f"the build worker failed: {summary}") from WorkerTraceback(where)
    for mine, theirs in zip(results, payload):
        mine.update(theirs)


def build_probes(
    out: Union[str, Path],
    probes: Union[str, Sequence[str], None] = None,
    seed: int = 42,
    max_hops: int = 5,
    train_size: Optional[int] = 3000,
    settings: Optional[dict] = None,
    wordnet: Optional[KnowledgeGraph] = None,
    wordnet_path: Optional[str] = None,
    dictionary=None,
    gcide_path: Optional[str] = None,
    progress: Progress = _no_progress,
    log: Callable[[str], None] = lambda message: None,
    workers: int = 1,
) -> Dict[str, object]:
    """Build the requested probes into ``out``; returns ``{"manifest": ..., "stats": ...}``.

    ``workers=2`` builds definitions and synonymy in a forked process while this one builds the
    other probes (after WordNet is loaded once). Every probe has its own seeded random stream, so
    the files are byte-identical whatever ``workers`` is.
    """
    names = parse_probes(probes)
    out = Path(out)
    check_out(out, names)
    settings = merged_settings(dict(settings or {}, max_hops=max_hops))
    timings: Dict[str, float] = {}
    sources: Dict[str, Dict[str, str]] = {}

    stats: Dict[str, object] = {}
    files: Dict[str, str] = {}
    counts: Dict[str, Dict[str, int]] = {}

    with staged_folder(out) as stage:      # the probe files take their places in out together, at the end
        def finish(probe: str, questions: List[ProbeQuestion]) -> None:
            write_probe(stage, probe, questions, seed, train_size, (stats, files, counts, timings), progress, log)

        wordnet_probes = [p for p in names if p in WORDNET_PROBES]
        if wordnet_probes:
            start = time.perf_counter()
            if wordnet is None:

                log("loading WordNet")
                wordnet = load_wordnet_graph(wordnet_path, pos=settings["pos"], progress=progress)
            timings["load_wordnet"] = round(time.perf_counter() - start, 2)
            sources["wordnet"] = {"source": wordnet.source, "version": wordnet.version, "concepts": len(wordnet)}
            builder = WordNetQABuilder(wordnet, settings, progress)

            def build_wordnet_probes(selected: List[str]) -> None:
                for probe in selected:
                    start = time.perf_counter()
                    questions = builder.build(probe, probe_rng(seed, probe, "generate"))
                    timings[f"generate_{probe}"] = round(time.perf_counter() - start, 2)
                    finish(probe, questions)
                    del questions

            forked = [p for p in wordnet_probes if p in FORKED_PROBES] if workers > 1 and _can_fork() else []
            child = _start_child(build_wordnet_probes, forked, (stats, files, counts, timings)) if forked else None
            build_wordnet_probes([p for p in wordnet_probes if p not in forked])

        # The seed reaches the DictionaryQA builder through its rng; the manifest records it at the top.
        dictionary_settings = dict(settings.get("dictionary") or {})
        if "dictionary" in names:
            start = time.perf_counter()
            # lazy imports: the DictionaryQA builder is optional for the WordNetQA part

            if dictionary is None:

                log("loading GCIDE")
                dictionary = load_gcide(gcide_path)
            timings["load_gcide"] = round(time.perf_counter() - start, 2)
            sources["gcide"] = {"source": str(getattr(dictionary, "source", "gcide")), "version": str(getattr(dictionary, "version", "unknown"))}
            start = time.perf_counter()
            questions = list(
                build_dictionary_questions(dictionary, probe_rng(seed, "dictionary", "generate"), dictionary_settings)
            )
            timings["generate_dictionary"] = round(time.perf_counter() - start, 2)
            finish("dictionary", questions)
            del questions

        if wordnet_probes and child is not None:
            _join_child(child, (stats, files, counts, timings))
        commit_probe_files(stage, out, files)
    stats = {probe: stats[probe] for probe in names}
    files["stats.json"] = write_json(out / "stats.json", stats)
    manifest = {
        "format_version": FORMAT_VERSION,
        "probes": names,
        "seed": seed,
        "settings": {
            "train_size": train_size,
            "wordnet": settings if wordnet_probes else None,
            "dictionary": dictionary_settings if "dictionary" in names else None,
        },
        "sources": sources,
        "counts": counts,
        "files": {name: {"sha256": digest} for name, digest in sorted(files.items())},
    }
    write_json(out / "manifest.json", manifest)
    # timings vary from run to run, so they are returned, never written (files stay byte-identical)
    return {"manifest": manifest, "stats": stats, "timings": timings}

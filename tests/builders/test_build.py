from pathlib import Path
import hashlib
import json
import types

import pytest

from mcqa_probes.builders import build as build_module
from mcqa_probes.knowledge.ontology import SourceError
from mcqa_probes.builders.build import build_probes, parse_probes, stale_probe_dirs
from mcqa_probes.builders.probe_question import ProbeQuestion
from mcqa_probes.data.question import read_questions
from mcqa_probes.knowledge.wordnet import graph_from_description
from tests.builders.conftest import MINI, MINI_SETTINGS

PROBES = ["definitions", "synonymy", "hypernymy", "hyponymy"]


def run(out, seed=3, **kwargs):
    return build_probes(out, probes=PROBES, seed=seed, train_size=20, settings=MINI_SETTINGS,
                        wordnet=graph_from_description(MINI), **kwargs)


def tree(directory):
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_files_manifest_stats_and_reader(tmp_path):
    result = run(tmp_path / "a")
    files = tree(tmp_path / "a")
    assert sorted(files) == sorted([f"{p}/{s}.jsonl" for p in PROBES for s in ("train", "dev", "test")] + ["manifest.json", "stats.json"])
    assert not [name for name in files if ".tmp" in name]
    manifest = json.loads(files["manifest.json"])
    for name, entry in manifest["files"].items():
        assert hashlib.sha256(files[name]).hexdigest() == entry["sha256"]
    assert manifest["seed"] == 3 and manifest["sources"]["wordnet"]["version"] == "mini-1"
    assert manifest["settings"]["wordnet"]["max_hops"] == 5
    stats = json.loads(files["stats.json"])
    assert stats["hypernymy"]["unique_questions"] == 32 and stats["hypernymy"]["concepts"] == 11
    assert stats["hypernymy"]["unique_questions_by_hops"] == {"1": 11, "2": 9, "3": 7, "4": 4, "5": 1}
    assert stats["hyponymy"]["unique_questions"] == 10 and stats["hyponymy"]["clusters"] == 7
    total = 0
    for probe in PROBES:
        concepts = {}
        for split in ("train", "dev", "test"):
            questions = list(read_questions(tmp_path / "a" / probe / f"{split}.jsonl"))
            total += len(questions)
            assert manifest["counts"][probe][split] == len(questions)
            for question in questions:
                assert question.choices[0].label == "0" and len(question.choices) == 5
                assert question.extras["notes"]["cluster"] == f"{probe}:{question.extras['notes']['gold_synset']}"
                assert concepts.setdefault(question.extras["notes"]["gold_synset"], split) == split
        assert manifest["counts"][probe]["train"] <= 20
    assert total == sum(s["questions"] for s in stats.values())
    assert result["stats"] == stats


def test_same_seed_byte_identical_other_seed_differs(tmp_path):
    run(tmp_path / "a")
    run(tmp_path / "b")
    run(tmp_path / "c", seed=4)
    assert tree(tmp_path / "a") == tree(tmp_path / "b")
    assert tree(tmp_path / "a") != tree(tmp_path / "c")
    # a subset build gives the same files for its probes
    build_probes(tmp_path / "d", probes="hyponymy", seed=3, train_size=20, settings=MINI_SETTINGS,
                 wordnet=graph_from_description(MINI))
    assert tree(tmp_path / "d")["hyponymy/dev.jsonl"] == tree(tmp_path / "a")["hyponymy/dev.jsonl"]


def test_dictionary_is_built_through_the_contract_with_int_labels(tmp_path, monkeypatch):
    calls = {}

    def build_dictionary_questions(dictionary, rng, settings):
        calls["args"] = (dictionary, settings)
        return [ProbeQuestion(f"d{i}", "dictionary", f"stem {i}", ["a", "b", "c"], 1, f"w{i}", f"dictionary:w{i}")
                for i in range(6)]

    monkeypatch.setattr(build_module, "build_dictionary_questions", build_dictionary_questions)
    dictionary = types.SimpleNamespace(source="gcide", version="0.48")
    result = build_probes(tmp_path, probes="dictionary", seed=1, train_size=2, dictionary=dictionary)
    assert calls["args"][0] is dictionary and calls["args"][1] == {}  # default settings; the seed is in the rng
    assert result["manifest"]["seed"] == 1
    lines = [json.loads(l) for s in ("train", "dev", "test") for l in (tmp_path / "dictionary" / f"{s}.jsonl").read_text().splitlines()]
    assert len(lines) == 6 and all(line["answerKey"] == 1 and line["question"]["choices"][0]["label"] == 0 for line in lines)
    assert result["manifest"]["sources"]["gcide"]["version"] == "0.48" and result["manifest"]["counts"]["dictionary"]["train"] == 2


def test_probe_names_are_checked():
    assert parse_probes("hyponymy,definitions") == ["definitions", "hyponymy"]
    with pytest.raises(ValueError, match="unknown probe"):
        parse_probes("hypernyms")


def test_real_dictionary_builder_on_the_gcide_fixture(tmp_path):
    """The pipeline and the real DictionaryQA builder together, on the hand-copied dictd fixture."""
    from mcqa_probes.data.question import read_questions

    root = Path(__file__).resolve().parents[2]
    settings = {"dictionary": {"min_word_senses": 2}}
    first = build_probes(tmp_path / "a", probes="dictionary", seed=5, train_size=2, settings=settings,
                         gcide_path=str(root / "fixtures" / "gcide"))
    build_probes(tmp_path / "b", probes="dictionary", seed=5, train_size=2, settings=settings,
                 gcide_path=str(root / "fixtures" / "gcide"))
    assert first["manifest"]["sources"]["gcide"]["version"] == "0.48"
    assert sum(first["manifest"]["counts"]["dictionary"].values()) >= 3
    for split in ("train", "dev", "test"):
        a = (tmp_path / "a" / "dictionary" / f"{split}.jsonl").read_bytes()
        assert a == (tmp_path / "b" / "dictionary" / f"{split}.jsonl").read_bytes()
        for question in read_questions(tmp_path / "a" / "dictionary" / f"{split}.jsonl"):
            assert len(question.choices) == 5 and question.extras["notes"]["word"]


def test_two_workers_write_the_same_files(tmp_path):
    """definitions and synonymy built in a forked worker: byte-identical files and stats."""
    single = run(tmp_path / "one", workers=1)
    double = run(tmp_path / "two", workers=2)
    assert tree(tmp_path / "one") == tree(tmp_path / "two")
    assert single["stats"] == double["stats"]
    assert "generate_definitions" in double["timings"] and "generate_hypernymy" in double["timings"]


@pytest.mark.parametrize("error, raised, message", [
    # bad input (a ValueError, an OSError): raised as it is, as with one worker (one error line)
    (ValueError("synonymy exploded"), ValueError, "^synonymy exploded$"),
    (OSError(28, "No space left on device", "x/synonymy/train.jsonl"), OSError, "No space left on device"),
    # one the parent could not rebuild from its pickle (its own arguments): its text, as bad input still
    (SourceError("x.obo", "synonymy exploded", 3), ValueError, "^x.obo:3: synonymy exploded$"),
    # a bug: said to come from the worker, with its traceback
    (ZeroDivisionError("synonymy exploded"), RuntimeError, "build worker failed: ZeroDivisionError: synonymy exploded"),
])
def test_worker_failure_is_reported(tmp_path, monkeypatch, error, raised, message):
    from mcqa_probes.builders import wordnetqa

    original = wordnetqa.WordNetQABuilder.build

    def failing(self, probe, rng):
        if probe == "synonymy":
            raise error
        return original(self, probe, rng)

    monkeypatch.setattr(wordnetqa.WordNetQABuilder, "build", failing)
    with pytest.raises(raised, match=message):
        run(tmp_path / "x", workers=2)


def test_wordnet_and_gcide_files_stay_byte_identical_to_the_build_before_other_sources(tmp_path):
    """fixtures/wordnet_mini/golden_sha256.json holds the sha256 of every file the build wrote on the
    fixtures at commit 53662cc, before the builders learned other knowledge sources; the WordNet and
    GCIDE builds must keep writing exactly those bytes (the real WordNet 3.0 / GCIDE build was also
    compared file by file: identical)."""
    root = Path(__file__).resolve().parents[2]
    golden = json.loads((root / "fixtures" / "wordnet_mini" / "golden_sha256.json").read_text())
    for name, settings in (("mini_settings", MINI_SETTINGS), ("defaults", {})):
        result = build_probes(tmp_path / name, probes=PROBES, seed=3, train_size=20, settings=settings,
                              wordnet=graph_from_description(MINI))
        assert {k: v["sha256"] for k, v in result["manifest"]["files"].items()} == golden[name], name
    result = build_probes(tmp_path / "dictionary", probes="dictionary", seed=5, train_size=2,
                          settings={"dictionary": {"min_word_senses": 2}}, gcide_path=str(root / "fixtures" / "gcide"))
    assert {k: v["sha256"] for k, v in result["manifest"]["files"].items()} == golden["dictionary"]


def test_build_from_queue_builds_every_probe_once_whoever_takes_it():
    """Each process takes the next probe nobody has taken: every probe is built exactly once, and
    the children's results reach the parent's dicts."""
    import os

    from mcqa_probes.builders.build import build_from_queue

    built, where = {}, {}
    order = [f"p{i}" for i in range(7)]

    def build_one(probe):
        built[probe] = built.get(probe, 0) + 1
        where[probe] = os.getpid()

    build_from_queue(build_one, order, (built, where), workers=3)
    assert built == {probe: 1 for probe in order}
    assert set(where) == set(order)
    serial_built, serial_where = {}, {}

    def serial_one(probe):
        serial_built[probe] = serial_built.get(probe, 0) + 1
        serial_where[probe] = os.getpid()

    build_from_queue(serial_one, order, (serial_built, serial_where), workers=1)
    assert serial_built == {probe: 1 for probe in order} and set(serial_where.values()) == {os.getpid()}


def test_build_from_queue_reports_a_failing_worker():
    import multiprocessing
    import os

    from mcqa_probes.builders.build import build_from_queue

    parent = os.getpid()
    child_started = multiprocessing.get_context("fork").Event()

    def build_one(probe):
        if os.getpid() != parent:
            child_started.set()
            raise KeyError(f"{probe} exploded")
        child_started.wait(60)          # the parent holds its first probe until the child has one

    with pytest.raises(RuntimeError, match="build worker failed: KeyError: 'p. exploded'"):
        build_from_queue(build_one, ["p0", "p1", "p2", "p3"], ({},), workers=2)


def test_a_worker_stopped_by_sigterm_while_writing_leaves_no_temporary_file(tmp_path):
    """SIGTERM (``kill``, the parent's death) in the middle of a write: the worker removes its
    temporary file, and the folder made for it, before it ends; the parent says it died."""
    import multiprocessing
    import os
    import signal

    from mcqa_probes.builders.build import build_from_queue
    from mcqa_probes.common.io import atomic_open

    never = multiprocessing.get_context("fork").Event()

    def build_one(probe):
        if probe == "p1":               # the other worker: stopped by the parent, or done, while not writing
            never.wait(5)
            return
        with atomic_open(tmp_path / probe / "train.jsonl") as stream:
            stream.write("{}\n")
            os.kill(os.getpid(), signal.SIGTERM)

    with pytest.raises(RuntimeError, match=r"the build worker died \(exit code 143\)"):
        build_from_queue(build_one, ["p0", "p1"], ({},), workers=2)
    assert list(tmp_path.iterdir()) == []


def test_a_build_worker_stops_when_its_parent_is_killed(tmp_path):
    """``kill PID`` of a build (SIGKILL here: no handler runs) stops its forked worker too, so nothing
    goes on writing into the output folder."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = ("import sys, time\nsys.path.insert(0, %r)\nfrom mcqa_probes.builders.build import _start_child\n"
              "process, _ = _start_child(lambda probes: time.sleep(120), None, ())\n"
              "print(process.pid, flush=True)\ntime.sleep(120)\n") % str(Path(__file__).resolve().parents[2])
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    parent.send_signal(signal.SIGKILL)
    parent.wait()

    def alive(pid):
        try:
            state = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return False
        return "\nState:\tZ" not in state        # a zombie has stopped; only its exit status is left

    # the kernel signals it at once; allow a slow machine (one busy with a reasoner's 12 GB Java heap
    # took over 10 s to run the worker's handler): a minute at most, and no longer than it takes
    # (one verdict, by a deadline on the monotonic clock: not a count of sleeps, nor a second look)
    deadline, stopped = time.monotonic() + 60, False
    while not stopped and time.monotonic() < deadline:
        stopped = not alive(child)
        if not stopped:
            time.sleep(0.1)
    state = "" if stopped else Path(f"/proc/{child}/status").read_text()
    if not stopped:
        os.kill(child, signal.SIGKILL)           # clean up before failing
    # what the worker's state was, should it ever outlive its parent (its state, parent, signals)
    assert stopped, [line for line in state.splitlines() if line.startswith(("Name", "State", "PPid", "Sig", "Shd"))]


def test_a_worker_whose_parent_is_gone_stops_itself_through_its_signal_handler():
    """The watching thread (:func:`_watch_parent`: no prctl on macOS, or a lost kernel signal): once the
    process's parent is not the one it was started by, it SIGTERMs itself, and the handler that removes
    half-written files ends it with the signal's status (128 + 15)."""
    import multiprocessing
    import time

    from mcqa_probes.builders.build import _watch_parent
    from mcqa_probes.common.io import discard_writes_on_signal

    def orphan():
        discard_writes_on_signal()
        _watch_parent(-1, every=0.01)           # "started by" a process it is not a child of: gone
        time.sleep(60)                          # not reached: the handler ends the process

    process = multiprocessing.get_context("fork").Process(target=orphan)
    process.start()
    process.join(60)
    if process.is_alive():
        process.kill()
    assert process.exitcode == 128 + 15


def test_probe_folders_of_an_earlier_build_are_named_not_deleted(tmp_path):
    for name in ("definitions", "hypernymy", "notes"):
        (tmp_path / name).mkdir()
    (tmp_path / "definitions" / "train.jsonl").write_text("")
    (tmp_path / "hypernymy" / "train.jsonl").write_text("")
    assert stale_probe_dirs(tmp_path, ["hypernymy"]) == [tmp_path / "definitions"]
    assert (tmp_path / "definitions" / "train.jsonl").exists() and stale_probe_dirs(tmp_path / "none", ["x"]) == []

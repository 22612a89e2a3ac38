"""Probe files as jsonl: the standard library's spacing (WordNet, GCIDE) or orjson's compact text
(a user's knowledge source): the same values, one question per line."""
import json

from mcqa_probes.builders.output import jsonl_bytes
from mcqa_probes.builders.probe_question import ProbeQuestion


def question(number, notes=None):
    return ProbeQuestion(id=f"hypernymy-{number}-0-random", probe="hypernymy",
                         stem=f'Where "x{number}" is defined as \'a}},{{"id": thing\', it is a kind of',
                         choices=["organ", "tissue ↑", "cell", "bone", "wing"], answer_index=number % 5,
                         concept=f"X:{number}", cluster_key=f"hypernymy:X:{number}",
                         notes=notes if notes is not None else {"concept_id": f"X:{number}", "hops": 1,
                                                                "distractor_ids": ["X:9", "X:8"]})


def lines(data):
    return [json.loads(line) for line in data.decode("utf-8").split("\n")[:-1]]


def test_compact_text_holds_the_same_questions_one_per_line():
    questions = [question(n) for n in range(7)]
    spaced, compact = jsonl_bytes(questions), jsonl_bytes(questions, compact=True)
    assert spaced.endswith(b"\n") and compact.endswith(b"\n") and len(compact) < len(spaced)
    assert lines(compact) == lines(spaced) == [q.to_json() for q in questions]
    assert all(line.startswith(b'{"id":"hypernymy-') for line in compact.split(b"\n")[:-1])
    assert spaced.startswith(b'{"id": "hypernymy-0-0-random", "question": {"stem": ')
    assert "↑".encode("utf-8") in compact and b"\\u2191" not in compact        # UTF-8, as the spaced text


def test_a_question_holding_an_object_that_starts_with_id_still_gets_its_own_line():
    """The fast path cuts orjson's list between questions; an object inside a question that begins with
    ``"id"`` would be cut too, so such a list is written question by question."""
    questions = [question(n, notes={"concept": {"id": f"X:{n}", "label": "x"}}) for n in range(4)]
    compact = jsonl_bytes(questions, compact=True)
    assert compact.count(b"\n") == 4 and lines(compact) == [q.to_json() for q in questions]


def test_no_question_is_no_text():
    assert jsonl_bytes([]) == b"" and jsonl_bytes([], compact=True) == b""


def test_a_file_of_many_chunks_is_the_questions_in_order_one_per_line():
    """The compact text is made a chunk of questions at a time (output._CHUNK): lines are neither
    lost, repeated nor reordered at a chunk's edge, and a chunk that needs the slow path (an object
    starting with ``"id"`` inside a question) sits between two fast ones."""
    from mcqa_probes.builders import output

    count = 2 * output._CHUNK + 3
    questions = [question(n, notes={"concept": {"id": "X", "label": "x"}} if n == output._CHUNK + 1 else None)
                 for n in range(count)]
    compact = jsonl_bytes(questions, compact=True)
    assert compact.count(b"\n") == count and lines(compact) == [q.to_json() for q in questions]
    assert lines(compact) == lines(jsonl_bytes(questions))

"""The determinism audit's reservoir and comparison, by hand."""
import pytest

from mcqa_probes.metrics.determinism import EMPTY, DeterminismAudit, combine, combine_rescored, draw


def kept_payloads(size, count, seed):
    audit = DeterminismAudit(size, seed)
    for question in range(count):
        slot = audit.slot()
        if slot is not None:
            audit.keep(slot, question, [0.0])
    return [payload for payload, _ in audit.kept]


def test_reservoir_is_seeded_and_keeps_size_distinct_questions():
    first = kept_payloads(5, 100, seed=3)
    assert first == kept_payloads(5, 100, seed=3)
    assert len(set(first)) == 5 and all(0 <= q < 100 for q in first)
    assert kept_payloads(5, 3, seed=3) == [0, 1, 2]  # fewer questions than asked: all of them
    assert kept_payloads(0, 10, seed=3) == []


def test_reservoir_draws_uniformly():
    counts = [0] * 10
    for seed in range(2000):
        for question in kept_payloads(2, 10, seed):
            counts[question] += 1
    # each question is kept with probability 2/10: 400 of 2000 draws, give or take 4 standard deviations
    assert all(abs(c - 400) < 4 * (2000 * 0.2 * 0.8) ** 0.5 for c in counts), counts


def test_result_by_hand_and_combine():
    audit = DeterminismAudit(2, 0)
    for scores in ([1.0, 2.0, 0.5], [0.0, -1.0, -3.0]):
        audit.keep(audit.slot(), None, scores)
    result = audit.result([[1.0, 2.0, 0.75], [-0.5, -0.25, -3.0]])
    assert result == {"questions": 2, "max_score_difference": 0.75, "changed_answers": 1}
    with pytest.raises(ValueError):
        audit.result([[1.0, 2.0, 0.5]])
    assert combine([result, None, {"questions": 3, "max_score_difference": 0.1, "changed_answers": 2}]) == {
        "questions": 5, "max_score_difference": 0.75, "changed_answers": 3}


def test_nothing_re_scored_is_no_result():
    """No audit, or audits of no question, is None (the card shows "not run"), never a line of zeros."""
    assert combine([]) == EMPTY  # combine adds up: zero of everything
    assert combine_rescored([]) is None and combine_rescored([None, dict(EMPTY)]) is None
    one = {"questions": 2, "max_score_difference": 0.5, "changed_answers": 1}
    assert combine_rescored([dict(EMPTY), one]) == one


def test_draw_is_what_the_reservoir_keeps_and_picks_keep_exactly_those():
    """A sharded run re-scores the questions of one whole run: draw() gives them, and an audit told
    to pick them keeps those and no other, whatever order and number of parts they are offered in."""
    for size, count, seed in ((3, 40, 0), (5, 100, 3), (4, 3, 0)):
        assert draw(count, size, seed) == sorted(kept_payloads(size, count, seed))
    picks = draw(40, 3, 0)
    parts = [range(0, 12), range(12, 40)]  # two shards, each offered its own questions from 0
    kept = []
    for part in parts:
        audit = DeterminismAudit(0, picks=[i - part.start for i in picks if i in part])
        for question in part:
            slot = audit.slot()
            if slot is not None:
                audit.keep(slot, question, [0.0])
        kept += [payload for payload, _ in audit.kept]
    assert kept == picks
    assert draw(10, 0) == []


def test_audit_fields_name_and_type_an_audit_for_a_run_result():
    from mcqa_probes.metrics.determinism import audit_fields

    fields = audit_fields({"questions": 3.0, "max_score_difference": 2e-6, "changed_answers": 1.0})
    assert fields == {"determinism_questions": 3, "determinism_max_score_difference": 2e-6,
                      "determinism_changed_answers": 1}
    assert isinstance(fields["determinism_questions"], int) and isinstance(fields["determinism_changed_answers"], int)
    assert audit_fields(None) == {"determinism_questions": 0, "determinism_max_score_difference": 0.0,
                                  "determinism_changed_answers": 0}

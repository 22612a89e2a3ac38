"""The position-bias metrics on letter scores whose prior is known."""
import pytest

from mcqa_probes.metrics.rotations import RotationTally, log_softmax


def _ask(tally, questions, content, bias):
    """Each question asked under every rotation: letter j scores content (1 for the gold) + bias[j]."""
    size = len(bias)
    for q in range(questions):
        gold = q % size
        for r in range(size):
            where = (gold + r) % size
            tally.add(f"q{q}", r, where, [content * (j == where) + bias[j] for j in range(size)])


def test_a_model_that_always_says_a():
    tally = RotationTally()
    _ask(tally, 10, content=0.0, bias=[4.0, 0.0, 0.0, 0.0, 0.0])
    metrics = tally.metrics()
    assert metrics["circular_accuracy"] == 0.0  # right under one rotation of five only
    assert [metrics[f"accuracy_rotation_{r}"] for r in range(5)] == [0.2] * 5
    assert metrics["rstd"] == pytest.approx(0.4)  # recall 1 for A, 0 for B..E
    prior = tally.prior()[5]
    assert prior == pytest.approx(log_softmax([4.0, 0, 0, 0, 0]), abs=1e-9)  # the known prior, recovered


def test_removing_the_prior_recovers_the_content():
    tally = RotationTally()
    _ask(tally, 20, content=1.0, bias=[3.0, 0.5, 0.0, 0.0])
    metrics = tally.metrics()
    assert metrics["accuracy_rotation_0"] < 0.5 and metrics["rstd"] > 0.3  # the prior wins without debiasing
    assert metrics["debiased_accuracy"] == 1.0  # with it removed, the gold (content +1) wins everywhere


def test_an_unbiased_model():
    tally = RotationTally()
    _ask(tally, 8, content=2.0, bias=[0.0, 0.0, 0.0])
    metrics = tally.metrics()
    assert metrics["circular_accuracy"] == 1.0 and metrics["rstd"] == 0.0 and metrics["debiased_accuracy"] == 1.0
    assert [metrics[f"accuracy_rotation_{r}"] for r in range(3)] == [1.0, 1.0, 1.0]

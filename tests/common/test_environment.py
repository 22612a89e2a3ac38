import os

from mcqa_probes.common.environment import environment


def test_sets_unsets_and_restores(monkeypatch):
    monkeypatch.setenv("MCQA_A", "old")
    monkeypatch.delenv("MCQA_B", raising=False)
    with environment({"MCQA_A": None}, MCQA_B=3):
        assert "MCQA_A" not in os.environ and os.environ["MCQA_B"] == "3"
    assert os.environ["MCQA_A"] == "old" and "MCQA_B" not in os.environ

"""The age sweep defaults to Figure 3A: the paper's §3.1 template over ages 15..105 (issue 12.5)."""
import mcqa_probes.experiments.olmpics.age_sweep as age_sweep
from tests.conftest import load_bin


def run_bin(argv, monkeypatch, tmp_path):
    seen = {}

    def fake_sweep(model, values, template, years, **kwargs):
        seen.update(model=model, values=list(values), template=template, years=years)
        return {"values": list(values), "grid": {}, "accuracy": 0.5, "template": template}

    module = load_bin("age_sweep")
    monkeypatch.setattr(module, "sweep", fake_sweep)
    monkeypatch.setattr(module, "write_outputs", lambda result, out, title="": {"csv": "c", "png": "p"})
    assert module.main(["--model", "m", "--out", str(tmp_path)] + argv) == 0
    return seen


def test_defaults_are_the_papers_template_and_15_to_105(monkeypatch, tmp_path):
    seen = run_bin([], monkeypatch, tmp_path)
    assert seen["values"] == list(range(15, 106))
    assert seen["template"] == age_sweep.PAPER_TEMPLATE
    text = seen["template"].format(a=20, b=30)
    assert text == "A 20 year old person is [MASK] than me in age, If I am a 30 year old person."
    assert age_sweep.sweep.__defaults__[0] == age_sweep.PAPER_TEMPLATE


def test_data_file_template_is_an_option(monkeypatch, tmp_path):
    seen = run_bin(["--data-template", "--values", "15:40"], monkeypatch, tmp_path)
    assert seen["template"] == age_sweep.DATA_TEMPLATE and seen["values"] == list(range(15, 41))
    assert seen["template"].format(a=15, b=16) == "A 15 year old person age is [MASK] than a 16 year old person ."
    years = run_bin(["--years"], monkeypatch, tmp_path)
    assert years["template"] == age_sweep.YEAR_TEMPLATE and years["values"][0] == 1920

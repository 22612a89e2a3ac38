"""The oLMpics suite's Baseline row gets its zero-shot column on MC-MLM probes (issue 12.7)."""
import mcqa_probes.experiments.olmpics.suite as suite
from mcqa_probes.experiments.olmpics.baseline_zero_shot import untrained_accuracy
from tests.conftest import FIXTURES, ROOT
from tests.olmpics_models import olmpics_bert  # noqa: F401

AGE_DEV = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl"


def test_untrained_mlm_baseline_is_scored_and_deterministic(olmpics_bert, monkeypatch):
    monkeypatch.setenv("MODEL_NAME", olmpics_bert)
    monkeypatch.setenv("GLOVE_FILE", str(FIXTURES / "glove" / "tiny_glove.txt"))
    monkeypatch.setenv("EMBEDDING_DIM", "6")
    config = str(ROOT / "training_config" / "olmpics_mlm_baseline.jsonnet")
    one = untrained_accuracy(config, str(AGE_DEV), seeds=2)
    # the mean of 2 accuracies over 10 questions: a multiple of 1/20, up to floating round-off
    assert 0.0 <= one <= 1.0 and abs(one * 20 - round(one * 20)) < 1e-9
    assert untrained_accuracy(config, str(AGE_DEV), seeds=2) == one


def test_run_suite_fills_the_baseline_zero_shot_on_mc_mlm_probes_only(tmp_path, monkeypatch):
    calls = []

    def fake_curve(config, train, dev, out, controls, probe, **options):
        return {"WS": 0.5, "MAX": 0.6}, {c: 0.0 for c in controls}

    def fake_untrained(config, dev, overrides=None, seeds=3, cuda_device=-1):
        calls.append((config, dev, seeds))
        return 0.49

    monkeypatch.setattr(suite, "_curve", fake_curve)
    monkeypatch.setattr(suite, "zero_shot_evaluate", lambda *a, **k: {"accuracy": 0.9})
    monkeypatch.setattr(suite, "untrained_accuracy", fake_untrained)
    results = suite.run_suite("m", tmp_path / "data", tmp_path / "out", seeds=2,
                              probes=["age_comparison", "property_conjunction"])
    assert results["age_comparison"]["Baseline"]["zero_shot"] == 0.49
    assert "zero_shot" not in results["property_conjunction"]["Baseline"]  # MC-QA: no zero-shot column
    assert len(calls) == 1 and calls[0][0].endswith("olmpics_mlm_baseline.jsonnet") and calls[0][2] == 2
    table = suite.render_tables(results, ["age_comparison"])
    assert table.strip().splitlines()[-1].split()[:2] == ["Baseline", "49"]


def test_tables_note_curves_that_stop_before_4000():
    results = {"always_never": {"m": {"zero_shot": 0.2, "mlp": {"WS": 0.4, "MAX": 0.5, "missing_sizes": [2000, 4000]},
                                      "linear": {"WS": 0.3, "MAX": 0.4, "missing_sizes": [2000, 4000]}}}}
    table = suite.render_tables(results, ["always_never"])
    assert "N = 2000, 4000: those points were not run" in table
    assert "not run" not in suite.render_tables({"always_never": {"m": {"mlp": {"WS": 0.4, "MAX": 0.5}}}})


def test_the_models_zero_shot_is_scored_on_the_dev_sample_the_curves_use(tmp_path, monkeypatch):
    """With --dev-limit the curves score a sample of dev: the zero-shot column the same questions (it
    scored the whole dev file, so the row's columns were on different questions)."""
    scored = []

    def fake_curve(config, train, dev, out, controls, probe, **options):
        sample = out / "data" / "full" / "dev.jsonl"          # as learning_curves.prepare_variants writes it
        sample.parent.mkdir(parents=True, exist_ok=True)
        sample.write_text("{}\n")
        return {"WS": 0.5, "MAX": 0.6}, {c: 0.0 for c in controls}

    monkeypatch.setattr(suite, "_curve", fake_curve)
    monkeypatch.setattr(suite, "zero_shot_evaluate", lambda model, dev, **k: scored.append(dev) or {"accuracy": 0.9})
    monkeypatch.setattr(suite, "untrained_accuracy", lambda *a, **k: 0.49)
    results = suite.run_suite("m", tmp_path / "data", tmp_path / "out", seeds=1, probes=["age_comparison"],
                              dev_limit=5)
    assert scored == [str(tmp_path / "out" / "age_comparison" / "m" / "mlp" / "data" / "full" / "dev.jsonl")]
    assert list(results["age_comparison"]["m"])[:2] == ["zero_shot", "mlp"]
    assert results["age_comparison"]["m"]["zero_shot"] == 0.9

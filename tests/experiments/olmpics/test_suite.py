import json

from mcqa_probes.experiments.olmpics.learning_curves import run_learning_curve
from mcqa_probes.experiments.olmpics.suite import PROBES, render_tables
from tests.conftest import FIXTURES

AGE = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_train.jsonl"
AGE_DEV = FIXTURES / "olmpics" / "number_comparison_age_compare_masked_dev.jsonl"


def test_tables_render_for_all_8_probes():
    results = {
        "age_comparison": {
            "roberta-large": {"zero_shot": 0.98, "mlp": {"WS": 0.98, "MAX": 1.0}, "linear": {"WS": 0.97, "MAX": 1.0},
                              "langsense": {"perturbed": 0.31, "nolang": 0.51}},
            "Baseline": {"mlp": {"WS": 0.58, "MAX": 0.79}, "langsense": {"nolang": 0.0}},
        },
        "property_conjunction": {"roberta-large": {"curve": {"WS": 0.49, "MAX": 0.87},
                                                   "langsense": {"perturbed": 0.02, "nolang": 0.04}}},
    }
    text = render_tables(results)
    for _probe, title, *_ in PROBES:
        assert title in text
    assert len(PROBES) == 8
    age = text.split("AGE COMPARISON")[1].split("\n\n")[0]
    assert "roberta-large     98 |    98   100 |    97   100 |    31     51" in age
    assert age.strip().splitlines()[-1].startswith("Baseline")
    prop = text.split("PROPERTY CONJUNCTION")[1].split("\n\n")[0]
    assert "LEARNCURVE" in prop and "49    87 |     2      4" in prop
    assert "(no results)" in text.split("ALWAYS-NEVER")[1].split("\n\n")[0]


def test_learning_curve_driver_outputs_and_resumes(tmp_path):
    calls = []

    def fake_trainer(config, directory, overrides):
        calls.append(overrides)
        size = sum(1 for _ in open(overrides["train_data_path"]))
        control = "nolang" in overrides["validation_data_path"]
        return min(1.0, 0.5 + size / 100) - (0.1 if control else 0.0)

    summary = run_learning_curve("unused.jsonnet", str(AGE), str(AGE_DEV), tmp_path / "lc", sizes=[8, 16], seeds=2,
                                 controls=["nolang"], trainer=fake_trainer, progress=False)
    assert len(calls) == 8  # 2 variants x 2 sizes x 2 seeds
    assert summary["curves"]["full"] == {"8": 0.58, "16": 0.66}
    assert abs(summary["full"]["WS"] - (0.23 * 0.58 + 0.2 * 0.66) / 0.43) < 1e-9
    assert abs(summary["language_sensitivity"]["nolang"] - 0.1) < 1e-9
    for name in ("runs.csv", "curve.csv", "summary.json", "learning_curve.png"):
        assert (tmp_path / "lc" / name).stat().st_size > 0
    seeds = {c["random_seed"] for c in calls}
    assert seeds == {13, 14}
    first = (tmp_path / "lc" / "data" / "full" / "train_n8_s0.jsonl").read_text().splitlines()
    nolang = (tmp_path / "lc" / "data" / "nolang" / "train_n8_s0.jsonl").read_text().splitlines()
    assert [json.loads(a)["id"] for a in first] == [json.loads(b)["id"] for b in nolang]  # same questions
    run_learning_curve("unused.jsonnet", str(AGE), str(AGE_DEV), tmp_path / "lc", sizes=[8, 16], seeds=2,
                       controls=["nolang"], trainer=fake_trainer, progress=False)
    assert len(calls) == 8  # resumed: nothing retrained


def test_a_failed_control_blanks_only_its_own_language_sensitivity(tmp_path, monkeypatch):
    """The nolang runs fail (a tiny vocabulary splits its nonsense words): the full curve and the
    perturbed control, whose runs finished and are in summary.json, stay in the suite's row."""
    import json

    from mcqa_probes.experiments import grid
    from mcqa_probes.experiments.olmpics import suite

    def curve(config, train, dev, out, controls, probe, **options):
        (out / "summary.json").parent.mkdir(parents=True, exist_ok=True)
        summary = {"full": {"WS": 0.5, "MAX": 0.6}, "perturbed": {"WS": 0.4, "MAX": 0.5},
                   "language_sensitivity": {"perturbed": 0.1}}
        (out / "summary.json").write_text(json.dumps(summary))
        failed = [grid.TrialOutcome(f"{variant}/n4_s0", "", "failed", str(out)) for variant in failing]
        raise grid.GridFailed(grid.GridReport(failed))

    monkeypatch.setattr(suite, "run_learning_curve", curve)
    failures = []
    failing = ["nolang"]
    assert suite._curve(tmp_path / "c.jsonnet", "t", "d", tmp_path / "mlp", ["perturbed", "nolang"], "age_comparison",
                        failures=failures) == ({"WS": 0.5, "MAX": 0.6}, {"perturbed": 0.1})
    failing = ["full", "nolang"]  # the curve itself failed: nothing of it is shown
    assert suite._curve(tmp_path / "c.jsonnet", "t", "d", tmp_path / "mlp2", ["perturbed", "nolang"],
                        "age_comparison", failures=failures) == (None, {})
    assert len(failures) == 2  # both grid reports kept for the final GridFailed

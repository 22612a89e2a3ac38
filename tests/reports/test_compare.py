"""The paired comparison against scipy / statsmodels on the same counts, a brute-force bootstrap and
hand-made Holm / Benjamini-Hochberg adjustments."""
import math

import numpy
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar

from mcqa_probes.metrics.item_records import item_record
from mcqa_probes.reports.compare import (
    adjust, compare_pair, compare_records, mcnemar_exact, minimum_detectable_difference, paired_cluster_bootstrap,
    questions_needed,
)


def test_mcnemar_equals_statsmodels_exact_test():
    for a_only, b_only in ((7, 2), (0, 5), (13, 13), (1, 0), (30, 12)):
        table = [[10, a_only], [b_only, 4]]
        assert mcnemar_exact(a_only, b_only) == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-12)
    assert mcnemar_exact(0, 0) == 1.0


def by_hand_holm(p):
    order = sorted(range(len(p)), key=lambda i: p[i])
    adjusted, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def by_hand_bh(p):
    order = sorted(range(len(p)), key=lambda i: p[i], reverse=True)
    adjusted, running = [0.0] * len(p), 1.0
    for position, i in enumerate(order):
        rank = len(p) - position
        running = min(running, p[i] * len(p) / rank)
        adjusted[i] = running
    return adjusted


def test_holm_and_bh_equal_the_textbook_procedures():
    p = [0.01, 0.04, 0.03, 0.20, 0.005, 0.04]
    found = adjust(p)
    assert found["holm"] == pytest.approx(by_hand_holm(p))
    assert found["bh"] == pytest.approx(by_hand_bh(p))


def brute_force_interval(right_a, right_b, clusters, samples, seed):
    """The paired cluster bootstrap written out: one resample at a time, question lists rebuilt."""
    keys = list(dict.fromkeys(k if k is not None else ("alone", i) for i, k in enumerate(clusters)))
    members = {key: [i for i, k in enumerate(clusters) if (k if k is not None else ("alone", i)) == key]
               for key in keys}
    rng = numpy.random.default_rng(seed)
    differences = []
    for _ in range(samples):
        drawn = [i for pick in rng.integers(0, len(keys), size=len(keys)) for i in members[keys[pick]]]
        differences.append(sum(right_a[i] - right_b[i] for i in drawn) / len(drawn))
    return tuple(numpy.percentile(differences, [2.5, 97.5]))


CASE = {"a": [1, 1, 0, 1, 0, 1, 1, 0, 1, 1], "b": [0, 1, 0, 0, 0, 1, 0, 1, 0, 1],
        "clusters": ["x", "x", "y", None, "y", "z", "z", "z", None, "w"]}


def test_paired_cluster_bootstrap_equals_brute_force():
    found = paired_cluster_bootstrap(CASE["a"], CASE["b"], CASE["clusters"], samples=300, seed=4)
    assert found == pytest.approx(brute_force_interval(CASE["a"], CASE["b"], CASE["clusters"], 300, 4), abs=1e-12)
    assert found == paired_cluster_bootstrap(CASE["a"], CASE["b"], CASE["clusters"], samples=300, seed=4)
    # resampling questions instead of clusters would give another interval
    independent = brute_force_interval(CASE["a"], CASE["b"], [None] * 10, 300, 4)
    assert found != pytest.approx(independent, abs=1e-12)


def test_questions_needed_and_mdd_are_inverse_and_match_the_formula():
    psi = 0.3
    z_a, z_b = stats.norm.ppf(0.975), stats.norm.ppf(0.8)
    d = 0.1
    assert questions_needed(d, psi) == pytest.approx((z_a * math.sqrt(psi) + z_b * math.sqrt(psi - d * d)) ** 2 / d ** 2)
    mdd = minimum_detectable_difference(200, psi)
    assert questions_needed(mdd, psi) == pytest.approx(200)
    assert minimum_detectable_difference(2000, psi) < mdd  # more questions, smaller detectable differences
    assert minimum_detectable_difference(200, 0.0) is None
    assert minimum_detectable_difference(3, 0.1) is None  # nothing up to psi is detectable on 3 questions


def test_compare_pair_counts():
    found = compare_pair(CASE["a"], CASE["b"], CASE["clusters"], samples=200, seed=0)
    assert (found["a_only"], found["b_only"], found["questions"], found["clusters"]) == (4, 1, 10, 6)
    assert found["difference"] == pytest.approx(0.7 - 0.4)
    assert found["p_mcnemar"] == pytest.approx(stats.binomtest(4, 5, 0.5).pvalue)
    assert found["discordance"] == 0.5
    assert found["questions_for_5_points"] == math.ceil(questions_needed(0.05, 0.5))


def records(model, rights, hops):
    found = []
    for i, (right, h) in enumerate(zip(rights, hops)):
        metadata = {"id": f"q{i}", "question": "?", "choices": ["a", "b"], "answer_index": 0,
                    "notes": {"hops": h, "distractor_type": "random", "cluster_key": f"c{i // 2}"}}
        found.append(item_record(model, "wordnetqa", "hypernymy", metadata, {"mcqa": [1.0, 0.0] if right else [0.0, 1.0]},
                                 "mcqa"))
    return found


def test_compare_records_pairs_probes_cells_and_adjusts_over_the_page():
    hops = [1, 1, 2, 2, 1, 2]
    page = records("A", [1, 1, 1, 0, 1, 1], hops) + records("B", [0, 1, 0, 0, 1, 0], hops) + \
        records("C", [1, 0, 1, 1, 0, 0], hops)[:4]  # C answered only the first 4 questions
    result = compare_records(page, samples=100)
    cells = [(c["model_a"], c["model_b"], c["cell"], c["questions"]) for c in result["comparisons"]]
    assert cells == [("A", "B", "all", 6), ("A", "B", "hops=1/random", 3), ("A", "B", "hops=2/random", 3),
                     ("A", "C", "all", 4), ("A", "C", "hops=1/random", 2), ("A", "C", "hops=2/random", 2),
                     ("B", "C", "all", 4), ("B", "C", "hops=1/random", 2), ("B", "C", "hops=2/random", 2)]
    raw = [c["p_mcnemar"] for c in result["comparisons"]]
    assert [c["p_holm"] for c in result["comparisons"]] == pytest.approx(by_hand_holm(raw))
    assert [c["p_bh"] for c in result["comparisons"]] == pytest.approx(by_hand_bh(raw))
    first = result["comparisons"][0]
    assert (first["a_only"], first["b_only"]) == (3, 0)

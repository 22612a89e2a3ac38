"""mcqa_probes.metrics.robust_knowledge on hand-made item records: every number recomputed by hand."""
from mcqa_probes.metrics.robust_knowledge import (agreement_matrix, circular_counts, knowledge_prompts, robust_by_group,
                                                  robust_knowledge)

T, F = True, False
ROT = ("letters/rot0", "letters/rot1", "letters/rot2")


def record(qid, cluster, correct, chosen=None, model="m", probe="hypernymy"):
    """gold is 0: a right prompt chose 0, a wrong one 1 unless ``chosen`` says otherwise."""
    picked = {prompt: 0 if right else 1 for prompt, right in correct.items()}
    picked.update(chosen or {})
    return {"model": model, "section": "wordnetqa", "probe": probe, "id": qid, "question": f"stem {qid}",
            "choices": ["a", "b", "c", "d"], "gold": 0, "cluster": cluster, "hops": None, "distractor_family": None,
            "concept": None, "scores": {}, "probabilities": {}, "chosen": picked, "correct": correct,
            "primary": "cloze/sum"}


def prompts(sum_, mean, chars, pmi, rotations, control=None):
    correct = {"cloze/sum": sum_, "cloze/mean": mean, "cloze/chars": chars}
    if pmi is not None:
        correct["cloze/pmi"] = pmi
    correct.update(zip(ROT, rotations))
    if control is not None:
        correct["choice_only"] = control
    return correct


RECORDS = [
    # q1: right everywhere but under cloze/mean (not a knowledge prompt) and the control: known
    record("q1", "c1", prompts(T, F, T, T, (T, T, T), control=T)),
    # q2: wrong under chars and rotation 1: not known
    record("q2", "c1", prompts(T, T, F, T, (T, F, T), control=F), chosen={"choice_only": 3}),
    # q3: right everywhere: known
    record("q3", "c2", prompts(T, T, T, T, (T, T, T), control=T)),
    # q4: no cluster (a cluster of its own), wrong everywhere, choosing 2 under sum and chars
    record("q4", None, prompts(F, F, F, F, (F, F, F), control=F),
           chosen={"cloze/sum": 2, "cloze/chars": 2}),
    # q5: PMI not run on it: left out of "known under every prompt"
    record("q5", "c3", prompts(T, T, T, None, (T, T, T))),
    # q6: two choices, asked under two rotations only: left out too; its own n in CircularEval
    record("q6", "c4", {"cloze/sum": T, "cloze/mean": T, "cloze/chars": T, "cloze/pmi": T,
                        "letters/rot0": T, "letters/rot1": F}),
]


def test_knowledge_prompts_leave_out_controls_and_mean_and_order_rotations():
    names = ["letters/rot10", "choice_only", "cloze/pmi", "letters/rot2", "cloze/mean", "cloze/sum", "mcqa",
             "cloze/chars", "choice_only/letters", "odd"]
    assert knowledge_prompts(names) == ["mcqa", "cloze/sum", "cloze/chars", "cloze/pmi", "letters/rot2",
                                        "letters/rot10", "odd"]


def test_robust_knowledge_of_hand_made_records():
    result = robust_knowledge(RECORDS)
    assert result["questions"] == 6
    assert result["prompts"] == ["cloze/sum", "cloze/mean", "cloze/chars", "cloze/pmi", *ROT, "choice_only"]
    assert result["robust_prompts"] == ["cloze/sum", "cloze/chars", "cloze/pmi", *ROT]
    # single-prompt accuracies (over the questions asked that way)
    assert result["counts"] == {"cloze/sum": 6, "cloze/mean": 6, "cloze/chars": 6, "cloze/pmi": 5,
                                "letters/rot0": 6, "letters/rot1": 6, "letters/rot2": 5, "choice_only": 4}
    assert result["accuracy"] == {"cloze/sum": 5 / 6, "cloze/mean": 4 / 6, "cloze/chars": 4 / 6,
                                  "cloze/pmi": 4 / 5, "letters/rot0": 5 / 6, "letters/rot1": 3 / 6,
                                  "letters/rot2": 4 / 5, "choice_only": 2 / 4}
    # strict cluster accuracy per prompt: clusters c1 {q1, q2}, c2 {q3}, q4 alone, c3 {q5}, c4 {q6}
    assert result["cluster_accuracy"]["cloze/sum"] == 4 / 5      # only q4's cluster fails
    assert result["cluster_accuracy"]["cloze/chars"] == 3 / 5    # c1 (q2) and q4 fail
    assert result["cluster_accuracy"]["letters/rot1"] == 2 / 5   # c1, q4, c4 fail
    assert result["cluster_accuracy"]["choice_only"] == 1 / 3    # c1 (q2), c2 ok, q4
    # known under every prompt: q1..q4 asked under all six; q1 and q3 known
    assert (result["robust_questions"], result["robust_known"], result["robust_accuracy"]) == (4, 2, 0.5)
    assert [q["known"] for q in result["per_question"]] == [T, F, T, F, None, None]
    assert result["clusters"] == 3 and result["robust_cluster_accuracy"] == 1 / 3  # only c2
    assert result["per_cluster"] == [
        {"key": "cluster:c1", "cluster": "c1", "questions": 2, "known": 1, "all_known": False},
        {"key": "cluster:c2", "cluster": "c2", "questions": 1, "known": 1, "all_known": True},
        {"key": "question:q4", "cluster": None, "questions": 1, "known": 0, "all_known": False}]
    # CircularEval: right rotations q1 3, q2 2, q3 3, q4 0, q5 3 (n = 3); q6 1 of 2
    assert result["circular"] == {"2": {"questions": 1, "at_least": {"1": 1.0, "2": 0.0}},
                                  "3": {"questions": 5, "at_least": {"1": 4 / 5, "2": 4 / 5, "3": 3 / 5}}}


def test_agreement_matrix_counts_the_same_choice_not_the_same_correctness():
    prompts = ["cloze/sum", "cloze/chars", "choice_only", "cloze/pmi"]
    found = agreement_matrix(RECORDS, prompts)
    matrix, counts = found["matrix"], found["counts"]
    assert found["prompts"] == prompts
    assert [matrix[i][i] for i in range(4)] == [1.0, 1.0, 1.0, 1.0]
    assert counts[0][0] == 6 and counts[2][2] == 4 and counts[3][3] == 5
    # sum vs chars: q2 differs (0 vs 1); q4 both wrong on the same choice 2 agrees
    assert (matrix[0][1], counts[0][1]) == (5 / 6, 6) and matrix[1][0] == matrix[0][1]
    # sum vs choice_only on q1..q4: q1 0/0, q2 0/3, q3 0/0, q4 2/1
    assert (matrix[0][2], counts[0][2]) == (2 / 4, 4)
    # chars vs choice_only: q1 0/0, q2 1/3, q3 0/0, q4 2/1
    assert matrix[1][2] == 2 / 4
    # sum vs pmi on q1-q4, q6: q4 2 vs 1
    assert (matrix[0][3], counts[0][3]) == (4 / 5, 5)
    assert robust_knowledge(RECORDS)["agreement"]["matrix"][0][2] == 5 / 6  # sum vs chars in the full matrix
    assert agreement_matrix([], ["cloze/sum"]) == {"prompts": ["cloze/sum"], "matrix": [[None]], "counts": [[0]]}


def test_circular_counts_ignore_records_without_rotations():
    assert circular_counts([record("x", None, {"mcqa": True})]) == {}


def test_given_prompts_and_single_prompt_models_and_groups():
    chosen = robust_knowledge(RECORDS, prompts=["cloze/sum", "cloze/chars"])
    assert chosen["robust_prompts"] == ["cloze/sum", "cloze/chars"]
    # q1 q3 q5 q6 right under both; q2 wrong under chars; q4 wrong
    assert (chosen["robust_questions"], chosen["robust_known"]) == (6, 4)
    # clusters c1 (q2 fails), c2, q4 (fails), c3, c4: 3 of 5
    assert chosen["robust_cluster_accuracy"] == 3 / 5
    archive = [record("a", "k", {"mcqa": T}, model="arch"), record("b", "k", {"mcqa": F}, model="arch"),
               record("c", None, {"mcqa": T}, model="arch", probe="synonymy")]
    groups = robust_by_group(RECORDS + archive, per_item=False)
    assert list(groups) == [("m", "wordnetqa", "hypernymy"), ("arch", "wordnetqa", "hypernymy"),
                            ("arch", "wordnetqa", "synonymy")]
    one = groups[("arch", "wordnetqa", "hypernymy")]
    # one prompt: known = right under it; the cluster k fails (b)
    assert (one["robust_prompts"], one["robust_accuracy"], one["accuracy"]["mcqa"]) == (["mcqa"], 0.5, 0.5)
    assert one["robust_cluster_accuracy"] == 0.0 and one["circular"] == {}
    assert "per_question" not in one and groups[("m", "wordnetqa", "hypernymy")]["robust_accuracy"] == 0.5
    assert groups[("arch", "wordnetqa", "synonymy")]["robust_accuracy"] == 1.0


def test_qualified_prompts_of_a_sweep():
    names = ["cloze/sum @5-shot", "choice_only @letters", "cloze/mean @5-shot", "letters/rot1 @5-shot",
             "letters/rot0 @5-shot", "cloze/sum", "letters/rot0"]
    assert knowledge_prompts(names) == ["cloze/sum", "letters/rot0", "cloze/sum @5-shot", "letters/rot0 @5-shot",
                                        "letters/rot1 @5-shot"]
    rows = [record("q1", None, {"letters/rot0": T, "letters/rot1": T, "letters/rot0 @5-shot": T,
                                "letters/rot1 @5-shot": F}),
            record("q2", None, {"letters/rot0": F, "letters/rot1": T, "letters/rot0 @5-shot": T,
                                "letters/rot1 @5-shot": T})]
    assert circular_counts(rows) == {"2": {"questions": 2, "at_least": {"1": 1.0, "2": 0.5}},
                                     "2 @5-shot": {"questions": 2, "at_least": {"1": 1.0, "2": 0.5}}}
    assert robust_knowledge(rows)["robust_known"] == 0


def test_pride_prompts_are_derived_not_ways_of_asking():
    """The PriDe-debiased prompts (item records add them where every rotation was asked) change none of
    the numbers: a question wrong under them only is still known, and they are in no table."""
    with_pride = [dict(r, correct={**r["correct"], "letters/pride/rot0": False, "letters/pride/rot1 @2-shot": False},
                       chosen={**r["chosen"], "letters/pride/rot0": 3, "letters/pride/rot1 @2-shot": 3})
                  for r in RECORDS]
    plain, derived = robust_knowledge(RECORDS), robust_knowledge(with_pride)
    assert derived == plain and derived["robust_known"] == 2
    assert circular_counts(with_pride) == circular_counts(RECORDS)

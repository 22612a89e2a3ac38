"""Human-estimate tools: sample → CSV, 5 votes back → majority accuracy → gold test set."""
import csv
import json
import random
from pathlib import Path

import pytest

from mcqa_probes.builders.annotation import (
    AnnotationError, majority_vote, read_mcqa_jsonl, read_votes, sample_for_annotation, score_annotations,
    write_annotation_csv, write_gold_test_set)
from tests.conftest import load_bin


def write_questions(path: Path):
    lines = [
        # DictionaryQA style: int labels / int answerKey
        {"id": "0", "question": {"stem": "s0", "choices": [{"label": i, "text": f"c{i}"} for i in range(5)]},
         "answerKey": 1, "notes": {"word": "old"}},
        # WordNetQA style: string labels
        {"id": "1", "question": {"stem": "s1", "choices": [{"label": str(i), "text": f"d{i}"} for i in range(5)]},
         "answerKey": "3"},
        # letter labels, 3 choices
        {"id": "q2", "question": {"stem": "s2, with a comma", "choices": [{"label": l, "text": l.lower()} for l in "ABC"]},
         "answerKey": "C"},
        {"id": "3", "question": {"stem": "s3", "choices": [{"label": i, "text": f"e{i}"} for i in range(5)]},
         "answerKey": 0},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines))     # no final newline
    return lines


def write_votes(path: Path, rows):
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["qid", "worker", "answer"])
        writer.writerows(rows)


def five(qid, letters):
    return [(qid, f"w{i}", letter) for i, letter in enumerate(letters)]


def test_read_labels_of_any_kind(tmp_path):
    write_questions(tmp_path / "q.jsonl")
    questions = read_mcqa_jsonl(str(tmp_path / "q.jsonl"))
    assert [(q.id, q.gold_letter) for q in questions] == [("0", "B"), ("1", "D"), ("q2", "C"), ("3", "A")]


def test_sample_csv_is_seeded_and_has_no_key(tmp_path):
    write_questions(tmp_path / "q.jsonl")
    questions = read_mcqa_jsonl(str(tmp_path / "q.jsonl"))
    a = sample_for_annotation(questions, 2, random.Random(5))
    b = sample_for_annotation(questions, 2, random.Random(5))
    assert [q.id for q in a] == [q.id for q in b] and len(a) == 2
    assert [q.id for q in sample_for_annotation(questions, 10, random.Random(5))] == ["0", "1", "q2", "3"]
    write_annotation_csv(questions, str(tmp_path / "batch.csv"))
    rows = list(csv.reader(open(tmp_path / "batch.csv", newline="")))
    assert rows[0] == ["qid", "question", "A", "B", "C", "D", "E"]
    assert rows[1] == ["0", "s0", "c0", "c1", "c2", "c3", "c4"]
    assert rows[3] == ["q2", "s2, with a comma", "a", "b", "c", "", ""]
    assert len(rows) == 5


def test_majority_vote_and_ties():
    assert majority_vote(list("BBBAC")) == "B"
    assert majority_vote(list("BBAAC")) is None          # tie → no majority → wrong
    assert majority_vote(list("ABCDE")) is None


def test_score_and_gold_set(tmp_path):
    lines = write_questions(tmp_path / "q.jsonl")
    questions = read_mcqa_jsonl(str(tmp_path / "q.jsonl"))
    # q0 gold B: 3 of 5 say B → right; q1 gold D: majority A → wrong; q2 gold C: tie → wrong; q3 not annotated
    write_votes(tmp_path / "answers.csv", five("0", "BBBAC") + five("1", "AADAA") + five("q2", "CCAAB"))
    votes = read_votes(str(tmp_path / "answers.csv"), questions)
    score = score_annotations(questions, votes, 5)
    assert (score.questions, score.correct, score.no_majority) == (3, 1, 1)
    assert score.accuracy == pytest.approx(1 / 3)
    assert score.majority == {"0": "B", "1": "A", "q2": None}
    kept = write_gold_test_set(questions, score, str(tmp_path / "out" / "gold.jsonl"))
    assert kept == 1
    assert (tmp_path / "out" / "gold.jsonl").read_text() == json.dumps(lines[0]) + "\n"


@pytest.mark.parametrize("row, message", [
    (("7", "w9", "A"), "line 7: unknown question id '7'"),
    (("0", "w9", "F"), "line 7: answer 'F' is not one of A, B, C, D, E"),
    (("q2", "w9", "D"), "line 7: answer 'D' is not one of A, B, C"),
    (("0", "w0", "A"), "line 7: worker 'w0' answered '0' twice"),
    (("0", "", "A"), "line 7: empty worker id"),
])
def test_malformed_rows_name_file_and_line(tmp_path, row, message):
    write_questions(tmp_path / "q.jsonl")
    questions = read_mcqa_jsonl(str(tmp_path / "q.jsonl"))
    write_votes(tmp_path / "answers.csv", five("0", "BBBAC") + [row])
    with pytest.raises(AnnotationError) as error:
        read_votes(str(tmp_path / "answers.csv"), questions)
    assert "answers.csv" in str(error.value) and message in str(error.value)


def test_vote_count_and_bad_jsonl_errors(tmp_path):
    write_questions(tmp_path / "q.jsonl")
    questions = read_mcqa_jsonl(str(tmp_path / "q.jsonl"))
    write_votes(tmp_path / "answers.csv", five("0", "BBBA"))
    votes = read_votes(str(tmp_path / "answers.csv"), questions)
    with pytest.raises(AnnotationError, match="do not have 5 votes"):
        score_annotations(questions, votes, 5)
    (tmp_path / "bad.jsonl").write_text('{"id": "1", "question": {"stem": "x"}}\n')
    with pytest.raises(AnnotationError, match=r"bad.jsonl, line 1"):
        read_mcqa_jsonl(str(tmp_path / "bad.jsonl"))
    (tmp_path / "mturk.csv").write_text("Input.qid,WorkerId,Answer.answer\n" + "".join(f"0,w{i},b\n" for i in range(5)))
    assert read_votes(str(tmp_path / "mturk.csv"), questions) == {"0": list("BBBBB")}


load_script = load_bin


def test_command_line_round_trip(tmp_path, capsys):
    write_questions(tmp_path / "q.jsonl")
    sample, score = load_script("annotation_sample"), load_script("annotation_score")
    assert sample.main([str(tmp_path / "q.jsonl"), str(tmp_path / "batch.csv"), "--size", "2", "--seed", "1"]) == 0
    assert "wrote 2 of 4 questions" in capsys.readouterr().out
    write_votes(tmp_path / "answers.csv", five("0", "BBBBB") + five("3", "ABBBB"))
    assert score.main([str(tmp_path / "q.jsonl"), str(tmp_path / "answers.csv"),
                       "--gold-output", str(tmp_path / "gold.jsonl")]) == 0
    assert "majority-vote accuracy 50.0%" in capsys.readouterr().out
    assert [json.loads(l)["id"] for l in open(tmp_path / "gold.jsonl")] == ["0"]
    with pytest.raises(AnnotationError, match="batch.csv, line 1: no worker column"):  # cli.run: error line, exit 2
        score.main([str(tmp_path / "q.jsonl"), str(tmp_path / "batch.csv")])


def test_an_empty_split_or_no_size_is_an_error_and_writes_nothing(tmp_path, capsys):
    """A probe too small to fill its test split: no header-only batch to send out to annotators."""
    from mcqa_probes.common import cli

    sample = load_script("annotation_sample")
    (tmp_path / "test.jsonl").write_text("\n")
    assert cli.run(sample.main, [str(tmp_path / "test.jsonl"), str(tmp_path / "batch.csv")]) == 2
    assert f"{tmp_path / 'test.jsonl'}: no question in the file" in capsys.readouterr().err
    write_questions(tmp_path / "q.jsonl")
    assert cli.run(sample.main, [str(tmp_path / "q.jsonl"), str(tmp_path / "batch.csv"), "--size", "0"]) == 2
    assert "--size 0: expected a positive number" in capsys.readouterr().err
    assert not (tmp_path / "batch.csv").exists()


def test_a_header_only_answers_file_or_no_positive_votes_is_an_error_and_writes_nothing(tmp_path, capsys):
    """A CSV with a header and no row is no batch of answers (not '0 questions ... 0.0%'), and
    --votes below 1 is refused as an option, before any file is read."""
    from mcqa_probes.common import cli

    score = load_script("annotation_score")
    write_questions(tmp_path / "q.jsonl")
    gold = tmp_path / "gold.jsonl"
    for text in ("qid,worker,answer\n", "qid,worker,answer\n\n,,\n"):
        (tmp_path / "hdr.csv").write_text(text)
        assert cli.run(score.main, [str(tmp_path / "q.jsonl"), str(tmp_path / "hdr.csv"),
                                    "--gold-output", str(gold)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"error: {tmp_path / 'hdr.csv'}: no answers" in err
        assert not gold.exists()
    with pytest.raises(AnnotationError, match="no answers"):
        score_annotations(read_mcqa_jsonl(str(tmp_path / "q.jsonl")), {}, 5)
    write_votes(tmp_path / "answers.csv", five("0", "BBBBB"))
    for votes in ("0", "-2"):
        assert cli.run(score.main, [str(tmp_path / "q.jsonl"), str(tmp_path / "answers.csv"), "--votes", votes,
                                    "--gold-output", str(gold)]) == 2
        err = capsys.readouterr().err
        assert err == f"error: --votes {votes}: expected a positive number of votes per question\n"
        assert not gold.exists()
    with pytest.raises(AnnotationError, match="expected a positive number"):
        score_annotations(read_mcqa_jsonl(str(tmp_path / "q.jsonl")), {"0": []}, 0)

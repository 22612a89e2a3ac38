"""The item browser (mcqa_probes.reports.item_browser, bin/item_browser) driven in real headless Chromium.

Each view is loaded at a URL fragment (the page's filters), the DOM Chromium dumps is read back, and
the questions it shows are compared with the set computed here in Python from the records. These
tests need Chromium (bin/setup installs it when run as root): without it they fail, saying how to
install it, rather than being skipped.
"""
import json
import subprocess
import sys
from html.parser import HTMLParser

import pytest

from mcqa_probes.metrics.item_records import item_record, write_item_records
from mcqa_probes.metrics.robust_knowledge import knowledge_prompts
from mcqa_probes.reports.browser import load_page
from mcqa_probes.reports.item_browser import (ItemBrowserError, browser_data, item_browser_from_files,
                                              render_item_browser, write_item_browser)
from mcqa_probes.testing.item_records import synthetic_records
from tests.conftest import ROOT

MODELS = ("arch", "gpt", "lm")
CAUSAL = ("cloze/sum", "cloze/mean", "cloze/chars", "cloze/pmi", "letters/rot0", "letters/rot1", "letters/rot2",
          "choice_only")
FAMILIES = ("random", "sister", "hypernym")


def make_records():
    """3 models x 2 probes x 12 questions, arch skips three questions, every pattern of right / wrong."""
    records = []
    for m, model in enumerate(MODELS):
        for p, probe in enumerate(("hypernymy", "synonymy")):
            for n in range(12):
                if model == "arch" and probe == "synonymy" and n in (1, 5, 9):
                    continue  # not asked
                gold = (n + p) % 3
                metadata = {"id": f"{probe[:3]}{n}", "question": f"{probe} question {n} <b>",
                            "choices": [f"{probe}-{n}-choice{k}" for k in range(3)], "answer_index": gold,
                            "notes": {"hops": None if n == 11 else 1 + n % 3,
                                      "distractor_family": None if n == 10 else FAMILIES[n % 3],
                                      "concept": f"{'Trumpet' if n % 4 == 0 else 'oak'}{n}.n.01"}}
                if n < 9:  # the last three questions have no cluster
                    metadata["notes"]["cluster_key"] = f"{probe}-cl{n // 3}"
                prompts = ("mcqa",) if model == "arch" else CAUSAL
                scores = {}
                for k, prompt in enumerate(prompts):
                    # n % 4 == m: right under every prompt; question 7: wrong under every prompt
                    right = n != 7 and (n % 4 == m or (n * 7 + m * 2 + k * 3 + p) % 5 < 3)
                    picked = gold if right else (gold + 1 + (n + k) % 2) % 3
                    scores[prompt] = [1.5 if c == picked else -0.25 * (c + 1) - k for c in range(3)]
                records.append(item_record(model, "wordnetqa", probe, metadata, scores,
                                           "mcqa" if model == "arch" else "cloze/sum"))
    return records


RECORDS = make_records()
QUESTIONS = list(dict.fromkeys((f"{r['section']}/{r['probe']}", r["id"]) for r in RECORDS))
BY_KEY = {(r["model"], f"{r['section']}/{r['probe']}", r["id"]): r for r in RECORDS}
FIRST = {}
for _record in RECORDS:
    FIRST.setdefault((f"{_record['section']}/{_record['probe']}", _record["id"]), _record)


def outcome(model, question, under="primary"):
    """1 right, 0 wrong, None not asked (the page's rule, written independently)."""
    record = BY_KEY.get((model, *question))
    if record is None:
        return None
    correct = record["correct"]
    if under == "primary":
        return int(correct[record["primary"]])
    if under == "robust":
        prompts = knowledge_prompts(correct)
        return int(all(correct[p] for p in prompts))
    return int(correct[under]) if under in correct else None


def expected(model=None, probe=None, hops="", family="", result=None, under="primary", a=None, b=None,
             concept="", cluster=None):
    found = []
    for question in QUESTIONS:
        record = FIRST[question]
        if probe and question[0] != probe:
            continue
        if hops != "" and record["hops"] != (None if hops == "none" else int(hops)):
            continue
        if family and record["distractor_family"] != (None if family == "none" else family):
            continue
        if concept and (record["concept"] is None or concept.lower() not in record["concept"].lower()):
            continue
        if cluster and record["cluster"] != cluster:
            continue
        want = {"right": 1, "wrong": 0}.get(result)
        if model:
            if BY_KEY.get((model, *question)) is None:
                continue
            if want is not None and outcome(model, question, under) != want:
                continue
        elif want is not None:
            seen = [o for o in (outcome(m, question, under) for m in MODELS) if o is not None]
            if not seen or any(o != want for o in seen):
                continue
        if a and outcome(a, question, under) != 1:
            continue
        if b and outcome(b, question, under) != 0:
            continue
        found.append(question)
    return found


class Shown(HTMLParser):
    """The questions a dumped item-browser page shows, its count, notice and the rows of each question."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items, self.count, self.notice, self.rows, self.siblings = [], None, "", {}, {}
        self._in, self._row, self._cell = None, None, None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "div" and attributes.get("class") == "item":
            self.items.append((attributes["data-probe"], attributes["data-id"]))
            self.rows[self.items[-1]], self.siblings[self.items[-1]] = [], []
        elif attributes.get("id") == "match-count":
            self.count = int(attributes["data-count"])
        elif attributes.get("id") == "notice":
            self._in = "notice"
        elif tag == "tr" and "data-model" in attributes:
            self._row = {"model": attributes["data-model"], "prompt": attributes["data-prompt"],
                         "class": attributes.get("class"), "cells": [], "chosen": None}
            self.rows[self.items[-1]].append(self._row)
        elif tag == "td" and self._row is not None:
            self._cell = []
            if attributes.get("class") == "chosen":
                self._row["chosen"] = len(self._row["cells"]) - 3
        elif tag == "li" and attributes.get("class") == "sibling":
            self.siblings[self.items[-1]].append(attributes["data-id"])

    def handle_endtag(self, tag):
        if tag == "p" and self._in == "notice":
            self._in = None
        elif tag == "td" and self._cell is not None and self._row is not None:
            self._row["cells"].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr":
            self._row = None

    def handle_data(self, data):
        if self._in == "notice":
            self.notice += data
        if self._cell is not None:
            self._cell.append(data)


def shown(page, fragment=""):
    result = load_page(page, fragment)
    assert result["errors"] == []
    parser = Shown()
    parser.feed(result["dom"])
    return parser


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    path = tmp_path_factory.mktemp("items") / "items.html"
    write_item_browser(RECORDS, path, title="Items of the test")
    return path


VIEWS = [
    ({}, ""),
    ({"model": "arch"}, "model=arch"),
    ({"probe": "wordnetqa/synonymy"}, "probe=wordnetqa/synonymy"),
    ({"hops": "2"}, "hops=2"),
    ({"hops": "none"}, "hops=none"),
    ({"family": "sister", "probe": "wordnetqa/hypernymy"}, "family=sister&probe=wordnetqa%2Fhypernymy"),
    ({"family": "none"}, "family=none"),
    ({"model": "arch", "result": "wrong"}, "model=arch&outcome=wrong"),
    ({"result": "right"}, "outcome=right"),
    ({"result": "wrong"}, "outcome=wrong"),
    ({"model": "gpt", "result": "right", "under": "robust"}, "model=gpt&outcome=right&under=robust"),
    ({"model": "lm", "result": "wrong", "under": "cloze/chars"}, "model=lm&outcome=wrong&under=cloze%2Fchars"),
    ({"model": "lm", "result": "right", "under": "letters/rot2"}, "model=lm&outcome=right&under=letters/rot2"),
    ({"a": "arch", "b": "gpt"}, "a=arch&b=gpt"),
    ({"a": "lm", "b": "gpt", "probe": "wordnetqa/synonymy"}, "a=lm&b=gpt&probe=wordnetqa/synonymy"),
    ({"a": "gpt", "b": "lm", "under": "cloze/pmi"}, "a=gpt&b=lm&under=cloze/pmi"),
    ({"concept": "TRUMP"}, "concept=TRUMP"),
    ({"concept": "oak1"}, "concept=oak1"),
    ({"cluster": "synonymy-cl1"}, "cluster=synonymy-cl1"),
]


def test_views_cover_every_filter_and_are_not_trivial():
    sizes = [len(expected(**view)) for view, _ in VIEWS]
    assert all(0 < size < len(QUESTIONS) for size in sizes[1:]), sizes  # each filter keeps some, drops some
    assert sizes[0] == len(QUESTIONS) == 24
    # the filters disagree with each other: right / wrong really depends on the prompt
    assert expected(model="lm", result="right", under="cloze/chars") != expected(model="lm", result="right")
    assert expected(model="gpt", result="right", under="robust") != expected(model="gpt", result="right")


@pytest.mark.parametrize("view,fragment", VIEWS, ids=[fragment or "all" for _, fragment in VIEWS])
def test_a_filter_shows_exactly_the_matching_questions(page, view, fragment):
    want = expected(**view)
    found = shown(page, fragment + ("&" if fragment else "") + "size=500")
    assert found.notice == ""
    assert found.count == len(want)
    assert found.items == want


def test_paging_shows_the_page_asked_for(page):
    want = expected(probe="wordnetqa/hypernymy")
    found = shown(page, "probe=wordnetqa/hypernymy&size=5&page=2")
    assert found.count == len(want) == 12
    assert found.items == want[5:10]
    assert shown(page, "probe=wordnetqa/hypernymy&size=5&page=9").items == want[10:]  # past the end: the last page
    assert len(shown(page).items) == 24  # 25 per page by default


def test_unknown_values_say_so_and_show_nothing(page):
    found = shown(page, "model=nobody&under=cloze/nothing")
    assert found.count == 0 and found.items == []
    assert 'no model "nobody"' in found.notice and 'no prompt "cloze/nothing"' in found.notice


def test_a_question_shows_every_models_scores_under_every_prompt_and_its_siblings(page):
    question = ("wordnetqa/synonymy", "syn4")
    found = shown(page, "probe=wordnetqa/synonymy&cluster=synonymy-cl1")
    assert found.items == [("wordnetqa/synonymy", "syn3"), question, ("wordnetqa/synonymy", "syn5")]
    rows = found.rows[question]
    assert [(row["model"], row["prompt"]) for row in rows] == (
        [("arch", "mcqa")] + [("gpt", p) for p in CAUSAL] + [("lm", p) for p in CAUSAL])
    for row in rows:
        record = BY_KEY[(row["model"], *question)]
        prompt = row["prompt"]
        assert row["class"] == ("right" if record["correct"][prompt] else "wrong")
        assert row["chosen"] == record["chosen"][prompt]
        cells = row["cells"][3:]
        assert cells == [f"{score:.2f} {100 * probability:.1f}%" for score, probability in
                         zip(record["scores"][prompt], record["probabilities"][prompt])]
    assert found.siblings[question] == ["syn3", "syn5"]
    # syn5 was not asked of arch: its row says so, and arch's filter leaves it out
    assert ("wordnetqa/synonymy", "syn5") not in shown(page, "model=arch&cluster=synonymy-cl1").items


def test_data_is_grouped_per_question_and_the_page_is_deterministic(tmp_path):
    data = browser_data(RECORDS)
    assert len(data["questions"]) == 24 and data["models"] == list(MODELS)
    assert data["prompts"] == ["mcqa", "cloze/sum", "cloze/mean", "cloze/chars", "cloze/pmi", "letters/rot0",
                               "letters/rot1", "letters/rot2", "choice_only"]
    html = render_item_browser(RECORDS, title="t")
    assert html.count("hypernymy-0-choice1") == 1  # a choice's text once, however many models answered it
    assert "<b>" not in html.split('id="items-data">')[1].split("</script>")[0]  # data cannot close the script
    assert html == render_item_browser([dict(r) for r in RECORDS], title="t")
    write_item_browser(RECORDS, tmp_path / "one.html", title="t")
    write_item_browser(RECORDS, tmp_path / "two.html", title="t")
    assert (tmp_path / "one.html").read_bytes() == (tmp_path / "two.html").read_bytes()
    assert "http://" not in html and "https://" not in html and " src=" not in html  # nothing fetched


def test_records_that_do_not_fit_together(tmp_path):
    write_item_records(tmp_path / "a.jsonl", RECORDS[:5])
    write_item_records(tmp_path / "b.jsonl", RECORDS[3:6])
    with pytest.raises(ItemBrowserError, match=r"given twice \(.*a\.jsonl, line 4\) \(.*b\.jsonl, line 1\)"):
        item_browser_from_files([tmp_path / "a.jsonl", tmp_path / "b.jsonl"], tmp_path / "x.html")
    other = dict(RECORDS[0], model="other", choices=["x", "y", "z"])
    with pytest.raises(ItemBrowserError, match="other choices"):
        browser_data([RECORDS[0], other])


def test_bin_item_browser(tmp_path):
    write_item_records(tmp_path / "items" / "arch" / "wordnetqa.jsonl", [r for r in RECORDS if r["model"] == "arch"])
    write_item_records(tmp_path / "items" / "gpt" / "wordnetqa.jsonl", [r for r in RECORDS if r["model"] == "gpt"])
    command = [sys.executable, str(ROOT / "bin" / "item_browser"), str(tmp_path / "items"), "--out",
               str(tmp_path / "items.html")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"path": str(tmp_path / "items.html"), "records": 45, "questions": 24,
                                         "models": ["arch", "gpt"]}
    found = shown(tmp_path / "items.html", "a=gpt&b=arch&size=100")
    assert found.items == [q for q in QUESTIONS if outcome("gpt", q) == 1 and outcome("arch", q) == 0]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(RECORDS[0]) + "\n" + json.dumps({**RECORDS[1], "gold": 7}) + "\n")
    result = subprocess.run(command[:2] + [str(bad), "--out", str(tmp_path / "bad.html")], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"error: {bad}, line 2: item record: 'gold' must be an index into "
                                                  "the 3 choices, got 7"]
    assert not (tmp_path / "bad.html").exists()
    result = subprocess.run(command[:2] + [str(tmp_path / "nowhere"), "--out", str(tmp_path / "n.html")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1 and "nowhere" in result.stderr


def test_thirty_thousand_records_load(tmp_path):
    records = synthetic_records(2000)
    assert len(records) == 30000
    path = write_item_browser(records, tmp_path / "items.html")
    right = {(r["model"], r["probe"], r["id"]): r["correct"][r["primary"]] for r in records}
    want = [r["id"] for r in records if r["model"] == "qwen" and r["probe"] == "hyponymy" and r["hops"] == 3
            and right[("qwen", "hyponymy", r["id"])] and not right[("smollm2", "hyponymy", r["id"])]]
    found = shown(path)
    assert found.count == 10000 and len(found.items) == 25
    found = shown(path, "probe=wordnetqa/hyponymy&hops=3&a=qwen&b=smollm2&size=500")
    assert found.count == len(want) > 25 and [i for _, i in found.items] == want

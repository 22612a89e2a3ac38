"""bin/build_probes --source: the documented command on each kind of source, its validity summary,
and one-line errors (exit 2, nothing written) for malformed sources."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES, ROOT

ONTOLOGIES = FIXTURES / "ontologies"


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, str(ROOT / "bin" / "build_probes"), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("source, extra, probes", [
    (ONTOLOGIES / "vehicles.obo", ["--relations", "part_of"], ["definitions", "synonymy", "hypernymy", "hyponymy", "part_of"]),
    (ONTOLOGIES / "kitchen_skos.ttl", ["--relations", "skos:related"], ["definitions", "synonymy", "hypernymy", "hyponymy", "skos_related"]),
    (ONTOLOGIES / "products_tsv", ["--format", "tsv"], ["definitions", "synonymy", "hypernymy", "hyponymy"]),
    (ONTOLOGIES / "clinics_rdfs.ttl", ["--root", "schema:Organization"], ["definitions", "hypernymy", "hyponymy"]),
])
def test_the_command_builds_the_probes_and_prints_the_validity_summary(tmp_path, source, extra, probes):
    result = run("--source", source, *extra, "--out", tmp_path / "out", "--quiet")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("source: ") and "validity summary" in out
    for probe in probes:
        assert (tmp_path / "out" / probe / "test.jsonl").is_file()
        assert f"\n{probe:<12} " in out
    assert "next: the artifact audit" in out and f"--probe-dir {tmp_path / 'out' / probes[0]}" in out


def test_the_next_command_is_quoted_as_a_shell_reads_it(tmp_path):
    import shlex

    out = tmp_path / "probes dir"
    result = run("--source", ONTOLOGIES / "vehicles.obo", "--out", out, "--quiet")
    printed = result.stdout.splitlines()
    command = shlex.split(printed[printed.index("next: the artifact audit (choice-only and partial-input controls) "
                                                "of these probes:") + 1])
    assert command[:3] == ["bin/artifact_audit", "--probe-dir", str(out / "definitions")]
    assert command[-2:] == ["--out", str(out / "artifact_audit")]


def test_the_obo_summary_names_the_skipped_and_repaired_lines(tmp_path):
    result = run("--source", ONTOLOGIES / "vehicles.obo", "--out", tmp_path, "--quiet")
    assert "vehicles.obo:26 xref" in result.stdout and "vehicles.obo:62 def cross-references" in result.stdout
    assert "1 obsolete or deprecated terms skipped" in result.stdout


def _broken_obo(tmp_path):
    path = tmp_path / "broken.obo"
    path.write_text((ONTOLOGIES / "vehicles.obo").read_text().replace('def: "A lever pushed by the foot." [VO:curator]',
                                                                      'def: "A lever pushed by the foot. [VO:curator]'))
    return path


def _bad_tsv(tmp_path):
    folder = tmp_path / "products"
    shutil.copytree(ONTOLOGIES / "products_tsv", folder)
    (folder / "edges.tsv").write_text((folder / "edges.tsv").read_text().replace("P:9\tis_a\tP:7", "P:9\tis_a"))
    return folder


def _cycle(tmp_path):
    path = tmp_path / "cycle.obo"
    path.write_text((ONTOLOGIES / "vehicles.obo").read_text().replace(
        "id: VO:0000001\nname: vehicle\n", "id: VO:0000001\nname: vehicle\nis_a: VO:0000021\n"))
    return path


def _bad_turtle(tmp_path):
    path = tmp_path / "bad.ttl"
    path.write_text((ONTOLOGIES / "clinics_rdfs.ttl").read_text().replace(':Park a rdfs:Class ;', ':Park a rdfs:Class'))
    return path


def _bad_owl_xml(tmp_path):
    path = tmp_path / "bad.owx"
    text = (ONTOLOGIES / "vehicles.owx").read_text()
    path.write_text(text.replace("<SubClassOf>", "<SubClassOff>", 1).replace("</SubClassOf>", "</SubClassOff>", 1))
    return path


@pytest.mark.parametrize("make, extra, expected", [
    (_broken_obo, [], r"broken.obo:\d+: def clause whose quoted text is not closed on its line"),
    (_bad_tsv, [], r"edges.tsv:9: 2 columns, expected 3"),
    (_cycle, [], r"cycle.obo:\d+: cycle in the is_a relation"),
    (_bad_turtle, [], r"bad.ttl:\d+: not valid Turtle"),
    (_bad_owl_xml, [], r"bad.owx:\d+: not valid OWL/XML: Unexpected tag: found SubClassOff"),
    (lambda tmp: ONTOLOGIES / "vehicles.obo", ["--root", "VO:7"], r"vehicles.obo: --root VO:7: no such concept"),
    (lambda tmp: ONTOLOGIES / "vehicles.obo", ["--relations", "has_part"], r"--relations has_part: no such relation"),
    (lambda tmp: ONTOLOGIES / "products_tsv" / "concepts.tsv", [], r"give --source .*products_tsv"),
])
def test_a_bad_source_is_one_error_line_exit_2_and_nothing_written(tmp_path, make, extra, expected):
    import re

    source = make(tmp_path)
    result = run("--source", source, *extra, "--out", tmp_path / "out", "--quiet")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and re.search(expected, lines[0]), result.stderr
    assert not (tmp_path / "out").exists()


def test_a_bad_source_is_one_line_on_stderr_without_quiet_too(tmp_path):
    """The progress lines of a build (not --quiet) come after the source is read: a script that reads
    stderr of a bad source gets the error line alone."""
    result = run("--source", _broken_obo(tmp_path), "--out", tmp_path / "out")
    assert result.returncode == 2
    assert [line for line in result.stderr.splitlines() if line.strip()] == [result.stderr.strip()]
    assert result.stderr.startswith("error: ") and not (tmp_path / "out").exists()


def test_a_valid_source_that_gives_no_question_is_one_line_on_stderr(tmp_path):
    """Read well, but nothing to ask (three concepts): the notes of the build go to stdout when stderr
    is no terminal, the error alone to stderr."""
    path = tmp_path / "flat.obo"
    path.write_text('format-version: 1.2\nontology: flat\n\n[Term]\nid: FL:1\nname: thing\ndef: "The top." []\n\n'
                    '[Term]\nid: FL:2\nname: apple\ndef: "A round fruit from orchards." []\nis_a: FL:1\n')
    result = run("--source", path, "--out", tmp_path / "out")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"error: {path}: no probe has a question")
    assert "read " in result.stdout and "hypernymy: no questions" in result.stdout
    assert not (tmp_path / "out").exists() and "--root" not in result.stderr
    # a --root whose sub-tree is too small: the error says which root and how many concepts it keeps
    result = run("--source", path, "--root", "FL:2", "--out", tmp_path / "out")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert result.stderr.rstrip().endswith("; --root FL:2 keeps 1 concept)"), result.stderr


def test_a_probe_too_small_to_fill_every_split_is_said_so(tmp_path):
    """One concept with a synonym: its synonymy questions go whole to one split, and a note says so."""
    stanzas = ['format-version: 1.2\nontology: fruit\n', '[Term]\nid: FR:1\nname: fruit\ndef: "The edible part of a plant." []\n']
    for number, name in enumerate(["apple", "pear", "plum", "cherry", "quince", "medlar", "sloe", "damson"], start=2):
        stanzas.append(f'[Term]\nid: FR:{number}\nname: {name}\ndef: "A fruit named {name} in orchard book {number}." []\n'
                       + ('synonym: "malus" EXACT []\nsynonym: "pome" EXACT []\n' if name == "apple" else "")
                       + "is_a: FR:1\n")
    path = tmp_path / "fruit.obo"
    path.write_text("\n".join(stanzas))
    result = run("--source", path, "--out", tmp_path / "out", "--quiet", "--workers", "1",
                 "--audit", "--audit-models", "random")
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(line for line in result.stdout.splitlines() if line.startswith("synonymy "))
    counts = [int(n) for n in line.split()[-1].split("/")]
    assert sum(1 for n in counts if n == 0) == 2
    empty = " or ".join(s for s, n in zip(("train", "dev", "test"), counts) if n == 0)
    assert f"note: synonymy has no {empty} questions ({sum(counts)} questions about 1 concept: " in result.stdout
    assert "note: definitions" not in result.stdout
    # the audit the build runs (or prints as the next command) leaves the probe out, and runs on the others
    assert "note: synonymy left out of the artifact audit (a split without questions: the note above)" in result.stdout
    audit = json.loads((tmp_path / "out" / "artifact_audit" / "artifact_audit.json").read_text())
    stats = json.loads((tmp_path / "out" / "stats.json").read_text())
    full = {probe for probe, entry in stats.items() if all(entry["splits"][s]["questions"] for s in ("train", "dev", "test"))}
    assert "synonymy" not in full and "definitions" in full and set(audit["probes"]) == full


def test_a_build_in_another_language_says_how_leakage_masking_finds_names_and_which_templates_ask(tmp_path):
    french = run("--source", ONTOLOGIES / "kitchen_skos.ttl", "--lang", "fr", "--out", tmp_path / "fr", "--quiet")
    assert french.returncode == 0, french.stderr
    assert "note: leakage masking in --lang fr finds a name as written, with an English plural ending or with the same " \
           "Snowball stem" in french.stdout
    english = run("--source", ONTOLOGIES / "kitchen_skos.ttl", "--out", tmp_path / "en", "--quiet")
    assert english.returncode == 0 and "note: leakage masking" not in english.stdout
    # the questions: French templates for --lang fr, said in a note; English ones for a language without its own
    assert "note: the questions are asked in French templates" in french.stdout
    stems = [json.loads(line)["question"]["stem"] for line in (tmp_path / "fr" / "hyponymy" / "train.jsonl").open()]
    assert stems and not any(stem.startswith(("Where", "Taking", "Given", "Which", "What")) for stem in stems)
    assert any(stem.startswith(("Sachant que", "En prenant", "Étant donné", "Lequel", "Une sorte", "Quel choix"))
               for stem in stems)
    portuguese = run("--source", ONTOLOGIES / "products_tsv", "--lang", "pt-BR", "--out", tmp_path / "pt", "--quiet")
    assert portuguese.returncode == 0, portuguese.stderr
    assert "note: no question templates in --lang pt-BR: the questions are asked in English templates (templates " \
           "exist for en, de, es, fr, nl)" in portuguese.stdout
    assert "questions are asked in" not in english.stdout


def test_an_unknown_format_is_an_argument_error():
    result = run("--source", ONTOLOGIES / "vehicles.obo", "--format", "nonsense", "--out", "/tmp/never")
    assert result.returncode == 2 and "invalid choice: 'nonsense'" in result.stderr


def test_audit_runs_the_artifact_audit_on_the_new_probes(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "bin" / "build_probes"), "--source",
                             str(ONTOLOGIES / "clinics_rdfs.ttl"), "--probes", "hypernymy", "--out", str(tmp_path / "out"),
                             "--quiet", "--workers", "1", "--audit", "--audit-models", "random,choice_only"],
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "GLOVE_FILE": str(FIXTURES / "glove" / "tiny_glove.txt"), "EPOCHS": "1"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert "artifact audit: bin/artifact_audit --probe-dir" in result.stdout
    audit = json.loads((tmp_path / "out" / "artifact_audit" / "artifact_audit.json").read_text())
    results = audit["probes"]["hypernymy"]["results"]
    assert set(results) == {"random", "choice_only"}
    test_questions = len((tmp_path / "out" / "hypernymy" / "test.jsonl").read_text().splitlines())
    assert audit["probes"]["hypernymy"]["splits"]["sizes"]["test"] == test_questions   # the build's own test split
    assert "Choice-Only" in (tmp_path / "out" / "artifact_audit" / "artifact_audit.md").read_text()


def test_min_answer_depth_zero_lets_the_top_concepts_of_a_shallow_thesaurus_be_answers(tmp_path):
    """A two-level thesaurus (top concepts and their narrower ones): by default its hypernymy probe is
    left out and the summary names the option; ``--min-answer-depth 0`` builds it, answered by the
    top concepts."""
    lines = ["@prefix skos: <http://www.w3.org/2004/02/skos/core#> .", "@prefix ex: <http://e.org/places/> ."]
    for top, members in {"factory": ["tannery", "brewery", "soap works"], "market": ["fish market", "flower market"],
                         "church": ["chapel", "cathedral"]}.items():
        key = top.replace(" ", "_")
        lines.append(f'ex:{key} a skos:Concept ; skos:prefLabel "{top}"@en ; skos:topConceptOf ex:scheme .')
        lines += [f'ex:{m.replace(" ", "_")} a skos:Concept ; skos:prefLabel "{m}"@en ; skos:broader ex:{key} .'
                  for m in members]
    path = tmp_path / "places.ttl"
    path.write_text("\n".join(lines) + "\n")
    default = run("--source", path, "--out", tmp_path / "default", "--quiet")
    assert "hypernymy: left out (the parents of its 7 concepts with a parent are all roots" in default.stdout
    assert "--min-answer-depth 0 lets it be one" in default.stdout
    roots = run("--source", path, "--out", tmp_path / "roots", "--quiet", "--min-answer-depth", "0")
    assert roots.returncode == 0, roots.stderr
    answers = {json.loads(line)["notes"]["answer_id"] for split in ("train", "dev", "test")
               for line in (tmp_path / "roots" / "hypernymy" / f"{split}.jsonl").read_text().splitlines()}
    assert answers == {"ex:factory", "ex:market", "ex:church"}


def test_a_source_without_a_name_or_version_of_its_own_is_given_one(tmp_path):
    """A TSV pair has no name or version of its own ("products_tsv unknown" on the card):
    --source-name / --source-version set them in the manifest, the summary and every question's notes."""
    result = run("--source", ONTOLOGIES / "products_tsv", "--source-name", "Acme catalogue", "--source-version", "2026.11",
                 "--out", tmp_path / "out", "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("source: Acme catalogue 2026.11 (16 concepts, tsv)")
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert (manifest["sources"]["ontology"]["source"], manifest["sources"]["ontology"]["version"]) == (
        "Acme catalogue", "2026.11")
    notes = json.loads((tmp_path / "out" / "hypernymy" / "test.jsonl").read_text().splitlines()[0])["notes"]
    assert (notes["source"], notes["version"]) == ("Acme catalogue", "2026.11")
    plain = run("--source", ONTOLOGIES / "products_tsv", "--out", tmp_path / "plain", "--quiet")
    assert plain.stdout.startswith("source: products_tsv unknown (16 concepts, tsv)")


def test_lang_is_read_as_a_language_tag_and_a_directory_given_as_a_file_format_says_so(tmp_path):
    """``--lang fr_FR`` (a locale's way of writing it) is ``fr-FR``: the French files; an empty --lang is
    refused (was: taken for a language and reported as "a label in language ''"); ``--format skos`` on
    the TSV directory said "no such file" of a path that exists."""
    french = run("--source", ONTOLOGIES / "kitchen_skos.ttl", "--lang", "fr-FR", "--out", tmp_path / "fr", "--quiet")
    locale = run("--source", ONTOLOGIES / "kitchen_skos.ttl", "--lang", "fr_FR", "--out", tmp_path / "fr_", "--quiet")
    assert french.returncode == locale.returncode == 0, locale.stderr
    for probe in ("synonymy", "hypernymy", "hyponymy"):
        assert (tmp_path / "fr" / probe / "train.jsonl").read_bytes() == (
            tmp_path / "fr_" / probe / "train.jsonl").read_bytes(), probe
    assert "couteau" in (tmp_path / "fr_" / "hypernymy" / "train.jsonl").read_text(encoding="utf-8")
    empty = run("--source", ONTOLOGIES / "kitchen_skos.ttl", "--lang", "", "--out", tmp_path / "empty", "--quiet")
    assert empty.returncode == 2 and not (tmp_path / "empty").exists()
    assert empty.stderr.strip().endswith("error: argument --lang: an empty language tag (expected one such as en, "
                                         "de-AT, es)"), empty.stderr
    folder = run("--source", ONTOLOGIES / "products_tsv", "--format", "skos", "--out", tmp_path / "dir", "--quiet")
    assert folder.returncode == 2 and not (tmp_path / "dir").exists()
    assert folder.stderr == (f"error: {ONTOLOGIES / 'products_tsv'}: a directory (expected a SKOS file; a directory "
                             "of concepts.tsv and edges.tsv is read with --format tsv)\n"), folder.stderr

"""The GCIDE dictd parser on fixture articles copied verbatim from Debian's dict-gcide 0.48."""
import gzip
import shutil
from pathlib import Path

import pytest

from mcqa_probes.knowledge.gcide import (
    decode_b64_number, encode_b64_number, load_gcide, parse_article, read_index, strip_markup)

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "gcide"


@pytest.fixture(scope="module")
def gcide():
    return load_gcide(str(FIXTURE))


def by_id(dictionary):
    return {s.id: s for s in dictionary.senses}


def test_index_numbers_are_dictd_base64():
    assert decode_b64_number("kV") == 36 * 64 + 21 == 2325
    assert decode_b64_number("A") == 0
    for value in (0, 1, 63, 64, 4095, 15063640):
        assert decode_b64_number(encode_b64_number(value)) == value
    for headword, offset, length in read_index(FIXTURE / "gcide.index"):
        assert offset + length <= (FIXTURE / "gcide.dict").stat().st_size


def test_bad_index_line_names_file_and_line(tmp_path):
    (tmp_path / "gcide.index").write_text("Gift\tte\tkV\nbroken line\n")
    with pytest.raises(ValueError, match=r"gcide.index:2"):
        read_index(tmp_path / "gcide.index")


def test_version_and_counts(gcide):
    assert gcide.source == "gcide"
    assert gcide.version == "0.48"
    # 20 index rows → 18 distinct articles ("Old age", "Gift rope" share their main article);
    # the 00-database-* entries are not articles
    assert gcide.articles == 18
    assert gcide.skipped_articles == 0
    assert len(gcide) == 46
    assert sorted(gcide.words) == ["busy", "cabochon", "emptiness", "gift", "jumble", "mural",
                                   "offensive", "old", "resemble", "waggish", "wier"]


def test_gift_senses(gcide):
    senses = gcide.senses_of("Gift")
    assert [(s.id, s.pos_label, s.sense_number) for s in senses] == [
        ("gift.n.1", "n.", 1), ("gift.n.2", "n.", 2), ("gift.n.3", "n.", 3), ("gift.n.4", "n.", 4),
        ("gift.n.5", "n.", 5), ("gift.v.6", "v. t.", 1)]
    s = by_id(gcide)
    assert s["gift.n.4"].definition == ("Some exceptional inborn quality or characteristic; a striking or "
                                        "special talent or aptitude; power; faculty")
    assert s["gift.n.4"].usages == ("the gift of wit; a gift for speaking.",)
    assert s["gift.n.3"].definition == "A bribe; anything given to corrupt"
    assert s["gift.n.3"].usages == ()
    assert s["gift.n.3"].quotes == ("Neither take a gift, for a gift doth blind the eyes of the wise.",)
    assert s["gift.n.5"].domain == "Law"
    assert s["gift.n.5"].definition.startswith("A voluntary transfer of real or personal property")
    # "See {gift}[4]." is a pointer, not part of the definition
    assert s["gift.v.6"].definition == "To endow with some power or faculty"


def test_old_usages_quotes_labels(gcide):
    s = by_id(gcide)
    old = s["old.a.5"]
    assert (old.pos, old.sense_number) == ("a", 4)
    assert old.definition == ("Continued in life; advanced in the course of existence; "
                              "having (a certain) length of existence")   # "; -- designating ..." dropped
    assert old.usages == ("an infant a few hours old; a cathedral centuries old.",)
    assert old.quotes == ("And Pharaoh said unto Jacob, How old art thou?",)   # citation "--Gen. xlvii." dropped
    assert s["old.a.3"].quotes == ("An old acquaintance.",)                     # inline "..." --Camden.
    assert (s["old.n.1"].definition, s["old.n.1"].labels) == ("Open country", ("Obs.",))
    # a sense without examples is kept and marked
    assert s["old.a.10"].has_example is False
    assert s["old.a.10"].definition.startswith("Aged; antiquated")
    # the {phrase} sub-entries after sense 11 (Old age, Old maid (a) (b) ...) are not senses
    assert [x.sense_number for x in gcide.senses_of("old")] == [1] + list(range(1, 12))


def test_markup_stripped(gcide):
    for sense in gcide.senses:
        for text in (sense.definition,) + sense.examples:
            assert not any(ch in text for ch in "{}\\"), (sense.id, text)
            assert "[1913 Webster]" not in text and "--" not in text, (sense.id, text)
    s = by_id(gcide)
    assert s["cabochon.a.2"].definition == "Of, pertaining to, containing, or in the style of, a cabochon"
    assert s["busy.a.1"].quotes[0] == "Sir, my mistress sends you word That she is busy, and she can not come."
    # "; -- said of places and times" is a usage comment, not definition
    assert s["busy.a.3"].definition == "Crowded with business or activities"
    assert s["busy.a.3"].usages == ("a busy street.",)
    # run-on derivative "[1913 Webster] -- {Wag"gish*ly}, adv." is neither definition nor quote
    assert s["waggish.a.2"].definition == "Done, made, or laid in waggery or for sport; sportive; humorous"
    assert s["waggish.a.2"].quotes == ()
    assert s["wier.n.1"].is_cross_reference and not s["gift.n.1"].is_cross_reference
    assert strip_markup("d['e]partement {Depart} [ae]on") == "departement Depart aeon"


def test_sense_graph_is_table1(gcide):
    graph = gcide.graph
    assert (graph.source, graph.version, len(graph)) == ("gcide", "0.48", 46)
    triples = set(graph.triples())
    assert ("gift.n.4", "ex", "the gift of wit; a gift for speaking.") in triples
    assert ("gift.n.3", "def", "A bribe; anything given to corrupt") in triples
    assert ("gift.n.3", "lemma", "Gift") in triples
    assert {relation for _, relation, _ in triples} == {"def", "ex", "lemma"}   # GCIDE has no isa links
    assert dict(graph["old.a.5"].attributes)["sense_number"] == "4"


def test_unnumbered_article_and_odd_headers():
    article = ("Exanthematic \\Ex*an`the*mat\"ic\\, Exanthematous\n\\Ex`an*them\"a*tous\\, a.\n"
               "   Of, relating to, or characterized by, exanthema;\n   efflorescent; as, an exanthematous eruption.\n"
               "   [1913 Webster]\n")
    headwords, pos, units = parse_article(article)
    assert headwords == ["Exanthematic", "Exanthematous"] and pos == "a."
    assert len(units) == 1 and units[0][0] == 1
    assert parse_article("   2. (Min.) A rose-red mineral.\n") is None      # a fragment, not an article


def test_reads_dictzip(tmp_path):
    shutil.copy(FIXTURE / "gcide.index", tmp_path / "gcide.index")
    with gzip.open(tmp_path / "gcide.dict.dz", "wb") as out:
        out.write((FIXTURE / "gcide.dict").read_bytes())
    plain = load_gcide(str(FIXTURE))
    zipped = load_gcide(str(tmp_path))
    assert zipped.senses == plain.senses

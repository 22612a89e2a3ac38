"""Question templates for ontologies: relation names as verb phrases, stems with and without a context."""
import re

import pytest

from mcqa_probes.builders.ontology_templates import frame_words, ontology_template_ids, relation_phrase, render_ontology_stem


@pytest.mark.parametrize("name, phrase", [
    ("part_of", "is part of"), ("located_in", "is located in"), ("adjacent_to", "is adjacent to"),
    ("continuous_with", "is continuous with"), ("skos related", "is skos related"), ("status", "is status"),
    ("has_part", "has part"), ("contains", "contains"),
    # a name that starts with a verb (the Relation Ontology's and domain ontologies' own) stays as it is
    ("powers", "powers"), ("participates_in", "participates in"), ("develops_from", "develops from"),
    ("confers_resistance_to_drug_class", "confers resistance to drug class"), ("results_in", "results in"),
    ("positively_regulates", "positively regulates"), ("directly_precedes", "directly precedes"),
    ("crosses", "crosses"), ("employs", "employs"), ("was_part_of", "was part of"),
    ("existence_starts_during", "existence starts during"),
    # a name written as code reads as words
    ("isPartOf", "is part of"), ("hasTopping", "has topping"), ("locatedIn", "is located in"),
    ("derivesFrom", "derives from"),
])
def test_a_relation_name_reads_as_a_verb_phrase(name, phrase):
    assert relation_phrase(name) == phrase


def test_a_relation_stem_with_a_verb_named_relation_has_no_stray_is():
    stems = [render_ontology_stem("relation", template, word="engine", relation=relation_phrase("powers"))
             for template in ontology_template_ids("relation", with_context=False)]
    assert stems and all("is powers" not in stem and "'engine' powers" in stem for stem in stems)


def test_frame_words_keep_a_templates_content_words_only():
    words = frame_words("hyponymy", "dctx1+ohypo2")
    assert set(re.findall(r"[a-z]+", words.lower())) == {"taking", "mean", "choice", "names", "type"}
    assert set(re.findall(r"[a-z]+", frame_words("hyponymy", "none+ohypo2").lower())) == {"choice", "names", "type"}

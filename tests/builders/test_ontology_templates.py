"""Question templates for ontologies: relation names as verb phrases, stems with and without a context,
in English and in the other languages that have templates."""
import re

import pytest

from mcqa_probes.builders import templates as paper_templates
from mcqa_probes.builders.ontology_templates import (
    frame_words, ontology_template_ids, relation_phrase, relation_wording, render_example_stem, render_ontology_stem,
    template_language,
)


@pytest.mark.parametrize("name, phrase", [
    ("part_of", "is part of"), ("located_in", "is located in"), ("adjacent_to", "is adjacent to"),
    ("continuous_with", "is continuous with"), ("skos related", "is skos related"), ("status", "is status"),
    ("has_part", "has part"), ("contains", "contains"),
    # a name that starts with a verb (the Relation Ontology's and domain ontologies' own) stays as it is
    ("powers", "powers"), ("participates_in", "participates in"), ("develops_from", "develops from"),
    ("confers_resistance_to_drug_class", "confers resistance to drug class"), ("results_in", "results in"),
    ("positively_regulates", "positively regulates"), ("directly_precedes", "directly precedes"),
    ("crosses", "crosses"), ("employs", "employs"), ("was_part_of", "was part of"),
    # the verb second: said from the verb (was: "'heart disease' is disease has location ...")
    ("existence_starts_during", "starts during"), ("disease_has_location", "has location"),
    ("disease has feature", "has feature"), ("Disease arises from structure", "arises from structure"),
    ("bearer_of", "is bearer of"), ("capable of", "is capable of"),
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


# ------------------------------------------------------------------ other languages


def test_the_template_language_of_a_language_tag():
    assert template_language("fr") == template_language("fr-CA") == template_language("FR_ca") == "fr"
    assert template_language("nl-BE") == "nl" and template_language("de") == "de" and template_language("es") == "es"
    for english in (None, "en", "en-GB", "pt", "ja"):         # no templates of its own: English
        assert template_language(english) is None


def test_stems_in_other_languages():
    assert render_ontology_stem("hypernymy", "none+ohyper0", word="couteau", language="fr") == "'couteau' est une sorte de"
    assert (render_ontology_stem("hypernymy", "dctx0+ohyper0", word="couteau", definition="Un  outil.", language="fr-CA")
            == "Sachant que 'couteau' a pour définition 'Un outil.', 'couteau' est une sorte de")
    # German and Dutch: the context is a sentence of its own, the question starts the next
    assert (render_ontology_stem("hyponymy", "dctx1+ohypo0", word="Messer", definition="Ein Werkzeug.", language="de")
            == "'Messer' bedeutet 'Ein Werkzeug.'. Welcher dieser Begriffe ist eine Art von 'Messer'?")
    assert render_ontology_stem("definitions", "none+odef0", word="mes", language="nl") == "Wat betekent de term 'mes'?"
    # Spanish: the capital after the opening question mark, none inside the sentence
    assert render_ontology_stem("definitions", "none+odef0", word="cuchillo", language="es") == \
        "¿Qué significa el término 'cuchillo'?"
    assert render_ontology_stem("hyponymy", "dctx0+ohypo0", word="cuchillo", definition="Una herramienta.",
                                language="es") == \
        "Si 'cuchillo' se define como 'Una herramienta.', ¿cuál de estos es un tipo de 'cuchillo'?"
    assert render_ontology_stem("relation", "none+orel1", word="soupe", relation="associé", language="fr") == \
        "Quel terme est lié à 'soupe' par la relation 'associé' ?"
    # nothing agrees with the term: 'soupe' is feminine ('soupe' est lié[e] à: was written so)
    assert render_ontology_stem("relation", "none+orel0", word="soupe", relation="associé", language="fr") == \
        "Selon la relation 'associé', 'soupe' a pour terme associé"
    # the paper's frames around an example sentence: English as for WordNet, the others their own
    assert render_example_stem("hypernymy", "ctx1+hyper0", sentence="a  knife", word="knife", language="pt") == \
        paper_templates.render_stem("hypernymy", "ctx1+hyper0", sentence="a  knife", word="knife")
    assert render_example_stem("hypernymy", "ctx1+hyper0", sentence="Il  coupe avec un couteau.", word="couteau",
                               language="fr") == "Dans l’exemple 'Il coupe avec un couteau.', 'couteau' désigne une sorte de"
    assert render_example_stem("hyponymy", "ctx3+hypo1", sentence="Das Messer schneidet.", word="Messer",
                               language="de") == "Der Kontext ist 'Das Messer schneidet.'. Eine speziellere Art von 'Messer' ist"


def test_frame_words_in_another_language_drop_its_function_words():
    assert set(frame_words("hyponymy", "none+ohypo2", "fr").replace("|", " ").replace("'", " ").split()) == \
        {"choix", "nomme", "type", "?"}
    assert set(re.findall(r"[^\W\d_]+", frame_words("hypernymy", "ctx1+hyper0", "fr"))) == {"exemple", "désigne", "sorte"}


def test_a_relation_is_worded_in_the_language_asked():
    assert relation_wording("part_of") == relation_wording("part of", "pt") == "is part of"
    assert relation_wording("part_of", "fr") == relation_wording("Part  of", "fr-CA") == "partie de"
    assert relation_wording("related to", "de") == "verwandt mit" and relation_wording("has part", "nl") == "heeft deel"
    # a name the table does not know stays as the source gives it (no English verb phrase made of it)
    assert relation_wording("hasTopping", "es") == "hasTopping" and relation_wording("a pour garniture", "fr") == \
        "a pour garniture"


def test_no_french_or_spanish_frame_puts_a_participle_or_adjective_after_the_term():
    """Such a word agrees with the term's gender, which the frames cannot know ('autorisation' est
    lié à; 'sopa' está vinculado con): the frames say "a pour", "tiene como", "est une sorte de"."""
    import re

    from mcqa_probes.builders.template_languages import FRENCH, SPANISH

    agreeing = {"fr": re.compile(r"'\{w\}' (?:est|sont) (?!une?\b|le\b|la\b)\w+"),
                "es": re.compile(r"'\{w\}' (?:está|es|son) (?!una?\b|el\b|la\b)\w+")}
    for code, frames in (("fr", FRENCH), ("es", SPANISH)):
        tables = [frames.context, frames.example_context, *frames.question.values(), *frames.example_question.values()]
        texts = [text for table in tables for text in table.values()]
        assert texts and not [text for text in texts if agreeing[code].search(text)], code


def test_a_relation_named_in_a_language_without_templates_is_quoted_in_the_english_ones(tmp_path):
    """``rdfs:label "tem como ingrediente"@pt`` under --lang pt (English templates): the stem read "'tiramisu'
    is tem como ingrediente which of these?"; the name is quoted, an English name still conjugated."""
    from mcqa_probes.builders.ontology_templates import relation_wording
    from mcqa_probes.knowledge.ontology import Vocabulary
    from mcqa_probes.knowledge.source import load_source

    assert relation_wording("tem como ingrediente", "pt", "pt") == "is related by 'tem como ingrediente' to"
    assert relation_wording("part of", "pt") == "is part of"
    path = tmp_path / "food.ttl"
    path.write_text("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    "@prefix f: <http://example.org/f#> .\n"
                    'f:hasIngredient a owl:ObjectProperty ; rdfs:label "has ingredient"@en, "tem como ingrediente"@pt .\n'
                    'f:Egg a owl:Class ; rdfs:label "egg"@en, "ovo"@pt .\n'
                    'f:Omelette a owl:Class ; rdfs:label "omelette"@en, "omelete"@pt ; rdfs:subClassOf [ a owl:Restriction ;\n'
                    "    owl:onProperty f:hasIngredient ; owl:someValuesFrom f:Egg ] .\n")
    portuguese = load_source(path, relations=["f:hasIngredient"], vocabulary=Vocabulary(lang="pt")).relation_info
    english = load_source(path, relations=["f:hasIngredient"]).relation_info
    assert portuguese["f:hasIngredient"]["name_language"] == "pt"
    assert "name_language" not in english["f:hasIngredient"]

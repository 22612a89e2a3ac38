"""The French, German, Spanish and Dutch templates: every English template id, with its placeholders."""
import re

import pytest

from mcqa_probes.builders import templates as paper_templates
from mcqa_probes.builders.ontology_templates import DEFINITION_CONTEXT_FRAMES, QUESTION_FRAMES, frame_words, ontology_template_ids
from mcqa_probes.builders.template_languages import LANGUAGE_FRAMES


def placeholders(text):
    return set(re.findall(r"\{(\w)\}", text))


@pytest.mark.parametrize("language", sorted(LANGUAGE_FRAMES))
def test_every_language_has_every_english_template_with_its_placeholders(language):
    frames = LANGUAGE_FRAMES[language]
    pairs = [(DEFINITION_CONTEXT_FRAMES, frames.context), (paper_templates.CONTEXT_FRAMES, frames.example_context)]
    pairs += [(QUESTION_FRAMES[kind], frames.question.get(kind, {})) for kind in QUESTION_FRAMES]
    pairs += [(paper_templates.QUESTION_FRAMES[kind], frames.example_question.get(kind, {}))
              for kind in paper_templates.QUESTION_FRAMES]
    for english, translated in pairs:
        assert sorted(translated) == sorted(english)
        for key, text in english.items():
            assert placeholders(translated[key]) == placeholders(text), (language, key)
    # the function words are no frame's only words: every frame keeps a content word
    for kind in QUESTION_FRAMES:
        for template_id in ontology_template_ids(kind, True) + ontology_template_ids(kind, False):
            assert re.search(r"[^\W\d_]", frame_words(kind, template_id, language)), (language, template_id)


def test_every_language_words_the_relations_the_loader_names():
    from mcqa_probes.builders.template_languages import RELATION_NAMES
    from mcqa_probes.knowledge.rdf import SKOS_RELATIONS
    from mcqa_probes.knowledge.source import KNOWN_RELATION_NAMES

    known = set(KNOWN_RELATION_NAMES.values()) | {info["name"] for info in SKOS_RELATIONS.values()}
    assert sorted(RELATION_NAMES) == sorted(LANGUAGE_FRAMES)
    for language, names in RELATION_NAMES.items():
        assert set(names) == known, language
        assert len(set(names.values())) == len(names), language       # no two relations worded alike

from mcqa_probes.builders import templates
from mcqa_probes.knowledge.graph import Concept


def concept(lemmas, pos="n", definition="d", examples=()):
    return Concept(id=f"{lemmas[0]}.{pos}.01", pos=pos, lemmas=tuple(lemmas), definition=definition, examples=tuple(examples))


def test_surface_forms_regular_irregular_and_multiword():
    assert templates.find_surface_form(concept(["dog"]), "the Dogs barked") == "Dogs"
    assert templates.find_surface_form(concept(["grimace"], "v"), "He grimaced at me") == "grimaced"
    assert templates.find_surface_form(concept(["empty"], "v"), "The room emptied") == "emptied"
    assert templates.find_surface_form(concept(["stop"], "v"), "she stopped") == "stopped"
    assert templates.find_surface_form(concept(["run"], "v"), "they ran home", {"v:run": ("ran",)}) == "ran"
    assert templates.find_surface_form(concept(["run"], "v"), "they ran home") is None
    assert templates.find_surface_form(concept(["poet_laureate"]), "he is the poet laureate of Arkansas") == "poet laureate"
    assert templates.find_surface_form(concept(["one-third"]), "one-third of the cake") == "one-third"
    # whole words only
    assert templates.find_surface_form(concept(["cat"]), "a catalogue of wares") is None
    # the first lemma that occurs wins, in lemma order
    assert templates.find_surface_form(concept(["nymph", "houri"]), "a houri of paradise") == "houri"


def test_choice_renderings_follow_the_released_style():
    report = concept(["report", "account", "study", "paper"], definition="the act of  informing")
    assert templates.isa_choice(report) == "report (or account, study), defined as 'the act of informing'"
    dig = concept(["dig", "dig_out"], pos="v", definition="create by digging")
    assert templates.isa_choice(dig) == "dig (or dig out) event, defined as 'create by digging'"
    victorian = concept(["victorian", "Victorian"], definition="a person")
    assert templates.isa_choice(victorian) == "victorian, defined as 'a person'"
    assert templates.synonymy_choice(concept(["nymph", "houri"])) == "nymph, houri"
    assert templates.definition_choice(concept(["x"], definition=" a  gloss ")) == "a gloss"


def test_templates_are_context_times_question_frames():
    ids = templates.template_ids("hypernymy")
    assert len(ids) == len(templates.CONTEXT_FRAMES) * len(templates.QUESTION_FRAMES["hypernymy"])
    assert len(set(ids)) == len(ids)
    stem = templates.render_stem("definitions", "ctx1+def0", sentence="the dogs  barked", word="dogs")
    assert stem == "In the example 'the dogs barked', the word 'dogs' most nearly means"
    assert templates.render_stem("synonymy", "syn4", definition="a  young dog") == "Which words carry the sense 'a young dog'?"
    for probe in ("definitions", "hypernymy", "hyponymy", "synonymy"):
        for template_id in templates.template_ids(probe):
            stem = templates.render_stem(probe, template_id, sentence="S", word="W", definition="D")
            assert ("'S'" in stem and "'W'" in stem) if probe != "synonymy" else "'D'" in stem

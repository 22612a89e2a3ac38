"""The probes of an ontology: exactly one correct answer over the closures (checked here with a
closure of the test's own), no shared names, leakage masked or dropped, notes with the source's ids."""
import json
import random
import re
from collections import deque

import pytest

from mcqa_probes.builders.ontology_qa import OntologyQABuilder, _rank
from mcqa_probes.builders.ontology_templates import NO_CONTEXT
from mcqa_probes.data.question import question_from_json
from mcqa_probes.knowledge.source import load_source
from tests.builders.conftest import write_taxonomy
from tests.conftest import FIXTURES, load_fixture_script

ONTOLOGIES = FIXTURES / "ontologies"



def resolved(graph, given: str) -> str:
    """The source's id of the relation that ``--relations given`` asks for (``part_of``: ``t:part_of``)."""
    return graph.provenance["relations"][graph.provenance["relation_spellings"][given]]

def closure(start, step):
    """Everything reachable from ``start`` in one or more steps (the test's own breadth-first search)."""
    seen, queue = set(), deque(step(start))
    while queue:
        node = queue.popleft()
        if node not in seen:
            seen.add(node)
            queue.extend(step(node))
    return seen


def build(graph, probe, relation=None, **settings):
    builder = OntologyQABuilder(graph, settings, relation=relation, probe_name=probe if relation else None)
    return builder, builder.build(probe, random.Random(f"7:{probe}"))


def tsv_taxonomy(folder, rows, edges, **load):
    """A TSV pair in ``folder``: ``rows`` (id, label, synonyms, definition), ``edges`` (child, parent) of
    is_a or (child, relation, parent); read with ``load``'s options."""
    return load_source(write_taxonomy(folder, rows, edges), **load)


@pytest.fixture(scope="module")
def clinics():
    return load_source(ONTOLOGIES / "clinics_rdfs.ttl")


@pytest.fixture(scope="module")
def vehicles():
    return load_source(ONTOLOGIES / "vehicles.obo", relations=["part_of"])


def choice_ids(question):
    return question.notes["choice_ids"]


@pytest.mark.parametrize("source", ["clinics", "vehicles"])
def test_hypernymy_and_hyponymy_have_exactly_one_correct_answer_over_every_parent(source, request):
    graph = request.getfixturevalue(source)
    ancestors = {c: closure(c, graph.hypernyms) for c in graph.concepts}
    for probe in ("hypernymy", "hyponymy"):
        _, questions = build(graph, probe)
        assert questions
        for question in questions:
            concept, ids = question.concept, choice_ids(question)
            if probe == "hypernymy":
                correct = [c for c in ids if c in ancestors[concept]]
            else:
                correct = [c for c in ids if concept in ancestors[c]]
            assert correct == [question.notes["answer_id"]], question.id
            assert ids[question.answer_index] == question.notes["answer_id"]
            assert question.notes["hops"] == len(question.notes["chain"].split("=>" if probe == "hypernymy" else "<=")) - 1


def test_the_hospital_of_three_parents_never_gets_another_ancestor_as_a_distractor(clinics):
    _, questions = build(clinics, "hypernymy")
    hospital = [q for q in questions if q.concept == "schema:Hospital"]
    assert {q.notes["answer_id"] for q in hospital} >= {"schema:CivicStructure", "schema:MedicalOrganization"}
    forbidden = {"schema:CivicStructure", "schema:EmergencyService", "schema:MedicalOrganization",
                 "schema:LocalBusiness", "schema:Place", "schema:Organization", "schema:Thing"}
    for question in hospital:
        assert set(question.notes["distractor_ids"]).isdisjoint(forbidden)


def test_the_relation_probe_never_offers_an_entailed_answer(vehicles):
    graph = vehicles
    parents = lambda c: graph.hypernyms(c)  # noqa: E731

    def entailed(concept):
        """c part_of y holds for y reached by part_of steps from c or an ancestor of c, and every
        ancestor of such a y (the relation is transitive)."""
        found = set()
        frontier = [concept, *closure(concept, parents)]
        while frontier:
            node = frontier.pop()
            for whole in graph.related(node, "part_of"):
                for reached in (whole, *closure(whole, parents)):
                    if reached not in found:
                        found.add(reached)
                        frontier.append(reached)
        return found

    _, questions = build(graph, "part_of", relation="part_of")
    assert questions
    for question in questions:
        correct = [c for c in choice_ids(question) if c in entailed(question.concept)]
        assert correct == [question.notes["answer_id"]], question.id
        assert question.notes["relation"] == "part_of" and question.notes["distractor_type"] in ("random", "sister",
                                                                                               "inverse")
    # the tire is part of a wheel, hence of a land vehicle (2 hops), hence of no car
    tire = {q.notes["answer_id"]: q.notes["hops"] for q in questions if q.concept == "VO:0000025"}
    assert tire.get("VO:0000014", 1) == 1 and set(tire) <= {"VO:0000014", "VO:0000002"}
    assert "part of" in questions[0].stem or "is part of" in questions[0].stem


def test_the_relation_probe_never_offers_a_kind_of_a_right_answer(vehicles):
    """*wheel* part_of *land vehicle*: a car or a bicycle, kinds of land vehicle, have wheels too, so
    neither is a wrong answer to what a wheel is part of (OWL entails it of no kind, a reader takes
    it so): no distractor is a descendant of a whole reached by the relation's own steps."""
    graph = vehicles
    children = {}
    for concept in graph.concepts:
        for parent in graph.hypernyms(concept):
            children.setdefault(parent, []).append(concept)

    def wholes(concept):
        start = [concept, *closure(concept, graph.hypernyms)]
        return set().union(*(closure(node, lambda c: graph.related(c, "part_of")) for node in start))

    _, questions = build(graph, "part_of", relation="part_of")
    offered_before = 0
    for question in questions:
        kinds = set().union(*(closure(whole, lambda c: children.get(c, ())) for whole in wholes(question.concept)))
        assert not kinds & set(question.notes["distractor_ids"]), (question.id, kinds & set(question.notes["distractor_ids"]))
        offered_before += bool(kinds)
    assert offered_before       # the fixture has wholes with kinds under them


def test_a_whole_reached_through_a_kind_s_inherited_link_has_no_kind_among_the_distractors(tmp_path):
    """*claw* part_of *tarsus*, a kind of *leg segment*, which is part_of *leg*, part_of *thoracic
    segment*: the claw is part of a leg and of a thoracic segment, so no kind of either (the
    metathorax) is a wrong answer to what a claw is part of; a kind of *leg segment* (the femur) still
    is one (is-a steps on the whole's side are not taken)."""
    kinds = {"thorax": ["prothorax", "mesothorax", "metathorax"], "legseg": ["tarsus", "femur", "tibia"]}
    rows = [("as", "anatomical structure", "", ""), ("thorax", "thoracic segment", "", ""),
            ("leg", "leg", "", ""), ("legseg", "leg segment", "", ""), ("claw", "tarsal claw", "", "")]
    rows += [(kind, kind, "", "") for members in kinds.values() for kind in members]
    fillers = ["head", "eye", "wing", "antenna", "mouthpart", "abdomen", "cercus", "spiracle", "gut", "brain"]
    rows += [(name, name, "", "") for name in fillers]
    edges = [(row[0], "as") for row in rows if row[0] not in ("as", *[k for m in kinds.values() for k in m])]
    edges += [(kind, parent) for parent, members in kinds.items() for kind in members]
    edges += [("claw", "part_of", "tarsus"), ("legseg", "part_of", "leg"), ("leg", "part_of", "thorax"),
              ("eye", "part_of", "head"), ("antenna", "part_of", "head"), ("mouthpart", "part_of", "head"),
              ("spiracle", "part_of", "abdomen"), ("cercus", "part_of", "abdomen"), ("wing", "part_of", "thorax")]
    graph = tsv_taxonomy(tmp_path / "insect", rows, edges, relations=["part_of"])
    relation = resolved(graph, "part_of")
    parents = {c: set(graph.hypernyms(c)) for c in graph.concepts}

    def ancestors(concept):
        return closure(concept, lambda c: parents.get(c, ()))

    def wholes(concept):
        """The test's own walk: part_of links from the concept and its ancestors, and from every whole
        reached and its ancestors, the ancestors of a whole not taken in."""
        found, frontier = set(), [concept, *ancestors(concept)]
        while frontier:
            node = frontier.pop()
            for linked in (node, *ancestors(node)):
                for whole in graph.related(linked, relation):
                    if whole not in found:
                        found.add(whole)
                        frontier.append(whole)
        return found

    assert wholes("claw") == {"tarsus", "leg", "thorax"}
    offered = set()
    for seed in range(12):
        builder = OntologyQABuilder(graph, {}, relation=relation, probe_name="part_of")
        for question in builder.build("part_of", random.Random(seed)):
            reached = wholes(question.concept)
            for distractor in question.notes["distractor_ids"]:
                assert not ancestors(distractor) & reached, (question.id, distractor)
            if question.concept == "claw":
                offered.update(question.notes["distractor_ids"])
    assert offered and offered.isdisjoint(kinds["thorax"]) and offered & {"femur", "tibia"}


def test_a_defined_ancestor_s_restriction_leaves_the_kinds_of_its_filler_wrong_answers(tmp_path):
    """GO's way: *regulation of immune system process* is defined as a regulation that regulates some
    *immune system process*, and *regulation of T cell antigen processing* falls under it because
    what it regulates is one. Its kinds (*B cell mediated immunity*) are wrong answers to what the
    T cell regulation regulates (were kept out: the defined ancestors' fillers, up to *biological
    process*, made every process no wrong answer, and GO's regulates probe near empty); the filler
    itself and what is above it are correct answers, never offered."""
    processes = {"P:0": ("biological process", None), "P:1": ("immune system process", "P:0"),
                 "P:2": ("T cell antigen processing", "P:1"), "P:3": ("B cell mediated immunity", "P:1"),
                 "P:4": ("natural killer cell mediated immunity", "P:1"), "P:5": ("mitotic division", "P:0"),
                 "P:6": ("RNA splicing", "P:0"), "P:7": ("membrane transport", "P:0"), "P:8": ("lipid transport", "P:7"),
                 "P:9": ("cell signaling", "P:0"), "P:10": ("wound healing", "P:0"), "P:11": ("seed germination", "P:0"),
                 "P:12": ("autophagy", "P:0"), "P:13": ("DNA repair", "P:0")}
    stanzas = ["format-version: 1.4\nontology: regtest\n",
               "[Typedef]\nid: regulates\nname: regulates\nis_transitive: true\n"]
    for pid, (name, parent) in processes.items():
        stanzas.append(f"[Term]\nid: {pid}\nname: {name}\n" + (f"is_a: {parent}\n" if parent else ""))
    stanzas.append("[Term]\nid: R:0\nname: biological regulation\nis_a: P:0\n")

    def regulation(rid, target, parent):
        # as GO's releases write it: the definition, and the link the reasoner states from it
        name = processes[target][0]
        return (f"[Term]\nid: {rid}\nname: regulation of {name}\nis_a: {parent}\nintersection_of: R:0\n"
                f"intersection_of: regulates {target}\nrelationship: regulates {target}\n")
    stanzas.append(regulation("R:1", "P:0", "R:0"))
    stanzas.append(regulation("R:2", "P:1", "R:1"))
    stanzas.append(regulation("R:7", "P:7", "R:1"))
    for number, target in enumerate(["P:2", "P:3", "P:4"], 3):
        stanzas.append(regulation(f"R:{number}", target, "R:2"))
    stanzas.append(regulation("R:8", "P:8", "R:7"))
    for number, target in enumerate(["P:5", "P:6", "P:9", "P:10", "P:11", "P:12", "P:13"], 9):
        stanzas.append(regulation(f"R:{number}", target, "R:1"))
    path = tmp_path / "regulation.obo"
    path.write_text("\n".join(stanzas))
    graph = load_source(path, relations=["regulates"])
    relation = resolved(graph, "regulates")
    assert graph.definition_fillers["R:2"] == {"P:1"}
    parents = {c: set(graph.hypernyms(c)) for c in graph.concepts}

    def ancestors(concept):
        return closure(concept, lambda c: parents.get(c, ()))

    offered = set()
    for seed in range(12):
        builder = OntologyQABuilder(graph, {}, relation=relation, probe_name="regulates")
        for question in builder.build("regulates", random.Random(seed)):
            answer = question.notes["answer_id"]
            # the test's own closure: what the concept and its ancestors regulate, and what is above it
            correct = set()
            for node in (question.concept, *ancestors(question.concept)):
                for target in graph.related(node, relation):
                    correct |= {target, *ancestors(target)}
            assert answer in correct and not correct & set(question.notes["distractor_ids"]), question.id
            if question.concept == "R:3":
                offered.update(question.notes["distractor_ids"])
    assert offered & {"P:3", "P:4"}, offered        # kinds of immune system process, wrong answers


def test_a_symmetric_relation_reaches_no_further_through_a_broader_concept_s_links(tmp_path):
    """*knitting needle* related *knitting*, a kind of *craft*, which is related to *craft fair*: for
    a relation that does not chain, the broader concept's links are not followed (a thesaurus's
    related would reach near every concept), so *craft fair*'s kinds stay distractors."""
    rows = [(c, c.replace("_", " "), "", "") for c in ("thing", "craft", "knitting", "knitting_needle", "craft_fair",
                                                       "spring_fair", "tool")]
    edges = [("craft", "thing"), ("knitting", "craft"), ("tool", "thing"), ("knitting_needle", "tool"),
             ("craft_fair", "thing"), ("spring_fair", "craft_fair"),
             ("knitting_needle", "related", "knitting"), ("craft", "related", "craft_fair")]
    graph = tsv_taxonomy(tmp_path / "crafts", rows, edges, relations=["related"])
    builder = OntologyQABuilder(graph, {}, relation=resolved(graph, "related"), probe_name="related")
    assert "knitting" in builder.objects_reached("knitting_needle")
    assert "craft_fair" not in builder.objects_reached("knitting_needle")


def test_a_relation_not_declared_transitive_asks_one_hop_and_offers_nothing_in_its_closure(tmp_path):
    """``c0 adjacent_to c1 adjacent_to c2 ...``: the answer is the next concept, and no concept further
    along the chain is a distractor (a reader who takes the closure would find two correct answers)."""
    folder = tmp_path / "rooms"
    folder.mkdir()
    rows = ["id\tlabel\tsynonyms\tdefinition"] + [f"R:{i}\troom {i}\t\tRoom number {i} of the house." for i in range(30)]
    (folder / "concepts.tsv").write_text("\n".join(rows) + "\n")
    edges = ["child\trelation\tparent"] + [f"R:{i}\tadjacent_to\tR:{i + 1}" for i in range(24)]
    edges += [f"R:{i}\tis_a\tR:29" for i in range(29)]
    (folder / "edges.tsv").write_text("\n".join(edges) + "\n")
    graph = load_source(folder, relations=["adjacent_to"])
    assert graph.relation_info["adjacent_to"]["transitive"] is False
    _, questions = build(graph, "adjacent_to", relation="adjacent_to")
    assert questions
    for question in questions:
        number = int(question.concept.split(":")[1])
        assert question.notes["answer_id"] == f"R:{number + 1}" and question.notes["hops"] == 1
        further = {f"R:{i}" for i in range(number + 2, 25)}
        assert further.isdisjoint(question.notes["distractor_ids"]), question.id
    assert any(int(d.split(":")[1]) < int(q.concept.split(":")[1]) for q in questions for d in q.notes["distractor_ids"])


def test_no_distractor_definition_names_the_asked_term(vehicles):
    """The right definition has the term's own names masked; a wrong one that names the term ("A land
    vehicle with four wheels" for *land vehicle*) would give the answer away, so it is never offered."""
    import re

    def names_term(text, concept):
        return any(re.search(r"(?<!\w)" + re.escape(name.replace("_", " ")) + r"(?:e?s)?(?!\w)", text, re.I)
                   for name in vehicles[concept].lemmas)

    _, questions = build(vehicles, "definitions")
    land_vehicle = [q for q in questions if q.concept == "VO:0000002"]
    assert land_vehicle and any(names_term(vehicles["VO:0000005"].definition, "VO:0000002") for _ in [0])
    for question in questions:
        for index, text in enumerate(question.choices):
            if index != question.answer_index:
                assert not names_term(text, question.concept), (question.id, text)


def test_every_concept_asked_in_hypernymy_has_a_question_with_or_without_a_cap(clinics):
    """A concept whose only parent is the root (too general to be an answer) is not asked, nor given
    one of the max_concepts places."""
    for cap in (0, 5):
        builder, questions = build(clinics, "hypernymy", max_concepts=cap)
        asked = {q.concept for q in questions}
        assert builder.summary["concepts"] == len(asked) and (not cap or len(asked) == cap)
        if not cap:
            assert builder.summary["askable"] == len(asked)


@pytest.mark.parametrize("probe", ["definitions", "synonymy", "hypernymy", "hyponymy"])
def test_no_distractor_shares_a_name_with_the_concept_or_the_answer(vehicles, probe):
    def names(concept_id):
        return {" ".join(n.replace("_", " ").lower().split()) for n in vehicles[concept_id].lemmas}

    _, questions = build(vehicles, probe)
    assert questions
    for question in questions:
        blocked = names(question.concept) | names(question.notes["answer_id"])
        for other in question.notes["distractor_ids"]:
            assert not names(other) & blocked, (question.id, other)
        assert len({c.lower() for c in question.choices}) == len(question.choices)


@pytest.mark.parametrize("synonym, namesake", [("sail", "VO:0000016"), ("Vehicle-Component", "VO:0000013"),
                                               ("vehicle components", "VO:0000013")])
@pytest.mark.parametrize("probe, step", [("hypernymy", "hypernyms"), ("hyponymy", "hyponyms")])
def test_no_distractor_is_named_like_another_correct_answer(tmp_path, probe, step, synonym, namesake):
    """watercraft is also called "sail" here, the name of a vehicle component: "sail" offered as a
    wrong answer for what a sailboat is (or for a kind of watercraft) would be a second right one.
    So is "vehicle_component" when watercraft is also called "Vehicle-Component" or "vehicle components":
    one name respelled."""
    text = (ONTOLOGIES / "vehicles.obo").read_text()
    source = tmp_path / "namesakes.obo"
    source.write_text(text.replace('synonym: "vessel" EXACT []', f'synonym: "vessel" EXACT []\nsynonym: "{synonym}" EXACT []'))
    graph = load_source(source)
    assert synonym in graph["VO:0000003"].lemmas and graph[namesake].lemmas[0] in ("sail", "vehicle_component")

    def names(concept_id):
        # the test's own spelling rule: case, spaces, "_" and "-" do not make another name, nor a final "s"
        keys = {re.sub(r"[\s_-]+", "", n.lower()) for n in graph[concept_id].lemmas}
        return keys | {key[:-1] for key in keys if key.endswith("s") and len(key) >= 5}

    at_risk = 0
    for seed in range(6):
        builder = OntologyQABuilder(graph, {})
        for question in builder.build(probe, random.Random(f"{seed}:{probe}")):
            correct = closure(question.concept, lambda c: list(getattr(graph, step)(c)))
            correct_names = set().union(*(names(c) for c in correct))
            at_risk += "VO:0000003" in correct
            for other in question.notes["distractor_ids"]:
                assert not names(other) & correct_names, (question.id, other)
    assert at_risk


def test_a_definition_naming_the_answer_is_masked_and_counted_or_the_question_dropped(vehicles):
    builder, questions = build(vehicles, "hypernymy")
    car = [q for q in questions if q.concept == "VO:0000005" and q.notes["answer_id"] == "VO:0000002"]
    assert car and builder.summary["leakage_masked"] >= len(car)
    for question in car:
        if question.notes["template"].startswith("none+"):
            continue
        assert "land vehicle" not in question.stem.lower() and "A(n) ___ with four wheels" in question.stem
        assert question.notes["leakage"] == "masked"
    dropping, kept = build(vehicles, "hypernymy", leakage="drop")
    assert dropping.summary["leakage_dropped"] == builder.summary["leakage_masked"]
    assert not [q for q in kept if "___" in q.stem]
    assert len(kept) < len(questions)


def test_definitions_mask_a_concepts_own_name_and_a_definition_that_only_repeats_it_is_not_asked(clinics):
    builder, questions = build(clinics, "definitions")
    assert "schema:Hospital" not in {q.concept for q in questions}                       # "A hospital."
    assert "schema:Pharmacy" not in {q.concept for q in questions}     # "A ___ or drugstore.": one word left
    dentist = next(q for q in questions if q.concept == "schema:Dentist")
    assert dentist.choices[dentist.answer_index] == "A(n) ___'s office where teeth are treated."
    assert builder.summary["definition_names_its_concept"] >= 1
    for question in questions:
        assert "A ___." not in question.choices and "A(n) ___." not in question.choices
    # the two are counted, with or without a cap on the concepts asked
    with_definition = [c for c in clinics.ids(["n"]) if clinics[c].definition]
    # "could be asked": every concept with a definition, with or without a cap; the unusable ones apart
    assert builder.summary["askable"] == len(with_definition)
    assert builder.summary["unusable_definition"] == 2 == len(with_definition) - builder.summary["concepts"]
    # with a cap, only the definitions tested (in the cap's hash order, until the cap is reached) are
    # counted: the unusable ones ranked before the cap-th usable one
    unusable = {"schema:Hospital", "schema:Pharmacy"}
    ranked = sorted(with_definition, key=lambda c: _rank("definitions", c))
    for cap in range(1, len(with_definition)):
        usable_seen, expected = 0, 0
        for concept_id in ranked:
            if concept_id in unusable:
                expected += 1
            else:
                usable_seen += 1
                if usable_seen == cap:
                    break
        capped, capped_questions = build(clinics, "definitions", max_concepts=cap)
        assert capped.summary.get("unusable_definition", 0) == expected, cap
        assert capped.summary["askable"] == len(with_definition), cap
        assert len({q.concept for q in capped_questions}) <= cap


def test_synonymy_asks_for_another_name(vehicles):
    _, questions = build(vehicles, "synonymy")
    car = [q for q in questions if q.concept == "VO:0000005"]
    assert {q.choices[q.answer_index] for q in car} == {"automobile", "motorcar"}
    assert all("'car'" in q.stem for q in car)


def test_notes_carry_the_source_ids_and_questions_read_as_mcqa(vehicles):
    _, questions = build(vehicles, "hyponymy")
    question = questions[0]
    notes = question.notes
    assert {"concept_id", "answer_id", "distractor_ids", "choice_ids", "hops", "chain", "distractor_type",
            "template", "cluster_key", "source", "version"} <= set(notes)
    assert notes["source"] == "vo" and notes["version"] == "2026-11-01"
    assert notes["cluster_key"] == f"hyponymy:{question.concept}"
    assert len(notes["distractor_ids"]) == 4 and notes["answer_id"] not in notes["distractor_ids"]
    parsed = question_from_json(json.loads(json.dumps(question.to_json())))
    assert parsed.choices[parsed.answer_index].text == question.choices[question.answer_index]


def test_max_concepts_takes_the_same_concepts_whatever_else_is_built(vehicles):
    _, few = build(vehicles, "definitions", max_concepts=5)
    assert len({q.concept for q in few}) == 5
    _, again = build(vehicles, "definitions", max_concepts=5)
    assert [q.to_json() for q in few] == [q.to_json() for q in again]


def test_a_concept_with_an_example_sentence_is_asked_in_the_papers_context_frames():
    graph = load_source(ONTOLOGIES / "kitchen_skos.ttl")
    assert graph["k:knife"].examples == ("She cut the bread with a sharp knife.",)
    _, questions = build(graph, "hypernymy")
    knife = [q for q in questions if q.concept == "k:knife"]
    others = [q for q in questions if q.concept not in ("k:knife", "k:soup")]
    assert knife and others
    for question in knife:                     # the paper's frames quote the example sentence
        assert question.notes["template"].startswith("ctx")
        assert "She cut the bread with a sharp knife." in question.stem and "'knife'" in question.stem
        assert question.notes["context"] == "She cut the bread with a sharp knife."
    for question in others:                    # no example: the definition frames
        assert not question.notes["template"].startswith("ctx")


def kitchen_with(tmp_path, **replacements):
    """kitchen_skos.ttl with some of its text replaced, read as the build reads it."""
    text = (ONTOLOGIES / "kitchen_skos.ttl").read_text()
    for old, new in replacements.values():
        assert old in text
        text = text.replace(old, new)
    source = tmp_path / "kitchen.ttl"
    source.write_text(text)
    return load_source(source)


KNIFE_EXAMPLE = "She cut the bread with a sharp knife."


@pytest.mark.parametrize("leakage", ["mask", "drop"])
def test_an_example_sentence_naming_the_answer_is_masked_or_the_question_dropped(tmp_path, leakage):
    """The paper's frames quote the example sentence: where it names the hypernym asked for ("A knife
    is the cutting tool ..."), or the hyponym, it gets a definition's treatment."""
    sentence = "A knife is the cutting tool she used when the chef's knife was dull."
    graph = kitchen_with(tmp_path, example=(KNIFE_EXAMPLE, sentence))
    plain = kitchen_with(tmp_path / "..", example=(KNIFE_EXAMPLE, KNIFE_EXAMPLE))
    for probe, answer_id, answer in (("hypernymy", "k:cutting_tool", "cutting tool"),
                                     ("hyponymy", "k:chef_knife", "chef's knife")):
        builder, questions = build(graph, probe, leakage=leakage)
        _, before = build(plain, probe, leakage=leakage)
        asked = [q for q in questions if q.concept == "k:knife" and q.notes["answer_id"] == answer_id]
        control = [q for q in before if q.concept == "k:knife" and q.notes["answer_id"] == answer_id]
        assert control and all(q.notes["template"].startswith("ctx") for q in control)
        # counted once per stem (the question of each distractor family shares it)
        if leakage == "drop":
            assert not asked and builder.summary["example_leakage_dropped"] == len({q.stem for q in control})
            continue
        assert len(asked) == len(control) and builder.summary["example_leakage_masked"] == len({q.stem for q in asked})
        for question in asked:
            assert question.notes["template"].startswith("ctx") and "'knife'" in question.stem
            assert answer not in question.stem and question.notes["context"] in question.stem
            assert question.notes["context"] == sentence.replace(answer, "___")
            assert question.notes["leakage"] == "masked"
        # the other answers' questions quote the sentence as it is
        others = [q for q in questions if q.concept == "k:knife" and q.notes["answer_id"] != answer_id]
        assert all(sentence in q.stem for q in others)


def test_an_example_sentence_whose_term_is_inside_the_answer_gives_way_to_the_definition(tmp_path):
    """Masking *bread knife* in "She cut the loaf with a bread knife." leaves no *knife* to ask about:
    the question is asked in the definition frames instead, and counted."""
    graph = kitchen_with(tmp_path, example=(KNIFE_EXAMPLE, "She cut the loaf with a bread knife."))
    builder, questions = build(graph, "hyponymy")
    bread = [q for q in questions if q.concept == "k:knife" and q.notes["answer_id"] == "k:bread_knife"]
    chef = [q for q in questions if q.concept == "k:knife" and q.notes["answer_id"] == "k:chef_knife"]
    assert bread and chef and builder.summary["example_leakage_reframed"] == len({q.stem for q in bread})
    for question in bread:
        assert not question.notes["template"].startswith("ctx") and "loaf" not in question.stem
        assert "bread knife" not in question.stem
    assert all(q.notes["template"].startswith("ctx") and "loaf" in q.stem for q in chef)


def test_no_paper_frame_names_its_answer_in_its_own_words(tmp_path):
    """*cutting tool* called *kind*: "'knife' refers to a kind of" is not asked with the answer
    *kind*; another of the paper's frames is, around the same example sentence."""
    from mcqa_probes.builders.ontology_templates import frame_words
    from mcqa_probes.knowledge.text import mentions

    graph = kitchen_with(tmp_path, label=('skos:prefLabel "cutting tool"@en', 'skos:prefLabel "kind"@en'))
    moved = 0
    for probe in ("hypernymy", "hyponymy"):
        for seed in range(4):
            builder = OntologyQABuilder(graph, {})
            for question in builder.build(probe, random.Random(f"{seed}:{probe}")):
                answer = question.choices[question.answer_index]
                assert not mentions(frame_words(probe, question.notes["template"]), [answer]), question.stem
                if question.concept == "k:knife":
                    assert question.notes["template"].startswith("ctx")
            moved += builder.summary.get("template_names_answer", 0)
    assert moved
    builder = OntologyQABuilder(graph, {})
    builder.summary = {}
    assert builder._template_not_naming("hypernymy", "ctx1+hyper0", ("kind",)) == "ctx1+hyper1"
    assert builder._template_not_naming("hypernymy", "ctx1+hyper2", ("category",)).startswith("ctx1+")
    # "In the example": *In* is a function word, as *A* is
    assert builder._template_not_naming("hypernymy", "ctx1+hyper0", ("In",)) == "ctx1+hyper0"


@pytest.fixture(scope="module")
def namesakes(tmp_path_factory):
    """vehicles, with watercraft also called "sail" (the name of a vehicle component)."""
    source = tmp_path_factory.mktemp("namesakes") / "namesakes.obo"
    text = (ONTOLOGIES / "vehicles.obo").read_text()
    source.write_text(text.replace('synonym: "vessel" EXACT []', 'synonym: "vessel" EXACT []\nsynonym: "sail" EXACT []'))
    return load_source(source)


@pytest.mark.parametrize("source", ["clinics", "vehicles", "namesakes"])
def test_hypernymys_excluded_set_rejects_exactly_what_the_closure_and_the_names_reject(source, request):
    """The hypernymy validity test is one set per concept; it must reject the concept, the answer,
    every ancestor, anything sharing a name with the concept or the answer, and anything sharing a
    name with an ancestor, and nothing else (checked here against every concept, with the test's own
    closure and names). A concept that has the asked concept's label among its names (in
    ``namesakes``, watercraft also called "sail") is asked about too: its ancestors are rejected."""
    graph = request.getfixturevalue(source)
    builder = OntologyQABuilder(graph, {})

    def names(concept_id):
        return {" ".join(n.replace("_", " ").lower().split()) for n in graph[concept_id].lemmas}

    checked = 0
    for concept in graph.concepts:
        own = closure(concept, lambda c: list(graph.hypernyms(c)))
        ancestors = set(own)
        label = " ".join(graph[concept].lemmas[0].replace("_", " ").lower().split())
        for twin in graph.concepts:
            if twin != concept and label in names(twin):
                ancestors |= closure(twin, lambda c: list(graph.hypernyms(c)))
        ancestor_names = set().union(*(names(a) for a in ancestors))
        for answer in sorted(own):
            valid = builder.valid_for("hypernymy", concept, answer)
            for other in graph.concepts:
                expected = (other not in {concept, answer} | ancestors
                            and not names(other) & (names(concept) | names(answer))
                            and not names(other) & ancestor_names)
                assert valid(other) == expected, (concept, answer, other)
                checked += 1
    assert checked > 100


def _pizza_spec():
    """The fixture's own description (fixtures/make_pizza_axioms.py wrote both files from it)."""
    return load_fixture_script("make_pizza_axioms")


@pytest.mark.parametrize("suffix", ["obo", "ttl"])
def test_what_logical_axioms_entail_is_never_a_distractor_and_never_an_answer(suffix):
    """A defined class (cheesy pizza = pizza and has_topping some cheese topping, no is_a), a union
    (vegetarian topping = cheese or vegetable topping) and an equivalent class (pie crust = pizza
    base): under OWL's reading they are ancestors or descendants, so never wrong answers; under the
    parent edges alone they are not, so never right answers either. Checked with the closures of
    the fixture's own description, for OBO and its OWL rendering."""
    pizza = _pizza_spec()
    graph = load_source(ONTOLOGIES / f"pizza_axioms.{suffix}", relations=["has_topping"])
    asserted, owl = {}, {}
    toppings = {}
    for number, _name, _definition, parents, topping_numbers, axiom in pizza.TERMS:
        me = pizza.pz(number)
        asserted.setdefault(me, set()).update(pizza.pz(p) for p in parents)
        owl.setdefault(me, set()).update(pizza.pz(p) for p in parents)
        toppings.setdefault(me, set()).update(pizza.pz(t) for t in topping_numbers)
        if axiom and axiom[0] == "intersection":
            owl[me].add(pizza.pz(axiom[1]))
            toppings[me].add(pizza.pz(axiom[2]))
        elif axiom and axiom[0] == "union":
            for member in axiom[1:]:
                owl.setdefault(pizza.pz(member), set()).add(me)
        elif axiom and axiom[0] == "equivalent":
            owl[me].add(pizza.pz(axiom[1]))
            owl.setdefault(pizza.pz(axiom[1]), set()).add(me)
    # classification, the test's own way: a pizza with a topping under a defined class's topping
    # is a kind of that defined class (margherita: mozzarella, so a cheesy pizza)
    for number, _name, _definition, _parents, _toppings, axiom in pizza.TERMS:
        if axiom and axiom[0] == "intersection":
            defined, genus, filler = pizza.pz(number), pizza.pz(axiom[1]), pizza.pz(axiom[2])
            for other in list(owl):
                if other != defined and genus in closure(other, lambda c: list(owl.get(c, ()))) and any(
                        filler in closure(t, lambda c: list(owl.get(c, ()))) | {t}
                        for holder in closure(other, lambda c: list(owl.get(c, ()))) | {other}
                        for t in toppings.get(holder, ())):
                    owl[other].add(defined)
    assert pizza.pz(19) in owl[pizza.pz(16)]       # margherita is a cheesy pizza by its topping alone
    up_asserted = lambda c: list(asserted.get(c, ()))              # noqa: E731
    up_owl = lambda c: list(owl.get(c, ()))                        # noqa: E731
    down_asserted = lambda c: [x for x, ps in asserted.items() if c in ps]          # noqa: E731
    down_owl = lambda c: [x for x, ps in owl.items() if c in ps]                    # noqa: E731
    kept_out = 0
    for seed in range(5):
        builder = OntologyQABuilder(graph, {})
        for probe, answers_from, wrong_if in (("hypernymy", up_asserted, up_owl), ("hyponymy", down_asserted, down_owl)):
            for question in builder.build(probe, random.Random(f"{seed}:{probe}")):
                concept = question.concept
                assert question.notes["answer_id"] in closure(concept, answers_from), question.id
                correct = closure(concept, wrong_if) - {concept}
                for other in question.notes["distractor_ids"]:
                    assert other not in correct, (question.id, other)
                kept_out += len(correct - closure(concept, answers_from))
        relation = OntologyQABuilder(graph, {}, relation="has_topping", probe_name="has_topping")
        for question in relation.build("has_topping", random.Random(f"{seed}:has_topping")):
            entailed = set()
            for source in closure(question.concept, up_owl) | {question.concept}:
                for target in toppings.get(source, ()):
                    entailed |= {target} | closure(target, up_owl)
            assert question.notes["answer_id"] in entailed
            for other in question.notes["distractor_ids"]:
                assert other not in entailed, (question.id, other)
    assert kept_out        # the axioms did keep some concepts out


def test_an_obo_file_with_logical_definitions_and_its_owl_rendering_give_the_same_probes(tmp_path):
    from mcqa_probes.builders.ontology_build import build_ontology_probes

    written = {}
    for suffix in ("obo", "ttl"):
        graph = load_source(ONTOLOGIES / f"pizza_axioms.{suffix}", relations=["has_topping"])
        assert graph.implied_hypernyms("PZ:0000019") == ["PZ:0000002"] and not graph.hypernyms("PZ:0000019")
        assert sorted(graph.implied_hypernyms("PZ:0000024")) == ["PZ:0000004"]
        assert "PZ:0000023" in graph.implied_hypernyms("PZ:0000005")
        # classified by the definitions: margherita (mozzarella) a cheesy pizza, calzone (ham) a meaty one
        assert graph.provenance["report"].examples["classified"] == [
            "PZ:0000016 is_a PZ:0000019", "PZ:0000017 is_a PZ:0000021", "PZ:0000025 is_a PZ:0000021"]
        build_ontology_probes(tmp_path / suffix, graph, relations=["has_topping"], seed=3)
        written[suffix] = {p.relative_to(tmp_path / suffix): p.read_bytes() for p in sorted((tmp_path / suffix).rglob("*.jsonl"))}
    assert written["obo"] == written["ttl"] and len(written["obo"]) >= 9


@pytest.mark.parametrize("syntax", ["obo", "ttl"])
def test_a_link_of_a_sub_relation_is_a_link_of_the_relation_above_it(tmp_path, syntax):
    """member_of is_a part_of (OBO Typedef) / rdfs:subPropertyOf (OWL): a concept member_of a group
    is part of it, so the part_of probe never offers that group as a wrong answer."""
    if syntax == "obo":
        text = ("format-version: 1.2\nontology: t\n\n[Typedef]\nid: part_of\nis_transitive: true\n\n"
                "[Typedef]\nid: member_of\nis_a: part_of\n\n")
        text += "".join(f"[Term]\nid: T:{i}\nname: thing {i}\n" + ("is_a: T:0\n" if i else "") + "\n" for i in range(6))
        text += "[Term]\nid: T:6\nname: herd\nis_a: T:0\nrelationship: part_of T:7\n\n"
        text += "[Term]\nid: T:7\nname: farm\nis_a: T:0\n\n[Term]\nid: T:8\nname: cow\nis_a: T:0\nrelationship: member_of T:6\n"
    else:
        text = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                "@prefix t: <http://example.org/t#> .\nt:part_of a owl:ObjectProperty, owl:TransitiveProperty .\n"
                "t:member_of a owl:ObjectProperty ; rdfs:subPropertyOf t:part_of .\n")
        text += "".join(f't:T{i} a owl:Class ; rdfs:label "thing {i}"' + (" ; rdfs:subClassOf t:T0" if i else "") + " .\n"
                        for i in range(6))
        text += ('t:T6 a owl:Class ; rdfs:label "herd" ; rdfs:subClassOf t:T0, [ a owl:Restriction ; '
                 'owl:onProperty t:part_of ; owl:someValuesFrom t:T7 ] .\nt:T7 a owl:Class ; rdfs:label "farm" ; '
                 'rdfs:subClassOf t:T0 .\nt:T8 a owl:Class ; rdfs:label "cow" ; rdfs:subClassOf t:T0, [ a owl:Restriction ; '
                 'owl:onProperty t:member_of ; owl:someValuesFrom t:T6 ] .\n')
    path = tmp_path / f"herd.{syntax}"
    path.write_text(text)
    graph = load_source(path, relations=["part_of"])
    cow, herd, farm = (("T:8", "T:6", "T:7") if syntax == "obo" else ("t:T8", "t:T6", "t:T7"))
    relation = resolved(graph, "part_of")
    assert herd in graph.implied_related(cow, relation) and not graph.related(cow, relation)
    builder = OntologyQABuilder(graph, {}, relation=relation, probe_name="part_of")
    assert {herd, farm} <= builder.entailed(cow)


@pytest.mark.parametrize("syntax", ["obo", "ttl"])
def test_property_chains_entail_links_that_are_never_offered_as_wrong_answers(tmp_path, syntax):
    """``located_in transitive_over part_of`` (OWL: the chain located_in, part_of) and ``in_region
    holds_over_chain located_in part_of``: a cell located in a room that is part of a house that is
    part of a town is located in the house and the town, and in their region; neither probe offers
    them as wrong answers (the chains read from OBO and from OWL alike)."""
    names = ["thing", "cell", "room", "house", "town", "barn", "field", "river", "hill", "lake"]
    links = {1: [("located_in", 2), ("in_region", 9)], 2: [("part_of", 3)], 3: [("part_of", 4)],
             5: [("located_in", 6)], 6: [("part_of", 7)], 8: [("in_region", 7)]}
    if syntax == "obo":
        text = ("format-version: 1.2\nontology: t\n\n[Typedef]\nid: part_of\nis_transitive: true\n\n"
                "[Typedef]\nid: located_in\nis_transitive: true\ntransitive_over: part_of\n\n"
                "[Typedef]\nid: in_region\nholds_over_chain: located_in part_of\n\n")
        text += "".join(f"[Term]\nid: T:{i}\nname: {name}\n" + ("is_a: T:0\n" if i else "")
                        + "".join(f"relationship: {r} T:{o}\n" for r, o in links.get(i, ())) + "\n"
                        for i, name in enumerate(names))
    else:
        text = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
                "@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n@prefix t: <http://example.org/t#> .\n"
                't:part_of a owl:ObjectProperty, owl:TransitiveProperty ; oboInOwl:shorthand "part_of" .\n'
                't:located_in a owl:ObjectProperty, owl:TransitiveProperty ; oboInOwl:shorthand "located_in" ;\n'
                "  owl:propertyChainAxiom ( t:located_in t:part_of ) .\n"
                't:in_region a owl:ObjectProperty ; oboInOwl:shorthand "in_region" ;\n'
                "  owl:propertyChainAxiom ( t:located_in t:part_of ) .\n")
        for i, name in enumerate(names):
            parents = (["obo:T_0"] if i else []) + [f"[ a owl:Restriction ; owl:onProperty t:{r} ; owl:someValuesFrom obo:T_{o} ]"
                                                   for r, o in links.get(i, ())]
            text += f'obo:T_{i} a owl:Class ; rdfs:label "{name}"' + (f" ; rdfs:subClassOf {', '.join(parents)}" if parents else "") + " .\n"
    path = tmp_path / f"town.{syntax}"
    path.write_text(text)
    graph = load_source(path, relations=["located_in", "in_region"])
    assert graph.relation_info["located_in"]["through"] == ["part_of"]
    assert graph.relation_info["in_region"]["through"] == ["located_in", "part_of"]
    located = OntologyQABuilder(graph, {}, relation="located_in", probe_name="located_in")
    region = OntologyQABuilder(graph, {}, relation="in_region", probe_name="in_region")
    assert {"T:2", "T:3", "T:4"} <= located.entailed("T:1") and "T:9" not in located.entailed("T:1")
    assert {"T:9", "T:3", "T:4"} <= region.entailed("T:1")
    assert {"T:6", "T:7"} <= located.entailed("T:5") and {"T:7"} <= region.entailed("T:5")
    for builder, probe in ((located, "located_in"), (region, "in_region")):
        questions = builder.build(probe, random.Random(f"7:{probe}"))
        assert any(question.concept == "T:1" for question in questions)
        for question in questions:
            wrong = set(question.notes["distractor_ids"])
            assert not wrong & builder.entailed(question.concept), question.id


def test_a_dutch_definition_naming_the_answer_inflected_is_masked_with_lang_nl(tmp_path):
    """*dorpskerk* is a kind of *kerk*; its definition says *kerken*: masked under --lang nl (the
    source's language reaches the builder), not under English rules (-s, -es only)."""
    from mcqa_probes.knowledge.ontology import Vocabulary

    rows = ['k:bouw skos:prefLabel "bouwwerk"@LANG ; skos:definition "Iets dat gebouwd is door mensen."@LANG .',
            'k:kerk skos:prefLabel "kerk"@LANG ; skos:broader k:bouw ; skos:definition "Een gebouw voor de eredienst."@LANG .',
            'k:dorp skos:prefLabel "dorpskerk"@LANG ; skos:broader k:kerk ; '
            'skos:definition "Een van de kerken die midden in een dorp staat."@LANG .']
    rows += [f'k:b{i} skos:prefLabel "brug {i}"@LANG ; skos:broader k:bouw ; skos:definition "Een brug over de rivier {i}."@LANG .'
             for i in range(8)]
    stems = {}
    for lang in ("nl", "en"):
        path = tmp_path / f"kerken_{lang}.ttl"
        path.write_text("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix k: <http://example.org/k/> .\n"
                        + "\n".join(row.replace(" skos:prefLabel", " a skos:Concept ; skos:prefLabel", 1).replace("LANG", lang)
                                    for row in rows) + "\n")
        builder, questions = build(load_source(path, vocabulary=Vocabulary(lang=lang)), "hypernymy",
                                   min_answer_depth={"n": 0})
        assert builder.language == (lang if lang == "nl" else None)      # English: the patterns know its plurals
        stems[lang] = [q.stem for q in questions if q.concept == "k:dorp" and q.notes["answer_id"] == "k:kerk"]
    assert stems["nl"] and all("Een van de ___ die" in stem for stem in stems["nl"])
    assert stems["en"] and all("Een van de kerken die" in stem for stem in stems["en"])


def test_classes_equivalent_through_a_class_the_file_does_not_define_are_never_wrong_answers(tmp_path):
    """DBpedia: Region and AdministrativeRegion are both owl:equivalentClass wd:Q3455524."""
    path = tmp_path / "geo.ttl"
    rows = ["ex:Place a owl:Class ; rdfs:label \"place\" .",
            "ex:Region a owl:Class ; rdfs:label \"region\" ; rdfs:subClassOf ex:Place ; owl:equivalentClass wd:Q3455524 .",
            "wd:Q3455524 owl:equivalentClass ex:AdminRegion .",         # stated the other way round
            "ex:AdminRegion a owl:Class ; rdfs:label \"administrative region\" ; rdfs:subClassOf ex:Place .",
            "ex:Historical a owl:Class ; rdfs:label \"historical region\" ; rdfs:subClassOf ex:Region ."]
    rows += [f"ex:P{i} a owl:Class ; rdfs:label \"place {i}\" ; rdfs:subClassOf ex:Place ." for i in range(6)]
    path.write_text("@prefix ex: <http://example.org/geo#> .\n@prefix wd: <http://www.wikidata.org/entity/> .\n"
                    "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                    + "\n".join(rows) + "\n")
    builder = OntologyQABuilder(load_source(path))
    assert "ex:AdminRegion" in builder.excluded_hypernymy("ex:Historical")      # a kind of region, so an answer
    _, questions = build(load_source(path), "hypernymy")
    asked = [q for q in questions if q.concept == "ex:Historical"]
    assert asked and not any("administrative region" in q.choices for q in asked if q.notes["answer_id"] == "ex:Region")


def test_a_respelled_name_is_no_synonym_and_never_a_second_choice(tmp_path):
    """sports car's "sports-car" and truck's "Trucks" are the term respelled: no synonymy answer; a
    canoe whose only other name is "canoes" is not asked; a concept labelled "road-bike" and another
    "road bike" are never two choices of one question."""
    text = (ONTOLOGIES / "vehicles.obo").read_text()
    text = text.replace('synonym: "roadster" EXACT []', 'synonym: "roadster" EXACT []\nsynonym: "sports-car" EXACT []')
    text = text.replace('synonym: "lorry" EXACT []', 'synonym: "Trucks" EXACT []\nsynonym: "lorry" EXACT []')
    text = text.replace("name: canoe\n", 'name: canoe\nsynonym: "canoes" EXACT []\n')
    text = text.replace('synonym: "road bike" EXACT []', "")
    text += "\n[Term]\nid: VO:0000040\nname: road-bike\nis_a: VO:0000006 ! bicycle\n"
    text += "\n[Term]\nid: VO:0000041\nname: road bike\nis_a: VO:0000002 ! land vehicle\n"
    source = tmp_path / "respelled.obo"
    source.write_text(text)
    graph = load_source(source)
    assert "sports-car" in graph["VO:0000021"].lemmas and "canoes" in graph["VO:0000026"].lemmas

    _, synonymy = build(graph, "synonymy")
    answers = {q.concept: set() for q in synonymy}
    for question in synonymy:
        answers[question.concept].add(question.choices[question.answer_index])
    assert answers["VO:0000021"] == {"roadster"} and answers["VO:0000007"] == {"lorry"}
    assert "VO:0000026" not in answers

    def key(text):
        return re.sub(r"[\s_-]+", "", text.lower())

    shown_together = 0
    for probe in ("synonymy", "hypernymy", "hyponymy"):
        for seed in range(4):
            builder = OntologyQABuilder(graph, {})
            for question in builder.build(probe, random.Random(f"{seed}:{probe}")):
                assert len({key(c) for c in question.choices}) == len(question.choices), question.id
                shown_together += bool({"VO:0000040", "VO:0000041"} & set(question.notes["choice_ids"]))
    assert shown_together     # the two were offered, never side by side


def test_no_template_names_its_answer_in_its_own_words(tmp_path):
    """Concepts named like a template's words (*Name*, *Kind*, *Type*, *Term*): "Which choice names one
    type of 'x'?" is never asked with the answer *Name* or *Type*, nor "'x' is a kind of" with *Kind*;
    such a question goes to another template, and the validity summary counts it."""
    from mcqa_probes.builders.ontology_templates import frame_words
    from mcqa_probes.knowledge.text import mentions

    words = ["Name", "Kind", "Type", "Category", "Form", "Example", "Term", "Definition", "Statement"]
    rows, edges = [("E:0", "entity", "", "Whatever there is.")], []
    for i, word in enumerate(words, 1):
        rows.append((f"E:{i}", word, "", f"A grouping number {i}."))
        edges.append((f"E:{i}", "E:0"))
        for j in range(3):
            child = f"E:{i}{j}"
            rows.append((child, f"{word.lower()} member {i}-{j}", "term" if j == 0 else "", f"Item {i}-{j} of the set."))
            edges.append((child, f"E:{i}"))
            for k in range(2):
                rows.append((f"{child}{k}", f"leaf {i}-{j}-{k}", "", f"Leaf {i}-{j}-{k}."))
                edges.append((f"{child}{k}", child))
    graph = tsv_taxonomy(tmp_path / "words_tsv", rows, edges)

    moved = 0
    for probe in ("hypernymy", "hyponymy", "synonymy"):
        for seed in range(3):
            builder = OntologyQABuilder(graph, {})
            questions = builder.build(probe, random.Random(f"{seed}:{probe}"))
            assert questions
            for question in questions:
                answer = question.choices[question.answer_index]
                own_words = frame_words(probe, question.notes["template"])
                assert not mentions(own_words, [answer]), (question.stem, answer)
            moved += builder.summary.get("template_names_answer", 0)
    assert moved
    # a function word is no template word that names an answer: alanine's "A", atto's "a" (whose
    # plural would be "as"), arsenic's "As" keep "... means the same as"; "Name" does not keep "name"
    builder = OntologyQABuilder(graph, {})
    builder.summary = {}
    for code in ("A", "a", "As"):
        assert builder._template_not_naming("synonymy", "none+osyn2", (code,)) == "none+osyn2"
    assert builder._template_not_naming("synonymy", "none+osyn0", ("Name",)) != "none+osyn0"
    assert builder._template_not_naming("hyponymy", "dctx1+ohypo0", ("mean",)) != "dctx1+ohypo0"


def test_a_french_thesaurus_is_asked_in_french_templates(tmp_path):
    """--lang fr: the definition frames, the paper's frames around a French example sentence and the
    relation frames are French; no French template names its answer (*catégorie*)."""
    from mcqa_probes.builders.ontology_templates import frame_words
    from mcqa_probes.knowledge.ontology import Vocabulary
    from mcqa_probes.knowledge.text import mentions

    concepts = [("cat", "catégorie", None, "Un ensemble de choses semblables."),
                ("outil", "outil", "cat", "Un objet qui sert à travailler."),
                ("coupe", "instrument tranchant", "outil", "Un objet à bord affûté."),
                ("couteau", "couteau", "coupe", "Un manche muni d’une lame."),
                ("pain", "pain", "cat", "Un aliment cuit au four.")]
    concepts += [(f"o{i}", f"ustensile {i}", "outil", f"Un ustensile de cuisine, modèle {i}.") for i in range(6)]
    concepts += [(f"p{i}", f"plat {i}", "cat", f"Un plat du jour, numéro {i}.") for i in range(6)]
    lines = ["@prefix skos: <http://www.w3.org/2004/02/skos/core#> .", "@prefix k: <http://example.org/k/> ."]
    for key, label, parent, definition in concepts:
        lines.append(f'k:{key} a skos:Concept ; skos:prefLabel "{label}"@fr ; skos:definition "{definition}"@fr'
                     + (f" ; skos:broader k:{parent}" if parent else "") + " .")
    lines.append('k:couteau skos:example "Elle coupe le pain avec un couteau bien aiguisé."@fr ; skos:related k:o1 .')
    path = tmp_path / "cuisine.ttl"
    path.write_text("\n".join(lines) + "\n")
    graph = load_source(path, vocabulary=Vocabulary(lang="fr"), relations=["skos:related"])
    assert graph["k:couteau"].examples == ("Elle coupe le pain avec un couteau bien aiguisé.",)
    moved = 0
    for probe in ("hypernymy", "hyponymy", "definitions"):
        builder, questions = build(graph, probe, min_answer_depth={"n": 0})
        assert builder.template_language == "fr" and questions
        for question in questions:
            template = question.notes["template"]
            if question.concept == "k:couteau" and probe != "definitions":
                assert template.startswith("ctx") and "Elle coupe le pain" in question.stem
                assert question.stem.startswith(("Au sens", "Dans", "D’après", "Avec", "Quand", "À la")), question.stem
            elif template.startswith("dctx"):
                assert question.stem.startswith(("Sachant que", "En prenant", "Étant donné")), question.stem
            answer = question.choices[question.answer_index]
            if probe != "definitions":
                assert not mentions(frame_words(probe, template, "fr"), [answer], "fr"), (question.stem, answer)
        moved += builder.summary.get("template_names_answer", 0)
    assert moved          # "catégorie" is an answer that two French hypernymy frames name
    _, related = build(graph, "skos_related", relation="skos:related")
    # skos:related, "related to" in English, quoted in French
    assert related and all("par la relation 'en relation avec'" in q.stem or "(en relation avec)" in q.stem
                           or "selon la relation 'en relation avec'" in q.stem for q in related)
    assert all(q.stem.startswith(("Sachant que", "En prenant", "Étant donné")) for q in related)


def test_a_definition_that_only_repeats_the_term_or_the_answer_is_no_context(tmp_path, clinics):
    """"Where 'town hall' is defined as 'A town hall.'" tells nothing, nor does 'city hall' defined as
    "A ___." once its answer *building* is masked: such questions are asked without a definition and
    counted. A definition that gives a synonym ("A bus garage." for *bus depot*) or says more stays."""
    rows = [("E:0", "entity", "", "Whatever there is."), ("B", "building", "", "A structure with a roof and walls."),
            ("V", "vehicle", "", "A machine that carries people or goods."),
            ("P", "plant", "", "A living thing that grows in soil."), ("A", "animal", "", "A living thing that eats."),
            ("T", "tool", "", "An object used to do work."),
            ("B1", "city hall", "", "A building."), ("B2", "town hall", "", "A town hall."),
            ("B3", "bus depot", "bus garage", "A bus garage."), ("B4", "station", "", "A building where trains stop."),
            ("B5", "museum", "", "A building that shows art."), ("V1", "car", "", "A vehicle with four wheels."),
            ("V2", "bus", "", "A large vehicle for many people."), ("P1", "tree", "", "A tall plant with a trunk."),
            ("P2", "fern", "", "A plant with fronds."), ("A1", "dog", "", "A domestic animal that barks."),
            ("A2", "cat", "", "A small animal that purrs."), ("T1", "hammer", "", "A tool for driving nails."),
            ("T2", "saw", "", "A tool for cutting wood.")]
    edges = [(c, "E:0") for c in "BVPAT"] + [(r[0], r[0][0]) for r in rows if len(r[0]) == 2]
    graph = tsv_taxonomy(tmp_path / "halls_tsv", rows, edges)

    builder, questions = build(graph, "hypernymy")
    by_concept = {}
    for question in questions:
        by_concept.setdefault(question.concept, []).append(question)
    told_nothing = by_concept["B1"] + by_concept["B2"]
    assert by_concept["B1"] and by_concept["B2"]
    for question in told_nothing:
        assert question.notes["context"] == "" and question.notes["template"].startswith(NO_CONTEXT + "+")
        assert "hall.'" not in question.stem and "'A ___.'" not in question.stem and "'A(n) ___.'" not in question.stem
    assert builder.summary["definition_repeats_term"] == len({q.stem for q in told_nothing})
    assert {q.notes["context"] for q in by_concept["B3"]} == {"A bus garage."}          # a synonym is information
    assert {q.notes["context"] for q in by_concept["B4"]} == {"A(n) ___ where trains stop."}
    # with --leakage drop, city hall's definition names its answer: dropped, as any such question
    dropping, kept = build(graph, "hypernymy", leakage="drop")
    assert "B1" not in {q.concept for q in kept} and dropping.summary["leakage_dropped"] >= 1
    assert {q.notes["context"] for q in kept if q.concept == "B2"} == {""}

    # schema.org's "A hospital." (the fixture) is asked without it in hypernymy too
    _, clinic_questions = build(clinics, "hypernymy")
    hospital = [q for q in clinic_questions if q.concept == "schema:Hospital"]
    assert hospital and all(q.notes["context"] == "" for q in hospital)
    assert any("drugstore" in q.stem for q in clinic_questions if q.concept == "schema:Pharmacy")


def test_a_definition_that_only_repeats_the_term_in_french_is_no_context(tmp_path):
    """"Un hôtel de ville." says nothing either: the template language's function words (*un*, *une*)
    are no content; "Une pharmacie ou droguerie." says something."""
    from mcqa_probes.knowledge.ontology import Vocabulary

    rows = [("E:0", "entité", "", "Tout ce qui existe."), ("B", "bâtiment", "", "Une construction avec un toit et des murs."),
            ("V", "véhicule", "", "Une machine qui transporte des gens."), ("P", "plante", "", "Un être vivant qui pousse."),
            ("T", "outil", "", "Un objet qui sert à travailler."),
            ("B1", "hôtel de ville", "", "Un hôtel de ville."), ("B2", "pharmacie", "", "Une pharmacie ou droguerie."),
            ("B3", "gare", "", "Un bâtiment où les trains s'arrêtent."), ("V1", "voiture", "", "Un véhicule à quatre roues."),
            ("V2", "autobus", "", "Un grand véhicule pour beaucoup de gens."), ("P1", "arbre", "", "Une grande plante ligneuse."),
            ("P2", "fougère", "", "Une plante à frondes."), ("T1", "marteau", "", "Un outil pour enfoncer des clous."),
            ("T2", "scie", "", "Un outil pour couper le bois.")]
    edges = [(c, "E:0") for c in "BVPT"] + [(r[0], r[0][0]) for r in rows if len(r[0]) == 2]
    builder, questions = build(tsv_taxonomy(tmp_path / "mairie_tsv", rows, edges, vocabulary=Vocabulary(lang="fr")),
                               "hypernymy")
    town_hall = [q for q in questions if q.concept == "B1"]
    assert town_hall and {q.notes["context"] for q in town_hall} == {""}
    assert {q.notes["context"] for q in questions if q.concept == "B2"} == {"Une pharmacie ou droguerie."}
    assert builder.summary["definition_repeats_term"] == len({q.stem for q in town_hall})


def test_the_synonymy_probe_never_asks_a_respelling_nor_another_vocabularys_code(tmp_path):
    """*Anaemia* for *Anemia* (HPO's ``uk_spelling``) is found by its form: never asked as another
    name; a concept whose only synonyms are respellings is not asked; a respelling stays a name of
    its concept (no other concept's question offers it as a wrong answer); nor is a code (``ICD:R50``)."""
    terms = [("Anemia", ["Anaemia"]), ("Hemorrhage", ["Haemorrhage", "Bleeding"]), ("Edema", ["Oedema", "Swelling"]),
             ("Tumor", ["Tumour", "Neoplasm"]), ("Fever", ["Pyrexia", "ICD:R50"]), ("Seizure", ["Fit", "ICD:R56"]),
             ("Headache", ["Cephalalgia", "ICD:R51"]), ("Cough", ["Tussis"]), ("Itching", ["Pruritus"]),
             ("Fainting", ["Syncope"])]
    uk = {"Anaemia", "Haemorrhage", "Oedema", "Tumour"}
    frames = []
    for number, (label, synonyms) in enumerate(terms, 2):
        lines = [f"[Term]\nid: HP:{number}\nname: {label}"]
        lines += [f'synonym: "{s}" EXACT {"uk_spelling " if s in uk else ""}[]' for s in synonyms]
        frames.append("\n".join(lines + ["is_a: HP:1"]))
    obo = tmp_path / "hp.obo"
    obo.write_text('format-version: 1.2\nsynonymtypedef: uk_spelling "UK spelling"\nontology: hp\n\n'
                   "[Term]\nid: HP:1\nname: Phenotypic abnormality\n\n" + "\n\n".join(frames) + "\n")
    graph = load_source(obo)
    respelled = {name.lower() for c in graph.concepts for name in graph[c].respellings}
    assert respelled == {name.lower() for name in uk}
    # another vocabulary's codes (ICD:R50) are not asked either
    codes = {name.lower() for c in graph.concepts for name in graph[c].codes}
    assert codes == {"icd:r50", "icd:r56", "icd:r51"}
    respelled |= codes
    _, questions = build(graph, "synonymy")
    assert questions and "HP:2" not in {q.concept for q in questions}          # Anemia: only a respelling
    for question in questions:
        assert not respelled & {choice.lower() for choice in question.choices}, question.choices
    asked = {q.concept: q.choices[q.answer_index].lower() for q in questions}
    assert asked["HP:3"] == "bleeding" and asked["HP:5"] == "neoplasm"


def test_a_skos_broader_transitive_ancestor_is_never_a_wrong_answer(tmp_path):
    """A thesaurus that states ``hammer skos:broaderTransitive machine`` beside ``skos:broader tool``: no
    hypernymy question about the hammer offers "machine", no hyponymy question about machines offers
    "hammer" (checked over broader and broaderTransitive, independently of the builder's closure)."""
    kinds = {"tool": ["hammer", "saw", "chisel"], "machine": ["drill", "lathe", "press"],
             "food": ["bread", "apple", "cheese"], "vehicle": ["car", "bus", "train"]}
    lines = ["@prefix skos: <http://www.w3.org/2004/02/skos/core#> .", "@prefix t: <http://example.org/t/> .",
             't:thing a skos:Concept ; skos:prefLabel "thing"@en .']
    for kind, members in kinds.items():
        lines.append(f't:{kind} a skos:Concept ; skos:prefLabel "{kind}"@en ; skos:broader t:thing .')
        lines += [f't:{m} a skos:Concept ; skos:prefLabel "{m}"@en ; skos:broader t:{kind} .' for m in members]
    lines.append("t:hammer skos:broaderTransitive t:machine .")
    (tmp_path / "tools.ttl").write_text("\n".join(lines) + "\n")
    graph = load_source(tmp_path / "tools.ttl")
    up = {c: closure(c, graph.hypernyms) for c in graph.concepts}
    up["t:hammer"] |= {"t:machine"}
    asked = set()
    for probe in ("hypernymy", "hyponymy"):
        _, questions = build(graph, probe, min_answer_depth={"n": 0})
        for question in questions:
            ids = choice_ids(question)
            correct = [c for c in ids if (c in up[question.concept] if probe == "hypernymy" else question.concept in up[c])]
            assert correct == [question.notes["answer_id"]], question.id
            asked.add((probe, question.concept))
    assert ("hypernymy", "t:hammer") in asked and ("hyponymy", "t:machine") in asked


def test_a_concept_labelled_like_another_keeps_the_others_correct_answers_out_of_its_distractors(tmp_path):
    """Two concepts labelled *tablet* (a computer, a dishwasher tablet), shown without a definition:
    "Which broader category does 'tablet' belong to?" is, to a reader, asked of both, so neither's
    ancestors, nor (hyponymy) a kind of either, is offered as a wrong answer (was: *cleaning
    supplies* offered for the computer). A relation probe does the same with what either entails."""
    groups = {"computer": ["tablet", "laptop", "desktop", "server"], "cleaning supply": ["tablet", "sponge", "soap"],
              "toy": ["doll", "kite", "puzzle", "ball"], "furniture": ["chair", "bed", "desk", "shelf"]}
    rows, edges, number = [("P:0", "product", "", "")], [], 1
    for group, members in groups.items():
        group_id = f"P:{number}"
        rows.append((group_id, group, "", ""))
        edges.append((group_id, "P:0"))
        number += 1
        for member in members:
            rows.append((f"P:{number}", member, "", ""))
            edges.append((f"P:{number}", group_id))
            number += 1
    kinds = [("P:50", "drawing tablet", "P:2"), ("P:51", "rinse tablet", "P:7"), ("P:52", "gaming laptop", "P:3"),
             ("P:53", "foam sponge", "P:8"), ("P:54", "rag doll", "P:11")]
    rows += [(i, label, "", "") for i, label, _ in kinds]
    edges += [(i, parent) for i, _, parent in kinds]
    graph = tsv_taxonomy(tmp_path / "twins", rows, edges)
    tablets = {"P:2", "P:7"}
    assert {graph[t].lemmas[0] for t in tablets} == {"tablet"}
    up = {t: closure(t, lambda c: list(graph.hypernyms(c))) for t in tablets}
    down = {t: closure(t, lambda c: list(graph.hyponyms(c))) for t in tablets}
    seen = {"hypernymy": 0, "hyponymy": 0}
    for seed in range(6):
        for probe in ("hypernymy", "hyponymy"):
            builder = OntologyQABuilder(graph, {"min_answer_depth": {"n": 0}})
            for question in builder.build(probe, random.Random(f"{seed}:{probe}")):
                concept = question.notes["concept_id"]
                if concept not in tablets:
                    continue
                seen[probe] += 1
                wrong = set().union(*(up if probe == "hypernymy" else down).values())
                assert not wrong & set(question.notes["distractor_ids"]), (question.id, question.notes)
    assert seen["hypernymy"] and seen["hyponymy"]


def test_a_synonym_of_another_scope_is_never_asked_but_keeps_a_distractor_named_so_out(tmp_path):
    """OBO: *cardiac atrium* has the RELATED synonym "auricle", the EXACT synonym of *atrial auricle*:
    the two share a name, so neither is a wrong answer where the other is right, though only EXACT
    synonyms are asked (was: offered, a second right answer to a reader of every synonym); read
    alike from the OWL rendering (oboInOwl:hasRelatedSynonym)."""
    terms = [("1", "heart part", None, None), ("2", "cardiac atrium", "1", "auricle"), ("3", "atrial auricle", "2", None),
             ("4", "ventricle", "1", None), ("5", "valve", "1", None), ("6", "septum", "1", None), ("7", "apex", "1", None)]
    obo = "format-version: 1.4\nontology: ht\n\n" + "".join(
        f"[Term]\nid: HT:{i}\nname: {name}\n" + (f"is_a: HT:{up}\n" if up else "")
        + (f'synonym: "{related}" RELATED []\n' if related else "") + ('synonym: "auricle" EXACT []\n' if i == "3" else "")
        + "\n" for i, name, up, related in terms)
    ttl = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
           "@prefix obo: <http://purl.obolibrary.org/obo/> .\n"
           "@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n"
           "<http://purl.obolibrary.org/obo/ht.owl> a owl:Ontology .\n" + "".join(
               f'obo:HT_{i} a owl:Class ; rdfs:label "{name}"' + (f" ; rdfs:subClassOf obo:HT_{up}" if up else "")
               + (f' ; oboInOwl:hasRelatedSynonym "{related}"' if related else "")
               + (' ; oboInOwl:hasExactSynonym "auricle"' if i == "3" else "") + " .\n" for i, name, up, related in terms))
    for suffix, text in (("obo", obo), ("ttl", ttl)):
        path = tmp_path / f"ht.{suffix}"
        path.write_text(text)
        graph = load_source(path)
        assert graph["HT:2"].lemmas == ("cardiac atrium",) and graph["HT:2"].other_names == ("auricle",), suffix
        builder = OntologyQABuilder(graph, {})
        valid = builder.valid_for("synonymy", "HT:3", "HT:3")     # "auricle" names both: no wrong answer
        assert not valid("HT:2") and valid("HT:4") and not builder.valid_for("synonymy", "HT:2", "HT:2")("HT:3"), suffix
        assert "HT:3" in builder.namesakes("HT:2") and "HT:2" in builder.excluded_hypernymy("HT:3")


def _vehicle_thesaurus(tmp_path, extra):
    """A SKOS thesaurus of vehicles and kitchen things, each with a synonym and a definition; ``extra``
    more Turtle lines."""
    lines = ["@prefix skos: <http://www.w3.org/2004/02/skos/core#> .", "@prefix v: <http://example.org/v/> .",
             'v:thing a skos:Concept ; skos:prefLabel "thing"@en .']
    groups = {"vehicle": ["car", "automobile", "bus", "truck", "bicycle", "tram", "van"],
              "tool": ["knife", "bread_knife", "cutting_board", "whisk", "ladle", "sieve", "grater", "kettle"]}
    for group, members in groups.items():
        lines.append(f'v:{group} a skos:Concept ; skos:prefLabel "{group}"@en ; skos:broader v:thing .')
        for number, member in enumerate(members):
            name = member.replace("_", " ")
            lines.append(f'v:{member} a skos:Concept ; skos:prefLabel "{name}"@en ; skos:altLabel "{name} {number}x"@en ; '
                         f'skos:definition "A {group} of the kind number {number} with wheels {number * 3}."@en ; '
                         f'skos:broader v:{group} .')
    (tmp_path / "things.ttl").write_text("\n".join(lines + extra) + "\n")


def test_concepts_that_exact_match_each_other_are_no_wrong_definition_or_synonym_of_each_other(tmp_path):
    """``car skos:exactMatch automobile`` (one meaning, two concepts of the file): "what does 'car'
    mean" never offers the automobile's definition, "'car' is also known as" never its names (was:
    *automobile 1x* offered beside *car 0x*); the same for the automobile, and for the tram, which
    matches the car through the automobile (exactMatch is transitive)."""
    _vehicle_thesaurus(tmp_path, ["v:car skos:exactMatch v:automobile .", "v:tram skos:exactMatch v:automobile ."])
    graph = load_source(tmp_path / "things.ttl")
    same = {"v:car", "v:automobile", "v:tram"}
    seen = {"definitions": 0, "synonymy": 0}
    for seed in range(8):
        for probe in seen:
            builder = OntologyQABuilder(graph, {})
            for question in builder.build(probe, random.Random(f"{seed}:{probe}")):
                if question.notes["concept_id"] in same:
                    seen[probe] += 1
                    assert not same & set(question.notes["distractor_ids"]), (question.id, question.notes)
    assert seen["definitions"] and seen["synonymy"]


def test_a_symmetric_relation_keeps_what_is_related_to_a_kind_of_the_concept_out_of_its_distractors(tmp_path):
    """``knife skos:related cutting_board``, a bread knife a kind of knife: the bread knife is related to
    the cutting board as the knife is, so "'cutting board' is related to" never offers it as a wrong
    answer (was: offered), while "'bread knife' is related to" can answer the cutting board."""
    _vehicle_thesaurus(tmp_path, ["v:bread_knife skos:broader v:knife .", "v:knife skos:related v:cutting_board .",
                                  "v:whisk skos:related v:kettle .", "v:bus skos:related v:van ."])
    graph = load_source(tmp_path / "things.ttl", relations=["skos:related"])
    asked = 0
    for seed in range(12):
        builder = OntologyQABuilder(graph, {"min_answer_pool": 0}, relation="skos:related", probe_name="skos_related")
        for question in builder.build("skos_related", random.Random(f"{seed}:related")):
            if question.notes["concept_id"] == "v:cutting_board":
                asked += 1
                assert "v:bread_knife" not in question.notes["distractor_ids"], question.notes
        assert builder.entailed("v:cutting_board") >= {"v:knife", "v:bread_knife"}
        assert "v:cutting_board" in builder.entailed("v:bread_knife")
    assert asked


@pytest.mark.parametrize("spelling", ["related_to", "related to", "Related", "relatedTo", "associated_with"])
def test_a_table_relation_named_related_to_is_read_both_ways(tmp_path, spelling):
    """A table's ``book of hours related_to rosary`` says the rosary is related to the book of hours:
    "'rosary' is related to" never offers the book of hours as a wrong answer (was: offered, the
    relation read one way as any other table relation), and may ask it as the answer."""
    names = ["devotional object", "rosary", "book of hours", "candle", "icon", "altar", "censer", "chalice",
             "bell", "banner", "vestment", "psalter", "hymnal", "missal"]
    rows = [(f"T:{i}", name, "", "") for i, name in enumerate(names)]
    links = [("T:2", spelling, "T:1"), ("T:3", spelling, "T:4"), ("T:5", spelling, "T:6"), ("T:7", spelling, "T:8"),
             ("T:11", spelling, "T:12"), ("T:13", spelling, "T:9")]
    graph = tsv_taxonomy(tmp_path / "devotion", rows, [(f"T:{i}", "T:0") for i in range(1, len(names))] + links,
                         relations=[spelling])
    relation = resolved(graph, spelling)
    assert graph.relation_info[relation]["symmetric"] and not graph.relation_info[relation]["transitive"]
    linked = {(a, b) for a, _, b in links} | {(b, a) for a, _, b in links}
    asked = answered_back = 0
    for seed in range(6):
        builder = OntologyQABuilder(graph, {"min_answer_pool": 0}, relation=relation, probe_name="related")
        for question in builder.build("related", random.Random(f"{seed}:related")):
            concept = question.notes["concept_id"]
            asked += 1
            answered_back += (concept, question.notes["answer_id"]) in {(b, a) for a, _, b in links}
            assert not {(concept, other) for other in question.notes["distractor_ids"]} & linked, question.notes
    assert asked and answered_back


@pytest.mark.parametrize("syntax", ["obo", "ttl", "obo-undeclared", "ttl-bfo-undeclared", "tsv"])
def test_a_link_of_a_relation_is_a_link_of_its_inverse_the_other_way(tmp_path, syntax):
    """``part_of inverse_of has_part`` (OWL ``owl:inverseOf``): *river mouth* part_of *river*, so "'river'
    has part" never offers the river mouth (nor a kind of it) as a wrong answer, and "'river mouth'
    is part of" never offers the river; the stated links stay the answers (was: offered). BFO's part
    of / has part are that pair where the source does not say so (``-undeclared``: Typedefs without
    ``inverse_of``, BFO's OWL ids without ``owl:inverseOf``; a table's rows): was offered there."""
    parts = [("T:1", "river", None), ("T:2", "river mouth", None), ("T:3", "estuary", "T:2"), ("T:4", "ocean", None),
             ("T:5", "bay", None)]
    links = [("T:2", "part_of", "T:1"), ("T:4", "has_part", "T:5")]
    if syntax == "tsv":
        graph = tsv_taxonomy(tmp_path / "rivers", [(i, name, "", "") for i, name, _ in parts],
                             [(i, "is_a", p) for i, _, p in parts if p] + links, relations=["part_of", "has_part"])
    elif syntax.startswith("obo"):
        text = "format-version: 1.4\nontology: t\n\n" + "".join(
            f"[Term]\nid: {i}\nname: {name}\n" + (f"is_a: {p}\n" if p else "")
            + "".join(f"relationship: {r} {o}\n" for s_, r, o in links if s_ == i) + "\n" for i, name, p in parts)
        inverse = "" if syntax.endswith("undeclared") else "inverse_of: has_part\n"
        text += (f"[Typedef]\nid: part_of\nname: part of\nxref: BFO:0000050\n{inverse}\n"
                 "[Typedef]\nid: has_part\nname: has part\nxref: BFO:0000051\n")
    elif syntax == "ttl-bfo-undeclared":
        bfo = {"part_of": "obo:BFO_0000050", "has_part": "obo:BFO_0000051"}
        text = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                "@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix T: <http://example.org/t#> .\n"
                'obo:BFO_0000050 a owl:ObjectProperty ; rdfs:label "part of" .\n'
                'obo:BFO_0000051 a owl:ObjectProperty ; rdfs:label "has part" .\n')
        text += "".join(f'T:{i[2:]} a owl:Class ; rdfs:label "{name}"' + (f" ; rdfs:subClassOf T:{p[2:]}" if p else "")
                        + "".join(f" ; rdfs:subClassOf [ a owl:Restriction ; owl:onProperty {bfo[r]} ; owl:someValuesFrom T:{o[2:]} ]"
                                  for s_, r, o in links if s_ == i) + " .\n" for i, name, p in parts)
    else:
        text = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                "@prefix T: <http://example.org/t#> .\nT:part_of a owl:ObjectProperty ; owl:inverseOf T:has_part .\n"
                "T:has_part a owl:ObjectProperty .\n")
        text += "".join(f'T:{i[2:]} a owl:Class ; rdfs:label "{name}"' + (f" ; rdfs:subClassOf T:{p[2:]}" if p else "")
                        + "".join(f" ; rdfs:subClassOf [ a owl:Restriction ; owl:onProperty T:{r} ; owl:someValuesFrom T:{o[2:]} ]"
                                  for s_, r, o in links if s_ == i) + " .\n" for i, name, p in parts)
    if syntax != "tsv":
        path = tmp_path / f"rivers.{syntax[:3]}"
        path.write_text(text)
        graph = load_source(path, relations=["part_of", "has_part"])
    has_part = OntologyQABuilder(graph, {}, relation=resolved(graph, "has_part"), probe_name="has_part")
    part_of = OntologyQABuilder(graph, {}, relation=resolved(graph, "part_of"), probe_name="part_of")
    assert {"T:2", "T:3"} <= has_part.entailed("T:1") and "T:4" in part_of.entailed("T:5")
    assert "T:1" in part_of.entailed("T:2") and "T:1" not in part_of.entailed("T:4")
    assert not graph.related("T:1", resolved(graph, "has_part"))
    assert graph.related("T:4", resolved(graph, "has_part")) == ["T:5"]


def equivalent_classes(path, prefix, classes, equivalent):
    """A Turtle file of ``classes`` (id, label, parent, definition: '' for none), two of them
    ``owl:equivalentClass``; returns its path."""
    text = ("@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
            f"@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix {prefix}: <http://example.org/{prefix}#> .\n"
            f"{prefix}:{equivalent[0]} owl:equivalentClass {prefix}:{equivalent[1]} .\n")
    text += "".join(f'{prefix}:{i} a owl:Class ; rdfs:label "{label}"@en'
                    + (f' ; skos:definition "{definition}"@en' if definition else "")
                    + (f" ; rdfs:subClassOf {prefix}:{parent}" if parent else "") + " .\n"
                    for i, label, parent, definition in classes)
    path.write_text(text)
    return path


def test_a_definition_naming_a_class_equivalent_to_its_concept_is_masked(tmp_path):
    """Brick's *CRAH* ``owl:equivalentClass`` *Computer Room Air Handler*, defined "A computer room air
    handler (CRAH) uses fans ...": the definition probe showed "a(n) ___ (CRAH) uses fans" for what
    'Computer Room Air Handler' means (and no other definition may name either, as a distractor)."""
    classes = [("Equipment", "equipment", None, "A physical device that serves a building system."),
               ("CRAH", "CRAH", "Equipment", "A computer room air handler (CRAH) uses fans and coils to cool a data room."),
               ("Computer_Room_Air_Handler", "Computer Room Air Handler", "Equipment", ""),
               ("Boiler", "boiler", "Equipment", "A closed vessel that heats water or makes steam for heating."),
               ("Chiller", "chiller", "Equipment", "A machine that removes heat from a liquid by vapour compression."),
               ("Pump", "pump", "Equipment", "A device that moves fluids through pipes by mechanical action."),
               ("Fan", "fan", "Equipment", "A device that moves air with rotating blades in a housing."),
               ("Damper", "damper", "Equipment", "A plate or valve that regulates the flow of air in a duct."),
               ("Meter", "meter", "Equipment", "A device that measures and records a quantity such as energy."),
               ("Valve", "valve", "Equipment", "A device that regulates the flow of water through a pipe.")]
    graph = load_source(equivalent_classes(tmp_path / "brick.ttl", "b", classes, ("CRAH", "Computer_Room_Air_Handler")))
    builder = OntologyQABuilder(graph, {})
    shown = builder.usable_definition("b:CRAH")
    assert "CRAH" not in shown and "computer room air handler" not in shown.lower() and "uses fans" in shown
    asked = [q for q in builder.build("definitions", random.Random("7:definitions")) if q.concept == "b:CRAH"]
    assert asked and all("CRAH" not in q.choices[q.answer_index] for q in asked)


def test_a_context_naming_a_class_equivalent_to_the_answer_is_masked(tmp_path):
    """*string instrument* ``owl:equivalentClass`` *chordophone*: "A bowed chordophone ..." gives the
    answer *string instrument* away as much as "A bowed string instrument ..." would, so where either
    is the answer the other's name is masked too (was: left as written)."""
    classes = [("Instrument", "instrument", None, "A device made to produce music."),
               ("StringInstrument", "string instrument", "Instrument", "An instrument sounding by vibrating strings."),
               ("Chordophone", "chordophone", "Instrument", "A device whose sound comes from vibrating strings."),
               ("Wind", "wind instrument", "Instrument", "An instrument sounded by blowing."),
               ("Drum", "drum", "Instrument", "An instrument sounded by striking a membrane."),
               ("Violin", "violin", "Chordophone", "A small bowed string instrument with four strings."),
               ("Harp", "harp", "StringInstrument", "A large plucked chordophone with a frame."),
               ("Flute", "flute", "Wind", "A wind instrument played across a hole."),
               ("Oboe", "oboe", "Wind", "A wind instrument with a double reed."),
               ("Snare", "snare drum", "Drum", "A drum with wires across its lower head.")]
    graph = load_source(equivalent_classes(tmp_path / "music.ttl", "mu", classes, ("StringInstrument", "Chordophone")))
    same = {"mu:StringInstrument", "mu:Chordophone"}
    checked = 0
    for seed in range(6):
        builder = OntologyQABuilder(graph, {"min_answer_depth": {"n": 0}})
        assert set(builder.answer_names(graph["mu:Chordophone"])) == {"chordophone", "string instrument"}
        for question in builder.build("hypernymy", random.Random(f"{seed}:hypernymy")):
            if question.notes["answer_id"] in same and question.notes["context"]:
                checked += 1
                context = question.notes["context"].lower()
                assert "chordophone" not in context and "string instrument" not in context, question.notes
    assert checked


def test_the_article_before_a_masked_answer_does_not_tell_how_the_answer_begins(clinics):
    """"An ___ of wind and percussion" rules out every choice that starts with a consonant: in English
    the article before a mask is written ``a(n)``, in contexts and in the definitions probe's choices;
    a(n) is one article, no content word (a definition that says nothing else stays unusable)."""
    from mcqa_probes.knowledge.text import content_words

    builder = OntologyQABuilder(clinics, {})
    assert builder.masked("An orchestra of wind and percussion, an ensemble.", ["ensemble", "orchestra"]) == (
        "A(n) ___ of wind and percussion, a(n) ___.", 2)
    assert builder.masked("A band, an ensemble.", ["drum"]) == ("A band, an ensemble.", 0)
    assert content_words("A(n) ___.") == 0 and content_words("A(n) ___ of wind.") == 1
    seen = 0
    for probe in ("hypernymy", "definitions"):
        for question in builder.build(probe, random.Random(f"3:{probe}")):
            texts = [question.notes["context"]] + [choice["text"] for choice in question.to_json()["question"]["choices"]]
            for text in texts:
                assert not re.search(r"\b[Aa]n? ___", text), text
                seen += "a(n) ___" in text.lower()
    assert seen


def test_a_link_read_the_other_way_chains_and_counts_for_the_relations_above(tmp_path):
    """``bicycle has_part wheel``, ``tyre part_of wheel``, both transitive and inverse of each other,
    part_of under ``overlaps``, *racing bicycle* a kind of bicycle: the tyre is part of the bicycle
    (and of a racing bicycle), the bicycle has the tyre as a part, the tyre overlaps the bicycle; none
    of these is offered as a wrong answer (was: a link read the other way did not chain with the
    links as written, nor count for the relation above)."""
    terms = [("T:1", "bicycle", None), ("T:2", "wheel", None), ("T:3", "tyre", None), ("T:4", "racing bicycle", "T:1"),
             ("T:5", "bell", None)]
    links = [("T:1", "has_part", "T:2"), ("T:3", "part_of", "T:2"), ("T:5", "overlaps", "T:4")]
    text = "format-version: 1.4\nontology: t\n\n" + "".join(
        f"[Term]\nid: {i}\nname: {name}\n" + (f"is_a: {p}\n" if p else "")
        + "".join(f"relationship: {r} {o}\n" for s_, r, o in links if s_ == i) + "\n" for i, name, p in terms)
    text += ("[Typedef]\nid: part_of\nname: part of\nis_transitive: true\ninverse_of: has_part\nis_a: overlaps\n\n"
             "[Typedef]\nid: has_part\nname: has part\nis_transitive: true\n\n[Typedef]\nid: overlaps\nname: overlaps\n")
    (tmp_path / "bikes.obo").write_text(text)
    graph = load_source(tmp_path / "bikes.obo", relations=["part_of", "has_part", "overlaps"])
    entailed = {name: OntologyQABuilder(graph, {}, relation=name, probe_name=name).entailed
                for name in ("part_of", "has_part", "overlaps")}
    assert {"T:2", "T:1", "T:4"} <= entailed["part_of"]("T:3")
    assert {"T:2", "T:3"} <= entailed["has_part"]("T:1") and "T:3" in entailed["has_part"]("T:4")
    assert {"T:2", "T:1", "T:4"} <= entailed["overlaps"]("T:3") and "T:1" in entailed["overlaps"]("T:2")
    assert "T:5" not in entailed["part_of"]("T:3")


@pytest.mark.parametrize("syntax", ["obo", "ttl"])
def test_a_relation_both_symmetric_and_transitive_is_asked_one_hop_both_ways(tmp_path, syntax):
    """SKOS's exactMatch (symmetric and transitive, S44-S46) or an OBO Typedef with both flags: asked
    one hop, from either side, its closure kept out of the distractors (was: a RecursionError, the
    links going round); SKOS's mapping properties read as "is an exact match of"."""
    names = ["rule", "regulation", "directive", "decision", "statute", "ordinance", "bylaw", "decree", "edict"]
    if syntax == "obo":
        text = ("format-version: 1.2\nontology: t\n\n[Typedef]\nid: matches\nname: matches\nis_symmetric: true\n"
                "is_transitive: true\n\n" + "".join(
                    f'[Term]\nid: T:{i}\nname: {name}\ndef: "A written {name} of a public body, number {i}." []\n'
                    + ("is_a: T:0\n" if i else "") + ("relationship: matches T:2\n" if i == 1 else "")
                    + ("relationship: matches T:3\n" if i == 2 else "") + "\n" for i, name in enumerate(names)))
        relation, ids = "matches", ("T:1", "T:2", "T:3")
    else:
        text = ("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix t: <http://example.org/t/> .\n"
                't:s a skos:ConceptScheme ; skos:prefLabel "T"@en .\n' + "".join(
                    f't:c{i} a skos:Concept ; skos:prefLabel "{name}"@en ; '
                    f'skos:definition "A written {name} of a public body, number {i}."@en'
                    + (" ; skos:broader t:c0" if i else "") + (" ; skos:exactMatch t:c2" if i == 1 else "")
                    + (" ; skos:exactMatch t:c3" if i == 2 else "") + " .\n" for i, name in enumerate(names)))
        relation, ids = "skos:exactMatch", ("t:c1", "t:c2", "t:c3")
    path = tmp_path / f"rules.{syntax}"
    path.write_text(text)
    graph = load_source(path, relations=[relation])
    info = graph.relation_info[relation]
    assert info["symmetric"] and info["transitive"]
    builder = OntologyQABuilder(graph, {"num_choices": 3}, relation=relation, probe_name="m")
    questions = builder.build("m", random.Random("m"))
    asked = {(q.notes["concept_id"], q.notes["answer_id"]) for q in questions}
    first, second, third = ids
    assert {(first, second), (second, first), (second, third), (third, second)} <= asked
    assert all(q.notes["hops"] == 1 for q in questions)
    for q in questions:      # the closure (a match of a match) is never a wrong answer
        if q.notes["concept_id"] in (first, third):
            assert not {first, third} & set(q.notes["distractor_ids"]), q.id
    if syntax == "ttl":
        assert all("is an exact match of" in q.stem for q in questions)


def test_two_definitions_one_text_but_for_case_and_closing_stop_are_never_two_choices(tmp_path):
    """A definition copied to another concept without its full stop (and in lower case) reads as one
    text: the definitions probe never offers both in one question (was: both, seen at a glance)."""
    terms = [("worker", "Someone employed to do a job for pay."),
             ("sommelier", "A waiter who advises guests on wine and serves it."),
             ("wine waiter", "a waiter who advises guests on wine and serves it"),
             ("chef", "Someone who plans and leads the cooking of a kitchen."),
             ("baker", "Someone who makes bread and cakes in an oven."), ("porter", "Someone who carries luggage."),
             ("cashier", "Someone who takes payments at a till."), ("cleaner", "Someone who keeps rooms tidy."),
             ("driver", "Someone who steers a bus or a lorry.")]
    path = tmp_path / "jobs.obo"
    path.write_text("format-version: 1.2\nontology: jb\n\n" + "".join(
        f'[Term]\nid: JB:{i}\nname: {name}\ndef: "{text}" []\n' + ("is_a: JB:0\n" if i else "") + "\n"
        for i, (name, text) in enumerate(terms)))
    graph = load_source(path)
    both = 0
    for seed in range(6):
        builder = OntologyQABuilder(graph, {"min_answer_pool": 0})
        for question in builder.build("definitions", random.Random(seed)):
            keys = [choice.lower().rstrip(". ") for choice in question.choices]
            assert len(set(keys)) == len(keys), question.choices
            both += "a waiter who advises guests on wine and serves it" in keys
    assert both      # the copied definition is offered (once per question)


def test_a_small_relations_random_distractors_come_from_its_answers_branch_of_the_hierarchy(tmp_path):
    """A relation with fewer answers than min_answer_pool (part_of among workplaces, in a taxonomy of
    occupations, skills and workplaces): random distractors from the answers' branch (workplaces), not
    from every concept (was: skills and occupations beside the wholes, ruled out at sight by a
    choice-only model); the summary says so."""
    branches = {"occupation": ["nurse", "cook", "waiter", "porter", "cashier", "surgeon"],
                "skill": ["cooking", "nursing", "serving wine", "lifting", "counting", "cutting"],
                "workplace": ["hospital", "ward", "theatre", "restaurant", "kitchen", "bar", "hotel", "lobby", "school",
                              "classroom", "library", "reading room", "station", "platform", "airport", "gate",
                              "shop", "till", "office", "desk", "factory", "workshop"]}
    parts = {"ward": "hospital", "theatre": "hospital", "kitchen": "restaurant", "bar": "hotel", "lobby": "hotel"}
    ids, text, number = {}, "format-version: 1.2\nontology: es\n\n[Typedef]\nid: part_of\nis_transitive: true\n\n", 0
    for head, members in branches.items():
        for name in [head, *members]:
            ids[name] = f"ES:{number}"
            number += 1
    for head, members in branches.items():
        for name in [head, *members]:
            text += (f'[Term]\nid: {ids[name]}\nname: {name}\ndef: "The {name} as the staff of a business know it." []\n'
                     + (f"is_a: {ids[head]}\n" if name != head else "")
                     + (f"relationship: part_of {ids[parts[name]]}\n" if name in parts else "") + "\n")
    path = tmp_path / "esco.obo"
    path.write_text(text)
    graph = load_source(path, relations=["part_of"])
    builder = OntologyQABuilder(graph, {"num_choices": 3}, relation="part_of", probe_name="part_of")
    questions = builder.build("part_of", random.Random(1))
    assert questions and builder.summary.get("random_distractors_from_answer_branches") == 1
    assert "random_distractors_from_all_concepts" not in builder.summary
    workplaces = {ids[name] for name in ["workplace", *branches["workplace"]]}
    randoms = {other for q in questions for other in q.notes["random_distractors"]}
    assert randoms and randoms <= workplaces, sorted(randoms - workplaces)


def test_a_kind_named_inside_its_grouping_class_is_counted_in_the_hyponymy_summary(tmp_path):
    """HPO's *Nausea and vomiting* over *Nausea*: "A more specific kind of 'nausea and vomiting' is"
    answered *nausea* names the answer in the term; kept, and counted (was: in no count)."""
    rows = [("S:0", "sign", "", ""), ("S:1", "nausea and vomiting", "", ""), ("S:2", "nausea", "", ""),
            ("S:3", "vomiting", "", ""), ("S:4", "fever", "", ""), ("S:5", "rash", "", ""), ("S:6", "cough", "", ""),
            ("S:7", "itch", "", ""), ("S:8", "pallor", "", ""), ("S:9", "tremor", "", "")]
    edges = [("S:1", "S:0"), ("S:2", "S:1"), ("S:3", "S:1")] + [(f"S:{i}", "S:0") for i in range(4, 10)]
    graph = tsv_taxonomy(tmp_path / "signs", rows, edges)
    builder, questions = build(graph, "hyponymy", min_answer_pool=0)
    grouped = [q for q in questions if q.notes["concept_id"] == "S:1"]
    # counted once per question made before its distractor families (as the other counts are)
    assert grouped and builder.summary["answer_named_in_grouping_term"] == len({(q.stem, q.notes["answer_id"]) for q in grouped})


def test_a_bracket_qualified_name_is_masked_where_a_definition_writes_it_bare(tmp_path):
    """A thesaurus's *bow (music)*: a definition writes "a bow", which names the answer (or the term) as well."""
    rows = [("M:1", "instrument", "", "An object made or used to make musical sounds."),
            ("M:2", "accessory", "", "A thing used with an instrument to play or care for it."),
            ("M:3", "bow (music)", "", "A bow is a stick strung with horsehair, drawn over strings."),
            ("M:4", "violin", "", "A small chordophone whose strings are set vibrating by a bow."),
            ("M:5", "viola", "", "A chordophone a little larger than the violin, played with a bow."),
            ("M:6", "cello", "", "A large chordophone held between the knees and played with a bow."),
            ("M:7", "guitar", "", "A chordophone with frets whose strings are plucked by hand."),
            ("M:8", "harp", "", "A chordophone with strings in an open frame, plucked with the fingers."),
            ("M:9", "rosin", "", "A resin rubbed on the hair so that it grips the strings."),
            ("M:10", "mute (music)", "", "A clip fitted to a bridge to soften the tone of the strings."),
            ("M:11", "tuner", "", "A device that shows how far a note is from its pitch."),
            ("M:12", "case", "", "A hard box in which a chordophone is carried.")]
    edges = [(f"M:{i}", "M:1") for i in (4, 5, 6, 7, 8)] + [(f"M:{i}", "M:2") for i in (3, 9, 10, 11, 12)]
    edges += [("M:4", "used with", "M:3"), ("M:5", "used with", "M:3"), ("M:6", "used with", "M:3"),
              ("M:9", "used with", "M:3")]
    graph = tsv_taxonomy(tmp_path / "music", rows, edges, relations=["used with"])
    _, questions = build(graph, "used_with", relation=resolved(graph, "used with"),
                         max_perturbations=None)
    with_context = [q for q in questions
                    if q.concept in ("M:4", "M:5", "M:6") and not q.notes["template"].startswith("none+")]
    assert with_context
    for question in with_context:
        assert not re.search(r"\bbow\b", question.stem.replace("'bow (music)'", "")), question.stem
        assert question.notes["leakage"] == "masked"
    _, definitions = build(graph, "definitions")
    own = [q for q in definitions if q.concept == "M:3"]
    assert own and all(q.choices[q.answer_index].startswith("A(n) ___ is a stick") for q in own)


@pytest.mark.parametrize("syntax", ["obo", "ttl"])
def test_a_relation_s_range_keeps_its_kinds_among_the_wrong_answers(tmp_path, syntax):
    """has_symptom's ``range: sign or symptom`` (``rdfs:range``): *influenza* has some sign or symptom,
    so neither that class nor its ancestor is a wrong answer, but every symptom but the disease's own
    is one (was: the range's kinds were all kept out, and the probe had no question)."""
    symptoms = ["fever", "cough", "rash", "nausea", "headache", "fatigue", "chills", "jaundice"]
    diseases = {"influenza": ["fever", "cough"], "measles": ["rash", "fever"], "hepatitis": ["jaundice", "nausea"],
                "migraine": ["headache", "nausea"], "anemia": ["fatigue"], "malaria": ["chills", "fever"]}
    terms = [("SX:1", "entity", None), ("SX:2", "sign or symptom", "SX:1"), ("SX:3", "disease", "SX:1")]
    terms += [(f"SX:{10 + i}", name, "SX:2") for i, name in enumerate(symptoms)]
    terms += [(f"SX:{30 + i}", name, "SX:3") for i, name in enumerate(diseases)]
    ids = {name: i for i, name, _ in terms}
    links = [(ids[d], ids[s]) for d, found in diseases.items() for s in found]
    if syntax == "obo":
        path = tmp_path / "sx.obo"
        path.write_text("format-version: 1.4\nontology: sx\n\n" + "".join(
            f"[Term]\nid: {i}\nname: {name}\n" + (f"is_a: {parent}\n" if parent else "")
            + "".join(f"relationship: has_symptom {o}\n" for s_, o in links if s_ == i) + "\n" for i, name, parent in terms)
            + "[Typedef]\nid: has_symptom\nname: has symptom\nrange: SX:2\n")
    else:
        def iri(i):
            return f"obo:SX_{i.split(':')[1]}"
        prop = "<http://purl.obolibrary.org/obo/sx#has_symptom>"
        path = tmp_path / "sx.ttl"
        path.write_text("@prefix obo: <http://purl.obolibrary.org/obo/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
                        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                        "@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\n"
                        "<http://purl.obolibrary.org/obo/sx.owl> a owl:Ontology .\n"
                        f'{prop} a owl:ObjectProperty ; rdfs:label "has symptom" ; oboInOwl:shorthand "has_symptom" ;'
                        " rdfs:range obo:SX_2 .\n"
                        + "".join(f'{iri(i)} a owl:Class ; rdfs:label "{name}"' + (f" ; rdfs:subClassOf {iri(p)}" if p else "")
                                  + "".join(f" ; rdfs:subClassOf [ a owl:Restriction ; owl:onProperty {prop} ;"
                                            f" owl:someValuesFrom {iri(o)} ]" for s_, o in links if s_ == i) + " .\n"
                                  for i, name, p in terms))
    graph = load_source(path, relations=["has_symptom"])
    relation = resolved(graph, "has_symptom")
    assert "SX:2" in graph.implied_related("SX:30", relation)        # the range: some sign or symptom
    builder, questions = build(graph, "has_symptom", relation=relation)
    assert questions
    own = {}
    for subject, obj in links:
        own.setdefault(subject, set()).add(obj)
    offered = set()
    for question in questions:
        distractors = set(question.notes["distractor_ids"])
        assert question.notes["answer_id"] in own[question.concept], question.id
        assert not distractors & (own[question.concept] | {"SX:1", "SX:2"}), question.id
        offered |= distractors
    assert offered & {ids[s] for s in symptoms}      # other symptoms: wrong answers


def test_a_chinese_thesaurus_has_definitions_asked_and_the_answer_masked_in_them(tmp_path):
    """--lang zh: a definition in Chinese has content words (each character; was: none, so no
    definition was ever asked nor shown), and one that names the answer inside its run of letters
    (*森林* in 一种位于热带的森林) is masked and counted."""
    from mcqa_probes.knowledge.ontology import Vocabulary

    concepts = [("c", "生物群系", None, "地球上具有相似气候和生物的大区域。"),
                ("f", "森林", "c", "被树木密集覆盖的生物群系。"),
                ("r", "热带雨林", "f", "一种位于热带的森林，全年多雨。"),
                ("t", "针叶林", "f", "以松树和云杉为主的寒冷地区植被。"),
                ("d", "沙漠", "c", "降水极少、植被稀疏的干旱地区。"),
                ("g", "草原", "c", "以草本植物为主、树木很少的平坦地区。"),
                ("w", "湿地", "c", "土壤长期被水浸泡的低洼地区。"),
                ("u", "苔原", "c", "寒冷而没有树木、地下常年冻结的平原。")]
    lines = ["@prefix skos: <http://www.w3.org/2004/02/skos/core#> .", "@prefix k: <http://example.org/k/> ."]
    for key, label, parent, definition in concepts:
        lines.append(f'k:{key} a skos:Concept ; skos:prefLabel "{label}"@zh ; skos:definition "{definition}"@zh'
                     + (f" ; skos:broader k:{parent}" if parent else "") + " .")
    path = tmp_path / "biomes.ttl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    graph = load_source(path, vocabulary=Vocabulary(lang="zh"))
    _, definitions = build(graph, "definitions")
    assert {q.concept for q in definitions} == {f"k:{key}" for key, *_ in concepts}
    builder, hypernymy = build(graph, "hypernymy", min_answer_depth={"n": 0})
    asked = [q for q in hypernymy if q.concept == "k:r" and q.notes["answer_id"] == "k:f" and q.notes["context"]]
    assert asked and all(q.notes["context"] == "一种位于热带的___，全年多雨。" for q in asked)
    assert builder.summary["leakage_masked"] >= 1


def test_french_synonymy_asks_no_name_in_the_other_number_nor_one_written_without_its_ligature(tmp_path):
    """*peintures* for *peinture*, *chefs-d'œuvre* for *chef-d'œuvre* (the other number) and *trompe
    l'oeil* for *trompe-l'œil* (the ligature written out) are respellings in French, never asked as
    another name; *tableau*, *illusion d'optique* and *œuvre maîtresse* are."""
    from mcqa_probes.knowledge.ontology import Vocabulary

    rows = [("A:0", "art", "", ""), ("A:1", "peinture", "peintures|tableau", ""),
            ("A:2", "trompe-l'œil", "trompe l'oeil|illusion d'optique", ""),
            ("A:3", "chef-d'œuvre", "chefs-d'œuvre|œuvre maîtresse", ""),
            ("A:4", "sculpture", "statuaire", ""), ("A:5", "gravure", "estampe", ""), ("A:6", "dessin", "croquis", ""),
            ("A:7", "fresque", "peinture murale", ""), ("A:8", "vitrail", "verrière", "")]
    edges = [(r[0], "A:0") for r in rows[1:]]
    graph = tsv_taxonomy(tmp_path / "art_tsv", rows, edges, vocabulary=Vocabulary(lang="fr"))
    _, questions = build(graph, "synonymy")
    asked = {(q.concept, q.choices[q.answer_index]) for q in questions}
    assert {answer for concept, answer in asked if concept in ("A:1", "A:2", "A:3")} == {
        "tableau", "illusion d'optique", "œuvre maîtresse"}
    for question in questions:
        assert not {"peintures", "trompe l'oeil", "chefs-d'œuvre"} & set(question.choices), question.choices


def test_german_synonymy_asks_no_plural_nor_ss_for_sz_and_no_choice_is_one_of_them_respelled(tmp_path):
    """*Tomaten* for *Tomate* (the other number) and *Weisskohl* for *Weißkohl* are respellings in German:
    never asked as another name; a concept with *Weisskohl* as a synonym shares a name with the one
    with *Weißkohl* (was: both offered in one question, two right answers)."""
    from mcqa_probes.knowledge.ontology import Vocabulary

    rows = [("G:0", "Gemüse", "", ""), ("G:1", "Tomate", "Tomaten|Paradeiser", ""), ("G:2", "Kohl", "Weißkohl|Kraut", ""),
            ("G:3", "Steckrübe", "Weisskohl|Kohlrübe", ""), ("G:4", "Zwiebel", "Zwiebeln|Bolle", ""),
            ("G:5", "Kartoffel", "Erdapfel", ""), ("G:6", "Möhre", "Karotte", ""), ("G:7", "Lauch", "Porree", ""),
            ("G:8", "Erbse", "Schote", ""), ("G:9", "Bohne", "Fisole", "")]
    graph = tsv_taxonomy(tmp_path / "gemuese_tsv", rows, [(r[0], "G:0") for r in rows[1:]], vocabulary=Vocabulary(lang="de"))
    builder, questions = build(graph, "synonymy")
    asked = {(q.concept, q.choices[q.answer_index]) for q in questions}
    assert {answer for concept, answer in asked if concept in ("G:1", "G:4")} == {"Paradeiser", "Bolle"}
    assert "G:3" in builder.namesakes("G:2")
    for question in questions:
        assert not {"Tomaten", "Zwiebeln"} & set(question.choices), question.choices
        assert not {"Weißkohl", "Weisskohl"} <= set(question.choices), question.choices


def test_a_relation_with_a_range_and_an_inverse_keeps_the_ranges_kinds_as_wrong_answers(tmp_path):
    """hasIngredient ``rdfs:range`` Ingredient and ``owl:inverseOf`` isIngredientOf: "some ingredient",
    read the other way, made every ingredient an ingredient of every dish, and the probe had no
    question ("no question with 4 valid distractors"); with the range alone it had its questions."""
    # more than min_answer_pool (20) of them: the random distractors are drawn from the ingredients
    ingredients = ["apple", "banana", "carrot", "daikon", "endive", "fennel", "garlic", "hazelnut", "iceberg",
                   "jalapeno", "kiwi", "lemon", "mango", "nutmeg", "olive", "parsley", "quince", "radish", "spinach",
                   "turnip", "ugli", "vanilla", "walnut", "yam"]
    lines = ["@prefix ex: <http://example.org/m#> .", "@prefix owl: <http://www.w3.org/2002/07/owl#> .",
             "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
             'ex:hasIngredient a owl:ObjectProperty ; rdfs:label "has ingredient" ; rdfs:range ex:Ingredient ;'
             " owl:inverseOf ex:isIngredientOf .", "ex:isIngredientOf a owl:ObjectProperty .",
             'ex:Food a owl:Class ; rdfs:label "food" .',
             'ex:Ingredient a owl:Class ; rdfs:label "ingredient" ; rdfs:subClassOf ex:Food .',
             'ex:Dish a owl:Class ; rdfs:label "dish" ; rdfs:subClassOf ex:Food .']
    lines += [f'ex:{name} a owl:Class ; rdfs:label "{name}" ; rdfs:subClassOf ex:Ingredient .' for name in ingredients]
    dishes = {"curry": "garlic", "salad": "endive", "pie": "apple", "soup": "carrot", "tart": "lemon", "stew": "fennel"}
    lines += [f'ex:{dish} a owl:Class ; rdfs:label "{dish}" ; rdfs:subClassOf ex:Dish, [ a owl:Restriction ;'
              f" owl:onProperty ex:hasIngredient ; owl:someValuesFrom ex:{item} ] ." for dish, item in dishes.items()]
    path = tmp_path / "food.ttl"
    path.write_text("\n".join(lines) + "\n")
    graph = load_source(path, relations=["ex:hasIngredient"])
    _, questions = build(graph, "ex_hasIngredient", relation="ex:hasIngredient")
    assert len(questions) == len(dishes)
    for question in questions:
        assert question.choices[question.answer_index] == dishes[question.notes["term"]]
        assert not {"ingredient", "food"} & set(question.choices)        # the range and above: right answers

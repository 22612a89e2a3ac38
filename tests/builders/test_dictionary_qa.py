"""DictionaryQA: distractor selection, artifact controls, one correct answer, determinism."""
import random
from pathlib import Path

import pytest

from mcqa_probes.builders.dictionary_qa import (
    DEFAULT_SETTINGS, TEMPLATES, artifact_audit, build_dictionary_questions, normalise_choice)
from mcqa_probes.knowledge.gcide import GcideDictionary, GcideSense, load_gcide

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "gcide"


def sense(sid, definition, usages=(), quotes=()):
    word, pos, number = sid.rsplit(".", 2)
    return GcideSense(id=sid, word=word, headword=word, lemmas=(word,), pos=pos, pos_label=pos + ".",
                      sense_number=int(number), definition=definition, usages=tuple(usages), quotes=tuple(quotes))


def hand_dictionary():
    senses = [
        sense("bank.n.1", "Sloping land beside a body of water", ["the steep bank of a river"]),
        sense("bank.n.2", "An institution that keeps and lends money", ["a bank in the high street"]),
        sense("bank.n.3", "A long ridge of drifted snow"),                         # no example at all
        sense("bank.n.4", "A row of keys on an organ", quotes=["He played the lower bank."]),  # quote only
        sense("bank.v.5", "To bank the fire down"),                                # contains the word
        sense("crane.n.1", "A tall wading bird with long legs", ["a crane stood in the marsh"]),
        sense("crane.n.2", "A machine for lifting heavy weights", ["the crane lifted steel beams"]),
        sense("dull.a.1", "Lacking sharpness of edge or point", ["a dull knife"]),
        sense("dull.a.2", "Slow to understand; stupid", ["a dull pupil"]),
        sense("eager.a.1", "Keenly desirous; impatient", ["eager for the fight"]),
        sense("fern.n.1", "A flowerless plant with feathery fronds", ["a fern grew by the wall"]),
        sense("gaunt.a.1", "Very thin, especially from hunger or age", ["a gaunt old horse"]),
        sense("hazy.a.1", "Thick with mist or smoke; dim", ["a hazy morning"]),
        sense("idle.a.1", "Not working or employed; doing nothing", ["idle hands"]),
        sense("quiet.a.1", "Having no sound; silent", []),                          # never a distractor
        sense("rough.a.1", "Having an uneven surface", []),                         # never a distractor
    ]
    return GcideDictionary(source="gcide", version="test", senses=senses)


ALL = {"min_word_senses": 1, "max_questions_per_word": None}


def test_other_senses_first_then_random_with_examples_only():
    dictionary = hand_dictionary()
    questions = build_dictionary_questions(dictionary, random.Random(3), ALL)
    by_gold = {q.notes["gold_synset"]: q for q in questions}
    # bank.n.1 / n.2: the other bank sense with a usage is a distractor; bank.n.3 (no example), bank.n.4
    # (quotation only) and bank.v.5 (mentions "bank") are not; 3 random definitions fill up to 5
    q = by_gold["bank.n.1"]
    assert q.notes["sense_choices"] == 2
    assert set(q.notes["distractor_synsets"]) >= {"bank.n.1", "bank.n.2"}
    randoms = q.notes["random_distractors"]
    assert len(randoms) == 3 and not any(r.startswith("bank.") for r in randoms)
    assert not {"bank.n.3", "bank.n.4", "bank.v.5"} & set(q.notes["distractor_synsets"])
    assert q.choices[q.answer_index] == "Sloping land beside a body of water"
    for q in questions:   # senses without usage examples never appear anywhere
        assert not {"quiet.a.1", "rough.a.1", "bank.n.3", "bank.n.4"} & set(q.notes["distractor_synsets"])
    # golds: every sense with a usage containing the word and a usable definition (bank.v.5 contains "bank")
    assert sorted(by_gold) == ["bank.n.1", "bank.n.2", "crane.n.1", "crane.n.2", "dull.a.1", "dull.a.2",
                               "eager.a.1", "fern.n.1", "gaunt.a.1", "hazy.a.1", "idle.a.1"]
    assert by_gold["eager.a.1"].notes["sense_choices"] == 1


def test_distractor_example_control_can_be_switched_off():
    dictionary = hand_dictionary()
    settings = dict(ALL, distractor_example="any")
    q = {q.notes["gold_synset"]: q for q in build_dictionary_questions(dictionary, random.Random(3), settings)}
    assert q["bank.n.1"].notes["sense_choices"] == 3          # + the quotation-only bank.n.4
    settings = dict(ALL, distractor_example="none")
    q = {q.notes["gold_synset"]: q for q in build_dictionary_questions(dictionary, random.Random(3), settings)}
    assert q["bank.n.1"].notes["sense_choices"] == 4          # + bank.n.3 too (bank.v.5 names the word)


def test_question_shape_and_notes():
    questions = build_dictionary_questions(hand_dictionary(), random.Random(0), ALL)
    for q in questions:
        assert q.probe == "dictionary"
        assert len(q.choices) == 5 and len(set(c.lower() for c in q.choices)) == 5
        assert q.concept == q.cluster_key == q.notes["word"] == q.notes["gold_synset"].split(".")[0]
        assert q.notes["distractor_synsets"][q.answer_index] == q.notes["gold_synset"]
        assert q.notes["distractor_synsets"].count(q.notes["gold_synset"]) == 1     # one correct answer
        assert (q.notes["hops"], q.notes["distractor_hops"], q.notes["chain"], q.notes["distractor_chain"],
                q.notes["other_distractors"]) == (0, 0, "", "", [])
        assert q.notes["template"] in TEMPLATES and (q.notes["source"], q.notes["version"]) == ("gcide", "test")
        assert f"'{q.notes['word']}'" in q.stem and f"'{q.notes['example']}'" in q.stem
        for choice in q.choices:
            assert choice == normalise_choice(choice) and not choice.endswith(".") and choice[0].isupper()
    line = questions[0].to_json(int_labels=True)
    assert line["answerKey"] == questions[0].answer_index and line["question"]["choices"][0]["label"] == 0


def test_one_question_per_word_and_min_senses():
    dictionary = hand_dictionary()
    questions = build_dictionary_questions(dictionary, random.Random(1), {})   # defaults
    words = [q.notes["word"] for q in questions]
    assert sorted(words) == ["bank", "crane", "dull"]          # words with >= 2 senses, one question each
    assert DEFAULT_SETTINGS["max_questions_per_word"] == 1 and DEFAULT_SETTINGS["min_word_senses"] == 2


def test_gold_sharing_words_with_its_example_is_dropped():
    senses = hand_dictionary().senses + [sense("jolt.n.1", "A sudden jerk of a cart", ["the jolt of the cart"]),
                                          sense("jolt.n.2", "A shock to the mind", ["a jolt of surprise"])]
    dictionary = GcideDictionary(source="gcide", version="test", senses=senses)
    golds = {q.notes["gold_synset"] for q in build_dictionary_questions(dictionary, random.Random(0), ALL)}
    assert "jolt.n.1" not in golds and "jolt.n.2" in golds
    relaxed = dict(ALL, max_gold_example_overlap=5)
    golds = {q.notes["gold_synset"] for q in build_dictionary_questions(dictionary, random.Random(0), relaxed)}
    assert "jolt.n.1" in golds


def test_unknown_setting_is_an_error():
    with pytest.raises(ValueError, match="unknown DictionaryQA setting"):
        build_dictionary_questions(hand_dictionary(), random.Random(0), {"num_choice": 5})


def test_fixture_build_is_deterministic_and_sensible():
    gcide = load_gcide(str(FIXTURE))
    first = [q.to_json() for q in build_dictionary_questions(gcide, random.Random(7), ALL)]
    second = [q.to_json() for q in build_dictionary_questions(gcide, random.Random(7), ALL)]
    assert first == second and len(first) > 5
    other = [q.to_json() for q in build_dictionary_questions(gcide, random.Random(8), ALL)]
    assert other != first
    by_gold = {q["notes"]["gold_synset"]: q for q in first}
    # old.a.10 has no example: never a gold, never a distractor
    assert "old.a.10" not in by_gold
    assert all("old.a.10" not in q["notes"]["distractor_synsets"] for q in first)
    # offensive.a.3 "an offensive war; offensive weapons": the other senses with usages are offensive.a.1/a.2
    q = by_gold["offensive.a.3"]
    assert q["notes"]["sense_choices"] == 3
    assert {"offensive.a.1", "offensive.a.2", "offensive.a.3"} <= set(q["notes"]["distractor_synsets"])
    assert "offensive.n.4" not in q["notes"]["distractor_synsets"]          # no example
    gold_text = q["question"]["choices"][int(q["answerKey"])]["text"]
    assert gold_text == "Making the first attack; assailant; aggressive; hence, used in attacking"


def test_artifact_audit_reports_chance_level_heuristics():
    questions = build_dictionary_questions(hand_dictionary(), random.Random(0), ALL)
    audit = artifact_audit(questions)
    assert audit["questions"] == len(questions) and audit["chance"] == pytest.approx(0.2)
    assert audit["word_in_choice"] == 0.0 and audit["gold_final_period"] == 0.0
    for key in ("longest_is_gold", "shortest_is_gold", "max_stem_overlap_is_gold", "choice_only_unigram"):
        assert 0.0 <= audit[key] <= 1.0

import pytest
from allennlp.data import DatasetReader

import mcqa_probes  # noqa: F401
from mcqa_probes.data.dataset_readers.mcqa import McqaReader
from tests.conftest import DATA


def test_default_reader_reads_every_fixture_format_offline():
    reader = DatasetReader.by_name("mcqa")()
    for name, count, choices in [("wordnetqa_hypernymy.jsonl", 12, 5), ("dictionary_qa.jsonl", 8, 5),
                                 ("olmpics_age.jsonl", 6, 2), ("commonsenseqa.jsonl", 4, 5)]:
        instances = list(reader.read(DATA / name))
        assert len(instances) == count
        assert all(len(i["alternatives"]) == choices for i in instances)


def test_pair_encoding_bert(tiny_bert):
    reader = McqaReader(transformer_model_name=tiny_bert)
    instance = reader.text_to_instance("a sparrow is a kind of", ["bird", "fish"], answer_index=0)
    tokens = [t.text for t in instance["alternatives"][0].tokens]
    assert tokens == ["[CLS]", "a", "sparrow", "is", "a", "kind", "of", "[SEP]", "bird", "[SEP]"]
    type_ids = [t.type_id for t in instance["alternatives"][0].tokens]
    assert type_ids == [0] * 8 + [1, 1]
    assert instance["label"].sequence_index == 0


def test_pair_encoding_roberta(tiny_roberta):
    reader = McqaReader(transformer_model_name=tiny_roberta)
    instance = reader.text_to_instance("a sparrow is a kind of", ["bird", "fish"])
    tokens = [t.text for t in instance["alternatives"][1].tokens]
    assert tokens[0] == "<s>" and tokens[-1] == "</s>" and tokens.count("</s>") == 3
    choice = tokens[tokens.index("</s>") + 2 : -1]  # <s> question </s></s> choice </s>
    assert "".join(choice).replace("Ġ", "") == "fish"
    assert "label" not in instance.fields


def test_metadata_keeps_extras_and_gold():
    reader = McqaReader()
    instance = next(iter(reader.read(DATA / "wordnetqa_hypernymy.jsonl")))
    metadata = instance["metadata"].metadata
    assert metadata["notes"]["synset_id"] == 100
    assert metadata["choices"][metadata["answer_index"]].startswith("brass")
    assert instance["label"].sequence_index == metadata["answer_index"]


def test_padding_to_n_choices(tiny_bert):
    reader = McqaReader(transformer_model_name=tiny_bert, pad_choices_to=5)
    instances = list(reader.read(DATA / "science_mixed.jsonl"))
    assert [len(i["alternatives"]) for i in instances] == [5, 5]
    padded = instances[0]["alternatives"][4]
    assert [t.text for t in padded.tokens][-2:] == ["[SEP]", "[SEP]"]  # question + empty answer
    assert instances[0]["metadata"]["num_real_choices"] == 4
    with pytest.raises(ValueError, match="pad_choices_to=3"):
        list(McqaReader(transformer_model_name=tiny_bert, pad_choices_to=3).read(DATA / "science_mixed.jsonl"))


@pytest.mark.parametrize("strategy, expected", [
    ("question_start", ["[CLS]", "c", "d", "e", "[SEP]", "bird", "[SEP]"]),
    ("question_end", ["[CLS]", "a", "b", "c", "[SEP]", "bird", "[SEP]"]),
    ("longest_first", ["[CLS]", "a", "b", "c", "[SEP]", "bird", "[SEP]"]),
])
def test_truncation_is_explicit(tiny_bert, strategy, expected):
    reader = McqaReader(transformer_model_name=tiny_bert, max_length=7, truncation=strategy)
    instance = reader.text_to_instance("a b c d e", ["bird", "fish"])
    assert [t.text for t in instance["alternatives"][0].tokens] == expected
    assert reader.truncated_pairs == 2


def test_choice_end_truncation_and_bad_strategy(tiny_bert):
    reader = McqaReader(transformer_model_name=tiny_bert, max_length=6, truncation="choice_end")
    tokens = [t.text for t in reader.text_to_instance("a b", ["c d e f", "g"])["alternatives"][0].tokens]
    assert tokens == ["[CLS]", "a", "b", "[SEP]", "c", "[SEP]"]
    with pytest.raises(ValueError, match="dataset_reader.truncation"):
        McqaReader(transformer_model_name=tiny_bert, truncation="middle")


def test_hide_question(tiny_bert):
    reader = McqaReader(transformer_model_name=tiny_bert, hide_question=True)
    instance = reader.text_to_instance("a sparrow is a kind of", ["bird", "fish"])
    assert [t.text for t in instance["alternatives"][0].tokens] == ["[CLS]", "bird", "[SEP]"]

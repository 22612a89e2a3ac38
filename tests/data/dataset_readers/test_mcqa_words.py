import pytest
from allennlp.data import DatasetReader

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.data.dataset_readers.mcqa_words import McqaWordsReader
from mcqa_probes.common.io import McqaFormatError
from tests.conftest import DATA


def test_reads_every_fixture_format_as_question_and_choices():
    reader = DatasetReader.by_name("mcqa_words")()
    for name, count, choices in [("wordnetqa_hypernymy.jsonl", 12, 5), ("dictionary_qa.jsonl", 8, 5),
                                 ("olmpics_age.jsonl", 6, 2), ("commonsenseqa.jsonl", 4, 5)]:
        instances = list(reader.read(DATA / name))
        assert len(instances) == count
        assert all(len(i["choices"]) == choices for i in instances)
        assert all(len(i["question"].tokens) > 0 for i in instances)


def test_fields_label_and_metadata_keep_extras():
    instance = list(McqaWordsReader().read(DATA / "wordnetqa_hypernymy.jsonl"))[0]
    assert set(instance.fields) == {"question", "choices", "label", "metadata"}
    metadata = instance["metadata"].metadata
    assert instance["label"].sequence_index == metadata["answer_index"] == 4
    assert metadata["notes"]["gold_synset"] == "trumpet.n.01"
    assert metadata["labels"] == ["0", "1", "2", "3", "4"] and metadata["num_real_choices"] == 5
    tokens = [t.text for t in instance["choices"][4].tokens]
    assert tokens[:4] == ["brass", ",", "defined", "as"]


def test_ragged_choices_and_strings():
    reader = McqaWordsReader()
    instances = list(reader.read(DATA / "science_mixed.jsonl"))
    assert [len(i["choices"]) for i in instances] == [4, 5]
    instance = reader.text_to_instance("A sparrow is a kind of", ["bird", "fish"], answer_index=1)
    assert [t.text for t in instance["question"].tokens] == ["A", "sparrow", "is", "a", "kind", "of"]
    assert instance["label"].sequence_index == 1
    assert "label" not in reader.text_to_instance("q", ["a", "b"]).fields


def test_token_limits_keep_question_end_and_choice_start():
    reader = McqaWordsReader(max_question_tokens=2, max_choice_tokens=1)
    instance = reader.text_to_instance("a sparrow is best described as", ["small bird", "rock"])
    assert [t.text for t in instance["question"].tokens] == ["described", "as"]
    assert [t.text for t in instance["choices"][0].tokens] == ["small"]


def test_errors_name_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"question": "q", "choices": ["a", "b"], "answerKey": "A"}\n{"question": "q"}\n')
    with pytest.raises(McqaFormatError, match="bad.jsonl, line 2"):
        list(McqaWordsReader().read(path))

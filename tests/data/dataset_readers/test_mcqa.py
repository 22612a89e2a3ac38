import logging

import pytest
from allennlp.data import DatasetReader

import mcqa_probes.plugin  # noqa: F401  (registers the components)
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


# ---------------------------------------------------------------- batched path == per-pair reference
import torch  # noqa: E402
from allennlp.data import Vocabulary  # noqa: E402
from allennlp.data.tokenizers import Token  # noqa: E402

from mcqa_probes.data.dataset_readers.mcqa import TRUNCATION_STRATEGIES  # noqa: E402
from mcqa_probes.data.question import as_question, read_questions  # noqa: E402
from mcqa_probes.common.io import McqaFormatError

FIXTURE_FILES = sorted(DATA.glob("*.jsonl"))


def per_pair(reader, path, questions=None):
    """The reader's per-pair reference path (what it did before batching) over a file."""
    questions = questions if questions is not None else read_questions(path, require_answer_key=reader.require_answer_key)
    return [reader._per_pair_instance(question) for question in questions]


def tensors(instance):
    instance.index_fields(Vocabulary())
    return instance.as_tensor_dict(instance.get_padding_lengths())


def assert_same_instances(fast, slow, ignore_metadata=()):
    """Token ids, type ids, masks, labels, Token texts/offsets and metadata all equal."""
    assert len(fast) == len(slow) and fast
    for a, b in zip(fast, slow):
        assert set(a.fields) == set(b.fields)
        assert [[(t.text, t.text_id, t.type_id, t.idx, t.idx_end) for t in f.tokens] for f in a["alternatives"]] == \
               [[(t.text, t.text_id, t.type_id, t.idx, t.idx_end) for t in f.tokens] for f in b["alternatives"]]
        meta_a = {k: v for k, v in a["metadata"].metadata.items() if k not in ignore_metadata}
        meta_b = {k: v for k, v in b["metadata"].metadata.items() if k not in ignore_metadata}
        assert meta_a == meta_b
        ta, tb = tensors(a), tensors(b)
        for key in ("token_ids", "mask", "type_ids"):
            assert torch.equal(ta["alternatives"]["tokens"][key], tb["alternatives"]["tokens"][key]), key
        if "label" in a.fields:
            assert torch.equal(ta["label"], tb["label"])


@pytest.mark.parametrize("model", ["tiny_bert", "tiny_roberta"])
@pytest.mark.parametrize("truncation", TRUNCATION_STRATEGIES)
@pytest.mark.parametrize("max_length, options", [
    (256, {}), (9, {}), (9, {"pad_choices_to": 6}), (9, {"hide_question": True}), (12, {"pad_choices_to": 6}),
])
def test_batched_reading_equals_per_pair_reference(request, model, truncation, max_length, options):
    settings = dict(transformer_model_name=request.getfixturevalue(model), max_length=max_length,
                    truncation=truncation, require_answer_key=False, **options)
    fast, reference = McqaReader(batch_size=5, **settings), McqaReader(**settings)
    assert fast._backend is not None  # the batched path is the one under test
    for path in FIXTURE_FILES:
        assert_same_instances(list(fast.read(path)), per_pair(reference, path))
    assert fast.truncated_pairs == reference.truncated_pairs
    assert (reference.truncated_pairs > 0) == (max_length < 256)  # small max_length: every strategy cuts


def test_batch_size_does_not_change_instances(tiny_bert):
    path = DATA / "dictionary_qa.jsonl"
    expected = per_pair(McqaReader(transformer_model_name=tiny_bert, max_length=10), path)
    for batch_size in (1, 3, 8, 1000):
        assert_same_instances(list(McqaReader(transformer_model_name=tiny_bert, max_length=10, batch_size=batch_size).read(path)),
                              expected)
    with pytest.raises(ValueError, match="dataset_reader.batch_size"):
        McqaReader(transformer_model_name=tiny_bert, batch_size=0)


@pytest.mark.parametrize("model", ["tiny_bert", "tiny_roberta"])
@pytest.mark.parametrize("truncation", TRUNCATION_STRATEGIES)
def test_text_to_instance_odd_texts(request, model, truncation):
    """Literal special tokens, unknown characters, an empty stem, repeated choices."""
    reader = McqaReader(transformer_model_name=request.getfixturevalue(model), max_length=11, truncation=truncation)
    cases = [
        ("the [SEP] bird <s> is a </s> kind of <mask> [MASK] [CLS]", ["bird [SEP]", "<pad> fish", "naïve café 🐦 Über"]),
        ("", ["a long long long long long long answer", "bird"]),
        ("  spaced   out\tstem  ", ["bird", "bird", "BIRD"]),
        ("a b c d e f g h i j k l m n o p", ["x", "a b c d e f g h i j k l m n o p q r"]),
    ]
    for stem, choices in cases:
        fast = reader.text_to_instance(stem, choices, answer_index=1)
        assert_same_instances([fast], [reader._per_pair_instance(as_question(stem, choices, 1))])
    assert reader.truncated_pairs > 0


def test_cut_equals_truncate_for_all_lengths(tiny_bert):
    """The length arithmetic of the batched path against the piece-by-piece truncation of the
    reference path, for every pair of lengths up to 14 pieces."""
    for truncation in TRUNCATION_STRATEGIES:
        for max_length in (6, 7, 9, 12):
            a = McqaReader(transformer_model_name=tiny_bert, max_length=max_length, truncation=truncation)
            b = McqaReader(transformer_model_name=tiny_bert, max_length=max_length, truncation=truncation)
            for lq in range(15):
                for lc in range(15):
                    question = [Token(f"q{i}") for i in range(lq)]
                    choice = [Token(f"c{i}") for i in range(lc)]
                    start, end, choice_end = a._cut(lq, lc)
                    kept_q, kept_c = b._truncate(question, choice)
                    assert (question[start:end], choice[:choice_end]) == (kept_q, kept_c), (truncation, max_length, lq, lc)
            assert a.truncated_pairs == b.truncated_pairs > 0


def test_reading_is_lazy_and_errors_name_file_and_line(tiny_bert, tmp_path):
    lines = (DATA / "wordnetqa_hypernymy.jsonl").read_text().splitlines()[:3] + ["{not json"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    read = []
    with pytest.raises(McqaFormatError, match=r"bad.jsonl, line 4: invalid JSON"):
        for instance in McqaReader(transformer_model_name=tiny_bert, batch_size=2).read(bad):
            read.append(instance)
    assert len(read) == 2  # the first batch came out before line 4 was read
    with pytest.raises(McqaFormatError, match=r"science_mixed.jsonl, line 1: .*pad_choices_to=3"):
        list(McqaReader(transformer_model_name=tiny_bert, pad_choices_to=3).read(DATA / "science_mixed.jsonl"))


def test_slow_tokenizer_reads_pair_by_pair(tiny_bert):
    slow = McqaReader(transformer_model_name=tiny_bert, tokenizer_kwargs={"use_fast": False}, max_length=9)
    fast = McqaReader(transformer_model_name=tiny_bert, max_length=9)
    assert slow._backend is None and fast._backend is not None
    path = DATA / "wordnetqa_hypernymy.jsonl"
    ids = [[[t.text_id for t in f.tokens] for f in i["alternatives"]] for i in slow.read(path)]
    assert ids == [[[t.text_id for t in f.tokens] for f in i["alternatives"]] for i in fast.read(path)]


def test_a_cap_on_the_questions_read_is_said_with_the_file_and_its_size(tiny_bert, caplog):
    """``max_instances`` (TRAIN_MAX / DEV_MAX, kept in a model archive's reader) is said when it cuts a
    file short, so ``allennlp evaluate`` of such an archive says it scores only that many questions."""
    path = DATA / "wordnetqa_hypernymy.jsonl"
    total = sum(1 for line in path.read_text().splitlines() if line.strip())
    with caplog.at_level(logging.WARNING):
        instances = list(McqaReader(transformer_model_name=tiny_bert, max_instances=3).read(path))
    assert len(instances) == 3
    said = [record.getMessage() for record in caplog.records if "reading the first" in record.getMessage()]
    assert said == [f"{path}: reading the first 3 of its {total} questions only (the reader's max_instances: "
                    "TRAIN_MAX / DEV_MAX of the config, kept in a model archive's reader; train without it, or "
                    "evaluate with --overrides '{\"validation_dataset_reader.max_instances\": null}', to score "
                    "the whole file)"]
    caplog.clear()
    with caplog.at_level(logging.WARNING):     # no cap, or one the file does not reach: nothing said
        assert len(list(McqaReader(transformer_model_name=tiny_bert).read(path))) == total
        assert len(list(McqaReader(transformer_model_name=tiny_bert, max_instances=total).read(path))) == total
    assert not [record for record in caplog.records if "reading the first" in record.getMessage()]

import math

import pytest
import torch
from allennlp.commands.evaluate import evaluate_from_archive
from allennlp.commands.train import train_model_from_file
from allennlp.data import Vocabulary
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder
from allennlp.modules.token_embedders import Embedding

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.data.dataset_readers.mcqa_words import McqaWordsReader
from mcqa_probes.models.vec_similarity import VecSimilarity
from tests.conftest import DATA
from tests.models.glove_baseline_case import CONFIGS, tensors, tiny_glove_environment

VECTORS = {"bird": [1.0, 0.0], "fly": [0.0, 1.0], "rock": [1.0, 1.0], "stone": [-1.0, 0.0]}


@pytest.fixture
def hand_made():
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(list(VECTORS), "tokens")
    weight = torch.zeros(vocab.get_vocab_size("tokens"), 2)
    weight[vocab.get_token_index("@@UNKNOWN@@")] = torch.tensor([0.3, -0.2])  # would count if not skipped
    for word, vector in VECTORS.items():
        weight[vocab.get_token_index(word)] = torch.tensor(vector)
    embedder = BasicTextFieldEmbedder({"tokens": Embedding(embedding_dim=2, weight=weight, trainable=False, vocab=vocab)})
    return VecSimilarity(vocab, embedder).eval(), McqaWordsReader()


def test_average_pairwise_cosine_as_computed_by_hand(hand_made):
    model, reader = hand_made
    instance = reader.text_to_instance("Bird fly zzz", ["bird", "rock stone", "zzz"], answer_index=0)
    logits = model(**tensors(model, [instance]))["logits"][0]
    # choice 0: cos(bird,bird)=1, cos(fly,bird)=0            -> 1/2
    # choice 1: 1/sqrt2 - 1 + 1/sqrt2 + 0 over 4 pairs       -> (sqrt2 - 1)/4
    # choice 2: no known word                                 -> 0
    assert logits.tolist() == pytest.approx([0.5, (math.sqrt(2) - 1) / 4, 0.0], abs=1e-6)


def test_unknown_tokens_count_when_asked(hand_made):
    model, reader = hand_made
    model.ignore_unknown = False
    instance = reader.text_to_instance("bird", ["zzz", "bird"], answer_index=1)
    logits = model(**tensors(model, [instance]))["logits"][0]
    assert logits[0].item() == pytest.approx(0.3 / math.sqrt(0.13), abs=1e-6)


def test_no_trainable_parameters_archive_and_allennlp_evaluate(monkeypatch, tmp_path):
    tiny_glove_environment(monkeypatch)
    model = train_model_from_file(CONFIGS / "vec_similarity_glove.jsonnet", tmp_path / "run")
    assert not any(p.requires_grad for p in model.parameters())
    metrics = evaluate_from_archive(tmp_path / "run" / "model.tar.gz", str(DATA / "wordnetqa_hypernymy.jsonl"))
    assert 0.0 <= metrics["accuracy"] <= 1.0
    again = evaluate_from_archive(tmp_path / "run" / "model.tar.gz", str(DATA / "wordnetqa_hypernymy.jsonl"))
    assert again["accuracy"] == metrics["accuracy"]


def test_mean_vectors_and_stopwords_by_hand():
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(list(VECTORS) + ["the"], "tokens")
    weight = torch.zeros(vocab.get_vocab_size("tokens"), 2)
    for word, vector in {**VECTORS, "the": [0.0, -1.0]}.items():
        weight[vocab.get_token_index(word)] = torch.tensor(vector)
    embedder = BasicTextFieldEmbedder({"tokens": Embedding(embedding_dim=2, weight=weight, trainable=False, vocab=vocab)})
    model = VecSimilarity(vocab, embedder, similarity="mean_vectors", ignore_stopwords=True).eval()
    reader = McqaWordsReader()
    instance = reader.text_to_instance("the bird fly", ["rock", "stone the"], answer_index=0)
    logits = model(**tensors(model, [instance]))["logits"][0]
    # question mean (stop word "the" skipped) = (1, 1); rock = (1, 1) -> cos 1; stone = (-1, 0) -> cos -1/sqrt2
    assert logits.tolist() == pytest.approx([1.0, -1 / math.sqrt(2)], abs=1e-6)
    with pytest.raises(ValueError, match="model.similarity"):
        VecSimilarity(vocab, embedder, similarity="max")

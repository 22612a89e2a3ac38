"""The ``vec_similarity`` model: average word-vector cosine similarity, no training."""

import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import TextFieldEmbedder
from allennlp.nn import util

from mcqa_probes.models.choice_scorer_base import ChoiceScorer


@Model.register("vec_similarity")
class VecSimilarity(ChoiceScorer):
    """Question-to-Choice VecSimilarity (Richardson & Sabharwal 2020 §4.1, Table 7 group 1):
    ``α_i = SIM(EMBED(q), EMBED(c_i))``, the average cosine similarity over all pairs of a question
    token and a choice token::

        α_i = 1/(|q'| |c_i'|) Σ_{t ∈ q'} Σ_{u ∈ c_i'} cos(e_t, e_u)

    where q', c_i' are the tokens that have a vector (unknown-word tokens are skipped when
    ``ignore_unknown`` is true; a choice with no known token scores 0). There are no trainable
    parameters: build the archive with the ``no_op`` trainer (``allennlp train
    training_config/vec_similarity_glove.jsonnet -s DIR``, which only saves it), then use
    ``allennlp evaluate DIR/model.tar.gz FILE`` as for any model.

    # Parameters

    text_field_embedder : `TextFieldEmbedder`
        Frozen word vectors (``trainable: false``), e.g. GloVe through ``pretrained_file``.
    ignore_unknown : `bool`, optional (default = `True`)
        Skip tokens mapped to the OOV index (with ``only_include_pretrained_words`` in the
        vocabulary, exactly the words the embedding file lacks).
    namespace : `str`, optional (default = `"tokens"`)
        Vocabulary namespace of the token ids (to find the OOV index).
    ignore_stopwords : `bool`, optional (default = `False`)
        Also skip English function words (spaCy's stop-word list, no model needed) and
        punctuation, so that template words ("which", "the", "of") do not dominate the average.
    similarity : `str`, optional (default = `"pairwise"`)
        ``pairwise``: the average cosine over all (question token, choice token) pairs (above);
        ``mean_vectors``: the cosine between the mean question vector and the mean choice vector.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        ignore_unknown: bool = True,
        namespace: str = "tokens",
        similarity: str = "pairwise",
        ignore_stopwords: bool = False,
        **kwargs,
    ) -> None:
        if similarity not in ("pairwise", "mean_vectors"):
            raise ValueError(f"model.similarity: expected 'pairwise' or 'mean_vectors', got {similarity!r}")
        super().__init__(vocab, text_field_embedder, None, 0.0, None, **kwargs)
        for parameter in self.text_field_embedder.parameters():
            parameter.requires_grad = False
        self.ignore_unknown = ignore_unknown
        self.namespace = namespace
        self.similarity = similarity
        self.ignore_stopwords = ignore_stopwords
        if ignore_stopwords:
            from spacy.lang.en.stop_words import STOP_WORDS

            words = vocab.get_token_to_index_vocabulary(namespace)
            ids = sorted(i for w, i in words.items() if w.lower() in STOP_WORDS or not any(ch.isalnum() for ch in w))
        else:
            ids = []
        self.register_buffer("_stopword_ids", torch.tensor(ids, dtype=torch.long), persistent=False)

    def _token_mask(self, text: TextFieldTensors, num_wrapping_dims: int) -> torch.BoolTensor:
        mask = util.get_text_field_mask(text, num_wrapping_dims=num_wrapping_dims)
        if self.ignore_unknown:
            ids = util.get_token_ids_from_text_field_tensors(text)
            unknown = self.vocab.get_token_index(self.vocab._oov_token, self.namespace)
            mask = mask & (ids != unknown)
        if self.ignore_stopwords and self._stopword_ids.numel():
            ids = util.get_token_ids_from_text_field_tensors(text)
            mask = mask & ~torch.isin(ids, self._stopword_ids)
        return mask

    def score_choices(self, question: TextFieldTensors, choices: TextFieldTensors, choice_mask) -> torch.Tensor:
        question_vectors = torch.nn.functional.normalize(self.text_field_embedder(question), dim=-1)
        choice_vectors = torch.nn.functional.normalize(self.text_field_embedder(choices, num_wrapping_dims=1), dim=-1)
        question_mask = self._token_mask(question, 0).float()  # (B, Lq)
        choice_mask_tokens = self._token_mask(choices, 1).float()  # (B, K, Lc)
        if self.similarity == "mean_vectors":
            question_mean = (question_vectors * question_mask[..., None]).sum(1)  # (B, D)
            choice_mean = (choice_vectors * choice_mask_tokens[..., None]).sum(2)  # (B, K, D)
            cosine = torch.nn.functional.cosine_similarity(question_mean[:, None, :], choice_mean, dim=-1)
            known = choice_mask_tokens.sum(-1) > 0
            return torch.where(known, cosine, torch.zeros_like(cosine))
        # cosine of every (question token, choice token) pair: (B, K, Lq, Lc)
        cosines = torch.einsum("bqd,bkcd->bkqc", question_vectors, choice_vectors)
        pair_mask = question_mask[:, None, :, None] * choice_mask_tokens[:, :, None, :]
        total = (cosines * pair_mask).sum(dim=(-1, -2))
        count = pair_mask.sum(dim=(-1, -2))
        return torch.where(count > 0, total / count.clamp(min=1.0), torch.zeros_like(total))

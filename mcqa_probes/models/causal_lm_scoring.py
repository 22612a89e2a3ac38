"""Causal-LM scoring: the answers to ``loglikelihood(context, continuation)`` requests, in batches.

The interface is lm-evaluation-harness's (``lm_eval.api.model.LM.loglikelihood``): a reader turns a
question into requests, :class:`CausalLmScorer` answers them with ``log P(continuation | context)``
(:class:`Loglikelihood`: the summed log-probability, the number of continuation tokens and whether
greedy decoding would produce the continuation). Neither knows the other's internals.

**Tokenization** (:meth:`CausalLmScorer.encode_pair`) is lm-evaluation-harness 0.4.13's rule
(``LM._encode_pair`` and ``TemplateLM.loglikelihood``): the trailing spaces of the context move to
the front of the continuation; context + continuation is encoded as one text and split at the
length of the context's own encoding (so a continuation keeps its word-initial pieces); an empty
context becomes the prefix token (BOS, else EOS), unless the continuation itself starts with it.
Texts are encoded with the tokenizer's own special tokens (Llama-style tokenizers add BOS, GPT-2's
add nothing; ``add_bos_token`` overrides it), except a text that already starts with the prefix
token's string. A request longer than the model's window keeps its last ``max_length + 1`` tokens
(the context is cut on the left), as lm-evaluation-harness does.

**Speed**, and why the numbers do not change:

* *Shared prefixes, one packed row.* Requests with the same context tokens form a group; a group
  is laid out as a token tree (a trie over ``context + continuation[:-1]``): the context's tokens,
  and any prefix the continuations share, appear ONCE in a row, each continuation's own tokens
  after them. A 4-D attention mask lets every token attend to exactly its ancestors in the tree
  (itself included) and the position ids are the depths, so every token sees the same causal
  history at the same positions as in its own sequence: the log-probabilities are those of scoring
  each request alone (up to float rounding, < 1e-5 in fp32). The question is encoded once for all
  its choices.
* *Only the needed positions reach the output layer.* The transformer body runs on the rows; the
  output layer and the full-vocabulary log-softmax are then evaluated only at the positions that
  predict a continuation token (in chunks), never at every position.
* *Sorted batches.* Rows are sorted by length (longest first, so memory errors come early),
  ``batch_size`` rows per forward pass, and the answers are put back in request order; identical
  requests are computed once. Every answer depends only on its own row, so the results do not
  depend on the batch size.
* ``precision``: fp32, or bf16 / fp16 autocast on the model's device (log-softmax in fp32).
  ``device_map="auto"`` (through :func:`~mcqa_probes.models.causal_lm_loading.load_causal_lm`)
  spreads a large model over several GPUs.

**Fine-tuning.** :meth:`CausalLmScorer.loglikelihood_tensors` is the differentiable twin of
``loglikelihood``: the same tokenization, rows, batches, shared prefix and output-layer positions
(``_batches`` and ``_row_logprobs`` are shared), run with gradients; only the last step differs (each
request's token log-probabilities summed as tensors instead of as Python floats), so both give the
same numbers. The float path is unchanged: ``torch.no_grad`` and ``.tolist()``.

Two checks run once when a scorer is built, so that an architecture that does not fit these
shortcuts is still scored exactly: (1) the output layer applied to the body's last hidden states
must reproduce the model's own logits (models with logit soft-capping or scaling do not: they
are scored from the model's full logits, gathered); (2) a packed row must give the same
log-probabilities as the requests run one by one (models that ignore custom 4-D masks, e.g. with
ALiBi or flash attention, do not: they are scored one request per row, still only at the
continuation positions). ``strategy`` = ``packed`` / ``plain`` skips the second check.
"""
import logging
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import torch
from transformers import DynamicCache

from mcqa_probes.common.device import autocast, check_precision, torch_device
from mcqa_probes.models.causal_lm_loading import load_causal_lm

logger = logging.getLogger(__name__)

STRATEGIES = ("auto", "packed", "plain")
#: lm-evaluation-harness's window when neither the config nor the tokenizer gives one
DEFAULT_MAX_LENGTH = 2048
#: a packed row may grow to this many times ``max_row_tokens`` with requests that share most tokens
SHARED_ROW_FACTOR = 4


class Loglikelihood(NamedTuple):
    """The answer to one request: ``log P(continuation | context)`` summed over its ``tokens``
    continuation tokens, and whether greedy decoding would produce the continuation."""

    logprob: float
    tokens: int
    greedy: bool


class ScoringError(ValueError):
    """A request that cannot be scored (an empty continuation, a continuation longer than the window)."""


def resolve_max_length(config: Any, tokenizer: Any, default: int = DEFAULT_MAX_LENGTH) -> int:
    """The model's window as lm-evaluation-harness finds it: the config's ``n_positions`` /
    ``max_position_embeddings`` / ``n_ctx``, else the tokenizer's ``model_max_length`` when it is
    a real value, else ``default``."""
    for attribute in ("n_positions", "max_position_embeddings", "n_ctx"):
        value = getattr(config, attribute, None)
        if value:
            return int(value)
    length = getattr(tokenizer, "model_max_length", None)
    if length and length < 1_000_000_000:
        return int(length)
    return default


@dataclass
class _Row:
    """One packed row: a token tree over the inputs of some requests of one context."""

    tokens: List[int]
    depths: List[int]
    parents: List[int]
    # per request: (request index, predicting node of each continuation token, the tokens)
    targets: List[Tuple[int, List[int], List[int]]]
    #: the shortest context among the row's requests; the first request's tokens are the row's first
    #: nodes, a chain, so no continuation is predicted before node ``context_length - 1``
    context_length: int = 0

    def __len__(self) -> int:
        return len(self.tokens)


class _TreeBuilder:
    """Adds sequences to a trie of tokens; nodes are created in order, so a parent precedes its children."""

    def __init__(self):
        self.row = _Row([], [], [], [])
        self.children: List[Dict[int, int]] = []
        self.roots: Dict[int, int] = {}
        self.context: Tuple[int, ...] = ()

    def size_after(self, sequence: Sequence[int]) -> int:
        """The row's length once ``sequence`` is added (nodes that exist are shared)."""
        count, children = 0, self.roots
        for position, token in enumerate(sequence):
            node = children.get(token)
            if node is None:
                return len(self.row) + len(sequence) - position
            children, count = self.children[node], count + 1
        return len(self.row)

    def add(self, sequence: Sequence[int]) -> List[int]:
        """The node of each token of ``sequence`` (created where missing)."""
        nodes, children, parent = [], self.roots, -1
        for depth, token in enumerate(sequence):
            node = children.get(token)
            if node is None:
                node = len(self.row.tokens)
                children[token] = node
                self.row.tokens.append(token)
                self.row.depths.append(depth)
                self.row.parents.append(parent)
                self.children.append({})
            nodes.append(node)
            children, parent = self.children[node], node
        return nodes


def _unique_requests(requests: Iterable[Tuple[str, str]]) -> Tuple[List[Tuple[str, str]], Dict[Tuple[str, str], int]]:
    """The requests as string pairs, and each distinct one's index (identical requests are computed once)."""
    requests = [(str(context), str(continuation)) for context, continuation in requests]
    unique: Dict[Tuple[str, str], int] = {}
    for request in requests:
        unique.setdefault(request, len(unique))
    return requests, unique


class CausalLmScorer:
    """Answers ``loglikelihood(context, continuation)`` requests with a HuggingFace causal LM.

    # Parameters

    model : `PreTrainedModel`
        An ``AutoModelForCausalLM`` (eval mode is set here).
    tokenizer : `PreTrainedTokenizerBase`
    batch_size : `int`, optional (default = `32`)
        Packed rows (about one question with all its choices each) per forward pass.
    precision : `str`, optional (default = `"fp32"`)
        ``fp32``, ``bf16`` or ``fp16`` (autocast on the model's device; log-softmax in fp32).
    max_length : `int`, optional (default = `None`)
        The window; by default the model's (:func:`resolve_max_length`).
    add_bos_token : `bool`, optional (default = `None`)
        Force the tokenizer to add (or not) its special tokens; ``None`` keeps its own behaviour
        (lm-evaluation-harness's ``add_bos_token``).
    strategy : `str`, optional (default = `"auto"`)
        ``auto`` (packed rows when the model honours the tree mask, checked once), ``packed``,
        ``plain`` (one request per row).
    max_row_tokens : `int`, optional (default = `512`)
        Most tokens in one packed row (a group with more is split over several rows); a request that
        shares a long run of tokens with the row (another rotation of a question after the same
        few-shot examples, another choice after a long context) may grow it to ``SHARED_ROW_FACTOR``
        (4) times that.
    share_prefix : `bool`, optional (default = `True`)
        Run the first tokens that all rows of a batch share (a template's opening words, a few-shot
        preamble) once, and give the rows their keys and values (packed rows only; ``auto`` checks it).
    """

    def __init__(self, model: Any, tokenizer: Any, batch_size: int = 32, precision: str = "fp32",
                 max_length: Optional[int] = None, add_bos_token: Optional[bool] = None, strategy: str = "auto",
                 max_row_tokens: int = 512, logits_chunk: int = 1024, share_prefix: bool = True) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy: expected one of {STRATEGIES}, got {strategy!r}")
        if int(batch_size) < 1:
            raise ValueError(f"batch_size: expected a positive number of rows, got {batch_size}")
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.batch_size = int(batch_size)
        self.precision = check_precision(precision, "precision")
        self.max_length = int(max_length) if max_length else resolve_max_length(model.config, tokenizer)
        self.add_bos_token = add_bos_token
        self.max_row_tokens = int(max_row_tokens)
        self.logits_chunk = int(logits_chunk)
        self.truncated_requests = 0
        self.share_prefix = bool(share_prefix)
        self._chat_cache: Dict[str, str] = {}
        prefix = tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id
        if prefix is None:
            raise ValueError(f"{type(tokenizer).__name__} has neither a BOS nor an EOS token: an empty context "
                             "cannot be scored")
        self.prefix_token_id = int(prefix)
        self._prefix_string = tokenizer.decode(self.prefix_token_id)
        self._pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else self.prefix_token_id
        implementation = getattr(model.config, "_attn_implementation", None) or "eager"
        self._bool_mask = implementation != "eager"
        self.head_mode = "output_layer" if self._output_layer_matches() else "model_logits"
        if strategy == "auto":
            packs = implementation in ("sdpa", "eager") and self._packing_matches()
            if not packs and self.share_prefix and implementation in ("sdpa", "eager"):
                self.share_prefix = False  # perhaps only the shared prefix's cache does not fit this model
                packs = self._packing_matches()
            strategy = "packed" if packs else "plain"
            if strategy == "plain":
                logger.warning("%s (%s attention): packed rows do not reproduce the one-by-one scores; scoring "
                               "one request per row", type(model).__name__, implementation)
        self.strategy = strategy

    # ------------------------------------------------------------------ construction helpers
    @classmethod
    def from_pretrained(cls, name: str, cuda_device: int = -1, dtype: Optional[str] = None,
                        device_map: Optional[Any] = None, attn_implementation: Optional[str] = None,
                        **kwargs) -> "CausalLmScorer":
        """A scorer for a name or directory (``smollm2`` = the offline SmolLM2), on ``cuda_device``
        (-1 = CPU) or spread by ``device_map``."""
        model, tokenizer = load_causal_lm(name, dtype=dtype, device_map=device_map,
                                          attn_implementation=attn_implementation)
        if device_map is None:
            model.to(torch_device(cuda_device))
        return cls(model, tokenizer, **kwargs)

    @property
    def device(self) -> torch.device:
        """Where the input ids go (the input embeddings' device)."""
        return self.model.get_input_embeddings().weight.device

    @property
    def description(self) -> str:
        return (f"{type(self.model).__name__}, {self.strategy} rows, {self.head_mode}, {self.precision}, "
                f"{self.device}")

    # ------------------------------------------------------------------ tokenization (lm-eval's rule)
    def _encode_many(self, texts: Sequence[str], add_special_tokens: Optional[bool] = None) -> List[List[int]]:
        """``tok_encode`` of lm-evaluation-harness for several texts (one fast-tokenizer call per setting)."""
        if not texts:
            return []
        settings: List[Optional[bool]] = []
        for text in texts:
            if add_special_tokens is not None:
                settings.append(add_special_tokens)
            elif self._prefix_string and text.startswith(self._prefix_string):
                settings.append(False)
            else:
                settings.append(self.add_bos_token)
        encoded: List[List[int]] = [[] for _ in texts]
        for setting in set(settings):
            indices = [i for i, s in enumerate(settings) if s == setting]
            arguments = {} if setting is None else {"add_special_tokens": setting}
            ids = self.tokenizer([texts[i] for i in indices], **arguments)["input_ids"]
            for index, value in zip(indices, ids):
                encoded[index] = list(value)
        return encoded

    def encode_pairs(self, requests: Sequence[Tuple[str, str]]) -> List[Tuple[List[int], List[int]]]:
        """``(context tokens, continuation tokens)`` of each request, as lm-evaluation-harness splits them."""
        pairs: List[Optional[Tuple[List[int], List[int]]]] = [None] * len(requests)
        empty = [i for i, (context, _) in enumerate(requests) if context == ""]
        for index, tokens in zip(empty, self._encode_many([requests[i][1] for i in empty], add_special_tokens=False)):
            if tokens and tokens[0] == self.prefix_token_id:
                pairs[index] = (tokens[:1], tokens[1:])
            else:
                pairs[index] = ([self.prefix_token_id], tokens)
        rest = [i for i in range(len(requests)) if requests[i][0] != ""]
        moved = []
        for i in rest:
            context, continuation = requests[i]
            spaces = len(context) - len(context.rstrip())
            if spaces:
                context, continuation = context[:-spaces], context[-spaces:] + continuation
            moved.append((context, continuation))
        contexts = sorted({context for context, _ in moved})
        context_ids = dict(zip(contexts, self._encode_many(contexts)))
        wholes = self._encode_many([context + continuation for context, continuation in moved])
        for index, (context, _), whole in zip(rest, moved, wholes):
            context_tokens = context_ids[context]
            pairs[index] = (context_tokens, whole[len(context_tokens):])
        for (context, continuation), pair in zip(requests, pairs):
            if not pair[1]:
                raise ScoringError(f"request ({context!r}, {continuation!r}): the continuation has no tokens")
        return pairs  # type: ignore[return-value]

    def encode_pair(self, context: str, continuation: str) -> Tuple[List[int], List[int]]:
        return self.encode_pairs([(context, continuation)])[0]

    def chat_context(self, user_text: str) -> str:
        """``user_text`` as one user turn through the tokenizer's chat template, with the generation
        prompt after it (lm-evaluation-harness's ``apply_chat_template`` for a multiple-choice context)."""
        rendered = self._chat_cache.get(user_text)
        if rendered is None:
            if not getattr(self.tokenizer, "chat_template", None):
                raise ScoringError(f"{type(self.tokenizer).__name__} has no chat template: chat_template needs an "
                                   "instruct model's tokenizer")
            rendered = self.tokenizer.apply_chat_template([{"role": "user", "content": user_text}], tokenize=False,
                                                          add_generation_prompt=True)
            self._chat_cache[user_text] = rendered
        return rendered

    # ------------------------------------------------------------------ scoring
    def loglikelihood(self, requests: Iterable[Tuple[str, str]]) -> List[Loglikelihood]:
        """The answer to each ``(context, continuation)`` request, in order."""
        requests, unique = _unique_requests(requests)
        answers = self.loglikelihood_tokens(self.encode_pairs(list(unique)))
        return [answers[unique[request]] for request in requests]

    def loglikelihood_tensors(self, requests: Iterable[Tuple[str, str]]) -> Tuple[torch.Tensor, List[int]]:
        """The differentiable twin of :meth:`loglikelihood`, for fine-tuning: ``(log-probabilities, token
        counts)`` of each request, in order; the log-probabilities are one float64 tensor ``[n]`` (on the
        CPU) through which gradients reach the model's trainable weights.

        The same tokenization, rows, packing, shared prefix and output-layer positions as
        :meth:`loglikelihood` (only the last step differs: each request's token log-probabilities are
        summed as tensors, in float64 as the float path sums them, instead of as Python floats), so in
        eval mode both give the same numbers. Runs without ``torch.no_grad`` and in whatever mode the
        model is in (dropout in train mode): the caller chooses."""
        requests, unique = _unique_requests(requests)
        if not requests:
            return torch.zeros(0), []
        pairs = self.encode_pairs(list(unique))
        totals: List[torch.Tensor] = []
        owners: List[int] = []
        counts = [0] * len(pairs)
        for batch in self._batches(pairs):
            batch_owners, logprobs, _ = self._row_logprobs(batch)
            segments = torch.repeat_interleave(torch.arange(len(batch_owners)),
                                               torch.tensor([count for _, count in batch_owners]))
            summed = torch.zeros(len(batch_owners), dtype=torch.float64).index_add(0, segments, logprobs.double())
            totals.append(summed)
            for index, count in batch_owners:
                owners.append(index)
                counts[index] = count
        where = torch.empty(len(pairs), dtype=torch.long)
        where[torch.tensor(owners)] = torch.arange(len(owners))
        per_pair = torch.cat(totals)[where]
        picks = [unique[request] for request in requests]
        return per_pair[torch.tensor(picks, dtype=torch.long)], [counts[i] for i in picks]

    def loglikelihood_tokens(self, pairs: Sequence[Tuple[Sequence[int], Sequence[int]]]) -> List[Loglikelihood]:
        """The answers for already tokenized ``(context tokens, continuation tokens)`` pairs."""
        answers: List[Optional[Loglikelihood]] = [None] * len(pairs)
        with torch.no_grad():
            for batch in self._batches(pairs):
                for index, answer in self._score_rows(batch):
                    answers[index] = answer
        return answers  # type: ignore[return-value]

    def _batches(self, pairs: Sequence[Tuple[Sequence[int], Sequence[int]]]) -> Iterator[List[_Row]]:
        """The packed rows of ``pairs``, sorted by length (longest first), ``batch_size`` rows at a time."""
        groups: Dict[Tuple[int, ...], List[Tuple[int, List[int]]]] = {}
        for index, (context, continuation) in enumerate(pairs):
            context, continuation = list(context), list(continuation)
            if not context or not continuation:
                raise ScoringError(f"request {index}: empty context or continuation tokens")
            if len(continuation) > self.max_length:
                raise ScoringError(f"request {index}: the continuation has {len(continuation)} tokens, more than "
                                   f"the model's window ({self.max_length})")
            if len(context) + len(continuation) > self.max_length + 1:  # lm-eval: keep the last max_length + 1
                self.truncated_requests += 1
                kept = (context + continuation)[-(self.max_length + 1):]
                context = kept[: len(kept) - len(continuation)]
            groups.setdefault(tuple(context), []).append((index, continuation))
        rows = self._rows(groups)
        order = sorted(range(len(rows)), key=lambda i: (-len(rows[i]), rows[i].tokens))
        for start in range(0, len(order), self.batch_size):
            yield [rows[i] for i in order[start:start + self.batch_size]]

    def _rows(self, groups: Dict[Tuple[int, ...], List[Tuple[int, List[int]]]]) -> List[_Row]:
        """Packs the requests into token trees. Contexts are taken in token order, so contexts that
        share an opening (the rotations of one lettered question, or a few-shot preamble with its
        question) are neighbours. A request joins the current row when it continues the previous
        request's context within ``max_row_tokens``, or when it finds a long run of its tokens in the
        row already (at least ``max_row_tokens / SHARED_ROW_FACTOR`` and half of its own) and the row
        stays within ``SHARED_ROW_FACTOR * max_row_tokens``. Questions that share only a template's
        first words get rows of their own: packing them would save little and widen the attention."""
        rows: List[_Row] = []
        builder: Optional[_TreeBuilder] = None
        for context in sorted(groups):
            for index, continuation in groups[context]:
                sequence = list(context) + continuation
                inputs = sequence[:-1]
                if builder is None or self.strategy == "plain" or not self._joins(builder, context, inputs):
                    builder = _TreeBuilder()
                    builder.row.context_length = len(context)
                    rows.append(builder.row)
                builder.context = context
                nodes = builder.add(inputs)
                builder.row.context_length = min(builder.row.context_length, len(context))
                predicting = nodes[len(context) - 1:]
                builder.row.targets.append((index, predicting, continuation))
        return rows

    def _joins(self, builder: "_TreeBuilder", context: Tuple[int, ...], inputs: Sequence[int]) -> bool:
        size = builder.size_after(inputs)
        if size <= self.max_row_tokens and context == builder.context:
            return True
        shared = len(inputs) - (size - len(builder.row))
        return (shared >= self.max_row_tokens // SHARED_ROW_FACTOR and shared >= len(inputs) // 2
                and size <= SHARED_ROW_FACTOR * self.max_row_tokens)

    def _score_rows(self, rows: List[_Row]) -> List[Tuple[int, Loglikelihood]]:
        owners, logprobs, greedy = self._row_logprobs(rows)
        logprobs, greedy = logprobs.tolist(), greedy.tolist()
        results, offset = [], 0
        for index, count in owners:
            results.append((index, Loglikelihood(float(sum(logprobs[offset:offset + count])), count,
                                                 all(greedy[offset:offset + count]))))
            offset += count
        return results

    def _row_logprobs(self, rows: List[_Row]) -> Tuple[List[Tuple[int, int]], torch.Tensor, torch.Tensor]:
        """One forward pass over ``rows``: ``(owners, log-probabilities, greedy)``, the log-probability of
        every continuation token of every request (and whether it is the argmax), request after request
        as ``owners`` lists them, ``(request index, number of tokens)``. Differentiable when run with
        gradients (:meth:`loglikelihood_tensors`)."""
        device = self.device
        length = max(len(row) for row in rows)
        input_ids = torch.full((len(rows), length), self._pad_id, dtype=torch.long)
        positions = torch.zeros((len(rows), length), dtype=torch.long)
        packed = self.strategy != "plain"
        visible = torch.zeros((len(rows), length, length), dtype=torch.bool) if packed else None
        for b, row in enumerate(rows):
            size = len(row)
            input_ids[b, :size] = torch.tensor(row.tokens)
            positions[b, :size] = torch.tensor(row.depths)
            if packed:
                ancestors = visible[b]
                for node, parent in enumerate(row.parents):
                    if parent >= 0:
                        ancestors[node] = ancestors[parent]
                    ancestors[node, node] = True
                ancestors[size:, :].fill_(False)
                ancestors[torch.arange(size, length), torch.arange(size, length)] = True  # padding sees itself
        prefix = self._shared_prefix(rows) if packed and self.share_prefix else 0
        arguments: Dict[str, Any] = {"input_ids": input_ids[:, prefix:].to(device), "use_cache": False}
        if packed:
            arguments["position_ids"] = positions[:, prefix:].to(device)
            arguments["attention_mask"] = self._mask(visible[:, prefix:, :]).to(device)
        hidden_rows, hidden_nodes, targets, owners = [], [], [], []
        for b, row in enumerate(rows):
            for index, predicting, tokens in row.targets:
                hidden_rows.extend([b] * len(predicting))
                hidden_nodes.extend(node - prefix for node in predicting)
                targets.extend(tokens)
                owners.append((index, len(tokens)))

        with autocast(device, self.precision):
            if prefix:
                arguments["past_key_values"] = self._prefix_cache(input_ids[:1, :prefix], len(rows))
                arguments["use_cache"] = True
            logprobs, greedy = self._target_logprobs(arguments, hidden_rows, hidden_nodes, targets)
        return owners, logprobs, greedy

    def _shared_prefix(self, rows: List[_Row]) -> int:
        """How many first tokens all ``rows`` share, short of any position that predicts a
        continuation token (0 when sharing would not pay: one row, or fewer than 2 tokens)."""
        if len(rows) < 2:
            return 0
        limit = min(row.context_length for row in rows) - 1
        first = rows[0].tokens
        shared = 0
        while shared < limit and all(row.tokens[shared] == first[shared] for row in rows):
            shared += 1
        return shared if shared >= 2 else 0

    def _prefix_cache(self, prefix_ids: torch.Tensor, copies: int) -> DynamicCache:
        """The keys and values of a prefix run once, repeated for ``copies`` rows."""
        cache = DynamicCache()
        runner = self.model.base_model if self.head_mode == "output_layer" else self.model
        positions = torch.arange(prefix_ids.shape[1]).unsqueeze(0)
        runner(input_ids=prefix_ids.to(self.device), position_ids=positions.to(self.device), past_key_values=cache,
               use_cache=True)
        cache.batch_repeat_interleave(copies)
        return cache

    def _mask(self, visible: torch.Tensor) -> torch.Tensor:
        """The 4-D mask the attention implementation wants: bool (True = attend) or additive float."""
        mask = visible.unsqueeze(1)
        if self._bool_mask:
            return mask
        dtype = self.model.get_input_embeddings().weight.dtype
        additive = torch.zeros(mask.shape, dtype=dtype)
        return additive.masked_fill_(~mask, torch.finfo(dtype).min)

    def _target_logprobs(self, arguments, hidden_rows, hidden_nodes, targets):
        """log P(target) at each (row, node) and whether it is the argmax; the output layer and the
        log-softmax only at those positions, once per position however many continuations it
        predicts for (or, in ``model_logits`` mode, gathered from the model's logits)."""
        width = int(arguments["input_ids"].shape[1])
        keys = torch.tensor(hidden_rows) * width + torch.tensor(hidden_nodes)
        positions, inverse = torch.unique(keys, return_inverse=True)
        rows, nodes = positions // width, positions % width
        wanted = torch.tensor(targets)
        if self.head_mode == "output_layer":
            states = self.model.base_model(**arguments)[0]
            states = states[rows.to(states.device), nodes.to(states.device)]
            head = self.model.get_output_embeddings()
            logit_chunks = (head(states[i:i + self.logits_chunk]) for i in range(0, len(states), self.logits_chunk))
        else:
            logits = self.model(**arguments).logits
            picked = logits[rows.to(logits.device), nodes.to(logits.device)]
            logit_chunks = (picked[i:i + self.logits_chunk] for i in range(0, len(picked), self.logits_chunk))
        logprobs = torch.empty(len(wanted), dtype=torch.float32)
        greedy = torch.empty(len(wanted), dtype=torch.bool)
        for start, chunk in zip(range(0, len(positions), self.logits_chunk), logit_chunks):
            chunk = torch.log_softmax(chunk.float(), dim=-1)
            best = chunk.argmax(dim=-1)
            entries = ((inverse >= start) & (inverse < start + len(chunk))).nonzero().squeeze(1)
            local = (inverse[entries] - start).to(chunk.device)
            goal = wanted[entries].to(chunk.device)
            logprobs[entries] = chunk[local, goal].cpu()
            greedy[entries] = (best[local] == goal).cpu()
        return logprobs, greedy

    # ------------------------------------------------------------------ one-time checks
    def _probe_ids(self, count: int, seed: int) -> List[int]:
        generator = torch.Generator().manual_seed(seed)
        vocabulary = self.model.get_input_embeddings().weight.shape[0]
        return torch.randint(0, vocabulary, (count,), generator=generator).tolist()

    def _output_layer_matches(self) -> bool:
        """Does the output layer on the body's last states reproduce the model's own logits?"""
        head, base = self.model.get_output_embeddings(), self.model.base_model
        if head is None or base is self.model:
            return False
        ids = torch.tensor([self._probe_ids(7, 0)], device=self.device)
        try:
            with torch.no_grad():
                theirs = self.model(input_ids=ids, use_cache=False).logits.float()
                ours = head(base(input_ids=ids, use_cache=False)[0]).float()
        except Exception as error:  # a body that cannot be called this way
            logger.info("%s: output-layer shortcut unavailable (%s)", type(self.model).__name__, error)
            return False
        scale = max(1.0, float(theirs.abs().max()))
        return ours.shape == theirs.shape and float((ours - theirs.to(ours.device)).abs().max()) <= 1e-4 * scale

    def _packing_matches(self) -> bool:
        """Do packed rows (and a batch's shared prefix) give the one-by-one log-probabilities on a
        few random requests?"""
        context, a, b, c = self._probe_ids(5, 1), self._probe_ids(3, 2), self._probe_ids(2, 3), self._probe_ids(1, 4)
        mixed = [(context, a), (context, a[:1] + b), (context, c), (context[:2], b)]
        sharing = [(context, a), (context, c), (context[:3] + c, b)]  # rows that share 3 tokens
        saved, self.strategy = getattr(self, "strategy", "packed"), "plain"
        try:
            alone = self.loglikelihood_tokens(mixed + sharing)
            self.strategy = "packed"
            try:
                packed = self.loglikelihood_tokens(mixed) + self.loglikelihood_tokens(sharing)
            except Exception as error:
                logger.info("%s: packed rows unavailable (%s)", type(self.model).__name__, error)
                return False
        finally:
            self.strategy = saved
        return all(abs(x.logprob - y.logprob) <= 1e-4 * max(1.0, abs(x.logprob)) for x, y in zip(alone, packed))

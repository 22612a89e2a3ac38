"""A loaded masked LM for the WinoVenti procedure: the ``winoventi`` reader + ``winoventi_mlm`` model.

Candidate words go through the shared MC-MLM rule
(:func:`mcqa_probes.models.masked_lm_scoring.candidate_token_id`) and are scored by the shared
head (:class:`mcqa_probes.models.masked_lm_scoring.MaskedLmHead`, via ``masked_lm_mc``); only
association mining needs the full-vocabulary distribution at the mask (:meth:`MaskedLm.mask_logits`).
"""
from typing import Callable, Iterable, List, Optional, Sequence

import torch
from allennlp.data import Instance, Vocabulary

from mcqa_probes.common.device import autocast, model_device, place_model, resolve_cuda_device
from mcqa_probes.data.dataset_readers.winoventi import WinoVentiReader
from mcqa_probes.models.winoventi_mlm import WinoVentiMlm
from mcqa_probes.training.evaluation import batches, predict_instances


class MaskedLm:
    """Reader + zero-shot model for one masked LM name or directory (``minilm`` = offline MiniLM).

    ``seed`` seeds torch before loading: weights missing from a checkpoint (the offline MiniLM's
    whole MLM head) are then the same random draw on every load, so runs are reproducible.
    ``cuda_device`` (``None``: the GPU when there is one, -1: the CPU) and ``precision`` (autocast
    for scoring; scores come back in fp32) say where and how the model runs. ``multi_token``
    (``skip``, ``reject``, ``pll``, ``pll_word_l2r``): what a multi-piece outcome word does to its
    prompts (see the ``winoventi`` reader; PLL scores both outcomes of such a prompt).
    """

    def __init__(self, model_name: str, probe_type: str = "zero_shot", max_length: int = 128, seed: int = 0,
                 cuda_device: Optional[int] = None, precision: str = "fp32", multi_token: str = "skip"):
        self.name = model_name
        self.multi_token = multi_token
        self.reader = WinoVentiReader(model_name, max_length=max_length, multi_token=multi_token)
        torch.manual_seed(seed)
        self.cuda_device = resolve_cuda_device(cuda_device)
        self.precision = precision
        self.model = WinoVentiMlm(Vocabulary(), transformer_model_name=model_name, probe_type=probe_type,
                                  precision=precision)
        place_model(self.model, self.cuda_device, precision)
        self.model.eval()

    @property
    def tokenizer(self):
        return self.reader.hf_tokenizer

    @property
    def model_device(self) -> torch.device:
        return model_device(self.model)

    @property
    def masked_lm(self) -> torch.nn.Module:
        return self.model.head.masked_lm

    def candidate_logits(self, instances: List[Instance], batch_size: int = 64) -> List[List[float]]:
        """Logits of each instance's candidates at its mask (one forward per batch)."""
        if not instances:
            return []
        self.model.eval()
        return predict_instances(self.model, instances, batch_size)["logits"]

    @torch.no_grad()
    def mask_logits(self, texts: Sequence[str], batch_size: int = 32, mask_string: str = "[MASK]",
                    progress: Optional[Callable[[Iterable], Iterable]] = None) -> torch.Tensor:
        """Full-vocabulary masked-LM logits at the (single) mask of each text: (len(texts), |V|)."""
        tokenizer, model = self.tokenizer, self.masked_lm
        model.eval()
        rows: List[torch.Tensor] = []
        chunks = list(batches(list(texts), batch_size))
        for chunk in (progress(chunks) if progress else chunks):
            encoded = tokenizer([t.replace(mask_string, tokenizer.mask_token) for t in chunk],
                                return_tensors="pt", padding=True)
            where = (encoded["input_ids"] == tokenizer.mask_token_id).nonzero()
            if where.size(0) != len(chunk) or not torch.equal(where[:, 0], torch.arange(len(chunk))):
                raise ValueError(f"every text needs exactly one {mask_string}: {list(chunk)}")
            with autocast(self.cuda_device, self.precision):
                logits = model(**encoded.to(self.model_device)).logits
            rows.append(logits[where[:, 0].to(logits.device), where[:, 1].to(logits.device)].float().cpu())
        return torch.cat(rows) if rows else torch.empty(0, len(tokenizer))

"""lm-evaluation-harness 0.4.13 as the reference of the causal-LM scoring (tests and bin/bench_causal only).

``lm-eval`` is installed by bin/setup with ``--no-deps`` (requirements/causal_lm_no_deps.txt): its HF
backend, ``lm_eval.models.huggingface.HFLM``, needs nothing beyond the stack but ``accelerate``.
:func:`lm_eval_loglikelihood` answers ``(context, continuation)`` requests with
``HFLM.loglikelihood`` on the SAME model object and a copy of the same tokenizer (HFLM may set a
padding token on the tokenizer it is given), so both sides score identical weights.
"""
import copy
import logging
from typing import Any, List, Optional, Sequence, Tuple


def lm_eval_version() -> str:
    from importlib.metadata import version  # lazy: only the reference needs it

    return version("lm-eval")


def make_hflm(model: Any, tokenizer: Any, batch_size: int = 16, add_bos_token: Optional[bool] = None,
              max_length: Optional[int] = None) -> Any:
    """An ``HFLM`` around an already loaded model (nothing is downloaded or moved)."""
    from lm_eval.models.huggingface import HFLM

    logging.getLogger("lm_eval").setLevel(logging.ERROR)  # "pretrained is not a str" notices
    arguments = {"pretrained": model, "tokenizer": copy.deepcopy(tokenizer), "batch_size": batch_size}
    if add_bos_token is not None:
        arguments["add_bos_token"] = add_bos_token
    if max_length is not None:
        arguments["max_length"] = max_length
    return HFLM(**arguments)


def lm_eval_loglikelihood(model: Any, tokenizer: Any, requests: Sequence[Tuple[str, str]], batch_size: int = 16,
                          add_bos_token: Optional[bool] = None, max_length: Optional[int] = None,
                          hflm: Any = None) -> List[Tuple[float, bool]]:
    """``HFLM.loglikelihood`` of each request: ``(log P(continuation | context), is_greedy)``, in order."""
    from lm_eval.api.instance import Instance

    lm = hflm if hflm is not None else make_hflm(model, tokenizer, batch_size, add_bos_token, max_length)
    instances = [Instance(request_type="loglikelihood", doc={}, arguments=(context, continuation), idx=index)
                 for index, (context, continuation) in enumerate(requests)]
    return [(float(logprob), bool(greedy)) for logprob, greedy in lm.loglikelihood(instances, disable_tqdm=True)]

"""WinoVenti §3.3: fine-tuning a masked LM on exceptions, accuracy before and after.

Splits (from :mod:`mcqa_probes.data.winoventi`):

* ``half`` - train on half the prompts (50% generic, 50% exception), test on the other half;
* ``full`` - train on 80% of the exception prompts only; test on the held-out 20% of exceptions,
  on every generic prompt, and on a mixed set (held-out exceptions + as many generics).

Training is the ``masked_lm_mc`` machinery (via ``winoventi_mlm``): cross-entropy over the two
candidates (o_g, o_e) at the mask, with allennlp's ``GradientDescentTrainer``. ``probe_type``
``full`` (the default: every weight trains, as in the paper, which fine-tunes the models and
freezes nothing), or, as options, ``mlp`` (only the MLM head trains, encoder and embeddings frozen)
or ``linear`` (only the output layer). Before/after numbers are strict P(target) > P(incorrect) accuracies.
"""
import logging
import random
import tempfile
from typing import Any, Callable, Dict, List, Optional, Sequence

import torch

from mcqa_probes.data.winoventi import WinoVentiPrompt, full_exception_split, half_exception_split, read_winoventi
from mcqa_probes.experiments.winoventi.evaluate import score_prompts, subset_accuracy
from mcqa_probes.experiments.winoventi.scoring import MaskedLm
from mcqa_probes.data.candidates import CandidateNotSinglePieceError
from mcqa_probes.reports.tables import format_number, text_table

logger = logging.getLogger(__name__)

SPLITS = ("half", "full")


def build_split(prompts: Sequence[WinoVentiPrompt], split: str, seed: int = 0) -> Dict[str, List[WinoVentiPrompt]]:
    if split == "half":
        return half_exception_split(prompts, seed)
    if split == "full":
        return full_exception_split(prompts, seed)
    raise ValueError(f"split must be one of {SPLITS}, got {split!r}")


def accuracy_on_tests(lm: MaskedLm, tests: Dict[str, List[WinoVentiPrompt]], batch_size: int = 64) -> Dict[str, Dict]:
    """Generic / exception accuracy (%) on each test set."""
    results = {}
    for name, prompts in tests.items():
        scores = score_prompts(lm, prompts, batch_size)
        accuracy = subset_accuracy(prompts, scores["correct"])
        accuracy["skipped_prompts"] = len(scores["skipped_lines"])
        results[name] = accuracy
    return results


def train(lm: MaskedLm, prompts: Sequence[WinoVentiPrompt], epochs: int = 1, lr: float = 1e-4,
          batch_size: int = 16, seed: int = 0) -> Dict[str, Any]:
    """Train ``lm.model`` (its probe_type decides what moves) on the prompts; returns trainer metrics."""
    from allennlp.data.data_loaders import SimpleDataLoader
    from allennlp.training import GradientDescentTrainer
    from allennlp.training.optimizers import AdamWOptimizer


    random.seed(seed)
    torch.manual_seed(seed)
    instances = []
    for prompt in prompts:
        try:
            instances.append(lm.reader.prompt_to_instance(prompt))
        except CandidateNotSinglePieceError:
            continue
    if not instances:
        raise ValueError("no scorable training prompt (every outcome word is several pieces for this model)")
    loader = SimpleDataLoader(instances, batch_size, shuffle=True, vocab=lm.model.vocab)
    parameters = [(n, p) for n, p in lm.model.named_parameters() if p.requires_grad]
    optimizer = AdamWOptimizer(parameters, lr=lr, weight_decay=0.0)
    with tempfile.TemporaryDirectory() as directory:
        trainer = GradientDescentTrainer(lm.model, optimizer, loader, num_epochs=epochs,
                                         serialization_dir=directory, grad_norm=1.0, cuda_device=lm.cuda_device)
        trainer._checkpointer = None  # nothing to keep
        metrics = trainer.train()
    lm.model.eval()
    metrics["train_prompts"] = len(instances)
    return metrics


def finetune_on_exceptions(
    model_name: str,
    tsv_path,
    split: str = "full",
    probe_type: str = "full",
    epochs: int = 1,
    lr: float = 1e-4,
    batch_size: int = 16,
    seed: int = 0,
    limit_pairs: Optional[int] = None,
    progress: Optional[Callable[[str], None]] = None,
    cuda_device: Optional[int] = None,
    precision: str = "fp32",
) -> Dict[str, Any]:
    """Build the split, score the test sets, train, score again. ``limit_pairs`` keeps the first N pairs.

    Everything runs on ``cuda_device`` (``None``: the GPU when there is one); ``precision`` is the
    autocast of the model's forward (scoring and training)."""
    prompts = read_winoventi(tsv_path)
    if limit_pairs is not None:
        prompts = [p for p in prompts if p.pair_index < limit_pairs]
    parts = build_split(prompts, split, seed)
    tests = {name: items for name, items in parts.items() if name != "train"}
    lm = MaskedLm(model_name, probe_type=probe_type, cuda_device=cuda_device, precision=precision)
    say = progress or (lambda message: None)
    say(f"{split} split: {len(parts['train'])} training prompts, tests " +
        ", ".join(f"{n}={len(t)}" for n, t in tests.items()))
    before = accuracy_on_tests(lm, tests, batch_size * 4)
    say("trained probe_type=" + probe_type)
    metrics = train(lm, parts["train"], epochs, lr, batch_size, seed)
    after = accuracy_on_tests(lm, tests, batch_size * 4)
    return {"model": model_name, "split": split, "probe_type": probe_type, "epochs": epochs, "lr": lr,
            "train_prompts": metrics["train_prompts"], "train_loss": metrics.get("training_loss"),
            "before": before, "after": after}


def format_before_after(result: Dict[str, Any]) -> str:
    rows = []
    for name, before in result["before"].items():
        after = result["after"][name]
        rows.append([name, before["generic_prompts"] + before["exception_prompts"], format_number(before["generic"]),
                     format_number(after["generic"]), format_number(before["exception"]), format_number(after["exception"])])
    header = [["test set", "prompts", "Generic before", "after", "Exceptn before", "after"]]
    title = (f"{result['model']}  split={result['split']}  probe_type={result['probe_type']}  "
             f"epochs={result['epochs']}  lr={result['lr']}  train prompts={result['train_prompts']}")
    return title + "\n" + text_table(rows, [16, 8, 16, 8, 16, 8], "<>>>>>", gaps="", header=header)

"""The Baseline row's zero-shot column of the oLMpics MC-MLM tables (Tables 2, 3, 5, 7, 9, 11).

The paper reports a zero-shot number for MLM-BASELINE too (e.g. 49 on Age Comparison, 20 on
Always-Never, 33 on Taxonomy Conjunction): the baseline before any training, whose FF_MLM weights
are randomly initialised, so its accuracy is about chance (§3.1: "The performance of
MLM-BASELINE is also random, as the MLP_MLM weights are randomly initialized"). Here it is
measured the same way: the baseline model is built from its config without training and scored
on the dev file, averaged over the curve's seeds (one random initialisation per seed).

MC-QA probes (Tables 8 and 10) have no zero-shot column at all (MLP_QA is untrained, §4.4), so
the ESIM baseline gets none either.
"""
import json
from statistics import mean
from typing import Any, Dict, Optional


def untrained_accuracy(
    config: str,
    dev: str,
    overrides: Optional[Dict[str, Any]] = None,
    seeds: int = 3,
    cuda_device: int = -1,
    batch_size: int = 64,
) -> float:
    """Dev accuracy of the config's model as initialised (nothing trained), mean over ``seeds``
    initialisations (``random_seed`` etc. 13, 14, ... as the learning-curve runs)."""
    from allennlp.common import Params
    from allennlp.common.util import prepare_environment
    from allennlp.data import DatasetReader, Vocabulary
    from allennlp.data.data_loaders import MultiProcessDataLoader
    from allennlp.models import Model
    from allennlp.training.util import evaluate


    accuracies = []
    for seed in range(max(1, seeds)):
        seeded = {**(overrides or {}), "random_seed": 13 + seed, "numpy_seed": 13 + seed, "pytorch_seed": 13 + seed}
        params = Params.from_file(config, json.dumps(seeded))
        prepare_environment(params)
        reader = DatasetReader.from_params(params.pop("dataset_reader"))
        loader = MultiProcessDataLoader(reader, dev, batch_size=batch_size, shuffle=False)
        vocabulary = Vocabulary.from_params(params.pop("vocabulary", {}), instances=loader.iter_instances())
        model = Model.from_params(vocab=vocabulary, params=params.pop("model"))
        if cuda_device is not None and cuda_device >= 0:
            model = model.cuda(cuda_device)
        loader.index_with(vocabulary)
        accuracies.append(float(evaluate(model, loader, cuda_device=cuda_device if cuda_device is not None else -1)["accuracy"]))
    return mean(accuracies)

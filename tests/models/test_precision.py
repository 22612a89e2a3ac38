"""bf16 autocast end to end on the CPU: a tiny transformer_mcqa built from its training config with
PRECISION=bf16, evaluated the way ``allennlp evaluate`` does; fp32 logits out, bf16 inside."""
import pytest
import torch
from allennlp.common import Params
from allennlp.data import DatasetReader, Vocabulary
from allennlp.data.data_loaders import MultiProcessDataLoader
from allennlp.models import Model
from allennlp.training.util import evaluate

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.common.environment import environment
from tests.conftest import DATA, ROOT

FILES = [DATA / "wordnetqa_hypernymy.jsonl", DATA / "dictionary_qa.jsonl"]


def from_config(model_dir: str, precision: str):
    with environment(MODEL_NAME=model_dir, PRECISION=precision, MAX_LENGTH="64", CUDA_DEVICE="-1", USE_AMP=None):
        params = Params.from_file(str(ROOT / "training_config" / "roberta_probe.jsonnet"))
    assert params["model"]["precision"] == precision  # the config reads PRECISION
    reader = DatasetReader.from_params(params.pop("validation_dataset_reader"))
    model = Model.from_params(vocab=Vocabulary(), params=params.pop("model"))
    return reader, model.eval()


def fit(reader, model, epochs: int = 15) -> None:
    """A few fp32 training steps on the fixture files: a random choice scorer gives every choice
    almost the same logit (bf16 rounding would then decide), a trained one separates them."""
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    loaders = []
    for path in FILES:
        loader = MultiProcessDataLoader(reader, str(path), batch_size=4, shuffle=False)
        loader.index_with(model.vocab)
        loaders.append(loader)
    torch.manual_seed(0)
    model.train()
    for _ in range(epochs):
        for loader in loaders:
            for batch in loader:
                optimizer.zero_grad()
                model(**batch)["loss"].backward()
                optimizer.step()
    model.eval()


def run_evaluation(reader, model):
    """allennlp's evaluate loop over the fixture files; the model's outputs and the dtypes a Linear
    inside the encoder produced."""
    outputs, linear_dtypes = [], set()
    linear = model.encoder.encoder.layer[0].attention.self.query
    hooks = [
        model.register_forward_hook(lambda _m, _i, output: outputs.append(output)),
        linear.register_forward_hook(lambda _m, _i, output: linear_dtypes.add(output.dtype)),
    ]
    try:
        for path in FILES:
            loader = MultiProcessDataLoader(reader, str(path), batch_size=4, shuffle=False)
            loader.index_with(model.vocab)
            metrics = evaluate(model, loader, cuda_device=-1)
            assert 0.0 <= metrics["accuracy"] <= 1.0
    finally:
        for hook in hooks:
            hook.remove()
    return outputs, linear_dtypes


def test_bf16_evaluation_runs_in_bf16_and_returns_fp32_logits(tiny_bert):
    reader, fp32_model = from_config(tiny_bert, "fp32")
    fit(reader, fp32_model)
    _, bf16_model = from_config(tiny_bert, "bf16")
    bf16_model.load_state_dict(fp32_model.state_dict())  # same weights

    bf16_outputs, bf16_dtypes = run_evaluation(reader, bf16_model)
    fp32_outputs, fp32_dtypes = run_evaluation(reader, fp32_model)

    assert bf16_dtypes == {torch.bfloat16}  # autocast really ran
    assert fp32_dtypes == {torch.float32}
    for output in bf16_outputs:
        assert output["logits"].dtype == torch.float32
        assert output["probabilities"].dtype == torch.float32
    bf16_logits = torch.cat([o["logits"] for o in bf16_outputs])
    fp32_logits = torch.cat([o["logits"] for o in fp32_outputs])
    assert bf16_logits.shape == fp32_logits.shape and bf16_logits.size(0) == 20
    assert not torch.equal(bf16_logits, fp32_logits)  # bf16 arithmetic is not fp32 arithmetic
    # bf16 keeps ~3 significant digits: the logits stay close, and so do the choices
    spread = (fp32_logits.max() - fp32_logits.min()).item()
    assert spread > 1.0  # trained: the choices are told apart
    assert (bf16_logits - fp32_logits).abs().max().item() < 0.1 * spread
    agree = (bf16_logits.argmax(-1) == fp32_logits.argmax(-1)).float().mean().item()
    assert agree >= 0.9


def test_unknown_precision_in_a_config_is_a_clear_error(tiny_bert):
    with pytest.raises(Exception, match="model.precision"):
        from_config(tiny_bert, "fp8")

"""WinoVenti scoring on the chosen device and precision: bf16 autocast on the CPU, fp32 scores back."""
import torch

from mcqa_probes.experiments.winoventi import finetune
from mcqa_probes.experiments.winoventi.scoring import MaskedLm
from tests.conftest import FIXTURES

TSV = str(FIXTURES / "winoventi" / "winoventi_small.tsv")
TEXTS = ["The kettle is [MASK].", "The lamp is [MASK].", "The sponge is not [MASK].", "The tea is [MASK]."]


def test_mask_logits_in_bf16_are_fp32_and_close_to_fp32(wv_bert):
    fp32 = MaskedLm(wv_bert, cuda_device=-1)
    bf16 = MaskedLm(wv_bert, cuda_device=-1, precision="bf16")
    assert bf16.model.precision == "bf16" and bf16.cuda_device == -1
    seen = set()
    hook = bf16.masked_lm.bert.encoder.layer[0].attention.self.query.register_forward_hook(
        lambda _m, _i, output: seen.add(output.dtype))
    try:
        low = bf16.mask_logits(TEXTS, batch_size=2)
    finally:
        hook.remove()
    high = fp32.mask_logits(TEXTS, batch_size=2)
    assert seen == {torch.bfloat16} and low.dtype == torch.float32 and low.shape == high.shape
    assert not torch.equal(low, high)
    assert (low - high).abs().max().item() < 0.05 * (high.max() - high.min()).item()
    instance = bf16.reader.text_to_instance("The kettle is [MASK].", ["hot", "cold"])
    assert [len(row) for row in bf16.candidate_logits([instance])] == [2]


def test_finetune_trains_on_the_lm_device(wv_bert, monkeypatch):
    """The trainer gets the device the model was placed on (it was hard-coded to the CPU)."""
    import allennlp.training as training

    from mcqa_probes.experiments.winoventi import scoring

    class Stop(Exception):
        pass

    devices = []

    def recording_trainer(*args, cuda_device=None, **kwargs):
        devices.append(cuda_device)
        raise Stop

    monkeypatch.setattr(training, "GradientDescentTrainer", recording_trainer)
    monkeypatch.setattr(scoring, "resolve_cuda_device", lambda number: 3)  # "GPU 3" ...
    monkeypatch.setattr(scoring, "place_model", lambda model, number, precision: model)  # ... kept on the CPU
    try:
        finetune.finetune_on_exceptions(wv_bert, TSV, split="half", epochs=1, batch_size=4, cuda_device=3)
    except Stop:
        pass
    assert devices == [3]


def test_finetune_in_bf16_on_the_cpu(wv_bert, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    result = finetune.finetune_on_exceptions(wv_bert, TSV, split="half", epochs=1, batch_size=4, precision="bf16")
    assert result["train_prompts"] >= 1 and set(result["after"]) == {"test"}

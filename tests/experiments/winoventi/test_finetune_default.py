"""WinoVenti §3.3 fine-tunes the whole model by default; the head only is an option (issue 12.3)."""
import torch
from allennlp.common import Params

import mcqa_probes.experiments.winoventi.finetune as finetune
from mcqa_probes.common.environment import environment
from tests.conftest import FIXTURES, ROOT

TSV = FIXTURES / "winoventi" / "winoventi_small.tsv"


def run_and_capture(monkeypatch, wv_bert, **options):
    made = []

    class Recording(finetune.MaskedLm):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.initial = {n: p.detach().clone() for n, p in self.model.named_parameters()}
            made.append(self)

    monkeypatch.setattr(finetune, "MaskedLm", Recording)
    result = finetune.finetune_on_exceptions(wv_bert, TSV, split="half", epochs=2, lr=1e-2, batch_size=2, **options)
    lm = made[0]
    moved = {n for n, p in lm.model.named_parameters() if not torch.equal(p.detach(), lm.initial[n])}
    return result, moved


def test_default_fine_tunes_the_encoder_too(monkeypatch, wv_bert):
    result, moved = run_and_capture(monkeypatch, wv_bert)
    assert result["probe_type"] == "full"
    assert any("encoder" in n for n in moved) and any("embeddings" in n for n in moved)


def test_head_only_option_leaves_the_encoder(monkeypatch, wv_bert):
    result, moved = run_and_capture(monkeypatch, wv_bert, probe_type="mlp")
    assert result["probe_type"] == "mlp" and moved
    assert not any("encoder" in n or "embeddings" in n for n in moved)


def test_config_and_command_default_to_full(monkeypatch):
    monkeypatch.delenv("PROBE_TYPE", raising=False)
    with environment(PROBE_TYPE=None):
        params = Params.from_file(str(ROOT / "training_config" / "winoventi_finetune.jsonnet"))
    assert params["model"]["probe_type"] == "full"
    source = (ROOT / "bin" / "winoventi_finetune").read_text()
    assert 'default="full"' in source.split("--probe-type")[2]

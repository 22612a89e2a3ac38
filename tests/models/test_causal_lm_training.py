"""Fine-tuning ``causal_lm_mc`` (``probe_type`` lora / full) on a tiny random Llama: which weights train,
the untrained LoRA model against the zero-shot one, the differentiable scoring path against the float
one, the loss, adapter archives through allennlp's trainer and ``load_archive``, and the configuration
errors."""
import tarfile

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.commands.train import train_model
from allennlp.data import Batch, Vocabulary
from allennlp.models.archival import load_archive

import mcqa_probes.models.causal_lm_mc as causal_lm_mc
from mcqa_probes.data.dataset_readers.causal_lm_mc import CausalLmMcReader
from mcqa_probes.models.causal_lm_mc import CausalLmMc
from mcqa_probes.testing import make_tiny_causal_lm
from tests.conftest import FIXTURES

TRAIN = FIXTURES / "probes" / "hypernymy" / "train.jsonl"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """``tiny(family)`` -> directory of a tiny random causal LM (tests/causal_models.py's, seed 5)."""
    built = {}

    def get(family):
        if family not in built:  # 512 positions: long enough, no request is cut
            built[family] = str(make_tiny_causal_lm(tmp_path_factory.mktemp(family), family, seed=5, max_positions=512))
        return built[family]

    return get


@pytest.fixture(scope="module")
def llama(tiny):
    return tiny("llama")


@pytest.fixture(scope="module")
def instances():
    return list(CausalLmMcReader().read(str(TRAIN)))[:4]


@pytest.fixture(autouse=True)
def seeded():
    torch.manual_seed(0)  # LoRA's A is drawn from torch's generator


def tensors(instances):
    batch = Batch(list(instances))
    batch.index_instances(Vocabulary())
    return batch.as_tensor_dict()


def lm_weights(model):
    return {name: parameter.detach().clone() for name, parameter in model.lm.named_parameters()}


def adam_steps(model, batch, steps, lr=1e-2):
    """``steps`` AdamW steps on the model's trainable parameters; the loss before each step."""
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr)
    model.train()
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        output = model(**batch)
        output["loss"].backward()
        optimizer.step()
        losses.append(float(output["loss"].detach()))
    return losses


def test_a_lora_step_changes_only_the_adapters(llama, instances):
    model = CausalLmMc(Vocabulary(), llama, probe_type="lora", lora_rank=4)
    assert type(model.lm).__name__ == "LlamaForCausalLM" and model.scorer.model is model.lm  # injected in place
    trainable = {name for name, p in model.named_parameters() if p.requires_grad}
    assert trainable and all("lora_" in name for name in trainable)
    assert trainable == {name for name, _ in model.named_parameters() if "lora_" in name}
    before = lm_weights(model)
    adam_steps(model, tensors(instances), 2)
    after = lm_weights(model)
    assert before.keys() == after.keys()
    changed = {name for name in before if not torch.equal(before[name], after[name])}
    assert changed and all("lora_" in name for name in changed)
    assert any("lora_B" in name for name in changed) and any("lora_A" in name for name in changed)


def same_scores(output, expected, tolerance=1e-5):
    """The choices' log-likelihoods after the prompt and after the neutral prompt (every score is a function of
    them, the token counts and the lengths), their token counts and the logits are the same."""
    for key in ("loglikelihood", "choice_only_loglikelihood", "logits"):
        assert torch.allclose(output[key], expected[key], rtol=0, atol=tolerance), key
    assert torch.equal(output["continuation_tokens"], expected["continuation_tokens"])


@pytest.mark.parametrize("family, score", [("llama", "pmi"), ("gpt2", "chars")])
def test_untrained_lora_scores_as_zero_shot(family, score, instances, tiny):
    directory = tiny(family)
    batch = tensors(instances)
    zero_shot = CausalLmMc(Vocabulary(), directory, score=score, choice_only_control=True).eval()
    lora = CausalLmMc(Vocabulary(), directory, score=score, choice_only_control=True, probe_type="lora").eval()
    targets = {"llama": {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"},
               "gpt2": {"c_attn", "c_proj", "c_fc"}}[family]
    assert {name.rsplit(".", 1)[-1] for name, module in lora.lm.named_modules() if hasattr(module, "lora_A")} == targets
    with torch.no_grad():
        same_scores(lora(**batch), zero_shot(**batch))


def randomise_adapters(model, seed=0):
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, parameter in model.lm.named_parameters():
            if "lora_B" in name:
                parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.5)


def test_the_differentiable_path_gives_the_float_path_numbers(llama, instances):
    model = CausalLmMc(Vocabulary(), llama, choice_only_control=True, probe_type="lora", batch_size=2).eval()
    instances = instances[:2]
    zero_shot = CausalLmMc(Vocabulary(), llama).eval()
    randomise_adapters(model)  # adapters that change the scores, so that both paths must go through them
    scorer = model.scorer
    requests = [request for i in instances for request in i["metadata"]["prompt"].requests + i["metadata"]["prompt"].neutral]
    requests += requests[:3]  # repeated requests are computed once and answered twice
    floats = scorer.loglikelihood(requests)
    assert abs(floats[0].logprob - zero_shot.scorer.loglikelihood(requests[:1])[0].logprob) > 1e-2
    values, counts = scorer.loglikelihood_tensors(requests)
    assert values.shape == (len(requests),) and values.requires_grad
    assert counts == [answer.tokens for answer in floats]
    assert values.tolist() == pytest.approx([answer.logprob for answer in floats], abs=1e-5)
    values.sum().backward()
    assert any(p.grad is not None and p.grad.abs().sum() > 0 for n, p in model.named_parameters() if "lora_B" in n)
    batch = tensors(instances)
    model.score = "pmi"  # both requests of every choice
    with torch.no_grad():
        expected = model.eval()(**batch)
    assert expected["logits"].grad_fn is None
    trained = model.train()(**batch)  # the Llama has no dropout: train mode scores the same
    assert trained["logits"].grad_fn is not None and trained["loss"].requires_grad
    same_scores(trained, expected)


def test_the_loss_is_cross_entropy_of_the_logits_and_decreases(llama, instances):
    model = CausalLmMc(Vocabulary(), llama, score="mean", probe_type="lora", lora_rank=4)
    batch = tensors(instances)
    model.train()
    output = model(**batch)
    expected = torch.nn.functional.cross_entropy(output["logits"], batch["label"].reshape(-1))
    assert float(output["loss"].detach()) == pytest.approx(float(expected.detach()), rel=1e-6)
    losses = adam_steps(model, batch, 4, lr=2e-2)
    assert losses[0] == pytest.approx(float(output["loss"].detach()), rel=1e-5)
    assert all(later < earlier for earlier, later in zip(losses, losses[1:])), losses
    assert losses[-1] < 0.8 * losses[0], losses


def test_an_adapter_archive_loads_with_the_same_scores(llama, instances, tmp_path):
    data = tmp_path / "train.jsonl"
    data.write_text("".join(TRAIN.read_text().splitlines(keepends=True)[:4]))
    config = {
        "dataset_reader": {"type": "causal_lm_mc"},
        "train_data_path": str(data),
        "validation_data_path": str(data),
        "vocabulary": {"type": "empty"},
        "model": {"type": "causal_lm_mc", "transformer_model_name": llama, "probe_type": "lora", "lora_rank": 4,
                  "lora_alpha": 8, "lora_target_modules": ["q_proj", "v_proj", "down_proj"]},
        "data_loader": {"batch_size": 4, "shuffle": False},
        "trainer": {"num_epochs": 2, "optimizer": {"type": "adamw", "lr": 2e-2}, "cuda_device": -1},
    }
    trained = train_model(Params(config), str(tmp_path / "run")).eval()  # the trainer reloads its best weights
    with tarfile.open(tmp_path / "run" / "model.tar.gz") as archive:
        weights = torch.load(archive.extractfile("weights.th"), map_location="cpu")
    lm_keys = {key for key in weights if key.startswith("lm.")}
    adapters = {name for name, _ in trained.named_parameters() if "lora_" in name}
    assert lm_keys == adapters and {key.rsplit(".lora_", 1)[0].rsplit(".", 1)[-1] for key in adapters} == {
        "q_proj", "v_proj", "down_proj"}
    loaded = load_archive(str(tmp_path / "run" / "model.tar.gz")).model.eval()
    assert loaded.probe_type == "lora"
    batch = tensors(instances)
    with torch.no_grad():
        expected = trained(**batch)["logits"]
        assert torch.allclose(loaded(**batch)["logits"], expected, rtol=0, atol=1e-5)
        untrained = CausalLmMc(Vocabulary(), llama).eval()(**batch)["logits"]
    assert (untrained - expected).abs().max() > 1e-2  # the adapters trained, and the archive carried them


def test_state_dicts_and_strict_loads_follow_the_probe_type(llama):
    lm_keys = {}
    for probe_type in ("zero_shot", "lora", "full"):
        model = CausalLmMc(Vocabulary(), llama, probe_type=probe_type, lora_dropout=0.1)
        assert model.train().lm.training == (probe_type != "zero_shot")  # zero-shot: never dropout
        if probe_type == "zero_shot":
            assert not any(p.requires_grad for p in model.parameters())
        state = model.state_dict()
        lm_keys[probe_type] = {key for key in state if key.startswith("lm.")}
        model.load_state_dict(state)  # strict: the weights an archive does not keep are not missing
        if lm_keys[probe_type]:
            dropped = sorted(lm_keys[probe_type])[0]
            del state[dropped]
            with pytest.raises(RuntimeError, match="Missing key"):
                model.load_state_dict(state)  # but a weight it keeps is
    assert lm_keys["zero_shot"] == set()
    assert lm_keys["lora"] and all("lora_" in key for key in lm_keys["lora"])
    assert lm_keys["full"] == {"lm." + key for key in model.lm.state_dict()}


def test_full_trains_every_weight(llama, instances):
    model = CausalLmMc(Vocabulary(), llama, probe_type="full")
    assert not any(hasattr(module, "lora_A") for module in model.lm.modules())
    assert all(p.requires_grad for p in model.lm.parameters())
    before = lm_weights(model)
    adam_steps(model, tensors(instances), 1, lr=1e-3)
    after = lm_weights(model)
    for name in ("model.layers.0.self_attn.q_proj.weight", "model.layers.1.mlp.down_proj.weight", "lm_head.weight"):
        assert not torch.equal(before[name], after[name]), name


def test_configuration_errors_name_the_key(llama, monkeypatch):
    with pytest.raises(ConfigurationError, match="model.probe_type.*'qlora'"):
        CausalLmMc(Vocabulary(), llama, probe_type="qlora")
    with pytest.raises(ConfigurationError, match=r"model.lora_target_modules.*\['c_attn'\].*q_proj"):
        CausalLmMc(Vocabulary(), llama, probe_type="lora", lora_target_modules=["q_proj", "c_attn"])
    monkeypatch.setattr(causal_lm_mc, "DEFAULT_LORA_TARGETS", ("c_attn", "c_fc"))  # a model with none of them
    with pytest.raises(ConfigurationError, match="model.lora_target_modules.*none of the default"):
        CausalLmMc(Vocabulary(), llama, probe_type="lora")
    with pytest.raises(ConfigurationError, match="model.device_map"):
        CausalLmMc(Vocabulary(), llama, probe_type="full", device_map="auto")

"""Model names are checked before transformers sees them (resources/pretrained.py): a directory
without config.json, a path that does not exist, and a hub name that is not in the local model cache
offline (or not on the hub online) are one short line naming the model and what was expected; a
cached name offline resolves to its snapshot directory. No network: the hub's answers are stubbed."""
import socket

import pytest

from mcqa_probes.resources import pretrained
from mcqa_probes.resources.errors import ModelNotFoundError
from mcqa_probes.resources.pretrained import check_model_name, hub_offline, resolve_transformer_name

OFFLINE_MESSAGE = ("no-such-model-xyz: not a local directory, not a known offline name (smollm2, minilm, ...) "
                   "and not in the local model cache (offline)")


def fake_cache(root, name, files=("config.json",)):
    """A HuggingFace cache holding ``name`` (refs/main -> snapshots/<commit>/<files>), as the hub client writes it."""
    repo = root / ("models--" + name.replace("/", "--"))
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("0123abcd")
    snapshot = repo / "snapshots" / "0123abcd"
    snapshot.mkdir(parents=True)
    for file in files:
        (snapshot / file).write_text("{}")
    return snapshot


@pytest.fixture
def offline(monkeypatch, tmp_path):
    """HF_HUB_OFFLINE=1 and an empty model cache of our own."""
    from huggingface_hub import constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setattr(pretrained, "_checked", {})
    return tmp_path / "hub"


@pytest.fixture
def online(monkeypatch, tmp_path):
    """The hub reachable (no offline switch, the connection test passed) and an empty cache."""
    from huggingface_hub import constants

    for variable in pretrained.OFFLINE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(pretrained, "_hub_reachable", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setattr(pretrained, "_checked", {})
    return tmp_path / "hub"


def stub_model_info(monkeypatch, outcome):
    """The hub's answer to ``model_info``: an exception to raise, or anything to return."""
    import huggingface_hub

    asked = []

    def model_info(name, **kwargs):
        asked.append(name)
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    monkeypatch.setattr(huggingface_hub, "model_info", model_info)
    return asked


def test_a_directory_without_config_json_is_not_a_model_directory(tmp_path):
    with pytest.raises(ModelNotFoundError) as error:
        resolve_transformer_name(str(tmp_path))
    assert str(error.value) == f"{tmp_path}: not a model directory (no config.json)"
    (tmp_path / "config.json").write_text("{}")
    assert resolve_transformer_name(str(tmp_path)) == str(tmp_path)  # a model directory passes unchanged


def test_a_tokenizer_directory_passes(tmp_path):
    (tmp_path / "tokenizer_config.json").write_text("{}")
    assert check_model_name(str(tmp_path)) == str(tmp_path)


def test_a_file_or_a_missing_path_is_one_line_naming_it(tmp_path, offline):
    (tmp_path / "weights.bin").write_text("x")
    with pytest.raises(ModelNotFoundError, match=r"weights.bin: a file, not a model directory \(expected a directory "
                                                 r"with config.json"):
        check_model_name(str(tmp_path / "weights.bin"))
    for name in (str(tmp_path / "gone"), "./gone", "a/b/c", "bad name!"):
        with pytest.raises(ModelNotFoundError) as error:
            check_model_name(name)
        assert str(error.value).startswith(f"{name}: no such model directory, and not a HuggingFace model name")


def test_offline_an_unknown_name_is_one_line(offline):
    with pytest.raises(ModelNotFoundError) as error:
        resolve_transformer_name("no-such-model-xyz")
    assert str(error.value) == OFFLINE_MESSAGE and isinstance(error.value, OSError)


def test_offline_a_cached_name_resolves_to_its_snapshot(offline):
    snapshot = fake_cache(offline, "some-org/tiny-model")
    assert resolve_transformer_name("some-org/tiny-model") == str(snapshot)  # loads with no network call
    with pytest.raises(ModelNotFoundError, match="some-org/other-model: not a local directory"):
        resolve_transformer_name("some-org/other-model")


def test_transformers_offline_switch_counts_too(monkeypatch, offline):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setattr(pretrained, "_hub_reachable", True)  # the switch wins over a reachable hub
    assert hub_offline()
    with pytest.raises(ModelNotFoundError, match=r"not in the local model cache \(offline\)"):
        check_model_name("no-such-model-xyz")


def test_online_a_name_the_hub_does_not_know_is_one_line(monkeypatch, online):
    from huggingface_hub.utils import RepositoryNotFoundError

    asked = stub_model_info(monkeypatch, RepositoryNotFoundError("404 Client Error: Repository Not Found"))
    with pytest.raises(ModelNotFoundError) as error:
        resolve_transformer_name("no-such-model-xyz")
    assert str(error.value) == ("no-such-model-xyz: not a local directory, not a known offline name (smollm2, "
                                "minilm, ...) and not a model on the HuggingFace hub (repository not found)")
    assert asked == ["no-such-model-xyz"]


def test_online_hub_names_pass_unchanged(monkeypatch, online):
    from huggingface_hub.utils import GatedRepoError

    asked = stub_model_info(monkeypatch, object())
    assert resolve_transformer_name("roberta-large") == "roberta-large"  # loaded by name, as before
    assert resolve_transformer_name("roberta-large") == "roberta-large" and asked == ["roberta-large"]  # asked once
    stub_model_info(monkeypatch, GatedRepoError("403 gated"))
    assert resolve_transformer_name("meta-llama/Llama-3.2-1B") == "meta-llama/Llama-3.2-1B"  # transformers says why
    stub_model_info(monkeypatch, ConnectionError("no answer"))
    assert resolve_transformer_name("Qwen/Qwen2.5-0.5B") == "Qwen/Qwen2.5-0.5B"  # no answer: transformers tries
    fake_cache(online, "FacebookAI/roberta-base")
    asked = stub_model_info(monkeypatch, AssertionError("a cached name is not asked for"))
    assert resolve_transformer_name("FacebookAI/roberta-base") == "FacebookAI/roberta-base" and asked == []


def test_the_connection_test_decides_without_a_switch(monkeypatch):
    for variable in pretrained.OFFLINE_VARIABLES + pretrained.PROXY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    tried = []
    monkeypatch.setattr(pretrained, "_connects", lambda host, port, timeout: tried.append((host, port)) or False)
    monkeypatch.setattr(pretrained, "_hub_reachable", None)
    assert hub_offline() and hub_offline() and tried == [("huggingface.co", 443)]  # tested once per process
    monkeypatch.setattr(pretrained, "_hub_reachable", None)
    monkeypatch.setenv("HF_ENDPOINT", "http://hub.example:8080")
    monkeypatch.setattr(pretrained, "_connects", lambda host, port, timeout: tried.append((host, port)) or True)
    assert not hub_offline() and tried[-1] == ("hub.example", 8080)
    monkeypatch.setattr(pretrained, "_hub_reachable", None)
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")  # behind a proxy the hub's answer decides
    monkeypatch.setattr(pretrained, "_connects", lambda *args: pytest.fail("no connection test behind a proxy"))
    assert not hub_offline()


def test_connects_opens_a_local_port_and_refuses_a_closed_one():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        assert pretrained._connects("127.0.0.1", server.getsockname()[1], 2.0)
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, not listening: refused
        assert not pretrained._connects("127.0.0.1", port, 2.0)


def test_short_offline_names_are_not_checked_against_the_hub(offline):
    assert resolve_transformer_name("minilm").endswith(str(pretrained.minilm_dir().name))


def test_a_command_model_argument_is_checked_but_smollm2_waits_for_its_loader(offline, monkeypatch, tmp_path):
    """check_model_argument: what bin/zero_shot and bin/inoculate call before torch loads."""
    with pytest.raises(ModelNotFoundError) as error:
        pretrained.check_model_argument("no-such-model-xyz")
    assert str(error.value) == OFFLINE_MESSAGE
    pretrained.check_model_argument("minilm")  # the package is there
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "config.json").write_text("{}")
    pretrained.check_model_argument(str(tmp_path / "model"))
    monkeypatch.setattr(pretrained, "smollm2_target", lambda: tmp_path / "not_converted_yet")
    pretrained.check_model_argument("smollm2")  # converted on first use, by the causal-LM loader

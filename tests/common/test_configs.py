"""The shipped configs and the one check of a key's few values (mcqa_probes.common.configs)."""
import pytest

from mcqa_probes.common.configs import CONFIG_DIR, config_file, one_of


def test_one_of_gives_the_value_or_one_error_naming_the_key():
    assert one_of("mean", ("first_token", "mean"), "model.pooling") == "mean"
    with pytest.raises(ValueError) as error:
        one_of("max", ("first_token", "mean"), "model.pooling")
    assert str(error.value) == "model.pooling: expected one of ('first_token', 'mean'), got 'max'"
    with pytest.raises(KeyError):
        one_of("x", ["a"], "key", error=KeyError)


def test_config_file_finds_a_shipped_config_or_lists_them():
    assert config_file("roberta_probe.jsonnet") == CONFIG_DIR / "roberta_probe.jsonnet"
    with pytest.raises(FileNotFoundError, match="roberta_probe.jsonnet"):
        config_file("nonsense.jsonnet")

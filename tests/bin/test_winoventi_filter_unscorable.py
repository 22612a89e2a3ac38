"""bin/winoventi_filter: a triple the model cannot score (a multi-piece word) is written as an empty
cell, which the registry reader takes as not known (neither pass nor fail); --batch-size 0 is an error."""
import pytest

from mcqa_probes.common.cli import InputError
from mcqa_probes.data.winoventi import Registry, individual_pairs, read_registry, read_winoventi, write_registry
from tests.conftest import FIXTURES, load_bin
from tests.experiments.winoventi.conftest import WORDS

TSV = FIXTURES / "winoventi" / "winoventi_small.tsv"
SPONGE = ("sponge", "dry", "soggy")  # "soggy" is not in WORDS: multi-piece for the tiny model


@pytest.fixture(scope="module")
def bert(tmp_path_factory) -> str:
    from mcqa_probes.testing import make_tiny_bert

    return str(make_tiny_bert(tmp_path_factory.mktemp("wf_bert"), words=WORDS))


def run(argv, capsys):
    capsys.readouterr()
    code = load_bin("winoventi_filter").main([str(a) for a in argv])
    return code, capsys.readouterr().out


def test_unscorable_triples_are_written_empty_and_read_as_not_known(bert, tmp_path, capsys):
    out = tmp_path / "flags.tsv"
    code, printed = run(["--model", bert, "--triples", TSV, "--out", out, "--details", tmp_path / "d.jsonl",
                         "--column", "tiny", "--cuda-device", "-1"], capsys)
    assert code == 0 and "1 not scorable" in printed
    rows = {tuple(line.split("\t")[:3]): line.split("\t")[3] for line in out.read_text().splitlines()[1:]}
    assert rows.pop(SPONGE) == ""
    assert len(rows) == 4 and set(rows.values()) <= {"True", "False"}
    registry = read_registry(out)
    assert SPONGE not in registry.flags["tiny"]  # not known: neither pass nor fail
    assert {t: str(flag) for t, flag in registry.flags["tiny"].items()} == rows
    prompts = read_winoventi(TSV)
    sponge_pair = next(p.pair_index for p in prompts if p.triple == SPONGE)
    assert sponge_pair not in individual_pairs(prompts, registry.flags["tiny"])


def test_a_model_that_scores_nothing_writes_no_false(tmp_path, capsys):
    from mcqa_probes.testing import make_tiny_bert

    model = make_tiny_bert(tmp_path / "bert")  # its small vocabulary makes every outcome word multi-piece
    out = tmp_path / "flags.tsv"
    code, printed = run(["--model", model, "--triples", TSV, "--out", out, "--cuda-device", "-1"], capsys)
    assert code == 0 and "0 pass, 0 fail, 5 not scorable" in printed
    assert [line.split("\t")[3] for line in out.read_text().splitlines()[1:]] == [""] * 5
    assert read_registry(out).flags == {str(model): {}}


def test_registry_cells_empty_or_na_are_not_known_and_round_trip(tmp_path):
    kettle, bread = ("kettle", "hot", "cold"), ("bread", "fresh", "stale")
    write_registry(Registry(["m", "n"], {"m": {kettle: True}, "n": {kettle: False, bread: True}}), tmp_path / "r.tsv",
                   [kettle, bread])
    assert (tmp_path / "r.tsv").read_text().splitlines()[1:] == ["kettle\thot\tcold\tTrue\tFalse",
                                                                  "bread\tfresh\tstale\t\tTrue"]
    assert read_registry(tmp_path / "r.tsv").flags == {"m": {kettle: True}, "n": {kettle: False, bread: True}}
    (tmp_path / "na.tsv").write_text("Word\tAssociative Bias\tAlternative\tm\nkettle\thot\tcold\tNA\n")
    assert read_registry(tmp_path / "na.tsv").flags == {"m": {}}
    (tmp_path / "bad.tsv").write_text("Word\tAssociative Bias\tAlternative\tm\nkettle\thot\tcold\tmaybe\n")
    with pytest.raises(ValueError, match="expected True/False"):
        read_registry(tmp_path / "bad.tsv")


def test_batch_size_0_is_an_error_before_the_model_loads(tmp_path, capsys):
    out = tmp_path / "flags.tsv"
    with pytest.raises(InputError, match=r"^--batch-size 0: expected 1 or more$"):
        run(["--model", tmp_path / "no_such_model", "--triples", TSV, "--out", out, "--batch-size", "0",
             "--cuda-device", "-1"], capsys)
    assert not out.exists()

"""The ``winoventi`` reader: MC-MLM instances (o_g, o_e), multi-piece pairs skipped and reported, subsets."""
import pytest
from allennlp.data import DatasetReader

import mcqa_probes.plugin  # noqa: F401  (registers the components)
from mcqa_probes.data.dataset_readers.winoventi import WinoVentiReader
from tests.conftest import FIXTURES
from tests.experiments.winoventi.conftest import wv_bert  # noqa: F401  (session fixture)

WV = FIXTURES / "winoventi"


def test_instances(wv_bert):  # noqa: F811
    reader = DatasetReader.by_name("winoventi")(transformer_model_name=wv_bert)
    instances = list(reader.read(WV / "winoventi_small.tsv"))
    assert len(instances) == 8 and reader.skipped_prompts == 2 and reader.multi_piece_words == {"soggy"}
    vocab = reader.hf_tokenizer.get_vocab()
    first, exception = instances[0], instances[4]
    assert first["candidate_ids"].tensor.tolist() == [vocab["hot"], vocab["cold"]]
    assert exception["candidate_ids"].tensor.tolist() == [vocab["hot"], vocab["cold"]]
    assert (first["label"].label, exception["label"].label) == (0, 1)
    tokens = [t.text for t in first["tokens"].tokens]
    assert tokens[first["mask_position"].tensor.item()] == "[MASK]"
    assert first["metadata"]["test_type"] == 1 and exception["metadata"]["pair_index"] == 0
    with pytest.raises(ValueError, match="line 6: candidate 'soggy'"):
        list(WinoVentiReader(wv_bert, skip_multi_piece_candidates=False).read(WV / "winoventi_small.tsv"))


def test_subsets(wv_bert):  # noqa: F811
    registry = str(WV / "registry_small.tsv")
    individual = WinoVentiReader(wv_bert, subset="individual", registry_path=registry, subset_model="model-b")
    assert [i["metadata"]["word"] for i in individual.read(WV / "winoventi_small.tsv")] == ["kettle", "lamp", "cup"] * 2
    intersection = WinoVentiReader(wv_bert, subset="intersection", registry_path=registry)
    assert len(list(intersection.read(WV / "winoventi_small.tsv"))) == 4  # kettle, cup (sponge skipped)
    with pytest.raises(ValueError, match="not a column"):
        list(WinoVentiReader(wv_bert, subset="individual", registry_path=registry).read(WV / "winoventi_small.tsv"))
    with pytest.raises(ValueError, match="registry_path"):
        WinoVentiReader(wv_bert, subset="intersection")

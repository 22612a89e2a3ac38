"""WinoVenti with a causal LM (library and bin/winoventi_eval): the sentence with the target word against the
sentence with the incorrect word, by hand from the model's logits."""
import json
import runpy

import pytest

from mcqa_probes.common import cli
from mcqa_probes.data.winoventi import read_winoventi
from mcqa_probes.experiments.causal_lm.winoventi import evaluate_causal_model
from mcqa_probes.experiments.causal_lm.zero_shot import build
from tests.causal_models import hand_loglikelihood, load, tiny_causal  # noqa: F401
from tests.conftest import FIXTURES, ROOT

TSV = FIXTURES / "winoventi" / "winoventi_small.tsv"


def test_causal_winoventi_row_and_bin_equal_the_hand_computation(tiny_causal, tmp_path):
    directory = tiny_causal("gpt2", 512)
    prompts = read_winoventi(TSV)
    built = build(directory, "sum", cuda_device=-1, choice_only_control=False, prompt_format="sentence")
    lm, _ = load(directory)
    sentence = lambda text, word: hand_loglikelihood(lm, built[1].scorer, "", text.replace("[MASK]", word))[0]  # noqa: E731
    correct = {p.line: sentence(p.masked_prompt, p.target) > sentence(p.masked_prompt, p.incorrect) for p in prompts}
    right = {t: [correct[p.line] for p in prompts if p.test_type == t] for t in (1, 2)}
    passes = {p.triple: sentence(f"The {p.word} is [MASK].", p.generic) > sentence(f"The {p.word} is [MASK].", p.exception)
              for p in prompts}
    individual = {1: [], 2: []}
    for prompt in prompts:
        if passes[prompt.triple]:
            individual[prompt.test_type].append(correct[prompt.line])
    percent = lambda values: 100.0 * sum(values) / len(values)  # noqa: E731

    row = evaluate_causal_model(directory, prompts, built=built)
    assert (row["all"]["generic"], row["all"]["exception"]) == (pytest.approx(percent(right[1])),
                                                                pytest.approx(percent(right[2])))
    assert row["scored_prompts"] == len(prompts) and row["skipped_prompts"] == 0 and row["score"] == "sum"
    if individual[1]:
        assert row["individual"]["generic"] == pytest.approx(percent(individual[1]))
        assert row["individual"]["n"] == len(individual[1])

    main = runpy.run_path(str(ROOT / "bin" / "winoventi_eval"), run_name="bin_script")["main"]
    out = tmp_path / "rows.json"
    registry = FIXTURES / "winoventi" / "registry_small.tsv"
    assert main(["--model", directory, "--tsv", str(TSV), "--registry", str(registry), "--cuda-device", "-1",
                 "--json", str(out)]) == 0
    [written] = json.loads(out.read_text())
    assert written["all"] == row["all"] and "intersection" in written
    assert written["individual_source"].startswith("computed")
    with pytest.raises(cli.InputError, match="--multi-token: only for masked LMs"):
        main(["--model", directory, "--tsv", str(TSV), "--multi-token", "pll", "--cuda-device", "-1"])

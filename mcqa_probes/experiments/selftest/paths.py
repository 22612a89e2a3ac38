"""The self-test's paths: each one of the toolkit's commands, as a user types it, on the GPU (or CPU).

A :class:`SelftestPath` is a command line, its environment, the questions it scores (for
questions/s), the Python packages it needs, the path whose output it reads (``after``) and the
path it is compared with for bf16-vs-fp32 agreement (``agrees_with``). :func:`selftest_paths`
lists them in the order they run (the archive first: evaluation, prediction, the grid and the
report read it).
"""
import importlib.util
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from mcqa_probes.resources import MissingResourceError, glove_50d_file


@dataclass
class SelftestPath:
    name: str
    command: List[str]
    what: str
    env: Dict[str, str] = field(default_factory=dict)
    questions: int = 0
    needs: Tuple[str, ...] = ()
    after: Tuple[str, ...] = ()
    #: a JSON-lines file of per-question outputs (``best_choice_index`` or ``logits``) and the path
    #: whose file it is compared with (bf16 vs fp32)
    predictions: Optional[Path] = None
    agrees_with: Optional[str] = None


@dataclass
class SelftestSettings:
    root: Path            # the checkout (training_config/, bin/, .allennlp_plugins)
    work: Path            # where models, data and outputs go
    cuda_device: int
    encoder: Path
    causal: Path
    files: Dict[str, Path]
    questions: int
    encoder_large: Optional[Path] = None
    python: str = sys.executable

    @property
    def gpu(self) -> bool:
        return self.cuda_device >= 0

    @property
    def low(self) -> str:
        """The reduced precision the paths run in: bf16 (on the CPU too, through CPU autocast)."""
        return "bf16"


def _overrides(precision: str) -> str:
    return json.dumps({"model.precision": precision})


def _has_glove() -> bool:
    """Whether the GloVe vectors of the report card's control are here (the package or a file)."""
    try:
        glove_50d_file(create=False)
    except MissingResourceError:
        return False
    return True


def selftest_paths(s: SelftestSettings) -> List[SelftestPath]:
    allennlp = [s.python, "-m", "allennlp"]

    def binary(name: str) -> List[str]:
        return [s.python, str(s.root / "bin" / name)]

    device = ["--cuda-device", str(s.cuda_device)]
    archive = s.work / "archive" / "model.tar.gz"
    causal_archive = s.work / "causal_archive" / "model.tar.gz"
    train_questions = 2 * s.questions
    glove = _has_glove()
    paths = [
        SelftestPath(
            "train", allennlp + ["train", str(s.root / "training_config" / "roberta_probe.jsonnet"), "-s",
                                 str(s.work / "archive")],
            "allennlp train roberta_probe.jsonnet, 1 epoch" + (", USE_AMP" if s.gpu else ""),
            env={"MODEL_NAME": str(s.encoder), "TRAIN_DATA": str(s.files["train"]), "DEV_DATA": str(s.files["dev"]),
                 "EPOCHS": "1", "BATCH_SIZE": "16", "MAX_LENGTH": "128", "CUDA_DEVICE": str(s.cuda_device),
                 "USE_AMP": "true" if s.gpu else "false"},
            questions=train_questions + s.questions),
    ]
    for precision in ("fp32", s.low):
        paths.append(SelftestPath(
            f"evaluate_{precision}", allennlp + ["evaluate", str(archive), str(s.files["test"]), *device,
                                                 "--output-file", str(s.work / f"evaluate_{precision}.json"),
                                                 "--predictions-output-file",
                                                 str(s.work / f"evaluate_{precision}.jsonl"),
                                                 "--overrides", _overrides(precision)],
            f"allennlp evaluate, {precision}", questions=s.questions, after=("train",),
            predictions=s.work / f"evaluate_{precision}.jsonl",
            agrees_with=None if precision == "fp32" else "evaluate_fp32"))
    for precision in ("fp32", s.low):
        paths.append(SelftestPath(
            f"predict_{precision}", allennlp + ["predict", str(archive), str(s.files["test"]), "--predictor", "mcqa",
                                                "--use-dataset-reader", "--silent", "--batch-size", "32", *device,
                                                "--output-file", str(s.work / f"predict_{precision}.jsonl"),
                                                "--overrides", _overrides(precision)],
            f"allennlp predict (mcqa predictor), {precision}", questions=s.questions, after=("train",),
            predictions=s.work / f"predict_{precision}.jsonl",
            agrees_with=None if precision == "fp32" else "predict_fp32"))
    precision = ["--precision", s.low]
    paths += [
        SelftestPath("zero_shot_mlm", binary("zero_shot") + ["--model", str(s.encoder), "--data", str(s.files["mc_mlm"]),
                                                             *device, *precision],
                     f"bin/zero_shot, MC-MLM, {s.low}", questions=s.questions),
        SelftestPath("zero_shot_pll", binary("zero_shot") + ["--model", str(s.encoder), "--data",
                                                             str(s.files["multi_piece"]), "--multi-token", "pll",
                                                             *device, *precision],
                     f"bin/zero_shot, multi-piece choices by PLL, {s.low}", questions=max(4, s.questions // 4)),
        SelftestPath("winoventi_eval", binary("winoventi_eval") + ["--model", str(s.encoder), "--tsv",
                                                                   str(s.files["winoventi"]), "--multi-token", "pll",
                                                                   *device, *precision],
                     f"bin/winoventi_eval, {s.low}", questions=10),
        SelftestPath("causal_archive", allennlp + ["train", str(s.root / "training_config" / "causal_lm_zero_shot.jsonnet"),
                                                   "-s", str(s.work / "causal_archive")],
                     "allennlp train causal_lm_zero_shot.jsonnet (writes the archive)",
                     env={"MODEL_NAME": str(s.causal), "TRAIN_DATA": str(s.files["dev"])}),
    ]
    for precision_name in ("fp32", s.low):
        paths.append(SelftestPath(
            f"causal_evaluate_{precision_name}",
            allennlp + ["evaluate", str(causal_archive), str(s.files["dev"]), *device,
                        "--output-file", str(s.work / f"causal_evaluate_{precision_name}.json"),
                        "--predictions-output-file", str(s.work / f"causal_evaluate_{precision_name}.jsonl"),
                        "--overrides", _overrides(precision_name)],
            f"allennlp evaluate, causal LM (causal_lm_mc), {precision_name}", questions=s.questions,
            after=("causal_archive",), predictions=s.work / f"causal_evaluate_{precision_name}.jsonl",
            agrees_with=None if precision_name == "fp32" else "causal_evaluate_fp32"))
    if importlib.util.find_spec("ray") is not None:
        grid = ["--workers", "2"] + (["--gpus-per-trial", "0.5"] if s.gpu else ["--cpus-per-trial", "1"])
        grid_what = "bin/inoculate, 2 trials through Ray" + (", 0.5 GPU each" if s.gpu else "")
    else:  # the grid runner's serial mode: the inoculation path still runs where Ray is not installed
        grid, grid_what = ["--workers", "1"], "bin/inoculate, 2 trials one after the other (Ray is not installed)"
    paths += [
        SelftestPath("zero_shot_causal", binary("zero_shot") + ["--model", str(s.causal), "--data", str(s.files["dev"]),
                                                                *device, *precision],
                     f"bin/zero_shot, causal LM with the choice-only control, {s.low}", questions=s.questions),
        SelftestPath("inoculation_grid",
                     binary("inoculate") + ["--base-archive", str(archive), "--probe-dir", str(s.files["probe_dir"]),
                                            "--orig-dev", str(s.files["test"]), "--model-name", str(s.encoder),
                                            "--dosages", "16", "--lrs", "1e-5,3e-5", "--epochs", "1",
                                            "--dev-max", str(s.questions), "--out", str(s.work / "inoculation"),
                                            *device, *grid],
                     grid_what, after=("train",), questions=2 * (16 + 3 * s.questions)),
        SelftestPath("probe_report",
                     allennlp + ["probe-report", str(archive), "--out", str(s.work / "report"), "--probes-dir",
                                 str(s.files["probe_dir"].parent), "--split", "test", "--max-questions",
                                 str(s.questions), "--control-max-train", "64", "--control-epochs", "1", *device],
                     "allennlp probe-report on the archive" + ("" if glove else " (GloVe: random stand-in vectors)"),
                     env={} if glove else {"MCQA_GLOVE_FILE": str(s.files["glove_stand_in"])},
                     after=("train",), questions=s.questions),
        SelftestPath("bench_eval", binary("bench_eval") + ["--model", str(s.encoder), "--data", str(s.files["test"]),
                                                           "--repeat", "1", "--rounds", "1", *device, *precision],
                     f"bin/bench_eval (allennlp evaluate vs a plain loop), {s.low}", questions=2 * s.questions),
    ]
    if s.encoder_large is not None:
        paths.append(SelftestPath(
            "bench_eval_large", binary("bench_eval") + ["--model", str(s.encoder_large), "--data", str(s.files["test"]),
                                                        "--repeat", "1", "--rounds", "1", *device, *precision],
            f"bin/bench_eval on the BERT-large-size encoder, {s.low}", questions=2 * s.questions))
    paths += [
        SelftestPath("bench_read", binary("bench_read") + ["--data", str(s.files["train"]), "--model", str(s.encoder),
                                                           "--limit", str(train_questions), "--repeat", "1"],
                     "bin/bench_read (the mcqa reader)", questions=train_questions),
        SelftestPath("bench_mlm", binary("bench_mlm") + ["--model", str(s.encoder), "--data", str(s.files["mc_mlm"]),
                                                         "--limit", str(s.questions), *device, *precision],
                     f"bin/bench_mlm (masked_lm_mc vs the fill-mask pipeline), {s.low}", questions=2 * s.questions),
        SelftestPath("bench_causal", binary("bench_causal") + ["--model", str(s.causal), "--data", str(s.files["dev"]),
                                                               "--limit", str(s.questions), "--json", *device],
                     "bin/bench_causal (causal_lm_mc vs lm-evaluation-harness), fp32", needs=("lm_eval",),
                     questions=2 * s.questions),
    ]
    return paths

"""``allennlp probe-report``: the probe report card of one or more models (same as ``bin/report_card``).

    allennlp probe-report runs/minilm_synonymy/model.tar.gz minilm --out runs/report_card \
        --olmpics-dir fixtures/olmpics --winoventi-tsv fixtures/winoventi/winoventi_small.tsv

MODEL: a transformer_mcqa archive (model.tar.gz or the -s directory of allennlp train), a masked
LM by HuggingFace name or directory, ``minilm``, or a causal LM (``smollm2``, or a causal-LM name or
directory: every section zero-shot, scored by ``--causal-score``). Each section runs where the model type and the
data allow it and says why it is absent otherwise. Writes DIR/report.html (self-contained),
report.json (every number) and report.md; a re-run with the same DIR reuses finished sections.
"""
import argparse
import logging
import shlex
import sys
from pathlib import Path
from typing import List, Optional

from allennlp.commands.subcommand import Subcommand

from mcqa_probes.common import cli
from mcqa_probes.common.device import add_device_arguments


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options of the report card (``allennlp probe-report`` and ``bin/report_card``)."""
    from mcqa_probes.experiments.report_card.inputs import CAUSAL_SCORES, CardInputs  # lazy: `allennlp --help` loads every command

    defaults = CardInputs()
    parser.add_argument("models", nargs="+", metavar="MODEL",
                        help="transformer_mcqa archive (model.tar.gz or its -s directory), masked LM name or directory, "
                             "minilm, or a causal LM (smollm2, a causal-LM name or directory: zero-shot)")
    parser.add_argument("--out", required=True, help="output directory (report.html, report.json, report.md)")
    parser.add_argument("--probes-dir", default=defaults.probes_dir,
                        help=f"bin/build_probes output: <probe>/<split>.jsonl (default: {defaults.probes_dir})")
    parser.add_argument("--split", default=defaults.split, choices=("train", "dev", "test"),
                        help="probe split the MCQA model answers (default: test)")
    parser.add_argument("--olmpics-dir", default=None, help="oLMpics data directory (<probe>_dev.jsonl as released)")
    parser.add_argument("--olmpics-curves", default=None,
                        help="a bin/olmpics_suite or bin/learning_curve output directory (WS / MAX)")
    parser.add_argument("--winoventi-tsv", default=None, help="WinoVenti TSV (winoventi_bert_large_final.tsv layout)")
    parser.add_argument("--winoventi-registry", default=None,
                        help="associative-bias registry TSV (Individual from its column, Intersection)")
    parser.add_argument("--csqa-dev", default=None, help="CommonsenseQA dev file (labelled)")
    parser.add_argument("--audit-dir", default=None,
                        help="bin/artifact_audit output: its Choice-Only-GloVe results are the control")
    parser.add_argument("--inoculation-dir", default=None, help="bin/inoculate output directory (or a directory of them)")
    parser.add_argument("--max-questions", type=int, default=defaults.max_questions,
                        help=f"first N questions of each file, WinoVenti: first N pairs; 0 = all (default {defaults.max_questions})")
    parser.add_argument("--control-max-train", type=int, default=defaults.control_max_train,
                        help="Choice-Only-GloVe control: at most N training questions per probe")
    parser.add_argument("--control-epochs", type=int, default=defaults.control_epochs)
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
    parser.add_argument("--causal-score", default=defaults.causal_score, choices=CAUSAL_SCORES,
                        help="a causal LM's normalisation of a choice's log-likelihood (the others are shown beside; "
                             f"default {defaults.causal_score})")
    parser.add_argument("--causal-template", default=defaults.causal_template,
                        help="a causal LM's cloze prompt; {stem} is the question (default: %(default)r)")
    parser.add_argument("--determinism-check", type=int, default=0, metavar="N",
                        help="re-score N random questions (seeded) of every scored file at batch size 1 and show the "
                             "largest score difference and the changed answers, one line per model (default 0: off)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (default: a bar per model / section / probe: questions done / total, "
                             "questions per second, time left; one line a minute when stderr is not a terminal)")
    add_device_arguments(parser)
    return parser


#: the path options checked before any model loads: option, attribute, kind, what is expected there
PATH_OPTIONS = (
    ("--probes-dir", "probes_dir", "directory", "the bin/build_probes output: <probe>/<split>.jsonl"),
    ("--olmpics-dir", "olmpics_dir", "directory", "the oLMpics data directory: <probe>_dev.jsonl as released"),
    ("--olmpics-curves", "olmpics_curves", "directory", "a bin/olmpics_suite or bin/learning_curve output directory"),
    ("--winoventi-tsv", "winoventi_tsv", "file", "a WinoVenti TSV (winoventi_bert_large_final.tsv layout)"),
    ("--winoventi-registry", "winoventi_registry", "file", "an associative-bias registry TSV"),
    ("--csqa-dev", "csqa_dev", "file", "a labelled CommonsenseQA dev file"),
    ("--audit-dir", "audit_dir", "directory", "a bin/artifact_audit output directory"),
    ("--inoculation-dir", "inoculation_dir", "directory", "a bin/inoculate output directory (or a directory of them)"),
)


def check_arguments(args: argparse.Namespace) -> None:
    """Before any model loads: a MODEL meant as a path (see :func:`cli.looks_like_path`) and every
    path option given must exist, ``--max-questions`` must be ≥ 0. An :class:`cli.InputError`
    names the option, the path and what was expected there (``--probes-dir`` at its default may
    be missing: the WordNetQA section then says why it did not run)."""
    from mcqa_probes.experiments.report_card.inputs import CardInputs  # lazy: the report card loads when it runs

    from mcqa_probes.data.causal_prompts import check_template  # lazy: as above

    if args.max_questions < 0:
        raise cli.InputError(f"--max-questions {args.max_questions}: expected a count ≥ 0 (0 = all)")
    try:
        check_template(getattr(args, "causal_template", "{stem}"), "--causal-template")
    except ValueError as error:
        raise cli.InputError(str(error)) from None
    for model in args.models:
        if cli.looks_like_path(model) and not Path(model).expanduser().exists():
            raise cli.InputError(f"MODEL {model}: no such model archive or directory (expected a transformer_mcqa "
                                 f"model.tar.gz, the -s directory of allennlp train, a masked LM name or directory, "
                                 f"or minilm)")
    cli.require_output_directory(args.out, "a directory for report.html, report.json and report.md", "--out")
    for option, attribute, kind, what in PATH_OPTIONS:
        value = getattr(args, attribute, None)
        if not value or (attribute == "probes_dir" and value == CardInputs().probes_dir):
            continue
        (cli.require_directory if kind == "directory" else cli.require_file)(value, what, option)


def run(args: argparse.Namespace, argv: Optional[List[str]] = None, program: str = "allennlp probe-report") -> int:
    check_arguments(args)
    from mcqa_probes.experiments.report_card.card import build_report_card  # lazy: the card loads when it runs
    from mcqa_probes.experiments.report_card.inputs import CardInputs  # lazy: as above

    quiet()
    inputs = CardInputs(probes_dir=args.probes_dir, split=args.split, olmpics_dir=args.olmpics_dir,
                        olmpics_curves=args.olmpics_curves, winoventi_tsv=args.winoventi_tsv,
                        winoventi_registry=args.winoventi_registry, csqa_dev=args.csqa_dev, audit_dir=args.audit_dir,
                        inoculation_dir=args.inoculation_dir, max_questions=args.max_questions,
                        control_max_train=args.control_max_train, control_epochs=args.control_epochs, batch_size=args.batch_size,
                        cuda_device=args.cuda_device, precision=args.precision, causal_score=args.causal_score,
                        causal_template=args.causal_template, determinism_check=args.determinism_check)
    argv = sys.argv[1:] if argv is None else argv
    command = " ".join([program] + [shlex.quote(a) for a in argv if a not in ("probe-report", cli.DEBUG_FLAG, "--quiet")])
    report = build_report_card(args.models, args.out, inputs, command=command, progress=progress_lines(args.quiet),
                               quiet=args.quiet)
    print(summary(report, args.out))
    return 0


def progress_lines(quiet: bool):
    """Where the card's one-line messages (a section running, reused, done) go: stderr, or nowhere."""
    return (lambda line: None) if quiet else (lambda line: print(line, file=sys.stderr, flush=True))


def quiet() -> None:
    """Progress lines, not allennlp's and transformers' INFO logs (archive loading, parameters)."""
    from transformers.utils import logging as hf_logging

    logging.basicConfig(level=logging.WARNING)
    for name in ("allennlp", "mcqa_probes", "filelock", "urllib3"):
        logging.getLogger(name).setLevel(logging.WARNING)
    hf_logging.set_verbosity_error()


def summary(report, out) -> str:
    """What the command prints: the one-line readings per section and model, then the files."""
    lines = [report["title"], ""]
    for section in report["sections"]:
        lines.append(section["title"])
        for label, entry in section["models"].items():
            text = entry["reading"] if entry["status"] == "done" else f"not run: {entry['reason']}"
            lines.append(f"  {label}: {text}" + (" (reused)" if entry.get("reused") else ""))
    lines += ["", f"written: {out}/report.html, {out}/report.json, {out}/report.md"]
    return "\n".join(lines)


@Subcommand.register("probe-report")
class ProbeReport(Subcommand):
    """The report card subcommand: see the module docstring."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        subparser = parser.add_parser(self.name, description=__doc__, help="the probe report card of one or more models",
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
        add_arguments(subparser)
        subparser.add_argument(cli.DEBUG_FLAG, action="store_true",
                               help=f"show the full traceback of an error (also {cli.DEBUG_VARIABLE}=1)")
        subparser.set_defaults(func=main)
        return subparser


def main(args: argparse.Namespace) -> None:
    """What allennlp calls: :func:`run` with its errors reported as every command reports them
    (:mod:`mcqa_probes.common.cli`: one ``error:`` line, exit status 2 for bad input). allennlp's
    own main ignores the return value, so a failure leaves through ``SystemExit``."""
    status = cli.call(run, args, debug=getattr(args, "debug", False))
    if status:
        raise SystemExit(status)

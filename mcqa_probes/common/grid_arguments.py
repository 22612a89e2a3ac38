"""The grid's command-line options (:mod:`mcqa_probes.experiments.grid`), in a plain module: a
command parses its arguments, and checks them, before it loads torch or allennlp."""
import argparse


def add_grid_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("grid (see mcqa_probes/experiments/grid.py)")
    group.add_argument("--workers", type=int, default=None,
                       help="trials at a time (default: the machine's cores / --cpus-per-trial, or its GPUs / "
                            "--gpus-per-trial); 1 runs serially in this process without Ray")
    group.add_argument("--address", default=None,
                       help="run on an existing Ray cluster (default: RAY_ADDRESS, else a local Ray)")
    group.add_argument("--cpus-per-trial", type=float, default=1.0, help="CPUs (torch threads) per trial")
    group.add_argument("--gpus-per-trial", type=float, default=None,
                       help="GPUs per trial, a fraction allowed (default: 1 when the command runs on a GPU, else 0)")

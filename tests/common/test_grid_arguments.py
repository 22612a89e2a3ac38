"""The grid's command-line options (mcqa_probes.common.grid_arguments): a plain module, so that a
command parses them before torch loads; the grid runner reads them (grid_options)."""
import argparse
import subprocess
import sys

from mcqa_probes.common.grid_arguments import add_grid_arguments
from tests.conftest import ROOT


def test_options_and_defaults():
    parser = argparse.ArgumentParser()
    add_grid_arguments(parser)
    args = parser.parse_args([])
    assert (args.workers, args.address, args.cpus_per_trial, args.gpus_per_trial) == (None, None, 1.0, None)
    args = parser.parse_args(["--workers", "2", "--gpus-per-trial", "0.5"])
    assert (args.workers, args.gpus_per_trial) == (2, 0.5)


def test_the_grid_runner_reads_them():
    from mcqa_probes.experiments.grid import grid_options

    parser = argparse.ArgumentParser()
    add_grid_arguments(parser)
    options = grid_options(parser.parse_args(["--workers", "3"]), cuda_device=0)
    assert (options.workers, options.gpus_per_trial, options.cpus_per_trial) == (3, 1.0, 1.0)


def test_importing_them_loads_no_torch():
    code = ("import sys, mcqa_probes.common.grid_arguments, mcqa_probes.common.device, mcqa_probes.common.progress, "
            "mcqa_probes.resources.pretrained; print(sorted(n for n in ('torch', 'allennlp', 'transformers') "
            "if n in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"

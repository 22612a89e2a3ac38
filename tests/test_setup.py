"""bin/setup's torch choice (``--dry-run`` prints it without installing anything)."""
import os
import shutil
import subprocess
from pathlib import Path

from tests.conftest import ROOT


def dry_run(tmp_path, *args, gpu=False, **env):
    """Run ``bin/setup --dry-run``; with ``gpu`` a fake ``nvidia-smi`` that lists one GPU is first on PATH."""
    path = os.environ["PATH"]
    if gpu:
        fake = tmp_path / "fake_bin"
        fake.mkdir(exist_ok=True)
        (fake / "nvidia-smi").write_text('#!/bin/sh\necho "GPU 0: NVIDIA H200 (UUID: GPU-0)"\n')
        (fake / "nvidia-smi").chmod(0o755)
        path = f"{fake}{os.pathsep}{path}"
    environment = {key: value for key, value in os.environ.items() if key not in ("TORCH", "TORCH_INDEX_URL")}
    environment.update(PATH=path, **env)
    result = subprocess.run(["bash", str(ROOT / "bin" / "setup"), "--dry-run", *args], capture_output=True,
                            text=True, env=environment, timeout=120)
    return result


def test_a_visible_nvidia_gpu_gets_the_cuda_build_from_the_default_index(tmp_path):
    result = dry_run(tmp_path, gpu=True)
    assert result.returncode == 0, result.stderr
    assert "torch build: cuda (an NVIDIA GPU is visible" in result.stdout
    assert result.stdout.strip().endswith("would run: pip install torch==2.13.0")


def test_cpu_is_forced_even_where_a_gpu_is_visible(tmp_path):
    result = dry_run(tmp_path, "--cpu", gpu=True)
    assert result.returncode == 0, result.stderr
    assert "torch build: cpu (asked for)" in result.stdout
    last = result.stdout.strip().splitlines()[-1]
    # PyTorch's CPU index where it can be reached, else plain pip (our machines' pip configuration)
    assert last in ("would run: pip install torch==2.13.0+cpu --index-url https://download.pytorch.org/whl/cpu "
                    "--extra-index-url https://pypi.org/simple", "would run: pip install torch==2.13.0")
    if last.endswith("torch==2.13.0"):
        assert "CPU wheel index cannot be reached" in result.stdout


def test_the_default_follows_the_machine(tmp_path):
    """CPU build without an NVIDIA driver (CI, our machines), CUDA build with one."""
    result = dry_run(tmp_path)
    assert result.returncode == 0, result.stderr
    if shutil.which("nvidia-smi") or Path("/proc/driver/nvidia/version").exists():
        assert "torch build: cuda (an NVIDIA" in result.stdout
    else:
        assert "torch build: cpu (no NVIDIA GPU is visible)" in result.stdout


def test_cuda_flag_and_an_explicit_index(tmp_path):
    result = dry_run(tmp_path, "--cuda", TORCH_INDEX_URL="https://download.pytorch.org/whl/cu126")
    assert result.returncode == 0, result.stderr
    assert "torch build: cuda (asked for)" in result.stdout
    assert result.stdout.strip().endswith("--index-url https://download.pytorch.org/whl/cu126")


def test_bad_options_are_refused(tmp_path):
    result = dry_run(tmp_path, "--bogus")
    assert result.returncode == 1 and "unknown option --bogus" in result.stderr
    result = dry_run(tmp_path, TORCH="gpu")
    assert result.returncode == 1 and "TORCH=gpu: expected cpu or cuda" in result.stderr

"""Where a command runs and in which precision: one home for ``--cuda-device`` and ``--precision``.

Every bin/ command that runs a model takes the same two options (``add_device_arguments``):

* ``--cuda-device N``: the GPU to use, as allennlp counts them; ``-1`` forces the CPU. Default: 0
  when torch sees a GPU, else -1 (``default_cuda_device``).
* ``--precision fp32|bf16|fp16``: autocast for evaluation, prediction and scoring (``autocast``);
  scores always come back in fp32. Training uses allennlp's ``use_amp`` (config ``USE_AMP``).

torch is imported lazily so that argument parsing stays cheap.
"""
import argparse
import contextlib
from typing import Any, Dict, Optional

#: precision name -> torch dtype name used by autocast (None: no autocast)
PRECISIONS: Dict[str, Optional[str]] = {"fp32": None, "bf16": "bfloat16", "fp16": "float16"}


def default_cuda_device() -> int:
    """0 when torch sees a GPU, else -1 (CPU)."""
    import torch

    return 0 if torch.cuda.is_available() else -1


def resolve_cuda_device(cuda_device: Optional[int] = None) -> int:
    """The device a command runs on: ``None`` picks the default; a GPU that is not there is an error."""
    if cuda_device is None:
        return default_cuda_device()
    cuda_device = int(cuda_device)
    if cuda_device < 0:
        return -1
    import torch

    available = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if cuda_device >= available:
        raise ValueError(
            f"--cuda-device {cuda_device}: torch sees {available} GPU(s)"
            + ("" if available else " (CPU build of torch, or no NVIDIA driver)")
            + "; use -1 for the CPU"
        )
    return cuda_device


def torch_device(cuda_device: int) -> "Any":
    """The ``torch.device`` for an allennlp-style device number."""
    import torch

    return torch.device("cpu") if cuda_device < 0 else torch.device("cuda", cuda_device)


def check_precision(precision: str, where: str = "precision") -> str:
    if precision not in PRECISIONS:
        raise ValueError(f"{where}: expected one of {sorted(PRECISIONS)}, got {precision!r}")
    return precision


def autocast(device: "Any", precision: str = "fp32"):
    """A context that runs the enclosed forward pass in ``precision`` on ``device`` (no-op for fp32).

    ``device`` is a ``torch.device``, a device type string, or an allennlp device number.
    """
    import torch

    check_precision(precision)
    dtype_name = PRECISIONS[precision]
    if dtype_name is None:
        return contextlib.nullcontext()
    if isinstance(device, int):
        device = torch_device(device)
    device_type = device if isinstance(device, str) else device.type
    return torch.autocast(device_type=device_type, dtype=getattr(torch, dtype_name))


def config_environment(cuda_device: int, precision: Optional[str] = None) -> Dict[str, str]:
    """The environment variables the training configs read (``CUDA_DEVICE``, and ``PRECISION``
    for the model's ``precision`` key when given), for :func:`mcqa_probes.common.environment.environment`."""
    variables = {"CUDA_DEVICE": str(int(cuda_device))}
    if precision is not None:
        variables["PRECISION"] = check_precision(precision)
    return variables


def place_model(model: "Any", cuda_device: int, precision: str = "fp32") -> "Any":
    """Move ``model`` to ``cuda_device`` and make it score in ``precision``; returns the model.

    A model with a ``precision`` attribute (every :class:`MultipleChoiceModel`) gets it set; asking
    another model for anything but fp32 is an error (it would silently run in fp32).
    """
    check_precision(precision)
    if hasattr(model, "precision"):
        model.precision = precision
    elif precision != "fp32":
        raise ValueError(f"{type(model).__name__} has no precision setting: it scores in fp32 only")
    return model.to(torch_device(cuda_device))


def model_device(model: "Any") -> "Any":
    """The ``torch.device`` of a model's parameters (CPU for a model without any)."""
    import torch

    parameter = next(iter(model.parameters()), None)
    return parameter.device if parameter is not None else torch.device("cpu")


def add_device_arguments(parser: argparse.ArgumentParser, precision: bool = True) -> argparse.ArgumentParser:
    """Add ``--cuda-device`` (and ``--precision``) to a bin/ command's parser."""
    parser.add_argument(
        "--cuda-device",
        type=int,
        default=None,
        help="GPU number for the model (-1 = CPU; default: 0 when torch sees a GPU, else -1)",
    )
    if precision:
        parser.add_argument(
            "--precision",
            choices=sorted(PRECISIONS),
            default="fp32",
            help="autocast precision for evaluation/scoring (scores are returned in fp32)",
        )
    return parser


def cuda_device_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``args.cuda_device`` resolved (:func:`resolve_cuda_device`); a GPU that is not there is a usage error."""
    try:
        return resolve_cuda_device(args.cuda_device)
    except ValueError as error:
        parser.error(str(error))
        raise  # parser.error exits; for type checkers


def check_requested_device(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A ``--cuda-device`` given on the command line checked at once (a GPU that is not there is a
    usage error, :func:`cuda_device_from_args`); the default waits, so that a command can check the
    rest of its arguments before torch loads and call :func:`cuda_device_from_args` after."""
    if getattr(args, "cuda_device", None) is not None:
        cuda_device_from_args(parser, args)


def describe(cuda_device: int, precision: str = "fp32") -> str:
    """One line for logs: ``cuda:0 (NVIDIA H200), bf16`` or ``cpu, fp32``."""
    if cuda_device < 0:
        return f"cpu, {precision}"
    import torch

    return f"cuda:{cuda_device} ({torch.cuda.get_device_name(cuda_device)}), {precision}"

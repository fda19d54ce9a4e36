"""Finds and loads libtensorplace_ops, whose static registrations define the operators."""

import os

import torch

from tensorplace._config import LIBRARY

_HERE = os.path.dirname(os.path.abspath(__file__))


def library_path() -> str:
    """The path of the shared library this package loads: the one installed (or built) with it,
    at a location fixed when the package was configured, relative to the package's directory."""
    return os.path.normpath(os.path.join(_HERE, LIBRARY))


def _registered() -> bool:
    try:
        torch.ops.tensorplace.bias_act
    except (AttributeError, RuntimeError):  # AttributeError from torch 2.x, RuntimeError in 1.13
        return False
    return True


def load_library() -> None:
    """Registers the operators, unless a copy of the library already has (a C++ extension that
    links it, or an earlier ``torch.ops.load_library``): a second copy would fail to register
    the same namespace again."""
    if _registered():
        return
    path = library_path()
    if not os.path.exists(path):
        raise ImportError(
            f"tensorplace: the operator library {path} does not exist; the package expects it "
            "where `cmake --install` put it, beside the package's installation prefix")
    torch.ops.load_library(path)

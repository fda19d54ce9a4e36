"""Typed wrappers of the tensorplace operators, as ``torchvision.ops`` wraps its own.

Each function calls ``torch.ops.tensorplace.<name>`` and nothing else, so it traces, scripts and
compiles like the operator itself. Their defaults are the operator schemas' defaults (defined
once, in ``kernels/src/ops.cpp``, the same as the C++ API's; the package's test checks that the
two agree). Every operator has a CPU kernel and a Meta kernel, and a CUDA kernel when LibTorch
was built with CUDA; under ``torch.compile`` and ``torch.export`` the Meta kernel is the fake
implementation, so nothing needs ``torch.library.register_fake``.
"""

from typing import List, Literal, Sequence, Tuple, Union

import torch
from torch import Tensor

__all__ = ["bias_act", "bias_act_backward", "normalize_images", "to_device_normalized"]

Activation = Literal["none", "relu", "gelu", "gelu_tanh", "silu"]
Layout = Literal["NHWC", "NCHW"]


def bias_act(x: Tensor, bias: Tensor, act: Activation = "relu") -> Tensor:
    """``act(x + bias)`` in one pass, ``bias`` broadcast over the last dimension of ``x``.

    Args:
        x: any shape with at least one dimension; float32 or float64 on the CPU, also float16
            and bfloat16 on CUDA.
        bias: 1-D, of size ``x.size(-1)``, the dtype and device of ``x``.
        act: ``"none"``, ``"relu"``, ``"gelu"`` (erf), ``"gelu_tanh"`` or ``"silu"``.

    Returns:
        A contiguous tensor of the shape, dtype and device of ``x``. Differentiable in ``x``
        and ``bias`` (once: the backward is not itself differentiable).
    """
    return torch.ops.tensorplace.bias_act(x, bias, act)


def bias_act_backward(grad_out: Tensor, x: Tensor, bias: Tensor,
                      act: Activation) -> Tuple[Tensor, Tensor]:
    """The gradients of :func:`bias_act` with respect to ``x`` and ``bias``, in one pass:
    ``grad_x = grad_out * act'(x + bias)`` and ``grad_bias``, ``grad_x`` summed over every
    dimension but the last. ``grad_out`` has the shape and dtype of ``x``."""
    return torch.ops.tensorplace.bias_act_backward(grad_out, x, bias, act)


def normalize_images(images: Tensor, mean: Sequence[float], std: Sequence[float],
                     layout: Layout = "NHWC",
                     out_dtype: torch.dtype = torch.float32) -> Tensor:
    """uint8 images to a normalised ``N x C x H x W`` batch, ``(x / 255 - mean[c]) / std[c]``,
    in one pass.

    Args:
        images: uint8, ``N x H x W x C`` (``layout="NHWC"``) or ``N x C x H x W`` (``"NCHW"``),
            any strides.
        mean, std: one value per channel; ``std`` has no zero.
        out_dtype: float32, float16 or bfloat16.

    Returns:
        A contiguous ``N x C x H x W`` tensor of ``out_dtype`` on the images' device.
    """
    return torch.ops.tensorplace.normalize_images(images, _floats(mean), _floats(std), layout,
                                                  out_dtype)


def to_device_normalized(images: Tensor, device: Union[torch.device, str, int],
                         mean: Sequence[float], std: Sequence[float], layout: Layout = "NHWC",
                         out_dtype: torch.dtype = torch.float32) -> Tensor:
    """:func:`normalize_images` on ``device``: CPU images bound for a GPU are staged in pinned
    memory and sent as uint8 (a quarter of float32's bytes) with one asynchronous copy, then
    normalised there. Images already on ``device`` are normalised where they are."""
    return torch.ops.tensorplace.to_device_normalized(images, torch.device(device),
                                                      _floats(mean), _floats(std), layout,
                                                      out_dtype)


def _floats(values: Sequence[float]) -> List[float]:
    # The schema's float[] takes a list; a tuple or a 1-D tensor's tolist() is accepted here.
    return [float(v) for v in values]

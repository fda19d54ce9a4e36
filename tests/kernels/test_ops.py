"""The tensorplace operators from Python: torch.ops.load_library on the built library, then
each operator against the torch composition, gradients against finite differences
(torch.autograd.gradcheck), and the documented errors. Usage: test_ops.py <libtensorplace_ops>.
"""
import sys

import torch
import torch.nn.functional as F

ACTIVATIONS = {
    "none": lambda z: z,
    "relu": torch.relu,
    "gelu": F.gelu,
    "gelu_tanh": lambda z: F.gelu(z, approximate="tanh"),
    "silu": F.silu,
}
MEAN = [0.485, 0.456, 0.406]
STD = [0.229, 0.224, 0.225]
TOLERANCE = {torch.float32: 1e-5, torch.float64: 1e-12, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}

checks = 0


def check(condition, message):
    global checks
    if not condition:
        raise AssertionError(message)
    checks += 1


def check_close(actual, expected, dtype, what):
    tol = TOLERANCE[dtype]
    check(actual.dtype == expected.dtype and actual.shape == expected.shape,
          f"{what}: got {actual.dtype} {tuple(actual.shape)}, expected {expected.dtype} {tuple(expected.shape)}")
    close = torch.allclose(actual.double(), expected.double(), rtol=tol, atol=tol)
    check(close, "" if close else
          f"{what}: max abs diff {(actual.double() - expected.double()).abs().max().item()}")


def check_raises(fn, text, what):
    try:
        fn()
    except RuntimeError as error:
        check(text in str(error), f"{what}: error {str(error)!r} does not contain {text!r}")
        return
    raise AssertionError(f"{what}: no error raised")


def test_bias_act():
    ops = torch.ops.tensorplace
    for act, reference in ACTIVATIONS.items():
        for dtype in (torch.float32, torch.float64):
            for shape in [(0, 5), (1,), (7,), (3, 5), (2, 3, 17), (1000, 67)]:
                x = torch.randn(shape, dtype=dtype) * 3
                bias = torch.randn(shape[-1], dtype=dtype)
                check_close(ops.bias_act(x, bias, act), reference(x + bias), dtype,
                            f"bias_act {act} {dtype} {shape}")
        x = torch.randn(9, 6).t()
        bias = torch.randn(9)
        check_close(ops.bias_act(x, bias, act), reference(x + bias), torch.float32,
                    f"bias_act {act} non-contiguous")


def test_bias_act_gradients():
    for act in ACTIVATIONS:
        x = torch.randn(4, 7, dtype=torch.float64)
        bias = torch.randn(7, dtype=torch.float64)
        # Away from relu's kink, where finite differences are meaningless.
        x = torch.where((x + bias).abs() < 1e-2, x + 0.5, x).requires_grad_()
        bias.requires_grad_()
        check(torch.autograd.gradcheck(lambda a, b: torch.ops.tensorplace.bias_act(a, b, act),
                                       (x, bias), eps=1e-6, atol=1e-7),
              f"gradcheck bias_act {act}")
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    bias = torch.randn(4, dtype=torch.float64, requires_grad=True)
    y = torch.ops.tensorplace.bias_act(x, bias, "gelu")
    (grad_x,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    check_raises(lambda: (y.sum() + grad_x.pow(2).sum()).backward(),
                 "tensorplace::bias_act has no second derivative", "double backward")


def test_normalize_images():
    ops = torch.ops.tensorplace
    for layout in ("NHWC", "NCHW"):
        for dtype in (torch.float32, torch.float16, torch.bfloat16):
            for shape in [(0, 4, 4, 3), (1, 1, 1, 3), (2, 5, 7, 3), (2, 31, 517, 3)]:
                images = torch.randint(0, 256, shape, dtype=torch.uint8)
                if layout == "NCHW":
                    images = images.permute(0, 3, 1, 2).contiguous()
                nchw = images.permute(0, 3, 1, 2) if layout == "NHWC" else images
                mean = torch.tensor(MEAN, dtype=torch.float64).view(1, 3, 1, 1)
                std = torch.tensor(STD, dtype=torch.float64).view(1, 3, 1, 1)
                expected = ((nchw.double() / 255 - mean) / std).to(dtype)
                check_close(ops.normalize_images(images, MEAN, STD, layout, dtype), expected, dtype,
                            f"normalize_images {layout} {dtype} {shape}")
                check_close(ops.to_device_normalized(images, torch.device("cpu"), MEAN, STD, layout, dtype),
                            expected, dtype, f"to_device_normalized cpu {layout} {dtype} {shape}")


def test_errors():
    ops = torch.ops.tensorplace
    x = torch.randn(2, 5)
    check_raises(lambda: ops.bias_act(x, torch.randn(5), "tanh"),
                 "act should be one of none, relu, gelu, gelu_tanh, silu, got 'tanh'", "bad act")
    check_raises(lambda: ops.bias_act(x, torch.randn(4), "relu"),
                 "bias should be a 1-D tensor of size x.size(-1) = 5, got shape [4]", "bad bias")
    check_raises(lambda: ops.bias_act(x, torch.randn(5, dtype=torch.float64), "relu"),
                 "bias should have the dtype of x (Float), got Double", "bias dtype")
    check_raises(lambda: ops.normalize_images(torch.zeros(1, 2, 2, 3), MEAN, STD, "NHWC", torch.float32),
                 "images should be uint8, got Float", "float images")
    if not torch.cuda.is_available():
        check_raises(lambda: ops.to_device_normalized(torch.zeros(1, 2, 2, 3, dtype=torch.uint8),
                                                      torch.device("cuda"), MEAN, STD, "NHWC", torch.float32),
                     "device should be an available CUDA device", "no CUDA")


def bias_relu(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.ops.tensorplace.bias_act(x, b, "relu")


def test_schemas():
    schema = str(torch.ops.tensorplace.bias_act.default._schema)
    check(schema == 'tensorplace::bias_act(Tensor x, Tensor bias, str act="relu") -> Tensor',
          f"bias_act schema: {schema}")
    scripted = torch.jit.script(bias_relu)
    x, b = torch.randn(3, 4), torch.randn(4)
    check_close(scripted(x, b), torch.relu(x + b), torch.float32, "TorchScript call")


def main():
    torch.ops.load_library(sys.argv[1])
    torch.manual_seed(0)
    for test in (test_bias_act, test_bias_act_gradients, test_normalize_images, test_errors, test_schemas):
        test()
    print(f"tensorplace ops from Python (torch {torch.__version__}): {checks} checks passed")


if __name__ == "__main__":
    main()

"""The Python package `tensorplace` as a user meets it: `import tensorplace` registers the
operators without a typed path, the schemas' defaults are the C++ API's and the wrappers', each
operator runs on the CPU and on meta tensors with the same checks, and gradients match finite
differences. Where the installed torch has them (2.4 and later), also PyTorch's own operator
test, torch.library.opcheck, over a spread of inputs, and torch.compile(fullgraph=True) and
torch.export of a small model built on the operators, against eager.

Usage: test_package.py LIBRARY [--require-opcheck]
  LIBRARY            the libtensorplace_ops the package must have loaded
  --require-opcheck  fail, rather than skip, where torch lacks opcheck or torch.compile (the
                     build passes it when its LibTorch is 2.4 or later)
or:    test_package.py --installed BUILD_DIR PREFIX PYTHON_DIR
  installs BUILD_DIR into PREFIX and imports the package from PREFIX/PYTHON_DIR alone.
"""
import inspect
import os
import subprocess
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
# ScalarType numbers that schemas of torch 1.13 report as defaults, by dtype.
SCALAR_TYPE_NUMBERS = {torch.float16: 5, torch.float32: 6, torch.bfloat16: 15}

tensorplace = None  # imported by main()
checks = 0
skipped = []


def check(condition, message):
    global checks
    if not condition:
        raise AssertionError(message)
    checks += 1


def check_close(actual, expected, what, tol=1e-5):
    check(actual.dtype == expected.dtype and actual.shape == expected.shape
          and actual.device == expected.device,
          f"{what}: got {actual.dtype} {tuple(actual.shape)} on {actual.device}, expected "
          f"{expected.dtype} {tuple(expected.shape)} on {expected.device}")
    close = torch.allclose(actual.double(), expected.double(), rtol=tol, atol=tol)
    check(close, "" if close else
          f"{what}: max abs diff {(actual.double() - expected.double()).abs().max().item()}")


def error_of(fn):
    try:
        fn()
    except RuntimeError as error:
        return str(error).splitlines()[0]
    return None


def normalized_reference(images, layout="NHWC", dtype=torch.float32):
    nchw = images.permute(0, 3, 1, 2) if layout == "NHWC" else images
    mean = torch.tensor(MEAN, dtype=torch.float64).view(1, 3, 1, 1)
    std = torch.tensor(STD, dtype=torch.float64).view(1, 3, 1, 1)
    return ((nchw.double() / 255 - mean) / std).to(dtype)


def test_import(library):
    check(os.path.samefile(tensorplace.library_path(), library),
          f"the package loaded {tensorplace.library_path()}, not {library}")
    check(tensorplace.__version__.count(".") == 2, f"version {tensorplace.__version__!r}")
    for name in ("bias_act", "bias_act_backward", "normalize_images", "to_device_normalized"):
        check(callable(getattr(torch.ops.tensorplace, name)), f"torch.ops.tensorplace.{name}")
        check(getattr(tensorplace.ops, name).__doc__, f"tensorplace.ops.{name} has a docstring")


def test_signatures():
    """The wrappers' parameters and defaults are the schemas' (which are the C++ API's)."""
    for name in ("bias_act", "bias_act_backward", "normalize_images", "to_device_normalized"):
        schema = getattr(torch.ops.tensorplace, name).default._schema
        parameters = inspect.signature(getattr(tensorplace.ops, name)).parameters
        check([a.name for a in schema.arguments] == list(parameters),
              f"{name}: schema arguments {[a.name for a in schema.arguments]}, "
              f"wrapper parameters {list(parameters)}")
        for argument in schema.arguments:
            wrapper_default = parameters[argument.name].default
            schema_default = argument.default_value
            if wrapper_default is inspect.Parameter.empty:
                check(schema_default is None, f"{name}({argument.name}): the schema has a "
                      f"default ({schema_default!r}), the wrapper none")
            elif isinstance(wrapper_default, torch.dtype) and isinstance(schema_default, int):
                check(SCALAR_TYPE_NUMBERS.get(wrapper_default) == schema_default,
                      f"{name}({argument.name}): schema default {schema_default}, wrapper "
                      f"{wrapper_default}")
            else:
                check(schema_default == wrapper_default, f"{name}({argument.name}): schema "
                      f"default {schema_default!r}, wrapper {wrapper_default!r}")


def test_defaults_on_cpu():
    x, bias = torch.randn(4, 6), torch.randn(6)
    check_close(torch.ops.tensorplace.bias_act(x, bias), torch.relu(x + bias), "op, default act")
    check_close(tensorplace.ops.bias_act(x, bias), torch.relu(x + bias), "wrapper, default act")
    for act, reference in ACTIVATIONS.items():
        check_close(tensorplace.ops.bias_act(x, bias, act), reference(x + bias), f"bias_act {act}")
        grad_x, grad_bias = tensorplace.ops.bias_act_backward(torch.ones_like(x), x, bias, act)
        check(grad_x.shape == x.shape and grad_bias.shape == bias.shape,
              f"bias_act_backward {act} shapes")
    images = torch.randint(0, 256, (2, 5, 7, 3), dtype=torch.uint8)
    expected = normalized_reference(images)
    check_close(torch.ops.tensorplace.normalize_images(images, MEAN, STD), expected,
                "op, default layout and out_dtype")
    check_close(tensorplace.ops.normalize_images(images, tuple(MEAN), STD), expected,
                "wrapper, defaults, mean as a tuple")
    check_close(tensorplace.ops.normalize_images(images.permute(0, 3, 1, 2), MEAN, STD, "NCHW",
                                                 torch.bfloat16),
                normalized_reference(images, "NHWC", torch.bfloat16), "wrapper, NCHW view",
                tol=1.6e-2)
    check_close(torch.ops.tensorplace.to_device_normalized(images, torch.device("cpu"), MEAN, STD),
                expected, "to_device_normalized op, defaults")
    check_close(tensorplace.ops.to_device_normalized(images, "cpu", MEAN, STD), expected,
                "to_device_normalized wrapper, defaults")


def test_gradients():
    for act in ACTIVATIONS:
        for shape in [(4, 7), (2, 3, 5), (6,)]:
            x = torch.randn(shape, dtype=torch.float64)
            bias = torch.randn(shape[-1], dtype=torch.float64)
            # Away from relu's kink, where finite differences are meaningless.
            x = torch.where((x + bias).abs() < 1e-2, x + 0.5, x).requires_grad_()
            bias.requires_grad_()
            check(torch.autograd.gradcheck(lambda a, b: tensorplace.ops.bias_act(a, b, act),
                                           (x, bias), eps=1e-6, atol=1e-7),
                  f"gradcheck bias_act {act} {shape}")


def meta_cases():
    """(what, a call on CPU tensors, the same call on meta tensors) for argument errors."""
    def both(make):
        return make("cpu"), make("meta")

    ops = torch.ops.tensorplace
    cases = []

    def add(what, make):
        cases.append((what,) + both(make))

    add("act", lambda d: lambda: ops.bias_act(torch.ones(2, 5, device=d), torch.ones(5, device=d), "tanh"))
    add("bias shape", lambda d: lambda: ops.bias_act(torch.ones(2, 5, device=d), torch.ones(4, device=d)))
    add("bias dtype", lambda d: lambda: ops.bias_act(torch.ones(2, 5, device=d),
                                                     torch.ones(5, device=d, dtype=torch.float64)))
    add("0-d x", lambda d: lambda: ops.bias_act(torch.ones((), device=d), torch.ones(1, device=d)))
    add("grad_out shape", lambda d: lambda: ops.bias_act_backward(
        torch.ones(2, 4, device=d), torch.ones(2, 5, device=d), torch.ones(5, device=d), "relu"))
    add("grad_out dtype", lambda d: lambda: ops.bias_act_backward(
        torch.ones(2, 5, device=d, dtype=torch.float64), torch.ones(2, 5, device=d),
        torch.ones(5, device=d), "relu"))
    add("float images", lambda d: lambda: ops.normalize_images(torch.ones(1, 2, 2, 3, device=d), MEAN, STD))
    add("3-D images", lambda d: lambda: ops.normalize_images(
        torch.ones(4, 4, 3, device=d, dtype=torch.uint8), MEAN, STD))
    add("layout", lambda d: lambda: ops.normalize_images(
        torch.ones(1, 2, 2, 3, device=d, dtype=torch.uint8), MEAN, STD, "HWC"))
    add("mean length", lambda d: lambda: ops.normalize_images(
        torch.ones(1, 2, 2, 3, device=d, dtype=torch.uint8), [0.5], STD))
    add("zero std", lambda d: lambda: ops.normalize_images(
        torch.ones(1, 2, 2, 3, device=d, dtype=torch.uint8), MEAN, [0.5, 0.0, 0.5]))
    add("out_dtype", lambda d: lambda: ops.normalize_images(
        torch.ones(1, 2, 2, 3, device=d, dtype=torch.uint8), MEAN, STD, "NHWC", torch.float64))
    return cases


def test_meta():
    ops = tensorplace.ops
    for act in ACTIVATIONS:
        for shape in [(3, 5), (2, 3, 17), (0, 5), (7,)]:
            for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
                x = torch.empty(shape, device="meta", dtype=dtype)
                bias = torch.empty(shape[-1], device="meta", dtype=dtype)
                y = ops.bias_act(x, bias, act)
                check(y.device.type == "meta" and y.shape == x.shape and y.dtype == dtype
                      and y.is_contiguous(), f"meta bias_act {act} {shape} {dtype}")
                grad_x, grad_bias = ops.bias_act_backward(torch.empty_like(x), x, bias, act)
                check(grad_x.device.type == "meta" and grad_x.shape == x.shape
                      and grad_bias.shape == bias.shape and grad_bias.dtype == dtype,
                      f"meta bias_act_backward {act} {shape} {dtype}")
    x = torch.empty(8, 6, device="meta").t().requires_grad_()
    bias = torch.empty(8, device="meta", requires_grad=True)
    ops.bias_act(x, bias, "silu").sum().backward()
    check(x.grad.shape == x.shape and x.grad.device.type == "meta" and bias.grad.shape == (8,),
          "meta bias_act backward through autograd")
    for layout, shape in (("NHWC", (2, 5, 7, 3)), ("NCHW", (2, 3, 5, 7)), ("NHWC", (0, 4, 4, 3))):
        for out_dtype in (torch.float32, torch.float16, torch.bfloat16):
            images = torch.empty(shape, device="meta", dtype=torch.uint8)
            expected_shape = (shape[0], 3, shape[1], shape[2]) if layout == "NHWC" else shape
            out = ops.normalize_images(images, MEAN, STD, layout, out_dtype)
            check(out.device.type == "meta" and tuple(out.shape) == expected_shape
                  and out.dtype == out_dtype and out.is_contiguous(),
                  f"meta normalize_images {layout} {shape} {out_dtype}")
            out = ops.to_device_normalized(images, "meta", MEAN, STD, layout, out_dtype)
            check(out.device.type == "meta" and tuple(out.shape) == expected_shape
                  and out.dtype == out_dtype, f"meta to_device_normalized {layout} {out_dtype}")
    out = ops.normalize_images(torch.empty(2, 5, 7, 3, device="meta", dtype=torch.uint8), MEAN, STD)
    check(out.dtype == torch.float32 and tuple(out.shape) == (2, 3, 5, 7), "meta, defaults")
    for what, on_cpu, on_meta in meta_cases():
        cpu_error, meta_error = error_of(on_cpu), error_of(on_meta)
        check(cpu_error is not None and cpu_error == meta_error,
              f"{what}: the CPU kernel says {cpu_error!r}, the Meta kernel {meta_error!r}")
    check(error_of(lambda: ops.bias_act(torch.empty(2, 5, device="meta", dtype=torch.int32),
                                        torch.empty(5, device="meta", dtype=torch.int32)))
          == "x should be float32, float64, float16 or bfloat16, got Int", "meta int x")
    check(error_of(lambda: ops.bias_act(torch.empty(2, 5, device="meta"), torch.empty(5)))
          == "bias should be on the device of x (meta), got cpu", "meta x, CPU bias")


def opcheck_cases():
    """(op, args, kwargs, what) over dtypes, shapes, strides, zero sizes and requires_grad."""
    ops = torch.ops.tensorplace
    cases = []
    for act in ACTIVATIONS:
        for dtype in (torch.float32, torch.float64):
            for what, make_x, columns in [
                    ("2-D", lambda: torch.randn(3, 5, dtype=dtype), 5),
                    ("3-D", lambda: torch.randn(2, 3, 17, dtype=dtype), 17),
                    ("1-D", lambda: torch.randn(7, dtype=dtype), 7),
                    ("transposed", lambda: torch.randn(9, 6, dtype=dtype).t(), 9),
                    ("strided", lambda: torch.randn(4, 10, dtype=dtype)[:, ::2], 5),
                    ("zero rows", lambda: torch.randn(0, 5, dtype=dtype), 5)]:
                for requires_grad in (False, True):
                    x = make_x().requires_grad_(requires_grad)
                    bias = torch.randn(columns, dtype=dtype, requires_grad=requires_grad)
                    cases.append((ops.bias_act.default, (x, bias, act), {},
                                  f"bias_act {act} {dtype} {what} requires_grad={requires_grad}"))
                x, bias = make_x(), torch.randn(columns, dtype=dtype)
                cases.append((ops.bias_act_backward.default, (torch.randn_like(x), x, bias, act),
                              {}, f"bias_act_backward {act} {dtype} {what}"))
    x, bias = torch.randn(3, 5, requires_grad=True), torch.randn(5, requires_grad=True)
    cases.append((ops.bias_act.default, (x, bias), {}, "bias_act, default act"))
    for layout in ("NHWC", "NCHW"):
        for out_dtype in (torch.float32, torch.float16, torch.bfloat16):
            for what, shape in [("small", (2, 5, 7, 3)), ("one pixel", (1, 1, 1, 3)),
                                ("zero batch", (0, 4, 4, 3)), ("wide", (1, 3, 67, 3))]:
                images = torch.randint(0, 256, shape, dtype=torch.uint8)
                if layout == "NCHW":
                    images = images.permute(0, 3, 1, 2)  # a non-contiguous NCHW view
                args = (images, MEAN, STD, layout, out_dtype)
                cases.append((ops.normalize_images.default, args, {},
                              f"normalize_images {layout} {out_dtype} {what}"))
                cases.append((ops.to_device_normalized.default,
                              (images, torch.device("cpu")) + args[1:], {},
                              f"to_device_normalized {layout} {out_dtype} {what}"))
    images = torch.randint(0, 256, (2, 5, 7, 3), dtype=torch.uint8)
    cases.append((ops.normalize_images.default, (images, MEAN, STD), {}, "normalize_images, defaults"))
    cases.append((ops.normalize_images.default, (images, MEAN, STD), {"out_dtype": torch.float16},
                  "normalize_images, out_dtype by keyword"))
    return cases


def test_opcheck():
    counts = {}
    for op, args, kwargs, what in opcheck_cases():
        try:
            results = torch.library.opcheck(op, args, kwargs)
        except Exception as error:
            raise AssertionError(f"opcheck {what}: {error}") from error
        check(all(result == "SUCCESS" for result in results.values()), f"opcheck {what}: {results}")
        name = op._schema.name
        counts[name] = counts.get(name, 0) + 1
    print("opcheck passed: " + ", ".join(f"{name} {n} cases" for name, n in sorted(counts.items()))
          + f" (tests: {', '.join(results)})")


class SmallModel(torch.nn.Module):
    """normalize_images, then a linear layer whose epilogue is bias_act: the operators in a
    model that torch.compile must trace without a graph break."""

    def __init__(self, act):
        super().__init__()
        self.act = act
        self.linear = torch.nn.Linear(3 * 4 * 4, 16, bias=False)
        self.bias = torch.nn.Parameter(torch.randn(16))

    def forward(self, images):
        x = tensorplace.ops.normalize_images(images, MEAN, STD)
        h = tensorplace.ops.bias_act(self.linear(x.flatten(1)), self.bias, self.act)
        return h * 2


def test_compile():
    for act in ("gelu_tanh", "silu", "relu"):
        torch._dynamo.reset()
        model = SmallModel(act)
        compiled = torch.compile(model, fullgraph=True)
        # Two batch sizes: the second call recompiles with a dynamic batch dimension.
        for batch in (2, 5):
            images = torch.randint(0, 256, (batch, 4, 4, 3), dtype=torch.uint8)
            expected = model(images)
            expected.sum().backward()
            expected_grads = [p.grad.clone() for p in model.parameters()]
            model.zero_grad()
            actual = compiled(images)
            actual.sum().backward()
            check_close(actual, expected, f"torch.compile {act} batch {batch}")
            for (name, parameter), grad in zip(model.named_parameters(), expected_grads):
                check_close(parameter.grad, grad, f"torch.compile {act} batch {batch} grad {name}")
            model.zero_grad()
    torch._dynamo.reset()
    model = SmallModel("gelu")
    images = torch.randint(0, 256, (3, 4, 4, 3), dtype=torch.uint8)
    exported = torch.export.export(model, (images,))
    check_close(exported.module()(images), model(images), "torch.export")
    targets = {str(node.target) for node in exported.graph.nodes}
    check({"tensorplace.bias_act.default", "tensorplace.normalize_images.default"} <= targets,
          f"the exported graph calls the operators: {sorted(targets)}")


def test_installed(build_dir, prefix, python_dir):
    """`cmake --install` into PREFIX, then import from PREFIX/PYTHON_DIR only: the package finds
    the installed library by itself."""
    subprocess.run(["cmake", "--install", build_dir, "--prefix", prefix], check=True,
                   stdout=subprocess.DEVNULL)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = os.path.join(prefix, python_dir)
    code = ("import tensorplace, torch; "
            "print(tensorplace.__file__); print(tensorplace.library_path()); "
            "x = torch.randn(2, 3); b = torch.randn(3); "
            "assert torch.equal(tensorplace.ops.bias_act(x, b), torch.relu(x + b))")
    result = subprocess.run([sys.executable, "-c", code], env=env, cwd=prefix,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(result.returncode == 0, f"import from the installed prefix failed:\n{result.stdout}")
    package, library = result.stdout.splitlines()[-2:]
    real_prefix = os.path.realpath(prefix)
    check(os.path.realpath(package).startswith(real_prefix + os.sep)
          and os.path.realpath(library).startswith(real_prefix + os.sep),
          f"the package or the library did not come from {prefix}: {package}, {library}")
    print(f"installed package {package} loaded {library}")


def main():
    if sys.argv[1:2] == ["--installed"]:
        test_installed(*sys.argv[2:5])
        print(f"tensorplace installed package (torch {torch.__version__}): {checks} checks passed")
        return
    # Imported here, not at the top: --installed must not import the build tree's package.
    global tensorplace
    import tensorplace
    library = sys.argv[1]
    require_opcheck = "--require-opcheck" in sys.argv[2:]
    torch.manual_seed(0)
    test_import(library)
    for test in (test_signatures, test_defaults_on_cpu, test_gradients, test_meta):
        test()
    for test, needs in ((test_opcheck, hasattr(torch, "library") and hasattr(torch.library, "opcheck")),
                        (test_compile, hasattr(torch, "compile") and hasattr(torch, "export"))):
        if needs:
            test()
        elif require_opcheck:
            raise AssertionError(f"{test.__name__}: torch {torch.__version__} lacks what it needs")
        else:
            skipped.append(test.__name__)
    print(f"tensorplace package (torch {torch.__version__}): {checks} checks passed"
          + (f"; skipped, as torch {torch.__version__} lacks torch.library.opcheck, "
             f"torch.compile or torch.export: {', '.join(skipped)}" if skipped else ""))


if __name__ == "__main__":
    main()

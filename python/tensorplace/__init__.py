"""tensorplace's custom operators for PyTorch.

Importing the package loads ``libtensorplace_ops`` (from the lib directory of the installation
the package belongs to), which registers the operators with PyTorch's dispatcher:
``torch.ops.tensorplace.bias_act``, ``bias_act_backward``, ``normalize_images`` and
``to_device_normalized``. :mod:`tensorplace.ops` wraps each one in a typed Python function.

The library must have been built against the LibTorch of the ``torch`` imported here (Debian's
python3-torch for libtorch-dev, or the LibTorch inside a pip wheel).
"""

from tensorplace._library import library_path, load_library

load_library()

from tensorplace import ops  # noqa: E402  (the wrappers need the registered operators)
from tensorplace._config import VERSION as __version__  # noqa: E402

__all__ = ["ops", "library_path", "__version__"]

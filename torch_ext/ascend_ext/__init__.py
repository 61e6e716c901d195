"""ascend_ext: custom Ascend C operators for PyTorch.

The ops live in ``torch.ops.ascend_ext``; this package adds typed wrappers, autograd.Function forms,
layers and the CPU twin's tools. Importing it loads the compiled extension, which registers the ops.
"""
import torch  # noqa: F401  (the extension links against torch)

from . import _C  # noqa: F401  registers torch.ops.ascend_ext.*
from . import nn, twin
from .autograd import VectorAddFunction
from .ops import vector_add, vector_add_

__all__ = ["vector_add", "vector_add_", "VectorAddFunction", "nn", "twin"]
__version__ = "0.1.0"

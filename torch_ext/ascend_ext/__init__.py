"""ascend_ext: custom Ascend C operators for PyTorch.

The ops live in ``torch.ops.ascend_ext``; this package adds typed wrappers, autograd.Function forms,
layers and the CPU twin's tools. Importing it loads the compiled extension, which registers the ops.
"""
import torch  # noqa: F401  (the extension links against torch)

try:
    from . import _C  # noqa: F401  registers torch.ops.ascend_ext.*
except ImportError as _exc:
    # The NPU build links libtorch_npu, which only `import torch_npu` puts in the process (torch does so
    # itself unless TORCH_DEVICE_BACKEND_AUTOLOAD=0).
    if "libtorch_npu" not in str(_exc):
        raise
    try:
        import torch_npu  # noqa: F401
    except Exception as _npu_exc:
        raise ImportError(f"ascend_ext was built with the NPU adapter, which needs torch_npu, and importing "
                          f"torch_npu failed ({_npu_exc}); source CANN's set_env.sh first, or rebuild "
                          f"ascend_ext with ASCEND_EXT_NO_NPU=1 for the CPU-only build") from _exc
    from . import _C  # noqa: F401
from . import ops as _ops

globals().update(_ops.exports())  # the built-in ops' wrappers (vector_add, matmul, ...), from their modules
from . import nn, twin  # noqa: E402
from .autograd import DispersionCorrectionFunction, MatMulFunction, VectorAddFunction  # noqa: E402

__all__ = [*_ops.exports(), "DispersionCorrectionFunction", "MatMulFunction", "VectorAddFunction", "nn", "twin"]
__version__ = "0.1.0"

"""ctypes access to the C functions of the compiled extension (twin statistics, tiling plans, platform).

Why ctypes next to the ops' TORCH_LIBRARY: see twin/include/twin/c_api.h."""
import ctypes
import functools

from . import _C
from ._twin_stats import declare, register_library


@functools.lru_cache(maxsize=None)
def library() -> ctypes.CDLL:
    lib = declare(ctypes.CDLL(_C.__file__))
    lib.ascend_ext_plan_json.restype = ctypes.c_int
    lib.ascend_ext_plan_json.argtypes = [
        ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_int64),
        ctypes.c_uint32,
        ctypes.c_char_p,
        ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_char_p),
    ]
    lib.ascend_ext_set_twin_platform.argtypes = [ctypes.c_char_p]
    lib.ascend_ext_twin_platform.restype = ctypes.c_char_p
    register_library(lib)
    return lib

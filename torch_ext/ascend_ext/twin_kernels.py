"""Build your own Ascend C kernel source against the twin and run it on CPU tensors.

    lib = ascend_ext.twin.compile_kernels(["my_kernel.cpp"])
    stats = lib.launch("my_kernel", block_dim=8, x=x, y=y, z=z, workspace=None, tiling=bytes(tiling))

The kernel file is compiled with g++ together with the twin's runtime into a private shared library
(cached by content under ~/.cache/ascend_ext), so the same rule checks and counters apply as for the
built-in ops. Keyword arguments are the kernel's parameters in order: tensors (contiguous, CPU),
``bytes`` (copied into a GM buffer, e.g. tiling data) or ``None`` (a null GM address).
"""
import ctypes
import glob
import hashlib
import json
import os
import subprocess
from typing import Iterable, List, Optional, Union

import torch

_SDK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "twin_sdk")


class KernelRuleViolation(RuntimeError):
    """A kernel broke a rule of the hardware or of the Ascend C programming model on the twin."""


class KernelCompileError(RuntimeError):
    """g++ rejected a kernel source (for example an instruction used with a dtype A2 does not support)."""


class _Arg(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("data", ctypes.c_void_p), ("bytes", ctypes.c_uint64)]


def _cache_dir() -> str:
    root = os.environ.get("ASCEND_EXT_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "ascend_ext"))
    path = os.path.join(root, "twin_kernels")
    os.makedirs(path, exist_ok=True)
    return path


class KernelLibrary:
    """Kernels compiled for the twin, with their own copy of the twin runtime."""

    def __init__(self, path: str):
        self.path = path
        self._lib = ctypes.CDLL(path)
        self._lib.ascend_twin_launch.restype = ctypes.c_int
        self._lib.ascend_twin_launch.argtypes = [
            ctypes.c_char_p, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_char_p,
            ctypes.POINTER(_Arg), ctypes.c_uint32, ctypes.c_char_p, ctypes.c_uint64,
        ]
        self._lib.ascend_twin_last_launch_json.restype = ctypes.c_char_p

    def launch(self, kernel: str, block_dim: int, tiling_key: int = 0, platform: str = "Ascend910B2",
               **args: Union[torch.Tensor, bytes, None]):
        """Runs ``kernel`` on ``block_dim`` virtual cores; returns its twin.LaunchStats."""
        from .twin import _parse

        entry = ctypes.cast(getattr(self._lib, kernel), ctypes.c_void_p).value
        keep = []  # buffers that must outlive the call
        c_args = (_Arg * len(args))()
        for i, (name, value) in enumerate(args.items()):
            if value is None:
                c_args[i] = _Arg(name.encode(), None, 0)
            elif isinstance(value, (bytes, bytearray)):
                buf = ctypes.create_string_buffer(bytes(value), len(value))
                keep.append(buf)
                c_args[i] = _Arg(name.encode(), ctypes.addressof(buf), len(value))
            elif isinstance(value, torch.Tensor):
                if value.device.type != "cpu" or not value.is_contiguous():
                    raise ValueError(f"twin launch of '{kernel}': argument '{name}' must be a contiguous CPU tensor")
                c_args[i] = _Arg(name.encode(), value.data_ptr(), value.numel() * value.element_size())
            else:
                raise TypeError(f"twin launch of '{kernel}': argument '{name}' must be a tensor, bytes or None, "
                                f"got {type(value).__name__}")
        err = ctypes.create_string_buffer(4096)
        rc = self._lib.ascend_twin_launch(kernel.encode(), entry, block_dim, tiling_key, platform.encode(),
                                          c_args, len(args), err, len(err))
        if rc == 1:
            raise KernelRuleViolation(err.value.decode())
        if rc != 0:
            raise RuntimeError(err.value.decode())
        return _parse(json.loads(self._lib.ascend_twin_last_launch_json()))


def compile_kernels(sources: Iterable[str], include_dirs: Iterable[str] = (), defines: Optional[dict] = None,
                    opt_level: str = "-O1") -> KernelLibrary:
    """Compiles Ascend C kernel sources against the twin (cached) and loads them."""
    sources = [os.path.abspath(s) for s in sources]
    sdk_sources = sorted(glob.glob(os.path.join(_SDK, "src", "*.cpp")))
    if not sdk_sources:
        raise RuntimeError(f"ascend_ext: the twin SDK is missing from {_SDK}; reinstall the package")
    flags: List[str] = ["-std=c++20", opt_level, "-shared", "-fPIC", "-pthread", "-I", os.path.join(_SDK, "include")]
    for d in list(include_dirs) + sorted({os.path.dirname(s) for s in sources}):
        flags += ["-I", os.path.abspath(d)]
    for key, value in (defines or {}).items():
        flags.append(f"-D{key}" if value is None else f"-D{key}={value}")
    digest = hashlib.sha256(" ".join(flags).encode())
    for path in sources + sdk_sources + sorted(glob.glob(os.path.join(_SDK, "include", "**", "*.h"), recursive=True)):
        with open(path, "rb") as f:
            digest.update(path.encode() + f.read())
    out = os.path.join(_cache_dir(), f"kernels_{digest.hexdigest()[:20]}.so")
    if not os.path.exists(out):
        tmp = f"{out}.{os.getpid()}.tmp"
        proc = subprocess.run([os.environ.get("CXX", "g++"), *flags, *sources, *sdk_sources, "-o", tmp],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise KernelCompileError(f"compiling {', '.join(sources)} for the twin failed:\n{proc.stderr}")
        os.replace(tmp, out)
    return KernelLibrary(out)

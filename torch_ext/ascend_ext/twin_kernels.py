"""Build your own Ascend C kernel source against the twin and run it on CPU tensors.

    lib = ascend_ext.twin.compile_kernels(["my_kernel.cpp"])
    stats = lib.launch("my_kernel", block_dim=8, x=x, y=y, z=z, workspace=None, tiling=bytes(tiling))

The kernel file is compiled with clang's C++17 front end (CANN's device compiler, bisheng, is clang-based
and builds kernels as C++17: what it accepts, such as a call ``ReduceSum<float>(...)`` found by
argument-dependent lookup, compiles here, and what it rejects fails here) and linked with the twin's
runtime (compiled once per content, in parallel) into a private shared library, both cached by content
under ~/.cache/ascend_ext, so the same rule checks and counters apply as for the built-in ops. Keyword
arguments are the kernel's parameters, by name and in order. A GM_ADDR parameter takes a tensor
(contiguous, CPU), ``bytes`` (copied into a GM buffer, e.g. tiling data) or ``None`` (a null GM address);
a parameter passed by value takes a Python int or float (scalars) or ``bytes``/a ctypes structure of
exactly its size (structs), as a ``<<<>>>`` launch passes them.
"""
import contextlib
import ctypes
import glob
import hashlib
import os
import re
import shutil
import struct
import subprocess
from typing import Dict, Iterable, Iterator, List, Optional, Tuple, Union

import torch

from . import _twin_stats

_SDK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "twin_sdk")


class KernelRuleViolation(RuntimeError):
    """A kernel broke a rule of the hardware or of the Ascend C programming model on the twin."""


class KernelCompileError(RuntimeError):
    """The compiler rejected a kernel source (for example an instruction used with a dtype A2 does not support)."""


class _Arg(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("data", ctypes.c_void_p), ("bytes", ctypes.c_uint64),
                ("by_value", ctypes.c_uint32)]


_MAX_PARAMS = 16
_GM, _INT, _UINT, _FLOAT, _STRUCT = range(5)  # AscendTwinParamKind


class _Entry(ctypes.Structure):
    _fields_ = [("fn", ctypes.c_void_p), ("invoke", ctypes.c_void_p), ("arity", ctypes.c_uint32),
                ("kinds", ctypes.c_uint32 * _MAX_PARAMS), ("sizes", ctypes.c_uint32 * _MAX_PARAMS)]


_ENTRY_RE = re.compile(r'(template\s*<[^{;]*>\s*)?(?:__global__\s+__aicore__|__aicore__\s+__global__)\s+void\s+(\w+)'
                       r'\s*\(([^)]*)\)')


def find_entries(source: str) -> Dict[str, List[str]]:
    """Kernel entry points (``__global__ __aicore__ void name(...)``) of a source file: name -> parameter names.

    An entry that is a template (a kernel over tiling-key template parameters) is not launchable by itself:
    the op build instantiates it per tiling key. It is left out; an ``extern "C"`` entry calling the wanted
    instantiation (``name<args...>(...)``) makes it launchable."""
    with open(source) as f:
        text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", f.read(), flags=re.S)
    entries = {}
    for template, name, params in _ENTRY_RE.findall(text):
        if template:
            continue
        words = [re.findall(r"\w+", p) for p in params.split(",") if p.strip() and p.strip() != "void"]
        entries[name] = [w[-1] if w else "?" for w in words]
    return entries


def _cache_dir() -> str:
    root = os.environ.get("ASCEND_EXT_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "ascend_ext"))
    path = os.path.join(root, "twin_kernels")
    os.makedirs(path, exist_ok=True)
    return path


class KernelLibrary:
    """Kernels compiled for the twin, with their own copy of the twin runtime (and so their own statistics)."""

    def __init__(self, path: str, entries: Optional[Dict[str, List[str]]] = None):
        self.path = path
        self.entries = dict(entries or {})  # kernel name -> parameter names, from the sources
        self._lib = _twin_stats.declare(ctypes.CDLL(path))
        self._lib.ascend_twin_launch.restype = ctypes.c_int
        self._lib.ascend_twin_launch.argtypes = [
            ctypes.c_char_p, ctypes.POINTER(_Entry), ctypes.c_uint32, ctypes.c_uint64, ctypes.c_char_p,
            ctypes.POINTER(_Arg), ctypes.c_uint32, ctypes.c_char_p, ctypes.c_uint64,
        ]

    def _entry(self, kernel: str) -> _Entry:
        if kernel not in self.entries:
            known = ", ".join(sorted(self.entries)) or "none"
            raise ValueError(f"twin launch: no kernel '{kernel}' in {os.path.basename(self.path)}; its kernels: {known}")
        fn = getattr(self._lib, f"ascend_twin_entry_{kernel}")
        fn.restype = ctypes.POINTER(_Entry)
        return fn().contents

    def launch(self, kernel: str, block_dim: Optional[int] = None, /, tiling_key: int = 0,
               platform: str = "Ascend910B2", **args: Union[torch.Tensor, bytes, int, float, ctypes.Structure, None]):
        """Runs ``kernel`` on ``block_dim`` virtual cores; returns its twin.LaunchStats.

        ``kernel`` and ``block_dim`` are positional, so kernel parameters may be named ``self``, ``kernel``
        or ``block_dim`` (as in ``select_v2(condition, self, other, out, ...)``); ``block_dim=`` by keyword
        works for kernels without a parameter of that name."""
        entry = self._entry(kernel)
        names = self.entries[kernel]
        if block_dim is None:
            if "block_dim" not in args or "block_dim" in names:
                raise TypeError(f"twin launch of '{kernel}': give block_dim, the number of virtual cores, as the "
                                "second argument")
            block_dim = args.pop("block_dim")
        if list(args) != names:
            raise TypeError(f"twin launch of '{kernel}': the kernel takes ({', '.join(names)}), got "
                            f"({', '.join(args)}); pass every parameter, by name, in order")
        keep = []  # buffers that must outlive the call
        c_args = (_Arg * len(args))()
        for i, (name, value) in enumerate(args.items()):
            kind, size = entry.kinds[i], entry.sizes[i]
            if kind != _GM:
                data = _value_bytes(kernel, name, kind, size, value)
                buf = ctypes.create_string_buffer(data, len(data))
                keep.append(buf)
                c_args[i] = _Arg(name.encode(), ctypes.addressof(buf), len(data), 1)
            elif value is None:
                c_args[i] = _Arg(name.encode(), None, 0, 0)
            elif isinstance(value, (bytes, bytearray)):
                buf = ctypes.create_string_buffer(bytes(value), len(value))
                keep.append(buf)
                c_args[i] = _Arg(name.encode(), ctypes.addressof(buf), len(value), 0)
            elif isinstance(value, torch.Tensor):
                if value.device.type != "cpu" or not value.is_contiguous():
                    raise ValueError(f"twin launch of '{kernel}': argument '{name}' must be a contiguous CPU tensor")
                c_args[i] = _Arg(name.encode(), value.data_ptr(), value.numel() * value.element_size(), 0)
            else:
                raise TypeError(f"twin launch of '{kernel}': GM argument '{name}' must be a tensor, bytes or None, "
                                f"got {type(value).__name__}")
        err = ctypes.create_string_buffer(4096)
        rc = self._lib.ascend_twin_launch(kernel.encode(), ctypes.byref(entry), block_dim, tiling_key,
                                          platform.encode(), c_args, len(args), err, len(err))
        if rc == 1:
            raise KernelRuleViolation(err.value.decode())
        if rc != 0:
            raise RuntimeError(err.value.decode())
        return self.last_launch_stats()

    def last_launch_stats(self) -> _twin_stats.LaunchStats:
        """The calling thread's last launch of a kernel of this library."""
        return _twin_stats.last_launch(self._lib, "KernelLibrary.last_launch_stats")

    @contextlib.contextmanager
    def record(self) -> Iterator[_twin_stats.Recording]:
        """Like ascend_ext.twin.record(), for the kernels of this library."""
        with _twin_stats.record(self._lib) as rec:
            yield rec


def _value_bytes(kernel: str, name: str, kind: int, size: int, value) -> bytes:
    """A by-value parameter's bytes, as the kernel's signature wants them."""
    where = f"twin launch of '{kernel}': argument '{name}'"
    if kind in (_INT, _UINT):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{where} is an integer parameter, got {type(value).__name__}")
        try:
            return value.to_bytes(size, "little", signed=kind == _INT)
        except OverflowError:
            raise ValueError(f"{where}: {value} does not fit the parameter's {size} bytes") from None
    if kind == _FLOAT:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError(f"{where} is a floating-point parameter, got {type(value).__name__}")
        return struct.pack({4: "<f", 8: "<d"}[size], value)
    data = bytes(value) if isinstance(value, (bytes, bytearray, ctypes.Structure)) else None
    if data is None or len(data) != size:
        got = f"{len(data)} bytes" if data is not None else type(value).__name__
        raise TypeError(f"{where} is a struct of {size} bytes passed by value; give bytes or a ctypes "
                        f"structure of that size, got {got}")
    return data


def _sdk_flags(opt_level: str) -> List[str]:
    # include: the kernel API; host_include: the host tiling API (GetBroadCastMaxMinTmpSize and its types),
    # for sources that hold tiling code next to their kernels.
    return ["-std=c++17", opt_level, "-fPIC", "-pthread", "-I", os.path.join(_SDK, "include"),
            "-I", os.path.join(_SDK, "host_include")]


def kernel_compiler() -> str:
    """The clang++ that compiles kernel units: $ASCEND_TWIN_CLANG, else clang++ or clang++-N on the PATH.

    The device compiler is clang-based, so the twin uses clang's front end for kernel code (g++ differs: in
    C++17 it rejects ``ReduceSum<float>(...)`` found by argument-dependent lookup, which clang accepts as a
    C++20 extension with a warning). scripts/bootstrap.sh installs it (Debian's clang-14)."""
    override = os.environ.get("ASCEND_TWIN_CLANG")
    if override:
        if shutil.which(override) is None:
            raise KernelCompileError(f"ascend_ext: ASCEND_TWIN_CLANG={override!r} is not an executable clang++")
        return override
    for name in ["clang++"] + [f"clang++-{v}" for v in range(20, 12, -1)]:
        found = shutil.which(name)
        if found:
            return found
    raise KernelCompileError(
        "ascend_ext: compiling kernels for the twin needs clang++ (the device compiler, bisheng, is clang-based "
        "and the twin checks kernel sources with the same C++17 front end): install clang (Debian: apt-get "
        "install clang-14; scripts/bootstrap.sh does) or set ASCEND_TWIN_CLANG to a clang++")


def _sdk_digest(opt_level: str) -> "hashlib._Hash":
    digest = hashlib.sha256((os.environ.get("CXX", "g++") + " " + " ".join(_sdk_flags(opt_level))).encode())
    files = sorted(glob.glob(os.path.join(_SDK, "src", "*.*")))
    files += sorted(p for d in ("include", "host_include")
                    for p in glob.glob(os.path.join(_SDK, d, "**", "*.h"), recursive=True))
    for path in files:
        with open(path, "rb") as f:
            digest.update(path.encode() + f.read())
    return digest


def _sdk_objects(opt_level: str, digest: str) -> List[str]:
    """The twin runtime's object files, compiled once per SDK content and optimisation level (in parallel)
    and linked into every kernel library, so that each library still has its own runtime."""
    sdk_sources = sorted(glob.glob(os.path.join(_SDK, "src", "*.cpp")))
    if not sdk_sources:
        raise RuntimeError(f"ascend_ext: the twin SDK is missing from {_SDK}; reinstall the package")
    out = os.path.join(_cache_dir(), f"runtime_{digest[:20]}")
    objects = [os.path.join(out, os.path.basename(src)[:-4] + ".o") for src in sdk_sources]
    if all(os.path.exists(o) for o in objects):
        return objects
    tmp = f"{out}.{os.getpid()}.tmp"
    os.makedirs(tmp, exist_ok=True)
    cxx = os.environ.get("CXX", "g++")
    pending = list(sdk_sources)
    running: List[Tuple[str, subprocess.Popen]] = []
    failed = ""
    while (pending or running) and not failed:
        while pending and len(running) < max(1, os.cpu_count() or 1):
            src = pending.pop(0)
            obj = os.path.join(tmp, os.path.basename(src)[:-4] + ".o")
            running.append((src, subprocess.Popen([cxx, *_sdk_flags(opt_level), "-c", src, "-o", obj],
                                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
        src, proc = running.pop(0)
        text = proc.communicate()[0]
        if proc.returncode != 0:
            failed = f"compiling the twin runtime ({os.path.basename(src)}) failed:\n{text}"
    for _, proc in running:
        proc.wait()
    if failed:
        raise KernelCompileError(failed)
    os.makedirs(out, exist_ok=True)
    for obj in objects:  # per file, so that a concurrent build of the same content is harmless
        os.replace(os.path.join(tmp, os.path.basename(obj)), obj)
    os.rmdir(tmp)
    return objects


def compile_kernels(sources: Iterable[str], include_dirs: Iterable[str] = (), defines: Optional[dict] = None,
                    opt_level: str = "-O1") -> KernelLibrary:
    """Compiles Ascend C kernel sources against the twin (cached) and loads them."""
    sources = [os.path.abspath(s) for s in sources]
    sdk_digest = _sdk_digest(opt_level).hexdigest()
    sdk_objects = _sdk_objects(opt_level, sdk_digest)
    flags: List[str] = [*_sdk_flags(opt_level), "-shared"]
    for d in list(include_dirs) + sorted({os.path.dirname(s) for s in sources}):
        flags += ["-I", os.path.abspath(d)]
    for key, value in (defines or {}).items():
        flags.append(f"-D{key}" if value is None else f"-D{key}={value}")
    digest = hashlib.sha256((sdk_digest + " " + kernel_compiler() + " " + " ".join(flags)).encode())
    for path in sources:
        with open(path, "rb") as f:
            digest.update(path.encode() + f.read())
    out = os.path.join(_cache_dir(), f"kernels_{digest.hexdigest()[:20]}")
    entries: Dict[str, List[str]] = {}
    units = []
    for src in sources:
        found = find_entries(src)
        entries.update(found)
        # The source itself plus, for each of its kernels, an exported description of its signature.
        unit = f"{out}_{len(units)}.cpp"
        with open(unit, "w") as f:
            f.write(f'#include "twin/kernel_target.h"\n#include "{src}"\n#include "twin/kernel_entry.h"\n')
            f.writelines(f"ASCEND_TWIN_EXPORT_ENTRY({name})\n" for name in found)
        units.append(unit)
    if not os.path.exists(out + ".so"):
        tmp = f"{out}.{os.getpid()}.tmp"
        # Kernel units: clang's C++17 front end, as on the device; the twin runtime and the link: g++ (both
        # use libstdc++ and the Itanium C++ ABI, so a rule violation unwinds through kernel frames as usual).
        clang = kernel_compiler()
        objects = []
        for i, unit in enumerate(units):
            obj = f"{tmp}_{i}.o"
            proc = subprocess.run([clang, *[f for f in flags if f != "-shared"], "-c", unit, "-o", obj],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                for o in objects:
                    os.remove(o)
                raise KernelCompileError(f"compiling {', '.join(sources)} for the twin failed ({clang}, "
                                         f"C++17):\n{proc.stderr}")
            objects.append(obj)
        proc = subprocess.run([os.environ.get("CXX", "g++"), *flags, *objects, *sdk_objects, "-o", tmp],
                              capture_output=True, text=True)
        for o in objects:
            os.remove(o)
        if proc.returncode != 0:
            raise KernelCompileError(f"linking {', '.join(sources)} for the twin failed:\n{proc.stderr}")
        os.replace(tmp, out + ".so")
    return KernelLibrary(out + ".so", entries)

"""Build your own Ascend C kernel source against the twin and run it on CPU tensors.

    lib = ascend_ext.twin.compile_kernels(["my_kernel.cpp"])
    stats = lib.launch("my_kernel", block_dim=8, x=x, y=y, z=z, workspace=None, tiling=bytes(tiling))

The kernel file is compiled with clang's C++17 front end (CANN's device compiler, bisheng, is clang-based
and builds kernels as C++17: what it accepts, such as a call ``ReduceSum<float>(...)`` found by
argument-dependent lookup, compiles here, and what it rejects fails here) and linked with the twin's
runtime (compiled once per content, in parallel) into a private shared library, both cached by content
under ~/.cache/ascend_ext, so the same rule checks and counters apply as for the built-in ops. Keyword
arguments are the kernel's parameters, by name and in order. A GM_ADDR parameter takes a tensor
(contiguous, CPU), ``bytes`` (copied into a GM buffer, e.g. tiling data), ``UntypedGm(tensor)`` (the tensor's
bytes in place, read as whatever types the kernel binds: a list of tensors, a packed block of mixed fields) or
``None`` (a null GM address). A tensor that reaches its storage's end (a fresh one) and a ``bytes`` buffer end their
allocation, as on the NPU: a DMA write may run on past their end into the 32 bytes of padding A2's runtime
allocates after it (counted, never written to memory); past a view that ends before its storage (``out=`` a
slice) such a write is refused, since on the NPU it would overwrite the storage's next elements;
a parameter passed by value takes a Python int or float (scalars) or ``bytes``/a ctypes structure of
exactly its size (structs), as a ``<<<>>>`` launch passes them.
"""
import contextlib
import ctypes
import glob
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import threading
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import torch

from . import _twin_stats, kernel_spec
from .kernel_spec import KernelSpec, KernelVariant

_SDK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "twin_sdk")


class KernelRuleViolation(RuntimeError):
    """A kernel broke a rule of the hardware or of the Ascend C programming model on the twin."""


class KernelCompileError(RuntimeError):
    """The compiler rejected a kernel source (for example an instruction used with a dtype A2 does not support)."""


class UntypedGm:
    """A GM argument given as the bytes of a tensor, in place, with no element type: the check that a kernel
    binds GlobalTensor<T> with the element size of the tensor passed (a half kernel handed a float tensor)
    does not apply to it. For buffers that hold several types, such as a dynamic input list (ListTensorDesc:
    descriptor words, pointers, and the tensors' data)."""

    def __init__(self, tensor: torch.Tensor):
        self.tensor = tensor


class _Arg(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("data", ctypes.c_void_p), ("bytes", ctypes.c_uint64),
                ("by_value", ctypes.c_uint32), ("elem_size", ctypes.c_uint32), ("alloc_offset", ctypes.c_uint64),
                ("ends_allocation", ctypes.c_uint32)]


_MAX_PARAMS = 16
_GM, _INT, _UINT, _FLOAT, _STRUCT = range(5)  # AscendTwinParamKind


class _Entry(ctypes.Structure):
    _fields_ = [("fn", ctypes.c_void_p), ("invoke", ctypes.c_void_p), ("arity", ctypes.c_uint32),
                ("kinds", ctypes.c_uint32 * _MAX_PARAMS), ("sizes", ctypes.c_uint32 * _MAX_PARAMS),
                ("kernel_type", ctypes.c_int32)]


def find_entries(source: str, include_dirs: Iterable[str] = (), defines: Optional[dict] = None) -> Dict[str, List[str]]:
    """Kernel entry points (``__global__ __aicore__ void name(...)``) of a source file: name -> parameter names.

    The source is read as the compiler reads it, macros expanded (g++ -E against the twin's headers, with
    `include_dirs` and `defines`), so entries declared through a macro are found, for instance one entry per
    dtype from ``#define DECLARE(T) extern "C" __global__ __aicore__ void kernel_##T(...)``, and so are the
    entries of the files it includes (all kernels of the translation unit, as on the device). If the source
    does not preprocess (a missing header: compiling it reports that), its text is read as written.

    An entry that is a template (a kernel over tiling-key template parameters) is not launchable by itself:
    the op build instantiates it per tiling key. It is left out; an ``extern "C"`` entry calling the wanted
    instantiation (``name<args...>(...)``) makes it launchable."""
    flags = list(_sdk_flags("-O0"))
    for d in list(include_dirs) + [os.path.dirname(os.path.abspath(source))]:
        flags += ["-I", os.path.abspath(d)]
    for key, value in (defines or {}).items():
        flags.append(f"-D{key}" if value is None else f"-D{key}={value}")
    expanded = _expanded_entries(translation_unit(source), flags)
    if expanded is not None:
        return expanded
    return {name: [p.name for p in params] for name, params in kernel_spec.find_entries(source).items()}


# The preprocessor pass marks entries: __global__ (empty in the twin's kernel_types.h unless defined before)
# becomes a token the regex can find once every other macro is expanded. The kernel-type qualifiers
# (__mix__(1, 2), __cube__, __vector__) expand to __attribute__((section(...))) between the mark and void.
_ENTRY_MARK = "ascend_twin_entry_mark"
_ATTRIBUTE = r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)\s*"
# A kernel-type qualifier may also come first (`template <...> __vector__ __global__ void k(...)`).
_EXPANDED_ENTRY_RE = re.compile(
    r"(template\s*<[^{;]*>\s*)?(?:%s)*(?:extern\s+\"C\"\s+)?%s\s+(?:\w+\s+|%s)*?void\s+(\w+)\s*\(([^)]*)\)"
    % (_ATTRIBUTE, _ENTRY_MARK, _ATTRIBUTE))


def _expanded_entries(unit: str, flags: List[str],
                      typed: Optional[Dict[str, str]] = None) -> Optional[Dict[str, List[str]]]:
    """The entries of a translation unit after preprocessing with `flags`, or None if it does not preprocess.

    An entry whose name a template entry shares (op sources declare ``template <uint32_t schMode> __global__
    void k(...)`` beside ``extern "C" __global__ void k(...)``) is named by an overload set: its parameter
    list, as written after preprocessing, goes into `typed`, so that its export can pick it by type."""
    cxx = os.environ.get("CXX", "g++")
    try:
        proc = subprocess.run([cxx, *flags, f"-D__global__={_ENTRY_MARK}", "-E", "-P", "-x", "c++", "-"],
                              input=unit, capture_output=True, text=True)
    except FileNotFoundError:
        return None
    if proc.returncode != 0:
        return None
    entries: Dict[str, List[str]] = {}
    matches = _EXPANDED_ENTRY_RE.findall(proc.stdout)
    templates = {name for template, name, _ in matches if template}
    for template, name, params in matches:
        if template:
            continue
        found = (kernel_spec.parse_param(s) for s in params.split(","))
        entries[name] = [p.name for p in found if p is not None]
        if typed is not None and name in templates:
            typed[name] = " ".join(params.split())
    return entries


def _cache_dir() -> str:
    root = os.environ.get("ASCEND_EXT_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "ascend_ext"))
    path = os.path.join(root, "twin_kernels")
    os.makedirs(path, exist_ok=True)
    return path


class KernelLibrary:
    """Kernels compiled for the twin. They run on the shared twin runtime of the kernel libraries
    (libascend_twin_rt_*.so, loaded once per process), so statistics and recordings see all of them."""

    def __init__(self, path: str, entries: Optional[Dict[str, List[str]]] = None, runtime_dirs: Sequence[str] = ()):
        self.path = path
        self.entries = dict(entries or {})  # kernel name -> parameter names, from the sources
        load_runtime(search=(*runtime_dirs, os.path.dirname(path)))
        self._lib = _twin_stats.declare(ctypes.CDLL(path))
        self._lib.ascend_twin_launch.restype = ctypes.c_int
        self._lib.ascend_twin_launch.argtypes = [
            ctypes.c_char_p, ctypes.POINTER(_Entry), ctypes.c_uint32, ctypes.c_uint64, ctypes.c_char_p,
            ctypes.POINTER(_Arg), ctypes.c_uint32, ctypes.c_char_p, ctypes.c_uint64,
        ]
        _twin_stats.register_library(self._lib)  # ascend_ext.twin.record() sees its launches

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
                c_args[i] = _Arg(name.encode(), ctypes.addressof(buf), len(value), 0, 0, 0, 1)  # its own allocation
            elif isinstance(value, (torch.Tensor, UntypedGm)):
                t = value.tensor if isinstance(value, UntypedGm) else value
                if t.device.type != "cpu" or not t.is_contiguous():
                    raise ValueError(f"twin launch of '{kernel}': argument '{name}' must be a contiguous CPU tensor")
                # The element size lets the twin check the GlobalTensor<T> the kernel binds to it (0: untyped).
                # Its place in its storage: DMA writes may run on past the end of a tensor that reaches its
                # storage's end (a fresh one) into the allocation's padding, not past a view ending earlier.
                offset, nbytes = t.storage_offset() * t.element_size(), t.numel() * t.element_size()
                c_args[i] = _Arg(name.encode(), t.data_ptr(), nbytes, 0,
                                 0 if isinstance(value, UntypedGm) else t.element_size(), offset,
                                 int(offset + nbytes == t.untyped_storage().nbytes()))
            else:
                raise TypeError(f"twin launch of '{kernel}': GM argument '{name}' must be a tensor, UntypedGm, bytes "
                                f"or None, got {type(value).__name__}")
        err = ctypes.create_string_buffer(4096)
        rc = self._lib.ascend_twin_launch(kernel.encode(), ctypes.byref(entry), block_dim, tiling_key,
                                          platform.encode(), c_args, len(args), err, len(err))
        if rc == 1:
            raise KernelRuleViolation(err.value.decode())
        if rc != 0:
            raise RuntimeError(err.value.decode())
        return self.last_launch_stats()

    def launcher(self, kernel: str) -> "Launcher":
        """``kernel``'s launch prepared once, for callers that launch it many times (declared ops)."""
        return Launcher(self, kernel)

    def last_launch_stats(self) -> _twin_stats.LaunchStats:
        """The calling thread's last launch of a kernel of this library."""
        return _twin_stats.last_launch(self._lib, "KernelLibrary.last_launch_stats")

    @contextlib.contextmanager
    def record(self) -> Iterator[_twin_stats.Recording]:
        """Like ascend_ext.twin.record(), for the kernels of this library."""
        with _twin_stats.record(self._lib) as rec:
            yield rec


class Launcher:
    """One kernel of a library with its argument description built once.

    ``launcher(block_dim, values)`` takes the kernel's arguments in parameter order, already in launch form:
    a contiguous CPU tensor (GM; its element size goes with it, for the GlobalTensor<T> check), ``None`` (a
    null GM address), or ``bytes`` (copied into a GM buffer, or a by-value parameter's exact bytes). The
    arguments are marshalled in C++ (ascend_ext._C._twin_launch) and handed to the library runtime's
    ascend_twin_launch, the function KernelLibrary.launch calls through ctypes."""

    __slots__ = ("_launch_fn", "_entry_addr", "_kernel", "_entry", "_names", "_by_value", "_fast", "library")

    def __init__(self, library: KernelLibrary, kernel: str):
        from . import _C

        self.library = library
        self._entry = library._entry(kernel)  # kept alive: the launch reads it through its address
        self._entry_addr = ctypes.addressof(self._entry)
        self._launch_fn = ctypes.cast(library._lib.ascend_twin_launch, ctypes.c_void_p).value
        self._names = tuple(n.encode() for n in library.entries[kernel])
        self._by_value = tuple(self._entry.kinds[i] != _GM for i in range(self._entry.arity))
        self._kernel = kernel.encode()
        self._fast = _C._twin_launch

    def __call__(self, block_dim: int, values: List, tiling_key: int = 0, platform: bytes = b"Ascend910B2"):
        rc, message = self._fast(self._launch_fn, self._entry_addr, self._kernel, block_dim, tiling_key, platform,
                                 self._names, self._by_value, values)
        if rc == 1:
            raise KernelRuleViolation(message)
        if rc != 0:
            raise RuntimeError(message)


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
    """The SDK's content (paths relative to it, so that an installed copy hashes alike anywhere). The compiler
    is not part of it: what it builds is loaded through a C interface, and a prebuilt package must be found
    by a process that has no compiler."""
    digest = hashlib.sha256(" ".join(_sdk_flags(opt_level)[:4]).encode())
    files = sorted(glob.glob(os.path.join(_SDK, "src", "*.*")))
    files += sorted(p for d in ("include", "host_include")
                    for p in glob.glob(os.path.join(_SDK, d, "**", "*.h"), recursive=True))
    for path in files:
        with open(path, "rb") as f:
            digest.update(os.path.relpath(path, _SDK).encode() + f.read())
    return digest


def sdk_digest(opt_level: str = "-O1") -> str:
    """The twin SDK's content hash: a kernel library built against another SDK is not loaded."""
    return _sdk_digest(opt_level).hexdigest()


# A kernel including an advanced-API header (asc-devkit include/adv_api/..., older CANN lib/...) the twin lacks.
# clang: "fatal error: 'adv_api/x.h' file not found"; g++: "fatal error: adv_api/x.h: No such file or directory".
_ADV_API_MISSING = re.compile(r"fatal error: '?((?:adv_api|lib)/[\w./]+\.h)(?:' file not found|: No such file)")


def _compile_all(jobs: List[Tuple[List[str], str]], what: str) -> None:
    """Runs compiler commands (argv, label) in parallel, one per CPU; the first failure raises
    KernelCompileError with its output."""
    pending = list(jobs)
    running: List[Tuple[str, subprocess.Popen]] = []
    failed = ""
    while (pending or running) and not failed:
        while pending and len(running) < max(1, os.cpu_count() or 1):
            argv, label = pending.pop(0)
            try:
                proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            except FileNotFoundError:
                for _, p in running:
                    p.wait()
                raise KernelCompileError(
                    f"compiling {what}: the C++ compiler '{argv[0]}' was not found (set CXX, or install g++); the twin "
                    "builds kernels with it, unless they were prebuilt (python -m ascend_ext build)") from None
            running.append((label, proc))
        label, proc = running.pop(0)
        text = proc.communicate()[0]
        if proc.returncode != 0:
            first = next((line for line in text.splitlines() if ": error:" in line or ": fatal error:" in line), "")
            missing = _ADV_API_MISSING.search(text)
            if missing:
                first = (f"{missing.group(1)}: an advanced-API header of asc-devkit that the twin does not "
                         "implement (not implemented in the twin; the ones it has are listed in "
                         f"twin/adv_api_paths.txt)\n{first}")
            how = f"{os.path.basename(proc.args[0])}, C++17"
            failed = f"{first}\n(compiling {what} ({label}) failed ({how}); the compiler's output:)\n{text}" if first \
                else f"compiling {what} ({label}) failed ({how}):\n{text}"
    for _, proc in running:
        proc.wait()
    if failed:
        raise KernelCompileError(failed)


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
    _compile_all([([cxx, *_sdk_flags(opt_level), "-c", src, "-o", os.path.join(tmp, os.path.basename(src)[:-4] + ".o")],
                   os.path.basename(src)) for src in sdk_sources], "the twin runtime")
    os.makedirs(out, exist_ok=True)
    for obj in objects:  # per file, so that a concurrent build of the same content is harmless
        os.replace(os.path.join(tmp, os.path.basename(obj)), obj)
    os.rmdir(tmp)
    return objects


_RUNTIME_LOCK = threading.Lock()
_RUNTIMES: Dict[str, str] = {}  # file name -> path of the loaded runtime


def runtime_name(opt_level: str = "-O1") -> str:
    """The file (and soname) of the shared twin runtime for this SDK content."""
    return f"libascend_twin_rt_{sdk_digest(opt_level)[:20]}.so"


def build_runtime(path: str, opt_level: str = "-O1") -> str:
    """Links the twin runtime's objects into a shared library at `path` (its soname: runtime_name())."""
    if not os.path.exists(path):
        objects = _sdk_objects(opt_level, sdk_digest(opt_level))
        cxx = os.environ.get("CXX", "g++")
        tmp = f"{path}.{os.getpid()}.tmp"
        proc = subprocess.run([cxx, "-shared", "-pthread", *objects, f"-Wl,-soname,{runtime_name(opt_level)}",
                               "-o", tmp], capture_output=True, text=True)
        if proc.returncode != 0:
            raise KernelCompileError(f"linking the twin runtime failed:\n{proc.stderr}")
        os.replace(tmp, path)
    return path


def load_runtime(opt_level: str = "-O1", search: Sequence[str] = ()) -> str:
    """Loads the shared twin runtime every kernel library links against (its soname resolves to it), once
    per process: from the first of `search` holding it (a prebuilt package), else from the cache (built
    there if missing). Returns its path."""
    name = runtime_name(opt_level)
    with _RUNTIME_LOCK:
        if name in _RUNTIMES:
            return _RUNTIMES[name]
        path = next((os.path.join(d, name) for d in search if os.path.exists(os.path.join(d, name))), None)
        if path is None:
            path = build_runtime(os.path.join(_cache_dir(), name), opt_level)
        lib = _twin_stats.declare(ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL))
        _twin_stats.register_library(lib)
        _RUNTIMES[name] = path
        return path


def _link(units: List[Tuple[str, str]], flags: List[str], out: str, what: str, opt_level: str) -> None:
    """Compiles generated units (path, text) in parallel and links them against the shared twin runtime."""
    runtime = build_runtime(os.path.join(_cache_dir(), runtime_name(opt_level)), opt_level)
    tmp = f"{out}.{os.getpid()}.tmp"
    os.makedirs(tmp, exist_ok=True)
    # Kernel units: clang's C++17 front end, as on the device; the runtime and the link: g++ (both use
    # libstdc++ and the Itanium C++ ABI, so a rule violation unwinds through kernel frames as usual).
    cxx, clang = os.environ.get("CXX", "g++"), kernel_compiler()
    objects, jobs = [], []
    for path, text in units:
        with open(path, "w") as f:
            f.write(text)
        obj = os.path.join(tmp, os.path.basename(path)[:-4] + ".o")
        objects.append(obj)
        jobs.append(([clang, *flags, "-c", path, "-o", obj], os.path.basename(path)))
    _compile_all(jobs, what)
    proc = subprocess.run([cxx, "-shared", "-pthread", *objects, "-Wl,--no-as-needed", runtime, "-o", out + ".tmp"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise KernelCompileError(f"linking {what} for the twin failed:\n{proc.stderr}")
    os.replace(out + ".tmp", out)
    for obj in objects:
        os.remove(obj)
    os.rmdir(tmp)


def compile_kernels(sources: Iterable[str], include_dirs: Iterable[str] = (), defines: Optional[dict] = None,
                    opt_level: str = "-O1", prelude: str = "") -> KernelLibrary:
    """Compiles Ascend C kernel sources against the twin (cached) and loads them.

    ``prelude`` is C++ placed before each source in its translation unit, as an op build generates it around
    a kernel (a tiling struct the host code declares, for example). A kernel file may hold host code that
    launches its kernels with the device compiler's ``kernel<<<blockDim, l2ctrl, stream>>>(args...)``: it
    compiles (the twin reads the launch syntax as the device compiler's front end does), but only the
    launcher of the twin runs kernels; such host code raises if called."""
    sources = [os.path.abspath(s) for s in sources]
    sdk = sdk_digest(opt_level)
    flags: List[str] = list(_sdk_flags(opt_level))
    for d in list(include_dirs) + sorted({os.path.dirname(s) for s in sources}):
        flags += ["-I", os.path.abspath(d)]
    for key, value in (defines or {}).items():
        flags.append(f"-D{key}" if value is None else f"-D{key}={value}")
    digest = hashlib.sha256((sdk + " shared-runtime " + kernel_compiler() + " " + " ".join(flags) + "\0" +
                             prelude).encode())
    for path in sources:
        with open(path, "rb") as f:
            digest.update(path.encode() + f.read())
    out = os.path.join(_cache_dir(), f"kernels_{digest.hexdigest()[:20]}")
    scanned: Dict[str, Dict[str, List[str]]] = {}
    entries: Dict[str, List[str]] = {}
    units = []
    known = _read_entries(out + ".entries.json")
    for src in sources:
        body = translation_unit(src, prelude)
        cached = known.get(src) if known is not None else None
        if isinstance(cached, dict) and isinstance(cached.get("entries"), dict):
            found, typed = cached["entries"], cached.get("typed", {})
        else:
            typed = {}
            found = _expanded_entries(body, flags, typed)
            if found is None:
                found = {name: [p.name for p in params] for name, params in kernel_spec.find_entries(src).items()}
        entries.update(found)
        scanned[src] = {"entries": found, "typed": typed}
        # The source itself plus, for each of its kernels, an exported description of its signature (picked
        # by its parameters where a template entry shares its name).
        text = body + '#include "twin/kernel_entry.h"\n'
        text += "".join(f"ASCEND_TWIN_EXPORT_ENTRY_TYPED({name}, {typed[name]})\n" if name in typed
                        else f"ASCEND_TWIN_EXPORT_ENTRY({name})\n" for name in found)
        units.append((f"{out}_{len(units)}.cpp", text))
    if not os.path.exists(out + ".so"):
        _link(units, flags, out + ".so", ", ".join(sources), opt_level)
    if known is None:
        tmp = f"{out}.entries.json.{os.getpid()}"
        with open(tmp, "w") as f:
            json.dump(scanned, f)
        os.replace(tmp, out + ".entries.json")
    return KernelLibrary(out + ".so", entries)


# kernel<<<blockDim, l2ctrl, stream>>>(args): the callee (a name, maybe qualified, maybe with template
# arguments) and the launch configuration, matched in the code only (comments and literals blanked).
_LAUNCH_RE = re.compile(r"((?:::)?\b\w+(?:::\w+)*(?:\s*<[^<>;{}]*>)?)\s*<<<([^;{}]*?)>>>\s*\(")
_COMMENT_OR_LITERAL_RE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def _rewrite_launches(text: str) -> str:
    code = _COMMENT_OR_LITERAL_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    out, last = [], 0
    for m in _LAUNCH_RE.finditer(code):
        out.append(text[last:m.start()])
        out.append(f"ascend_twin::HostLaunch(&{text[m.start(1):m.end(1)]}, {text[m.start(2):m.end(2)]})(")
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def translation_unit(source: str, prelude: str = "") -> str:
    """The twin's translation unit for a kernel source: the target macros, `prelude`, then the source. A source
    that launches kernels with the device compiler's <<<...>>> syntax (host code next to its kernels) is
    inlined with each launch written as a call g++ parses (ascend_twin::HostLaunch, which raises if run);
    #line keeps the compiler's messages on the source's own lines."""
    head = '#include "twin/kernel_target.h"\n' + (prelude + "\n" if prelude else "")
    with open(source, errors="replace") as f:
        text = f.read()
    rewritten = _rewrite_launches(text) if "<<<" in text else text
    if rewritten == text:
        return head + f'#include "{source}"\n'
    return head + '#include "twin/kernel_host_launch.h"\n' + f'#line 1 "{source}"\n' + rewritten + "\n"


def _read_entries(path: str) -> Optional[Dict[str, dict]]:
    """The entries found in a cached library's sources, if recorded: source -> {"entries": name -> parameter
    names, "typed": name -> parameter list of an entry a template shares its name with}."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


# ---- a KernelSpec's variants, one library each --------------------------------------------------------
# Each variant is compiled exactly as the device build compiles the kernel: the sources as they are, each
# its own translation unit, with the variant's macros; nothing is wrapped or renamed (a namespace around
# the code would change its name lookup: a kernel class named like an AscendC function is ambiguous
# under `using namespace AscendC` on the device, and must be here too).

_TILING_STRUCT_RE = re.compile(r"(?:REGISTER_TILING_DEFAULT|GET_TILING_DATA_WITH_STRUCT)\s*\(\s*([A-Za-z_][\w:]*)")


def tiling_struct_name(spec: KernelSpec) -> Optional[str]:
    """The struct the entry reads its tiling as (REGISTER_TILING_DEFAULT / GET_TILING_DATA_WITH_STRUCT), if
    the sources name one."""
    for src in spec.sources:
        with open(src, errors="replace") as f:
            m = _TILING_STRUCT_RE.search(kernel_spec.strip_comments(f.read()))
        if m:
            return m.group(1)
    return None


def variant_units(spec: KernelSpec, variant: KernelVariant, checks: Iterable[str] = ()) -> List[str]:
    """The C++ units that build one variant of a spec for the twin, one per source: the device target
    macros, the spec's and the variant's macros, the source; the entry's unit then exports the entry's
    description and (when the sources name their tiling struct) its size, and compiles `checks` (static
    asserts of a tiling layout)."""
    head = [f"// Generated by ascend_ext: kernel '{spec.entry}', variant '{variant.key}'.",
            '#include "twin/kernel_target.h"  // the device build\'s target macros (A2)']
    if variant.twin_only:
        head.append("#define ASCEND_TWIN_ALLOW_FP64  // a float64 build exists on the twin only")
    head += [f"#define {k} {v}" for k, v in spec.defines + variant.defines]
    units = []
    for i, src in enumerate(spec.sources):
        lines = head + [f'#include "{src}"']
        if i == 0:
            if spec.entry in kernel_spec.template_entry_names(src):  # picked from the overload set by type
                export = f"ASCEND_TWIN_EXPORT_ENTRY_TYPED({spec.entry}, {', '.join(p.ctype for p in spec.params)})"
            else:
                export = f"ASCEND_TWIN_EXPORT_ENTRY({spec.entry})"
            lines += ['#include "twin/kernel_entry.h"', export]
            struct = tiling_struct_name(spec)
            if struct:
                lines.append(f'extern "C" __attribute__((visibility("default"))) unsigned long long '
                             f"ascend_twin_tiling_size_{spec.entry}() {{ return sizeof({struct}); }}")
            lines += list(checks)
        units.append("\n".join(lines) + "\n")
    return units


def spec_library_paths(spec: KernelSpec, folder: str) -> Dict[str, str]:
    """Where the variants of `spec` live inside a folder of built kernels."""
    return {v.key: os.path.join(folder, f"{spec.entry}__{v.key}.so") for v in spec.variants}


def spec_folder_name(spec: KernelSpec, checks: Optional[Dict[str, List[str]]] = None, opt_level: str = "-O1") -> str:
    """A folder name for the built variants of `spec`: its content digest with the SDK's."""
    digest = spec.digest(sdk_digest(opt_level), opt_level, "shared-runtime", repr(sorted((checks or {}).items())))
    return f"twin-{digest[:24]}"


def compile_spec(spec: KernelSpec, opt_level: str = "-O1", checks: Optional[Dict[str, List[str]]] = None,
                 out_dir: Optional[str] = None) -> Dict[str, "KernelLibrary"]:
    """Builds every variant of `spec` for the twin, one library each (cached by content, in parallel), and
    loads them: variant key -> KernelLibrary holding the entry. `checks` maps a variant key to extra lines
    compiled with its entry; `out_dir`: the folder to build into (default: the cache)."""
    checks = checks or {}
    folder = out_dir or os.path.join(_cache_dir(), f"{spec.entry}_{spec_folder_name(spec, checks, opt_level)}")
    os.makedirs(folder, exist_ok=True)
    paths = spec_library_paths(spec, folder)
    flags = list(_sdk_flags(opt_level))
    for d in list(spec.include_dirs) + list(dict.fromkeys(os.path.dirname(s) for s in spec.sources)):
        flags += ["-I", d]
    missing = [v for v in spec.variants if not os.path.exists(paths[v.key])]
    if missing:
        runtime = build_runtime(os.path.join(_cache_dir(), runtime_name(opt_level)), opt_level)
        cxx, clang = os.environ.get("CXX", "g++"), kernel_compiler()  # kernel units: clang's front end (see _link)
        tmp = os.path.join(folder, f"build.{os.getpid()}")
        os.makedirs(tmp, exist_ok=True)
        jobs, objects = [], {}
        for v in missing:
            objects[v.key] = []
            for i, text in enumerate(variant_units(spec, v, checks.get(v.key, ()))):
                unit = os.path.join(tmp, f"{v.key}_{i}.cpp")
                with open(unit, "w") as f:
                    f.write(text)
                obj = unit[:-4] + ".o"
                objects[v.key].append(obj)
                jobs.append(([clang, *flags, "-c", unit, "-o", obj], f"{os.path.basename(spec.sources[i])}, {v.key}"))
        _compile_all(jobs, f"kernel '{spec.entry}'")
        for v in missing:
            proc = subprocess.run([cxx, "-shared", "-pthread", *objects[v.key], "-Wl,--no-as-needed", runtime,
                                   "-o", paths[v.key] + ".tmp"],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                raise KernelCompileError(f"linking kernel '{spec.entry}' ({v.key}) for the twin failed:\n{proc.stderr}")
            os.replace(paths[v.key] + ".tmp", paths[v.key])
        shutil.rmtree(tmp, ignore_errors=True)
    entries = {spec.entry: [p.name for p in spec.params]}
    return {key: KernelLibrary(path, entries) for key, path in paths.items()}

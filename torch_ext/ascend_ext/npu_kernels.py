"""Your own Ascend C kernel on an NPU: the direct kernel-launch build and its launch.

The third way to call a kernel, beside ``torch.ops`` and the aclnn two-stage API of the op package:

    lib = ascend_ext.npu_kernels.load(spec)            # built (or found prebuilt) once, loaded once
    lib.launch("float16", block_dim, [x, y, z, n], tiling=bytes(t), workspace_bytes=0, device=x.device)

``generate_project`` writes a CMake project that compiles every variant of a ``KernelSpec`` with CANN's
kernel-launch toolchain (``ascendc_library`` of the Ascend C CMake modules, which generates one
``aclrtlaunch_<kernel>`` host function per kernel) into a static library, and links it into a shared library
with one uniform C entry per variant:

    extern "C" int ascend_ext_launch_<entry>__<key>(uint32_t block_dim, void* stream, void* const* args)

``args[i]`` is the entry's i-th argument: a GM address itself, or the address of a scalar's value or of a
by-value struct's bytes. ascend_ext's NPU launcher (``torch_ext/csrc/npu/kernel_launch.cpp``) calls that entry
on torch_npu's current stream, in order with its task queue, so it needs no per-kernel code.

``build`` runs the project where CANN is installed (``ASCEND_HOME_PATH``), cached by content (sources, the
local headers they include, macros, SoC, CANN version); ``load`` finds a library built for this machine's
SoC and CANN (in the given prebuilt directories, then the cache) or builds one, and loads it once per
process. Nothing here imports torch_npu at import time; CANN is needed only to build.
"""
import ctypes
import dataclasses
import fcntl
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import threading
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from .kernel_spec import KernelParam, KernelSpec, KernelVariant, find_entries, kernel_type_of, strip_comments
from .twin_kernels import KernelCompileError

# Bumped whenever the generated project changes, so that libraries built by an older generator are rebuilt.
GENERATOR_VERSION = "1"
MANIFEST = "manifest.json"
LAUNCH_PREFIX = "ascend_ext_launch_"
MAX_BLOCK_DIM = 65535  # the largest block count a kernel launch takes

# The system workspace a launch registers in front of the kernel's own (RESERVED_WORKSPACE in asc-devkit's
# impl/basic_api/utils/kernel_utils_constants.h; the op package's tiling adds GetLibApiWorkSpaceSize()).
_SYSTEM_WORKSPACE_BY_SOC_PREFIX = (("ascend910b", 16 << 20), ("ascend910_93", 16 << 20), ("ascend950", 16 << 20),
                                   ("ascend310p", 2 << 20), ("ascend910", 2 << 20))

# By-value scalar parameters as the host passes them: C type -> struct format (little-endian, standard sizes).
_SCALAR_FORMATS = {
    "bool": "?", "int8_t": "b", "uint8_t": "B", "int16_t": "h", "uint16_t": "H", "int32_t": "i", "uint32_t": "I",
    "int64_t": "q", "uint64_t": "Q", "int": "i", "unsigned": "I", "unsigned int": "I", "long": "q",
    "unsigned long": "Q", "size_t": "Q", "float": "f", "double": "d",
}

_STRUCT_RE = r"^\s*struct\s+{name}\s*\{{"  # how the kernel-launch toolchain recognises a by-address struct


class CannNotFoundError(RuntimeError):
    """Building a kernel for the NPU needs a CANN toolkit (and cmake) on this machine."""


# ---- the machine: CANN, its version, the SoC ----------------------------------------------------------------

def cann_home() -> str:
    """The CANN toolkit of this shell (``ASCEND_HOME_PATH``, which CANN's set_env.sh sets)."""
    home = os.environ.get("ASCEND_HOME_PATH", "")
    if not home:
        raise CannNotFoundError(
            "ascend_ext: building a kernel for the NPU needs CANN, and ASCEND_HOME_PATH is not set: run 'source "
            "<CANN install>/set_env.sh' (or use kernels prebuilt with 'python -m ascend_ext build' on a machine "
            "with CANN). The CPU twin needs no CANN.")
    if not os.path.isdir(home):
        raise CannNotFoundError(f"ascend_ext: ASCEND_HOME_PATH={home} is not a directory; source the set_env.sh "
                                "of an installed CANN toolkit")
    return home


def cann_version(home: Optional[str] = None) -> str:
    """The installed CANN's version, from its ``ascend_*_install.info`` / version files (as torch_npu's
    collect_env reads it), else the toolkit's real path."""
    home = os.path.realpath(home or cann_home())
    found = []
    for depth in ("", "*", os.path.join("*", "*")):
        pattern = os.path.join(home, depth, "")
        for path in sorted(_glob(pattern, ("ascend_*_install.info", "version.cfg", "version.info"))):
            with open(path, errors="replace") as f:
                versions = [line.strip() for line in f if re.match(r"\s*\w*version\w*\s*=", line, re.I)]
            if versions:
                found.append(f"{os.path.relpath(path, home)}:{';'.join(versions)}")
        if found:
            return " ".join(found)
    return f"unversioned CANN at {home}"


def _glob(directory: str, patterns: Iterable[str]) -> List[str]:
    return [p for pattern in patterns for p in glob.glob(os.path.join(directory, pattern)) if os.path.isfile(p)]


def device_soc_version(device=None) -> Optional[str]:
    """The SoC of an NPU this process sees (torch_npu), or None where there is none."""
    if "torch_npu" not in sys.modules:
        import importlib.util

        if importlib.util.find_spec("torch_npu") is None:
            return None
        try:
            import torch_npu  # noqa: F401  (needs CANN's runtime)
        except Exception:  # noqa: BLE001  (no CANN runtime: no device)
            return None
    import torch

    try:
        if not torch.npu.is_available():
            return None
        return str(torch.npu.get_device_name(device))
    except Exception:  # noqa: BLE001
        return None


def resolve_soc(explicit: Optional[str] = None) -> str:
    """The SoC to build for: ``explicit``, else ``ASCEND_EXT_SOC_VERSION``, else the visible NPU's."""
    soc = explicit or os.environ.get("ASCEND_EXT_SOC_VERSION") or device_soc_version()
    if not soc:
        raise CannNotFoundError(
            "ascend_ext: no SoC to build the kernel for: no NPU is visible and ASCEND_EXT_SOC_VERSION is not set "
            "(set it to the SoC of the target machine, e.g. Ascend910B2, as 'npu-smi info' names it)")
    soc = soc.strip()
    if not re.fullmatch(r"Ascend[0-9A-Za-z_\-]+", soc, flags=re.I):
        raise ValueError(f"ascend_ext: SoC version {soc!r}: expected a name like Ascend910B2 ('Ascend' and the "
                         "chip name 'npu-smi info' shows)")
    return soc


def system_workspace_bytes(soc: str) -> int:
    """The system workspace a launch of a kernel that takes one registers on ``soc``."""
    low = soc.lower()
    for prefix, size in _SYSTEM_WORKSPACE_BY_SOC_PREFIX:
        if low.startswith(prefix):
            return size
    return 16 << 20


# ---- what the launch needs to know of the entry ----------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _Layout:
    """How the host passes each parameter, and where the launch registers the system workspace."""

    kinds: Tuple[str, ...]  # per parameter: "gm", "scalar" or "struct"
    system_workspace: bool  # the entry ends with (workspace) or (workspace, tiling): HAVE_WORKSPACE
    tiling_last: bool  # ... and with tiling after it: HAVE_TILING


def _structs_in(paths: Iterable[str]) -> set:
    names = set()
    for path in paths:
        try:
            with open(path, errors="replace") as f:
                text = strip_comments(f.read())
        except OSError:
            continue
        names.update(re.findall(_STRUCT_RE.format(name=r"(\w+)"), text, flags=re.M))
    return names


def _struct_name(p: KernelParam) -> str:
    """A by-value struct parameter's type as CANN's generator writes it (an elaborated 'struct X' is X)."""
    return re.sub(r"^struct\s+", "", p.ctype)


def _layout(spec: KernelSpec) -> _Layout:
    where = f"kernel '{spec.entry}'"
    structs = None
    kinds = []
    for p in spec.params:
        if p.is_gm:
            kinds.append("gm")
        elif p.is_scalar:
            if p.ctype not in _SCALAR_FORMATS:
                raise ValueError(
                    f"{where}: parameter '{p.name}' is a {p.ctype} passed by value, which the host cannot pass to a "
                    f"kernel launch (it has no {p.ctype} type); pass it as float, or its bits as uint16_t")
            kinds.append("scalar")
        else:
            if structs is None:
                structs = _structs_in(list(spec.sources) + spec.local_headers())
            if not re.fullmatch(r"\w+", _struct_name(p)) or _struct_name(p) not in structs:
                raise ValueError(
                    f"{where}: parameter '{p.name}' has type '{p.ctype}' passed by value. The kernel-launch toolchain "
                    f"passes a struct from the host only when the parameter's type is a plain name defined as "
                    f"'struct {p.ctype.split('::')[-1]} {{ ... }};' in the kernel's sources or their headers; define it "
                    f"so, or pass the data through GM (GM_ADDR {p.name})")
            kinds.append("struct")
    names = [p.name for p in spec.params]
    gm = {p.name for p in spec.params if p.is_gm}
    tiling_last = len(names) >= 2 and names[-1] == "tiling" and names[-2] == "workspace" and "workspace" in gm
    system_workspace = tiling_last or (bool(names) and names[-1] == "workspace" and "workspace" in gm)
    return _Layout(tuple(kinds), system_workspace, tiling_last)


def _check_kernel_type(spec: KernelSpec) -> None:
    for source in spec.sources:
        with open(source, errors="replace") as f:
            m = re.search(r"KERNEL_TASK_TYPE_DEFAULT\s*\(\s*KERNEL_TYPE_(\w+)\s*\)", strip_comments(f.read()))
        if m is None:
            continue
        declared = kernel_type_of(source)
        if declared is not None and declared != spec.kernel_type:
            raise ValueError(
                f"kernel '{spec.entry}': declared as an '{spec.kernel_type}' kernel, but "
                f"{os.path.basename(source)} sets KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_{m.group(1)}) "
                f"(an '{declared}' kernel); make them agree")


# ---- the generated project -------------------------------------------------------------------------------------

def device_variants(spec: KernelSpec) -> List[KernelVariant]:
    """The variants the device builds: a twin-only one (a double build, for float64 gradient checks on the
    CPU twin; A2 has no float64 vector or cube arithmetic) is left out."""
    return [v for v in spec.variants if not v.twin_only]


def _entries_to_rename(spec: KernelSpec) -> List[str]:
    names: Dict[str, None] = {spec.entry: None}
    for source in spec.sources:
        for name in find_entries(source):
            names[name] = None
    return list(names)


_DIRECTIVE_RE = re.compile(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif|include|define)\b")


def _hoisted(spec: KernelSpec) -> List[str]:
    """What of the sources goes before the namespace that wraps them: their #includes, inside the same
    #if/#ifdef blocks as in the source (a block without includes stays empty), and the #defines written before a
    source's first include outside any block (they configure those headers, e.g. ASCENDC_CUBE_ONLY)."""
    lines: List[str] = []
    for source in spec.sources:
        with open(source, errors="replace") as f:
            text = strip_comments(re.sub(r"\\\n", " ", f.read()))  # continued directives on one line
        depth, seen_include = 0, False
        for line in text.splitlines():
            m = _DIRECTIVE_RE.match(line)
            if m is None:
                continue
            kind = m.group(1)
            if kind == "define":
                if depth == 0 and not seen_include:
                    lines.append(" ".join(line.split()))
                continue
            if kind in ("if", "ifdef", "ifndef"):
                depth += 1
            elif kind == "endif":
                depth -= 1
            elif kind == "include":
                seen_include = True
            lines.append(" ".join(line.split()))
    return lines


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _define(name: str, value: str) -> str:
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        raise ValueError(f"macro name {name!r}: expected a C identifier")
    if "\n" in value or "\r" in value:
        raise ValueError(f"macro {name}: its value {value!r} spans several lines")
    return f"#define {name} {value}".rstrip()


def variant_source(spec: KernelSpec, key: str) -> str:
    """The generated source of one variant: its macros, the kernel's includes, then the sources inside a
    namespace of their own with every entry renamed ``<entry>__<key>``. Each variant is its own translation
    unit of the device build, but all of them land in one device binary: the namespace keeps their classes and
    helpers (which differ per variant through its macros) from being merged by the device linker. The
    toolchain's generated launch wrapper calls the entry, and names its parameter types, at global scope: the
    using-directive at the end makes them visible there."""
    variant = spec.variant(key)
    space = f"ascend_ext_variant_{key}"
    lines = [f"// Generated by ascend_ext.npu_kernels: variant '{key}' of kernel '{spec.entry}' for CANN's "
             "kernel-launch build. Do not edit.",
             "// The declaration's macros, then the variant's (as -D would set them)."]
    lines += [_define(k, v) for k, v in spec.defines]
    lines += [_define(k, v) for k, v in variant.defines]
    lines += ["// The kernel's own includes, outside the namespace (included again inside, they are no-ops).",
              *_hoisted(spec),
              "// Every kernel entry renamed for this variant: several variants share one library."]
    renamed = _entries_to_rename(spec)
    lines += [f"#define {name} {name}__{key}" for name in renamed]
    lines.append(f"namespace {space} {{")
    lines += [f"#include {_c_string(source)}" for source in spec.sources]
    lines.append(f"}}  // namespace {space}")
    lines += [f"#undef {name}" for name in renamed]
    lines += [f"using namespace {space};", ""]
    return "\n".join(lines)


def launch_symbol(spec: KernelSpec, key: str) -> str:
    return LAUNCH_PREFIX + spec.variant(key).symbol(spec.entry)


def shim_source(spec: KernelSpec) -> str:
    """The uniform C entries: one per variant, unpacking ``args`` into the generated ``aclrtlaunch_`` call."""
    layout = _layout(spec)
    structs = sorted({_struct_name(p) for p, kind in zip(spec.params, layout.kinds) if kind == "struct"})
    lines = [f"// Generated by ascend_ext.npu_kernels for kernel '{spec.entry}'. Do not edit.",
             "// One C entry per variant with the same signature, so that ascend_ext's NPU launcher needs no",
             "// per-kernel code: args[i] is the i-th argument of the entry, a GM address itself, or the address of",
             "// a scalar's value or of a by-value struct's bytes (the generated aclrtlaunch_ function takes a struct",
             "// by address and copies it into the launch's arguments).",
             "#include <cstdint>", ""]
    if structs:
        lines.append("// Structs passed by value: the generated launch functions take them by address.")
        lines += [f"struct {name};" for name in structs]
        lines.append("")
    lines += [f'#include "aclrtlaunch_{v.symbol(spec.entry)}.h"' for v in device_variants(spec)]
    lines.append("")
    for v in device_variants(spec):
        unpacked = []
        for i, (p, kind) in enumerate(zip(spec.params, layout.kinds)):
            if kind == "gm":
                unpacked.append(f"args[{i}]")
            elif kind == "scalar":
                unpacked.append(f"*static_cast<const {p.ctype}*>(args[{i}])")
            else:
                unpacked.append(f"static_cast<{_struct_name(p)}*>(args[{i}])")
        call_args = ", ".join(["block_dim", "stream", *unpacked])
        lines += [f'extern "C" __attribute__((visibility("default"))) int {launch_symbol(spec, v.key)}(',
                  "    uint32_t block_dim, void* stream, void* const* args)",
                  "{",
                  *(["    (void)args;"] if not spec.params else []),
                  f"    return static_cast<int>(aclrtlaunch_{v.symbol(spec.entry)}(",
                  f"        {call_args}));",
                  "}", ""]
    return "\n".join(lines)


def aclrtlaunch_declaration(spec: KernelSpec, key: str) -> str:
    """The declaration of ``aclrtlaunch_<entry>__<key>`` that CANN's kernel-launch build writes into its generated
    header, by the rules of its generator (asc-devkit legacy_modules/util/extract_host_stub.py): the block count
    and stream first, then the entry's parameters with GM addresses as void*, scalars as declared and structs
    by address. For checks where the toolchain is absent; tests/test_cann_cmake.py compares it with the real
    generator's output."""
    layout = _layout(spec)
    params = ["uint32_t numBlocks", "aclrtStream stream"]
    for p, kind in zip(spec.params, layout.kinds):
        params.append(f"void* {p.name}" if kind == "gm" else f"{_struct_name(p)}* {p.name}" if kind == "struct"
                      else f"{p.ctype} {p.name}")
    return f'extern "C" uint32_t aclrtlaunch_{spec.variant(key).symbol(spec.entry)}({", ".join(params)})'


def library_name(spec: KernelSpec) -> str:
    return f"lib{spec.entry}_npu.so"


def cmake_source(spec: KernelSpec, soc: str) -> str:
    layout = _layout(spec)
    include_dirs: Dict[str, None] = {os.path.dirname(s): None for s in spec.sources}
    include_dirs.update((d, None) for d in spec.include_dirs)
    variants = " ".join(f"variants/{v.symbol(spec.entry)}.cpp" for v in device_variants(spec))
    definitions = (["HAVE_WORKSPACE"] if layout.system_workspace else []) + (["HAVE_TILING"] if layout.tiling_last else [])
    target = f"{spec.entry}_npu"

    def cmake_path(path: str) -> str:
        return '"' + path.replace("\\", "/").replace('"', '\\"') + '"'

    lines = [
        f"# Generated by ascend_ext.npu_kernels for kernel '{spec.entry}' ({os.path.basename(spec.sources[0])}) on "
        f"{soc}. Do not edit.",
        "# Every variant compiled in CANN's kernel-launch mode (ascendc_library of the Ascend C CMake modules, which",
        "# generates aclrtlaunch_<kernel> and its header) into a static library, linked into a shared library with",
        "# one uniform C entry per variant (shim.cpp).",
        "cmake_minimum_required(VERSION 3.16)",
        f"project(ascend_ext_{spec.entry} LANGUAGES C CXX)",
        "",
        f'set(SOC_VERSION "{soc}" CACHE STRING "SoC the kernels are compiled for")',
        'set(RUN_MODE "npu" CACHE STRING "npu: the kernels run on the device")',
        "if(NOT CMAKE_BUILD_TYPE)",
        "  set(CMAKE_BUILD_TYPE Release)",
        "endif()",
        "if(NOT ASCEND_CANN_PACKAGE_PATH)",
        '  if("$ENV{ASCEND_HOME_PATH}" STREQUAL "")',
        "    message(FATAL_ERROR \"ascend_ext: ASCEND_HOME_PATH is not set: run 'source <CANN install>/set_env.sh'\")",
        "  endif()",
        '  set(ASCEND_CANN_PACKAGE_PATH "$ENV{ASCEND_HOME_PATH}" CACHE PATH "the CANN toolkit")',
        "endif()",
        "foreach(dir compiler/tikcpp/ascendc_kernel_cmake tools/tikcpp/ascendc_kernel_cmake)",
        '  if(NOT ASCENDC_CMAKE_DIR AND EXISTS "${ASCEND_CANN_PACKAGE_PATH}/${dir}/ascendc.cmake")',
        '    set(ASCENDC_CMAKE_DIR "${ASCEND_CANN_PACKAGE_PATH}/${dir}")',
        "  endif()",
        "endforeach()",
        "if(NOT ASCENDC_CMAKE_DIR)",
        "  message(FATAL_ERROR \"ascend_ext: ${ASCEND_CANN_PACKAGE_PATH} has no compiler/tikcpp/ascendc_kernel_cmake/"
        "ascendc.cmake (CANN's Ascend C kernel-launch CMake modules): install a CANN toolkit with Ascend C\")",
        "endif()",
        'include("${ASCENDC_CMAKE_DIR}/ascendc.cmake")',
        "",
        f"ascendc_library(ascend_ext_kernels STATIC {variants})",
        "ascendc_include_directories(ascend_ext_kernels PRIVATE " + " ".join(cmake_path(d) for d in include_dirs) + ")",
    ]
    if definitions:
        lines += ["# The entry ends with its workspace (and tiling): the launch registers the system workspace, as the",
                  "# op package does, and the kernel receives its own part (GetUserWorkspace).",
                  f"ascendc_compile_definitions(ascend_ext_kernels PRIVATE {' '.join(definitions)})"]
    lines += [
        "",
        f"add_library({target} SHARED shim.cpp)",
        f"set_target_properties({target} PROPERTIES CXX_STANDARD 17 CXX_VISIBILITY_PRESET hidden",
        '                      LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib")',
        f"target_link_libraries({target} PRIVATE ascend_ext_kernels)",
        f'target_link_options({target} PRIVATE "-Wl,--no-undefined")',
        "",
    ]
    return "\n".join(lines)


def manifest(spec: KernelSpec, soc: str, cann: str) -> dict:
    layout = _layout(spec)
    return {
        "generator": GENERATOR_VERSION,
        "entry": spec.entry,
        "kernel_type": spec.kernel_type,
        "soc_version": soc,
        "cann_version": cann,
        "digest": digest(spec, soc, cann),
        "library": library_name(spec),
        "params": [[p.name, p.ctype, kind] for p, kind in zip(spec.params, layout.kinds)],
        "variants": {v.key: launch_symbol(spec, v.key) for v in device_variants(spec)},
        "system_workspace": layout.system_workspace,
        "sources": [os.path.basename(s) for s in spec.sources],
    }


def digest(spec: KernelSpec, soc: str, cann: str) -> str:
    return spec.digest(soc.lower(), cann, "npu_kernels", GENERATOR_VERSION)


def generate_project(spec: KernelSpec, soc_version: str, directory: str, cann: Optional[str] = None) -> str:
    """Writes the CMake project that builds every variant of ``spec`` for ``soc_version`` into ``directory``
    (CMakeLists.txt, variants/<entry>__<key>.cpp, shim.cpp, manifest.json) and returns ``directory``.

    Raises ValueError for an entry the kernel-launch path cannot call (see ``_layout``) or a declared kernel
    type that contradicts the source's KERNEL_TASK_TYPE_DEFAULT."""
    soc = soc_version
    _check_kernel_type(spec)
    _layout(spec)
    os.makedirs(os.path.join(directory, "variants"), exist_ok=True)
    files = {os.path.join("variants", f"{v.symbol(spec.entry)}.cpp"): variant_source(spec, v.key)
             for v in device_variants(spec)}
    files["shim.cpp"] = shim_source(spec)
    files["CMakeLists.txt"] = cmake_source(spec, soc)
    files[MANIFEST] = json.dumps(manifest(spec, soc, cann or "unknown"), indent=1) + "\n"
    for name, text in files.items():
        with open(os.path.join(directory, name), "w") as f:
            f.write(text)
    return directory


# ---- building ------------------------------------------------------------------------------------------------

_ERROR_PATTERNS = (
    re.compile(r"^\S.*?:\d+:(?:\d+:)?\s*(?:fatal )?error\b.*$"),  # compiler diagnostics: file:line:col: error: ...
    re.compile(r"^.*(?:undefined reference to|undefined symbol:) .*$"),  # the linker, naming the symbol
    re.compile(r"^(?:\S*ld(?:\.lld)?|collect2)(?::| ).*error\b.*$"),  # the linker
    re.compile(r"^CMake Error\b.*$"),
    re.compile(r"^.*\berror\b.*$", re.I),
)


def first_error_line(log: str) -> str:
    """The first line of a build log that states an error, by the most specific kind found (a compiler
    diagnostic before a CMake error before any line mentioning an error); a CMake error keeps its message."""
    lines = log.splitlines()
    for pattern in _ERROR_PATTERNS:
        for i, line in enumerate(lines):
            if pattern.match(line.strip()):
                line = line.strip()
                if line.startswith("CMake Error"):
                    message = next((m.strip() for m in lines[i + 1:] if m.strip()), "")
                    return f"{line} {message}".strip()
                return line
    tail = [line.strip() for line in lines if line.strip()]
    return tail[-1] if tail else "the build failed without output"


def _cache_root() -> str:
    root = os.environ.get("ASCEND_EXT_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "ascend_ext"))
    return os.path.join(root, "npu_kernels")


def build_dir_name(spec: KernelSpec, soc: str, cann: str) -> str:
    return f"{spec.entry}-{soc.lower()}-{digest(spec, soc, cann)[:16]}"


def _run(cmd: Sequence[str], log, env: Dict[str, str]) -> int:
    log.write("$ " + " ".join(cmd) + "\n")
    log.flush()
    return subprocess.run(list(cmd), stdout=log, stderr=subprocess.STDOUT, env=env).returncode


def _read_manifest(directory: str) -> Optional[dict]:
    try:
        with open(os.path.join(directory, MANIFEST)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def build(spec: KernelSpec, soc_version: Optional[str] = None, out_dir: Optional[str] = None) -> str:
    """Builds ``spec`` for the NPU with CANN and returns the shared library's path.

    The result lives in ``<out_dir or ~/.cache/ascend_ext/npu_kernels>/<entry>-<soc>-<digest>/`` next to its
    manifest; a library of the same content (sources, their local headers, macros, variants, SoC, CANN
    version) is reused. A failed build raises KernelCompileError whose message starts with the first error
    line of the toolchain's output, and keeps nothing."""
    home = cann_home()
    soc = resolve_soc(soc_version)
    cann = cann_version(home)
    cmake = shutil.which("cmake")
    if cmake is None:
        raise CannNotFoundError("ascend_ext: building a kernel for the NPU needs cmake (3.16 or newer) on PATH")
    root = out_dir or _cache_root()
    final = os.path.join(root, build_dir_name(spec, soc, cann))
    library = os.path.join(final, library_name(spec))
    os.makedirs(root, exist_ok=True)
    os.makedirs(_cache_root(), exist_ok=True)
    # The lock lives in the cache even for an out_dir, so that a package's prebuilt directory holds builds only.
    with open(os.path.join(_cache_root(), build_dir_name(spec, soc, cann) + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a concurrent build of the same content (other ranks) waits for this one
        if os.path.isfile(library) and (_read_manifest(final) or {}).get("digest") == digest(spec, soc, cann):
            return library
        cached = find_prebuilt(spec, soc, cann, [_cache_root()])
        if out_dir is not None and cached is not None:  # already built here: shipped as it is
            work = f"{final}.{os.getpid()}.tmp"
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(os.path.dirname(cached), work)
            shutil.rmtree(final, ignore_errors=True)
            os.replace(work, final)
            return library
        work = f"{final}.{os.getpid()}.tmp"
        shutil.rmtree(work, ignore_errors=True)
        generate_project(spec, soc, work, cann)
        env = dict(os.environ)
        log_path = os.path.join(work, "build.log")
        jobs = str(int(os.environ.get("MAX_JOBS", 0)) or os.cpu_count() or 2)
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        with open(log_path, "w") as log:
            rc = _run([cmake, "-S", work, "-B", os.path.join(work, "build"), *generator,
                       f"-DSOC_VERSION={soc}", f"-DASCEND_CANN_PACKAGE_PATH={home}",
                       f"-DASCEND_PYTHON_EXECUTABLE={sys.executable}", "-DCMAKE_BUILD_TYPE=Release"], log, env)
            if rc == 0:
                rc = _run([cmake, "--build", os.path.join(work, "build"), "-j", jobs], log, env)
        built = os.path.join(work, "build", "lib", library_name(spec))
        if rc != 0 or not os.path.isfile(built):
            with open(log_path, errors="replace") as f:
                text = f.read()
            kept = os.path.join(_cache_root(), build_dir_name(spec, soc, cann) + ".failed.log")
            shutil.copyfile(log_path, kept)
            shutil.rmtree(work, ignore_errors=True)
            first = first_error_line(text) if rc != 0 else f"the build did not produce {library_name(spec)}"
            tail = "\n".join(text.splitlines()[-30:])
            raise KernelCompileError(
                f"{first}\n(the NPU build of kernel '{spec.entry}' ({', '.join(os.path.basename(s) for s in spec.sources)}) "
                f"for {soc} with CANN at {home} failed; full log: {kept})\n{tail}")
        os.makedirs(final, exist_ok=True)
        shutil.copyfile(built, library + ".tmp")
        os.replace(library + ".tmp", library)
        shutil.copyfile(log_path, os.path.join(final, "build.log"))
        shutil.copyfile(os.path.join(work, MANIFEST), os.path.join(final, MANIFEST))
        shutil.rmtree(work, ignore_errors=True)
    return library


# ---- loading and launching ---------------------------------------------------------------------------------------

_LOADED: Dict[str, "NpuKernelLibrary"] = {}
_LOAD_LOCK = threading.Lock()


def find_prebuilt(spec: KernelSpec, soc: str, cann: str, directories: Iterable[str]) -> Optional[str]:
    """The library built for this content, SoC and CANN in one of ``directories`` (or in its ``<entry>/``
    folder, where an op's prebuild puts it), if any."""
    name = build_dir_name(spec, soc, cann)
    want = digest(spec, soc, cann)
    for d in directories:
        for candidate in (os.path.join(d, name), os.path.join(d, spec.entry, name)):
            library = os.path.join(candidate, library_name(spec))
            if os.path.isfile(library) and (_read_manifest(candidate) or {}).get("digest") == want:
                return library
    return None


def device_platform(device=None):
    """The platform profile (``ascend_ext.library.Platform``) of the NPU ``device``, for tiling functions."""
    from .library import Platform

    soc = device_soc_version(device)
    if soc is None:
        raise RuntimeError("ascend_ext: no NPU is visible to give a platform profile for")
    try:
        return Platform.named(soc)
    except ValueError:
        raise ValueError(f"ascend_ext: the NPU's SoC {soc} has no platform profile (op_host/platform_info.h) for "
                         "tiling functions") from None


def load(spec: KernelSpec, directories: Iterable[str] = (), soc_version: Optional[str] = None) -> "NpuKernelLibrary":
    """The NPU library of ``spec`` for this machine, loaded once per process: found in ``directories`` (a
    package's prebuilt kernels) or the cache, else built (which needs CANN). The SoC is the visible NPU's
    unless given."""
    soc = soc_version or device_soc_version() or resolve_soc()
    cann = cann_version()
    search = [*directories, _cache_root()]
    library = find_prebuilt(spec, soc, cann, search)
    if library is None:
        library = build(spec, soc, None)
    real = os.path.realpath(library)
    with _LOAD_LOCK:
        if real not in _LOADED:
            _LOADED[real] = NpuKernelLibrary(real, spec, _read_manifest(os.path.dirname(real)) or {})
        return _LOADED[real]


_KIND_TENSOR, _KIND_NULL, _KIND_VALUE, _KIND_DEVICE_BYTES, _KIND_WORKSPACE = range(5)


class NpuKernelLibrary:
    """A kernel-launch library of one KernelSpec, loaded (dlopen) into this process."""

    def __init__(self, path: str, spec: KernelSpec, manifest_data: dict):
        self.path = path
        self.spec = spec
        self.manifest = manifest_data
        self.soc_version = manifest_data.get("soc_version", "")
        self.layout = _layout(spec)
        # CANN's generated code registers the kernels when the library is loaded, and only on the SoC it was
        # built for; elsewhere each launch prints an error and returns success without running anything.
        device = device_soc_version()
        if device is not None and self.soc_version.lower() != device.lower():
            raise RuntimeError(f"ascend_ext: {path} holds kernel '{spec.entry}' built for {self.soc_version}, but this "
                               f"NPU is a {device}; its launches would do nothing. Build it for {device}")
        try:
            self._lib = ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_LOCAL)
        except OSError as exc:
            raise RuntimeError(f"ascend_ext: cannot load the NPU kernel library {path} of kernel '{spec.entry}': "
                               f"{exc} (is CANN's lib64 on LD_LIBRARY_PATH? source set_env.sh)") from None
        self._entries: Dict[str, int] = {}
        for v in device_variants(spec):
            fn = getattr(self._lib, launch_symbol(spec, v.key), None)
            if fn is None:
                raise RuntimeError(f"ascend_ext: {path} has no {launch_symbol(spec, v.key)}: it was not built from "
                                   f"this declaration of '{spec.entry}'; delete it to rebuild")
            self._entries[v.key] = ctypes.cast(fn, ctypes.c_void_p).value

    @property
    def system_workspace_bytes(self) -> int:
        """What a launch adds in front of the kernel's workspace (0 where the entry takes none at its end)."""
        return system_workspace_bytes(self.soc_version) if self.layout.system_workspace else 0

    def launch(self, variant_key: str, block_dim: int, args: Sequence, tiling: bytes = b"", workspace_bytes: int = 0,
               device=None) -> None:
        """Launches variant ``variant_key`` on ``block_dim`` cores, on torch_npu's current stream of ``device``
        (default: the first tensor's), in order with its task queue.

        ``args`` are the entry's arguments in order: an NPU tensor (a GM address; contiguous, plain format), None
        (a null GM address), a Python number (a scalar) or ``bytes``/a ctypes structure (a struct passed by
        value). The parameters named ``tiling`` and ``workspace`` are filled by the launch: give None in their
        places, or leave them out. A GM ``tiling``
        gets device memory holding ``tiling`` (from the caching allocator, copied in stream order); a
        by-value ``tiling`` gets the bytes themselves. A GM ``workspace`` gets ``workspace_bytes`` from the
        caching allocator (null when 0), plus, where the launch registers it, the system workspace in front
        (``system_workspace_bytes``): the kernel's GetUserWorkspace sees ``workspace_bytes``."""
        import torch

        spec = self.spec
        where = f"NPU launch of kernel '{spec.entry}'"
        if variant_key not in self._entries:
            raise ValueError(f"{where}: no variant '{variant_key}'; its variants: {', '.join(self._entries)}")
        if isinstance(block_dim, bool) or not isinstance(block_dim, int) or not 1 <= block_dim <= MAX_BLOCK_DIM:
            raise ValueError(f"{where}: block_dim must be an int in [1, {MAX_BLOCK_DIM}], got {block_dim!r}")
        if isinstance(workspace_bytes, bool) or not isinstance(workspace_bytes, int) or workspace_bytes < 0:
            raise ValueError(f"{where}: workspace_bytes must be a non-negative int, got {workspace_bytes!r}")
        if not isinstance(tiling, (bytes, bytearray, ctypes.Structure)):
            raise TypeError(f"{where}: tiling must be bytes or a ctypes structure, got {type(tiling).__name__}")
        tiling = bytes(tiling)
        filled = {i for i, (p, kind) in enumerate(zip(spec.params, self.layout.kinds))
                  if p.name == "tiling" or (p.name == "workspace" and kind == "gm")}
        explicit = [p for i, p in enumerate(spec.params) if i not in filled]
        args = list(args)
        if len(args) == len(spec.params) and filled:  # placeholders where the launch fills in
            for i in sorted(filled):
                if args[i] is not None:
                    raise TypeError(f"{where}: argument '{spec.params[i].name}' is filled by the launch (tiling=, "
                                    f"workspace_bytes=); give None in its place")
            args = [a for i, a in enumerate(args) if i not in filled]
        if len(args) != len(explicit):
            raise TypeError(f"{where}: the kernel takes ({', '.join(p.name for p in explicit)}) besides tiling and "
                            f"workspace; got {len(args)} arguments")
        given = iter(args)
        kinds = bytearray()
        values: List[object] = []
        first_device = None
        for param, kind in zip(spec.params, self.layout.kinds):
            if param.name == "tiling":
                if kind == "gm":
                    kinds.append(_KIND_DEVICE_BYTES)
                else:
                    if not tiling:
                        raise ValueError(f"{where}: the kernel takes its tiling by value; give its bytes (tiling=)")
                    kinds.append(_KIND_VALUE)
                values.append(tiling)
                continue
            if param.name == "workspace" and kind == "gm":
                kinds.append(_KIND_WORKSPACE)
                values.append(None)
                continue
            value = next(given)
            if kind == "gm":
                if value is None:
                    kinds.append(_KIND_NULL)
                elif isinstance(value, torch.Tensor):
                    if value.device.type not in _NPU_DEVICE_TYPES:
                        raise ValueError(f"{where}: argument '{param.name}' is a {value.device.type} tensor; a GM "
                                         "argument must be an NPU tensor")
                    if not value.is_contiguous():
                        raise ValueError(f"{where}: argument '{param.name}' must be contiguous (the kernel reads it "
                                         "as a flat array); call .contiguous()")
                    first_device = first_device or value.device
                    kinds.append(_KIND_TENSOR)
                else:
                    raise TypeError(f"{where}: GM argument '{param.name}' must be an NPU tensor or None, got "
                                    f"{type(value).__name__}")
                values.append(value)
            elif kind == "scalar":
                kinds.append(_KIND_VALUE)
                values.append(_scalar_bytes(where, param, value))
            else:
                data = bytes(value) if isinstance(value, (bytes, bytearray, ctypes.Structure)) else None
                if not data:
                    raise TypeError(f"{where}: argument '{param.name}' is a struct {param.ctype} passed by value; "
                                    f"give its bytes or a ctypes structure, got {type(value).__name__}")
                kinds.append(_KIND_VALUE)
                values.append(data)
        index = _device_index(where, device if device is not None else first_device)
        workspace_total = workspace_bytes + self.system_workspace_bytes
        launch = _native_launcher()
        launch(self._entries[variant_key], f"{spec.entry}__{variant_key}", block_dim, index, bytes(kinds),
               [p.name for p in spec.params], values, workspace_total)


_NPU_DEVICE_TYPES = ("npu", "privateuseone")


def _device_index(where: str, device) -> int:
    """The NPU index of ``device`` (an int, "npu[:N]", a torch.device; None: the current NPU)."""
    import torch

    if isinstance(device, int) and not isinstance(device, bool):
        index = device
    else:
        if isinstance(device, str):
            m = re.fullmatch(r"(npu|privateuseone)(?::(\d+))?", device.strip())
            kind, index = (m.group(1), int(m.group(2)) if m.group(2) else None) if m else (device, None)
        elif isinstance(device, torch.device):
            kind, index = device.type, device.index
        elif device is None:
            kind, index = "npu", None
        else:
            raise TypeError(f"{where}: device must be an NPU device, got {type(device).__name__}")
        if kind not in _NPU_DEVICE_TYPES:
            raise ValueError(f"{where}: device {device!r} is not an NPU")
        if index is None:
            index = torch.npu.current_device()
    if index < 0:
        raise ValueError(f"{where}: device index {index} is not an NPU")
    return index


def _scalar_bytes(where: str, param: KernelParam, value) -> bytes:
    fmt = _SCALAR_FORMATS[param.ctype]
    if fmt in "fd":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{where}: argument '{param.name}' ({param.ctype}) must be a number, got "
                            f"{type(value).__name__}")
    elif fmt == "?":
        if not isinstance(value, (bool, int)):
            raise TypeError(f"{where}: argument '{param.name}' (bool) must be a bool, got {type(value).__name__}")
        value = bool(value)
    elif isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{where}: argument '{param.name}' ({param.ctype}) must be an int, got {type(value).__name__}")
    try:
        return struct.pack("<" + fmt, value)
    except struct.error:
        raise ValueError(f"{where}: argument '{param.name}' = {value} does not fit a {param.ctype}") from None


def _native_launcher():
    from . import _C

    launch = getattr(_C, "_npu_launch_kernel", None)
    if launch is None:
        raise RuntimeError("ascend_ext: this build of ascend_ext has no NPU launcher (it was built without "
                           "torch_npu); reinstall it on the NPU machine with torch_npu importable")
    return launch

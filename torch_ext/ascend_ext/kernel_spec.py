"""What is known of a kernel before it is built: its sources, entry point, parameters and per-dtype variants.

A ``KernelSpec`` is target-neutral. The CPU twin (``ascend_ext.twin.compile_kernels``) and the NPU
kernel-launch build (``ascend_ext.npu_kernels``) both take one and build every variant of the same
source; ``ascend_ext.library`` makes one from an op declaration. Nothing here imports torch.

A variant is one compile of the sources with its own macros (``DTYPE_X=half``, as the op package build
sets ``DTYPE_<NAME>`` per dtype), and the entry renamed ``<entry>__<variant key>`` so that several
variants can live in one library.
"""
import dataclasses
import hashlib
import os
import re
from typing import Dict, Iterable, List, Optional, Set, Tuple

# Element types a variant may give a DTYPE_ macro, by torch dtype name.
C_TYPES: Dict[str, str] = {
    "float32": "float",
    "float16": "half",
    "bfloat16": "bfloat16_t",
    "float64": "double",
    "int8": "int8_t",
    "uint8": "uint8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "bool": "bool",
}

# Scalar parameter types a kernel entry may take by value (anything else by value is a struct).
SCALAR_TYPES = (
    "bool", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
    "int", "unsigned", "unsigned int", "long", "unsigned long", "size_t", "float", "double", "half",
)

KERNEL_TYPES = ("aiv", "aic", "mix")


@dataclasses.dataclass(frozen=True)
class KernelParam:
    """One parameter of a kernel entry point, as written in the source."""

    name: str
    ctype: str  # the declared type with qualifiers removed: "GM_ADDR", "__gm__ uint8_t*", "uint32_t", "MyTiling"

    @property
    def is_gm(self) -> bool:
        return self.ctype == "GM_ADDR" or self.ctype.endswith("*")

    @property
    def is_scalar(self) -> bool:
        return not self.is_gm and self.ctype in SCALAR_TYPES

    @property
    def is_struct(self) -> bool:
        return not self.is_gm and not self.is_scalar


@dataclasses.dataclass(frozen=True)
class KernelVariant:
    """One build of the sources: a key used in symbol names (``[A-Za-z0-9_]+``) and its macros."""

    key: str
    defines: Tuple[Tuple[str, str], ...] = ()

    def __post_init__(self):
        if not re.fullmatch(r"[A-Za-z0-9_]+", self.key):
            raise ValueError(f"kernel variant key {self.key!r}: expected letters, digits and '_' only")

    def symbol(self, entry: str) -> str:
        """The entry's name in this variant's build."""
        return f"{entry}__{self.key}"

    @property
    def twin_only(self) -> bool:
        """A build with a double element type: it exists on the CPU twin only (for float64 gradcheck); A2's
        vector and cube units have no float64 arithmetic, so the device build leaves it out."""
        return any(value == "double" for _, value in self.defines)


@dataclasses.dataclass(frozen=True)
class KernelSpec:
    sources: Tuple[str, ...]  # absolute paths; the first holds the entry
    entry: str
    params: Tuple[KernelParam, ...]  # the entry's parameters, in order
    kernel_type: str = "aiv"  # "aiv" (vector cores), "aic" (cube cores) or "mix"
    include_dirs: Tuple[str, ...] = ()  # absolute paths, searched before the SDK
    defines: Tuple[Tuple[str, str], ...] = ()  # macros of every variant
    variants: Tuple[KernelVariant, ...] = (KernelVariant("default"),)

    def __post_init__(self):
        if self.kernel_type not in KERNEL_TYPES:
            raise ValueError(f"kernel type {self.kernel_type!r}: expected one of {', '.join(KERNEL_TYPES)}")
        keys = [v.key for v in self.variants]
        if len(set(keys)) != len(keys):
            raise ValueError(f"kernel variants of '{self.entry}' repeat a key: {keys}")

    def variant(self, key: str) -> KernelVariant:
        for v in self.variants:
            if v.key == key:
                return v
        raise KeyError(f"kernel '{self.entry}' has no variant '{key}'; its variants: "
                       f"{', '.join(v.key for v in self.variants)}")

    def other_entries(self) -> List[str]:
        """The sources' entry points besides this spec's (a file may hold a forward and a backward kernel):
        a variant's build renames them too, as their extern "C" names would clash across variants."""
        return sorted({name for src in self.sources for name in find_entries(src)} - {self.entry})

    def local_headers(self) -> List[str]:
        """Every quoted #include the sources reach inside their own folders and include_dirs (not the SDK)."""
        dirs = [os.path.dirname(s) for s in self.sources] + list(self.include_dirs)
        seen: Dict[str, None] = {}
        todo = list(self.sources)
        while todo:
            path = todo.pop()
            try:
                with open(path, errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            for name in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, flags=re.M):
                for d in [os.path.dirname(path)] + dirs:
                    candidate = os.path.normpath(os.path.join(d, name))
                    if os.path.isfile(candidate):
                        if candidate not in seen and candidate not in self.sources:
                            seen[candidate] = None
                            todo.append(candidate)
                        break
        return sorted(seen)

    def digest(self, *extra: str) -> str:
        """A content hash: sources, the local headers they include, macros, variants, entry and `extra`."""
        h = hashlib.sha256()
        for part in (self.entry, self.kernel_type, repr(self.defines), repr(self.variants), *extra):
            h.update(part.encode() + b"\0")
        for path in list(self.sources) + self.local_headers():
            with open(path, "rb") as f:
                h.update(os.path.basename(path).encode() + b"\0" + f.read() + b"\0")
        return h.hexdigest()


# An entry: __global__ among the function qualifiers before `void` (__aicore__, and the kernel-type qualifiers
# __mix__(c, v), __cube__, __vector__, __schedmode__(m) of kernel-launch sources, in any order).
_QUALIFIER = r"(?:__global__|__aicore__|__cube__|__vector__|__mix__\s*\(\s*\d+\s*,\s*\d+\s*\)|__schedmode__\s*\(\s*\d+\s*\))"
_ENTRY_RE = re.compile(
    r"(template\s*<[^{;]*>\s*)?(?:extern\s+\"C\"\s+)?((?:" + _QUALIFIER + r"\s+)+)void\s+(\w+)\s*\(([^)]*)\)")
_TASK_TYPE_RE = re.compile(r"KERNEL_TASK_TYPE_DEFAULT\s*\(\s*KERNEL_TYPE_(\w+)\s*\)")


def strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def parse_param(text: str) -> Optional[KernelParam]:
    text = re.sub(r"\s+", " ", text.split("=")[0]).strip()
    if not text or text == "void":
        return None
    m = re.fullmatch(r"(.*?)(\w+)", text)
    if m is None or not m.group(1).strip():
        raise ValueError(f"cannot read the kernel parameter '{text}'")
    ctype = re.sub(r"\b(const|volatile|__restrict__|__restrict)\b", " ", m.group(1))
    ctype = re.sub(r"\s*\*\s*", "*", re.sub(r"\s+", " ", ctype)).strip()
    ctype = re.sub(r"&$", "", ctype).strip()
    return KernelParam(m.group(2), ctype)


def find_entries(source: str) -> Dict[str, Tuple[KernelParam, ...]]:
    """The non-template kernel entry points (``__global__ __aicore__ void name(...)``) of a source file.

    A template entry (a kernel over tiling-key template parameters) is not launchable by itself: the op
    build instantiates it per tiling key. It is left out; an ``extern "C"`` entry calling the wanted
    instantiation makes it launchable."""
    with open(source, errors="replace") as f:
        text = strip_comments(f.read())
    entries: Dict[str, Tuple[KernelParam, ...]] = {}
    for template, qualifiers, name, params in _ENTRY_RE.findall(text):
        if template or "__global__" not in qualifiers or ("__aicore__" not in qualifiers and not
                                                           re.search(r"__mix__|__cube__|__vector__", qualifiers)):
            continue
        entries[name] = tuple(p for p in (parse_param(s) for s in params.split(",")) if p is not None)
    return entries


def template_entry_names(source: str) -> Set[str]:
    """The names of the source's template kernel entries (``template <...> __global__ ... void name(...)``): a
    non-template entry of the same name is an overload set for C++, named by its parameters."""
    with open(source, errors="replace") as f:
        text = strip_comments(f.read())
    return {name for template, qualifiers, name, _ in _ENTRY_RE.findall(text) if template and "__global__" in qualifiers}


def kernel_type_of(source: str) -> Optional[str]:
    """'aiv', 'aic' or 'mix' from the source's KERNEL_TASK_TYPE_DEFAULT, or None if it has none."""
    with open(source, errors="replace") as f:
        m = _TASK_TYPE_RE.search(strip_comments(f.read()))
    if m is None:
        return None
    kind = m.group(1)
    if kind.startswith("MIX"):
        return "mix"
    return {"AIV_ONLY": "aiv", "AIC_ONLY": "aic"}.get(kind)


def make_spec(sources: Iterable[str], entry: str, include_dirs: Iterable[str] = (),
              defines: Optional[Dict[str, object]] = None,
              variants: Iterable[KernelVariant] = (KernelVariant("default"),),
              kernel_type: Optional[str] = None) -> KernelSpec:
    """A KernelSpec from source files, reading the entry's parameters and kernel type from the sources."""
    sources = tuple(os.path.abspath(s) for s in sources)
    if not sources:
        raise ValueError(f"kernel '{entry}': no source files given")
    for s in sources:
        if not os.path.isfile(s):
            raise FileNotFoundError(f"kernel '{entry}': source file {s} does not exist")
    found: Dict[str, Tuple[KernelParam, ...]] = {}
    holder = None
    for s in sources:
        entries = find_entries(s)
        if entry in entries and holder is None:
            holder = s
            found[entry] = entries[entry]
    if holder is None:
        known = sorted({name for s in sources for name in find_entries(s)})
        raise ValueError(f"kernel '{entry}': no entry point of that name (__global__ __aicore__ void {entry}(...)) "
                         f"in {', '.join(os.path.basename(s) for s in sources)}; entries found: "
                         f"{', '.join(known) or 'none'}")
    ordered = (holder,) + tuple(s for s in sources if s != holder)
    if kernel_type is None:
        kernel_type = kernel_type_of(holder) or "aiv"
    return KernelSpec(
        sources=ordered, entry=entry, params=found[entry], kernel_type=kernel_type,
        include_dirs=tuple(os.path.abspath(d) for d in include_dirs),
        defines=tuple((str(k), "" if v is None else str(v)) for k, v in sorted((defines or {}).items())),
        variants=tuple(variants),
    )

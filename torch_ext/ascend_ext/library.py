"""Your own Ascend C kernel as a native torch op, from one declaration.

    import ascend_ext.library as al

    rms_norm = al.op(
        "my_ops::rms_norm(Tensor x, Tensor gamma, float eps=1e-6) -> Tensor y",
        kernel=al.Kernel("rms_norm.cpp"),                      # entry point: the op's name
        dtypes={"x": al.FLOATING, "gamma": "x"},              # gamma: the dtype of x
        outputs={"y": al.like("x")},                           # shape and dtype of each output
        tiling=rms_norm_tiling,                                # (x, gamma, eps, *, platform) -> al.Tiling
        setup_context=..., backward=...,                      # optional: autograd, as torch.library
    )
    y = torch.ops.my_ops.rms_norm(x, gamma)                    # CPU: the twin runs the kernel; NPU: the kernel

The result is ``torch.ops.<ns>.<name>`` with a CPU implementation (the CPU twin runs the kernel), a fake
(meta) implementation from ``outputs``, autograd (backward, and forward mode with ``jvp``), a vmap rule,
autocast, and on an NPU the kernel launched on torch_npu's current stream (``ascend_ext.npu_kernels``):
it works with torch.compile(fullgraph=True), torch.export, the profiler and ``torch.library.opcheck``.

How a call reaches the kernel: every parameter of the kernel's entry point is bound by name — a schema
tensor argument, an output, a schema number passed by value, ``workspace`` (GM of the size the tiling
asks for) or ``tiling`` (the tiling bytes, in GM or by value). The kernel is built once per dtype
combination ("variant") with ``DTYPE_<NAME>`` set for every tensor (``DTYPE_X=half``), as CANN's op build
does. Before any launch the arguments are checked against the declaration (dtype, device, rank,
contiguity, alignment), the tiling's result against the kernel (block dim within the platform's cores,
tiling bytes of the kernel's tiling struct size): a clear error naming the op and the argument.
"""
import ctypes
import dataclasses
import functools
import inspect
import itertools
import json
import os
import re
import struct
import sys
import threading
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import torch

from . import kernel_spec as _ks
from . import op_facts as _of
from . import twin_kernels as _tk
from .kernel_spec import KernelSpec, KernelVariant
from .twin_kernels import KernelCompileError, KernelRuleViolation  # noqa: F401  (part of this API)

__all__ = [
    "Kernel", "Out", "Tiling", "Platform", "TensorArg", "Promoted", "CppTiling", "Plan", "like", "promoted", "op",
    "c_struct", "declared_ops", "builtin_ops", "DeclaredOp", "NativeOp", "FLOATING", "DeclarationError",
    "KernelCompileError", "KernelRuleViolation",
]

FLOATING = ("float32", "float16", "bfloat16")

_DTYPES: Dict[str, torch.dtype] = {
    "float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16, "float64": torch.float64,
    "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
    "bool": torch.bool,
}
_DTYPE_NAMES = {v: k for k, v in _DTYPES.items()}


class DeclarationError(ValueError):
    """An op declaration that cannot describe a working op (raised when the op is declared)."""


# ---- the declaration's parts ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Kernel:
    """The kernel: source files (relative to the declaring file), the entry point (default: the op's name),
    extra include directories and macros. ``kernel_type`` ('aiv', 'aic', 'mix') defaults to the source's
    KERNEL_TASK_TYPE_DEFAULT, else 'aiv'."""

    sources: Union[str, Sequence[str]]
    entry: Optional[str] = None
    include_dirs: Sequence[str] = ()
    defines: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    kernel_type: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class Promoted:
    """A dtype derived from others: torch.promote_types of the dtypes of the named tensor arguments and of
    the named dtypes. ``promoted('x', 'float32')`` is float32 for a float16, bfloat16 or float32 x and
    float64 for a float64 x: the dtype a kernel accumulates x in, e.g. of a statistics output."""

    parts: Tuple[str, ...]


def promoted(*parts: str) -> Promoted:
    """The dtype torch.promote_types gives for the named tensor arguments' dtypes and the named dtypes; for an
    output's dtype or a tensor argument's dtypes (the argument must then have exactly this dtype)."""
    return Promoted(tuple(parts))


@dataclasses.dataclass(frozen=True)
class TensorArg:
    """What the kernel needs of a tensor argument.

    ``dtypes``: dtype names the kernel is built for, the name of another tensor argument whose dtype this
    one must have, or ``promoted(...)`` of other arguments. ``rank``: an exact rank or a (min, max) pair
    (None: unbounded). ``contiguous``: 'copy' (a non-contiguous tensor is made contiguous, as native ops
    accept any strides) or 'require' (it is an error). ``align``: bytes the data address must be a multiple
    of (0: no rule; contiguous copies are always 64-byte aligned)."""

    dtypes: Union[str, Sequence[str]]
    rank: Union[None, int, Tuple[Optional[int], Optional[int]]] = None
    contiguous: str = "copy"
    align: int = 0


@dataclasses.dataclass(frozen=True)
class Out:
    """An output: its shape (a function of the op's arguments returning a sequence of sizes, or the name of
    a tensor argument whose shape it has) and its dtype (a dtype name, a torch.dtype, the name of a
    tensor argument whose dtype it has, or ``promoted(...)`` of arguments and dtype names)."""

    shape: Union[str, Callable[..., Sequence[int]]]
    dtype: Union[str, torch.dtype, Promoted]


def like(arg: str) -> Out:
    """An output with the shape and dtype of tensor argument ``arg``."""
    return Out(shape=arg, dtype=arg)


@dataclasses.dataclass
class Tiling:
    """What a tiling function returns: the number of cores to launch, the tiling data (a ctypes structure,
    e.g. one made by ``c_struct``, or bytes), the workspace the kernel needs in bytes, and the tiling key."""

    block_dim: int
    data: Union[bytes, bytearray, ctypes.Structure, None] = None
    workspace: int = 0
    tiling_key: int = 0


@dataclasses.dataclass(frozen=True)
class CppTiling:
    """A tiling function in C++: ``function`` in ``header`` (relative to the declaring file), with the signature
    of op_host/cpp_tiling.h, ``TilingDecision F(const TilingArgs&, const PlatformInfo&, Data&)``; compiled
    once into a host library (g++, cached) and called with ctypes. The same function can tile in a CANN
    TilingFunc (cann_glue.h, RunCppTiling), so host and device tile alike."""

    header: str
    function: str
    include_dirs: Sequence[str] = ()


@dataclasses.dataclass(frozen=True)
class Plan:
    """A built-in op's plan function for ``ascend_ext.twin.plan``: ``function`` in ``header`` (relative to the
    project root), a PlanFunction (torch_ext/csrc/plan_json.h) from the plan's sizes, dtype and platform."""

    header: str
    function: str


@dataclasses.dataclass(frozen=True)
class Platform:
    """The hardware a launch runs on, for tiling functions (the twin's profile on CPU, the device's on NPU)."""

    name: str
    vector_cores: int
    cube_cores: int
    ub_bytes: int
    l1_bytes: int
    l0a_bytes: int
    l0b_bytes: int
    l0c_bytes: int
    ub_align: int
    repeat_bytes: int
    ub_api_reserved_bytes: int

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def named(name: str) -> "Platform":
        from ._native import library as native

        fn = native().ascend_twin_platform_json
        fn.restype = ctypes.c_char_p
        fn.argtypes = [ctypes.c_char_p]
        info = json.loads(fn(name.encode()).decode())
        if info is None:
            raise ValueError(f"ascend_ext.library: unknown platform '{name}'")
        return Platform(name=info["name"], vector_cores=info["vector_cores"], cube_cores=info["cube_cores"],
                        ub_bytes=info["ub_bytes"], l1_bytes=info["l1_bytes"], l0a_bytes=info["l0a_bytes"],
                        l0b_bytes=info["l0b_bytes"], l0c_bytes=info["l0c_bytes"], ub_align=info["ub_align"],
                        repeat_bytes=info["repeat_bytes"], ub_api_reserved_bytes=info["ub_api_reserved_bytes"])


# ---- C tiling structs read from a header ----------------------------------------------------------------

_CTYPES = {
    "int8_t": ctypes.c_int8, "uint8_t": ctypes.c_uint8, "int16_t": ctypes.c_int16, "uint16_t": ctypes.c_uint16,
    "int32_t": ctypes.c_int32, "uint32_t": ctypes.c_uint32, "int64_t": ctypes.c_int64, "uint64_t": ctypes.c_uint64,
    "int": ctypes.c_int32, "unsigned": ctypes.c_uint32, "unsigned int": ctypes.c_uint32, "float": ctypes.c_float,
    "double": ctypes.c_double, "bool": ctypes.c_bool, "char": ctypes.c_char, "size_t": ctypes.c_uint64,
    "long": ctypes.c_int64, "unsigned long": ctypes.c_uint64, "long long": ctypes.c_int64,
    "unsigned long long": ctypes.c_uint64, "half": ctypes.c_uint16, "bfloat16_t": ctypes.c_uint16,
}


def _struct_bodies(text: str) -> Dict[str, str]:
    bodies = {}
    for m in re.finditer(r"\bstruct\s+(\w+)\s*(?::[^{]*)?\{", text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        bodies[m.group(1)] = text[m.end():i - 1]
    for m in re.finditer(r"\btypedef\s+struct\s*\w*\s*\{(.*?)\}\s*(\w+)\s*;", text, flags=re.S):
        bodies[m.group(2)] = m.group(1)
    return bodies


def c_struct(header: str, name: str) -> type:
    """A ctypes.Structure with the layout of the plain C struct ``name`` in ``header`` (the kernel's tiling
    struct), so that host code fills the very struct the kernel reads. Fields of the fixed-width integer
    types, float, double, bool, arrays of them and structs of the same header are supported. Relative
    paths are relative to the calling file."""
    path = _resolve(header, _caller_dir())
    with open(path, errors="replace") as f:
        text = _ks.strip_comments(f.read())
    bodies = _struct_bodies(text)
    made: Dict[str, type] = {}

    def build(struct: str) -> type:
        if struct in made:
            return made[struct]
        if struct not in bodies:
            raise DeclarationError(f"c_struct: no struct '{struct}' in {path}; structs there: "
                                   f"{', '.join(sorted(bodies)) or 'none'}")
        fields = []
        body = re.sub(r"\b(static\s+constexpr|static|constexpr)\b[^;]*;", " ", bodies[struct])
        body = re.sub(r"\b\w+\s*\([^)]*\)\s*(const\s*)?\{[^}]*\}", " ", body)  # inline member functions
        for decl in body.split(";"):
            decl = re.sub(r"\s+", " ", decl).strip()
            if not decl or decl.startswith(("public:", "private:", "using ", "alignas")):
                continue
            decl = re.sub(r"^(public|private|protected):\s*", "", decl)
            m = re.fullmatch(r"((?:unsigned |signed |long )*\w+(?:::\w+)*) (.+)", decl)
            if m is None:
                raise DeclarationError(f"c_struct: cannot read the field '{decl}' of {struct} in {path}")
            ctype_name, declarators = m.group(1).strip(), m.group(2)
            if ctype_name in _CTYPES:
                base = _CTYPES[ctype_name]
            elif ctype_name in bodies:
                base = build(ctype_name)
            else:
                raise DeclarationError(f"c_struct: field type '{ctype_name}' of {struct} in {path} is not supported "
                                       "(fixed-width integers, float, double, bool, arrays and structs of this header "
                                       "are); describe the struct with a ctypes.Structure instead")
            for d in declarators.split(","):
                d = re.sub(r"(=.*|\{.*\})$", "", d.strip()).strip()
                dm = re.fullmatch(r"(\w+)((?:\s*\[\s*\d+\s*\])*)", d)
                if dm is None:
                    raise DeclarationError(f"c_struct: cannot read the declarator '{d}' of {struct} in {path}")
                t = base
                for n in reversed(re.findall(r"\d+", dm.group(2))):
                    t = t * int(n)
                fields.append((dm.group(1), t))
        cls = type(struct, (ctypes.Structure,), {"_fields_": fields, "_c_header_": path, "_c_name_": struct})
        made[struct] = cls
        return cls

    return build(name)


# ---- the declared op --------------------------------------------------------------------------------------

_REGISTRY: List["DeclaredOp"] = []
_LIBRARIES: Dict[str, torch.library.Library] = {}
_SCALAR_PACK = {
    "bool": ctypes.c_bool, "int8_t": ctypes.c_int8, "uint8_t": ctypes.c_uint8, "int16_t": ctypes.c_int16,
    "uint16_t": ctypes.c_uint16, "int32_t": ctypes.c_int32, "uint32_t": ctypes.c_uint32, "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64, "int": ctypes.c_int32, "unsigned": ctypes.c_uint32, "unsigned int": ctypes.c_uint32,
    "long": ctypes.c_int64, "unsigned long": ctypes.c_uint64, "size_t": ctypes.c_uint64, "float": ctypes.c_float,
    "double": ctypes.c_double,
}

# Where a kernel parameter's value comes from.
_INPUT, _OUTPUT, _SCALAR, _WORKSPACE, _TILING = range(5)


def declared_ops() -> List["DeclaredOp"]:
    """Every op declared in this process so far, in declaration order."""
    return list(_REGISTRY)


def _caller_dir(depth: int = 2) -> str:
    return os.path.dirname(os.path.abspath(sys._getframe(depth).f_code.co_filename))


def _resolve(path: str, base: str) -> str:
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(base, path))


def _dtype_name(d: Union[str, torch.dtype], where: str) -> str:
    if isinstance(d, torch.dtype):
        if d not in _DTYPE_NAMES:
            raise DeclarationError(f"{where}: dtype {d} has no kernel element type")
        return _DTYPE_NAMES[d]
    if d not in _DTYPES:
        raise DeclarationError(f"{where}: unknown dtype '{d}'; known: {', '.join(_DTYPES)}")
    return d


_SCALAR_STRUCTS = {ctype: struct.Struct("<" + ctypes_type._type_) for ctype, ctypes_type in _SCALAR_PACK.items()}


def _scalar_bytes(ctype: str, value) -> bytes:
    """A schema number as the bytes of the kernel parameter's C type (bool for bool parameters)."""
    if ctype == "bool":
        return b"\x01" if value else b"\x00"
    try:
        return _SCALAR_STRUCTS[ctype].pack(value)
    except struct.error:
        return bytes(_SCALAR_PACK[ctype](value))  # ctypes wraps out-of-range integers as C does


def _twin_platform() -> Tuple[str, bytes]:
    from . import twin

    return twin._current_platform_bytes()


class _Declaration:
    """What declared and native ops share: the dtype rules of the kernel's tensors and their variants."""

    _where: str
    name: str
    qualname: str
    tensor_args: List[str]
    output_names: List[str]
    outputs: List[Out]

    def _init_dtype_rules(self, dtypes: Mapping[str, Any], what: str, of: str) -> None:
        """The dtype rules of the tensors in self.tensor_args (what: how a message names them; of: whose they are)."""
        where = self._where
        self.args_spec: Dict[str, TensorArg] = {}
        for name in self.tensor_args:
            if name not in dtypes:
                raise DeclarationError(f"{where}: {what} '{name}' has no dtypes declared; give "
                                       f"dtypes={{'{name}': (...)}} (dtype names) or the name of another argument")
            rule = dtypes[name]
            self.args_spec[name] = rule if isinstance(rule, TensorArg) else TensorArg(dtypes=rule)
        for name in dtypes:
            if name not in self.tensor_args:
                raise DeclarationError(f"{where}: dtypes names '{name}', which is not a {what} "
                                       f"{of} ({', '.join(self.tensor_args) or 'none'})")
        self._free: List[str] = []  # arguments whose dtype selects the variant
        self._allowed: Dict[str, Tuple[torch.dtype, ...]] = {}
        self._same: Dict[str, str] = {}
        self._promoted: Dict[str, Tuple[str, ...]] = {}
        for name, spec in self.args_spec.items():
            if spec.contiguous not in ("copy", "require"):
                raise DeclarationError(f"{where}: argument '{name}': contiguous must be 'copy' or 'require'")
            if isinstance(spec.dtypes, Promoted):
                self._promoted[name] = self._promotion_parts(spec.dtypes, f"argument '{name}'")
                continue
            if isinstance(spec.dtypes, str) and spec.dtypes in self.tensor_args:
                self._same[name] = spec.dtypes
                continue
            names = (spec.dtypes,) if isinstance(spec.dtypes, str) else tuple(spec.dtypes)
            if not names:
                raise DeclarationError(f"{where}: argument '{name}' declares no dtype")
            self._allowed[name] = tuple(_DTYPES[_dtype_name(n, f"{where}: argument '{name}'")] for n in names)
            self._free.append(name)
        for name, ref in self._same.items():
            seen = {name}
            while ref in self._same:
                if ref in seen:
                    raise DeclarationError(f"{where}: the dtype rules of {', '.join(sorted(seen))} refer to each other")
                seen.add(ref)
                ref = self._same[ref]
            self._same[name] = ref
        if not self._free and self.tensor_args:
            raise DeclarationError(f"{where}: no {what} lists its dtypes")
        for name, out in zip(self.output_names, self.outputs):
            if isinstance(out.dtype, Promoted):
                self._promotion_parts(out.dtype, f"output '{name}'")
            for part in (out.shape, out.dtype):
                if isinstance(part, str) and part not in _DTYPES and part not in self.tensor_args:
                    raise DeclarationError(f"{where}: output '{name}' refers to '{part}', which is neither a tensor "
                                           f"argument ({', '.join(self.tensor_args)}) nor a dtype name")
            if not isinstance(out.shape, str) and not callable(out.shape):
                raise DeclarationError(f"{where}: output '{name}': shape must be a tensor argument's name or a "
                                       "function of the op's arguments")


    def _make_kernel_spec(self, kernel: Kernel, base_dir: str) -> KernelSpec:
        """The kernel's spec, one variant per combination of the declared dtypes."""
        sources = [kernel.sources] if isinstance(kernel.sources, str) else list(kernel.sources)
        entry = kernel.entry or self.name
        variants = self._variants()
        try:
            spec = _ks.make_spec(
                [_resolve(s, base_dir) for s in sources], entry,
                include_dirs=[_resolve(d, base_dir) for d in kernel.include_dirs], defines=dict(kernel.defines),
                variants=[v for v, _ in variants], kernel_type=kernel.kernel_type)
        except (ValueError, FileNotFoundError) as exc:
            raise DeclarationError(f"{self._where}: {exc}") from None
        self._variant_of = {dts: v.key for v, dts in variants}
        return spec

    def _bad_out(self, name, value):
        raise DeclarationError(f"{self._where}: output '{name}' must be declared with al.Out(shape, dtype) or "
                               f"al.like('<argument>'), got {type(value).__name__}")

    def _promotion_parts(self, rule: Promoted, what: str) -> Tuple[str, ...]:
        if not rule.parts:
            raise DeclarationError(f"{self._where}: {what}: promoted() needs at least one argument or dtype name")
        for part in rule.parts:
            if part not in self.tensor_args and part not in _DTYPES:
                raise DeclarationError(f"{self._where}: {what}: promoted() names '{part}', which is neither a tensor "
                                       f"argument ({', '.join(self.tensor_args)}) nor a dtype name")
        return tuple(rule.parts)

    def _promote(self, parts: Sequence[str], dtype_of: Callable[[str], Optional[torch.dtype]]) -> torch.dtype:
        """torch.promote_types over the parts: tensor arguments (through dtype_of; None: left out) and dtype names."""
        dtypes = [d for d in (dtype_of(p) if p in self.tensor_args else _DTYPES[p] for p in parts) if d is not None]
        if not dtypes:
            raise TypeError(f"{self.qualname}: promoted({', '.join(parts)}): every argument it names is None")
        return functools.reduce(torch.promote_types, dtypes)

    def _variant_dtype(self, name: str, chosen: Dict[str, torch.dtype], seen: Tuple[str, ...] = ()) -> torch.dtype:
        """The dtype of tensor argument `name` in the variant whose free arguments have the dtypes in `chosen`."""
        if name in chosen:
            return chosen[name]
        if name in seen:
            raise DeclarationError(f"{self._where}: the dtype rules of {', '.join(sorted(seen))} refer to each other")
        if name in self._same:
            d = self._variant_dtype(self._same[name], chosen, seen + (name,))
        else:
            d = self._promote(self._promoted[name], lambda n: self._variant_dtype(n, chosen, seen + (name,)))
        chosen[name] = d
        return d

    def _variants(self) -> List[Tuple[KernelVariant, Tuple[torch.dtype, ...]]]:
        """One kernel build per combination of the free arguments' dtypes, DTYPE_<NAME> set for every tensor."""
        out = []
        for combo in itertools.product(*(self._allowed[n] for n in self._free)):
            chosen = dict(zip(self._free, combo))
            for name in self.tensor_args:
                self._variant_dtype(name, chosen)
            macros = [(f"DTYPE_{n.upper()}", _ks.C_TYPES[_DTYPE_NAMES[chosen[n]]]) for n in self.tensor_args]
            for name, o in zip(self.output_names, self.outputs):
                if isinstance(o.dtype, Promoted):
                    d = self._promote(o.dtype.parts, lambda n: chosen[n])
                elif isinstance(o.dtype, str) and o.dtype in chosen:
                    d = chosen[o.dtype]
                else:
                    d = _DTYPES[_dtype_name(o.dtype, f"{self._where}: output '{name}'")]
                macros.append((f"DTYPE_{name.upper()}", _ks.C_TYPES[_DTYPE_NAMES[d]]))
            key = "_".join(_DTYPE_NAMES[d] for d in combo) or "default"
            out.append((KernelVariant(key, tuple(macros)), combo))
        return out

    def op_test(self, **extra):
        """The op's conformance entry, an ascend_ext.testing.OpTest from the declaration's samples, reference and
        tolerances (``extra``: further OpTest fields). The dtypes checked are the declared floating ones; a
        float64 build (the twin's, for gradients in double precision) is where gradients are checked."""
        from . import testing

        if self.samples is None or self.reference is None:
            raise ValueError(f"{self.qualname}: the declaration gives no samples= and reference= for a conformance "
                             "entry")
        extra.setdefault("dtypes", tuple(d for d in self.float_dtypes() if d != torch.float64))
        if getattr(self, "call", None) is not None:
            extra.setdefault("wrapper", self.call)
        return testing.make_op_test(self, self.samples, self.reference, **extra)

    def float_dtypes(self) -> Tuple[torch.dtype, ...]:
        """The floating dtypes the op's variants take (of its first free tensor argument)."""
        if not self._free:
            return ()
        return tuple(d for d in self._allowed[self._free[0]] if d.is_floating_point)


class DeclaredOp(_Declaration):
    """A declared op: ``torch.ops.<ns>.<name>`` plus what built it. Call it like the op."""

    def __init__(self, schema: str, *, kernel: Kernel, dtypes: Mapping[str, Any], outputs: Mapping[str, Out],
                 tiling: Callable[..., Tiling], base_dir: str, bind: Optional[Mapping[str, str]] = None,
                 setup_context: Optional[Callable] = None, backward: Optional[Callable] = None,
                 jvp: Optional[Callable] = None, vmap: Optional[Callable] = None,
                 autocast: Union[None, str, torch.dtype] = None, tiling_struct: Optional[type] = None,
                 system_workspace: bool = False, tags: Sequence[torch.Tag] = (), aclnn: Optional[str] = None,
                 samples: Optional[Callable] = None, reference: Optional[Callable] = None,
                 tolerances: Optional[Mapping[torch.dtype, dict]] = None):
        self.namespace, self.name, rest = _split_schema(schema)
        self.qualname = f"{self.namespace}::{self.name}"
        where = f"op {self.qualname}"
        self._where = where
        self.builtin = self.namespace == _of.BUILTIN_NAMESPACE
        self.interface = _interface(aclnn, where, self.builtin)
        self.samples, self.reference, self.tolerances = samples, reference, tolerances
        try:
            self.schema = torch._C.parse_schema(f"{self.qualname}{rest}")
        except RuntimeError as exc:
            raise DeclarationError(f"{where}: the schema does not parse: {exc}") from None
        self._schema_text = f"{self.name}{rest}"
        self._check_schema()

        # Arguments.
        self.arg_names = [a.name for a in self.schema.arguments]
        self.tensor_args = [a.name for a in self.schema.arguments if self._is_tensor(a.type)]
        self.optional_tensor_args = {a.name for a in self.schema.arguments if isinstance(a.type, torch.OptionalType)
                                     and self._is_tensor(a.type)}
        self.scalar_args = [a.name for a in self.schema.arguments if a.name not in self.tensor_args]
        self._kwarg_only = [a.name for a in self.schema.arguments if a.kwarg_only]
        self._defaults = {a.name: a.default_value for a in self.schema.arguments if a.has_default_value()}

        # Outputs: named as the schema's returns, or as `outputs` orders them.
        returns = list(self.schema.returns)
        if len(outputs) != len(returns):
            raise DeclarationError(f"{where}: the schema returns {len(returns)} tensor(s), outputs declares "
                                   f"{len(outputs)} ({', '.join(outputs) or 'none'})")
        schema_names = [r.name for r in returns]
        if all(schema_names) and list(outputs) != schema_names:
            raise DeclarationError(f"{where}: outputs are declared as ({', '.join(outputs)}), the schema names its "
                                   f"returns ({', '.join(schema_names)}); use the same names in the same order")
        self.output_names = list(outputs)
        self.outputs = [outputs[n] if isinstance(outputs[n], Out) else self._bad_out(n, outputs[n])
                        for n in self.output_names]

        self._init_dtype_rules(dtypes, "tensor argument", "of the schema")
        self._position = {name: i for i, name in enumerate(self.arg_names)}
        self._tensor_positions = [(name, self._position[name]) for name in self.tensor_args]
        self._free_positions = [self._position[name] for name in self._free]
        self.kernel_spec: KernelSpec = self._make_kernel_spec(kernel, base_dir)
        self._mix_cube_ratio = _mix_cube_cores(self.kernel_spec)
        self._bind_kernel(dict(bind or {}))

        if isinstance(tiling, CppTiling):
            from . import cpp_tiling as _ct

            try:
                tiling = _ct.CppTilingFunction(_resolve(tiling.header, base_dir), tiling.function,
                                               [_resolve(d, base_dir) for d in tiling.include_dirs], self)
            except (ValueError, FileNotFoundError) as exc:
                raise DeclarationError(f"{where}: {exc}") from None
        if not callable(tiling):
            raise DeclarationError(f"{where}: tiling must be a function of the op's arguments returning al.Tiling, "
                                   "or al.CppTiling(header, function)")
        self._tiling_fn = tiling
        try:
            self._tiling_wants_platform = "platform" in inspect.signature(tiling).parameters
        except (TypeError, ValueError):
            self._tiling_wants_platform = False
        self._tiling_struct = tiling_struct
        self.system_workspace = system_workspace
        self.base_dir = base_dir
        self._twin_lock = threading.Lock()
        self._twin_launchers: Dict[str, _tk.Launcher] = {}
        self._twin_lib: Optional[Dict[str, _tk.KernelLibrary]] = None
        self._tiling_sizes: Dict[str, Optional[int]] = {}
        if autocast is not None and autocast != "lower" and not isinstance(autocast, torch.dtype):
            raise DeclarationError(f"{where}: autocast must be None (no cast), 'lower' (the autocast dtype, like "
                                   "torch.mm) or a torch.dtype (e.g. torch.float32)")
        self.has_backward = backward is not None
        self.has_jvp = jvp is not None
        self.has_vmap = vmap is not None
        self.autocast_policy = autocast
        self._register(setup_context, backward, jvp, vmap, autocast, tags)
        self.op = getattr(getattr(torch.ops, self.namespace), self.name).default
        _REGISTRY.append(self)

    # -- declaration helpers ----------------------------------------------------------------------------

    @staticmethod
    def _is_tensor(t) -> bool:
        if isinstance(t, torch.OptionalType):
            t = t.getElementType()
        return isinstance(t, torch.TensorType)

    def _check_schema(self):
        for a in self.schema.arguments:
            if a.alias_info is not None and a.alias_info.is_write:
                raise DeclarationError(f"{self._where}: argument '{a.name}' is mutable (Tensor(a!)); declared ops "
                                       "are functional: return a new tensor instead")
            t = a.type.getElementType() if isinstance(a.type, torch.OptionalType) else a.type
            if isinstance(t, torch.ListType) and isinstance(t.getElementType(), torch.TensorType):
                raise DeclarationError(f"{self._where}: argument '{a.name}' is a tensor list; a kernel takes a "
                                       "fixed set of GM addresses: declare one Tensor argument each")
        for r in self.schema.returns:
            if not isinstance(r.type, torch.TensorType) or r.alias_info is not None:
                raise DeclarationError(f"{self._where}: every return must be a new Tensor (got '{r.type}')")
        if not self.schema.returns:
            raise DeclarationError(f"{self._where}: the op returns nothing; a declared op returns its outputs")

    def _bind_kernel(self, bind: Dict[str, str]):
        """Each kernel parameter -> where its value comes from; every tensor and output must reach the kernel."""
        where = self._where
        spec = self.kernel_spec
        plan = []
        used = set()
        for p in spec.params:
            source = bind.get(p.name, p.name)
            if source in self.tensor_args:
                kind, index = _INPUT, self.arg_names.index(source)
            elif source in self.output_names:
                kind, index = _OUTPUT, self.output_names.index(source)
            elif source in self.scalar_args:
                kind, index = _SCALAR, self.arg_names.index(source)
            elif source == "workspace":
                kind, index = _WORKSPACE, -1
            elif source == "tiling":
                kind, index = _TILING, -1
            else:
                raise DeclarationError(
                    f"{where}: kernel parameter '{p.name}' of {spec.entry}({', '.join(q.name for q in spec.params)}) "
                    f"matches no argument of the schema ({', '.join(self.arg_names)}), no output "
                    f"({', '.join(self.output_names)}), nor 'workspace'/'tiling'; rename it or map it with "
                    "bind={'<kernel parameter>': '<schema name>'}")
            if kind in (_INPUT, _OUTPUT, _WORKSPACE) and not p.is_gm:
                raise DeclarationError(f"{where}: kernel parameter '{p.name}' is '{p.ctype}', but '{source}' is a "
                                       "tensor: the kernel must take it as GM_ADDR")
            if kind == _SCALAR:
                if p.is_gm:
                    raise DeclarationError(f"{where}: kernel parameter '{p.name}' is a GM address, but '{source}' is a "
                                           "number of the schema: take it by value (e.g. float, int64_t)")
                if p.ctype not in _SCALAR_PACK:
                    raise DeclarationError(f"{where}: kernel parameter '{p.name}' has type '{p.ctype}', which a schema "
                                           f"number cannot be passed as; use one of {', '.join(_SCALAR_PACK)}")
            if kind == _TILING and not p.is_gm and not p.is_struct:
                raise DeclarationError(f"{where}: kernel parameter 'tiling' must be GM_ADDR or a struct by value")
            plan.append((kind, index, p))
            used.add(source)
        for name in self.tensor_args + self.output_names:
            if name not in used:
                raise DeclarationError(f"{where}: '{name}' is passed to no parameter of the kernel "
                                       f"{spec.entry}({', '.join(q.name for q in spec.params)})")
        self._kernel_plan = plan

    # -- registration -------------------------------------------------------------------------------------

    def _register(self, setup_context, backward, jvp, vmap, autocast, tags):
        lib = _LIBRARIES.get(self.namespace)
        if lib is None:
            lib = _LIBRARIES[self.namespace] = torch.library.Library(self.namespace, "FRAGMENT")
        try:
            lib.define(self._schema_text, tags=tuple(tags) + (torch.Tag.pt2_compliant_tag,))
        except RuntimeError as exc:
            raise DeclarationError(f"{self._where}: cannot define it: {exc}") from None
        self._lib = lib
        lib.impl(self.name, self._cpu_impl, "CPU")
        lib.impl(self.name, self._npu_impl, "PrivateUse1")
        torch.library.register_fake(self.qualname, self._fake_impl, lib=lib)
        if setup_context is not None and backward is None and jvp is None:
            raise DeclarationError(f"{self._where}: setup_context without backward or jvp")
        # Always an Autograd kernel: without formulas, differentiating the op is a clear error, where torch's
        # fallback would only warn and leave the inputs without gradients.
        from . import _declared_autograd

        _declared_autograd.register(self, setup_context, backward, jvp)
        torch.library.register_vmap(self.qualname, self._vmap_rule(vmap if vmap is not None else self._vmap_loop),
                                    lib=lib)
        if autocast is not None:
            for key, device in (("AutocastCPU", "cpu"), ("AutocastPrivateUse1", "npu")):
                lib.impl(self.name, self._autocast_kernel(autocast, key, device), key)

    def _autocast_kernel(self, policy, key: str, device: str):
        op_ref = self

        def kernel(*args, **kwargs):
            dtype = torch.get_autocast_dtype(device) if policy == "lower" else policy

            def cast(v):
                if isinstance(v, torch.Tensor) and v.is_floating_point() and v.dtype != torch.float64:
                    return v.to(dtype)
                return v

            with torch._C._ExcludeDispatchKeyGuard(torch._C.DispatchKeySet(getattr(torch._C.DispatchKey, key))):
                return op_ref.op(*[cast(a) for a in args], **{k: cast(v) for k, v in kwargs.items()})

        return kernel

    def _vmap_rule(self, rule):
        """The batching rule called with every argument (the dispatcher leaves out those equal to their
        defaults) and an in_dims entry for each."""
        n_pos = len(self.arg_names) - len(self._kwarg_only)

        def batched(info, in_dims, *args, **kwargs):
            values = self._bind(args, kwargs)
            dims = tuple(in_dims) + (None,) * (n_pos - len(in_dims))
            kw = {name: values[self.arg_names.index(name)] for name in self._kwarg_only}
            return rule(info, dims, *values[:n_pos], **kw)

        return batched

    def _vmap_loop(self, info, in_dims, *args, **kwargs):
        """The default batching rule: the op once per sample (a declared vmap rule makes it one launch)."""
        results = []
        for i in range(info.batch_size):
            sample = [a.select(d, i) if d is not None and isinstance(a, torch.Tensor) else a
                      for a, d in zip(args, in_dims)]
            results.append(self.op(*sample, **kwargs))
        if len(self.output_names) == 1:
            return torch.stack(results), 0
        return tuple(torch.stack(r) for r in zip(*results)), (0,) * len(self.output_names)

    # -- a call ---------------------------------------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        return self.op(*args, **kwargs)

    def _bind(self, args: tuple, kwargs: dict) -> list:
        values = list(args)
        if not kwargs and len(values) == len(self.arg_names):
            return values
        for name in self.arg_names[len(values):]:
            if name in kwargs:
                values.append(kwargs[name])
            elif name in self._defaults:
                values.append(self._defaults[name])
            else:
                raise TypeError(f"{self.qualname}: missing argument '{name}'")
        return values

    def _checked(self, values: list, device_type: str) -> Tuple[list, Tuple[torch.dtype, ...]]:
        """The arguments checked against the declaration, made contiguous where allowed; the variant's dtypes."""
        where = self.qualname
        device = None
        for name, i in self._tensor_positions:
            t = values[i]
            if t is None:
                if name in self.optional_tensor_args:
                    continue
                raise TypeError(f"{where}: argument '{name}' must be a tensor, got None")
            spec = self.args_spec[name]
            if device is None:
                device = t.device
            elif t.device != device:
                raise ValueError(f"{where}: argument '{name}' is on {t.device}, but '{self._first_tensor(values)}' is "
                                 f"on {device}; every tensor of one call must be on the same device")
            allowed = self._allowed.get(name)
            if allowed is not None:
                if t.dtype not in allowed:
                    raise TypeError(f"{where}: argument '{name}' has dtype {t.dtype}; the kernel is built for "
                                    f"{', '.join(_DTYPE_NAMES[d] for d in allowed)}")
            elif name in self._promoted:
                parts = self._promoted[name]
                expected = self._promote(parts, lambda n: self._value_dtype(values, n))
                if t.dtype != expected:
                    described = ", ".join(f"'{p}' ({self._value_dtype(values, p)})" if p in self.tensor_args else p
                                          for p in parts)
                    raise TypeError(f"{where}: argument '{name}' has dtype {t.dtype}; it must have dtype {expected}, "
                                    f"torch.promote_types of {described}")
            else:
                ref = self._same[name]
                rt = values[self._position[ref]]
                if rt is not None and t.dtype != rt.dtype:
                    raise TypeError(f"{where}: argument '{name}' has dtype {t.dtype}; it must have the dtype of "
                                    f"'{ref}' ({rt.dtype})")
            if spec.rank is not None:
                lo, hi = (spec.rank, spec.rank) if isinstance(spec.rank, int) else spec.rank
                if (lo is not None and t.dim() < lo) or (hi is not None and t.dim() > hi):
                    want = (f"rank {lo}" if lo == hi else f"rank at least {lo}" if hi is None else
                            f"rank at most {hi}" if lo is None else f"rank between {lo} and {hi}")
                    raise ValueError(f"{where}: argument '{name}' has rank {t.dim()} (shape {tuple(t.shape)}); the "
                                     f"kernel needs {want}")
            if not t.is_contiguous():
                if spec.contiguous == "require":
                    raise ValueError(f"{where}: argument '{name}' is not contiguous (strides {t.stride()}); the "
                                     "kernel reads it as one dense buffer: pass x.contiguous()")
                t = values[i] = t.contiguous()
            if spec.align and t.numel() and t.data_ptr() % spec.align:
                raise ValueError(f"{where}: argument '{name}' starts at an address that is not a multiple of "
                                 f"{spec.align} bytes (a view at storage offset {t.storage_offset()}); the kernel "
                                 "needs it aligned: pass x.clone()")
        if device is not None and device.type != device_type:
            raise ValueError(f"{where}: tensors on {device} cannot run here")
        dtypes = tuple(values[i].dtype for i in self._free_positions)
        return values, dtypes

    def _value_dtype(self, values: list, name: str) -> Optional[torch.dtype]:
        t = values[self.arg_names.index(name)]
        return None if t is None else t.dtype

    def _first_tensor(self, values) -> str:
        for name in self.tensor_args:
            if values[self.arg_names.index(name)] is not None:
                return name
        return "?"

    def _output_meta(self, values: list) -> List[Tuple[Sequence[int], torch.dtype]]:
        metas = []
        for name, out in zip(self.output_names, self.outputs):
            if isinstance(out.shape, str):
                shape = values[self.arg_names.index(out.shape)].shape
            else:
                try:
                    shape = out.shape(*values)
                except Exception as exc:
                    raise type(exc)(f"{self.qualname}: the shape function of output '{name}' failed: {exc}") from exc
                if not isinstance(shape, (tuple, list, torch.Size)):
                    raise TypeError(f"{self.qualname}: the shape function of output '{name}' returned "
                                    f"{type(shape).__name__}; expected a sequence of sizes")
            if isinstance(out.dtype, Promoted):
                dtype = self._promote(out.dtype.parts, lambda n: self._value_dtype(values, n))
            elif isinstance(out.dtype, str) and out.dtype in self.tensor_args:
                dtype = values[self.arg_names.index(out.dtype)].dtype
            else:
                dtype = _DTYPES[out.dtype] if isinstance(out.dtype, str) else out.dtype
            metas.append((shape, dtype))
        return metas

    def _fake_impl(self, *args, **kwargs):
        values = self._bind(args, kwargs)
        device = None
        for name in self.tensor_args:
            t = values[self.arg_names.index(name)]
            if t is None:
                continue
            if device is None:
                device = t.device
            elif t.device != device:
                raise ValueError(f"{self.qualname}: argument '{name}' is on {t.device}, but "
                                 f"'{self._first_tensor(values)}' is on {device}; every tensor of one call must be on "
                                 "the same device")
        outs = [torch.empty(shape, dtype=dtype, device=device) for shape, dtype in self._output_meta(values)]
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _run_tiling(self, values: list, platform: Platform) -> Tiling:
        kwargs = {"platform": platform} if self._tiling_wants_platform else {}
        t = self._tiling_fn(*values, **kwargs)
        if not isinstance(t, Tiling):
            raise TypeError(f"{self.qualname}: the tiling function returned {type(t).__name__}; expected "
                            "ascend_ext.library.Tiling(block_dim, data, workspace)")
        limit = self._core_limit(platform)
        if not isinstance(t.block_dim, int) or not 1 <= t.block_dim <= limit:
            raise ValueError(f"{self.qualname}: the tiling function returned block_dim={t.block_dim!r}; the "
                             f"{self.kernel_spec.kernel_type} kernel runs on 1 to {limit} cores of {platform.name}")
        if not isinstance(t.workspace, int) or t.workspace < 0:
            raise ValueError(f"{self.qualname}: the tiling function returned workspace={t.workspace!r}; expected "
                             "a number of bytes >= 0")
        if self._tiling_struct is not None and t.data is not None and not isinstance(t.data, self._tiling_struct):
            raise TypeError(f"{self.qualname}: the tiling function returned {type(t.data).__name__} data; the op "
                            f"declares tiling_struct={self._tiling_struct.__name__}")
        return t

    def _core_limit(self, platform: Platform) -> int:
        if self.kernel_spec.kernel_type == "aic" or (self.kernel_spec.kernel_type == "mix" and self._mix_cube_ratio):
            return platform.cube_cores
        return platform.vector_cores

    def _tiling_bytes(self, t: Tiling, expected: Optional[int]) -> bytes:
        data = t.data
        raw = b"" if data is None else bytes(data)
        if expected is not None and len(raw) != expected:
            raise ValueError(f"{self.qualname}: the tiling function returned {len(raw)} bytes of tiling data; the "
                             f"kernel reads its tiling struct of {expected} bytes")
        return raw

    def _cpu_impl(self, *args, **kwargs):
        values, dtypes = self._checked(self._bind(args, kwargs), "cpu")
        key = self._variant_of[dtypes]
        metas = self._output_meta(values)
        outs = [torch.empty(shape, dtype=dtype) for shape, dtype in metas]
        platform_name, platform_bytes = _twin_platform()
        t = self._run_tiling(values, Platform.named(platform_name))
        launcher, tiling_size = self._twin(key)
        tiling = self._tiling_bytes(t, tiling_size)
        kvalues = []
        for kind, index, p in self._kernel_plan:
            if kind == _INPUT:
                kvalues.append(values[index])
            elif kind == _OUTPUT:
                kvalues.append(outs[index])
            elif kind == _TILING:
                kvalues.append(tiling)
            elif kind == _WORKSPACE:
                kvalues.append(torch.empty(t.workspace, dtype=torch.uint8) if t.workspace else None)
            else:
                kvalues.append(_scalar_bytes(p.ctype, values[index]))
        try:
            launcher(t.block_dim, kvalues, t.tiling_key, platform_bytes)
        except KernelRuleViolation as exc:
            if "'workspace'" in str(exc):
                raise KernelRuleViolation(f"{self.qualname}: the kernel went beyond the workspace its tiling asked "
                                          f"for ({t.workspace} bytes): {exc}") from None
            raise KernelRuleViolation(f"{self.qualname}: {exc}") from None
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _npu_impl(self, *args, **kwargs):
        values, dtypes = self._checked(self._bind(args, kwargs), "npu")
        key = self._variant_key(dtypes)
        if self.kernel_spec.variant(key).twin_only:
            raise TypeError(f"{self.qualname}: the kernel's {key} build runs on the CPU twin only (A2 has no float64 "
                            "vector or cube arithmetic); on the NPU pass float32, float16 or bfloat16 tensors")
        from . import npu_kernels

        device = values[self.arg_names.index(self._first_tensor(values))].device
        metas = self._output_meta(values)
        outs = [torch.empty(shape, dtype=dtype, device=device) for shape, dtype in metas]
        t = self._run_tiling(values, npu_kernels.device_platform(device))
        tiling = self._tiling_bytes(t, None)
        kvalues = []
        for kind, index, p in self._kernel_plan:
            if kind == _INPUT:
                kvalues.append(values[index])
            elif kind == _OUTPUT:
                kvalues.append(outs[index])
            elif kind in (_TILING, _WORKSPACE):
                kvalues.append(None)  # the launcher fills these from tiling / workspace_bytes
            else:
                kvalues.append(values[index])
        npu_kernels.load(self.kernel_spec, directories=self._prebuilt_dirs()).launch(
            key, t.block_dim, kvalues, tiling=tiling, workspace_bytes=t.workspace, device=device)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _variant_key(self, dtypes: Tuple[torch.dtype, ...]) -> str:
        return self._variant_of[dtypes]

    # -- the twin build -------------------------------------------------------------------------------------

    def _tiling_checks(self) -> List[str]:
        """Static asserts that the declared tiling struct's layout is the kernel's."""
        cls = self._tiling_struct
        if cls is None or not hasattr(cls, "_c_name_"):
            return []
        # (The messages name no op, so that ops sharing a kernel share its build.)
        lines = [f"static_assert(sizeof({cls._c_name_}) == {ctypes.sizeof(cls)}, \"the tiling struct {cls._c_name_} "
                 f"as read from {os.path.basename(cls._c_header_)} has another size in the kernel\");"]
        for name, _ in cls._fields_:
            lines.append(f"static_assert(__builtin_offsetof({cls._c_name_}, {name}) == {getattr(cls, name).offset}, "
                         f"\"field {name} of the tiling struct {cls._c_name_} is elsewhere in the kernel\");")
        return lines

    def _prebuilt_dirs(self) -> List[str]:
        dirs = [d for d in os.environ.get("ASCEND_EXT_KERNEL_PATH", "").split(os.pathsep) if d]
        dirs.append(os.path.join(self.base_dir, "_ascend_kernels"))
        return dirs

    def _twin_checks(self) -> Optional[Dict[str, List[str]]]:
        checks = self._tiling_checks()
        return {v.key: checks for v in self.kernel_spec.variants} if checks else None

    def _twin_libraries(self) -> Dict[str, _tk.KernelLibrary]:
        """The kernel's twin build, one library per variant: prebuilt (ASCEND_EXT_KERNEL_PATH, then the
        declaring package's _ascend_kernels folder) or compiled now (cached by content)."""
        with self._twin_lock:
            if self._twin_lib is None:
                checks = self._twin_checks()
                name = _tk.spec_folder_name(self.kernel_spec, checks)
                entries = {self.kernel_spec.entry: [p.name for p in self.kernel_spec.params]}
                for d in self._prebuilt_dirs():
                    paths = _tk.spec_library_paths(self.kernel_spec, os.path.join(d, self.kernel_spec.entry, name))
                    if all(os.path.exists(p) for p in paths.values()):
                        self._twin_lib = {k: _tk.KernelLibrary(p, entries, runtime_dirs=(d,)) for k, p in paths.items()}
                        break
                else:
                    self._twin_lib = _tk.compile_spec(self.kernel_spec, checks=checks)
            return self._twin_lib

    def _twin(self, key: str) -> Tuple[_tk.Launcher, Optional[int]]:
        launcher = self._twin_launchers.get(key)
        if launcher is None:
            lib = self._twin_libraries()[key]
            launcher = lib.launcher(self.kernel_spec.entry)
            size_fn = getattr(lib._lib, f"ascend_twin_tiling_size_{self.kernel_spec.entry}", None)
            if size_fn is not None:
                size_fn.restype = ctypes.c_ulonglong
                self._tiling_sizes[key] = int(size_fn())
            else:
                self._tiling_sizes[key] = None
            self._twin_launchers[key] = launcher
        return launcher, self._tiling_sizes[key]

    def build(self) -> None:
        """Builds the kernel for the twin now (it is otherwise built at the first CPU call)."""
        self._twin_libraries()

    def prebuild(self, directory: str, targets: Iterable[str] = ("twin", "npu")) -> List[str]:
        """Builds the kernel into ``directory/<kernel entry>/`` for the given targets ('twin'; 'npu' where CANN is
        present), where a later process finds it without compiling (see ``python -m ascend_ext build``).
        Returns the files written."""
        written = []
        folder = os.path.join(directory, self.kernel_spec.entry)
        os.makedirs(folder, exist_ok=True)
        targets = tuple(targets)
        if "twin" in targets:
            checks = self._twin_checks()
            out = os.path.join(folder, _tk.spec_folder_name(self.kernel_spec, checks))
            _tk.compile_spec(self.kernel_spec, checks=checks, out_dir=out)
            written += sorted(_tk.spec_library_paths(self.kernel_spec, out).values())
            runtime = os.path.join(directory, _tk.runtime_name())  # the twin runtime they link against
            _tk.build_runtime(runtime)
            written.append(runtime)
        if "npu" in targets:
            from . import npu_kernels

            written.append(npu_kernels.build(self.kernel_spec, out_dir=folder))
        return written

    def last_launch_stats(self):
        """The twin's counters of the calling thread's last launch of a kernel library (this op's, after a
        call of it)."""
        return next(iter(self._twin_libraries().values())).last_launch_stats()

    def __repr__(self) -> str:
        return f"<declared op {self.qualname}: kernel {self.kernel_spec.entry} ({self.kernel_spec.kernel_type})>"


def _mix_cube_cores(spec: KernelSpec) -> bool:
    """Whether a MIX kernel's block dim counts cube cores (MIX_AIC_*) rather than vector cores (MIX_AIV_*)."""
    with open(spec.sources[0], errors="replace") as f:
        m = re.search(r"KERNEL_TASK_TYPE_DEFAULT\s*\(\s*KERNEL_TYPE_MIX_(AIC|AIV)", _ks.strip_comments(f.read()))
    return bool(m and m.group(1) == "AIC")


def _split_schema(schema: str) -> Tuple[str, str, str]:
    """(namespace, name, the rest from '(' on) of '<ns>::<name>(...) -> ...'."""
    m = re.fullmatch(r"\s*(\w+)::(\w+)\s*(\(.*)", schema, flags=re.S)
    if m is None:
        raise DeclarationError(f"op declaration: the schema '{schema}' must start with '<namespace>::<name>(', "
                               "e.g. 'my_ops::rms_norm(Tensor x, float eps) -> Tensor'")
    return m.group(1), m.group(2), m.group(3)


def _interface(aclnn: Optional[str], where: str, builtin: bool) -> Optional[_of.Interface]:
    """The op package's interface of a built-in op (aclnn='OpType(Tensor x, float alpha) -> Tensor y')."""
    if aclnn is None:
        return None
    if not builtin:
        raise DeclarationError(f"{where}: aclnn= describes an op of the ascend_ext op package (built by its CMake); "
                               "your own op reaches the NPU through the kernel-launch path and needs none")
    try:
        return _of.parse_interface(aclnn, where)
    except _of.FactError as exc:
        raise DeclarationError(str(exc)) from None


def _base_dir(namespace: str, caller_file: str, where: str) -> str:
    """Where a declaration's paths are relative to: its own folder, or for a built-in op (namespace ascend_ext)
    the project root (op_facts.project_root)."""
    if namespace in ("aten", "prim", "prims"):
        raise DeclarationError(f"{where}: namespace '{namespace}' is reserved; use your own")
    if namespace != _of.BUILTIN_NAMESPACE:
        return os.path.dirname(os.path.abspath(caller_file))
    root = _of.project_root(caller_file)
    if root is None:
        raise DeclarationError(f"{where}: namespace '{namespace}' is reserved for the project's built-in ops "
                               f"(declared in {_of.OPS_FOLDER}); use your own")
    return root


_BUILTIN: List[Union["DeclaredOp", "NativeOp"]] = []


def builtin_ops() -> List[Union["DeclaredOp", "NativeOp"]]:
    """The built-in ops declared in this process (importing ascend_ext declares them all), in order."""
    return list(_BUILTIN)


class NativeOp(_Declaration):
    """A built-in op with a hand-written C++ adapter (``impl="native"``): the extension defines its schemas
    (generated from this declaration at build time) and implements every dispatch key in C++, with the fast
    host path that a Python implementation cannot have. The declaration states its facts: schemas, kernel,
    the kernel's tensors and their dtypes (the C++ adapter maps the schema onto them), the op package's
    interface and the plan function. Calling it calls the op."""

    def __init__(self, schema: str, *, kernel: Kernel, dtypes: Mapping[str, Any], outputs: Mapping[str, Out],
                 base_dir: str, overloads: Sequence[str] = (), aclnn: Optional[str] = None,
                 plan: Optional[Plan] = None, samples: Optional[Callable] = None,
                 reference: Optional[Callable] = None, tolerances: Optional[Mapping[torch.dtype, dict]] = None,
                 call: Optional[Callable] = None):
        self.namespace, self.name, _ = _split_schema(schema)
        self.qualname = f"{self.namespace}::{self.name}"
        self._where = f"op {self.qualname}"
        if self.namespace != _of.BUILTIN_NAMESPACE:
            raise DeclarationError(f"{self._where}: impl='native' is for the project's built-in ops (namespace "
                                   f"{_of.BUILTIN_NAMESPACE}), whose C++ adapters the extension compiles")
        self.builtin = True
        self.schemas = (schema,) + tuple(overloads)
        self.interface = _interface(aclnn, self._where, True)
        self.plan = plan
        self.samples, self.reference, self.tolerances = samples, reference, tolerances
        self.call = call  # the samples' calling convention, where it is not the schema's
        self.base_dir = base_dir
        self.kernel = kernel
        self.tensor_args = list(dtypes)  # the kernel's tensors
        self.output_names = list(outputs)
        self.outputs = [outputs[n] if isinstance(outputs[n], Out) else self._bad_out(n, outputs[n])
                        for n in self.output_names]
        self._init_dtype_rules(dtypes, "kernel tensor", "of the declaration")
        self._kernel_spec: Optional[KernelSpec] = None
        self.op = getattr(getattr(torch.ops, self.namespace), self.name).default

    @property
    def kernel_spec(self) -> KernelSpec:
        """The kernel's spec (read from its source at the first use)."""
        if self._kernel_spec is None:
            self._kernel_spec = self._make_kernel_spec(self.kernel, self.base_dir)
        return self._kernel_spec

    def __call__(self, *args, **kwargs):
        return self.op(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<native op {self.qualname}: kernel {self.kernel.entry or self.name}>"


def op(schema: str, *, kernel: Kernel, dtypes: Mapping[str, Any], outputs: Mapping[str, Out],
       tiling: Union[Callable[..., Tiling], CppTiling, None] = None, bind: Optional[Mapping[str, str]] = None,
       setup_context: Optional[Callable] = None, backward: Optional[Callable] = None,
       jvp: Optional[Callable] = None, vmap: Optional[Callable] = None,
       autocast: Union[None, str, torch.dtype] = None, tiling_struct: Optional[type] = None,
       system_workspace: bool = False, tags: Sequence[torch.Tag] = (), samples: Optional[Callable] = None,
       reference: Optional[Callable] = None, tolerances: Optional[Mapping[torch.dtype, dict]] = None,
       impl: str = "declared", overloads: Sequence[str] = (), aclnn: Optional[str] = None,
       plan: Optional[Plan] = None, call: Optional[Callable] = None) -> Union[DeclaredOp, NativeOp]:
    """Declares ``torch.ops.<ns>.<name>`` from an Ascend C kernel. See the module's documentation.

    ``schema``: '<ns>::<name>(<arguments>) -> <returns>' in torch's schema language. ``kernel``: the sources
    and entry point. ``dtypes``: per tensor argument, the dtype names the kernel is built for, the name of
    another argument it shares its dtype with, ``promoted(...)`` of arguments and dtype names, or a TensorArg
    (with rank/contiguity/alignment rules).
    ``outputs``: name -> Out(shape, dtype) in the order of the schema's returns (also the fake
    implementation). ``tiling``: a function of the op's arguments (and ``platform=`` if it takes it)
    returning Tiling(block_dim, data, workspace), or ``CppTiling(header, function)``. ``bind``: kernel
    parameter -> schema name, where they differ. ``setup_context``/``backward``: autograd, with
    torch.library.register_autograd's conventions; ``jvp(ctx, *tangents)``: forward mode (ctx as setup_context
    left it). ``vmap``: a batching rule with torch.library.register_vmap's signature (default: the op once per
    sample). ``autocast``: None (inputs kept), 'lower' (floating inputs cast to the autocast dtype) or a dtype.
    ``tiling_struct``: the class ``c_struct`` made (the twin build then checks its layout against the
    kernel's). ``samples``/``reference``/``tolerances``: the op's conformance entry (``op_test()``, as
    ``ascend_ext.testing.check_op`` takes them); a native op's ``call``: a function with the samples'
    signature that calls the op, where the schema takes them otherwise.

    The project's own ops (namespace ``ascend_ext``, declared in torch_ext/ascend_ext/ops/) take paths relative
    to the project root and may give ``aclnn=`` (the op package's interface), and ``impl="native"`` (a C++
    adapter, with ``overloads=`` and ``plan=``) instead of a tiling and autograd."""
    caller = sys._getframe(1).f_code.co_filename
    namespace, name, _ = _split_schema(schema)
    base_dir = _base_dir(namespace, caller, f"op {namespace}::{name}")
    if impl == "native":
        extra = [k for k, v in (("tiling", tiling), ("bind", bind), ("setup_context", setup_context),
                                ("backward", backward), ("jvp", jvp), ("vmap", vmap), ("autocast", autocast),
                                ("tiling_struct", tiling_struct)) if v is not None]
        if extra:
            raise DeclarationError(f"op {namespace}::{name}: a native op's C++ adapter does {', '.join(extra)} "
                                   "itself; declare them only for impl='declared'")
        declared = NativeOp(schema, kernel=kernel, dtypes=dtypes, outputs=outputs, base_dir=base_dir,
                            overloads=overloads, aclnn=aclnn, plan=plan, samples=samples, reference=reference,
                            tolerances=tolerances, call=call)
    elif impl == "declared":
        if overloads or plan is not None or call is not None:
            raise DeclarationError(f"op {namespace}::{name}: overloads=, plan= and call= belong to native ops (their "
                                   "C++ adapter and plan registry); a declared op has one schema")
        if tiling is None:
            raise DeclarationError(f"op {namespace}::{name}: tiling is missing: a function of the op's arguments "
                                   "returning al.Tiling, or al.CppTiling(header, function)")
        declared = DeclaredOp(schema, kernel=kernel, dtypes=dtypes, outputs=outputs, tiling=tiling,
                              base_dir=base_dir, bind=bind, setup_context=setup_context, backward=backward, jvp=jvp,
                              vmap=vmap, autocast=autocast, tiling_struct=tiling_struct,
                              system_workspace=system_workspace, tags=tags, aclnn=aclnn, samples=samples,
                              reference=reference, tolerances=tolerances)
    else:
        raise DeclarationError(f"op {namespace}::{name}: impl must be 'declared' or 'native', got {impl!r}")
    if declared.builtin:
        _BUILTIN.append(declared)
    return declared

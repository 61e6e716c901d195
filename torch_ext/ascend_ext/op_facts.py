"""The built-in ops' facts, read from their declarations without running them (nothing here imports torch).

Each built-in op is declared once, with ``ascend_ext.library.op(...)``, in ``torch_ext/ascend_ext/ops/<module>.py``.
At run time the package imports those modules. At build time CMake's configure step and setup.py need a
few of the same facts (the kernel, its dtypes, the op package's op type and port order, the schemas, the
plan function) from a Python that may lack torch: ``read_declarations`` reads them from the source with
``ast``. The build-relevant keywords of a declaration are therefore written with literals (strings,
numbers, tuples, dicts, the ``al.Kernel``/``al.TensorArg``/``al.Out``/``al.like``/``al.promoted``/
``al.Plan``/``al.CppTiling`` constructors, and module-level names bound to such values); functions
(tiling, autograd, samples) are left to the run time. A keyword the build needs that is not written so is a
``FactError`` naming the file, the line and the keyword.

The same module parses what both sides share: the signature language of ``aclnn=`` (the op package's
interface, ``"VectorAdd(Tensor x, Tensor? y, float scale_x=1.0) -> Tensor z"``) and the dtype rules that turn
a declaration into per-dtype kernel builds (variants). cmake/builtin_ops.py loads this file by path.
"""
import ast
import dataclasses
import importlib.util
import itertools
import os
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

if __package__:
    from . import kernel_spec as _ks
else:  # loaded by path (cmake/builtin_ops.py): its sibling, also torch-free
    _spec = importlib.util.spec_from_file_location(
        "ascend_ext_kernel_spec", os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernel_spec.py"))
    _ks = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_ks)

OPS_FOLDER = os.path.join("torch_ext", "ascend_ext", "ops")
BUILTIN_NAMESPACE = "ascend_ext"
IMPLS = ("declared", "native")
# Where an installed package keeps the sources its built-in declarations name (setup.py stages them).
STAGED_SOURCES = "builtin_sources"


class FactError(ValueError):
    """A declaration whose build-relevant facts cannot be read, or do not describe a buildable op."""


# ---- the signature language (schemas and aclnn interfaces) -----------------------------------------------


@dataclasses.dataclass(frozen=True)
class Param:
    name: str
    type: str  # as written: "Tensor", "Tensor?", "Tensor(a!)", "float", "Scalar", ...
    default: Optional[str] = None
    kwarg_only: bool = False

    @property
    def is_tensor(self) -> bool:
        return self.type.startswith("Tensor")

    @property
    def optional(self) -> bool:
        return self.type.endswith("?")


@dataclasses.dataclass(frozen=True)
class Signature:
    namespace: Optional[str]
    name: str
    overload: str
    params: Tuple[Param, ...]
    returns: Tuple[Param, ...]


def _split_top(text: str) -> List[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def parse_signature(text: str, where: str = "") -> Signature:
    """``[ns::]name[.overload](type name[=default], ..., *, ...) -> returns`` in torch's schema language."""
    m = re.fullmatch(r"\s*(?:(\w+)::)?(\w+)(?:\.(\w+))?\s*\((.*)\)\s*->\s*(.*?)\s*", text, flags=re.S)
    if m is None:
        raise FactError(f"{where}: '{text}' is not a signature '[namespace::]name(arguments) -> returns'")
    params, kwarg_only = [], False
    for part in _split_top(m.group(4)):
        if part == "*":
            kwarg_only = True
            continue
        pm = re.fullmatch(r"(.+?)\s+(\w+)(?:\s*=\s*(.+))?", part)
        if pm is None:
            raise FactError(f"{where}: cannot read the argument '{part}' of '{text}'")
        params.append(Param(pm.group(2), pm.group(1).replace(" ", ""), pm.group(3), kwarg_only))
    ret = m.group(5).strip()
    if ret.startswith("(") and ret.endswith(")"):
        ret = ret[1:-1]
    returns = []
    for i, part in enumerate(_split_top(ret)):
        rm = re.fullmatch(r"(\S+?)(?:\s+(\w+))?", part.strip())
        if rm is None:
            raise FactError(f"{where}: cannot read the return '{part}' of '{text}'")
        returns.append(Param(rm.group(2) or "", rm.group(1)))
    return Signature(m.group(1), m.group(2), m.group(3) or "", tuple(params), tuple(returns))


ATTR_TYPES = ("float", "int", "bool")


@dataclasses.dataclass(frozen=True)
class Interface:
    """The op package's view of an op: its OpType and the order of its inputs, attrs and outputs (the order of
    the generated aclnn<OpType>GetWorkspaceSize(inputs..., attrs..., outputs..., workspaceSize, executor))."""

    op_type: str
    inputs: Tuple[Param, ...]
    attrs: Tuple[Param, ...]
    outputs: Tuple[Param, ...]

    @property
    def ports(self) -> Tuple[Param, ...]:
        return self.inputs + self.attrs + self.outputs


def parse_interface(text: str, where: str = "") -> Interface:
    """``"OpType(Tensor x, Tensor? y, float alpha, int mode=1) -> Tensor z"``: tensors are the inputs, numbers
    (float, int, bool) the attrs (required without a default), the named returns the outputs."""
    sig = parse_signature(text, where)
    if sig.namespace or sig.overload:
        raise FactError(f"{where}: aclnn='{text}': write the OpType alone, without namespace or overload")
    if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", sig.name):
        raise FactError(f"{where}: aclnn op type '{sig.name}' must be UpperCamelCase (CANN derives the kernel's "
                        "snake_case entry from it)")
    inputs, attrs = [], []
    for p in sig.params:
        if p.type in ("Tensor", "Tensor?"):
            if attrs:
                raise FactError(f"{where}: aclnn='{text}': input '{p.name}' follows an attr; the generated aclnn "
                                "function takes the inputs first, then the attrs")
            inputs.append(p)
        elif p.type in ATTR_TYPES:
            attrs.append(p)
        else:
            raise FactError(f"{where}: aclnn='{text}': '{p.type} {p.name}' is neither an input (Tensor, Tensor?) "
                            f"nor an attr ({', '.join(ATTR_TYPES)})")
    for r in sig.returns:
        if r.type != "Tensor" or not r.name:
            raise FactError(f"{where}: aclnn='{text}': every output is a named 'Tensor <name>'")
    names = [p.name for p in sig.params] + [r.name for r in sig.returns]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise FactError(f"{where}: aclnn='{text}': the port names {', '.join(dup)} repeat")
    return Interface(sig.name, tuple(inputs), tuple(attrs), tuple(sig.returns))


def snake_case(op_type: str) -> str:
    """CANN's kernel name of an OpType: VectorAdd -> vector_add, MatmulCube -> matmul_cube."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", op_type).lower()


# ---- dtype rules and variants ----------------------------------------------------------------------------

DTYPE_NAMES = ("float32", "float16", "bfloat16", "float64", "int8", "uint8", "int16", "int32", "int64", "bool")
_FLOAT_RANK = {"float16": 1, "bfloat16": 1, "float32": 2, "float64": 3}


def promote(a: str, b: str, where: str = "") -> str:
    """torch.promote_types for the floating dtypes (what a build can need without torch)."""
    if a == b:
        return a
    if a in _FLOAT_RANK and b in _FLOAT_RANK:
        if {a, b} == {"float16", "bfloat16"}:
            return "float32"
        return a if _FLOAT_RANK[a] > _FLOAT_RANK[b] else b
    raise FactError(f"{where}: promoted({a}, {b}): the build promotes floating dtypes only")


@dataclasses.dataclass(frozen=True)
class Rule:
    """A tensor's dtype rule: 'allowed' (the dtype names the kernel is built for), 'same' (another tensor's
    dtype) or 'promoted' (torch.promote_types of tensors' dtypes and dtype names)."""

    kind: str
    value: Tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Variant:
    key: str
    dtypes: Tuple[Tuple[str, str], ...]  # tensor or output name -> dtype name, in macro order
    macros: Tuple[Tuple[str, str], ...]  # (DTYPE_<NAME>, C type)

    @property
    def twin_only(self) -> bool:
        return any(d == "float64" for _, d in self.dtypes)

    def dtype_of(self, name: str) -> str:
        return dict(self.dtypes)[name]


def variants(tensors: Sequence[str], rules: Dict[str, Rule], outputs: Sequence[Tuple[str, Rule]],
             where: str = "") -> List[Variant]:
    """One build per combination of the 'allowed' tensors' dtypes, DTYPE_<NAME> set for every tensor and
    output (as CANN's op build sets it for every port), in the order ascend_ext.library builds them."""
    free = [n for n in tensors if rules[n].kind == "allowed"]
    out = []
    for combo in itertools.product(*(rules[n].value for n in free)):
        chosen = dict(zip(free, combo))

        def resolve(name: str, seen: Tuple[str, ...] = ()) -> str:
            if name in chosen:
                return chosen[name]
            if name in seen:
                raise FactError(f"{where}: the dtype rules of {', '.join(sorted(seen))} refer to each other")
            rule = rules[name]
            if rule.kind == "same":
                d = resolve(rule.value[0], seen + (name,))
            else:
                d = _promote_parts(rule.value, lambda n: resolve(n, seen + (name,)), tensors, where)
            chosen[name] = d
            return d

        for name in tensors:
            resolve(name)
        dtypes = [(n, chosen[n]) for n in tensors]
        for name, rule in outputs:
            if rule.kind == "same":
                dtypes.append((name, chosen[rule.value[0]]))
            elif rule.kind == "promoted":
                dtypes.append((name, _promote_parts(rule.value, lambda n: chosen[n], tensors, where)))
            else:
                dtypes.append((name, rule.value[0]))
        macros = tuple((f"DTYPE_{n.upper()}", _ks.C_TYPES[d]) for n, d in dtypes)
        out.append(Variant("_".join(combo) or "default", tuple(dtypes), macros))
    return out


def _promote_parts(parts, dtype_of, tensors, where) -> str:
    names = [dtype_of(p) if p in tensors else p for p in parts]
    result = names[0]
    for n in names[1:]:
        result = promote(result, n, where)
    return result


# ---- reading a declaration with ast ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Opaque:
    """A value the build cannot read (a function, an expression): fine unless the build needs it."""

    source: str
    line: int


@dataclasses.dataclass(frozen=True)
class Ctor:
    """A call of one of the declaration constructors of ascend_ext.library, its arguments read."""

    name: str
    args: tuple
    kwargs: Dict[str, Any]

    def arg(self, index: int, keyword: str, default: Any = None) -> Any:
        if len(self.args) > index:
            return self.args[index]
        return self.kwargs.get(keyword, default)


CONSTRUCTORS = ("Kernel", "TensorArg", "Out", "like", "promoted", "Plan", "CppTiling")
KNOWN_CONSTANTS = {"FLOATING": ("float32", "float16", "bfloat16")}  # ascend_ext.library.FLOATING


class _Reader:
    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.aliases: set = set()
        self.env: Dict[str, Any] = {}

    def value(self, node: ast.AST) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(self.value(e) for e in node.elts)
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                key = self.value(k) if k is not None else None
                if not isinstance(key, str):
                    return self.opaque(node)
                out[key] = self.value(v)
            return out
        if isinstance(node, ast.Name):
            return self.env.get(node.id, self.opaque(node))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.aliases:
            return KNOWN_CONSTANTS.get(node.attr, self.opaque(node))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = self.value(node.operand)
            return -v if isinstance(v, (int, float)) else self.opaque(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.value(node.left), self.value(node.right)
            return a + b if isinstance(a, tuple) and isinstance(b, tuple) else self.opaque(node)
        if isinstance(node, ast.Call) and self.is_library(node.func):
            name = node.func.attr
            if name in CONSTRUCTORS:
                return Ctor(name, tuple(self.value(a) for a in node.args),
                            {k.arg: self.value(k.value) for k in node.keywords if k.arg})
        return self.opaque(node)

    def opaque(self, node: ast.AST) -> Opaque:
        return Opaque(ast.get_source_segment(self.text, node) or type(node).__name__, getattr(node, "lineno", 0))

    def is_library(self, func: ast.AST) -> bool:
        return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in self.aliases

    def calls(self) -> List[Tuple[int, tuple, Dict[str, Any]]]:
        tree = ast.parse(self.text, filename=self.path)
        found = []
        for node in tree.body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "ascend_ext.library" and a.asname:
                        self.aliases.add(a.asname)
            elif isinstance(node, ast.ImportFrom) and node.module == "ascend_ext":
                for a in node.names:
                    if a.name == "library":
                        self.aliases.add(a.asname or a.name)
            value = node.value if isinstance(node, (ast.Assign, ast.Expr, ast.AnnAssign)) else None
            if isinstance(value, ast.Call) and self.is_library(value.func) and value.func.attr == "op":
                found.append((node.lineno, tuple(self.value(a) for a in value.args),
                              {k.arg: self.value(k.value) for k in value.keywords if k.arg}))
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                self.env[node.targets[0].id] = self.value(node.value)
        return found


@dataclasses.dataclass
class OpFacts:
    """What the build knows of one declared built-in op."""

    module: str  # the declaring file, relative to the project root
    line: int
    namespace: str
    name: str
    schema: str
    overloads: Tuple[str, ...]
    impl: str
    kernel_source: str  # relative to the project root
    kernel_entry: str
    kernel_type: str
    tensors: Tuple[str, ...]  # the kernel's tensor operands in macro order (declared: the schema's tensors)
    rules: Dict[str, Rule]
    outputs: Tuple[Tuple[str, Rule], ...]
    interface: Optional[Interface]
    plan: Optional[Tuple[str, str]]  # (header relative to the root, C++ function)

    @property
    def where(self) -> str:
        return f"{self.module}:{self.line}: {self.namespace}::{self.name}"

    def variants(self) -> List[Variant]:
        return variants(self.tensors, self.rules, self.outputs, self.where)

    def device_variants(self) -> List[Variant]:
        """The variants the NPU builds (float64 builds exist on the twin only)."""
        return [v for v in self.variants() if not v.twin_only]

    def free_tensors(self) -> List[str]:
        return [n for n in self.tensors if self.rules[n].kind == "allowed"]


def _need(value: Any, keyword: str, where: str, what: str) -> Any:
    if isinstance(value, Opaque):
        raise FactError(f"{where}: keyword '{keyword}' must be written with literals for the build to read it "
                        f"({what}); got '{value.source}' (line {value.line})")
    return value


def _rule(value: Any, tensors: Sequence[str], keyword: str, where: str) -> Rule:
    if isinstance(value, Ctor) and value.name == "TensorArg":
        value = value.arg(0, "dtypes")
    if isinstance(value, Ctor) and value.name == "promoted":
        for part in value.args:
            if part not in tensors and part not in DTYPE_NAMES:
                raise FactError(f"{where}: {keyword}: promoted() names '{part}', neither a tensor "
                                f"({', '.join(tensors)}) nor a dtype name")
        return Rule("promoted", tuple(value.args))
    if isinstance(value, str) and value in tensors:
        return Rule("same", (value,))
    names = (value,) if isinstance(value, str) else value
    _need(names, keyword, where, "dtype names, a tensor's name, al.TensorArg(...) or al.promoted(...)")
    if not isinstance(names, tuple) or not names or not all(isinstance(n, str) for n in names):
        raise FactError(f"{where}: {keyword}: expected dtype names, got {names!r}")
    for n in names:
        if n not in DTYPE_NAMES:
            raise FactError(f"{where}: {keyword}: unknown dtype '{n}'; known: {', '.join(DTYPE_NAMES)}")
    return Rule("allowed", tuple(names))


def _output_rule(value: Any, tensors: Sequence[str], name: str, where: str) -> Rule:
    what = "al.like('<tensor>') or al.Out(shape, dtype) with a literal dtype"
    _need(value, f"outputs['{name}']", where, what)
    if not isinstance(value, Ctor) or value.name not in ("like", "Out"):
        raise FactError(f"{where}: outputs['{name}']: expected {what}")
    dtype = value.arg(0, "arg") if value.name == "like" else value.arg(1, "dtype")
    _need(dtype, f"outputs['{name}']", where, what)
    if isinstance(dtype, Ctor) and dtype.name == "promoted":
        return _rule(dtype, tensors, f"outputs['{name}']", where)
    if isinstance(dtype, str) and dtype in tensors:
        return Rule("same", (dtype,))
    if isinstance(dtype, str) and dtype in DTYPE_NAMES:
        return Rule("allowed", (dtype,))
    raise FactError(f"{where}: outputs['{name}']: dtype '{dtype}' is neither a tensor ({', '.join(tensors)}) nor "
                    "a dtype name")


def _path(root: str, rel: str) -> str:
    return os.path.normpath(os.path.join(root, rel))


def facts_of(module: str, line: int, args: tuple, kwargs: Dict[str, Any], root: str) -> OpFacts:
    """The facts of one al.op(...) call (arguments read by _Reader)."""
    where = f"{module}:{line}"
    schema = args[0] if args else kwargs.get("schema")
    _need(schema, "schema", where, "the schema string")
    sig = parse_signature(schema, where)
    if sig.namespace != BUILTIN_NAMESPACE:
        raise FactError(f"{where}: a built-in op is declared in namespace '{BUILTIN_NAMESPACE}', not "
                        f"'{sig.namespace}'")
    where = f"{where}: {sig.namespace}::{sig.name}"
    impl = _need(kwargs.get("impl", "declared"), "impl", where, "'declared' or 'native'")
    if impl not in IMPLS:
        raise FactError(f"{where}: impl must be one of {', '.join(IMPLS)}, got {impl!r}")
    overloads = _need(kwargs.get("overloads", ()), "overloads", where, "a tuple of schema strings")
    for o in overloads:
        parse_signature(o, where)
    kernel = _need(kwargs.get("kernel"), "kernel", where, "al.Kernel('op_kernel/<file>.cpp', ...)")
    if not isinstance(kernel, Ctor) or kernel.name != "Kernel":
        raise FactError(f"{where}: kernel must be al.Kernel(...)")
    sources = _need(kernel.arg(0, "sources"), "kernel", where, "the kernel's source path")
    sources = (sources,) if isinstance(sources, str) else tuple(sources)
    source = sources[0]
    if not os.path.isfile(_path(root, source)):
        raise FactError(f"{where}: kernel source {source} does not exist under {root}")
    entry = _need(kernel.arg(1, "entry") or sig.name, "kernel", where, "the entry's name")
    if entry not in _ks.find_entries(_path(root, source)):
        raise FactError(f"{where}: {source} has no entry point '{entry}' (__global__ __aicore__ void {entry}(...))")
    kernel_type = _need(kernel.kwargs.get("kernel_type"), "kernel", where, "'aiv', 'aic' or 'mix'") or \
        _ks.kernel_type_of(_path(root, source)) or "aiv"
    dtypes = _need(kwargs.get("dtypes"), "dtypes", where, "a dict of dtype rules")
    if not isinstance(dtypes, dict):
        raise FactError(f"{where}: dtypes must be a dict")
    if impl == "native":
        tensors = tuple(dtypes)  # the kernel's operands (the C++ adapter maps the schema to them)
    else:
        tensors = tuple(p.name for p in sig.params if p.is_tensor)
        missing = [t for t in tensors if t not in dtypes]
        if missing:
            raise FactError(f"{where}: tensor argument(s) {', '.join(missing)} have no dtypes declared")
    rules = {name: _rule(dtypes[name], tensors, f"dtypes['{name}']", where) for name in tensors}
    outputs = _need(kwargs.get("outputs"), "outputs", where, "a dict of outputs")
    if not isinstance(outputs, dict):
        raise FactError(f"{where}: outputs must be a dict")
    out_rules = tuple((name, _output_rule(v, tensors, name, where)) for name, v in outputs.items())
    interface = None
    aclnn = _need(kwargs.get("aclnn"), "aclnn", where, "the op package's interface string")
    if aclnn is not None:
        interface = parse_interface(aclnn, where)
        if snake_case(interface.op_type) != entry:
            raise FactError(f"{where}: aclnn op type {interface.op_type} builds the kernel entry "
                            f"'{snake_case(interface.op_type)}' (CANN names it so), but the kernel's entry is "
                            f"'{entry}'")
        ports = set(tensors) | {n for n, _ in out_rules}
        for p in interface.inputs + interface.outputs:
            if p.name not in ports:
                raise FactError(f"{where}: aclnn port '{p.name}' is no tensor of the kernel "
                                f"({', '.join(sorted(ports))})")
    plan = _need(kwargs.get("plan"), "plan", where, "al.Plan('op_host/<op>_tiling.h', '<function>')")
    if plan is not None:
        if not isinstance(plan, Ctor) or plan.name != "Plan":
            raise FactError(f"{where}: plan must be al.Plan(header, function)")
        plan = (plan.arg(0, "header"), plan.arg(1, "function"))
        if not os.path.isfile(_path(root, plan[0])):
            raise FactError(f"{where}: plan header {plan[0]} does not exist")
    return OpFacts(module, line, sig.namespace, sig.name, schema, tuple(overloads), impl, source, entry, kernel_type,
                   tensors, rules, out_rules, interface, plan)


def declaration_files(root: str) -> List[str]:
    folder = os.path.join(root, OPS_FOLDER)
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".py") and not f.startswith("_"))


def read_declarations(root: str) -> List[OpFacts]:
    """Every al.op(...) declaration of the built-in ops under ROOT/torch_ext/ascend_ext/ops, in file order."""
    facts: List[OpFacts] = []
    for path in declaration_files(root):
        with open(path) as f:
            text = f.read()
        module = os.path.relpath(path, root)
        for line, args, kwargs in _Reader(module, text).calls():
            facts.append(facts_of(module, line, args, kwargs, root))
    names = [f.name for f in facts]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise FactError(f"the built-in ops {', '.join(dup)} are declared twice")
    entries = [f.kernel_entry for f in facts]
    dup = sorted({e for e in entries if entries.count(e) > 1})
    if dup:
        raise FactError(f"the kernel entries {', '.join(dup)} belong to two built-in ops")
    return facts


# ---- where a built-in declaration's paths are relative to ------------------------------------------------


def project_root(declaring_file: str) -> Optional[str]:
    """The folder a built-in declaration's paths are relative to: the nearest folder enclosing the declaring
    file that holds op_kernel/ (the source tree) or builtin_sources/op_kernel/ (an installed package, which
    setup.py gives a copy of the sources its declarations name). None outside such a tree."""
    d = os.path.dirname(os.path.abspath(declaring_file))
    while True:
        if os.path.isdir(os.path.join(d, STAGED_SOURCES, "op_kernel")):
            return os.path.join(d, STAGED_SOURCES)
        if os.path.isdir(os.path.join(d, "op_kernel")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent

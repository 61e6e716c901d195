"""What the build generates from the built-in ops' declarations (torch_ext/ascend_ext/ops/*.py), into the
build tree; nothing generated is committed. The declarations are read without torch
(torch_ext/ascend_ext/op_facts.py, loaded by path), so CMake's configure step can run this with any Python 3.

    python builtin_ops.py ROOT OUT_DIR twin    the kernels' per-dtype twin builds (every built-in op); prints
                                               the generated sources, ';'-separated (CMakeLists.txt)
    python builtin_ops.py ROOT OUT_DIR cann    ops.cmake (the op package's kernel list) and one header of
                                               ports per op type (cmake/cann_op_package.cmake)
    python builtin_ops.py ROOT OUT_DIR torch   the extension's sources (setup.py): the native ops' twin builds,
                                               their TORCH_LIBRARY schemas, the plan registry of
                                               ascend_ext.twin.plan and the typed aclnn calls of the NPU adapter

Files whose content is unchanged are not rewritten, so builds stay incremental; stale generated files are
removed.
"""
import importlib.util
import os
import re
import sys
from typing import Dict, List

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_facts(root: str):
    path = os.path.join(root, "torch_ext", "ascend_ext", "op_facts.py")
    spec = importlib.util.spec_from_file_location("ascend_ext_op_facts", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


facts_module = _load_facts(os.path.dirname(_HERE))
FactError = facts_module.FactError

# dtype name -> ascend_twin::DType enumerator (the twin's registry of the native ops' builds)
TWIN_DTYPES = {"float32": "kFloat32", "float16": "kFloat16", "bfloat16": "kBFloat16", "float64": "kFloat64"}
# dtype name -> ge::DataType of an OpDef port
GE_TYPES = {"float32": "ge::DT_FLOAT", "float16": "ge::DT_FLOAT16", "bfloat16": "ge::DT_BF16", "int8": "ge::DT_INT8",
            "uint8": "ge::DT_UINT8", "int16": "ge::DT_INT16", "int32": "ge::DT_INT32", "int64": "ge::DT_INT64",
            "bool": "ge::DT_BOOL"}
# attr type -> (OpAttrDef setter, C++ type of the generated aclnn function's parameter)
ATTR_KINDS = {"float": ("Float", "double"), "int": ("Int", "int64_t"), "bool": ("Bool", "bool")}


def read(root: str):
    return facts_module.read_declarations(root)


def _write(path: str, text: str, written: List[str]) -> None:
    old = open(path).read() if os.path.exists(path) else None
    if old != text:
        with open(path, "w") as f:
            f.write(text)
    written.append(path)


def _prune(folder: str, keep: List[str], suffixes) -> None:
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if name.endswith(suffixes) and path not in keep:
            os.remove(path)


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


# ---- the twin builds of the kernels -----------------------------------------------------------------------

QUOTED_INCLUDE = re.compile(r'\s*#\s*include\s*"([^"]+)"')


def check_kernel_includes(root: str, kernel_source: str) -> None:
    """A kernel reaches its own headers (the tiling struct, shared helpers) in op_kernel/, the only folder
    the op package ships for online compilation (asc-devkit guide, 使用标准C++语法定义Tiling结构体); a
    quoted include that resolves to op_host/ compiles here through -I op_host and fails there."""
    root = os.path.abspath(root)
    kernel_dir = os.path.join(root, "op_kernel")
    pending, seen = [os.path.join(root, kernel_source)], set()
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        with open(path) as f:
            for number, line in enumerate(f, 1):
                m = QUOTED_INCLUDE.match(line)
                if not m:
                    continue
                local = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
                if os.path.exists(local) and local.startswith(kernel_dir + os.sep):
                    pending.append(local)
                elif os.path.exists(local) or os.path.exists(os.path.join(root, "op_host", m.group(1))):
                    raise ValueError(
                        f"{os.path.relpath(path, root)}:{number}: includes \"{m.group(1)}\" from outside op_kernel/; "
                        "the op package ships only op_kernel/ for online compilation (asc-devkit guide, "
                        "使用标准C++语法定义Tiling结构体): put what the kernel reads in op_kernel/ and let the "
                        "host code include it from there")


def _own_header(root: str, line: str) -> str:
    """An include of the kernel's own header, by its path under the root (the unit needs no -I op_kernel)."""
    m = QUOTED_INCLUDE.match(line)
    if m and os.path.exists(os.path.join(root, "op_kernel", m.group(1))):
        return f'#include "op_kernel/{m.group(1)}"'
    return line.strip()


def twin_variant_source(root: str, op, variant) -> str:
    """One C++ unit: the kernel's includes, then its source inside a namespace of its own with the variant's
    DTYPE_ macros and the entry renamed <entry>__<key>; a native op's build is registered under (entry,
    dtype) for the C++ adapter's launches (twin/kernel_variant.h)."""
    check_kernel_includes(root, op.kernel_source)
    with open(os.path.join(root, op.kernel_source)) as f:
        source = f.read().splitlines()
    includes = [_own_header(root, line) for line in source if re.match(r"\s*#\s*include\b", line)]
    # Macros the kernel defines before its first include configure those headers (ASCENDC_CUBE_ONLY).
    first = next((i for i, line in enumerate(source) if re.match(r"\s*#\s*include\b", line)), 0)
    includes = [line.strip() for line in source[:first] if re.match(r"\s*#\s*define\b", line)] + includes
    entry, key = op.kernel_entry, variant.key
    space = f"ascend_twin_variant_{entry}_{key}"
    lines = [f"// Generated by cmake/builtin_ops.py from {op.module}: {op.kernel_source} for {key}.",
             "#define ASCEND_TWIN_ALLOW_FP64  // the float64 build exists on the twin only" if variant.twin_only
             else "", '#include "twin/kernel_target.h"  // the device build\'s target macros (A2)',
             "// The kernel's own includes first, so that they stay outside the namespace below.", *includes]
    lines += [f"#define {macro} {ctype}" for macro, ctype in variant.macros]
    lines += [f"#define {entry} {entry}__{key}", f"namespace {space} {{", f'#include "{op.kernel_source}"', "}",
              f"#undef {entry}"]
    if op.impl == "native":
        free = op.free_tensors()
        if len(free) != 1:
            raise FactError(f"{op.where}: a native op's kernel is launched by (entry, dtype): it needs exactly one "
                            f"tensor with a list of dtypes, not {len(free)} ({', '.join(free)})")
        dtype = variant.dtype_of(free[0])
        if dtype not in TWIN_DTYPES:
            raise FactError(f"{op.where}: the twin registers native kernels for {', '.join(TWIN_DTYPES)}, not {dtype}")
        lines += ['#include "twin/kernel_variant.h"',
                  f"ASCEND_TWIN_REGISTER_KERNEL({entry}, {TWIN_DTYPES[dtype]}, {space}::{entry}__{key})"]
    return "\n".join(lines + [""])


def generate_twin(root: str, out_dir: str, impl=None) -> List[str]:
    """The per-dtype twin builds of every built-in op's kernel (of `impl` ops only, if given)."""
    os.makedirs(out_dir, exist_ok=True)
    written: List[str] = []
    for op in read(root):
        if impl is not None and op.impl != impl:
            continue
        for variant in op.variants():
            _write(os.path.join(out_dir, f"{op.kernel_entry}_{variant.key}.cpp"), twin_variant_source(root, op, variant),
                   written)
    _prune(out_dir, written, (".cpp",))
    return sorted(written)


# ---- the op package -------------------------------------------------------------------------------------


def _op_host_op_types(root: str) -> Dict[str, str]:
    """OpType -> the op_host/*.cpp that defines its OpDef (OP_ADD(OpType))."""
    found = {}
    folder = os.path.join(root, "op_host")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".cpp"):
            with open(os.path.join(folder, name)) as f:
                for op_type in re.findall(r"^\s*OP_ADD\(\s*(\w+)\s*\)", f.read(), flags=re.M):
                    found[op_type] = os.path.join("op_host", name)
    return found


def package_ops(root: str) -> list:
    """The built-in ops in the op package (those declaring aclnn=), checked against op_host/: each op type has
    its OpDef there, and every OpDef there belongs to a declaration."""
    ops = [op for op in read(root) if op.interface is not None]
    defined = _op_host_op_types(root)
    for op in ops:
        if op.interface.op_type not in defined:
            raise FactError(f"{op.where}: declares the op package's op type {op.interface.op_type}, but no "
                            f"op_host/*.cpp defines it (OP_ADD({op.interface.op_type}))")
        if not op.kernel_source.startswith("op_kernel/"):
            raise FactError(f"{op.where}: the op package compiles kernels from op_kernel/, not {op.kernel_source}")
    declared = {op.interface.op_type for op in ops}
    for op_type, path in defined.items():
        if op_type not in declared:
            raise FactError(f"{path}: defines the OpDef {op_type}, which no declaration in "
                            f"{facts_module.OPS_FOLDER} names (aclnn='{op_type}(...) -> ...')")
    return ops


def ports_header(op) -> str:
    """The OpDef's ports of one op type in the declared order, and their indices for the TilingFunc and the
    inference functions (GetInputShape(kInputX), GetAttrPointer<float>(kAttrAlpha))."""
    it = op.interface
    variants = op.device_variants()
    formats = ", ".join(["ge::FORMAT_ND"] * len(variants))
    lines = [f"// Generated by cmake/builtin_ops.py from {op.module}: the op package's ports of {it.op_type}, in the",
             "// declared order (the generated aclnn function takes the inputs, then the attrs, then the outputs).",
             "#pragma once", "", "#include <cstddef>", "", '#include "register/op_def_registry.h"', "",
             f"namespace ascend_ext::ports::{it.op_type} {{", ""]
    for i, p in enumerate(it.inputs):
        lines.append(f"inline constexpr size_t kInput{_camel(p.name)} = {i};")
    for i, p in enumerate(it.outputs):
        lines.append(f"inline constexpr size_t kOutput{_camel(p.name)} = {i};")
    for i, p in enumerate(it.attrs):
        lines.append(f"inline constexpr size_t kAttr{_camel(p.name)} = {i};")
    kinds = "".join({"float": "f", "int": "i", "bool": "b"}[p.type] for p in it.attrs)
    lines += [f"inline constexpr size_t kNumInputs = {len(it.inputs)};",
              f'inline constexpr char kAttrKinds[] = "{kinds}";  // f Float, i Int, b Bool (cann_glue.h, RunCppTiling)']
    lines += ["", "// Every port's dtype per build (one column per device variant of the kernel), all ND.",
              "inline void Define(ops::OpDef& def)", "{"]
    for kind, ports in (("Input", it.inputs), ("Output", it.outputs)):
        for p in ports:
            types = []
            for v in variants:
                d = v.dtype_of(p.name)
                if d not in GE_TYPES:
                    raise FactError(f"{op.where}: port '{p.name}' has dtype {d}, which the op package has no type for")
                types.append(GE_TYPES[d])
            param = "OPTIONAL" if p.optional else "REQUIRED"
            lines.append(f'    def.{kind}("{p.name}").ParamType(ops::{param}).DataType({{{", ".join(types)}}})'
                         f".Format({{{formats}}});")
    for p in it.attrs:
        setter = ATTR_KINDS[p.type][0]
        if p.default is None:
            lines.append(f'    def.Attr("{p.name}").AttrType(ops::REQUIRED).{setter}();')
        else:
            value = {"float": lambda v: f"{float(v)!r}f", "int": lambda v: str(int(v)),
                     "bool": lambda v: "true" if v == "True" else "false"}[p.type](p.default)
            lines.append(f'    def.Attr("{p.name}").AttrType(ops::OPTIONAL).{setter}({value});')
    lines += ["}", "", f"}}  // namespace ascend_ext::ports::{it.op_type}", ""]
    return "\n".join(lines)


def generate_cann(root: str, out_dir: str) -> List[str]:
    """ops.cmake (npu_op_kernel_sources per op type) and ascend_ext_ports/<OpType>.h per op type."""
    ports_dir = os.path.join(out_dir, "ascend_ext_ports")
    os.makedirs(ports_dir, exist_ok=True)
    written: List[str] = []
    ops = package_ops(root)
    cmake = ["# Generated by cmake/builtin_ops.py from the declarations in torch_ext/ascend_ext/ops/: one kernel per",
             "# op type (CANN compiles op_kernel/<entry>.cpp for it, its entry the snake_case of the op type)."]
    for op in ops:
        cmake.append(f"npu_op_kernel_sources(ascendc_kernels OP_TYPE {op.interface.op_type} "
                     f"KERNEL_FILE {op.kernel_source[len('op_kernel/'):]})")
        _write(os.path.join(ports_dir, f"{op.interface.op_type}.h"), ports_header(op), written)
    _prune(ports_dir, written, (".h",))
    _write(os.path.join(out_dir, "ops.cmake"), "\n".join(cmake) + "\n", written)
    return written


# ---- the extension (setup.py) ----------------------------------------------------------------------------


def schemas_source(ops) -> str:
    lines = ["// Generated by cmake/builtin_ops.py: the schemas of the native ops, from their declarations; the",
             "// body of TORCH_LIBRARY(ascend_ext, m) in registration.cpp (m and tags are its)."]
    for op in ops:
        lines.append(f"// {op.module}")
        for schema in (op.schema,) + op.overloads:
            lines.append(f'm.def("{schema.split("::", 1)[1]}", tags);')
    return "\n".join(lines) + "\n"


def plans_source(ops) -> str:
    headers = sorted({op.plan[0] for op in ops if op.plan})
    lines = ["// Generated by cmake/builtin_ops.py: the plan registry of ascend_ext.twin.plan(), from the declarations'",
             "// al.Plan(header, function); each function is a PlanFunction (plan_json.h).", "#pragma once", ""]
    lines += [f'#include "{h}"' for h in headers]
    lines += ["", "#define ASCEND_EXT_BUILTIN_PLANS \\"]
    lines += [f'    {{"{op.name}", &ascend_ext::{op.plan[1]}}}, \\' for op in ops if op.plan]
    return "\n".join(lines) + "\n"


def aclnn_source(ops) -> str:
    """The typed call of each op type's aclnn function for the NPU adapter: arguments in the declared order,
    so a change of the order in the declaration is a compile error at each call rather than a runtime one."""
    lines = ["// Generated by cmake/builtin_ops.py: one typed call per op type of the op package, its arguments in the",
             "// order of the generated aclnn<OpType> function (inputs, attrs, outputs), from the declarations.",
             "#pragma once", "", '#include "npu/op_api.h"', "", "namespace ascend_ext::aclnn {", ""]
    for op in ops:
        it = op.interface
        params = [f"const at::Tensor& {p.name}" for p in it.inputs]
        params += [f"{ATTR_KINDS[p.type][1]} {p.name}" for p in it.attrs]
        params += [f"const at::Tensor& {p.name}" for p in it.outputs]
        args = [f'npu::Input("{p.name}", {p.name})' for p in it.inputs] + [p.name for p in it.attrs]
        args += [f'npu::Output("{p.name}", {p.name})' for p in it.outputs]
        lines += [f"// {op.module}: {op.namespace}::{op.name}",
                  f"inline void {it.op_type}(const char* op, {', '.join(params)})", "{",
                  f'    npu::RunAclnn(op, "{it.op_type}", {", ".join(args)});', "}", ""]
    lines += ["}  // namespace ascend_ext::aclnn", ""]
    return "\n".join(lines)


def generate_torch(root: str, out_dir: str) -> List[str]:
    """OUT_DIR/twin_variants/*.cpp (the native ops' kernels) and OUT_DIR/include/ascend_ext_generated/
    {schemas.inc, plans.h, aclnn.h}; returns the C++ sources to compile."""
    ops = read(root)
    native = [op for op in ops if op.impl == "native"]
    include = os.path.join(out_dir, "include", "ascend_ext_generated")
    os.makedirs(include, exist_ok=True)
    written: List[str] = []
    _write(os.path.join(include, "schemas.inc"), schemas_source(native), written)
    _write(os.path.join(include, "plans.h"), plans_source(ops), written)
    _write(os.path.join(include, "aclnn.h"), aclnn_source([op for op in ops if op.interface is not None]), written)
    return generate_twin(root, os.path.join(out_dir, "twin_variants"), impl="native")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[3] not in ("twin", "cann", "torch"):
        sys.exit("usage: builtin_ops.py ROOT OUT_DIR twin|cann|torch")
    try:
        paths = {"twin": generate_twin, "cann": generate_cann, "torch": generate_torch}[sys.argv[3]](sys.argv[1],
                                                                                                  sys.argv[2])
    except (FactError, ValueError) as exc:
        sys.exit(f"ascend_ext: {exc}")
    print(";".join(paths), end="")

"""Generates the CPU twin's per-dtype builds of the kernels listed in op_kernel/twin_variants.txt.

For each (op, dtype) one C++ file: the kernel's own includes, then op_kernel/<op>.cpp inside a
namespace of its own with DTYPE_<NAME> set and the entry point renamed to <op>__<dtype>, then its
registration under (op, dtype) for the launcher (twin/kernel_variant.h). setup.py imports this module;
CMakeLists.txt runs it as a script: python gen_twin_variants.py ROOT OUT_DIR. Files whose content is
unchanged are not rewritten, so builds stay incremental.
"""
import os
import re
import sys
from typing import List, Tuple

# dtype name -> (C++ element type of the kernel, ascend_twin::DType enumerator)
DTYPES = {
    "float32": ("float", "kFloat32"),
    "float16": ("half", "kFloat16"),
    "bfloat16": ("bfloat16_t", "kBFloat16"),
    "float64": ("double", "kFloat64"),
}

LIST = os.path.join("op_kernel", "twin_variants.txt")


def read_list(root: str) -> List[Tuple[str, List[str], List[str]]]:
    entries = []
    with open(os.path.join(root, LIST)) as f:
        for number, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) < 3:
                raise ValueError(f"{LIST}:{number}: expected 'op macros dtypes...', got {line.strip()!r}")
            op, macros, dtypes = words[0], words[1].split(","), words[2:]
            for d in dtypes:
                if d not in DTYPES:
                    raise ValueError(f"{LIST}:{number}: unknown dtype {d!r}; known: {', '.join(DTYPES)}")
            if not os.path.exists(os.path.join(root, "op_kernel", f"{op}.cpp")):
                raise ValueError(f"{LIST}:{number}: op_kernel/{op}.cpp does not exist")
            entries.append((op, macros, dtypes))
    return entries


QUOTED_INCLUDE = re.compile(r'\s*#\s*include\s*"([^"]+)"')


def check_kernel_includes(root: str, op: str) -> None:
    """A kernel reaches its own headers (the tiling struct, shared helpers) in op_kernel/, the only folder
    the op package ships for online compilation (asc-devkit guide, 使用标准C++语法定义Tiling结构体); a
    quoted include that resolves to op_host/ compiles here through -I op_host and fails there."""
    root = os.path.abspath(root)
    kernel_dir = os.path.join(root, "op_kernel")
    pending, seen = [os.path.join(kernel_dir, f"{op}.cpp")], set()
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


def own_header(root: str, line: str) -> str:
    """An include of the kernel's own header, by its path under the root (the unit needs no -I op_kernel)."""
    m = QUOTED_INCLUDE.match(line)
    if m and os.path.exists(os.path.join(root, "op_kernel", m.group(1))):
        return f'#include "op_kernel/{m.group(1)}"'
    return line.strip()


def variant_source(root: str, op: str, macros: List[str], dtype: str) -> str:
    ctype, enum = DTYPES[dtype]
    check_kernel_includes(root, op)
    with open(os.path.join(root, "op_kernel", f"{op}.cpp")) as f:
        source = f.read().splitlines()
    includes = [own_header(root, line) for line in source if re.match(r"\s*#\s*include\b", line)]
    # Macros the kernel defines before its first include configure those headers (ASCENDC_CUBE_ONLY).
    first = next((i for i, line in enumerate(source) if re.match(r"\s*#\s*include\b", line)), 0)
    includes = [line.strip() for line in source[:first] if re.match(r"\s*#\s*define\b", line)] + includes
    space = f"ascend_twin_variant_{op}_{dtype}"
    lines = [f"// Generated from {LIST} by cmake/gen_twin_variants.py: op_kernel/{op}.cpp for {dtype}.",
             "#define ASCEND_TWIN_ALLOW_FP64  // the float64 build exists on the twin only" if dtype == "float64"
             else "", '#include "twin/kernel_target.h"  // the device build\'s target macros (A2)',
             "// The kernel's own includes first, so that they stay outside the namespace below.", *includes]
    lines += [f"#define DTYPE_{m.upper()} {ctype}" for m in macros]
    lines += [f"#define {op} {op}__{dtype}", f"namespace {space} {{", f'#include "op_kernel/{op}.cpp"', "}",
              f"#undef {op}", '#include "twin/kernel_variant.h"', f"ASCEND_TWIN_REGISTER_KERNEL({op}, {enum}, {space}::{op}__{dtype})", ""]
    return "\n".join(lines)


def generate(root: str, out_dir: str) -> List[str]:
    """Writes the variant files into out_dir (removing stale ones) and returns their paths."""
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for op, macros, dtypes in read_list(root):
        for dtype in dtypes:
            path = os.path.join(out_dir, f"{op}_{dtype}.cpp")
            text = variant_source(root, op, macros, dtype)
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                with open(path, "w") as f:
                    f.write(text)
            paths.append(path)
    for name in os.listdir(out_dir):
        if name.endswith(".cpp") and os.path.join(out_dir, name) not in paths:
            os.remove(os.path.join(out_dir, name))
    return sorted(paths)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: gen_twin_variants.py ROOT OUT_DIR")
    print(";".join(generate(sys.argv[1], sys.argv[2])), end="")

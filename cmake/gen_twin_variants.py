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


def variant_source(root: str, op: str, macros: List[str], dtype: str) -> str:
    ctype, enum = DTYPES[dtype]
    with open(os.path.join(root, "op_kernel", f"{op}.cpp")) as f:
        source = f.read().splitlines()
    includes = [line.strip() for line in source if re.match(r"\s*#\s*include\b", line)]
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

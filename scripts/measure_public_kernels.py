#!/usr/bin/env python3
"""Measures the twin's coverage with public Ascend C kernels written by others.

Each kernel source is compiled unchanged against the twin (ascend_ext.twin.compile_kernels), run on random
inputs with a tiling worked out the way the op's host tiling does, and compared with a float64 reference.
The result is a table: kernel, compiles?, runs clean (no rule violation)?, matches the reference?, first
error. docs/twin.md ("Measured with kernels written by others") records the last run.

The kernels are not part of this project and nothing of them is copied into it: check the repositories
out anywhere outside the project, one directory per repository named <owner>/<name> under a root,

    mkdir -p /tmp/pubk && cd /tmp/pubk
    git clone https://github.com/hicann/ops-math hicann/ops-math          # or gitcode/gitee mirrors
    git clone https://github.com/mirror-cann/asc-devkit mirror-cann/asc-devkit
    git clone https://github.com/hicann/ops-nn hicann/ops-nn

and run (the ascend_ext extension must be built, see README):

    PYTHONPATH=torch_ext python scripts/measure_public_kernels.py --root /tmp/pubk [--only NAME ...]

A kernel whose repository is missing under the root is listed as "source missing". Not run in CI (no
network there).

What the script adds around a kernel is what the op build generates, never a change to the kernel: the
DTYPE_<INPUT> macros of the op definition, the tiling struct where the op declares it on the host side
(BEGIN_TILING_DATA_DEF) and the kernel only reads it through GET_TILING_DATA, and, for a kernel that is a
template over its tiling-key parameters (ASCENDC_TPL_ARGS_DECL), the instantiation the tiling key selects.
These go into a small wrapper translation unit (in a temporary directory) that includes the kernel source.
"""
import argparse
import dataclasses
import os
import re
import struct
import sys
import tempfile
import textwrap
from typing import Callable, Dict, List, Optional

import torch

UB_BYTES = 192 * 1024  # A2 (Ascend910B) UB, what PlatformAscendC::GetCoreMemSize(UB) reports to host tilings
CORE_NUM = 8  # the coreNum given to the host tiling formulas (the real ones ask the platform: 40 or 48 AIV)


@dataclasses.dataclass
class Case:
    """One launch: the entry's arguments in order, and the expected value of each output."""
    block_dim: int
    args: Dict[str, object]
    expect: Dict[str, torch.Tensor]
    rtol: float = 1e-5
    atol: float = 1e-6
    label: str = ""  # names the case when a kernel has several


@dataclasses.dataclass
class Kernel:
    name: str  # short name for --only
    repo: str  # owner/name
    path: str  # kernel source inside the repository
    entry: str  # the __global__ function
    features: str  # API families it exercises (for the doc table)
    # (kernel dir, generator) -> a Case or a list of them; None: compile only
    make_case: Optional[Callable[[str, torch.Generator], object]]
    template: str = ""  # template arguments of the entry ("0" -> entry<0>)
    build: str = ""  # C++ the op build would generate (DTYPE_* macros, the tiling struct)


# ---- tiling helpers: the host tiling formulas of the kernels below, re-expressed -----------------------------

def blocked_split(n: int, elem_bytes: int, ub_parts: int, core_num: int = CORE_NUM, block: int = 32,
                  ub: int = UB_BYTES) -> Dict[str, int]:
    """The elementwise split most ops-math experimental kernels share: the input, rounded up to whole
    blocks, is spread over the cores in whole blocks (the first tailBlockNum cores get one block more),
    and each core walks its part in tiles of ub / block / ub_parts blocks, the last tile shorter."""
    aligned = (n * elem_bytes + block - 1) // block * block
    tile_blocks = (ub // block) // ub_parts
    tile = tile_blocks * block // elem_bytes
    cores = 1 if tile >= n else min(core_num, aligned // block)
    every = aligned // block // cores
    out = {"blockDim": cores, "tailBlockNum": (aligned // block) % cores, "tileDataNum": tile}
    for kind, blocks in (("small", every), ("big", every + 1)):
        data = blocks * block // elem_bytes
        tiles = blocks // tile_blocks
        out[f"{kind}CoreDataNum"] = data
        out[f"final{kind.capitalize()}TileNum"] = tiles if blocks % tile_blocks == 0 else tiles + 1
        tail = data - tile * tiles
        out[f"{kind}TailDataNum"] = tail if tail else tile
    return out


_CTYPES = {"uint32_t": "I", "int32_t": "i", "uint64_t": "Q", "int64_t": "q", "float": "f", "uint16_t": "H",
           "int16_t": "h", "uint8_t": "B", "int8_t": "b", "bool": "?"}


def read_struct(header: str, name: str) -> List[tuple]:
    """The fields (type, name, count) of a plain tiling struct in a kernel header."""
    with open(header) as f:
        text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", f.read(), flags=re.S)
    body = re.search(r"struct\s+%s\s*\{(.*?)\};" % name, text, re.S)
    if not body:
        raise ValueError(f"no struct {name} in {header}")
    fields = []
    for decl in body.group(1).split(";"):
        m = re.match(r"\s*(\w+)\s+(\w+)\s*(?:\[(\w+)\])?\s*(?:=.*)?$", decl.strip())
        if m:
            fields.append((m.group(1), m.group(2), m.group(3)))
    return fields


def pack_struct(fields: List[tuple], values: Dict[str, object]) -> bytes:
    """Packs values by field name with C layout (natural alignment); absent fields are zero."""
    fmt, data = "@", []
    for ctype, name, count in fields:
        if count is not None:
            raise ValueError(f"array field {name} needs explicit packing")
        fmt += _CTYPES[ctype]
        data.append(values.get(name, 0))
    size = struct.calcsize(fmt)
    widest = max(struct.calcsize("@" + _CTYPES[c]) for c, _, _ in fields)
    return struct.pack(fmt, *data) + b"\0" * ((-size) % widest)


def ops_math_tiling(kdir: str, op: str, struct_name: str, values: Dict[str, object]) -> bytes:
    return pack_struct(read_struct(os.path.join(kdir, f"{op}_tiling_data.h"), struct_name), values)


def rand(gen: torch.Generator, n: int, lo: float = -1.0, hi: float = 1.0, dtype=torch.float32) -> torch.Tensor:
    return (torch.rand(n, generator=gen, dtype=torch.float64) * (hi - lo) + lo).to(dtype)


# ---- the kernels ---------------------------------------------------------------------------------------------

OPS_MATH = "experimental/math/{op}/op_kernel/{op}.cpp"


def unary_case(op: str, struct_name: str, ub_parts: int, fn, lo=-4.0, hi=4.0, n=200_000, block=32, extra=None):
    def make(kdir: str, gen: torch.Generator) -> Case:
        x = rand(gen, n, lo, hi)
        t = blocked_split(n, 4, ub_parts, block=block)
        tiling = ops_math_tiling(kdir, op, struct_name, {**t, **(extra or {})})
        return Case(t["blockDim"], {"x": x, "y": torch.zeros(n), "workspace": None, "tiling": tiling},
                    {"y": fn(x.double())})
    return make


def binary_case(op: str, struct_name: str, ub_parts: int, names, fn, n=150_016, dtype=torch.float32, extra=None):
    a_name, b_name, out_name = names

    def make(kdir: str, gen: torch.Generator) -> Case:
        if dtype.is_floating_point:
            a, b = rand(gen, n, -3, 3, dtype), rand(gen, n, -3, 3, dtype)
        else:
            a = torch.randint(-2**31, 2**31 - 1, (n,), generator=gen, dtype=dtype)
            b = torch.randint(-2**31, 2**31 - 1, (n,), generator=gen, dtype=dtype)
        t = blocked_split(n, a.element_size(), ub_parts)
        tiling = ops_math_tiling(kdir, op, struct_name, {**t, **(extra(t) if extra else {})})
        expect = fn(a, b) if not dtype.is_floating_point else fn(a.double(), b.double())
        return Case(t["blockDim"], {a_name: a, b_name: b, out_name: torch.zeros(n, dtype=dtype), "workspace": None,
                                    "tiling": tiling}, {out_name: expect}, atol=1e-5)
    return make


def select_case(kdir: str, gen: torch.Generator) -> List[Case]:
    cases = []
    for n in (98_304, 100_000):  # every core's tail a multiple of 32 elements; the last core's tail is not
        cond = (torch.rand(n, generator=gen) > 0.5).to(torch.uint8)
        a, b = rand(gen, n), rand(gen, n)
        t = blocked_split(n, 4, 8)  # host: UB_DATA_NUM_OTHER for 4-byte self
        cases.append(Case(t["blockDim"], {"condition": cond, "self": a, "other": b, "out": torch.zeros(n),
                                          "workspace": None,
                                          "tiling": ops_math_tiling(kdir, "select_v2", "SelectV2TilingData", t)},
                          {"out": torch.where(cond.bool(), a, b).double()}, label=f"n={n}"))
    return cases


def nan_to_num_case(kdir: str, gen: torch.Generator) -> Case:
    n = 65_536
    x = rand(gen, n, -10, 10)
    x[::7] = float("nan")
    x[1::11] = float("inf")
    x[2::13] = float("-inf")
    t = blocked_split(n, 4, 5)  # UB_NUM_OTHER
    values = {**t, "nan": 0.5, "posinf": 100.0, "neginf": -100.0}
    return Case(t["blockDim"], {"x": x, "y": torch.zeros(n), "workspace": None,
                                "tiling": ops_math_tiling(kdir, "nan_to_num", "NanToNumTilingData", values)},
                {"y": torch.nan_to_num(x.double(), nan=0.5, posinf=100.0, neginf=-100.0)})


def reduce_case(op: str, struct_name: str, combine: str):
    def make(kdir: str, gen: torch.Generator) -> Case:
        rows, cols = 48, 40
        n = rows * cols
        x = rand(gen, n, -2, 2)
        t = blocked_split(n, 4, 2 * 6)  # ubSize / BUFFER_NUM / blockSize / UB_DATA_NUMBER_32
        values = {**t, "dataTypeId": 0, "rows": rows, "cols": cols, "axes": 1, "keepdims": 0}
        ref = x.double().view(rows, cols)
        ref = ref.sum(1) if combine == "sum" else ref.amax(1)
        workspace = torch.zeros(rows * 16)  # rows * SLOT_STRIDE floats
        return Case(t["blockDim"], {"x": x, "z": torch.zeros(rows), "workspace": workspace,
                                    "tiling": ops_math_tiling(kdir, op, struct_name, values)}, {"z": ref}, atol=1e-5)
    return make


def dot_case(kdir: str, gen: torch.Generator) -> Case:
    n = 40_000
    x, y = rand(gen, n), rand(gen, n)
    t = blocked_split(n, 4, 2 * 5)  # ubSize / BLOCK_SIZE / BUFFER_NUM / 5 for 4-byte inputs
    values = {**t, "workGmSize": 8}  # BLOCK_SIZE / typeLength
    return Case(t["blockDim"], {"x": x, "y": y, "z": torch.zeros(1), "workspace": torch.zeros(64),
                                "tiling": ops_math_tiling(kdir, "dot_v2", "DotV2TilingData", values)},
                {"z": (x.double() * y.double()).sum().reshape(1)}, rtol=1e-4, atol=1e-4)


def kl_div_case(kdir: str, gen: torch.Generator) -> Case:
    # reduction "none" (mode 0), log_target false: y = target * (log(target) - x), split by elements.
    n = 30_000
    x, target = rand(gen, n, -2, 0), rand(gen, n, 0.05, 1)
    tile = ((UB_BYTES // 32 // 2) // 6) * 32 // 4  # ubSize / blockSize / BUFFER_NUM / UB_BLOCK_FACTOR_FP32
    cores = min(CORE_NUM, n)
    base, tail = divmod(n, cores)
    values = {"tileDataNum": tile, "tailBlockNum": tail, "reduction": 0, "logTarget": 0, "cof": 1.0}
    for kind, data in (("small", base), ("big", base + 1)):
        tiles = (data + tile - 1) // tile
        values[f"{kind}CoreDataNum"] = data
        values[f"final{kind.capitalize()}TileNum"] = max(tiles, 1)
        values[f"{kind}TailDataNum"] = (data - tile * (tiles - 1)) or tile
    return Case(cores, {"x": x, "target": target, "y": torch.zeros(n), "workspace": torch.zeros(64),
                        "tiling": ops_math_tiling(kdir, "kl_div_v2", "KLDivV2TilingData", values)},
                {"y": target.double() * (target.double().log() - x.double())}, rtol=1e-4, atol=1e-5)




def devkit_add_case(struct_fmt: str, values: tuple, n: int, block_dim: int, dtype=torch.float32):
    def make(kdir: str, gen: torch.Generator) -> Case:
        x, y = rand(gen, n, dtype=dtype), rand(gen, n, dtype=dtype)
        return Case(block_dim, {"x": x, "y": y, "z": torch.zeros(n, dtype=dtype), "workspace": None,
                                "tiling": struct.pack(struct_fmt, *values)}, {"z": x.double() + y.double()},
                    rtol=1e-3 if dtype == torch.float16 else 1e-6)
    return make


def leaky_relu_case(kdir: str, gen: torch.Generator) -> Case:
    n, block_dim, tiles, alpha = 8 * 2048, 8, 16, 0.1  # TILE_NUM of the host tiling
    x = rand(gen, n, -5, 5)
    return Case(block_dim, {"x": x, "y": torch.zeros(n), "workspace": None,
                            "tiling": struct.pack("<IIf", n, tiles, alpha)},
                {"y": torch.nn.functional.leaky_relu(x.double(), alpha)})


def log_softmax_case(kdir: str, gen: torch.Generator) -> List[Case]:
    # softmax over the last axis of [rows, cols]: the host tiling folds it to dims 2, axis 1 and launches
    # min(rows * CORE_NUM_MIN_FACTOR (2), coreNum) cores; each takes a contiguous range of rows.
    cases = []
    for rows, cols in ((64, 1024), (64, 1000)):
        x = rand(gen, rows * cols, -4, 4)
        tiling = struct.pack("<10Q", 1, 2, rows, cols, 1, 1, 1, 1, 1, 1)
        cases.append(Case(min(2 * rows, CORE_NUM), {"input": x, "out": torch.zeros(rows * cols), "workspace": None,
                                                    "tiling": tiling},
                          {"out": torch.log_softmax(x.double().view(rows, cols), 1).reshape(-1)}, rtol=1e-4,
                          atol=1e-5, label=f"{rows}x{cols}"))
    return cases


F32 = "#define DTYPE_X float\n#define DTYPE_Y float\n#define DTYPE_Z float\n"
DEVKIT = "examples/01_simd_cpp_api/02_features/99_acl_based/00_acl_compilation/custom_op/op_kernel"

KERNELS: List[Kernel] = [
    Kernel("devkit_add", "mirror-cann/asc-devkit", f"{DEVKIT}/add_custom/add_custom_kernel.cpp", "add_custom",
           "LocalMemAllocator, SetFlag/WaitFlag, 8 cores", devkit_add_case("<II", (8 * 2048, 8), 8 * 2048, 8),
           build=F32),
    Kernel("devkit_leaky_relu", "mirror-cann/asc-devkit", f"{DEVKIT}/leaky_relu_custom/leaky_relu_custom_kernel.cpp",
           "leaky_relu_custom", "Maxs/Mins/Muls/Add, TQue double buffering, ascendc_assert", leaky_relu_case,
           build=F32),
    Kernel("devkit_add_template", "mirror-cann/asc-devkit", f"{DEVKIT}/add_custom_template/add_custom_template.cpp",
           "add_custom_template", "tiling-key template (ASCENDC_TPL_*), printf, LocalMemAllocator",
           devkit_add_case("<I", (8 * 2048,), 8 * 2048, 8), template="float, float, float, 8, 1"),
    Kernel("devkit_add_template_single", "mirror-cann/asc-devkit",
           f"{DEVKIT}/add_custom_template/add_custom_template.cpp", "add_custom_template",
           "the same, TILE_NUM 1 / IS_SPLIT 0 (one tile, no loop)", devkit_add_case("<I", (2048,), 2048, 1),
           template="float, float, float, 1, 0"),
    Kernel("devkit_add_tiling_sink", "mirror-cann/asc-devkit",
           f"{DEVKIT}/add_custom_tiling_sink/add_custom_tiling_sink_kernel.cpp", "add_custom_tiling_sink",
           "KERNEL_TASK_TYPE_DEFAULT, template tile length, conditional flag pairs",
           devkit_add_case("<II", (8 * 64, 8), 8 * 64, 8), build=F32),
    Kernel("sqrt", "hicann/ops-math", OPS_MATH.format(op="sqrt"), "sqrt", "Sqrt, TBuf, double buffering, 8 cores",
           unary_case("sqrt", "SqrtTilingData", 4, torch.sqrt, 0.0, 100.0), template="0", build=F32),
    Kernel("tanh_grad", "hicann/ops-math", OPS_MATH.format(op="tanh_grad"), "tanh_grad", "Mul/Muls/Adds, TBuf",
           binary_case("tanh_grad", "TanhGradTilingData", 10, ("y", "dy", "dx"), lambda y, dy: dy * (1 - y * y)),
           template="0", build=F32),
    Kernel("floor", "hicann/ops-math", OPS_MATH.format(op="floor"), "floor", "Floor, DataCopyPad (512-byte split)",
           unary_case("floor", "FloorTilingData", 4, torch.floor, -50.0, 50.0, block=512), template="0", build=F32),
    Kernel("sign", "hicann/ops-math", OPS_MATH.format(op="sign"), "sign", "Sign, Maxs/Mins, TBuf",
           unary_case("sign", "SignTilingData", 5, torch.sign), template="0", build=F32),
    Kernel("select_v2", "hicann/ops-math", OPS_MATH.format(op="select_v2"), "select_v2",
           "Cast u8->half, CompareScalar, Select (tensor-tensor)", select_case, template="0",
           build="#define DTYPE_SELF float\n#define DTYPE_OUT float\n"),
    Kernel("nan_to_num", "hicann/ops-math", OPS_MATH.format(op="nan_to_num"), "nan_to_num",
           "Compare, Select, Duplicate", nan_to_num_case, template="0", build=F32),
    Kernel("axpy_v3", "hicann/ops-math", OPS_MATH.format(op="axpy_v3"), "axpy_v3", "Muls/Add, struct with float",
           binary_case("axpy_v3", "AxpyV3TilingData", 6, ("x", "y", "z"), lambda x, y: x * 0.75 + y,
                       extra=lambda t: {"a": 0.75}), template="0", build=F32),
    Kernel("mul_v2", "hicann/ops-math", OPS_MATH.format(op="mul_v2"), "mul_v2", "Mul",
           binary_case("mul_v2", "MulV2TilingData", 6, ("x", "y", "z"), lambda x, y: x * y), template="0",
           build="#define DTYPE_X1 float\n"),
    Kernel("bitwise_and", "hicann/ops-math", OPS_MATH.format(op="bitwise_and"), "bitwise_and",
           "And on int32 data as int16 pairs",
           binary_case("bitwise_and", "BitwiseAndTilingData", 6, ("x1", "x2", "y"), lambda a, b: a & b,
                       dtype=torch.int32, extra=lambda t: {"tmpTileDataNum": 2 * t["tileDataNum"],
                                                           "tmpSmallTailDataNum": 2 * t["smallTailDataNum"],
                                                           "tmpBigTailDataNum": 2 * t["bigTailDataNum"]}),
           template="0", build="#define DTYPE_X1 int32_t\n"),
    Kernel("reduce_sum_v2", "hicann/ops-math", OPS_MATH.format(op="reduce_sum_v2"), "reduce_sum_v2",
           "SetAtomicAdd to GM, InitGlobalMemory, SyncAll, Get/SetValue", reduce_case(
               "reduce_sum_v2", "ReduceSumV2TilingData", "sum"), template="0", build=F32),
    Kernel("reduce_max_v2", "hicann/ops-math", OPS_MATH.format(op="reduce_max_v2"), "reduce_max_v2",
           "SetAtomicMax to GM, InitGlobalMemory, SyncAll", reduce_case(
               "reduce_max_v2", "ReduceMaxV2TilingData", "max"), template="0", build=F32),
    Kernel("dot_v2", "hicann/ops-math", OPS_MATH.format(op="dot_v2"), "dot_v2",
           "Mul, ReduceSum, SetAtomicAdd, InitGlobalMemory, SyncAll", dot_case, template="0",
           build="#define DTYPE_X1 float\n"),
    Kernel("kl_div_v2", "hicann/ops-math", OPS_MATH.format(op="kl_div_v2"), "kl_div_v2",
           "Log (advanced API), Sub, Mul (reduction none)", kl_div_case, template="1"),
    Kernel("gelu", "hicann/ops-nn", "experimental/activation/gelu/op_kernel/gelu.cpp", "gelu",
           "Mul/Muls/Exp/Adds/Div, TBuf", unary_case(
               "gelu", "GeluTilingData", 12,
               lambda x: x / (1 + torch.exp(-1.595769122 * (x + 0.0455399241 * x ** 3)))),
           template="0", build=F32),
    Kernel("log_softmax_v2", "hicann/ops-nn", "experimental/activation/log_softmax_v2/op_kernel/log_softmax_v2.cpp",
           "log_softmax_v2", "row kernel: WholeReduceMax/Sum, BlockReduceSum, Exp, DataCopyPad", log_softmax_case,
           template="0", build="#define DTYPE_INPUT float\n"),
]


# ---- running one kernel --------------------------------------------------------------------------------------

def first_error(text: str) -> str:
    for line in text.splitlines():
        if "error" in line:
            return re.sub(r"^.*?(error: )", r"\1", line).strip()
    return text.strip().splitlines()[0] if text.strip() else ""


def entry_params(source: str, name: str) -> Optional[List[str]]:
    """Parameter names of the kernel entry `name` (a template or not) in a source file."""
    with open(source) as f:
        text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", f.read(), flags=re.S)
    m = re.search(r"(?:__global__\s+__aicore__|__aicore__\s+__global__)\s+void\s+%s\s*\(([^)]*)\)" % name, text)
    if not m:
        return None
    return [re.findall(r"\w+", p)[-1] for p in m.group(1).split(",") if p.strip() and p.strip() != "void"]


def wrapper_source(k: Kernel, source: str, params: List[str]) -> str:
    call = f"{k.entry}<{k.template}>" if k.template else k.entry
    args = ", ".join(params)
    return textwrap.dedent("""\
        // Generated by scripts/measure_public_kernels.py: what the op build adds around {path}.
        #include "kernel_operator.h"
        {build}
        #include "{source}"

        extern "C" __global__ __aicore__ void twin_entry({decl})
        {{
            {call}({args});
        }}
        """).format(path=k.path, build=k.build, source=source, decl=", ".join(f"GM_ADDR {p}" for p in params),
                    call=call, args=args)


def measure(k: Kernel, root: str, tmp: str, seed: int, defines: Dict[str, str]) -> dict:
    from ascend_ext import twin

    row = {"kernel": f"{k.repo} `{k.path}`", "features": k.features, "compiles": "", "runs": "", "matches": "",
           "error": ""}
    source = os.path.join(root, k.repo, k.path)
    if not os.path.exists(source):
        row["error"] = "source missing (check the repository out under --root)"
        return row
    params = entry_params(source, k.entry)
    if params is None:
        row["compiles"] = "no"
        row["error"] = f"no kernel entry '{k.entry}' found"
        return row
    unit = os.path.join(tmp, f"{k.name}.cpp")
    with open(unit, "w") as f:
        f.write(wrapper_source(k, source, params))
    try:
        lib = twin.compile_kernels([unit], include_dirs=[os.path.dirname(source)], defines=defines)
    except twin.KernelCompileError as e:
        row["compiles"] = "no"
        row["error"] = first_error(str(e))
        return row
    row["compiles"] = "yes"
    if k.make_case is None:
        row["error"] = "no run specified"
        return row
    gen = torch.Generator().manual_seed(seed)
    cases = k.make_case(os.path.dirname(source), gen)
    cases = cases if isinstance(cases, list) else [cases]
    details, failures, runs, matches = [], [], [], []
    for case in cases:
        where = f"{case.label}: " if case.label else ""
        if list(case.args) != params:
            raise ValueError(f"{k.name}: the case gives ({', '.join(case.args)}), the kernel takes "
                             f"({', '.join(params)})")
        try:
            lib.launch("twin_entry", case.block_dim, **case.args)
        except (twin.KernelRuleViolation, RuntimeError) as e:
            runs.append(False)
            message = str(e).strip().splitlines()[0].replace("ascend_ext twin: kernel 'twin_entry', ", "")
            details.append(where + re.sub(r" at 0x[0-9a-f]+", "", message))  # no addresses: runs compare
            failures.append(details[-1])
            continue
        runs.append(True)
        for name, expect in case.expect.items():
            got = case.args[name]
            if not got.dtype.is_floating_point:
                ok = torch.equal(got.to(expect.dtype), expect)
                details.append(f"{where}{name}: {'bit-equal' if ok else 'differs'}")
            else:
                g = got.double()
                bad = ~torch.isclose(g, expect, rtol=case.rtol, atol=case.atol, equal_nan=True)
                ok = not bool(bad.any())
                err = (g - expect).abs().nan_to_num(0.0).max().item() if g.numel() else 0.0
                details.append(f"{where}{name}: max |err| {err:.3g}" +
                               ("" if ok else f", {int(bad.sum())} of {g.numel()} off"))
            matches.append(ok)
            if not ok:
                failures.append(details[-1])
    row["runs"] = "yes" if all(runs) else ("no" if not any(runs) else "partly")
    row["matches"] = "-" if not matches else ("yes" if all(matches) and all(runs) else
                                              ("no" if not any(matches) else "partly"))
    row["detail"] = "; ".join(details)
    row["error"] = "; ".join(failures)
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", required=True, help="directory holding <owner>/<name> checkouts")
    parser.add_argument("--only", nargs="*", help="kernel names to run (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--list", action="store_true", help="list the kernels and exit")
    parser.add_argument("--define", action="append", default=[], metavar="NAME=VALUE",
                        help="an extra -D for every kernel, to look past a missing name (the kernels then no "
                             "longer compile unchanged; the table says so)")
    opts = parser.parse_args(argv)
    defines = dict(d.split("=", 1) if "=" in d else (d, None) for d in opts.define)
    if opts.list:
        for k in KERNELS:
            print(f"{k.name:28} {k.repo} {k.path}")
        return 0
    chosen = [k for k in KERNELS if not opts.only or k.name in opts.only]
    rows = []
    with tempfile.TemporaryDirectory(prefix="pubk_") as tmp:
        for k in chosen:
            row = measure(k, opts.root, tmp, opts.seed, defines)
            rows.append(row)
            print(f"{k.name}: compiles {row['compiles'] or '-'}, runs {row['runs'] or '-'}, "
                  f"matches {row['matches'] or '-'}: {row.get('detail') or row['error']}", file=sys.stderr)
    print("| kernel | API features | compiles | runs clean | matches | first error (or the largest error) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        err = (r["error"] or r.get("detail", "")).replace("|", "\\|")
        print(f"| {r['kernel']} | {r['features']} | {r['compiles'] or '-'} | {r['runs'] or '-'} | "
              f"{r['matches'] or '-'} | {err} |")
    passed = sum(r["matches"] == "yes" for r in rows)
    print(f"\n{passed} of {len(rows)} entries (a kernel, or one instantiation of a template kernel) compile, run "
          "clean and match the reference in every case"
          + (f" (with {' '.join('-D' + d for d in opts.define)})." if opts.define else "."))
    return 0


if __name__ == "__main__":
    sys.exit(main())

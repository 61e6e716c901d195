"""hicann/ops-math: experimental kernels (experimental/math/<op>/op_kernel/).

The first 13 entries (sqrt ... kl_div_v2) were chosen by hand. The rest is a random sample of the others, drawn
without looking at whether an op would pass (issue 20): the population is every op directory with an
op_kernel/*.cpp (148 at c41933244c), the 13 already measured are set aside, and
random.Random(SAMPLE_SEED).sample(sorted(rest), 30) with SAMPLE_SEED = 2026_11_24 draws 30 of the 135 left
(`drawn_ops`). Every drawn op is an entry, whether it passes or not (one per dtype measured); an op whose run is
not worked out here is compiled only and fails with "not measured: <reason>" (`unmeasured_sample` adds an
entry for any drawn op SAMPLE lacks). Each entry's tiling is its op_host tiling code re-expressed for the
shapes chosen (cited beside each), its reference computed independently in float64 (or exactly) from the op's
documented math, and its sizes include an unaligned tail."""
import dataclasses
import glob
import os
import random
from typing import Dict, List

import torch

from .common import (CORE_NUM, UB_BYTES, Case, Kernel, blocked_split, header_struct, pack_struct, rand, read_struct,
                     tol)

REPO = "hicann/ops-math"
F32 = "#define DTYPE_X float\n#define DTYPE_Y float\n#define DTYPE_Z float\n"


def ops_math_tiling(kdir: str, op: str, struct_name: str, values: Dict[str, object]) -> bytes:
    return pack_struct(read_struct(os.path.join(kdir, f"{op}_tiling_data.h"), struct_name), values)


OPS_MATH = "experimental/math/{op}/op_kernel/{op}.cpp"
# ops-math's build copies hicann/opbase's include/op_common/op_kernel into its kernels' common include directory
# (cmake/gen_ops_info.cmake, atvoss_src_copy), so that kernels include "op_kernel/platform_util.h".
OPBASE_KERNEL_INCLUDE = ("hicann/opbase", "aa3cd74b7f6d772acd64ff48292a7e65a9bc8142", "include/op_common")


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


def reduce_case(op: str, struct_name: str, combine: str, out: str = "z", shapes=None):
    if shapes:  # one case a (rows, cols)
        return lambda kdir, gen: [dataclasses.replace(reduce_case_of(op, struct_name, combine, out, s)(kdir, gen),
                                                      label=f"{s[0]}x{s[1]}") for s in shapes]
    return reduce_case_of(op, struct_name, combine, out)


def reduce_case_of(op: str, struct_name: str, combine: str, out: str = "z", shape=(48, 40)):
    def make(kdir: str, gen: torch.Generator) -> Case:
        rows, cols = shape
        n = rows * cols
        x = rand(gen, n, -2, 2)
        t = blocked_split(n, 4, 2 * 6)  # ubSize / BUFFER_NUM / blockSize / UB_DATA_NUMBER_32
        values = {**t, "dataTypeId": 0, "rows": rows, "cols": cols, "axes": 1, "keepdims": 0}
        ref = x.double().view(rows, cols)
        ref = {"sum": ref.sum(1), "max": ref.amax(1), "min": ref.amin(1), "mean": ref.mean(1)}[combine]
        workspace = torch.zeros(rows * 16)  # rows * SLOT_STRIDE floats
        return Case(t["blockDim"], {"x": x, out: torch.zeros(rows), "workspace": workspace,
                                    "tiling": ops_math_tiling(kdir, op, struct_name, values)}, {out: ref}, atol=1e-5)
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


# ---- the sample drawn for issue 20 (branch i22-opsmath): helpers shared by its entries ------------------------

CTYPE = {torch.float32: "float", torch.float16: "half", torch.bfloat16: "bfloat16_t", torch.int32: "int32_t",
         torch.int16: "int16_t", torch.int8: "int8_t", torch.uint8: "uint8_t", torch.int64: "int64_t",
         torch.bool: "bool"}
DT = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "i32": torch.int32, "i16": torch.int16,
      "i8": torch.int8, "u8": torch.uint8, "i64": torch.int64, "bool": torch.bool}


def dtypes(names, dtype) -> str:
    """The DTYPE_<NAME> macros the op build generates for the op definition's inputs and outputs."""
    return "".join(f"#define DTYPE_{n.upper()} {CTYPE[dtype]}\n" for n in names)


# blocked_split's fields under the names the "loop" family of host tilings gives them
_LOOP_NAMES = {"tileDataNum": "ubPartDataNum", "finalSmallTileNum": "smallCoreLoopNum",
               "finalBigTileNum": "bigCoreLoopNum", "smallTailDataNum": "smallCoreTailDataNum",
               "bigTailDataNum": "bigCoreTailDataNum"}


def loop_named(t: Dict[str, int]) -> Dict[str, int]:
    return {_LOOP_NAMES.get(k, k): v for k, v in t.items()}


def fresh(gen: torch.Generator, n: int, dtype, lo: float, hi: float) -> torch.Tensor:
    if dtype == torch.bool:
        return torch.rand(n, generator=gen) > 0.5
    if dtype.is_floating_point:
        return rand(gen, n, lo, hi, dtype)
    return torch.randint(int(lo), int(hi) + 1, (n,), generator=gen, dtype=torch.int64).to(dtype)


def elementwise(op: str, struct_name: str, inputs, out: str, fn, dtype=torch.float32, sizes=(150_016, 150_001),
                split=None, key=None, extra=None, tolerance=None, workspace=None, out_dtype=None):
    """Cases of an elementwise op over fresh random inputs (name, lo, hi) of `dtype`, one per size (a whole
    number of blocks per core, and an unaligned tail): `split(n, elem_bytes)` is the op's host split (its field
    names), `key(t)` the tiling key it sets, `extra(t)` its other fields; the reference is `fn` of the inputs
    in float64 (floating point) or exactly (integers)."""
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        for n in sizes:
            xs = {name: fresh(gen, n, dtype, lo, hi) for name, lo, hi in inputs}
            t = split(n, torch.empty(0, dtype=dtype).element_size())
            values = {**t, **(extra(t) if extra else {})}
            tiling = ops_math_tiling(kdir, op, struct_name, values)
            ref_in = [x.double() if dtype.is_floating_point else x.long() for x in xs.values()]
            odt = out_dtype or dtype
            rtol, atol = tolerance or tol(odt)
            args = {**xs, out: torch.zeros(n, dtype=odt), "workspace": workspace, "tiling": tiling}
            cases.append(Case(t["blockDim"], args, {out: fn(*ref_in)}, rtol=rtol, atol=atol, label=f"n={n}",
                              tiling_key=key(t) if key else 0))
        return cases
    return make


def sample_entry(op: str, suffix: str, features: str, make, template="0", build="", source="", **kw) -> Kernel:
    path = f"experimental/math/{op}/op_kernel/{source}" if source else OPS_MATH.format(op=op)
    return Kernel(op + suffix, REPO, path, op, features, make, template=template, build=build, **kw)


KERNELS: List[Kernel] = [
    Kernel("sqrt", REPO, OPS_MATH.format(op="sqrt"), "sqrt", "Sqrt, TBuf, double buffering, 8 cores",
           unary_case("sqrt", "SqrtTilingData", 4, torch.sqrt, 0.0, 100.0), template="0", build=F32),
    Kernel("tanh_grad", REPO, OPS_MATH.format(op="tanh_grad"), "tanh_grad", "Mul/Muls/Adds, TBuf",
           binary_case("tanh_grad", "TanhGradTilingData", 10, ("y", "dy", "dx"), lambda y, dy: dy * (1 - y * y)),
           template="0", build=F32),
    Kernel("floor", REPO, OPS_MATH.format(op="floor"), "floor", "Floor, DataCopyPad (512-byte split)",
           unary_case("floor", "FloorTilingData", 4, torch.floor, -50.0, 50.0, block=512), template="0", build=F32),
    Kernel("sign", REPO, OPS_MATH.format(op="sign"), "sign", "Sign, Maxs/Mins, TBuf",
           unary_case("sign", "SignTilingData", 5, torch.sign), template="0", build=F32),
    Kernel("select_v2", REPO, OPS_MATH.format(op="select_v2"), "select_v2",
           "Cast u8->half, CompareScalar, Select (tensor-tensor)", select_case, template="0",
           build="#define DTYPE_SELF float\n#define DTYPE_OUT float\n"),
    Kernel("nan_to_num", REPO, OPS_MATH.format(op="nan_to_num"), "nan_to_num",
           "Compare, Select, Duplicate", nan_to_num_case, template="0", build=F32),
    Kernel("axpy_v3", REPO, OPS_MATH.format(op="axpy_v3"), "axpy_v3", "Muls/Add, struct with float",
           binary_case("axpy_v3", "AxpyV3TilingData", 6, ("x", "y", "z"), lambda x, y: x * 0.75 + y,
                       extra=lambda t: {"a": 0.75}), template="0", build=F32),
    Kernel("mul_v2", REPO, OPS_MATH.format(op="mul_v2"), "mul_v2", "Mul",
           binary_case("mul_v2", "MulV2TilingData", 6, ("x", "y", "z"), lambda x, y: x * y), template="0",
           build="#define DTYPE_X1 float\n"),
    Kernel("bitwise_and", REPO, OPS_MATH.format(op="bitwise_and"), "bitwise_and",
           "And on int32 data as int16 pairs",
           binary_case("bitwise_and", "BitwiseAndTilingData", 6, ("x1", "x2", "y"), lambda a, b: a & b,
                       dtype=torch.int32, extra=lambda t: {"tmpTileDataNum": 2 * t["tileDataNum"],
                                                           "tmpSmallTailDataNum": 2 * t["smallTailDataNum"],
                                                           "tmpBigTailDataNum": 2 * t["bigTailDataNum"]}),
           template="0", build="#define DTYPE_X1 int32_t\n"),
    Kernel("reduce_sum_v2", REPO, OPS_MATH.format(op="reduce_sum_v2"), "reduce_sum_v2",
           "SetAtomicAdd to GM, InitGlobalMemory, SyncAll, Get/SetValue", reduce_case(
               "reduce_sum_v2", "ReduceSumV2TilingData", "sum"), template="0", build=F32),
    Kernel("reduce_max_v2", REPO, OPS_MATH.format(op="reduce_max_v2"), "reduce_max_v2",
           "SetAtomicMax to GM, InitGlobalMemory, SyncAll", reduce_case(
               "reduce_max_v2", "ReduceMaxV2TilingData", "max"), template="0", build=F32),
    Kernel("dot_v2", REPO, OPS_MATH.format(op="dot_v2"), "dot_v2",
           "Mul, ReduceSum, SetAtomicAdd, InitGlobalMemory, SyncAll", dot_case, template="0",
           build="#define DTYPE_X1 float\n"),
    Kernel("kl_div_v2", REPO, OPS_MATH.format(op="kl_div_v2"), "kl_div_v2",
           "Log (advanced API), Sub, Mul (reduction none)", kl_div_case, template="1"),
]


def keyed(split, key_of):
    """A split whose tiling key is `key_of(t)`, checked against the entry's template argument: the sizes of an
    entry must all select the instantiation the entry compiles."""
    def check(template: int):
        def s(n, b):
            t = split(n, b)
            if key_of(t) != template:
                raise ValueError(f"n={n}: the host tiling selects key {key_of(t)}, the entry instantiates {template}")
            return t
        return s
    return check


def log_entry(suffix: str, dtype, sizes):
    # ubPartNum 2 (3 for bfloat16) with double buffering; key 1 when some cores take one block more
    parts = 2 * (3 if dtype == torch.bfloat16 else 2)
    split = keyed(lambda n, b: loop_named(blocked_split(n, b, parts)), lambda t: int(t["tailBlockNum"] != 0))(1)
    base, scale, shift = 2.0, 0.5, 0.25  # attrs; the host stores 1 / ln(base)
    import math
    return sample_entry(
        "log", suffix, "Muls/Adds/Log (Cast for bf16), attrs base/scale/shift", elementwise(
            "log", "LogTilingData", [("x", 0.01, 20.0)], "y", lambda x: torch.log2(x * scale + shift), dtype, sizes,
            split, extra=lambda t: {"base": 1.0 / math.log(base), "scale": scale, "shift": shift}),
        template="1", build=dtypes(("x", "y"), dtype))


def add_v2_split(n: int, b: int) -> Dict[str, int]:
    # ubDataNumber 3 (5 for 1-byte types), double buffering; the cores are min(coreNum, blocks) whatever the tile
    t = blocked_split(n, b, 2 * (5 if b == 1 else 3))
    if t["blockDim"] == 1 and n * b > 32:
        raise ValueError("add_v2: choose n above one tile (its host spreads even one tile over the cores)")
    return t


def div_v2_split(n: int, b: int) -> Dict[str, int]:
    # ubDataNumber 5 (7 for 1-byte types), double buffering; one core when n <= ubSize / bytes / 2
    t = blocked_split(n, b, 2 * (7 if b == 1 else 5))
    if (n <= UB_BYTES // b // 2) != (t["blockDim"] == 1):
        raise ValueError("div_v2: choose n above ubSize / bytes / 2 (its one-core rule differs from the tile's)")
    return t


def addcmul_case(dtype, scalar_value: bool):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        parts = 2 * (6 if dtype == torch.bfloat16 else 4)  # ubDataNumber with double buffering
        for n in (150_016, 150_001):
            inp, x1, x2 = (fresh(gen, n, dtype, -3, 3) for _ in range(3))
            value = fresh(gen, 1 if scalar_value else n, dtype, -2, 2)
            t = blocked_split(n, inp.element_size(), parts)
            ref = inp.double() + value.double() * x1.double() * x2.double()
            rtol, atol = tol(dtype)
            cases.append(Case(t["blockDim"], {"input_data": inp, "x1": x1, "x2": x2, "value": value,
                                              "y": torch.zeros(n, dtype=dtype), "workspace": None,
                                              "tiling": ops_math_tiling(kdir, "addcmul", "AddcmulTilingData", t)},
                              {"y": ref}, rtol=rtol, atol=max(atol, 1e-5), label=f"n={n}",
                              tiling_key=0 if scalar_value else 1))
        return cases
    return make


def cosh_v2_case(dtype):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        for n in (150_016, 150_001):
            x = fresh(gen, n, dtype, -5, 5)
            block_factor = -(-n // CORE_NUM)
            cores = -(-n // block_factor)
            double = n > 1024  # MIN_SPLIT_THRESHOLD
            buffers = (8 if double else 4) if dtype == torch.float32 else (10 if double else 5)
            ub_factor = (UB_BYTES // 4 // buffers) // 32 * 32  # FloorAlign(ubSize / 4 / bufferNum, ubBlockSize)
            values = {"totalNum": n, "blockFactor": block_factor, "ubFactor": ub_factor}
            rtol, atol = tol(dtype)
            cases.append(Case(cores, {"self": x, "out": torch.zeros(n, dtype=dtype), "workspace": None,
                                      "tiling": ops_math_tiling(kdir, "cosh_v2", "CoshV2TilingData", values)},
                              {"out": torch.cosh(x.double())}, rtol=rtol, atol=atol, label=f"n={n}"))
        return cases
    return make


def bitwise_not_case(dtype):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        elem = torch.empty(0, dtype=dtype).element_size()
        for n in (150_016, 150_001):
            lo, hi = (0, 1) if dtype == torch.bool else (torch.iinfo(dtype).min, torch.iinfo(dtype).max)
            x = fresh(gen, n, dtype, lo, hi)
            t = loop_named(blocked_split(n, elem, 2 * 3))  # ubPartNum 3, double buffering
            aligned = -(-n * elem // 32) * 32 // elem
            values = {**t, "isBool": int(dtype == torch.bool), "lastCoreId": t["blockDim"] - 1,
                      "lastCoreTailDataNum": t["smallCoreTailDataNum"] - (aligned - n)}
            cases.append(Case(t["blockDim"], {"x": x, "y": torch.zeros(n, dtype=dtype), "workspace": None,
                                              "tiling": ops_math_tiling(kdir, "bitwise_not", "BitwiseNotTilingData",
                                                                        values)},
                              {"y": ~x}, label=f"n={n}", tiling_key=int(t["tailBlockNum"] != 0)))
        return cases
    return make


def ones_like_case(dtype):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        elem = torch.empty(0, dtype=dtype).element_size()
        for n in (150_016, 150_001, 3_001):
            x = fresh(gen, n, dtype, -5, 5)
            blocks = CORE_NUM
            if n * elem < 4096 * CORE_NUM:  # MIN_CHUNK_SIZE
                blocks = (n * elem + 4095) // 4096
            max_tile = UB_BYTES // elem // 2  # UB_USAGE_DIV
            size = n // blocks
            v = {"formerNum": n % blocks or blocks}
            v["tailNum"] = blocks - v["formerNum"]
            v["tailLength"] = size
            v["formerLength"] = size + (1 if v["tailNum"] else 0)
            for k in ("former", "tail"):
                length = v[f"{k}Length"]
                v[f"{k}TileLength"] = min(max_tile, length)
                v[f"{k}TileNum"] = -(-length // v[f"{k}TileLength"]) if length else 0
                v[f"{k}LastTileLength"] = length - (v[f"{k}TileNum"] - 1) * v[f"{k}TileLength"] if length else 0
            cases.append(Case(blocks, {"x": x, "y": torch.zeros(n, dtype=dtype), "workspace": None,
                                       "tiling": ops_math_tiling(kdir, "ones_like", "OnesLikeTilingData", v)},
                              {"y": torch.ones(n, dtype=torch.float64)}, label=f"n={n}"))
        return cases
    return make


def away_from_integers(gen: torch.Generator, n: int, dtype, lo: float, hi: float):
    """(a, b) with b of either sign in [0.5, 3] and a / b = k + f, f in [0.1, 0.9]: quotients far from integers,
    so that rounding the quotient to float32 cannot move its floor or truncation."""
    b = rand(gen, n, 0.5, 3.0, torch.float64) * torch.where(torch.rand(n, generator=gen) > 0.5, 1.0, -1.0)
    k = torch.randint(int(lo), int(hi), (n,), generator=gen).double()
    f = rand(gen, n, 0.1, 0.9, torch.float64)
    return (b * (k + f)).to(dtype), b.to(dtype)


def floor_mod_case(dtype, code: int):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        divider = {torch.float32: 50, torch.float16: 46, torch.bfloat16: 46}[dtype]  # UB_DIVIDER_*
        for n in (150_016, 150_001):
            a, b = away_from_integers(gen, n, dtype, -20, 20)
            cores = min(max(-(-n // 1024), 1), CORE_NUM)  # MINIMUM_ELEMENT_PER_CORE
            usable = (UB_BYTES - 1024 - 40) // divider // 64 * 64  # RESERVED_UB_SIZE, sizeof(FloorModTilingData)
            per = n // cores // 64 * 64  # DATA_BLOCK
            rest = n - per * cores
            values = {"usableUbSize": usable, "needCoreNum": cores, "totalDataCount": n, "perCoreDataCount": per,
                      "tailDataCoreNum": rest // 64, "lastCoreDataCount": per + rest % 64}
            rtol, atol = tol(dtype)
            cases.append(Case(cores, {"x1": a, "x2": b, "y": torch.zeros(n, dtype=dtype), "workspace": torch.zeros(8),
                                      "tiling": ops_math_tiling(kdir, "floor_mod", "FloorModTilingData", values)},
                              {"y": torch.remainder(a.double(), b.double())}, rtol=rtol, atol=max(atol, 1e-5),
                              label=f"n={n}"))
        return cases
    return make


def truncate_div_case(dtype):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        elem = torch.empty(0, dtype=dtype).element_size()
        for n in (150_016, 150_001):
            a, b = away_from_integers(gen, n, dtype, -20, 20)
            cores = min(max(-(-n // 1024), 1), CORE_NUM)  # MIN_ELEMS_PER_CORE
            core_len = -(-(-(-n // cores)) // 64) * 64  # AlignUp(CeilDiv(n, cores), VEC_ALIGN)
            cores = -(-n // core_len)
            per_elem = 3 * elem + 3 * 4 + 2
            tile = min((UB_BYTES - 8192) // per_elem // 64 * 64, core_len)  # UB_RESERVE
            values = {"coreNum": cores, "totalLength": n, "coreLength": core_len, "tileLength": tile}
            cases.append(Case(cores, {"x1": a, "x2": b, "y": torch.zeros(n, dtype=dtype), "workspace": None,
                                      "tiling": ops_math_tiling(kdir, "truncate_div", "TruncateDivTilingData", values)},
                              {"y": torch.trunc(a.double() / b.double())}, label=f"n={n}"))
        return cases
    return make


def polar_case(kdir: str, gen: torch.Generator) -> List[Case]:
    from .asc_devkit_examples import host_value

    tmp = host_value("uint32_t mx = 0, mn = 0; AscendC::GetCosMaxMinTmpSize(ge::Shape({2048}), 4, false, mx, mn); "
                     "return mx;")  # POLAR_TILE_LEN floats
    cases = []
    for n, an in ((150_016, 150_016), (150_001, 150_001), (4096 * 10, 4096)):
        absv, angle = rand(gen, n, 0, 3), rand(gen, an, -6.3, 6.3)
        bcast = int(an < n and n % an == 0 and an <= 2048 and an % 8 == 0)
        want = (n // an) if bcast else n // 2048  # MIN_PER_CORE
        cores = min(CORE_NUM, max(want, 1))
        if cores > 2 and cores % 2:
            cores -= 1
        if not bcast and cores > n:
            cores = n
        unit = an if bcast else 1
        per, rem = divmod(n // unit, cores)
        values = {"totalLen": n, "tileLen": 2048, "bigCoreNum": rem, "bigCoreLen": (per + 1) * unit,
                  "smallCoreLen": per * unit, "coreNum": cores, "tmpBufferSize": tmp, "inN": n, "anN": an,
                  "bcastMode": bcast}
        full = angle.double().repeat(n // an)
        ref = torch.stack((absv.double() * torch.cos(full), absv.double() * torch.sin(full)), 1).reshape(-1)
        cases.append(Case(cores, {"input": absv, "angle": angle, "out": torch.zeros(2 * n), "workspace": None,
                                  "tiling": ops_math_tiling(kdir, "polar", "PolarTilingData", values)},
                          {"out": ref}, rtol=1e-5, atol=1e-5, label=f"n={n}, angle {an}"))
    return cases


def real_v2_case(is_complex: bool):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        for n in (150_016, 150_001):
            x = rand(gen, 2 * n if is_complex else n, -5, 5)  # complex64: (real, imaginary) pairs
            block_factor = -(-(-(-n // CORE_NUM)) // 32) * 32  # CeilAlign(CeilDiv(n, coreNum), ubBlockSize)
            if is_complex:  # 3 * typeSize + 4 bytes an element, one copy at most MAX_COPY_BYTES
                ub_factor = min((UB_BYTES // 16) // 32 * 32, (65504 // 8) // 32 * 32)
            else:
                ub_factor = (UB_BYTES // 4) // 32 * 32
            values = {"totalOutputNum": n, "blockFactor": block_factor, "ubFactor": ub_factor}
            ref = x.double().view(n, 2)[:, 0] if is_complex else x.double()
            cases.append(Case(-(-n // block_factor), {"self": x, "out": torch.zeros(n), "workspace": None,
                                                      "tiling": ops_math_tiling(kdir, "real_v2", "RealV2TilingData",
                                                                                values)},
                              {"out": ref}, label=f"n={n}"))
        return cases
    return make


def complex_v2_case(kdir: str, gen: torch.Generator) -> List[Case]:
    cases = []
    for n in (150_016, 150_001):
        re, im = rand(gen, n, -5, 5), rand(gen, n, -5, 5)
        t = add_v2_split(n, 4)  # the same split (ubDataNumber 3, cores min(coreNum, blocks))
        cases.append(Case(t["blockDim"], {"x": re, "y": im, "z": torch.zeros(2 * n), "workspace": None,
                                          "tiling": ops_math_tiling(kdir, "complex_v2", "ComplexV2TilingData", t)},
                          {"z": torch.stack((re.double(), im.double()), 1).reshape(-1)}, label=f"n={n}"))
    return cases


def log_add_exp_case(dtype):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        for n in (150_016, 150_001):
            x, y = fresh(gen, n, dtype, -20, 20), fresh(gen, n, dtype, -20, 20)
            half_like = dtype != torch.float32
            align = 16 if half_like else 8
            ub_factor = (UB_BYTES // 4 // (10 if half_like else 8)) // align * align  # BUFFER_NUM_FP16 / _FP32
            block_factor = -(-n // CORE_NUM)
            values = {"totalLength": n, "blockFactor": block_factor, "ubFactor": ub_factor, "needBroadcast": 0,
                      "dimNum": 1, "expandSrcIsX": 1}
            rtol, atol = tol(dtype)
            cases.append(Case(-(-n // block_factor), {"x": x, "y": y, "out": torch.zeros(n, dtype=dtype),
                                                      "workspace": None,
                                                      "tiling": ops_math_tiling(kdir, "log_add_exp",
                                                                                "LogAddExpTilingData", values)},
                              {"out": torch.logaddexp(x.double(), y.double())}, rtol=rtol, atol=max(atol, 1e-5),
                              label=f"n={n}"))
        return cases
    return make


def _range_tiles(length: int, align: int):
    """TilingParamsCalc of the range host tiling: (tileNum, tileLength, lastTileLength)."""
    most = align * 100  # MAX_AVAILABLE_UB_BLOCK_NUM
    tiles = length // most
    if length % most == 0 or tiles == 0:
        if tiles == 0:
            tiles = -(-length // align)
        if length < most:
            blocks = -(-length // align)
            blocks = -(-blocks // 2) * 2  # BUFFER_NUM
            return tiles, blocks * align, length if tiles == 1 else (length % align or align)
        return tiles, most, length - (tiles - 1) * most
    return tiles + 1, most, length - tiles * most


def range_case(kdir: str, gen: torch.Generator) -> List[Case]:
    import math
    cases = []
    for start, end, step in ((-3.25, 2000.0, 0.5), (10.0, -1234.5, -0.75), (0.0, 37.0, 1.0), (5.0, 1029.0, 2.0)):
        start_t, end_t, step_t = (torch.tensor([v], dtype=torch.float32) for v in (start, end, step))
        n = int(math.ceil(float(abs(end_t - start_t) / abs(step_t))))
        aligned = -(-n // 8) * 8
        v = {"totalLength": n, "totalLengthAligned": aligned}  # dataType* = DT_FLOAT = 0
        blocks = aligned // 8
        if blocks % CORE_NUM == 0:
            length = aligned // CORE_NUM
            tiles, tile, last = _range_tiles(length, 8)
            v.update(blockLength=length, tileNum=tiles, tileLength=tile, lastTileLength=last, isEvenCore=1)
        else:
            former = blocks % CORE_NUM
            v.update(formerNum=former, tailNum=CORE_NUM - former, isEvenCore=0,
                     formerLength=-(-blocks // CORE_NUM) * 8, tailLength=blocks // CORE_NUM * 8)
            for k in ("former", "tail"):
                tiles, tile, last = _range_tiles(v[f"{k}Length"], 8)
                v.update({f"{k}TileNum": tiles, f"{k}TileLength": tile, f"{k}LastTileLength": last})
        ref = start + step * torch.arange(n, dtype=torch.float64)
        cases.append(Case(CORE_NUM, {"start": start_t, "end": end_t, "step": step_t, "z": torch.zeros(n),
                                     "workspace": None, "tiling": ops_math_tiling(kdir, "range", "RangeTilingData", v)},
                          {"z": ref}, atol=1e-4, label=f"{start}..{end} by {step}"))
    return cases


def sign_bits_pack_tiling(n: int, elem: int) -> Dict[str, int]:
    """CalcAndSetTilingData of the sign_bits_pack host tiling (512-byte GM blocks, tiles of at most 18 Ki
    elements, 36 Ki for 2-byte inputs, double buffering only above half a tile a core)."""
    per_gm = 512 // elem
    aligned = -(-n // per_gm) * per_gm
    tile = 18 * 1024 * (2 if elem == 2 else 1)
    cores = min(CORE_NUM, -(-aligned // (tile * 2)))
    need = -(-aligned // cores)
    if cores < CORE_NUM // 4 and need > 18 * 1024 // 4:
        cores *= 2
        need = -(-aligned // cores)
    buffers, used_db = (1, 0) if need < 18 * 1024 // 2 else (2, 1)
    need_tile = -(-(-(-need // buffers)) // per_gm) * per_gm
    tile = min(tile, need_tile)
    every, tail_blocks = divmod(aligned // per_gm, cores)
    small = every * per_gm
    small_tiles = -(-small // tile)
    big = small + per_gm
    big_tiles = -(-big // tile)
    small_tail = small - (small_tiles - 1) * tile
    last = small_tail - (aligned - n)
    per_repeat, per_ub = 256 // elem, 32 // elem
    return {"blockDim": cores, "smallCoreDataNum": small, "bigCoreDataNum": big, "finalBigTileNum": big_tiles,
            "finalSmallTileNum": small_tiles, "tileDataNum": tile, "smallTailDataNum": small_tail,
            "bigTailDataNum": big - (big_tiles - 1) * tile, "tailBlockNum": tail_blocks, "usedDb": used_db,
            "lastCopyLength": last, "rightPaddingElemNums": -(-last // per_ub) * per_ub - last,
            "lastCalcLength": -(-last // per_repeat) * per_repeat}


def packed_signs(x: torch.Tensor) -> torch.Tensor:
    """The sign bits (x >= 0) of x, 8 a byte, element i in bit i % 8 of byte i // 8, the last byte zero-padded."""
    bits = (x.double() >= 0).to(torch.uint8)
    bits = torch.cat((bits, torch.zeros((-len(bits)) % 8, dtype=torch.uint8)))
    return (bits.view(-1, 8).long() << torch.arange(8)).sum(1).to(torch.uint8)


def sign_bits_pack_case(dtype):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        for n in (150_016, 150_001, 4_000):
            x = fresh(gen, n, dtype, -1, 1)
            t = sign_bits_pack_tiling(n, x.element_size())
            # y as the op's infershape sizes it (n rounded up to 8 bytes); the packed bits are its first n / 8
            cases.append(Case(t["blockDim"], {"x": x, "y": torch.zeros(-(-n // 8) * 8, dtype=torch.uint8),
                                              "workspace": None,
                                              "tiling": ops_math_tiling(kdir, "sign_bits_pack",
                                                                        "SignBitsPackTilingData", t)},
                              {"y": (packed_signs(x), slice(0, -(-n // 8)))}, label=f"n={n}"))
        return cases
    return make


def sign_bits_unpack_case(dtype):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        out_bytes = torch.empty(0, dtype=dtype).element_size()
        for m in (18_752, 18_751, 500):  # packed bytes; 8 outputs each
            x = torch.randint(0, 256, (m,), generator=gen, dtype=torch.int64).to(torch.uint8)
            aligned = -(-m // 64) * 64  # BLOCK_SIZE 64
            keep = {2: 17, 4: 49}[out_bytes]  # the UB share the outputs (16 or 48 of every 17 or 49 bytes) take
            ub = UB_BYTES - -(-UB_BYTES // keep) * (keep - 1)
            parts, buffer_open = 2, 1  # UB_NUM
            if aligned < CORE_NUM * (ub // 64 * 64):
                parts, buffer_open = 1, 0
            if buffer_open:
                keep = {2: 34, 4: 82}[out_bytes]
                ub = UB_BYTES - -(-UB_BYTES // keep) * (keep - 2)
            t = blocked_split(m, 1, parts, block=64, ub=ub)
            values = {**t, "bufferOpen": buffer_open}
            bits = ((x.long().unsqueeze(1) >> torch.arange(8)) & 1).reshape(-1)
            cases.append(Case(t["blockDim"], {"self": x, "out": torch.zeros(8 * m, dtype=dtype), "workspace": None,
                                      "tiling": ops_math_tiling(kdir, "sign_bits_unpack", "SignBitsUnpackTilingData",
                                                                values)},
                              {"out": bits.double() * 2 - 1}, label=f"{m} bytes",
                              tiling_key=1 if out_bytes == 2 else 0))
        return cases
    return make


def accumulate_nv2_case(kdir: str, gen: torch.Generator) -> List[Case]:
    from .common import list_tensor

    cases = []
    for n, count in ((150_016, 3), (150_001, 2), (30_000, 4)):
        xs = [rand(gen, n, -3, 3) for _ in range(count)]
        cores = min(-(-n // 1024), CORE_NUM)  # TILE_SPLIT_NUM elements a core at least
        t = blocked_split(n, 4, 2, core_num=cores)  # float: 32-byte blocks, DATA_NUM_32B 2, one buffer
        if t["blockDim"] != cores:
            raise ValueError("accumulate_nv2: choose n above one tile (its host spreads even one tile)")
        values = {**t, "num": count}
        cases.append(Case(cores, {"x": list_tensor(xs), "y": torch.zeros(n), "workspace": None,
                                  "tiling": ops_math_tiling(kdir, "accumulate_nv2", "AccumulateNv2TilingData", values)},
                          {"y": sum(x.double() for x in xs)}, atol=1e-5, label=f"n={n}, N={count}",
                          tiling_key=int(count != 1)))
    return cases


def masked_scale_case(kdir: str, gen: torch.Generator) -> List[Case]:
    cases = []
    scale = 1.25
    for n in (150_016, 150_001):
        x, mask = rand(gen, n, -3, 3), (torch.rand(n, generator=gen) > 0.3).to(torch.uint8)
        gm_bytes = 4 + 1 + 4
        cores = min(CORE_NUM, max(1, -(-n * gm_bytes // 4096)))  # CORE_MIN_BYTES
        former = -(-(-(-n // cores)) // 512) * 512  # BLOCK_FORMER_ALIGN
        cores = min(cores, -(-n // former))
        former = -(-(-(-n // cores)) // 512) * 512
        blocks = -(-n // former)
        per_elem = 4 + 1 + 4 + 2 + 3 * 4
        ub_former = min((UB_BYTES - 32 * 1024) // per_elem // 64 * 64, former)  # UB_RESERVE_BYTES, 256 / 4
        values = {"dim0": n, "coreNum": cores, "blockFormer": former, "blockNum": blocks, "ubFormer": ub_former,
                  "selfDtype": 0, "maskDtype": 4, "branchKey": 1, "subCaseKey": 10, "scaleFloat": scale,
                  "bufferNum": 1}
        cases.append(Case(blocks, {"self": x, "mask": mask, "y": torch.zeros(n), "workspace": torch.zeros(64),
                                   "tiling": ops_math_tiling_at(kdir, "arch35/masked_scale_tiling_data.h",
                                                                "MaskedScaleTilingData", values)},
                          {"y": x.double() * mask.double() * scale}, label=f"n={n}", tiling_key=20))
    return cases


def ops_math_tiling_at(kdir: str, header: str, struct_name: str, values: Dict[str, object]) -> bytes:
    return pack_struct(read_struct(os.path.join(kdir, header), struct_name), values)


ARCH35_ONLY = "Ascend 950 (arch35) only: its op_def registers no ascend910b (A2) config"


def _lin_space_tiles(length: int, most: int, align: int):
    """TilingParamsCalc of the lin_space_d host tiling: (tileNum, lastTileLength)."""
    if length == 0:
        return 0, 0
    tiles = length // most
    if length % most == 0 or tiles == 0:
        if tiles == 0:
            tiles = -(-length // align)
        if length < most:
            return tiles, length if tiles == 1 else (length % align or align)
        return tiles, length - (tiles - 1) * most
    return tiles + 1, length - tiles * most


def lin_space_d_case(kdir: str, gen: torch.Generator) -> List[Case]:
    cases = []
    for num, rising in ((100_000, True), (100_000, False), (100_003, True), (37, True)):
        ends = sorted(rand(gen, 2, -50, 50).tolist(), reverse=not rising)
        start, end = (torch.tensor([v], dtype=torch.float32) for v in ends)
        align, most = 8, 8 * ((UB_BYTES // 32) // 20)  # 4-byte output, ubDataNumber 20
        blocks = -(-num // align)
        former = blocks % CORE_NUM
        v = {"totalLength": num, "formerNum": former, "tailLength": blocks // CORE_NUM * align}
        if former:
            v["formerLength"] = -(-blocks // CORE_NUM) * align
            v["formerTileNum"], v["formerLastTileLength"] = _lin_space_tiles(v["formerLength"], most, align)
        v["tailTileNum"], v["tailLastTileLength"] = _lin_space_tiles(v["tailLength"], most, align)
        s0, e0 = start.double().item(), end.double().item()
        ref = s0 + (e0 - s0) / (num - 1) * torch.arange(num, dtype=torch.float64)
        cases.append(Case(CORE_NUM, {"start": start, "end": end, "num": torch.tensor([num], dtype=torch.int64),
                                     "z": torch.zeros(num), "workspace": torch.zeros(64),
                                     "tiling": ops_math_tiling(kdir, "lin_space_d", "LinSpaceDTilingData", v)},
                          {"z": ref}, rtol=1e-5, atol=1e-4,
                          label=f"num={num}, {'rising' if rising else 'falling'}"))
    return cases


def sort_v2_case(kdir: str, gen: torch.Generator) -> List[Case]:
    cases = []
    for (h, w), descending in (((16, 1000), True), ((9, 256), False), ((5, 37), True)):
        x = rand(gen, (h, w), -100, 100)
        index = torch.arange(w, dtype=torch.int32).repeat(h, 1)  # each row's positions (uint32)
        axis, slice_len = 1, w
        cores = min(CORE_NUM, max(1, h))  # work spread over the dimension not sorted
        small_cores = cores - (slice_len % cores)
        align8 = -(-slice_len // 8) * 8
        values = {"smallCoreDataNum": slice_len // cores,
                  "bigCoreDataNum": slice_len // cores + (slice_len % cores > 0),
                  "smallCoreNum": small_cores, "bigCoreNum": cores - small_cores, "axis": axis, "dimH": h, "dimW": w,
                  "sliceLen": slice_len, "realSortLen": -(-slice_len // 32) * 32, "align8": align8,
                  "padLen": align8 - slice_len, "dupCount": 32 - align8 % 32, "startBlockIdx": cores,
                  "descending": descending}
        ref_y, ref_i = torch.sort(x.double(), dim=1, descending=descending, stable=True)
        cases.append(Case(cores, {"x": x, "index": index, "y": torch.zeros(h, w),
                                  "dstIndex": torch.zeros(h, w, dtype=torch.int32),
                                  "workspace": torch.zeros(256),
                                  "tiling": ops_math_tiling(kdir, "sort_v2", "SortV2TilingData", values)},
                          {"y": ref_y, "dstIndex": ref_i.to(torch.int32)}, label=f"{h}x{w}, "
                          + ("descending" if descending else "ascending")))
    return cases


def roll_case(kdir: str, gen: torch.Generator) -> List[Case]:
    """float32 rolls whose host tiling takes only its general path (the dtype- and size-specific alignment
    heuristics of roll_tiling.cpp apply to bfloat16, float16 and uint8, or to 16 MiB and larger inputs)."""
    cases = []
    # The last two roll rows inside UB through raw __ubuf__ pointers (CopyBlockRollByFlatPatch for rows of at most
    # 2 elements moved per segment; CopyRowsRollInUb when more than one dimension rolls, the last among them).
    for shape, shifts, dims in (((150_001,), (12_345,), ()), ((1_000,), (-7,), ()), ((300, 77), (5,), (1,)),
                                ((300, 77), (-13,), (0,)), ((4096, 3), (1,), (1,)), ((256, 48), (3, 5), (0, 1))):
        x = rand(gen, shape, -5, 5)
        n = x.numel()
        if not dims:  # flattened: one dimension of n elements
            shapes, strides, shift_of = [n], [1], [shifts[0] % n]
        else:
            shapes = list(shape)
            strides = [1] * len(shapes)
            for i in range(len(shapes) - 2, -1, -1):
                strides[i] = strides[i + 1] * shapes[i + 1]
            shift_of = [0] * len(shapes)
            for sh, d in zip(shifts, dims):
                shift_of[d] = (shift_of[d] + sh % shapes[d]) % shapes[d]
        active = [d for d, sh in enumerate(shift_of) if sh]
        v = {"totalNum": n, "dimNum": len(shapes), "activeDimCount": len(active), "activeDim": active[-1],
             "shapes": shapes, "strides": strides, "shifts": shift_of}
        if len(active) == 1:
            d = active[0]
            v.update(innerSize=strides[d], dimSize=shapes[d], outerSize=n // (shapes[d] * strides[d]),
                     activeShift=shift_of[d])
        align = 8  # a 32-byte block of floats
        if len(shapes) > 1 and active[-1] == len(shapes) - 1:
            align = max(align, shapes[-1])
        per = -(-(-(-n // CORE_NUM)) // align) * align
        cores = -(-n // per)
        if n * 4 <= 4096:
            cores, per = 1, n
        v.update(usedCoreNum=cores, perCoreElements=per, lastCoreElements=n - (cores - 1) * per,
                 ubElements=64 * 1024 // 4, blockFactor=per, ubFactor=64 * 1024 // 4)
        ref = torch.roll(x.double(), shifts, dims) if dims else torch.roll(x.double().reshape(-1), shifts[0])
        cases.append(Case(cores, {"x": x, "y": torch.zeros(shape), "workspace": None,
                                  "tiling": ops_math_tiling(kdir, "roll", "RollTilingData", v)},
                          {"y": ref.reshape(shape)}, label=f"{shape} by {shifts} over {dims or 'all'}"))
    return cases


def asin_with_agent_case(dtype):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        f32 = dtype == torch.float32
        per_elem, align = (56, 8) if f32 else (48, 16)
        tile = max(((UB_BYTES - 12 * 1024) // per_elem) // align * align, align)  # UB_RESERVED_BYTES
        for n in (150_016, 150_001, 5):
            x = fresh(gen, n, dtype, -0.999, 0.999)
            cores = min(CORE_NUM, n)
            per = n // cores
            values = {"totalLength": n, "tileLength": tile, "loopCount": per // tile, "tailTileLength": per % tile,
                      "usedCoreNum": cores, "tmpBufferSize": tile * 5 * 4, "tilingKey": 0 if f32 else 1}
            # float32: the kernel's own polynomial and Sqrt (not AscendC::Asin), held to 1e-4 relative (CANN's
            # float32 accuracy standard) rather than to one rounding; half goes through AscendC::Asin
            rtol, atol = (1e-4, 1e-5) if f32 else tol(dtype)
            cases.append(Case(cores, {"x": x, "y": torch.zeros(n, dtype=dtype), "workspace": None,
                                      "tiling": ops_math_tiling(kdir, "asin_with_agent", "AsinWithAgentTilingData",
                                                                values)},
                              {"y": torch.asin(x.double())}, rtol=rtol, atol=max(atol, 1e-5), label=f"n={n}"))
        return cases
    return make


def fused_mul_add_n_case(dtype, key: int):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        elem = torch.empty(0, dtype=dtype).element_size()
        per_elem = {torch.float32: 24, torch.int32: 24, torch.int16: 12, torch.float16: 16, torch.bfloat16: 20}[dtype]
        align = 32 // elem
        for n in (150_016, 150_001, 3_000):
            x1, x2, x3 = fresh(gen, n, dtype, -3, 3), fresh(gen, n, dtype, -3, 3), fresh(gen, 1, dtype, -2, 2)
            cores = min(max(n // (48 * 1024 // (3 * elem)), 1), CORE_NUM)  # MIN_BYTES_PER_CORE over 3 paths
            former = max(-(-(-(-n // cores)) // align) * align, align)
            blocks = -(-n // former)
            tail = n - former * (blocks - 1)
            ub = min(former, max((UB_BYTES - 16 * 1024) // per_elem // align * align, align))  # REMAINED_UB
            loops_f, loops_t = -(-former // ub), -(-tail // ub)
            values = {"totalNum": n, "blockNum": blocks, "blockFormer": former, "blockTail": tail, "ubFormer": ub,
                      "ubLoopOfFormerBlock": loops_f, "ubLoopOfTailBlock": loops_t,
                      "ubTailOfFormerBlock": former - ub * (loops_f - 1),
                      "ubTailOfTailBlock": tail - ub * (loops_t - 1)}
            rtol, atol = tol(dtype)
            cases.append(Case(blocks, {"inputX1": x1, "inputX2": x2, "inputX3": x3,
                                       "outputY": torch.zeros(n, dtype=dtype), "workspace": torch.zeros(8),
                                       "tiling": ops_math_tiling(kdir, "fused_mul_add_n", "FusedMulAddNTilingData",
                                                                 values)},
                              {"outputY": x1.double() * x3.double() + x2.double()}, rtol=rtol,
                              atol=max(atol, 1e-5), label=f"n={n}", tiling_key=key))
        return cases
    return make


def cdist_grad_case(p: float):
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        for b, pn, r, m in ((1, 37, 53, 19), (2, 16, 40, 64)):
            x1, x2 = rand(gen, (b, pn, m), -2, 2), rand(gen, (b, r, m), -2, 2)
            grad = rand(gen, (b, pn, r), -1, 1)
            x1d = x1.double().requires_grad_(True)
            dist = torch.cdist(x1d, x2.double(), p=p)
            dist.backward(grad.double())
            m_al = -(-m * 4 // 32) * 32 // 4
            mask = max(-(-(m_al // 8) // 32) * 32, 32)
            fixed = m_al * 4 * 8 + mask + 4096
            per_row = m_al * 4 + 2 * 4
            r_tile = min(max((UB_BYTES - fixed) // per_row, 1), r)
            chunks = -(-r // r_tile)
            tasks = b * pn
            per_core = -(-tasks // CORE_NUM)
            cores = -(-tasks // per_core)
            values = {"batchSize": b, "pSize": pn, "rSize": r, "mSize": m, "usedCoreNum": cores,
                      "tasksPerCore": per_core, "tailCoreTasks": tasks - (cores - 1) * per_core, "mAligned": m_al,
                      "rTile": r_tile, "numRChunks": chunks, "lastRChunkSize": r - (chunks - 1) * r_tile,
                      "pModeInt": {1.0: 0, 2.0: 1}[p], "pValue": p, "pValueF": p,
                      "rTileAligned": -(-r_tile * 4 // 32) * 32 // 4, "maskBufSize": mask, "tmpReduceBufSize": 4096}
            shaped = (lambda t: t[0]) if b == 1 else (lambda t: t)  # a 2-D problem as the op's 2-D inputs
            cases.append(Case(cores, {"gradOutput": shaped(grad), "x1": shaped(x1), "x2": shaped(x2),
                                      "cdistResult": shaped(dist.detach().float()),
                                      "gradX1": shaped(torch.zeros_like(x1)),
                                      "workspace": None,
                                      "tiling": header_struct(kdir, "common/cdist_grad_tiling_data.h",
                                                              "CdistGradTilingData", values)},
                              {"gradX1": shaped(x1d.grad)}, rtol=1e-4, atol=1e-5, label=f"B={b} P={pn} R={r} M={m}"))
        return cases
    return make


SAMPLE: List[Kernel] = [
    log_entry("", torch.float32, (150_001, 150_024)),
    log_entry("_f16", torch.float16, (150_064, 150_050)),
    log_entry("_bf16", torch.bfloat16, (150_064, 150_050)),
    sample_entry("lerp", "", "Sub/Mul/Add", elementwise(
        "lerp", "LerpTilingData", [("start", -3, 3), ("end", -3, 3), ("weight", 0, 1)], "y",
        lambda s, e, w: s + w * (e - s), torch.float32, (150_001, 150_024),
        keyed(lambda n, b: loop_named(blocked_split(n, b, 2 * 4)), lambda t: int(t["tailBlockNum"] != 0))(1),
        key=lambda t: 1), template="1", build=dtypes(("start", "end", "weight", "y"), torch.float32)),
    sample_entry("lerp", "_f16", "Cast/Sub/Mul/Add", elementwise(
        "lerp", "LerpTilingData", [("start", -3, 3), ("end", -3, 3), ("weight", 0, 1)], "y",
        lambda s, e, w: s + w * (e - s), torch.float16, (150_064, 150_050),
        keyed(lambda n, b: loop_named(blocked_split(n, b, 2 * 6)), lambda t: int(t["tailBlockNum"] != 0))(1),
        key=lambda t: 1), template="1", build=dtypes(("start", "end", "weight", "y"), torch.float16)),
    sample_entry("addcmul", "", "Mul/Muls/Add, GlobalTensor GetValue (scalar value)", addcmul_case(torch.float32, True),
                 build=dtypes(("input_data", "x1", "x2", "value", "y"), torch.float32)),
    sample_entry("addcmul", "_tensor", "Mul/Add (value tensor)", addcmul_case(torch.float32, False),
                 build=dtypes(("input_data", "x1", "x2", "value", "y"), torch.float32)),
    sample_entry("addcmul", "_bf16", "Cast/Mul/Muls/Add (bfloat16, scalar value)", addcmul_case(torch.bfloat16, True),
                 build=dtypes(("input_data", "x1", "x2", "value", "y"), torch.bfloat16)),
    sample_entry("add_v2", "", "Add", elementwise(
        "add_v2", "AddV2TilingData", [("x", -3, 3), ("y", -3, 3)], "z", lambda a, b: a + b, torch.float32,
        split=add_v2_split), template="0"),
    sample_entry("add_v2", "_f16", "Add (half)", elementwise(
        "add_v2", "AddV2TilingData", [("x", -3, 3), ("y", -3, 3)], "z", lambda a, b: a + b, torch.float16,
        split=add_v2_split), template="3"),
    sample_entry("div_v2", "", "Div", elementwise(
        "div_v2", "DivV2TilingData", [("x", -3, 3), ("y", 0.5, 3)], "z", lambda a, b: a / b, torch.float32,
        split=div_v2_split), build=dtypes(("x1", "x2", "y"), torch.float32)),
    sample_entry("div_v2", "_f16", "Cast/Div (half)", elementwise(
        "div_v2", "DivV2TilingData", [("x", -3, 3), ("y", 0.5, 3)], "z", lambda a, b: a / b, torch.float16,
        split=div_v2_split), build=dtypes(("x1", "x2", "y"), torch.float16)),
    sample_entry("cosh_v2", "", "Exp/Muls/Add (advanced or basic), template dtype", cosh_v2_case(torch.float32),
                 template="float, 1"),
    sample_entry("cosh_v2", "_f16", "Cast/Exp (half)", cosh_v2_case(torch.float16), template="half, 1"),
    sample_entry("cosh_v2", "_bf16", "Cast/Exp (bfloat16)", cosh_v2_case(torch.bfloat16), template="bfloat16_t, 1"),
    *[sample_entry("bitwise_not", suffix, f"Not ({CTYPE[dt]})", bitwise_not_case(dt), build=dtypes(("x", "y"), dt))
      for suffix, dt in (("", torch.int32), ("_i16", torch.int16), ("_u8", torch.uint8))],
    sample_entry("bitwise_not", "_bool", "Not on bool as bytes", bitwise_not_case(torch.bool),
                 build=dtypes(("x", "y"), torch.bool)),
    sample_entry("ones_like", "", "Duplicate, former/tail split", ones_like_case(torch.float32),
                 build=dtypes(("x", "y"), torch.float32)),
    sample_entry("ones_like", "_f16", "Duplicate (half)", ones_like_case(torch.float16),
                 build=dtypes(("x", "y"), torch.float16)),
    sample_entry("floor_mod", "", "Div/Floor/Mul/Sub, template dtype codes", floor_mod_case(torch.float32, 30),
                 template="30, 30, 30"),
    sample_entry("floor_mod", "_f16", "Cast/Div/Floor (half)", floor_mod_case(torch.float16, 20),
                 template="20, 20, 20"),
    sample_entry("truncate_div", "", "Div/Trunc (float, float)", truncate_div_case(torch.float32), template="4"),
    sample_entry("truncate_div", "_f16", "Cast/Div/Trunc (half, half)", truncate_div_case(torch.float16),
                 template="1"),
    sample_entry("polar", "", "Sin/Cos with sharedTmpBuffer, complex64 out, angle broadcast", polar_case),
    sample_entry("real_v2", "", "DataCopy (float: a copy)", real_v2_case(False), template="float, 0"),
    sample_entry("real_v2", "_complex64", "GatherMask or strided copy of the real parts", real_v2_case(True),
                 template="float, 1"),
    sample_entry("complex_v2", "", "interleave real and imaginary (complex64 out)", complex_v2_case,
                 build=dtypes(("x1", "x2", "y"), torch.float32)),
    sample_entry("log_add_exp", "", "Max/Sub/Exp/Log1p-like, no broadcast", log_add_exp_case(torch.float32)),
    sample_entry("log_add_exp", "_f16", "Cast, fp32 compute (half)", log_add_exp_case(torch.float16), template="1"),
    sample_entry("log_add_exp", "_bf16", "Cast, fp32 compute (bfloat16)", log_add_exp_case(torch.bfloat16),
                 template="2"),
    sample_entry("range", "", "arithmetic progression, former/tail cores", range_case, template="0, 0, 0"),
    sample_entry("sign_bits_pack", "", "CompareScalar to bit masks, 512-byte GM split",
                 sign_bits_pack_case(torch.float32),
                 build=dtypes(("x",), torch.float32) + dtypes(("y",), torch.uint8)),
    sample_entry("sign_bits_pack", "_f16", "CompareScalar (half)", sign_bits_pack_case(torch.float16),
                 build=dtypes(("x",), torch.float16) + dtypes(("y",), torch.uint8)),
    sample_entry("sign_bits_unpack", "", "Duplicate, Select with a bit mask (tensor-scalar)",
                 sign_bits_unpack_case(torch.float32)),
    sample_entry("sign_bits_unpack", "_f16", "Select with a bit mask (half)", sign_bits_unpack_case(torch.float16)),
    sample_entry("reduce_min_v2", "", "SetAtomicMin to GM, InitGlobalMemory, SyncAll",
                 reduce_case("reduce_min_v2", "ReduceMinV2TilingData", "min", shapes=((48, 40), (37, 45))), build=F32),
    sample_entry("reduce_mean_v2", "", "SetAtomicAdd to GM, Muls by 1/cols, SyncAll",
                 reduce_case("reduce_mean_v2", "ReduceMeanV2TilingData", "mean", shapes=((48, 40), (37, 45))),
                 build=F32),
    sample_entry("accumulate_nv2", "", "dynamic input list (ListTensorDesc), Add", accumulate_nv2_case,
                 template="1", build=dtypes(("x", "y"), torch.float32)),
    sample_entry("masked_scale", "", "DataCopyPad, Cast u8->half->float, Mul/Muls", masked_scale_case,
                 template="0, 4", source="masked_scale_apt.cpp"),
    sample_entry("acos_grad", "", "arch35 kernel", None, template="float", not_measured=ARCH35_ONLY),
    sample_entry("tabulate_fusion_grad", "", "arch35 SIMT kernel", None, source="tabulate_fusion_grad_apt.cpp",
                 build=dtypes(("table",), torch.float32), not_measured=ARCH35_ONLY),
    sample_entry("add_mat_mat_elements", "", "arch35 kernel", None, template="float",
                 source="add_mat_mat_elements_apt.cpp", not_measured=ARCH35_ONLY),
    sample_entry("lin_space_d", "", "arithmetic progression from start/end, former/tail cores", lin_space_d_case,
                 template="0, 0"),
    sample_entry("sort_v2", "", "Concat, Sort (full sort), Extract, DataCopyPad", sort_v2_case,
                 build=dtypes(("x", "y"), torch.float32) + dtypes(("index", "dstIndex"), torch.int32)),
    sample_entry("roll", "", "DataCopyPad GM<->UB at rolled offsets", roll_case,
                 build=dtypes(("x", "y"), torch.float32), deps=(OPBASE_KERNEL_INCLUDE,)),
    sample_entry("asin_with_agent", "", "its own polynomial with Sqrt/Mul/Select, uneven cores",
                 asin_with_agent_case(torch.float32), template="float"),
    sample_entry("asin_with_agent", "_f16", "Cast, Asin (advanced) with sharedTmpBuffer (half)",
                 asin_with_agent_case(torch.float16), template="half"),
    sample_entry("fused_mul_add_n", "", "Muls by a GM scalar (GetValue), Add", fused_mul_add_n_case(torch.float32, 0),
                 template=""),
    sample_entry("fused_mul_add_n", "_f16", "Cast, Axpy (half)", fused_mul_add_n_case(torch.float16, 1), template=""),
    sample_entry("fused_mul_add_n", "_bf16", "Cast, fp32 compute (bfloat16)", fused_mul_add_n_case(torch.bfloat16, 4),
                 template=""),
    sample_entry("fused_mul_add_n", "_i32", "Muls/Add (int32)", fused_mul_add_n_case(torch.int32, 2), template=""),
    sample_entry("cdist_grad", "", "p = 2: Sub/Mul/Div by the distance, Compare/Select, R-chunked",
                 cdist_grad_case(2.0), template="float, 1, 0"),
    sample_entry("cdist_grad", "_p1", "p = 1: Sign of the differences", cdist_grad_case(1.0), template="float, 0, 0"),
]

KERNELS += SAMPLE


# ---- the draw ----------------------------------------------------------------------------------------------------

SAMPLE_SEED = 2026_11_24
SAMPLE_SIZE = 30
HAND_PICKED = ("sqrt", "tanh_grad", "floor", "sign", "select_v2", "nan_to_num", "axpy_v3", "mul_v2", "bitwise_and",
               "reduce_sum_v2", "reduce_max_v2", "dot_v2", "kl_div_v2")


def population(repo_dir: str) -> List[str]:
    """Every experimental/math op with a kernel source (op_kernel/*.cpp)."""
    base = os.path.join(repo_dir, "experimental", "math")
    return sorted(d for d in os.listdir(base) if glob.glob(os.path.join(base, d, "op_kernel", "*.cpp")))


def drawn_ops(repo_dir: str) -> List[str]:
    rest = [op for op in population(repo_dir) if op not in HAND_PICKED]
    return random.Random(SAMPLE_SEED).sample(sorted(rest), SAMPLE_SIZE)


def unmeasured_sample(root: str) -> List[Kernel]:
    """A failing entry for each drawn op SAMPLE has no entry for, so that the sample stays whole."""
    repo_dir = os.path.join(root, REPO)
    if not os.path.isdir(os.path.join(repo_dir, "experimental", "math")):
        return []
    have = {k.entry for k in SAMPLE}
    return [sample_entry(op, "", "drawn, no entry yet", None, not_measured="no entry written for it yet")
            for op in drawn_ops(repo_dir) if op not in have]

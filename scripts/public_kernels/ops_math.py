"""hicann/ops-math: experimental elementwise and reduction kernels (experimental/math/<op>/op_kernel/)."""
import os
from typing import Dict, List

import torch

from .common import CORE_NUM, UB_BYTES, Case, Kernel, blocked_split, pack_struct, rand, read_struct

REPO = "hicann/ops-math"
F32 = "#define DTYPE_X float\n#define DTYPE_Y float\n#define DTYPE_Z float\n"


def ops_math_tiling(kdir: str, op: str, struct_name: str, values: Dict[str, object]) -> bytes:
    return pack_struct(read_struct(os.path.join(kdir, f"{op}_tiling_data.h"), struct_name), values)


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

"""By-gitee/opDev: a public fork of the Ascend C samples (Ascend/samples, operator/ascendc/). Its operator/ascendc
tree is the samples' (one kernel differs from the upstream sample, see docs/twin.md)."""
import ctypes
import hashlib
import os
import struct
import subprocess
import tempfile
from typing import List

import torch

from .common import Case, Kernel, host_tiling, list_tensor, rand

REPO = "By-gitee/opDev"
I = "operator/ascendc/0_introduction"
F = "operator/ascendc/2_features"
B = "operator/ascendc/4_best_practices"


def host_library(source: str, shim: str) -> ctypes.CDLL:
    """A sample's own host tiling code (plain C++), compiled with g++ together with `shim` (extern "C" entry
    points calling it) and loaded: the harness calls the sample's tiling rather than re-expressing it."""
    digest = hashlib.sha256(open(source, "rb").read() + shim.encode()).hexdigest()[:16]
    out = os.path.join(tempfile.gettempdir(), f"pubk_host_{digest}.so")
    if not os.path.exists(out):
        unit = out[:-3] + ".cpp"
        with open(unit, "w") as f:
            f.write(f'#include "{source}"\n{shim}\n')
        subprocess.run(["g++", "-std=c++17", "-O1", "-shared", "-fPIC", "-I", os.path.dirname(source), unit, "-o",
                        out], check=True)
    return ctypes.CDLL(out)


def half_rand(gen, n, lo=-4.0, hi=4.0):
    return rand(gen, n, lo, hi, torch.float16)


# ---- 0_introduction ----------------------------------------------------------------------------------------

def reduce_case(kdir: str, gen: torch.Generator) -> List[Case]:
    # reduce_custom.cpp (float): the host picks the tiling key from the length (64 / 512 / 4096 / 10000 / 20000).
    cases = []
    for key, n in ((1, 64), (2, 512), (3, 4096), (4, 10000), (5, 20000)):
        x = rand(gen, n)
        tiling = struct.pack("<II", n, 32)  # totalLength, outLength = OUT_SHAPE
        cases.append(Case(1, {"x": x, "z": torch.zeros(32), "workspace": None, "tiling": tiling},
                          {"z": (x.double().sum().reshape(1), slice(0, 1))}, rtol=1e-5, atol=1e-4,
                          label=f"key {key} n={n}", tiling_key=key))
    return cases


def sub_case(kdir: str, gen: torch.Generator) -> List[Case]:
    # sub_custom.cpp (half), host: 8 cores, lengths rounded up to 16 elements, former/tail cores.
    cases = []
    for n in (8 * 2048, 1999):
        aligned = (n + 15) // 16 * 16
        former = (aligned // 16) % 8
        former_len = ((aligned // 8 + 15) // 16) * 16
        tail_len = (aligned // 8 // 16) * 16
        x, y = half_rand(gen, n), half_rand(gen, n)
        tiling = struct.pack("<5I", former, 8 - former, former_len, tail_len, 16)
        cases.append(Case(8, {"x": x, "y": y, "z": torch.zeros(n, dtype=torch.float16), "workspace": None,
                              "tiling": tiling}, {"z": x.double() - y.double()}, rtol=2e-3, atol=2e-3,
                          label=f"n={n}", tiling_key=1))
    return cases


def abs_duplicate_case(kdir: str, gen: torch.Generator) -> Case:
    # 4 cores x 16 rows of 11 halves; main.cpp: 709 halves in and out (704 + the 5 the last core's tail adds).
    x = half_rand(gen, 709)
    expect = x.double().abs()
    expect[704:] = 0  # the kernel zero-fills its region (Fill) and the tail's dummy lanes are zeroed before Abs
    return Case(4, {"inputGM": x, "outputGM": torch.zeros(709, dtype=torch.float16),
                    "syncGM": torch.zeros(4 * 8, dtype=torch.int32)}, {"outputGM": expect}, rtol=1e-3, atol=1e-3)


def abs_gather_mask_case(kdir: str, gen: torch.Generator) -> Case:
    # 8 cores x 16 tiles of 18 halves; main.cpp: 2318 halves in (2304 + 32 - 18), 2304 out.
    x = half_rand(gen, 2318)
    return Case(8, {"inputGM": x, "outputGM": torch.zeros(2304, dtype=torch.float16)},
                {"outputGM": x[:2304].double().abs()}, rtol=1e-3, atol=1e-3)


def reduce_min_case(kdir: str, gen: torch.Generator) -> Case:
    # 4 cores x 4 rows of 4 halves; each row's min lands on its first element (atomic add over zeros);
    # main.cpp: 76 halves in and out.
    x = half_rand(gen, 76)
    expect = torch.zeros(76, dtype=torch.float64)
    expect[0:64:4] = x[:64].double().view(16, 4).amin(1)
    return Case(4, {"inputGM": x, "outputGM": torch.zeros(76, dtype=torch.float16),
                    "syncGM": torch.zeros(4 * 8, dtype=torch.int32)}, {"outputGM": expect}, rtol=1e-3, atol=1e-3)


def whole_reduce_sum_case(kdir: str, gen: torch.Generator) -> List[Case]:
    cases = []
    for rows, cols in ((9, 47), (32, 128)):
        x = half_rand(gen, rows * cols, -1, 1)
        cases.append(Case(1, {"x": x, "y": torch.zeros(rows, dtype=torch.float16), "workspace": None,
                              "tiling": struct.pack("<3I", rows * cols, rows, cols)},
                          {"y": x.double().view(rows, cols).sum(1)}, rtol=5e-3, atol=5e-3, label=f"{rows}x{cols}"))
    return cases


def vadd_tiling_case(kdir: str, gen: torch.Generator) -> List[Case]:
    # The host tiling is the sample's own GenerateTilingData (add_custom_tiling.cpp), called through ctypes.
    lib = host_library(os.path.join(kdir, "add_custom_tiling.cpp"),
                       'extern "C" void pubk_tiling(uint8_t* b, uint32_t d) { GenerateTilingData(b, d); }')
    cases = []
    dtypes = {0: torch.bfloat16, 1: torch.float16, 2: torch.float32, 4: torch.int16, 5: torch.int32}
    for code, dtype in dtypes.items():
        for n, block_dim in ((8 * 2048, 8), (10_000, 8)):
            buf = ctypes.create_string_buffer(17 * 4)
            struct.pack_into("<II", buf, 0, n, code)
            lib.pubk_tiling(buf, ctypes.c_uint32(block_dim))
            if dtype.is_floating_point:
                x, y = rand(gen, n, -4, 4, dtype), rand(gen, n, -4, 4, dtype)
                expect = x.double() + y.double()
            else:
                x = torch.randint(-1000, 1000, (n,), generator=gen, dtype=dtype)
                y = torch.randint(-1000, 1000, (n,), generator=gen, dtype=dtype)
                expect = (x.long() + y.long()).to(dtype)
            rtol = {torch.bfloat16: 8e-3, torch.float16: 1e-3}.get(dtype, 1e-6)
            cases.append(Case(block_dim, {"x": x, "y": y, "z": torch.zeros(n, dtype=dtype), "tiling": buf.raw},
                              {"z": expect}, rtol=rtol, atol=rtol, label=f"{str(dtype)[6:]} n={n}"))
    return cases


def static_add_case(kdir: str, gen: torch.Generator) -> Case:
    # main.cpp: 8 cores, 4096 * 9 floats each.
    n = 4096 * 9 * 8
    x, y = rand(gen, n), rand(gen, n)
    return Case(8, {"x": x, "y": y, "z": torch.zeros(n), "tiling": struct.pack("<I", n // 8)},
                {"z": x.double() + y.double()})


def leaky_relu_case(kdir: str, gen: torch.Generator) -> Case:
    # op_host: 8 cores, TILE_NUM 16, the negative_slope attribute.
    n, slope = 8 * 2048, 0.2
    x = rand(gen, n, -3, 3)
    return Case(8, {"x": x, "y": torch.zeros(n), "workspace": None, "tiling": struct.pack("<IIf", n, 16, slope)},
                {"y": torch.nn.functional.leaky_relu(x.double(), slope)}, tiling_key=1)


def scatter_case(kdir: str, gen: torch.Generator) -> Case:
    # 128 halves scattered to byte offsets (main.cpp, gen_data.py); a random permutation here.
    x = half_rand(gen, 128)
    perm = torch.randperm(128, generator=gen)
    expect = torch.zeros(128, dtype=torch.float64)
    expect[perm] = x.double()
    return Case(1, {"srcGm": x, "dstOffsetGm": (perm * 2).to(torch.int32), "dstGm": torch.zeros(128, dtype=torch.float16)},
                {"dstGm": expect})


def bank_conflict_case(kdir: str, gen: torch.Generator) -> Case:
    x, y = rand(gen, 4096), rand(gen, 4096)
    return Case(1, {"x": x, "y": y, "z": torch.zeros(4096)}, {"z": x.double() + y.double()})


def mmad_case(bias: bool, framework: bool = False):
    # mmad_custom_cube_only.h: m = k = n = 32, half A and B (and a half bias), float C, one AIC core. The
    # framework-launched form (the DumpTensor sample) also takes the workspace and tiling it does not read.
    def make(kdir: str, gen: torch.Generator) -> Case:
        m = k = n = 32
        a = rand(gen, (m, k), -1, 1, torch.float16)
        b = rand(gen, (k, n), -1, 1, torch.float16)
        expect = a.double() @ b.double()
        args = {"a": a, "b": b}
        if bias:
            bb = rand(gen, n, -1, 1, torch.float16)
            args["bias"] = bb
            expect = expect + bb.double()
        args["c"] = torch.zeros(m, n)
        if framework:
            args.update(workspace=None, tiling=None)
        return Case(1, args, {"c": expect}, rtol=1e-5, atol=1e-5)
    return make


def group_barrier_case(kdir: str, gen: torch.Generator) -> Case:
    """The sample's aclnn run (AclNNInvocation/src/main.cpp): barworkspace and out of 8 x 2048 float16, blockDim 8
    (op_host). Cores 0-1 atomically add 12 into out[0] after InitOutput zeroed out[0..7] and a SyncAll, then
    Arrive; cores 2-7 Wait and print out[0], which must be 2 * 12. The kernel reads out as int32_t: it is
    launched as the int32_t view of the same bytes; the workspace is zeroed as the GroupBarrier docs require."""
    out = torch.randint(-1000, 1000, (8 * 2048 * 2 // 4,), generator=gen, dtype=torch.int32)
    return Case(8, {"barworkspace": torch.zeros(8 * 2048, dtype=torch.float16), "out": out, "workspace": None,
                    "tiling": struct.pack("<I", 8 * 2048) + bytes(4)},
                {"out": (torch.tensor([24.0], dtype=torch.float64), slice(0, 1))}, rtol=0, atol=0)


def addn_case(kdir: str, gen: torch.Generator) -> Case:
    # op_host: 8 cores, TILE_NUM 8; the kernel adds the list's first two half tensors.
    n = 8 * 2048
    x, y = rand(gen, n, -4, 4, torch.float16), rand(gen, n, -4, 4, torch.float16)
    return Case(8, {"srcList": list_tensor([x, y]), "z": torch.zeros(n, dtype=torch.float16), "workspace": None,
                    "tiling": struct.pack("<II", n, 8)}, {"z": x.double() + y.double()}, rtol=1e-3, atol=1e-3)


def tbufpool_case(kdir: str, gen: torch.Generator) -> Case:
    # main.cpp: 2048 floats; stage 1 adds the first 1024, stage 2 subtracts the next 1024, in pools sharing UB.
    n = 2048
    a, b = rand(gen, n), rand(gen, n)
    expect = torch.cat([a[:1024].double() + b[:1024].double(), a[1024:].double() - b[1024:].double()])
    return Case(1, {"src0Gm": a, "src1Gm": b, "dstGm": torch.zeros(n), "tiling": struct.pack("<I", n)},
                {"dstGm": expect})


# ---- 4_best_practices ----------------------------------------------------------------------------------------

def adds_case(kdir: str, gen: torch.Generator) -> List[Case]:
    # op_host: 16 cores, M 8192 x N 128 floats, tiles of 512 x 8; the caseId attribute is the tiling key.
    m, n = 8192, 128
    x = rand(gen, m * n)
    tiling = struct.pack("<5I", m, n, 512, 8, m // 512)
    return [Case(16, {"x": x, "z": torch.zeros(m * n), "workspace": None, "tiling": tiling}, {"z": x.double() + 2},
                 label=f"key {key}", tiling_key=key) for key in (1, 2, 3)]


KERNELS: List[Kernel] = [
    Kernel("samples_reduce", REPO, f"{I}/14_reduce_frameworklaunch/ReduceCustom/op_kernel/reduce_custom.cpp",
           "reduce_custom", "WholeReduceSum/BlockReduceSum in counter mode, DivCeil, 5 tiling keys", reduce_case,
           build=host_tiling(f"{I}/14_reduce_frameworklaunch/ReduceCustom/op_host/reduce_custom_tiling.h")),
    Kernel("samples_sub", REPO, f"{I}/15_sub_frameworklaunch/SubCustom/op_kernel/sub_custom.cpp", "sub_custom",
           "Sub (half), former/tail cores, <<<>>> host launcher", sub_case,
           build=host_tiling(f"{I}/15_sub_frameworklaunch/SubCustom/op_host/sub_custom_tiling.h")),
    Kernel("samples_abs_duplicate", REPO,
           f"{I}/16_unaligned_abs_kernellaunch/AbsDuplicateKernelInvocation/abs_duplicate.cpp",
           "abs_duplicate_custom", "Abs, masked Duplicate, Fill, SyncAll, atomic-add copy-out", abs_duplicate_case),
    Kernel("samples_abs_gather_mask", REPO,
           f"{I}/16_unaligned_abs_kernellaunch/AbsGatherMaskKernelInvocation/abs_gather_mask.cpp",
           "abs_gather_mask_custom", "Abs, GatherMask (counter mode, tensor pattern)", abs_gather_mask_case),
    Kernel("samples_reduce_min", REPO,
           f"{I}/17_unaligned_reducemin_kernellaunch/ReduceMinKernelInvocation/reduce_min.cpp",
           "reduce_min_custom", "ReduceMin (bit mask), Fill, SyncAll, atomic-add copy-out", reduce_min_case),
    Kernel("samples_whole_reduce_sum", REPO,
           f"{I}/18_unaligned_wholereduces_frameworklaunch/WholeReduceSumCustom/op_kernel/whole_reduce_sum_custom.cpp",
           "whole_reduce_sum_custom", "DataCopyPad (rows), WholeReduceSum with repeat stride", whole_reduce_sum_case),
    Kernel("samples_vadd_tiling", REPO, f"{I}/21_vectoradd_kernellaunch/VectorAddMultiCoreWithTiling/add_custom.cpp",
           "add_custom", "tiling struct by value, Std::max, bfloat16 via Cast, 5 dtypes, the sample's own tiling",
           vadd_tiling_case),
    Kernel("samples_static_v1", REPO, f"{I}/23_static_tensor_programming_kernellaunch/KernelLaunch/add_custom_v1.cpp",
           "add_custom_v1", "static tensors LocalTensor(pos, addr, len), flags", static_add_case),
    Kernel("samples_static_v4", REPO, f"{I}/23_static_tensor_programming_kernellaunch/KernelLaunch/add_custom_v4.cpp",
           "add_custom_v4", "static tensors, ping-pong flags", static_add_case),
    Kernel("samples_leaky_relu", REPO, f"{I}/9_leakyrelu_frameworklaunch/LeakyReluCustom/op_kernel/leaky_relu_custom.cpp",
           "leaky_relu_custom", "Maxs/Mins/Muls/Add, tiling with a float", leaky_relu_case,
           build=host_tiling(f"{I}/9_leakyrelu_frameworklaunch/LeakyReluCustom/op_host/leaky_relu_custom_tiling.h")),
    Kernel("samples_scatter", REPO, "operator/ascendc/3_libraries/0_scatter_kernellaunch/scatter_custom.cpp",
           "scatter_custom", "GetValue/SetValue scatter", scatter_case),
    Kernel("samples_bank_conflict_v2", REPO, f"{B}/4_bank_conflict/KernelLaunch/add_custom_v2.cpp", "add_custom_v2",
           "Add, UB bank-group placement", bank_conflict_case),
    Kernel("samples_adds_conflict", REPO, f"{B}/15_mata_address_conflict/AddsCustom/op_kernel/adds_custom.cpp",
           "adds_custom", "SetL2CacheHint, SyncAll, strided DataCopy, 3 tiling keys", adds_case),
    Kernel("samples_mmad", REPO, f"{I}/20_mmad_kernellaunch/MmadInvocation/mmad_custom.cpp", "mmad_custom",
           "raw cube path: DataCopy with Nd2NzParams, LoadData (transposing B), Mmad, Fixpipe NZ -> ND",
           mmad_case(False)),
    Kernel("samples_mmad_bias", REPO, f"{I}/20_mmad_kernellaunch/MmadBiasInvocation/mmad_custom.cpp", "mmad_custom",
           "the same with a bias: L1 -> BiasTable DataCopy (half -> float), Mmad with bias", mmad_case(True)),
    Kernel("samples_mmad_cube_only", REPO,
           "operator/ascendc/1_utilities/7_dumptensor/FrameworkLaunch/DumpTensorCube/MmadCustom/op_kernel_cube_only/mmad_custom.cpp",
           "mmad_custom", "the raw cube path with DumpTensor (GM; L1 with a ShapeInfo) and DumpAccChkPoint (L0C)",
           mmad_case(False, framework=True)),
    Kernel("samples_addn", REPO, f"{I}/4_addn_frameworklaunch/AddnCustom/op_kernel/addn_custom.cpp", "addn_custom",
           "ListTensorDesc (dynamic input list), kernel_operator_list_tensor_intf.h, ASSERT", addn_case,
           build=host_tiling(f"{I}/4_addn_frameworklaunch/AddnCustom/op_host/addn_custom_tiling.h")),
    Kernel("samples_group_barrier", REPO, f"{F}/16_group_barrier/GroupBarrier/op_kernel/group_barrier.cpp",
           "group_barrier", "GroupBarrier (2 arrive, 6 wait), InitOutput, SyncAll, atomic-add DataCopy",
           group_barrier_case,
           build=host_tiling(f"{F}/16_group_barrier/GroupBarrier/op_host/group_barrier_tiling.h")),
    Kernel("samples_tbufpool", REPO, f"{F}/2_tbufpool/op_kernel/tbufpool_custom.cpp", "tbufpool_custom",
           "TBufPool: nested pools, two sharing memory, Reset between stages", tbufpool_case),
]

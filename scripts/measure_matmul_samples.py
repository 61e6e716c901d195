#!/usr/bin/env python3
"""Runs the kernels of asc-devkit's Matmul samples (the high-level API, MIX and cube-only) unchanged on the twin.

Each sample's .asc file holds its kernel and its host program (ACL calls, the tiling API, file I/O). The kernel
part - everything before the first host function, without the host-only includes - is compiled against the twin
as it is, launched with the tiling the sample's host code asks for (its shapes, core count and fixed base
blocks; where the sample leaves the search to MultiCoreMatmulTiling, base blocks that fit its constraints: the
twin does not reproduce CANN's tiling search), on random inputs, and compared with a float64 reference.
docs/twin.md ("The Matmul samples") records the last run.

Nothing of the samples enters the project: point the script at an asc-devkit git repository or checkout
outside it (a bare mirror works), e.g.

    PYTHONPATH=torch_ext python scripts/measure_matmul_samples.py --asc-devkit /path/to/asc-devkit

The ascend_ext extension must be built (see README). Not run in CI (no network there).
"""
import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile
from typing import Callable, Dict, List, NamedTuple, Optional

import torch

SYSTEM_WORKSPACE = 16 << 20  # GetLibApiWorkSpaceSize() on A2
HOST_INCLUDES = ("data_utils.h", "acl/acl.h", "tiling/tiling_api.h", "tiling/platform/platform_ascendc.h")
TILING_FIELDS = ("usedCoreNum M N Ka Kb singleCoreM singleCoreN singleCoreK baseM baseN baseK depthA1 depthB1 stepM "
                 "stepN isBias transLength iterateOrder shareMode shareL1Size shareL0CSize shareUbSize batchM batchN "
                 "singleBatchM singleBatchN stepKa stepKb depthAL1CacheUB depthBL1CacheUB dbL0A dbL0B dbL0C "
                 "ALayoutInfoB ALayoutInfoS ALayoutInfoN ALayoutInfoG ALayoutInfoD BLayoutInfoB BLayoutInfoS "
                 "BLayoutInfoN BLayoutInfoG BLayoutInfoD CLayoutInfoB CLayoutInfoS1 CLayoutInfoN CLayoutInfoG "
                 "CLayoutInfoS2 BatchNum mxTypePara").split()


class TCubeTiling(ctypes.Structure):
    _pack_ = 1
    _fields_ = [(name, ctypes.c_int32) for name in TILING_FIELDS]


def tiling(m, n, k, single_m, single_n, base_m, base_n, base_k, cores, bias, step_k=1):
    return TCubeTiling(usedCoreNum=cores, M=m, N=n, Ka=k, Kb=k, singleCoreM=single_m, singleCoreN=single_n,
                       singleCoreK=k, baseM=base_m, baseN=base_n, baseK=base_k, depthA1=2 * step_k,
                       depthB1=2 * step_k, stepM=1, stepN=1, stepKa=step_k, stepKb=step_k, isBias=int(bias),
                       iterateOrder=0, dbL0A=2, dbL0B=2, dbL0C=1)


class Case(NamedTuple):
    blocks: int
    args: Dict[str, object]
    expect: Dict[str, torch.Tensor]


def operands(m, n, k, bias=True, seed=0):
    g = torch.Generator().manual_seed(seed)
    a = (torch.rand(m, k, generator=g) * 2 - 1).half()
    b = (torch.rand(k, n, generator=g) * 2 - 1).half()
    out = {"a": a, "b": b}
    ref = a.double() @ b.double()
    if bias:
        out["bias"] = torch.rand(n, generator=g) * 2 - 1
        ref = ref + out["bias"].double()
    return out, ref


def leakyrelu_case():
    t = tiling(512, 128, 128, 512, 64, 128, 64, 128, cores=2, bias=True)  # N split over 2 AIVs, SetFixSplit
    ops, ref = operands(512, 128, 128)
    c = torch.full((512, 128), float("nan"))
    args = dict(ops, c=c, workspace=torch.empty(SYSTEM_WORKSPACE, dtype=torch.uint8), tiling=bytes(t))
    return Case(1, args, {"c": torch.nn.functional.leaky_relu(ref, 0.001)})


def async_case():
    # M = 640, N = 1024, K = 512, SetDim(GetCoreNumAiv()): 20 AIVs of 128 x 256 each; base 64 x 256 (the kernel
    # walks its blocks along M only: baseN = singleCoreN).
    t = tiling(640, 1024, 512, 128, 256, 64, 256, 64, cores=20, bias=True, step_k=2)
    ops, ref = operands(640, 1024, 512)
    c = torch.full((640, 1024), float("nan"))
    ws = torch.empty((SYSTEM_WORKSPACE + 640 * 1024 * 4) // 4, dtype=torch.float32)
    return Case(10, dict(ops, c=c, workspace=ws, tilingGm=bytes(t)), {"c": ref})


def fused_case():
    # M = 1024, N = 640, K = 256, SetDim(2), SetFixSplit(256, 128, -1), FIRSTM: M split over the 2 AIVs of one
    # block, 10 blocks of 256 x 128 each, fetched with Iterate<false>/GetTensorC<false>.
    t = tiling(1024, 640, 256, 512, 640, 256, 128, 64, cores=2, bias=True, step_k=1)
    ops, ref = operands(1024, 640, 256)
    c = torch.full((1024, 640), float("nan"))
    ws = torch.empty((SYSTEM_WORKSPACE + 1024 * 640 * 4) // 4, dtype=torch.float32)
    return Case(1, dict(ops, c=c, workspace=ws, tilingGm=bytes(t)), {"c": torch.nn.functional.leaky_relu(ref, 0.001)})


def k_reorder_case():
    # M = 768, N = 2048, K = 6144, SetDim(GetCoreNumAiv()), GetMDLConfig(..., enableKdimReorderLoad = true): 32 AIVs
    # of 192 x 256 (16 blocks of one AIC and two AIVs).
    t = tiling(768, 2048, 6144, 192, 256, 128, 256, 64, cores=32, bias=True, step_k=4)
    t.singleCoreM = 192
    ops, ref = operands(768, 2048, 6144)
    c = torch.full((768, 2048), float("nan"))
    return Case(16, dict(ops, c=c, workspace=torch.empty(SYSTEM_WORKSPACE, dtype=torch.uint8), tilingGm=bytes(t)),
                {"c": ref})


def cube_matmul_case():
    # M = 128, N = 2048, K = 1024, SetDim(GetCoreNumAic()): 16 cores of 128 x 128.
    t = tiling(128, 2048, 1024, 128, 128, 128, 128, 64, cores=16, bias=True, step_k=2)
    ops, ref = operands(128, 2048, 1024)
    c = torch.full((128, 2048), float("nan"))
    return Case(16, dict(ops, c=c, workspace=torch.empty(SYSTEM_WORKSPACE, dtype=torch.uint8), tilingGm=bytes(t)),
                {"c": ref})


def advanced_api_case():
    # M = N = 512, K = 128, SetDim(2): M split over 2 cube cores, no bias.
    t = tiling(512, 512, 128, 256, 512, 128, 256, 64, cores=2, bias=False, step_k=2)
    ops, ref = operands(512, 512, 128, bias=False)
    c = torch.full((512, 512), float("nan"))
    return Case(2, dict(ops, c=c, workspace=torch.empty(SYSTEM_WORKSPACE, dtype=torch.uint8), tiling=bytes(t)),
                {"c": ref})


class Sample(NamedTuple):
    path: str  # under examples/01_simd_cpp_api
    entry: str
    form: str
    make_case: Optional[Callable[[], Case]]


SAMPLES: List[Sample] = [
    Sample("00_introduction/03_fusion_operation/matmul_leakyrelu_advanced_api/matmul_leakyrelu_advanced_api.asc",
           "matmul_leakyrelu_custom", "MIX __mix__(1, 2): Iterate/GetTensorC into VECIN, LeakyRelu", leakyrelu_case),
    Sample("04_advanced_api/00_matmul/matmul_async_iterate/matmul_async_iterate.asc", "matmul_async_iterate_custom",
           "MIX (inferred): Iterate<false> + SetWorkspace, GetTensorC<false> into VECIN, CFG_MDL",
           async_case),
    Sample("04_advanced_api/00_matmul/matmul_async_iterate_all/matmul_async_iterate_all.asc",
           "matmul_async_iterate_all_custom", "MIX (inferred): IterateAll<false> + WaitIterateAll, CFG_MDL",
           async_case),
    Sample("04_advanced_api/00_matmul/matmul/matmul.asc", "matmul_custom",
           "cube-only __cube__: IterateAll into GM, SetTail", cube_matmul_case),
    Sample("00_introduction/02_matrix/matmul_advanced_api/matmul_advanced_api.asc", "matmul_custom",
           "cube-only __cube__: IterateAll, tiling by value", advanced_api_case),
    Sample("04_advanced_api/00_matmul/matmul_vecout/matmul_vecout.asc", "", "MIX: A from VECOUT (UB input)", None),
    Sample("04_advanced_api/00_matmul/matmul_fused/matmul_fused.asc", "matmul_fused_custom",
           "MIX (inferred): Iterate<false>, GetTensorC<false> into VECIN, LeakyRelu in four row groups", fused_case),
    Sample("04_advanced_api/00_matmul/matmul_splitm/matmul_splitm.asc", "", "MIX: SplitMMatmulPolicy, IBShare", None),
    Sample("04_advanced_api/00_matmul/matmul_k_reorder_load/matmul_k_reorder_load.asc", "matmul_k_reorder_load_custom",
           "MIX (inferred): GetMDLConfig(..., enableKdimReorderLoad), IterateAll into GM", k_reorder_case),
    Sample("04_advanced_api/00_matmul/matmul_partial_output/matmul_partial_output.asc", "",
           "MIX: isPartialOutput", None),
    Sample("04_advanced_api/00_matmul/matmul_tscm/matmul_tscm.asc", "", "MIX: A in TSCM (L1)", None),
]


def read_sample(repo: str, path: str) -> str:
    full = os.path.join(repo, "examples", "01_simd_cpp_api", path)
    if os.path.isfile(full):
        with open(full) as f:
            return f.read()
    return subprocess.run(["git", "--git-dir", repo, "show", f"HEAD:examples/01_simd_cpp_api/{path}"], check=True,
                          capture_output=True, text=True).stdout


def kernel_part(text: str) -> str:
    """The sample's kernel: up to its first host function, without the host-only includes."""
    cut = re.search(r"\n(?:AscendC::tiling::TCubeTiling|void|int32_t|TCubeTiling)\s+(?:GenerateTiling|main)\b", text)
    body = text[:cut.start()] if cut else text
    for inc in HOST_INCLUDES:
        body = body.replace(f'#include "{inc}"\n', "")
    return re.sub(r'#ifdef ASCENDC_CPU_DEBUG\n#include "cpu_debug_launch.h"\n#endif\n', "", body)


def first_error(message: str) -> str:
    for line in message.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()[:160]
    return message.strip().splitlines()[-1][:160] if message.strip() else "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--asc-devkit", required=True, help="asc-devkit checkout or git repository")
    opts = parser.parse_args()
    import ascend_ext
    commit = subprocess.run(["git", "--git-dir", opts.asc_devkit if not os.path.isdir(
        os.path.join(opts.asc_devkit, ".git")) else os.path.join(opts.asc_devkit, ".git"), "rev-parse", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print(f"asc-devkit {commit}")
    print("| sample | form | compiles | runs clean | matches float64 | note |")
    print("| --- | --- | --- | --- | --- | --- |")
    passed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for s in SAMPLES:
            name = os.path.basename(s.path)[:-4]
            unit = os.path.join(tmp, name + ".cpp")
            with open(unit, "w") as f:
                f.write(kernel_part(read_sample(opts.asc_devkit, s.path)))
            row = [name, s.form]
            try:
                lib = ascend_ext.twin.compile_kernels([unit])
            except Exception as e:  # the compiler's message
                print("| " + " | ".join(row + ["no", "", "", first_error(str(e))]) + " |")
                continue
            if s.make_case is None:
                print("| " + " | ".join(row + ["yes", "", "", "no case"]) + " |")
                continue
            case = s.make_case()
            try:
                lib.launch(s.entry, case.blocks, **case.args)
            except Exception as e:
                print("| " + " | ".join(row + ["yes", "no", "", str(e)[:200]]) + " |")
                continue
            worst = max(float((case.args[k].double() - v).abs().max()) for k, v in case.expect.items())
            ok = worst <= 1e-3
            passed += ok
            print("| " + " | ".join(row + ["yes", "yes", "yes" if ok else "no", f"max error {worst:.2g}"]) + " |")
    print(f"{passed} of {len(SAMPLES)} run unchanged and match")
    return 0


if __name__ == "__main__":
    sys.exit(main())

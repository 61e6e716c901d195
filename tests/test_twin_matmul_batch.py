"""The batch Matmul forms on the twin (tests/kernels/matmul_batch.cpp): IterateBatch with the NORMAL (BMNK) layout,
its broadcast and its bias per batch or reused, IterateBatch with BSNGD (B transposed), IterateNBatch into the
SetWorkspace buffer, each against the batch of matmuls computed here in float64; each rule of IterateBatch /
IterateNBatch (IterateBatch docs, the API's client asserts, the twin's stated limits) as a planted fault next to its
passing counterpart."""
import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelCompileError, KernelRuleViolation
from test_twin_mix_matmul import KERNELS, TCubeTiling, workspace

import os


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "matmul_batch.cpp")])


def mm_tiling(m, n, k, bias, **layout):
    """One matrix's tiling: single-core shape M x N x K, one base block (m x n x k), as the host tiling of a batch."""
    return TCubeTiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=m,
                       baseN=n, baseK=k, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1,
                       isBias=int(bias), iterateOrder=0, dbL0A=2, dbL0B=2, dbL0C=1, **layout)


def rand(shape, seed, dtype=torch.float16):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(*shape, generator=g) * 2 - 1).to(dtype)


def close(out, ref):
    torch.testing.assert_close(out.double(), ref, rtol=1e-5, atol=1e-4)


# ---- NORMAL ------------------------------------------------------------------------------------------------------

M, N, K = 32, 64, 32


def normal_case(lib, batch_a, batch_b, mode=0, kernel="batch_normal", bias=True, seed=0, m=M, n=N, k=K):
    """Two AIVs (one block), each its own group: A [2, batchA, m, k], B [2, batchB, k, n], C [2, batchC, m, n]."""
    batch_c = max(batch_a, batch_b)
    a, b = rand((2, batch_a, m, k), seed), rand((2, batch_b, k, n), seed + 1)
    reused = kernel == "batch_normal_bias_reused"
    bias_t = rand((n,) if reused else (2, batch_c, n), seed + 2, torch.float32)
    c = torch.full((2, batch_c, m, n), float("nan"))
    lib.launch(kernel, 1, a=a, b=b, bias=bias_t, c=c, workspace=workspace(), tiling=mm_tiling(m, n, k, bias),
               batchA=batch_a, batchB=batch_b, mode=mode)
    ref = torch.empty(2, batch_c, m, n, dtype=torch.float64)
    for grp in range(2):
        for i in range(batch_c):
            ia, ib = i // (batch_c // batch_a), i // (batch_c // batch_b)
            ref[grp, i] = a[grp, ia].double() @ b[grp, ib].double()
            if bias:
                ref[grp, i] += (bias_t if reused else bias_t[grp, i]).double()
    return c, ref


@pytest.mark.parametrize("batch_a,batch_b", [(3, 3), (1, 3), (4, 2)])
def test_normal_layout_with_broadcast(lib, batch_a, batch_b):
    c, ref = normal_case(lib, batch_a, batch_b, seed=batch_a * 7 + batch_b)
    close(c, ref)


def test_normal_layout_bias_reused_and_none(lib):
    c, ref = normal_case(lib, 3, 3, kernel="batch_normal_bias_reused", seed=11)
    close(c, ref)
    c, ref = normal_case(lib, 2, 2, bias=False, seed=12)
    close(c, ref)


@pytest.mark.parametrize("mode,message", [
    (1, r"IterateBatch starts a walk: SetTensorA/SetTensorB come before each one"),
    (2, r"matrixStrideC is reserved: keep the default 0.*matrixStrideC = 1"),
    (3, r"the twin's IterateBatch takes the tiling's shapes \(a SetOrgShape before it is not modelled\)"),
    (4, r"the twin does not model IterateBatch with atomic accumulation.*enAtomic = 1"),
    (5, r"the twin does not model enPartialSum"),
    (6, r"the twin models the synchronous form \(IterateBatch<false>/IterateNBatch<false> are not modelled\)"),
])
def test_iterate_batch_call_rules(lib, mode, message):
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateBatch: broke the rule '" + message):
        normal_case(lib, 2, 2, mode=mode)
    close(*normal_case(lib, 2, 2, seed=mode))  # the counterpart


def test_normal_batch_counts_are_multiples(lib):
    with pytest.raises(KernelRuleViolation, match=r"batchA and batchB are multiples of each other.*batchA 2, "
                                                  r"batchB 3"):
        normal_case(lib, 2, 3)
    with pytest.raises(KernelRuleViolation, match=r"batchA and batchB are positive"):
        normal_case(lib, 0, 2)
    close(*normal_case(lib, 2, 4, seed=5))


def test_batch_fits_l1(lib):
    # 9 A and 9 B matrices of 128 x 128 half: 9 * 2 * 32 KB = 576 KB > L1's 512 KB; 7 fit (448 KB).
    with pytest.raises(KernelRuleViolation, match=r"fit in L1 together.*9 A and 9 B matrices of 128x128 and "
                                                  r"128x128 take 589824 bytes, L1 has 524288"):
        normal_case(lib, 9, 9, m=128, n=128, k=128)
    close(*normal_case(lib, 7, 7, m=128, n=128, k=128, seed=3))


# ---- BSNGD -------------------------------------------------------------------------------------------------------

def bsngd_case(lib, batch_a, batch_b, g_a=3, g_b=3, mode=0, layouts=True, seed=0, s_a=32, s_b=64, d=32):
    """A [2, s_a, 1, g_a, d], B [2, s_b, 1, g_b, d] (B transposed), C [2, s_a, 1, g, s_b]; each AIV one B index,
    IterateBatch over groups of batchA SD blocks."""
    g = max(g_a, g_b)
    a, b = rand((2, s_a, 1, g_a, d), seed), rand((2, s_b, 1, g_b, d), seed + 1)
    info = dict(ALayoutInfoB=2, ALayoutInfoS=s_a, ALayoutInfoN=1, ALayoutInfoG=g_a, ALayoutInfoD=d,
                BLayoutInfoB=2, BLayoutInfoS=s_b, BLayoutInfoN=1, BLayoutInfoG=g_b, BLayoutInfoD=d,
                CLayoutInfoB=2, CLayoutInfoS1=s_a, CLayoutInfoN=1, CLayoutInfoG=g, CLayoutInfoS2=s_b,
                BatchNum=batch_a) if layouts else {}
    c = torch.full((2, s_a, 1, g, s_b), float("nan"))
    lib.launch("batch_bsngd", 1, a=a, b=b, c=c, workspace=workspace(), tiling=mm_tiling(s_a, s_b, d, False, **info),
               batchA=batch_a, batchB=batch_b, mode=mode)
    return c, torch.einsum("bsngd,btngd->bsngt", a.double(), b.double())


@pytest.mark.parametrize("batch", [3, 1])
def test_bsngd_layout(lib, batch):
    close(*bsngd_case(lib, batch, batch, seed=batch))


def test_bsngd_rules(lib):
    with pytest.raises(KernelRuleViolation, match=r"with the BSNGD layout C is not written sequentially"):
        bsngd_case(lib, 3, 3, mode=7)
    with pytest.raises(KernelRuleViolation, match=r"the host tiling sets the layouts \(SetALayout"):
        bsngd_case(lib, 3, 3, layouts=False)
    with pytest.raises(KernelRuleViolation, match=r"\(ALayoutInfoN \* ALayoutInfoG\) / batchA.*whole numbers.*"
                                                  r"A's N\*G 3 with batchA 2"):
        bsngd_case(lib, 2, 2)
    with pytest.raises(KernelRuleViolation, match=r"ALayoutInfoG / batchA = BLayoutInfoG / batchB.*"
                                                  r"ALayoutInfoG 2, batchA 2, BLayoutInfoG 4, batchB 2"):
        bsngd_case(lib, 2, 2, g_a=2, g_b=4)
    with pytest.raises(KernelRuleViolation, match=r"the G-axis broadcast is not modelled.*batchA 1, batchB 3"):
        bsngd_case(lib, 1, 3, g_a=1, g_b=3)
    close(*bsngd_case(lib, 3, 3, seed=9))  # the counterpart


# ---- IterateNBatch -----------------------------------------------------------------------------------------------

def nbatch_case(lib, batch_loop, batch, mode=0, seed=0, s_a=32, s_b=64, d=32, g=3, bn=2):
    """A [bn, s_a, 1, g, d], B [bn, s_b, 1, g, d] transposed, C [bn, s_a, 1, g, s_b] = the SetWorkspace buffer;
    batchLoop batches of `batch` = g SD blocks, each loop one B index; the bias reused within a loop (isBiasBatch =
    false), the server moving it on by batch * s_b per loop (the API's IterateNBatch): loop l's at [l, 0, :] of a
    [bn, g, s_b] bias."""
    a, b = rand((bn, s_a, 1, g, d), seed), rand((bn, s_b, 1, g, d), seed + 1)
    bias = rand((bn, g, s_b), seed + 2, torch.float32)
    ref = torch.einsum("bsngd,btngd->bsngt", a.double(), b.double()) + bias[:, 0].double()[:, None, None, None, :]
    info = dict(ALayoutInfoB=bn, ALayoutInfoS=s_a, ALayoutInfoN=1, ALayoutInfoG=g, ALayoutInfoD=d,
                BLayoutInfoB=bn, BLayoutInfoS=s_b, BLayoutInfoN=1, BLayoutInfoG=g, BLayoutInfoD=d,
                CLayoutInfoB=bn, CLayoutInfoS1=s_a, CLayoutInfoN=1, CLayoutInfoG=g, CLayoutInfoS2=s_b, BatchNum=batch)
    c = torch.full((bn, s_a, 1, g, s_b), float("nan"))
    lib.launch("batch_n_batch", 1, a=a, b=b, bias=bias, c=c, workspace=workspace(),
               tiling=mm_tiling(s_a, s_b, d, True, **info), batchLoop=batch_loop, batch=batch, mode=mode)
    return c, ref


def test_iterate_n_batch(lib):
    # two B indices of three SD blocks: two loops of 3, the second one B index on
    close(*nbatch_case(lib, 2, 3))


def test_iterate_n_batch_rules(lib):
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateNBatch: broke the rule 'IterateNBatch writes C "
                                                  r"into the SetWorkspace buffer: SetWorkspace comes first"):
        nbatch_case(lib, 2, 3, mode=8)
    with pytest.raises(KernelRuleViolation, match=r"the block the cube writes fits the buffer it goes to"):
        nbatch_case(lib, 2, 3, mode=9)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::GetBatchTensorC: broke the rule 'GetBatchTensorC "
                                                  r"follows an IterateNBatch<false>"):
        nbatch_case(lib, 2, 3, mode=10)
    close(*nbatch_case(lib, 2, 3, seed=4))  # the counterpart


# ---- compile-time rules ------------------------------------------------------------------------------------------

SOURCE = """{prefix}#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using A = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::{la}>;
using B = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::{lb}>;
using C = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, false, LayoutMode::{lc}>;
using Bias = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
constexpr MatmulConfig CFG = {cfg};
extern "C" __global__ __aicore__ void k(GM_ADDR c, TCubeTiling t)
{{
    AscendC::TPipe pipe;
    AscendC::Matmul<A, B, C, Bias, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<float> cGm;
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
    {call};
}}
"""
NORM = "GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulBatchParams{{{nb}, BatchMode::BATCH_LESS_THAN_L1}})"


def compiles(tmp_path, name, la="NORMAL", lb="NORMAL", lc="NORMAL", cfg=NORM.format(nb="false"),
             call="mm.IterateBatch(cGm, 2, 2, false)", prefix=""):
    src = tmp_path / f"{name}.cpp"
    src.write_text(SOURCE.format(la=la, lb=lb, lc=lc, cfg=cfg, call=call, prefix=prefix))
    ascend_ext.twin.compile_kernels([str(src)])


@pytest.mark.parametrize("kw,message", [
    (dict(lb="BSNGD"), "A and B have the same layout"),
    (dict(la="NONE", lb="NONE", lc="NONE"), "IterateBatch needs MatmulType's LAYOUT"),
    (dict(cfg="CFG_MDL"), "only supports the Norm template"),
    (dict(la="SBNGD", lb="SBNGD", lc="SBNGD"), "SBNGD and BNGS1S2 are not modelled"),
    (dict(call="mm.IterateNBatch(1, 2, 2, false)"), "BMM does not support the layout being NONE or NORMAL"),
    (dict(la="BSNGD", lb="BSNGD", lc="BSNGD", call="mm.IterateNBatch(1, 2, 2, false)"), "needs MatmulConfig isNBatch"),
    (dict(prefix="#define ASCENDC_CUBE_ONLY\n"), "the cube-only form, after SetBatchNum, is not modelled"),
])
def test_compile_time_rules(tmp_path, kw, message):
    with pytest.raises(KernelCompileError, match=message):
        compiles(tmp_path, "fault", **kw)


def test_compile_time_counterparts(tmp_path):
    compiles(tmp_path, "normal")
    compiles(tmp_path, "nbatch", la="BSNGD", lb="BSNGD", lc="BSNGD", cfg=NORM.format(nb="true"),
             call="mm.IterateNBatch(1, 2, 2, false)")

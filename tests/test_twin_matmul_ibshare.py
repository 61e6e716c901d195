"""The Matmul API's IBShare forms on the twin (tests/kernels/mix_matmul_ibshare.cpp): the two AIVs of a block share B
(or A) under the IBShare template, or A and B both, checked against float64 on fresh random operands; and the
template's tiling rules (the API's K loop and Norm scheduler assert them, and its CheckTailShape: a SetTail block no
larger than the tiling's singleCore shape) as planted faults next to their passing counterparts. The
compile-time rules (MIX only, exactly one shared matrix) are in tests/cpp/compile_fail/matmul_ibshare_forms.cpp."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from test_twin_mix_matmul import close, operands, tiling, workspace

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "mix_matmul_ibshare.cpp")])


def run(lib, kernel, t, seed):
    a, b, bias, ref = operands(t.M, t.N, t.Ka, seed)
    c = torch.full((t.M, t.N), float("nan"))
    stats = lib.launch(kernel, t.usedCoreNum // 2, a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))
    return c, ref, stats


def shared_b_tiling(step_n=2, depth_b1=4):
    # The block's two AIVs split M (mCore 0, 1) over the same B: 2 base columns (nIter 2), 2 base K steps (kIter 2).
    t = tiling(128, 64, 64, 64, 64, 32, 32, 32, cores=2)
    t.stepN, t.depthB1 = step_n, depth_b1
    return t


def shared_a_tiling(step_m=2, depth_a1=4):
    # The AIVs split N over the same A, ORDER_N: 2 base rows (mIter 2), kIter 2.
    t = tiling(64, 128, 64, 64, 64, 32, 32, 32, cores=2)
    t.stepM, t.depthA1, t.iterateOrder = step_m, depth_a1, 1
    return t


def test_shared_b_and_shared_a_match_float64(lib):
    seed = int(torch.randint(0, 2**31 - 1, (1,)))
    c, ref, stats = run(lib, "ibshare_b", shared_b_tiling(), seed)
    close(c, ref)
    assert stats.mix_type == "MIX_AIC_1_2"
    c, ref, _ = run(lib, "ibshare_a", shared_a_tiling(), seed + 1)
    close(c, ref)


def test_ibshare_template_tiling_rules(lib):
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateAll \(AIC\): broke the rule 'the IBShare template: "
                                                  r"when iterateOrder is ORDER_M and B is shared, stepN >= nIter'.*"
                                                  r"stepN 1 < nIter 2"):
        run(lib, "ibshare_b", shared_b_tiling(step_n=1, depth_b1=2), 1)
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'the IBShare template needs the shared matrix's K "
                                                  r"fully loaded in L1.*depthB1 2 < kIter 2 \* stepN 2"):
        run(lib, "ibshare_b", shared_b_tiling(step_n=2, depth_b1=2), 2)
    with pytest.raises(KernelRuleViolation, match=r"when iterateOrder is ORDER_N and A is shared, stepM >= mIter'.*"
                                                  r"stepM 1 < mIter 2"):
        run(lib, "ibshare_a", shared_a_tiling(step_m=1, depth_a1=2), 3)
    with pytest.raises(KernelRuleViolation, match=r"depthA1 2 < kIter 2 \* stepM 2"):
        run(lib, "ibshare_a", shared_a_tiling(step_m=2, depth_a1=2), 4)
    # The counterparts: the same kernels with the tilings that hold the shared matrix whole.
    for kernel, t in (("ibshare_b", shared_b_tiling()), ("ibshare_a", shared_a_tiling())):
        c, ref, _ = run(lib, kernel, t, 5)
        close(c, ref)


def test_a_and_b_both_shared_match_float64(lib):
    # A and B both IBSHARE in a MIX kernel: each AIV's IterateAll into GM computes its own tile.
    c, ref, _ = run(lib, "ibshare_ab", shared_b_tiling(), int(torch.randint(0, 2**31 - 1, (1,))))
    close(c, ref)


def test_ibshare_template_block_no_larger_than_single_core(lib):
    # The API's CheckTailShape under the IBShare template: SetTail/SetSingleShape's tailK <= the tiling's singleCoreK.
    small_k = shared_b_tiling()
    small_k.singleCoreK = 32
    with pytest.raises(KernelRuleViolation, match=r"Matmul::SetTail/SetSingleShape: broke the rule 'with the IBShare "
                                                  r"template \(CFG_IBSHARE_NORM\) the block is no larger than the "
                                                  r"tiling's singleCoreM/N/K'.*tailK 64 > 32"):
        run(lib, "ibshare_b_tail_k", small_k, 6)
    seed = int(torch.randint(0, 2**31 - 1, (1,)))
    c, ref, _ = run(lib, "ibshare_b_tail_k", shared_b_tiling(), seed)  # tailK = singleCoreK: the counterpart
    close(c, ref)
    c, ref, _ = run(lib, "ibshare_ab_tail_k", small_k, seed + 1)  # CFG_NORM: a larger block is walked as given
    close(c, ref)

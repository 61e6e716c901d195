"""The Matmul API's partial outputs on the twin (MatmulConfig isPartialOutput with the MDL template,
tests/kernels/mix_matmul_partial.cpp): each Iterate is one base block over one baseK slice, K innermost, written densely
by GetTensorC; every slice is checked against its float64 product (fresh random operands, a K tail), and the API's
rules (no bias, no IterateAll) are planted next to the passing kernel. The compile-time rules (MDL only, no LocalTensor
output) are in tests/cpp/compile_fail/matmul_mix_forms.cpp."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from test_twin_mix_matmul import operands, tiling, workspace

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
M, N, K, BM, BN, BK = 64, 96, 80, 32, 48, 32  # kIter 3 (the last slice 16 deep), ORDER_M


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "mix_matmul_partial.cpp")])


def run(lib, kernel, seed):
    t = tiling(M, N, K, M, N, BM, BN, BK, cores=1, bias=False)
    a, b, bias, _ = operands(M, N, K, seed)
    k_iter = -(-K // BK)
    slices = torch.full((M * N * k_iter,), float("nan"))
    lib.launch(kernel, 1, a=a, b=b, bias=bias, slices=slices, workspace=workspace(), tiling=bytes(t))
    return a, b, slices, k_iter


def test_partial_slices_match_float64(lib):
    a, b, slices, k_iter = run(lib, "partial_slices", int(torch.randint(0, 2**31 - 1, (1,))))
    expect = []
    for nb in range(N // BN):  # ORDER_M: M inner, then N; K innermost of all
        for mb in range(M // BM):
            for kb in range(k_iter):
                ks = slice(kb * BK, min(K, (kb + 1) * BK))
                blk = a[mb * BM:(mb + 1) * BM, ks].double() @ b[ks, nb * BN:(nb + 1) * BN].double()
                expect.append(blk.reshape(-1))
    torch.testing.assert_close(slices.double(), torch.cat(expect), rtol=1e-5, atol=1e-5)


def test_partial_output_rules(lib):
    with pytest.raises(KernelRuleViolation, match=r"Matmul::SetBias: broke the rule 'a Matmul with isPartialOutput takes "
                                                  r"no bias"):
        run(lib, "partial_with_bias", 1)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateAll: broke the rule 'IterateAll is not supported "
                                                  r"with isPartialOutput"):
        run(lib, "partial_iterate_all", 2)
    _, _, slices, _ = run(lib, "partial_slices", 3)  # the counterpart
    assert not slices.isnan().any()

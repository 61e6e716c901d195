"""Matmul's MATMUL_POLICY (tests/kernels/cube_matmul_policies.cpp). NBuffer33MatmulPolicy: the same product as the default policy, against
float64; its tiling rules planted next to the passing tiling: stepM/stepKa/stepKb at most 3, and the core's A whole
in L1 (its base rows within stepM, its base K columns within stepKa: the policy's scheduler walks M inside one
step only). TrianUpperMatmulPolicy / TrianLowerMatmulPolicy: the base blocks on and above (below) the diagonal of the
core's base-block grid written, against float64, the others keeping C's fresh random values. The compile-time rules
are in tests/cpp/compile_fail/matmul_policies.cpp and matmul_mix_forms.cpp."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from test_twin_mix_matmul import close, operands, tiling, workspace

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "cube_matmul_policies.cpp")])


def nbuffer33_tiling(step_m=3, step_k=3):
    # M 96 (3 base rows of 32), N 128 (4 base columns of 32), K 96 (3 base K columns of 32), one core.
    t = tiling(96, 128, 96, 96, 128, 32, 32, 32, cores=1, step_k=step_k)
    t.stepM, t.depthA1 = step_m, step_m * step_k
    return t


def run(lib, t, seed):
    a, b, bias, ref = operands(t.M, t.N, t.Ka, seed)
    c = torch.full((t.M, t.N), float("nan"))
    lib.launch("nbuffer33", 1, a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))
    return c, ref


def test_nbuffer33_matches_float64_and_its_tiling_rules(lib):
    c, ref = run(lib, nbuffer33_tiling(), int(torch.randint(0, 2**31 - 1, (1,))))
    close(c, ref)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateAll: broke the rule 'with NBuffer33MatmulPolicy the "
                                                  r"core's A is whole in L1.*3 base rows \(singleM 96, baseM 32\) for "
                                                  r"stepM 1"):
        run(lib, nbuffer33_tiling(step_m=1), 1)
    with pytest.raises(KernelRuleViolation, match=r"3 base K columns \(singleK 96, baseK 32\) for stepKa 1"):
        run(lib, nbuffer33_tiling(step_k=1), 2)
    big = tiling(128, 128, 96, 128, 128, 32, 32, 32, cores=1, step_k=3)
    big.stepM, big.depthA1 = 4, 12
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'with NBuffer33MatmulPolicy stepM, stepKa and stepKb "
                                                  r"are at most 3'.*stepM 4, stepKa 3, stepKb 3"):
        run(lib, big, 3)


@pytest.mark.parametrize("kernel, upper", [("trian_upper", True), ("trian_lower_iterate", False)])
def test_triangular_policies_write_their_triangle(lib, kernel, upper):
    # M 80, N 96: base blocks 32 x 32 make a 3 x 3 grid (the last row and column partial).
    t = tiling(96, 96, 64, 96, 96, 32, 32, 32, cores=1)
    t.M = t.singleCoreM = 80
    a, b, bias, ref = operands(80, 96, 64, int(torch.randint(0, 2**31 - 1, (1,))))
    c0 = torch.randn(80, 96) * 100
    c = c0.clone()
    lib.launch(kernel, 1, a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))
    rows = torch.arange(80).div(32, rounding_mode="floor")[:, None]
    cols = torch.arange(96).div(32, rounding_mode="floor")[None, :]
    written = rows <= cols if upper else rows >= cols
    close(c[written], ref[written])
    assert torch.equal(c[~written], c0[~written])

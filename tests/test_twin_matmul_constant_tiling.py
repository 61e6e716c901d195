"""Cube-only Matmul objects with a constant tiling on the twin (tests/kernels/matmul_constant_tiling.cpp): a full
constant tiling (GetMatmulApiTiling of a MatmulConfig with singleCoreM/N/K and basicM/N/K; REGIST_MATMUL_OBJ with a
null tiling) and a partial one (basicM/N/K only, over a runtime TCubeTiling whose base blocks it overrides), each
against float64 on fresh random inputs; the planted fault (a partial constant tiling without a runtime tiling) next
to its passing counterparts. The compile-time rules are in tests/cpp/compile_fail/matmul_constant_tiling.cpp."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from test_twin_mix_matmul import TCubeTiling

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "matmul_constant_tiling.cpp")])


def case(m, n, k, single_m, single_n, bias):
    g = torch.Generator().manual_seed(int(torch.randint(0, 2 ** 31, (1,))))
    a = (torch.rand(m, k, generator=g) * 2 - 1).half()
    b = (torch.rand(k, n, generator=g) * 2 - 1).half()
    bias_t = torch.rand(n, generator=g) * 2 - 1
    ref = a.double() @ b.double() + (bias_t.double() if bias else 0)
    shapes = torch.tensor([m, n, k, single_m, single_n, int(bias)], dtype=torch.int32)
    args = dict(a=a, b=b, bias=bias_t, c=torch.full((m, n), float("nan")), shapes=shapes)
    blocks = -(-m // single_m) * -(-n // single_n)
    return args, ref, blocks


def close(out, ref, k):
    # float32 accumulation of K half products
    torch.testing.assert_close(out.double(), ref, rtol=1e-5, atol=1e-5 * k ** 0.5)


@pytest.mark.parametrize("m,n,k,single_m,single_n,bias", [
    (128, 96, 80, 64, 96, True),    # two cores, the constant single shape exactly
    (100, 70, 50, 64, 48, False),   # unaligned, tails smaller than the constant single shape
    (96, 40, 200, 96, 40, True),    # SetTail past the constant single shape (M 96 > 64, K 200 > 80)
])
def test_full_constant_tiling_null_pointer(lib, m, n, k, single_m, single_n, bias):
    args, ref, blocks = case(m, n, k, single_m, single_n, bias)
    stats = lib.launch("full_constant", blocks, **args)
    close(args["c"], ref, k)
    assert sum(x.cube_macs for x in stats.cores) == m * n * k


def test_partial_constant_tiling_over_a_runtime_one(lib):
    m, n, k = 96, 64, 96
    args, ref, blocks = case(m, n, k, 48, 64, True)
    # The runtime tiling's base blocks (64 x 64 x 32) are replaced by the constant 32 x 32 x 16; its L1 split
    # (one base block a step, double-buffered) is kept.
    t = TCubeTiling(usedCoreNum=2, M=m, N=n, Ka=k, Kb=k, singleCoreM=48, singleCoreN=64, singleCoreK=k, baseM=64,
                    baseN=64, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1, isBias=1,
                    iterateOrder=0, dbL0A=2, dbL0B=2, dbL0C=1)
    stats = lib.launch("partial_constant", blocks, **args, tilingGm=bytes(t))
    close(args["c"], ref, k)
    # 48 x 64 per core in 32 x 32 base blocks: 2 x 2 blocks, 96 / 16 = 6 K steps each
    assert [x.cube["mmad_calls"] for x in stats.cores] == [4 * 6, 4 * 6]


def test_partial_constant_tiling_needs_a_runtime_tiling(lib):
    args, _, blocks = case(64, 32, 32, 64, 32, False)
    with pytest.raises(KernelRuleViolation, match=r"REGIST_MATMUL_OBJ/Matmul::Init.*without a runtime TCubeTiling.*"
                                                  r"MatmulApiStaticTiling\.M is -1 \(unset\)"):
        lib.launch("partial_constant_null", blocks, **args)

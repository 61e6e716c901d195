"""A cube-only Matmul object with C at CO1 on the twin (tests/kernels/matmul_co1_output.cpp): Iterate(enPartialSum,
LocalTensor) leaves the blocks in the kernel's CO1 buffer as NZ and its Fixpipe writes them to GM, against float64
on fresh random inputs (and enPartialSum = true accumulating a second walk); the planted faults (a CO1 buffer too
small for the blocks, a tensor not at CO1) next to them. The compile-time rules are in
tests/cpp/compile_fail/matmul_co1_output.cpp."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from test_twin_mix_matmul import TCubeTiling

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "matmul_co1_output.cpp")])


def case(m, n, k, base_n, base_k):
    g = torch.Generator().manual_seed(int(torch.randint(0, 2 ** 31, (1,))))
    a = (torch.rand(m, k, generator=g) * 2 - 1).half()
    b = (torch.rand(k, n, generator=g) * 2 - 1).half()
    bias = torch.rand(n, generator=g) * 2 - 1
    ref = a.double() @ b.double() + bias.double()
    t = TCubeTiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=m,
                    baseN=base_n, baseK=base_k, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1, isBias=1,
                    iterateOrder=0, dbL0A=2, dbL0B=2, dbL0C=1)
    args = dict(a=a, b=b, bias=bias, c=torch.full((m, n), float("nan")), tiling=bytes(t))
    return args, ref


@pytest.mark.parametrize("m,n,k,base_n,base_k", [(32, 256, 128, 128, 64), (16, 96, 48, 32, 16), (48, 80, 32, 48, 32)])
def test_co1_output_against_float64(lib, m, n, k, base_n, base_k):
    args, ref = case(m, n, k, base_n, base_k)
    lib.launch("co1_output", 1, **args)
    torch.testing.assert_close(args["c"].double(), ref, rtol=1e-5, atol=1e-5 * k ** 0.5)


def test_co1_output_partial_sum_accumulates(lib):
    args, ref = case(32, 64, 64, 32, 32)
    lib.launch("co1_output_twice", 1, **args)
    torch.testing.assert_close(args["c"].double(), 2 * ref, rtol=1e-5, atol=2e-5 * 64 ** 0.5)


def test_co1_buffer_too_small(lib):
    args, _ = case(32, 64, 64, 32, 32)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::Iterate.*the CO1 tensor holds the block's NZ fractals.*"
                                                  r"needs 1024 floats, the tensor has 512"):
        lib.launch("co1_output_small", 1, **args)


def test_co1_output_needs_a_co1_tensor(lib):
    args, _ = case(32, 64, 64, 32, 32)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::Iterate.*with C at CO1 the tensor is a CO1 \(L0C\) "
                                                  r"LocalTensor"):
        lib.launch("co1_output_not_co1", 1, **args)

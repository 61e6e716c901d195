"""The 4:2 sparse Matmul (SparseMatmulType B, SetSparseIndex; tests/kernels/cube_matmul_sparse.cpp): int8_t A, a
random sparse B [N, K] (2 non-zeros in each group of 4 along K, at random places) given as its dense [N, K / 2] and the
2-bit index matrix in NZ (16 x 8-byte fractals), built here from the documented encoding (the first index the place
of the first non-zero among the group's first three, the second that of the second among its last three, 4 indices a
byte, the first in the low bits). C = A @ B^T + bias compared exactly with the int64 product of the sparse B.
Planted next to it: no SetSparseIndex, an index matrix one fractal row short, a baseK that is not a multiple of 64."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from test_twin_mix_matmul import tiling, workspace

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
M, N, K = 64, 80, 256  # base blocks 32 x 48 x 64: a partial block in N


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "cube_matmul_sparse.cpp")])


def operands():
    g = torch.Generator().manual_seed(int(torch.randint(0, 2**31 - 1, (1,))))
    a = torch.randint(-128, 128, (M, K), generator=g, dtype=torch.int8)
    groups = K // 4
    # two distinct places in each group of 4: the first in 0..2, the second after it
    first = torch.randint(0, 3, (N, groups), generator=g)
    second = first + 1 + (torch.rand(N, groups, generator=g) * (3 - first)).long()
    signs = torch.randint(0, 2, (N, groups, 2), generator=g) * 2 - 1
    values = torch.randint(1, 128, (N, groups, 2), generator=g) * signs
    sparse = torch.zeros(N, groups, 4, dtype=torch.int64)
    sparse.scatter_(2, first.unsqueeze(2), values[:, :, :1])
    sparse.scatter_(2, second.unsqueeze(2), values[:, :, 1:])
    sparse = sparse.reshape(N, K)
    dense = values.reshape(N, K // 2).to(torch.int8)
    idx = torch.stack([first, second - 1], dim=2).reshape(N, K // 2)  # 2-bit indices, dense order
    packed = (idx.reshape(N, K // 8, 4) << torch.tensor([0, 2, 4, 6])).sum(2).to(torch.uint8)  # [N, K / 8]
    n16 = (N + 15) // 16 * 16
    nz = torch.zeros(K // 64, n16, 8, dtype=torch.uint8)  # NZ: fractal column kb / 8, row n, byte kb % 8
    nz[:, :N, :] = packed.reshape(N, K // 64, 8).permute(1, 0, 2)
    bias = torch.randint(-2**20, 2**20, (N,), generator=g, dtype=torch.int32)
    ref = a.long() @ sparse.t() + bias.long()
    return a, dense, nz.reshape(-1), bias, ref


def launch(lib, kernel, a, dense, index, bias, c, base_k=64):
    t = tiling(M, 96, K, M, 96, 32, 48, base_k, cores=1)
    t.N = t.singleCoreN = N
    lib.launch(kernel, 1, a=a, b=dense, index=index, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))


def test_sparse_int8_is_exact(lib):
    a, dense, index, bias, ref = operands()
    c = torch.full((M, N), -7, dtype=torch.int32)
    launch(lib, "sparse_int8", a, dense, index, bias, c)
    assert torch.equal(c.long(), ref)


def test_sparse_rules(lib):
    a, dense, index, bias, ref = operands()
    c = torch.zeros((M, N), dtype=torch.int32)
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'a SparseMatmulType B needs its index matrix "
                                                  r"\(SetSparseIndex\)'"):
        launch(lib, "sparse_int8_no_index", a, dense, index, bias, c)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateAll \(index: GM->L1\): broke the rule 'GM reads "
                                                  r"stay inside"):
        launch(lib, "sparse_int8", a, dense, index[:-128].clone(), bias, c)
    with pytest.raises(KernelRuleViolation, match=r"with a sparse B each K tile is a multiple of 64"):
        launch(lib, "sparse_int8", a, dense, index, bias, c, base_k=32)
    launch(lib, "sparse_int8", a, dense, index, bias, c)  # the counterpart
    assert torch.equal(c.long(), ref)

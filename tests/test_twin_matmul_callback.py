"""Matmul's user copy-in callbacks (MatmulCallBackFunc's CopyA1 / CopyB1, SetUserDefInfo, SetSelfDefineData;
tests/kernels/cube_matmul_callback.cpp), one core with partial base blocks in N and K.

- CopyA1 reads A from the address SetSelfDefineData passed (the tensor SetTensorA set is all nan, so a walk that read
  it would show) with the tiling SetUserDefInfo passed, into L1 as [M, K] NZ: C against float64.
- CopyB1 moves int8_t B's tiles (K rows aligned to 32): int32_t C exactly.
Planted next to them: SetSelfDefineData after SetTensorA (its docs: before), a transposed A with CopyA1 (the twin's
deliberate strictness), a CopyA1 leaving 16 K columns of each tile unwritten (the result shows the nan the twin fills
the tile with), a CopyA1 writing past its L1 tile."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from test_twin_mix_matmul import tiling, workspace

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
M, N, K = 96, 80, 160  # base blocks 32 x 48 x 64: partial blocks in N and K


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "cube_matmul_callback.cpp")])


def seed():
    return int(torch.randint(0, 2**31 - 1, (1,)))


def half_operands():
    g = torch.Generator().manual_seed(seed())
    a = (torch.rand(M, K, generator=g) * 2 - 1).half()
    b = (torch.rand(K, N, generator=g) * 2 - 1).half()
    bias = torch.rand(N, generator=g) * 2 - 1
    return a, b, bias, a.double() @ b.double() + bias.double()


def launch_a(lib, kernel, a, b, bias, c):
    t = tiling(M, 96, K, M, 96, 32, 48, 64, cores=1)
    t.N = t.singleCoreN = N
    nan_a = torch.full((M, K), float("nan"), dtype=torch.float16)
    lib.launch(kernel, 1, a=nan_a, real_a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))


def test_copy_a1_with_user_data(lib):
    a, b, bias, ref = half_operands()
    c = torch.full((M, N), float("nan"))
    launch_a(lib, "half_copy_a1", a, b, bias, c)
    torch.testing.assert_close(c.double(), ref, rtol=1e-5, atol=1e-5 * K ** 0.5)


def test_copy_a1_faults(lib):
    a, b, bias, ref = half_operands()
    c = torch.full((M, N), float("nan"))
    with pytest.raises(KernelRuleViolation, match=r"Matmul::SetSelfDefineData: broke the rule 'SetSelfDefineData is "
                                                  r"called before SetTensorA and SetTensorB"):
        launch_a(lib, "half_copy_a1_late_data", a, b, bias, c)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::SetTensorA: broke the rule 'with a CopyA1 callback "
                                                  r"\(MatmulCallBackFunc\) A is not transposed"):
        launch_a(lib, "half_copy_a1_transposed", a, b, bias, c)
    with pytest.raises(KernelRuleViolation, match=r"DataCopy\(GM->L1, Nd2NzParams\): broke the rule 'cube "
                                                  r"accesses stay inside the LocalTensor'"):
        launch_a(lib, "half_copy_a1_overrun", a, b, bias, c)
    launch_a(lib, "half_copy_a1_short", a, b, bias, c)  # the unwritten columns read as nan
    assert torch.isnan(c).all()
    launch_a(lib, "half_copy_a1", a, b, bias, c)  # the counterpart
    torch.testing.assert_close(c.double(), ref, rtol=1e-5, atol=1e-5 * K ** 0.5)


def test_copy_b1_int8_is_exact(lib):
    g = torch.Generator().manual_seed(seed())
    a = torch.randint(-128, 128, (M, K), generator=g, dtype=torch.int8)
    b = torch.randint(-128, 128, (K, N), generator=g, dtype=torch.int8)
    bias = torch.randint(-2**20, 2**20, (N,), generator=g, dtype=torch.int32)
    c = torch.full((M, N), -7, dtype=torch.int32)
    t = tiling(M, 96, K, M, 96, 32, 48, 64, cores=1)
    t.N = t.singleCoreN = N
    lib.launch("int8_copy_b1", 1, a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))
    assert torch.equal(c.long(), a.long() @ b.long() + bias.long())

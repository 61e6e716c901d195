"""int8_t Matmul (tests/kernels/cube_matmul_int8.cpp): int8_t A and B with an int32_t bias accumulate in L0C's
int32_t, compared exactly with the int64 product; a half C leaves through the dequantisation of SetQuantScalar or
SetQuantVector (C = half(int32_t sum * scale), the scale the word's bits 0-31 with bits 0-12 dropped), against
float64. Planted next to them: a half C with no quantisation parameter, a nan scale, a quantTensor one word short.
int4b_t A and B (packed two a byte, low nibble first) with an int32_t bias and C, B also transposed: exact; an odd
inner axis (K) planted."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from test_twin_mix_matmul import tiling, workspace

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
M, N, K = 96, 80, 160  # one core; base blocks 32 x 48 x 64 leave partial blocks in N and K


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "cube_matmul_int8.cpp")])


def operands(seed, b_hi=128):
    g = torch.Generator().manual_seed(seed)
    a = torch.randint(-128, 128, (M, K), generator=g, dtype=torch.int8)
    b = torch.randint(-b_hi, b_hi, (K, N), generator=g, dtype=torch.int8)
    bias = torch.randint(-2**20, 2**20, (N,), generator=g, dtype=torch.int32)
    return a, b, bias, a.long() @ b.long() + bias.long()


def words(scales):
    """The quantisation words of float `scales` (bits 0-31), and the scales the Fixpipe applies (bits 0-12 dropped)."""
    bits = scales.float().view(torch.int32).long() & 0xFFFFFFFF
    return bits, (bits & 0xFFFFE000).int().view(torch.float32).double()


def launch(lib, kernel, a, b, bias, c, quant):
    t = tiling(M, 96, K, M, 96, 32, 48, 64, cores=1)
    t.N = t.singleCoreN = N
    lib.launch(kernel, 1, a=a, b=b, bias=bias, c=c, quant=quant, workspace=workspace(), tiling=bytes(t))


def seed():
    return int(torch.randint(0, 2**31 - 1, (1,)))


def test_int8_to_int32_is_exact(lib):
    a, b, bias, ref = operands(seed())
    c = torch.full((M, N), -7, dtype=torch.int32)
    launch(lib, "int8_int32_c", a, b, bias, c, torch.zeros(N, dtype=torch.int64))
    assert torch.equal(c.long(), ref)


@pytest.mark.parametrize("vector", [False, True])
def test_int8_dequantised_to_half(lib, vector):
    a, b, bias, acc = operands(seed(), b_hi=4)  # small B: C within half's range
    bias = (bias // 256).int()
    acc = a.long() @ b.long() + bias.long()
    q, scales = words(torch.rand(N if vector else 1) * 0.9 + 0.1)
    c = torch.full((M, N), float("nan"), dtype=torch.float16)
    launch(lib, "int8_half_c_vector" if vector else "int8_half_c_scalar", a, b, bias, c, q)
    torch.testing.assert_close(c.double(), acc.double() * scales, rtol=1e-3, atol=1e-3)


def test_dequantisation_rules(lib):
    a, b, bias, _ = operands(seed(), b_hi=4)
    c = torch.zeros((M, N), dtype=torch.float16)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateAll: broke the rule 'with int8_t A and B and half "
                                                  r"C, SetQuantScalar or SetQuantVector is called"):
        launch(lib, "int8_half_c_unquantised", a, b, bias, c, torch.zeros(N, dtype=torch.int64))
    q, _ = words(torch.full((N,), 0.5))
    q[N - 1] = 0x7FC00000  # a nan scale in the last column
    with pytest.raises(KernelRuleViolation, match=r"dequantisation\): broke the rule 'the dequantisation scale .* is "
                                                  r"not inf, nan or a denormal'.*quantTensor\[79\]"):
        launch(lib, "int8_half_c_vector", a, b, bias, c, q)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::SetQuantVector \(quantTensor: GM->L1->Fixpipe\): broke the "
                                                  r"rule 'GM reads stay inside"):
        launch(lib, "int8_half_c_vector", a, b, bias, c, q[:N - 1].clone())
    q[N - 1] = q[0]  # the counterpart: every scale finite
    launch(lib, "int8_half_c_vector", a, b, bias, c, q)


def pack_int4(x):
    """int4b_t values as GM holds them: element 2i in the low nibble of byte i."""
    u = x.reshape(-1) & 0xF
    return (u[0::2] | (u[1::2] << 4)).to(torch.uint8).view(torch.int8)


@pytest.mark.parametrize("trans_b", [False, True])
def test_int4_to_int32_is_exact(lib, trans_b):
    g = torch.Generator().manual_seed(seed())
    a = torch.randint(-8, 8, (M, K), generator=g, dtype=torch.int64)
    b = torch.randint(-8, 8, (K, N), generator=g, dtype=torch.int64)
    bias = torch.randint(-2**20, 2**20, (N,), generator=g, dtype=torch.int32)
    c = torch.full((M, N), -7, dtype=torch.int32)
    t = tiling(M, 96, K, M, 96, 32, 48, 64, cores=1)
    t.N = t.singleCoreN = N
    lib.launch("int4_int32_c_trans_b" if trans_b else "int4_int32_c", 1, a=pack_int4(a),
               b=pack_int4(b.T.contiguous() if trans_b else b), bias=bias, c=c, quant=None, workspace=workspace(),
               tiling=bytes(t))
    assert torch.equal(c.long(), a @ b + bias.long())


def test_int4_inner_axis_is_even(lib):
    k = K - 1  # an odd K: A's rows would start in the middle of a byte
    g = torch.Generator().manual_seed(seed())
    a = torch.randint(-8, 8, (M * k,), generator=g, dtype=torch.int64)
    b = torch.randint(-8, 8, (k * N,), generator=g, dtype=torch.int64)
    t = tiling(M, 96, k, M, 96, 32, 48, 64, cores=1)
    t.N = t.singleCoreN = N
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateAll: broke the rule 'with int4b_t A and B the inner "
                                                  r"axis of each matrix holds an even number of elements.*K 159"):
        lib.launch("int4_int32_c", 1, a=pack_int4(a), b=pack_int4(b), bias=torch.zeros(N, dtype=torch.int32),
                   c=torch.zeros((M, N), dtype=torch.int32), quant=None, workspace=workspace(), tiling=bytes(t))

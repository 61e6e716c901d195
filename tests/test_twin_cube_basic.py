"""The raw cube path of the basic API on the twin (DataCopy with Nd2NzParams, LoadData, Mmad with and without
a bias from the BiasTable, Fixpipe NZ -> ND), against float64 matrix products, and its rules: memory
capacities, the L0 alignment, the documented ranges, Fixpipe's nSize and quantPre, the core type."""
import os
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

SOURCE = os.path.join(os.path.dirname(__file__), "kernels", "cube_basic.cpp")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([SOURCE])


def run(lib, kernel, m, n, k, dtype, out_dtype, bias=False, fault=0, seed=0):
    g = torch.Generator().manual_seed(seed)
    a = (torch.rand(m, k, generator=g, dtype=torch.float64) * 2 - 1).to(dtype)
    b = (torch.rand(k, n, generator=g, dtype=torch.float64) * 2 - 1).to(dtype)
    nb = (n + 15) // 16 * 16
    bias_t = (torch.rand(nb, generator=g, dtype=torch.float64) * 2 - 1).to(torch.float16) if bias else None
    c = torch.zeros(m, n, dtype=out_dtype)
    lib.launch(kernel, 1, a=a, b=b, bias=bias_t, c=c, tiling=struct.pack("<4I", m, n, k, fault))
    expect = a.double() @ b.double()
    if bias:
        expect = expect + bias_t[:n].double()
    return c, expect


@pytest.mark.parametrize("m,n,k", [(32, 32, 32), (20, 48, 40), (2, 16, 64), (45, 16, 7)])
@pytest.mark.parametrize("bias", [False, True])
def test_half_matmul_through_l1_and_l0(lib, m, n, k, bias):
    c, expect = run(lib, "cube_half", m, n, k, torch.float16, torch.float32, bias)
    torch.testing.assert_close(c.double(), expect, rtol=1e-5, atol=1e-5)


def test_bfloat16_matmul_with_a_half_result(lib):
    c, expect = run(lib, "cube_bf16_to_half", 32, 48, 64, torch.bfloat16, torch.float16)
    torch.testing.assert_close(c.double(), expect, rtol=2e-3, atol=2e-3)


def test_counters_see_the_cube_work(lib):
    stats = None
    g = torch.Generator().manual_seed(1)
    a = torch.rand(32, 32, generator=g).half()
    b = torch.rand(32, 32, generator=g).half()
    stats = lib.launch("cube_half", 1, a=a, b=b, bias=None, c=torch.zeros(32, 32),
                       tiling=struct.pack("<4I", 32, 32, 32, 0))
    assert stats.total.cube_macs == 32 * 32 * 32


@pytest.mark.parametrize("fault,message", [
    (1, r"InitBuffer: broke the rule 'cube buffers fit in their memory': asking for 66048 bytes of L0A"),
    (2, r"LoadData\(L1->L0A/L0B\): broke the rule 'cube operands are aligned as their memory requires': operand "
        r"'dst' at L0A offset 256, not a multiple of 512 bytes"),
    (3, r"Mmad: broke the rule 'cube parameters are in their documented ranges': k 4096 is outside \[0, 4095\]"),
    (4, r"Fixpipe\(L0C->GM\): broke the rule 'Fixpipe's nSize is a multiple of 16 \(without channel split\)': nSize 24"),
    (6, r"broke the rule 'LoadData's addrMode is 0 from L1 \(only GM -> L1 may decrement\)': addrMode 1"),
    (7, r"Fixpipe\(L0C->GM\): broke the rule 'Fixpipe's dstStride is not 0'"),
    (8, r"Mmad: broke the rule 'cube operands are in the memory the instruction reads or writes': operand "
        r"'\w+' \(TPosition::B2\) is not in L0A"),
    (9, r"LoadData\(L1->L0A/L0B\): broke the rule 'LoadData transposes only 16-bit fractals': ifTranspose with "
        r"4-byte elements"),
    (10, r"Mmad: broke the rule 'a C matrix initialised from the BiasTable comes with the bias form of Mmad'"),
])
def test_planted_cube_faults(lib, fault, message):
    with pytest.raises(KernelRuleViolation, match=message):
        run(lib, "cube_half", 32, 32, 32, torch.float16, torch.float32, fault=fault)


def test_fixpipe_quant_mode_must_match_the_output_type(lib):
    with pytest.raises(KernelRuleViolation, match=r"Fixpipe's quantPre matches the output type"):
        run(lib, "cube_bf16_to_half", 32, 32, 32, torch.bfloat16, torch.float16, fault=5)


def test_a_vector_core_has_no_l1(lib):
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'an AI Vector core has no L1 or L0 buffers'"):
        lib.launch("vector_asks_for_l1", 1, x=None)


@pytest.fixture(scope="module")
def gemv_lib():
    return ascend_ext.twin.compile_kernels([os.path.join(os.path.dirname(SOURCE), "cube_gemv.cpp")])


def gemv(lib, n, k, bias=False, fault=0, seed=0):
    g = torch.Generator().manual_seed(seed)
    a = (torch.rand(k, generator=g, dtype=torch.float64) * 2 - 1).half()
    bt = (torch.rand(n, k, generator=g, dtype=torch.float64) * 2 - 1).half()
    b = torch.rand(n, generator=g, dtype=torch.float64).float() * 2 - 1
    c = torch.full((n,), float("nan"))
    lib.launch("cube_gemv", 1, a=a, bt=bt, bias=b, c=c, tiling=struct.pack("<4I", n, k, int(bias), fault))
    return c, bt.double() @ a.double() + (b.double() if bias else 0)


@pytest.mark.parametrize("n,k,bias", [(32, 256, False), (16, 512, False), (48, 64, False), (256, 64, True),
                                      (32, 64, True)])
def test_gemv_reads_the_row_of_a_as_nd_from_static_cube_tensors(gemv_lib, n, k, bias):
    # with a bias: the same-type (float) L1 -> BiasTable DataCopy counts 64-byte units (256 floats: all of BT)
    c, expect = gemv(gemv_lib, n, k, bias)
    assert torch.allclose(c.double(), expect, rtol=1e-5, atol=1e-5), (c.double() - expect).abs().max()


@pytest.mark.parametrize("fault,message", [
    (1, r"LocalTensor\(pos, addr, tileSize\): broke the rule 'a static tensor lies inside its memory': 512 bytes at "
        r"L1 address 524288"),
    (2, r"Mmad: broke the rule 'cube accesses stay inside the LocalTensor': operand 'fm' holds 256 bytes, the access "
        r"reaches byte 512"),
    (4, r"DataCopy\(UB->UB\): broke the rule 'a DataCopy between LocalTensors is UB -> UB or L1 \(C1\) -> BiasTable "
        r"\(C2\)': dst at TPosition::A1, src at TPosition::C1"),
    (5, r"Fixpipe\(L0C->GM\): broke the rule 'Fixpipe's channel split is not modelled by the twin'"),
])
def test_gemv_planted_faults(gemv_lib, fault, message):
    with pytest.raises(KernelRuleViolation, match=message):
        gemv(gemv_lib, 32, 256, bias=True, fault=fault)


def test_static_cube_tensor_on_a_vector_core_is_a_violation(gemv_lib):
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'an AI Vector core has no L1 or L0 buffers': a "
                                                  r"KERNEL_TYPE_AIV_ONLY kernel placed a static tensor in L1"):
        gemv_lib.launch("vector_static_l1", 1, x=torch.zeros(8))


def test_ub_to_ub_data_copy_of_any_type_stays_in_ub(gemv_lib):
    g = torch.Generator().manual_seed(3)
    xh, yh = torch.randn(64, generator=g).half(), torch.randn(64, generator=g).half()
    xf, yf = torch.randn(64, generator=g), torch.randn(64, generator=g)
    eh, ef = yh.clone().view(4, 16), yf.clone().view(8, 8)
    eh[0::2] = xh.view(4, 16)[0::2]
    ef[0::2] = xf.view(8, 8)[0::2]
    gemv_lib.launch("ub_copies", 1, xh=xh, yh=yh, xf=xf, yf=yf)
    assert torch.equal(yh, eh.reshape(-1)) and torch.equal(yf, ef.reshape(-1))

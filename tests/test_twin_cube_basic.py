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


@pytest.mark.parametrize("m,n,k", [(32, 32, 32), (20, 48, 40), (1, 16, 64), (45, 16, 7)])
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

"""The L0C -> GM (and L0C -> L1) DataCopy with DataCopyCO12DstParams and its registers (SetFixpipePreQuantFlag,
SetFixpipeNz2ndFlag, SetFixPipeConfig with the quantisation words in the Fixpipe Buffer, filled from L1 by
DataCopy), and the int32_t quantisations DEQF16/VDEQF16/REQ8/VREQ8 (also through Fixpipe). References in Python
from the docs' QUANT_PRE table and quantisation algorithm: M1 read as (1, 8, 10), x M1 (x >= 0) or M2 (M1, or 0
with ReLU); to half saturated to its range (Offset and Sign unused); to 8 bits saturated to [-256, 255], rounded
half to even, plus Offset, saturated to the type the Sign bit names. Each rule a planted fault; the passing
counterparts are the five modes with fault 0 (and asc-devkit's data_copy_l0c2gm example in the measurement)."""
import os
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNEL = os.path.join(os.path.dirname(__file__), "kernels", "l0c2gm_datacopy.cpp")
M, K, N = 16, 32, 32


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([KERNEL])


def m1_word(m1: float, offset: int = 0, sign: int = 0, mcb: int = 0) -> int:
    bits = struct.unpack("<I", struct.pack("<f", m1))[0]
    return bits | (mcb << 36) | (offset << 37) | (sign << 46)


def run(lib, mode, fault=0, word=None, words=None, gen_seed=0):
    gen = torch.Generator().manual_seed(gen_seed)
    a = torch.randint(-8, 9, (M, K), generator=gen, dtype=torch.int8)
    bt = torch.randint(-8, 9, (N, K), generator=gen, dtype=torch.int8)
    c = a.double() @ bt.double().T
    half_out = mode in (0, 3)
    out = torch.zeros(M * N, dtype=torch.float16 if half_out else torch.int8)
    if words is None:
        words = torch.zeros(N, dtype=torch.int64)
    tiling = struct.pack("<2IQ", mode, fault, word or 0)
    lib.launch("l0c_to_half" if half_out else "l0c_to_int8", 1, a=a.flatten(), bt=bt.flatten(), words=words, c=out,
               tiling=tiling)
    return c, out


def test_deqf16_scalar_relu_nz2nd(lib):
    # M1 0.3 has more than 10 mantissa bits: the hardware's (1, 8, 10) reading truncates it; Offset and Sign unused.
    m1 = 0.3
    word = m1_word(m1, offset=77, sign=1)
    m1_read = struct.unpack("<f", struct.pack("<I", struct.unpack("<I", struct.pack("<f", m1))[0] & ~0x1FFF))[0]
    assert m1_read != pytest.approx(m1, rel=1e-6)
    c, out = run(lib, 0, word=word)
    ref = (c.clamp(min=0) * m1_read).clamp(-65504, 65504).half()
    assert torch.equal(out.view(M, N), ref)


# 14: SetFixPipeConfig(empty reluPre, quantPre); 15: the words copied L1 -> FB by the count form
@pytest.mark.parametrize("variant", [0, 14, 15])
def test_vreq8_vector_words_through_the_fixpipe_buffer(lib, variant):
    gen = torch.Generator().manual_seed(5)
    m1 = torch.randint(1, 33, (N,), generator=gen).double() / 64
    offset = torch.randint(0, 30, (N,), generator=gen)
    words = torch.tensor([m1_word(float(m1[j]), int(offset[j]), sign=1) for j in range(N)], dtype=torch.int64)
    c, out = run(lib, 1, fault=variant, words=words)
    q = torch.round((c * m1).clamp(-256, 255)) + offset
    ref = q.clamp(-128, 127).to(torch.int8)  # NZ of int8_t: one 16 x 32 fractal, i.e. [16, 32] row-major here
    assert torch.equal(out.view(M, N), ref)
    assert (ref == 127).any() and (ref < 0).any() and ((ref > -128) & (ref < 127)).any()  # saturation and range


def test_req8_through_fixpipe_uint8_sign_saturates_as_int8(lib):
    # REQ8 by Fixpipe's deqScalar: M1 0.75, Sign 1 (int8_t out)
    c, out = run(lib, 2, word=m1_word(0.75, offset=3, sign=1))
    ref = (torch.round((c * 0.75).clamp(-256, 255)) + 3).clamp(-128, 127).to(torch.int8)
    assert torch.equal(out.view(M, N), ref)


def test_req8_datacopy_into_l1(lib):
    c, out = run(lib, 4, word=m1_word(0.5, offset=9, sign=1))
    ref = (torch.round((c * 0.5).clamp(-256, 255)) + 9).clamp(-128, 127).to(torch.int8)
    assert torch.equal(out.view(M, N), ref)  # NZ int8_t: one 16 x 32 fractal


def test_nz2nd_into_l1_is_refused_on_a2(lib):
    with pytest.raises(KernelRuleViolation, match=r"DataCopy\(L0C->L1\): broke the rule 'DataCopy from L0C into L1 "
                                                  r"writes NZ on A2 \(nz2ndEn is Ascend 950's\)': nz2ndEn true"):
        run(lib, 4, fault=13, word=m1_word(0.5, sign=1))


def test_vdeqf16_through_fixpipe_cbuf_workspace(lib):
    gen = torch.Generator().manual_seed(7)
    m1 = torch.randint(1, 200, (N,), generator=gen).double() / 128
    words = torch.tensor([m1_word(float(v)) for v in m1], dtype=torch.int64)
    c, out = run(lib, 3, words=words)
    assert torch.equal(out.view(M, N), (c * m1).half())


@pytest.mark.parametrize("mode,fault,message", [
    (0, 1, r"DataCopy\(L0C->GM\): broke the rule 'a scalar quantPre reads the word SetFixpipePreQuantFlag set earlier "
           r"in the launch': quantPre DEQF16 with no SetFixpipePreQuantFlag"),
    (1, 2, r"DataCopy\(L0C->GM\): broke the rule 'a vector quantPre reads the Fixpipe Buffer words SetFixPipeConfig "
           r"named earlier in the launch': quantPre VREQ8 with no SetFixPipeConfig of a Fixpipe Buffer tensor"),
    (0, 3, r"DataCopy\(L0C->GM\): broke the rule 'nz2ndEn reads the NZ2ND parameters SetFixpipeNz2ndFlag set earlier "
           r"in the launch'"),
    (1, 4, r"DataCopy\(L0C->GM\): broke the rule 'clipReluPre and eltWiseOp are 0 on A2 \(the docs: Atlas 200I/500 A2 "
           r"only\)': clipReluPre 1, eltWiseOp 0"),
    (1, 5, r"DataCopy\(L0C->GM\): broke the rule 'cube parameters are in their documented ranges': reluPre 2 is "
           r"outside \[0, 1\]"),
    (0, 6, r"SetFixpipeNz2ndFlag: broke the rule 'cube parameters are in their documented ranges': srcNdStride 0 is "
           r"outside \[1, 512\]"),
    (0, 7, r"SetFixpipeNz2ndFlag: broke the rule 'cube parameters are in their documented ranges': srcNdStride 513 "
           r"is outside \[0, 512\]"),
    (1, 8, r"DataCopy\(L1->FB\): broke the rule 'dstGap is at least 1 when blockCount > 1"),
    (1, 9, r"DataCopy\(L1->FB\): broke the rule 'cube operands are aligned as their memory requires': operand 'dst' "
           r"at FB offset 64, not a multiple of 128 bytes"),
    (1, 10, r"DataCopy\(L1->FB\): broke the rule 'cube accesses stay inside the LocalTensor': operand 'dst' holds 128 "
            r"bytes, the access reaches byte 256"),
])
def test_l0c2gm_faults_are_violations(lib, mode, fault, message):
    words = torch.tensor([m1_word(0.5, sign=1)] * N, dtype=torch.int64)
    with pytest.raises(KernelRuleViolation, match=message):
        run(lib, mode, fault=fault, word=m1_word(1.0), words=words)


def test_quant_words_past_the_fixpipe_buffer_are_a_violation(lib):
    # 16 words at FB 1920 (the last 128 bytes), then a VREQ8 DataCopy of 32 columns reads 32 words.
    words = torch.tensor([m1_word(0.5, sign=1)] * N, dtype=torch.int64)
    with pytest.raises(KernelRuleViolation, match=r"DataCopy\(L0C->GM\): broke the rule 'cube accesses stay inside "
                                                  r"the LocalTensor': operand 'the Fixpipe Buffer words' holds 128 "
                                                  r"bytes, the access reaches byte 256"):
        run(lib, 1, fault=12, words=words)


def test_mcb_bit_of_an_int32_quantisation_is_refused(lib):
    with pytest.raises(KernelRuleViolation, match=r"Fixpipe\(L0C->GM\): broke the rule 'the twin models the int32_t "
                                                  r"quantisations \(DEQF16, REQ8\) with the MCB bit \(36\) clear': "
                                                  r"deqScalar has MCB set"):
        run(lib, 2, word=m1_word(0.75, sign=1, mcb=1))

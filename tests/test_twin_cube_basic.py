"""The raw cube path of the basic API on the twin (DataCopy with Nd2NzParams, LoadData, Mmad with and without
a bias from the BiasTable, Fixpipe NZ -> ND, NZ with channel split, and quantised to int8_t/uint8_t), against
float64 matrix products, and its rules: memory capacities, the L0 alignment, the documented ranges, Fixpipe's
nSize, quantPre, quantisation parameters and channel split, the core type."""
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


def tiling(m, n, k, fault=0, mode=0, relu=False, deq=0):
    return struct.pack("<6IQ", m, n, k, fault, mode, int(relu), deq)


def run(lib, kernel, m, n, k, dtype, out_dtype, bias=False, fault=0, seed=0, mode=0):
    g = torch.Generator().manual_seed(seed)
    a = (torch.rand(m, k, generator=g, dtype=torch.float64) * 2 - 1).to(dtype)
    b = (torch.rand(k, n, generator=g, dtype=torch.float64) * 2 - 1).to(dtype)
    nb = (n + 15) // 16 * 16
    bias_t = (torch.rand(nb, generator=g, dtype=torch.float64) * 2 - 1).to(torch.float16) if bias else None
    c = torch.zeros(m, n, dtype=out_dtype)
    lib.launch(kernel, 1, a=a, b=b, bias=bias_t, c=c, tiling=tiling(m, n, k, fault, mode))
    expect = a.double() @ b.double()
    if bias:
        expect = expect + bias_t[:n].double()
    return c, expect


@pytest.mark.parametrize("m,n,k", [(32, 32, 32), (20, 48, 40), (2, 16, 64), (45, 16, 7)])
@pytest.mark.parametrize("bias", [False, True])
def test_half_matmul_through_l1_and_l0(lib, m, n, k, bias):
    c, expect = run(lib, "cube_half", m, n, k, torch.float16, torch.float32, bias)
    torch.testing.assert_close(c.double(), expect, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("cores", [1, 3])
def test_fixpipe_under_set_atomic_add_accumulates_into_gm(lib, cores):
    # Each AIC writes the same 32 x 48 product into c with SetAtomicAdd<float>(): c = c0 + cores * A @ B (integer
    # inputs: exact in any order). Then DisableDmaAtomic.
    g = torch.Generator().manual_seed(cores)
    a = torch.randint(-8, 8, (32, 32), generator=g).half()
    b = torch.randint(-8, 8, (32, 48), generator=g).half()
    c0 = torch.randint(-100, 100, (32, 48), generator=g).float()
    c = c0.clone()
    lib.launch("cube_half", cores, a=a, b=b, bias=None, c=c, tiling=tiling(32, 48, 32, mode=4))
    assert torch.equal(c.double(), c0.double() + cores * (a.double() @ b.double()))


def test_fixpipe_of_different_values_from_several_cores_without_atomic_add_is_a_violation(lib):
    # Each AIC writes A @ B one row further down c: rows of different values over the same bytes, unordered.
    g = torch.Generator().manual_seed(5)
    a, b = torch.rand(32, 32, generator=g).half(), torch.rand(32, 48, generator=g).half()
    with pytest.raises(KernelRuleViolation, match=r"no two cores write the same GM bytes.*GM buffer 'c'.*not the "
                                                  r"same values"):
        lib.launch("cube_half", 3, a=a, b=b, bias=None, c=torch.zeros(35, 48), tiling=tiling(32, 48, 32, mode=10))


def test_fixpipe_of_the_same_product_from_several_cores_runs_clean(lib):
    # The counterpart: three AICs write the same A @ B over the same c with nothing ordering them. The NPU's last
    # write wins and every write holds the same bytes, so c is the product whatever the order; counted per pair.
    g = torch.Generator().manual_seed(6)
    a, b = torch.rand(32, 32, generator=g).half(), torch.rand(32, 48, generator=g).half()
    c = torch.zeros(32, 48)
    stats = lib.launch("cube_half", 3, a=a, b=b, bias=None, c=c, tiling=tiling(32, 48, 32))
    torch.testing.assert_close(c.double(), a.double() @ b.double(), rtol=1e-5, atol=1e-5)
    assert stats.total.gm_unordered_equal_bytes == 3 * 32 * 48 * 4


def test_bfloat16_matmul_with_a_half_result(lib):
    c, expect = run(lib, "cube_bf16_to_half", 32, 48, 64, torch.bfloat16, torch.float16)
    torch.testing.assert_close(c.double(), expect, rtol=2e-3, atol=2e-3)


def test_counters_see_the_cube_work(lib):
    stats = None
    g = torch.Generator().manual_seed(1)
    a = torch.rand(32, 32, generator=g).half()
    b = torch.rand(32, 32, generator=g).half()
    stats = lib.launch("cube_half", 1, a=a, b=b, bias=None, c=torch.zeros(32, 32),
                       tiling=tiling(32, 32, 32))
    assert stats.total.cube_macs == 32 * 32 * 32


@pytest.mark.parametrize("fault,message", [
    (1, r"InitBuffer: broke the rule 'cube buffers fit in their memory': asking for 66048 bytes of L0A"),
    (2, r"LoadData\(L1->L0A/L0B\): broke the rule 'cube operands are aligned as their memory requires': operand "
        r"'dst' at L0A offset 256, not a multiple of 512 bytes"),
    (3, r"Mmad: broke the rule 'cube parameters are in their documented ranges': k 4096 is outside \[0, 4095\]"),
    (4, r"Fixpipe\(L0C->GM\): broke the rule 'Fixpipe's nSize is a multiple of 16 \(NZ output without channel "
        r"split\)': nSize 24"),
    (6, r"broke the rule 'LoadData's addrMode is 0 from L1 \(only GM -> L1 may decrement\)': addrMode 1"),
    (7, r"Fixpipe\(L0C->GM\): broke the rule 'Fixpipe's dstStride is not 0'"),
    (8, r"Mmad: broke the rule 'cube operands are in the memory the instruction reads or writes': operand "
        r"'\w+' \(TPosition::B2\) is not in L0A"),
    (9, r"LoadData\(L1->L0A/L0B\): broke the rule 'LoadData transposes only 16-bit fractals': ifTranspose with "
        r"4-byte elements"),
])
def test_planted_cube_faults(lib, fault, message):
    with pytest.raises(KernelRuleViolation, match=message):
        run(lib, "cube_half", 32, 32, 32, torch.float16, torch.float32, fault=fault)


@pytest.mark.parametrize("m,n,k", [(32, 32, 32), (20, 48, 40)])
def test_mmad_without_bias_tensor_starts_c_from_the_bias_table(lib, m, n, k):
    # mode 8: the bias in BT at address 0, Mmad(c, a, b) with cmatrixInitVal false and cmatrixSource true
    c, expect = run(lib, "cube_half", m, n, k, torch.float16, torch.float32, bias=True, mode=8, seed=k)
    torch.testing.assert_close(c.double(), expect, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("m,n,k", [(30, 40, 32), (16, 8, 16)])
def test_fixpipe_nz2nd_writes_exactly_n_columns(lib, m, n, k):
    # mode 9: nSize = n (40, 8: not multiples of 16); c is exactly [m, n], so a wider write would leave its bounds
    c, expect = run(lib, "cube_half", m, n, k, torch.float16, torch.float32, mode=9, seed=n)
    torch.testing.assert_close(c.double(), expect, rtol=1e-5, atol=1e-5)


def test_mmad_bias_table_row_stays_inside_the_bias_table(lib):
    with pytest.raises(KernelRuleViolation, match=r"Mmad: broke the rule 'cube accesses stay inside the LocalTensor': "
                                                  r"operand 'BiasTable' holds 1024 bytes, the access reaches byte 1088"):
        run(lib, "cube_half", 32, 32, 32, torch.float16, torch.float32, bias=True, mode=8, fault=10)


def test_unit_flag_on_mmad_and_fixpipe_then_set_fix_pipe_config_clears_it(lib):
    # mode 5: Mmad and Fixpipe with unitFlag 3, then SetFixPipeConfig<float>(CO1 tensor, isUnitFlag = true).
    c, expect = run(lib, "cube_half", 20, 48, 40, torch.float16, torch.float32, mode=5, seed=5)
    torch.testing.assert_close(c.double(), expect, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fault,message", [
    (19, r"Mmad: broke the rule 'unitFlag is 0 \(off\), 2 \(on, flags kept\) or 3 \(on, flags reset\)': unitFlag 1"),
    (20, r"Fixpipe\(L0C->GM\): broke the rule 'unitFlag is 0 \(off\), 2 .*': unitFlag 5"),
    (21, r"SetFixPipeConfig: broke the rule 'SetFixPipeConfig's preData is a Fixpipe Buffer tensor "
         r"\(TPosition::C2PIPE2GM\), or a CO1 tensor when only isUnitFlag is set': preData is at TPosition::A1"),
    (22, r"SetFixPipeConfig: broke the rule 'SetFixPipeConfig's reluPre and quantPre are Fixpipe Buffer tensors "
         r"\(TPosition::C2PIPE2GM\)': reluPre is at TPosition::CO1"),
])
def test_unit_flag_planted_faults(lib, fault, message):
    with pytest.raises(KernelRuleViolation, match=message):
        run(lib, "cube_half", 32, 32, 32, torch.float16, torch.float32, fault=fault, mode=5)


def nz_blocks(x, width):
    """x [m, n] as NZ: Z columns of `width` columns one after the other (the last one narrower if n is not a
    multiple of width), each m rows."""
    return torch.cat([x[:, j:j + width].reshape(-1) for j in range(0, x.shape[1], width)])


@pytest.mark.parametrize("m,n", [(32, 48), (16, 64)])
def test_fixpipe_into_l1_then_to_gm_keeps_nz(lib, m, n):
    # mode 6: half out in 16-column Z blocks (F322F16)
    g = torch.Generator().manual_seed(n)
    a = (torch.rand(m, 32, generator=g, dtype=torch.float64) * 2 - 1).bfloat16()
    b = (torch.rand(32, n, generator=g, dtype=torch.float64) * 2 - 1).bfloat16()
    c = torch.zeros(m * n, dtype=torch.float16)
    lib.launch("cube_bf16_to_half", 1, a=a, b=b, bias=None, c=c, tiling=tiling(m, n, 32, mode=6))
    torch.testing.assert_close(c.double(), nz_blocks(a.double() @ b.double(), 16), rtol=2e-3, atol=2e-3)


def test_l1_to_gm_copy_under_set_atomic_add_accumulates(lib):
    # mode 7: the NZ half C from L1 added onto c0 in GM (SetAtomicAdd<half>: each sum rounded to half)
    g = torch.Generator().manual_seed(7)
    a = (torch.rand(32, 32, generator=g, dtype=torch.float64) * 2 - 1).bfloat16()
    b = (torch.rand(32, 48, generator=g, dtype=torch.float64) * 2 - 1).bfloat16()
    c0 = (torch.rand(32 * 48, generator=g, dtype=torch.float64) * 8 - 4).half()
    c = c0.clone()
    lib.launch("cube_bf16_to_half", 1, a=a, b=b, bias=None, c=c, tiling=tiling(32, 48, 32, mode=7))
    expect = c0.double() + nz_blocks(a.double() @ b.double(), 16)
    torch.testing.assert_close(c.double(), expect, rtol=2e-3, atol=4e-3)
    assert not torch.equal(c, c0)


@pytest.mark.parametrize("m,n", [(32, 48), (16, 64)])
def test_fixpipe_into_l1_merges_int8_channels(lib, m, n):
    # mode 6 with int8_t out (QF322B8_PRE, scale 2): pairs of 16-column fractals leave as 16 x 32 ones (Int8 Channel
    # Merge); with 48 columns the last 16 stay a 16 x 16 fractal.
    a, b, c64 = quant_inputs(m, n, 32, seed=m + n)
    out = torch.zeros(m * n, dtype=torch.int8)
    lib.launch("cube_half_to_int8", 1, a=a, b=b, quant=None, c=out,
               tiling=tiling(m, n, 32, mode=6, deq=b8_word(2.0, signed=True)))
    expect = b8_reference(c64, [2.0] * n, [0] * n, False, True)
    assert torch.equal(out.double(), nz_blocks(expect, 32))


@pytest.mark.parametrize("kernel,fault,message", [
    ("cube_bf16_to_half", 23, r"Fixpipe into L1 writes NZ \(CFG_NZ\)': config CFG_ROW_MAJOR"),
    ("cube_bf16_to_half", 24, r"Fixpipe's dstStride is not 0': dstStride 0"),
    ("cube_bf16_to_half", 25, r"Fixpipe into L1 goes without channel split'"),
    ("cube_bf16_to_half", 26, r"cube accesses stay inside the LocalTensor': operand 'dst' holds 3040 bytes, the access "
                              r"reaches byte 3072"),
    ("cube_half", 0, r"Fixpipe's L0C -> L1 types are an A2 pair .*': float L0C to 4-byte L1 elements"),
])
def test_fixpipe_into_l1_planted_faults(lib, kernel, fault, message):
    dtype = torch.bfloat16 if kernel == "cube_bf16_to_half" else torch.float16
    out = torch.float16 if kernel == "cube_bf16_to_half" else torch.float32
    with pytest.raises(KernelRuleViolation, match=r"Fixpipe\(L0C->L1\): broke the rule '" + message):
        run(lib, kernel, 32, 48, 32, dtype, out, fault=fault, mode=6)


def test_l1_to_gm_copy_source_is_32_byte_aligned(lib):
    with pytest.raises(KernelRuleViolation, match=r"DataCopy\(L1->GM, DataCopyParams\): broke the rule 'cube operands "
                                                  r"are aligned as their memory requires': operand 'src' at L1 offset "
                                                  r"262160, not a multiple of 32 bytes"):
        run(lib, "cube_bf16_to_half", 32, 48, 32, torch.bfloat16, torch.float16, fault=27, mode=6)


def test_fixpipe_quant_mode_must_match_the_output_type(lib):
    with pytest.raises(KernelRuleViolation, match=r"Fixpipe's quantPre matches the L0C and output types"):
        run(lib, "cube_bf16_to_half", 32, 32, 32, torch.bfloat16, torch.float16, fault=5)


def test_fixpipe_writes_only_the_output_types_a2_pairs_with_l0c(lib):
    c, expect = run(lib, "cube_half", 32, 32, 32, torch.float16, torch.float32)  # float L0C to float: a pair
    torch.testing.assert_close(c.double(), expect, rtol=1e-6, atol=1e-6)
    with pytest.raises(KernelRuleViolation, match=r"Fixpipe\(L0C->GM\): broke the rule 'Fixpipe's L0C -> GM types are "
                                                  r"an A2 pair.*float L0C to 4-byte output elements"):
        run(lib, "cube_half_to_int32", 32, 32, 32, torch.float16, torch.int32)


@pytest.mark.parametrize("m,n,k", [(32, 48, 32), (20, 24, 40), (16, 8, 16)])
def test_fixpipe_channel_split_writes_16_by_8_fractals(lib, m, n, k):
    # NZ out with isChannelSplit: column block j of 8 holds C[:, 8j:8j+8] row after row, m * 8 floats apart
    g = torch.Generator().manual_seed(m * n + k)
    a = (torch.rand(m, k, generator=g, dtype=torch.float64) * 2 - 1).half()
    b = (torch.rand(k, n, generator=g, dtype=torch.float64) * 2 - 1).half()
    c = torch.full((m * n,), float("nan"))
    lib.launch("cube_half", 1, a=a, b=b, bias=None, c=c, tiling=tiling(m, n, k, mode=1))
    expect = (a.double() @ b.double()).reshape(m, n // 8, 8).permute(1, 0, 2).reshape(-1)
    torch.testing.assert_close(c.double(), expect, rtol=1e-5, atol=1e-5)


def b8_word(scale, signed, offset=0, low_bits=0):
    """A QUANT_PRE word: the float's bits (low_bits in 0-12, which A2 ignores), Offset at 37, Sign at 46."""
    bits = struct.unpack("<I", struct.pack("<f", scale))[0] | low_bits
    return bits | (offset << 37) | (int(signed) << 46)


def b8_reference(c64, scales, offsets, relu, signed):
    """QF322B8_PRE from the docs' table: x * M1 (x >= 0) or M2 (M1, or 0 with ReLU), saturated to [-256, 255],
    rounded half to even, plus Offset, saturated to int8/uint8; M1 keeps 10 mantissa bits."""
    m1 = torch.tensor([struct.unpack("<f", struct.pack("<I", struct.unpack("<I", struct.pack("<f", s))[0]
                                                       & ~0x1FFF))[0] for s in scales], dtype=torch.float64)
    neg = torch.zeros_like(m1) if relu else m1
    y = torch.where(c64 >= 0, c64 * m1, c64 * neg).clamp(-256, 255).round() + torch.tensor(offsets, dtype=torch.float64)
    return y.clamp(-128, 127) if signed else y.clamp(0, 255)


def quant_inputs(m, n, k, seed):
    # quarter steps: every product is exact in float32, so the scaled values land on .5 ties often
    g = torch.Generator().manual_seed(seed)
    a = (torch.randint(-4, 5, (m, k), generator=g).double() / 4).half()
    b = (torch.randint(-4, 5, (k, n), generator=g).double() / 2).half()
    return a, b, a.double() @ b.double()


@pytest.mark.parametrize("signed", [True, False])
@pytest.mark.parametrize("relu", [False, True])
@pytest.mark.parametrize("scale,offset", [(2.0, 0), (0.7503, 3), (9.5, 200)])
def test_fixpipe_scalar_quant_to_8_bits(lib, signed, relu, scale, offset):
    m, n, k = 32, 48, 32
    a, b, c64 = quant_inputs(m, n, k, seed=int(scale * 10) + offset)
    out = torch.zeros(m, n, dtype=torch.int8 if signed else torch.uint8)
    word = b8_word(scale, signed, offset, low_bits=0x1ABC)
    lib.launch("cube_half_to_int8" if signed else "cube_half_to_uint8", 1, a=a, b=b, quant=None, c=out,
               tiling=tiling(m, n, k, mode=2, relu=relu, deq=word))
    expect = b8_reference(c64, [scale] * n, [offset] * n, relu, signed)
    assert torch.equal(out.double(), expect), (out.double() - expect).abs().max()
    assert (expect == (127 if signed else 255)).any() or scale < 9  # the big scale saturates


@pytest.mark.parametrize("m,n,k,signed", [(32, 48, 32, True), (16, 272, 32, False)])
def test_fixpipe_vector_quant_scales_each_column(lib, m, n, k, signed):
    a, b, c64 = quant_inputs(m, n, k, seed=n)
    g = torch.Generator().manual_seed(n + 1)
    scales = [float(s) for s in torch.tensor([0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 8.0])[torch.randint(0, 7, (n,), generator=g)]]
    offsets = [int(o) for o in torch.randint(0, 40, (n,), generator=g)]
    nb = (n + 15) // 16 * 16
    quant = torch.tensor([b8_word(s, signed, o) for s, o in zip(scales, offsets)] + [b8_word(1.0, signed)] * (nb - n),
                         dtype=torch.int64)
    out = torch.zeros(m, n, dtype=torch.int8 if signed else torch.uint8)
    lib.launch("cube_half_to_int8" if signed else "cube_half_to_uint8", 1, a=a, b=b, quant=quant, c=out,
               tiling=tiling(m, n, k, mode=3))
    expect = b8_reference(c64, scales, offsets, False, signed)
    assert torch.equal(out.double(), expect), (out.double() - expect).abs().max()


@pytest.mark.parametrize("kernel,fault,message", [
    ("cube_half", 11, r"broke the rule 'Fixpipe's nSize is a multiple of 8 \(with channel split\)': nSize 44"),
    ("cube_half", 12, r"broke the rule 'Fixpipe's channel split writes NZ \(CFG_NZ\), not with NZ2ND'"),
    ("cube_half", 13, r"broke the rule 'Fixpipe's channel split goes without unitFlag': isChannelSplit with unitFlag 3"),
    ("cube_bf16_to_half", 0, r"broke the rule 'Fixpipe's channel split is for float L0C written as float'"),
])
def test_fixpipe_channel_split_planted_faults(lib, kernel, fault, message):
    dtype = torch.bfloat16 if kernel == "cube_bf16_to_half" else torch.float16
    out = torch.float16 if kernel == "cube_bf16_to_half" else torch.float32
    with pytest.raises(KernelRuleViolation, match=r"Fixpipe\(L0C->GM\): " + message):
        run(lib, kernel, 32, 48, 32, dtype, out, fault=fault, mode=1)


NAN_BITS = 0x7FC00000
@pytest.mark.parametrize("mode,fault,word,message", [
    (2, 0, b8_word(2.0, signed=False), r"the Sign bit \(46\) of Fixpipe's quantisation parameter matches the output "
                                       r"type': deqScalar bit 46 is 0 for int8_t output"),
    (2, 0, b8_word(float("inf"), signed=True), r"Fixpipe's quantisation parameter is not inf, nan or a denormal': "
                                               r"deqScalar M1 bits 0x7f800000"),
    (2, 0, NAN_BITS | (1 << 46), r"Fixpipe's quantisation parameter is not inf, nan or a denormal"),
    (2, 0, b8_word(1e-39, signed=True), r"Fixpipe's quantisation parameter is not inf, nan or a denormal"),
    (2, 0, b8_word(1.0, signed=True, offset=0x100), r"the twin models Fixpipe's quantisation Offset in \[0, 255\]"),
    (2, 18, b8_word(1.0, signed=True), r"Fixpipe's quantPre matches the L0C and output types': quantPre NoQuant "
                                       r"for float L0C and 1-byte output elements"),
    (2, 17, b8_word(1.0, signed=True), r"the Fixpipe form with cbufWorkspace takes a vector quantPre"),
    (3, 16, 0, r"a vector quantPre comes with the Fixpipe form that takes cbufWorkspace"),
])
def test_fixpipe_quant_planted_faults(lib, mode, fault, word, message):
    m, n, k = 32, 48, 32
    a, b, _ = quant_inputs(m, n, k, seed=5)
    quant = torch.tensor([b8_word(1.0, True)] * n, dtype=torch.int64)
    with pytest.raises(KernelRuleViolation, match=r"Fixpipe\(L0C->GM\): broke the rule '" + message):
        lib.launch("cube_half_to_int8", 1, a=a, b=b, quant=quant, c=torch.zeros(m, n, dtype=torch.int8),
                   tiling=tiling(m, n, k, fault=fault, mode=mode, deq=word))


def test_fixpipe_vector_quant_checks_each_column(lib):
    m, n, k = 32, 48, 32
    a, b, _ = quant_inputs(m, n, k, seed=6)
    quant = torch.tensor([b8_word(1.0, True)] * n, dtype=torch.int64)
    quant[37] = b8_word(float("inf"), True)
    with pytest.raises(KernelRuleViolation, match=r"not inf, nan or a denormal': cbufWorkspace\[37\] M1"):
        lib.launch("cube_half_to_int8", 1, a=a, b=b, quant=quant, c=torch.zeros(m, n, dtype=torch.int8),
                   tiling=tiling(m, n, k, mode=3))


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
    (4, r"DataCopy\(UB->UB\): broke the rule 'a DataCopy between LocalTensors is UB -> UB, L1 \(C1\) -> BiasTable "
        r"\(C2\) or L1 \(C1\) -> Fixpipe Buffer \(C2PIPE2GM, uint64_t\)': dst at TPosition::A1, src at TPosition::C1"),
    (5, r"Fixpipe\(L0C->GM\): broke the rule 'Fixpipe's channel split writes NZ \(CFG_NZ\), not with NZ2ND'"),
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


@pytest.fixture(scope="module")
def ldt_lib():
    return ascend_ext.twin.compile_kernels([os.path.join(os.path.dirname(__file__), "kernels", "load_transpose.cpp")])


def ldt(lib, kernel, k, n, fault=0, seed=0):
    g = torch.Generator().manual_seed(seed)
    if kernel == "ldt_int8":
        a = torch.randint(-128, 128, (16, k), generator=g, dtype=torch.int32).to(torch.int8)
        b = torch.randint(-128, 128, (k, n), generator=g, dtype=torch.int32).to(torch.int8)
        c = torch.zeros(16, n, dtype=torch.int32)
    else:
        a = (torch.rand(16, k, generator=g, dtype=torch.float64) * 2 - 1).half()
        b = (torch.rand(k, n, generator=g, dtype=torch.float64) * 2 - 1).half()
        c = torch.zeros(16, n)
    lib.launch(kernel, 1, a=a, b=b, c=c, tiling=struct.pack("<3I", k, n, fault))
    return c, a.double() @ b.double()


@pytest.mark.parametrize("kernel,k,n", [("ldt_int8", 32, 32), ("ldt_int8", 64, 96), ("ldt_half", 16, 16),
                                        ("ldt_half", 48, 64)])
def test_load_data_with_transpose_feeds_l0b_from_a_kn_matrix(ldt_lib, kernel, k, n):
    c, expect = ldt(ldt_lib, kernel, k, n, seed=k + n)
    torch.testing.assert_close(c.double(), expect, rtol=0 if kernel == "ldt_int8" else 1e-5,
                               atol=0 if kernel == "ldt_int8" else 1e-5)


@pytest.mark.parametrize("fault,message", [
    (1, r"LoadDataWithTranspose's destination fractals do not overlap .*': iteration 1 writes fractal 0 at dst byte "
        r"512, which an earlier one wrote \(dstGap 0, dstFracGap 0\)"),
    (2, r"LoadDataWithTranspose's decrementing source stays at or after the tensor's start': startIndex 0, srcStride "
        r"2, repeatTimes 3 with addrMode 1"),
])
def test_load_data_with_transpose_planted_faults(ldt_lib, fault, message):
    with pytest.raises(KernelRuleViolation, match=r"LoadDataWithTranspose: broke the rule '" + message):
        ldt(ldt_lib, "ldt_int8", 64, 96, fault=fault)


@pytest.fixture(scope="module")
def sparse_lib():
    return ascend_ext.twin.compile_kernels([os.path.join(os.path.dirname(__file__), "kernels", "sparse_mmad.cpp")])


def sparse_mmad(lib, k, n, fault=0, seed=0):
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
    from public_kernels.asc_devkit_examples import sparse_operands, zn_blocks  # the documented densification
    g = torch.Generator().manual_seed(seed)
    a = torch.randint(-128, 128, (16, k), generator=g, dtype=torch.int32).to(torch.int8)
    b = torch.randint(-128, 128, (n, k), generator=g, dtype=torch.int32).to(torch.int8)
    for r in range(n):  # keep 0, 1 or 2 of each group of 4, at random places
        for grp in range(k // 4):
            drop = torch.randperm(4, generator=g)[:int(torch.randint(2, 5, (1,), generator=g))]
            b[r, 4 * grp + drop] = 0
    dense, packed = sparse_operands(b)
    c = torch.zeros(16, n, dtype=torch.int32)
    lib.launch("sparse_mmad", 1, a=a, b=zn_blocks(dense, 32), idx=zn_blocks(packed, 8), c=c,
               tiling=struct.pack("<3I", k, n, fault))
    return c, a.long() @ b.long().T


@pytest.mark.parametrize("k,n", [(64, 16), (128, 48)])
def test_mmad_with_sparse_multiplies_by_the_sparse_b(sparse_lib, k, n):
    c, expect = sparse_mmad(sparse_lib, k, n, seed=k + n)
    assert torch.equal(c.long(), expect)


@pytest.mark.parametrize("fault,message", [
    (1, r"MmadWithSparse: broke the rule 'MmadWithSparse reads the index fractals LoadDataWithSparse loaded with B'"),
    (2, r"MmadWithSparse: broke the rule 'MmadWithSparse's k \(of the full A\) is a multiple of 64.*': k 96"),
    (3, r"LoadDataWithSparse: broke the rule 'LoadDataWithSparse does not transpose"),
])
def test_mmad_with_sparse_planted_faults(sparse_lib, fault, message):
    with pytest.raises(KernelRuleViolation, match=message):
        sparse_mmad(sparse_lib, 128, 48, fault=fault)

"""LoadData (卷积数据搬运) v2 on the twin (LoadData3DParamsV2 into L0A and L0B, enTranspose, padding, strides,
dilation, start points, SetFmatrix / SetLoadDataPaddingValue with IsResetLoad3dConfig {false, false},
SetLoadDataBoundary's wrap-around), checked through Mmad against a float64 img2col built with torch's unfold, and
its rules, each a planted fault (tests/kernels/cube_load3d.cpp)."""
import os
import struct

import pytest
import torch
import torch.nn.functional as F

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

SOURCE = os.path.join(os.path.dirname(__file__), "kernels", "cube_load3d.cpp")
C0 = {torch.float16: 16, torch.bfloat16: 16, torch.float32: 8, torch.int8: 32}
KERNEL = {torch.float16: "load3d_half", torch.bfloat16: "load3d_bf16", torch.float32: "load3d_float",
          torch.int8: "load3d_int8"}


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([SOURCE])


def geometry(l1h, l1w, channels, filt=(1, 1), stride=(1, 1), dil=(1, 1), pads=(0, 0, 0, 0)):
    """Ho * Wo and C1 * Hk * Wk * C0 of the img2col matrix (pads: left, right, top, bottom)."""
    ho = (l1h + pads[2] + pads[3] - ((filt[0] - 1) * dil[0] + 1)) // stride[0] + 1
    wo = (l1w + pads[0] + pads[1] - ((filt[1] - 1) * dil[1] + 1)) // stride[1] + 1
    return ho * wo, channels * filt[0] * filt[1]


def img2col(fm, c0, filt, stride, dil, pads, pad_value):
    """fm: (C1, H, W, C0). Rows: output positions (ho, wo); columns: (c1, kh, kw, c0) -- via torch's unfold."""
    c1, h, w, _ = fm.shape
    x = fm.double().permute(0, 3, 1, 2).reshape(1, c1 * c0, h, w)
    x = F.pad(x, (pads[0], pads[1], pads[2], pads[3]), value=float(pad_value))
    cols = F.unfold(x, filt, dilation=dil, stride=stride)[0]  # (C * Hk * Wk, L), channel-major
    kk = filt[0] * filt[1]
    cols = cols.reshape(c1, c0, kk, -1).permute(0, 2, 1, 3).reshape(c1 * kk * c0, -1)
    return cols.t()


def values(g, shape, dtype):
    if dtype == torch.int8:
        return torch.randint(-8, 8, shape, generator=g, dtype=torch.int8)
    return (torch.rand(shape, generator=g, dtype=torch.float64) * 2 - 1).to(dtype)


def run(lib, dtype, l1h, l1w, channels, mode=0, transpose=False, filt=(1, 1), stride=(1, 1), dil=(1, 1),
        pads=(0, 0, 0, 0), pad_value=0.0, m_start=0, k_start=0, m_ext=None, k_ext=None, other=24, config=0,
        fault=0, fm_offset=0, boundary=0, wrap_bytes=0, seed=0):
    c0 = C0[dtype]
    g = torch.Generator().manual_seed(seed)
    fm = values(g, (channels // c0, l1h, l1w, c0), dtype)
    rows, cols = geometry(l1h, l1w, channels, filt, stride, dil, pads)
    m_ext = rows - m_start if m_ext is None else m_ext
    k_ext = cols - k_start if k_ext is None else k_ext
    full = img2col(fm, c0, filt, stride, dil, pads, pad_value)
    assert full.shape == (rows, cols)
    piece = full[m_start:m_start + m_ext, k_start:k_start + k_ext]
    if mode == 1:  # A (other x mExt) @ slice
        a = values(g, (other, m_ext), dtype)
        expect = a.double() @ piece
        other_gm = a
    else:
        lhs = piece.t() if transpose else piece
        b = values(g, (lhs.shape[1], other), dtype)
        expect = lhs @ b.double()
        other_gm = b.t().contiguous()
    out_dtype = torch.int32 if dtype == torch.int8 else torch.float32
    c = torch.zeros(expect.shape, dtype=out_dtype)
    pad_bits = torch.tensor([pad_value], dtype=torch.float64).to(dtype).view(
        {1: torch.uint8, 2: torch.int16, 4: torch.int32}[c0 and fm.element_size()]).item() & 0xFFFFFFFF
    size_bits = (filt[1] > 255) | (filt[0] > 255) << 1  # filterSizeW/H: the filter field plus 256
    t = struct.pack("<4I7I6I4I2I5I", mode, fault, config, fm.numel(), l1h, l1w, channels, k_ext, m_ext, k_start,
                    m_start, stride[1], stride[0], filt[1] % 256 if filt[1] > 255 else filt[1],
                    filt[0] % 256 if filt[0] > 255 else filt[0], dil[1], dil[0], *pads, int(transpose), other,
                    pad_bits, fm_offset, boundary, wrap_bytes, size_bits)
    stats = lib.launch(KERNEL[dtype], 1, fm=fm, other=other_gm, c=c, tiling=t)
    run.stats = stats
    return c, expect


def check(c, expect, dtype):
    if dtype == torch.int8:
        assert torch.equal(c.long(), expect.long())
    else:
        torch.testing.assert_close(c.double(), expect, rtol=2e-5, atol=2e-5)


# The examples' use: a 1 x W map with filter 1 x 1 is an NZ matrix, loaded as ZZ (L0A) or ZN (L0B).
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.int8])
def test_nz_matrix_into_l0a(lib, dtype):
    c, expect = run(lib, dtype, 1, 32, 2 * C0[dtype] + (C0[dtype] if dtype != torch.int8 else 0))
    check(c, expect, dtype)


def test_l0b_tensor_may_end_at_the_last_element_written(lib):
    # float into L0B with kExtension 72: the last fractal row's last fractal has its 8 padded columns unwritten, so
    # a tensor cut there (the example mmad_load3dv2's B size would be smaller still) holds every element written.
    c, expect = run(lib, torch.float32, 1, 48, 72, mode=1, other=30, fault=23, seed=2)
    check(c, expect, torch.float32)
    with pytest.raises(KernelRuleViolation, match="reaches byte 15104"):  # 32 bytes shorter
        run(lib, torch.float32, 1, 48, 72, mode=1, other=30, fault=24, seed=2)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
def test_nz_matrix_transposed_into_l0a(lib, dtype):
    c, expect = run(lib, dtype, 1, 48, 32, transpose=True, seed=1)
    check(c, expect, dtype)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_nz_matrix_into_l0b(lib, dtype):
    c, expect = run(lib, dtype, 1, 48, 80 if dtype != torch.float32 else 72, mode=1, other=30, seed=2)
    check(c, expect, dtype)


# Convolution geometry: padding (with a pad value), strides, dilation, start points.
@pytest.mark.parametrize("dtype,mode,transpose", [
    *[(d, mode, tr) for d in (torch.float16, torch.float32) for mode, tr in ((0, False), (0, True), (1, False))],
    (torch.int8, 0, False),  # b8 goes into L0A untransposed only (the planted faults cover the rest)
])
def test_conv_3x3_padded(lib, dtype, mode, transpose):
    # 5 x 6 map, 3 x 3 filter, pad 1: 30 rows (covering the bottom fractal), C1 * 9 * C0 columns.
    m_ext = 30 if not transpose else 16
    c, expect = run(lib, dtype, 5, 6, C0[dtype], mode=mode, transpose=transpose, filt=(3, 3), pads=(1, 1, 1, 1),
                    pad_value=3 if dtype == torch.int8 else -0.5, m_ext=m_ext, seed=3)
    check(c, expect, dtype)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_strided_dilated_slice_with_start_points(lib, dtype):
    c0 = C0[dtype]
    # 9 x 11 map, 2 x 3 filter, dilation (2, 1), stride (1, 2), pads (1, 2, 0, 1); a slice from row 16, column C0.
    rows, cols = geometry(9, 11, 2 * c0, (2, 3), (1, 2), (2, 1), (1, 2, 0, 1))
    assert rows >= 48 and cols >= 4 * c0
    c, expect = run(lib, dtype, 9, 11, 2 * c0, filt=(2, 3), stride=(1, 2), dil=(2, 1), pads=(1, 2, 0, 1),
                    pad_value=0.25, m_start=16, k_start=c0, m_ext=32, k_ext=3 * c0, seed=4)
    check(c, expect, dtype)


def test_filter_size_w_adds_256_columns_to_the_filter(lib):
    # filterW 1 with filterSizeW: a 257-wide filter over a 260-wide map (4 output positions, padded by 2 on the left);
    # a slice of 64 columns from column 16 * 200 (kw 200).
    c, expect = run(lib, torch.float16, 1, 260, 16, filt=(1, 257), pads=(2, 0, 0, 0), pad_value=2.0, k_start=3200,
                    m_ext=6, k_ext=64, seed=7)
    check(c, expect, torch.float16)


@pytest.mark.parametrize("mode,transpose", [(0, False), (0, True), (1, False)])
def test_registers_set_by_set_fmatrix_and_padding_value(lib, mode, transpose):
    # IsResetLoad3dConfig {false, false}: the call's l1H/l1W/padList/padValue are dummies; SetFmatrix's win.
    c, expect = run(lib, torch.float16, 4, 5, 16, mode=mode, transpose=transpose, filt=(2, 2), pads=(1, 0, 2, 1),
                    pad_value=1.5, m_ext=30 if not transpose else 16, k_ext=64, config=1, seed=5)
    check(c, expect, torch.float16)


def test_boundary_wraps_reads_to_l1_start(lib):
    # The map at L1 byte 4096, a boundary 1024 bytes into it: its last bytes are read from L1 byte 0 on.
    fm_bytes = 1 * 8 * 16 * 16 * 2
    c, expect = run(lib, torch.float16, 8, 16, 16, filt=(1, 1), m_ext=128, k_ext=16, fm_offset=4096,
                    boundary=4096 + 1024, wrap_bytes=fm_bytes - 1024, seed=6)
    check(c, expect, torch.float16)
    c, expect = run(lib, torch.float16, 8, 16, 16, m_ext=128, k_ext=16, fm_offset=4096, boundary=65536, seed=6)
    check(c, expect, torch.float16)


def test_counters_see_the_loaded_fractals(lib):
    run(lib, torch.float16, 1, 32, 48)  # 2 x 3 fractals of the map into L0A, 3 x 2 of B into L0B
    assert run.stats.total.cube["l0a_bytes_loaded"] == 6 * 512
    assert run.stats.total.cube["l0b_bytes_loaded"] == 6 * 512


HALF = dict(dtype=torch.float16, l1h=5, l1w=6, channels=16, filt=(3, 3), pads=(1, 1, 1, 1), m_ext=16, k_ext=64)


@pytest.mark.parametrize("fault,over,message", [
    (1, {}, "channelSize of a 16-bit type"),
    (2, {}, "fMatrixCtrl"),
    (3, {}, "kStartPt is a multiple of C0"),
    (4, {}, "mExtension of b4/b8/b16"),
    (5, {}, "strideW"),
    (6, {}, "dilationFilterH"),
    (7, {}, "dilated filter fits"),
    (8, {}, "lies in the img2col"),
    (9, {}, "neither L0A nor L0B"),
    (10, {}, "enSmallK"),
    (11, {}, "inside the LocalTensor"),
    (13, {"config": 1}, "SetFmatrix"),
    (14, {"config": 1}, "FMATRIX_LEFT"),
    (15, {"config": 1}, "l1H"),
    (16, {}, "1024"),
    (17, {"fm_offset": 2048}, "inside the boundary"),
    (18, {}, "repeatMode"),
    (19, {}, "one repeat"),
    (20, {}, "kExtension is a multiple of C0"),
    (21, {}, "inside the LocalTensor"),
])
def test_planted_load3d_faults(lib, fault, over, message):
    args = dict(HALF, **over)
    dtype = args.pop("dtype")
    run(lib, dtype, **args)  # the passing counterpart
    with pytest.raises(KernelRuleViolation, match=message):
        run(lib, dtype, fault=fault, **args)


def test_b8_is_refused_into_l0b_and_transposed_into_l0a(lib):
    run(lib, torch.int8, 1, 32, 64)  # the passing counterpart: b8 into L0A
    with pytest.raises(KernelRuleViolation, match="into L0B takes 16- and 32-bit"):
        run(lib, torch.int8, 1, 32, 64, mode=1)
    with pytest.raises(KernelRuleViolation, match="transposes b16/b32"):
        run(lib, torch.int8, 1, 32, 64, fault=12)


def test_small_channel_layouts_are_refused_clearly(lib):
    with pytest.raises(KernelRuleViolation, match="small-channel layouts"):
        run(lib, torch.float16, 1, 32, 16, fault=22, m_ext=32, k_ext=16)  # channelSize 20 = 16 + 4

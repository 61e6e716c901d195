"""int4b_t on the twin's raw cube path (A2): GlobalTensor<int4b_t> (two elements a byte, low nibble first),
DataCopy GM -> L1 with Nd2NzParams (counted in bytes), LoadData2D into L0A/L0B, LoadData with LoadData3DParamsV2
into L0A, LoadDataWithTranspose into L0B (64 x 64 squares), Mmad int4b_t x int4b_t -> int32_t, against exact
integer products of fresh random inputs; and the rules, each planted in the kernel (tests/kernels/cube_int4.cpp)."""
import os
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

SOURCE = os.path.join(os.path.dirname(__file__), "kernels", "cube_int4.cpp")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([SOURCE])


def pack(x):
    """int4b_t values (in [-8, 7]) as GM holds them: element 2i in the low nibble of byte i, 2i + 1 in the high."""
    u = x.reshape(-1) & 0xF
    return (u[0::2] | (u[1::2] << 4)).to(torch.uint8).view(torch.int8)


def unpack(b):
    u = b.view(torch.uint8).to(torch.int64)
    v = torch.stack([u & 0xF, u >> 4], dim=1).reshape(-1)
    return torch.where(v >= 8, v - 16, v)


def run(lib, m, n, k, mode, fault=0, seed=0):
    g = torch.Generator().manual_seed(seed)
    a = torch.randint(-8, 8, (m, k), generator=g, dtype=torch.int64)
    b = torch.randint(-8, 8, (k, n) if mode == 1 else (n, k), generator=g, dtype=torch.int64)
    c = torch.full((m, n), -7, dtype=torch.int32)
    lib.launch("cube_int4", 1, a=pack(a), b=pack(b), c=c, tiling=struct.pack("<5I", m, n, k, mode, fault))
    return c, a @ (b if mode == 1 else b.T)


def test_pack_and_unpack_agree():
    x = torch.randint(-8, 8, (64,), generator=torch.Generator().manual_seed(3), dtype=torch.int64)
    assert torch.equal(unpack(pack(x)), x)
    assert pack(torch.tensor([1, -2])).view(torch.uint8).item() == 0xE1  # low nibble first


@pytest.mark.parametrize("m,n,k", [(30, 40, 70), (16, 16, 64), (45, 64, 130), (2, 32, 128)])
def test_int4_matmul_through_load2d(lib, m, n, k):
    c, expect = run(lib, m, n, k, mode=0)
    assert torch.equal(c.long(), expect)


@pytest.mark.parametrize("m,n,k", [(40, 50, 70), (32, 128, 128), (17, 64, 64)])
def test_int4_matmul_through_load3dv2_and_transposed_b(lib, m, n, k):
    c, expect = run(lib, m, n, k, mode=1, seed=1)
    assert torch.equal(c.long(), expect)


def test_int4_extremes_accumulate_exactly(lib):
    # -8 x -8 over k = 256: every term at its largest, 16384 per entry.
    m, n, k = 16, 16, 256
    a = torch.full((m, k), -8, dtype=torch.int64)
    b = torch.full((n, k), -8, dtype=torch.int64)
    b[::2] = 7
    c = torch.zeros(m, n, dtype=torch.int32)
    lib.launch("cube_int4", 1, a=pack(a), b=pack(b), c=c, tiling=struct.pack("<5I", m, n, k, 0, 0))
    assert torch.equal(c.long(), a @ b.T)


@pytest.mark.parametrize("mode,fault,message", [
    (0, 1, r"Mmad: broke the rule 'MmadParams.k is even when A and B are int4b_t \(kernel_operator_mm_impl.h\)': "
           r"k 69"),
    (0, 2, r"GlobalTensor::operator\[\]: broke the rule 'an int4b_t GlobalTensor offset is even \(a view starts on a "
           r"whole byte\)': offset 1"),
    (1, 3, r"LoadDataWithTranspose: broke the rule 'LoadDataWithTranspose of int4b_t writes L0B only"),
    (0, 4, r"LoadData\(L1->L0A/L0B\): broke the rule 'LoadData transposes only 16-bit fractals \(A2's int4b_t load "
           r"ignores ifTranspose"),
    (1, 5, r"broke the rule 'channelSize of int4b_t is 8, 16, 32, N\*64, N\*64\+8, N\*64\+16 or N\*64\+32"),
    (0, 6, r"LocalTensor\(pos, addr, tileSize\): broke the rule 'an int4b_t tensor holds an even number of elements "
           r"\(two a byte\)': tileSize 4097"),
    (1, 8, r"LoadData\(LoadData3DParamsV2\): broke the rule 'LoadData with LoadData3DParamsV2 into L0B takes 16- and "
           r"32-bit types on A2 .*': int4b_t into L0B"),
    (1, 9, r"LoadData\(LoadData3DParamsV2\): broke the rule 'LoadData with LoadData3DParamsV2 transposes b16/b32 into "
           r"L0A on A2 .*': enTranspose with int4b_t into L0A"),
    (0, 7, r"DataCopy\(GM->L1, Nd2NzParams\): broke the rule 'cube accesses stay inside the LocalTensor': operand "
           r"'dst' holds 1050 bytes"),
])
def test_int4_planted_faults(lib, mode, fault, message):
    with pytest.raises(KernelRuleViolation, match=message):
        run(lib, 30, 64 if mode == 1 else 40, 70, mode, fault=fault)


@pytest.mark.parametrize("n", [8, 70])
def test_global_tensor_int4_get_and_set_value(lib, n):
    x = torch.randint(-8, 8, (n,), generator=torch.Generator().manual_seed(n), dtype=torch.int64)
    out = torch.zeros(n // 2, dtype=torch.int8)
    lib.launch("int4_gm_scalar", 1, x=pack(x), out=out, tiling=struct.pack("<5I", 0, n, 0, 0, 0))
    assert torch.equal(unpack(out), x.flip(0))


def test_global_tensor_int4_odd_phy_addr_offset_is_a_violation(lib):
    x = torch.randint(-8, 8, (8,), generator=torch.Generator().manual_seed(5), dtype=torch.int64)
    with pytest.raises(KernelRuleViolation, match=r"GlobalTensor::GetPhyAddr: broke the rule 'an int4b_t "
                       r"GlobalTensor offset is even"):
        lib.launch("int4_gm_scalar", 1, x=pack(x), out=torch.zeros(4, dtype=torch.int8),
                   tiling=struct.pack("<5I", 0, 8, 0, 0, 1))

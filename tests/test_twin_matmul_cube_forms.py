"""A pure Cube Matmul (ASCENDC_CUBE_ONLY) in a cube+vector MIX kernel (tests/kernels/cube_matmul_forms.cpp), the CV
fusion guide's hand-written form: the AIC's own Matmul object (C's MatmulType at VECIN, written into GM), then the
AIVs on C after CrossCoreSetFlag; against float64 on fresh random operands, with the planted faults (the object on an
AIV, in a vector-only kernel) next to the passing cube kernel. And two cube-only objects with MatmulConfig
isA2B2Shared (one L0A/L0B double buffer) against float64, with its 32 KB base-block limit planted; and C's MatmulType
in ND_ALIGN (rows 32-byte aligned in GM), with a C sized for ND planted; A in VECTOR (GEMV), with A set transposed
planted; and C in NZ with channel split (8-column fractals), with a short C planted and the twin's whole-fractal limit."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from test_twin_mix_matmul import close, operands, tiling, workspace

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "cube_matmul_forms.cpp")])


def run(lib, kernel, seed):
    t = tiling(128, 64, 96, 128, 64, 64, 32, 32, cores=1)
    a, b, bias, ref = operands(t.M, t.N, t.Ka, seed)
    c = torch.full((t.M, t.N), float("nan"))
    stats = lib.launch(kernel, 1, a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))
    return c, ref, stats


def test_cube_matmul_then_vector_matches_float64(lib):
    c, ref, stats = run(lib, "cube_matmul_then_vector", int(torch.randint(0, 2**31 - 1, (1,))))
    close(c, 2 * ref)  # every AIV doubled its half of the rows after the AIC's flag
    assert stats.mix_type == "MIX_AIC_1_2"
    assert sum(x.cube_macs for x in stats.cores if x.core_type == "aic") == 128 * 64 * 96


def test_cube_matmul_kernel_type_rules(lib):
    with pytest.raises(KernelRuleViolation, match=r"REGIST_MATMUL_OBJ/Matmul::Init: broke the rule 'a pure Cube Matmul "
                                                  r"\(ASCENDC_CUBE_ONLY\) is called on the AIC.*called on an AIV"):
        run(lib, "cube_matmul_on_aiv", 1)
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'a pure Cube Matmul \(ASCENDC_CUBE_ONLY\) runs in a "
                                                  r"kernel that declares KERNEL_TYPE_AIC_ONLY or __cube__, or a "
                                                  r"cube\+vector MIX type"):
        run(lib, "cube_matmul_in_vector_kernel", 2)
    c, ref, _ = run(lib, "cube_matmul_in_cube_kernel", 3)  # the counterpart
    close(c, ref)


def a2b2_run(lib, base_m, seed):
    # M 256, N 64, K 128 on one AIC, L0A/L0B single-buffered in the tiling (the shared double buffer replaces it).
    t = tiling(256, 64, 128, 256, 64, base_m, 64, 128, cores=1)
    t.dbL0A = t.dbL0B = 1
    a, b, bias, ref = operands(t.M, t.N, t.Ka, seed)
    b2 = (torch.rand(t.Kb, t.N, generator=torch.Generator().manual_seed(seed + 1)) * 2 - 1).half()
    c, c2 = torch.full((t.M, t.N), float("nan")), torch.full((t.M, t.N), float("nan"))
    lib.launch("a2b2_shared_pair", 1, a=a, b=b, b2=b2, bias=bias, c=c, c2=c2, workspace=workspace(), tiling=bytes(t))
    return c, ref, c2, a.double() @ b2.double() + bias.double()


def test_a2b2_shared_objects_and_their_block_limit(lib):
    # isA2B2Shared: each base block in half of L0A/L0B (MatmulConfig docs: at most 32 KB each).
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'with isA2B2Shared the A and B base blocks are at "
                                                  r"most 32 KB each.*A block 65536 bytes \(baseM 256 x baseK 128\)"):
        a2b2_run(lib, 256, 4)
    c, ref, c2, ref2 = a2b2_run(lib, 128, int(torch.randint(0, 2**31 - 1, (1,))))  # A block 32 KB: the counterpart
    close(c, ref)
    close(c2, ref2)


def test_nd_align_c_rows_are_32_byte_aligned(lib):
    # N 60 floats: C's rows 64 apart in GM, columns 60..63 never written (they keep their fresh random values).
    t = tiling(64, 60, 64, 64, 64, 32, 32, 32, cores=1)
    t.singleCoreN = 60
    a, b, bias, ref = operands(64, 60, 64, int(torch.randint(0, 2**31 - 1, (1,))))
    c0 = torch.randn(64, 64)
    c = c0.clone()
    lib.launch("nd_align_c", 1, a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))
    close(c[:, :60], ref)
    assert torch.equal(c[:, 60:], c0[:, 60:])
    # Planted: C sized for ND (64 x 60): the last rows' aligned writes run past its end.
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateAll/GetTensorC \(Fixpipe L0C->GM\): broke the "
                                                  r"rule 'GM writes stay inside the launch's buffers'.*GM buffer 'c', "
                                                  r"which holds 15360 bytes"):
        lib.launch("nd_align_c", 1, a=a, b=b, bias=bias, c=torch.zeros(64 * 60), workspace=workspace(),
                   tiling=bytes(t))


def test_gemv_a_in_vector_format(lib):
    # A [1, K] in CubeFormat::VECTOR times B [K, N] plus bias, against float64; A set transposed is refused.
    t = tiling(16, 64, 96, 16, 64, 16, 64, 32, cores=1)
    t.M = t.singleCoreM = 1
    a, b, bias, ref = operands(1, 64, 96, int(torch.randint(0, 2**31 - 1, (1,))))
    c = torch.full((1, 64), float("nan"))
    lib.launch("gemv_a", 1, a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))
    close(c, ref)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::SetTensorA: broke the rule 'in GEMV mode \(A in "
                                                  r"CubeFormat::VECTOR\) A is not transposed'"):
        lib.launch("gemv_a_transposed", 1, a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))


def test_nz_channel_split_c(lib):
    # C [M 64, N 96] in NZ with channel split: element (m, n) at ((n // 8) * 64 + m) * 8 + n % 8, against float64.
    t = tiling(64, 96, 64, 64, 96, 32, 48, 32, cores=1)
    a, b, bias, ref = operands(64, 96, 64, int(torch.randint(0, 2**31 - 1, (1,))))
    c = torch.full((64 * 96,), float("nan"))
    lib.launch("nz_split_c", 1, a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))
    close(c, ref.reshape(64, 12, 8).permute(1, 0, 2).reshape(-1))
    # Planted: C a view one fractal row short of its storage: the last fractal's write would overwrite the
    # storage's next 8 floats.
    storage = torch.full((64 * 96,), -7.0)
    with pytest.raises(KernelRuleViolation, match=r"NZ with channel split\): broke the rule 'GM writes stay inside the "
                                                  r"launch's buffers'.*'c' does not end its allocation"):
        lib.launch("nz_split_c", 1, a=a, b=b, bias=bias, c=storage[:-8], workspace=workspace(), tiling=bytes(t))
    assert torch.equal(storage[-8:], torch.full((8,), -7.0))
    # The counterpart: a fresh C one fractal row short ends its allocation; that row goes to the padding after it.
    c = torch.full((64 * 96 - 8,), float("nan"))
    stats = lib.launch("nz_split_c", 1, a=a, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))
    close(c, ref.reshape(64, 12, 8).permute(1, 0, 2).reshape(-1)[:-8])
    assert stats.total.gm_padding_bytes_written == 32
    # Stricter than the device: a block that is not whole fractals (M 40: the Fixpipe writes its padding rows).
    t2 = tiling(48, 96, 64, 48, 96, 16, 48, 32, cores=1)
    t2.M = t2.singleCoreM = 40
    a2, b2, bias2, _ = operands(40, 96, 64, 5)
    with pytest.raises(KernelRuleViolation, match=r"the twin models C in NZ with channel split for blocks of whole "
                                                  r"fractals"):
        lib.launch("nz_split_c", 1, a=a2, b=b2, bias=bias2, c=torch.zeros(48 * 96), workspace=workspace(),
                   tiling=bytes(t2))

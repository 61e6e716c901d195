"""The Matmul API with A at TPosition::TSCM on the twin (tests/kernels/mix_matmul_tscm.cpp,
tests/kernels/cube_matmul_tscm.cpp): each AIV of a MIX kernel copies its single-core A (NZ, or ND with Nd2NzParams) into
a TSCM queue buffer, which on A2 is a message its block's AIC serves (the AIC's GM -> L1 copy), and gives that L1 tensor
to SetTensorA; a cube-only kernel does the same on its AIC. Checked against float64 on fresh random operands, A plain
and transposed. The TSCM rules (the buffer holds the whole single-core A and every NZ fractal, the copy stays inside it,
the AIV's copy needs the Matmul client REGIST_MATMUL_OBJ opens, TSCM buffers fit in L1 and do not meet the L1 queues
or the Matmul's own B1 and bias, SetTensorA's tensor is at TSCM, the AIV cannot read its TSCM tensor) as planted
faults next to the passing kernels. The compile-time rules (NZ, no GlobalTensor, IBShare or IterateBatch for a TSCM A,
B not at TSCM) are in tests/cpp/compile_fail/matmul_mix_forms.cpp."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from test_twin_mix_matmul import close, tiling, workspace

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "mix_matmul_tscm.cpp")])


def nz(x):
    """A 2-byte [rows, cols] matrix in NZ (16-column fractals, each every row of 16 elements), written out here
    from the format's definition: element (r, c) at (c // 16) * rows * 16 + r * 16 + c % 16."""
    rows, cols = x.shape
    out = torch.empty(rows * cols, dtype=x.dtype)
    for r in range(rows):
        for c in range(cols):
            out[(c // 16) * rows * 16 + r * 16 + c % 16] = x[r, c]
    return out


def run(lib, kernel, t, seed, trans=False, pad=False, blocks=None, nd=False):
    g = torch.Generator().manual_seed(seed)
    a = (torch.rand(t.M, t.Ka, generator=g) * 2 - 1).half()
    b = (torch.rand(t.Kb, t.N, generator=g) * 2 - 1).half()
    bias = torch.rand(t.N, generator=g) * 20 - 10
    ref = a.double() @ b.double() + bias.double()
    tiles = [a[i:i + t.singleCoreM] for i in range(0, t.M, t.singleCoreM)]
    if pad:  # each tile's rows padded with zeros to a multiple of 16
        tiles = [torch.cat([x, torch.zeros(-x.shape[0] % 16, x.shape[1], dtype=x.dtype)]) for x in tiles]
    a_nz = a.reshape(-1) if nd else torch.cat([nz(x.T.contiguous() if trans else x) for x in tiles])
    c = torch.full((t.M, t.N), float("nan"))
    blocks = t.usedCoreNum // 2 if blocks is None else blocks
    stats = lib.launch(kernel, blocks, a=a_nz, b=b, bias=bias, c=c, workspace=workspace(), tiling=bytes(t))
    return c, ref, stats


def two_tiles():
    # The block's two AIVs split M: each a 32 x 64 tile of C over K 64 (base 32 x 32 x 32: 2 K steps).
    return tiling(64, 64, 64, 32, 64, 32, 32, 32, cores=2)


def test_a_from_tscm_matches_float64(lib):
    seed = int(torch.randint(0, 2**31 - 1, (1,)))
    c, ref, stats = run(lib, "tscm_a", two_tiles(), seed)
    close(c, ref)
    assert stats.mix_type == "MIX_AIC_1_2"
    c, ref, _ = run(lib, "tscm_a_trans", two_tiles(), seed + 1, trans=True)
    close(c, ref)
    # singleCoreM 24: NZ pads the tile's rows to 16 (32 rows); a buffer holding the padded rows is read as such.
    t = tiling(64, 64, 64, 32, 64, 32, 32, 32, cores=2)
    t.M, t.singleCoreM = 48, 24
    c, ref, _ = run(lib, "tscm_a_padded", t, seed + 2, pad=True)
    close(c, ref)
    # A in ND in GM, converted by the AIC's DataCopy with Nd2NzParams into TSCM (24-row tiles, NZ rows padded to 32).
    c, ref, _ = run(lib, "tscm_a_nd2nz", t, seed + 3, nd=True)
    close(c, ref)
    c, ref, _ = run(lib, "tscm_a_nd2nz", two_tiles(), seed + 4, nd=True)
    close(c, ref)


def test_tscm_buffer_holds_every_nz_fractal(lib):
    # The same tiles in a buffer of singleCoreM x Ka elements (24 rows): enough for singleM * singleK (the docs' rule)
    # but not for the 32-row fractals the L1 -> L0A loads read.
    t = tiling(64, 64, 64, 32, 64, 32, 32, 32, cores=2)
    t.M, t.singleCoreM = 48, 24
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateAll \(AIC\): broke the rule 'SetTensorA's TSCM "
                                                  r"tensor holds every NZ fractal.*A \[M, K\] in NZ spans 4096 bytes, "
                                                  r"the tensor has 3072"):
        run(lib, "tscm_a", t, 7)
    c, ref, _ = run(lib, "tscm_a_padded", t, int(torch.randint(0, 2**31 - 1, (1,))), pad=True)  # the counterpart
    close(c, ref)


def test_tscm_rules(lib):
    t = two_tiles()
    with pytest.raises(KernelRuleViolation, match=r"Matmul::IterateAll \(AIC\): broke the rule 'SetTensorA's TSCM "
                                                  r"tensor holds the single-core A: at least singleM \* singleK "
                                                  r"elements.*the tensor has 2048 bytes, singleM 32 x singleK 64 need "
                                                  r"4096"):
        run(lib, "tscm_a_small_buffer", t, 1)
    with pytest.raises(KernelRuleViolation, match=r"DataCopy\(GM->TSCM\): broke the rule 'an AIV's DataCopy into "
                                                  r"TSCM is a message its block's AIC serves.*REGIST_MATMUL_OBJ has "
                                                  r"not run"):
        run(lib, "tscm_a_copy_before_regist", t, 2)
    with pytest.raises(KernelRuleViolation, match=r"DataCopy\(GM->TSCM\): broke the rule 'the copy stays inside the "
                                                  r"TSCM tensor'.*reaches byte 8192 of a tensor of 4096 bytes"):
        run(lib, "tscm_a_copy_past_tensor", t, 3)
    with pytest.raises(KernelRuleViolation, match=r"TPipe::InitBuffer: broke the rule 'a TSCM queue's buffers are "
                                                  r"smaller than L1.*1 buffers of 524288 bytes"):
        run(lib, "tscm_a_huge_buffer", t, 4)
    with pytest.raises(KernelRuleViolation, match=r"Matmul::SetTensorA: broke the rule 'with A at TPosition::TSCM "
                                                  r"leftMatrix is a TSCM tensor.*TPosition::VECIN"):
        run(lib, "tscm_a_ub_tensor", t, 5)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Adds: broke the rule 'vector operands and UB copy ends are "
                                                  r"in the Unified Buffer': operand 'src' is not in UB"):
        run(lib, "tscm_read_on_aiv", t, 6)
    # The Matmul's own L1 (B1 and the bias, from the bottom) reaching the AIVs' TSCM buffers (from the top): 252 B1
    # blocks of 32 x 32 half (504 KiB) and the bias; AIV 0's A, the lower share, starts 8 KiB below TOTAL_L1_SIZE.
    with pytest.raises(KernelRuleViolation, match=r"TPipe::InitBuffer: broke the rule 'TSCM buffers are in an AI Cube "
                                                  r"core's L1'.*KERNEL_TYPE_AIV_ONLY kernel has no AI Cube core"):
        run(lib, "tscm_in_vector_kernel", t, 10, blocks=1)
    big_b1 = two_tiles()
    big_b1.depthB1, big_b1.stepKb = 252, 126
    overlap = (r"Matmul::IterateAll \(AIC\): broke the rule 'the Matmul's L1 buffers \(B1 and the bias, from the "
               r"bottom of L1\) and the TSCM tensor of A \(from the top down\) do not overlap'.*B1 \+ bias take "
               r"516224 bytes.*starts at L1 address 515968")
    with pytest.raises(KernelRuleViolation, match=overlap):
        run(lib, "tscm_a", big_b1, 9)
    c, ref, _ = run(lib, "tscm_a", t, int(torch.randint(0, 2**31 - 1, (1,))))  # the counterpart
    close(c, ref)


def test_int4_into_tscm_is_refused_as_not_modelled(lib):
    # A limit of the twin, not a rule of A2: the copy is refused with that said, never run on wrong bytes.
    a = torch.randint(0, 256, (512,), dtype=torch.uint8)
    with pytest.raises(KernelRuleViolation, match=r"DataCopy\(GM->TSCM, Nd2NzParams\).*int4b_t into TSCM is not "
                                                  r"modelled \(the twin's limit, not A2's\)"):
        lib.launch("tscm_int4_copy", 1, a=a, b=None, bias=None, c=None, workspace=workspace(),
                   tiling=bytes(two_tiles()))


@pytest.fixture(scope="module")
def cube_lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "cube_matmul_tscm.cpp")])


def test_cube_only_a_from_tscm(cube_lib):
    # One AIC: A [64, 64] in NZ copied into its own L1 (TSCM from the top), an A1 queue filling the rest of L1.
    t = tiling(64, 64, 64, 64, 64, 32, 32, 32, cores=1)
    c, ref, _ = run(cube_lib, "cube_tscm_a", t, int(torch.randint(0, 2**31 - 1, (1,))), blocks=1)
    close(c, ref)
    with pytest.raises(KernelRuleViolation, match=r"TPipe::InitBuffer: broke the rule 'L1 buffers and the TSCM buffers "
                                                  r"\(from the top of L1 down\) do not overlap'.*took the top 8192"):
        run(cube_lib, "cube_tscm_a_l1_overlap", t, 8, blocks=1)

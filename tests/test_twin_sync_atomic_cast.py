"""WaitPreTaskEnd/SetNextTaskStart (no effect on A2, once per core), DisableDmaAtomic, widening Casts over
overlapping UB and GetReduceRepeatSumSpr: each rule with its planted fault and a clean counterpart."""
import os
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "sync_atomic_cast.cpp")])


def tiling(n, src_off=0, fault=0):
    return struct.pack("<3I", n, src_off, fault)


@pytest.mark.parametrize("cores", [1, 4])
def test_early_start_pair_once_per_core_runs(lib, cores):
    x = torch.randn(64 * cores)
    y = torch.zeros(64 * cores)
    lib.launch("early_start_copy", cores, x=x, y=y, tiling=tiling(64))
    assert torch.equal(y, x)


@pytest.mark.parametrize("fault,call", [(1, "WaitPreTaskEnd"), (2, "SetNextTaskStart")])
def test_early_start_call_twice_on_a_core_is_a_violation(lib, fault, call):
    with pytest.raises(KernelRuleViolation, match=call + r": broke the rule 'called at most once on each core.*"
                                               r"a second call on this core"):
        lib.launch("early_start_copy", 2, x=torch.randn(128), y=torch.zeros(128), tiling=tiling(64, fault=fault))


def test_disable_dma_atomic_ends_the_accumulation(lib):
    x = torch.randint(-50, 50, (64,)).float()
    y0 = torch.randint(-50, 50, (64,)).float()
    y, z = y0.clone(), torch.randn(64)
    lib.launch("atomic_then_plain", 1, x=x, y=y, z=z, tiling=tiling(64))
    assert torch.equal(y, y0 + x)  # accumulated
    assert torch.equal(z, x)  # overwritten: atomic mode ended


@pytest.mark.parametrize("n,src_off", [
    (128, 0),    # one repeat (128 halves): it reads all its sources before writing
    (256, 256),  # the sources in the back half: each repeat writes only bytes already read
    (64, 64),    # a partial repeat over its own back half
])
def test_widening_cast_over_overlapping_ub_converts_every_source(lib, n, src_off):
    x = torch.randint(0, 256, (n,), dtype=torch.int32).to(torch.uint8)
    y = torch.zeros(n, dtype=torch.float16)
    lib.launch("cast_u8_overlap", 1, x=x, y=y, tiling=tiling(n, src_off))
    assert torch.equal(y.double(), x.double())


def test_widening_cast_reading_what_an_earlier_repeat_wrote_is_a_violation(lib):
    # 256 uint8_t at the start of the 512-byte half buffer: repeat 1 reads bytes [128, 256), which repeat 0 wrote.
    x = torch.randint(1, 256, (256,), dtype=torch.int32).to(torch.uint8)
    with pytest.raises(KernelRuleViolation, match=r"Cast: broke the rule 'a widening Cast's later repeat does not "
                                                  r"read src bytes an earlier repeat wrote': repeat 1 reads src bytes "
                                                  r"\[128, 256\)"):
        lib.launch("cast_u8_overlap", 1, x=x, y=torch.zeros(256, dtype=torch.float16), tiling=tiling(256, 0))


def test_get_reduce_repeat_sum_spr_reads_the_count_form_sum(lib):
    x = torch.rand(296) * 4 - 2
    y = torch.zeros(8)
    lib.launch("reduce_sum_spr", 1, x=x, y=y, tiling=tiling(296))
    torch.testing.assert_close(y[0].double(), x.double().sum(), rtol=1e-5, atol=1e-5)
    assert y[1].item() == y[0].item()  # the register holds exactly what ReduceSum stored


@pytest.mark.parametrize("fault,message", [
    (1, r"reads the sum of a count-form ReduceSum.*no such ReduceSum ran on this core"),
    (2, r"T is the type the count-form ReduceSum summed in.*T has 2 bytes, the ReduceSum's 4"),
])
def test_get_reduce_repeat_sum_spr_planted_faults(lib, fault, message):
    with pytest.raises(KernelRuleViolation, match=r"GetReduceRepeatSumSpr: broke the rule '" + message):
        lib.launch("reduce_sum_spr", 1, x=torch.rand(296), y=torch.zeros(8), tiling=tiling(296, fault=fault))


@pytest.mark.parametrize("cores,rounds", [(1, 1), (4, 1), (8, 2)])
def test_wait_pre_block_orders_the_cores_by_block_idx(lib, cores, rounds):
    # Plain read-modify-writes of y from every core: legal only because NotifyNextBlock -> WaitPreBlock orders them
    # (else the twin's cross-core race check stops the launch), and the result shows the order; |y| < 2^24: exact.
    y0 = torch.randint(-8, 8, (64,)).float()
    y = y0.clone()
    ws = torch.randint(0, 5, (8 * cores,), dtype=torch.int32)  # need not be zeroed (docs)
    lib.launch("ordered_update", cores, y=y, ws=ws, tiling=tiling(64, rounds))
    expect = y0.double()
    for _ in range(rounds):
        for i in range(cores):
            expect = 2 * expect + (i + 1)
    assert torch.equal(y.double(), expect)


@pytest.mark.parametrize("fault,call,message", [
    (1, "WaitPreBlock", r"WaitPreBlock/NotifyNextBlock follow InitDetermineComputeWorkspace on the core"),
    (2, "InitDetermineComputeWorkspace", r"ubWorkspace holds at least GetBlockNum\(\) \* 32 \+ 32 bytes.*holds 128 "
                                         r"bytes, 4 blocks need 160"),
    (4, "InitDetermineComputeWorkspace", r"gmWorkspace holds at least GetBlockNum\(\) \* 32 bytes.*holds 96 bytes"),
])
def test_determine_compute_planted_faults(lib, fault, call, message):
    with pytest.raises(KernelRuleViolation, match=call + r": broke the rule '" + message):
        lib.launch("ordered_update", 4, y=torch.zeros(64), ws=torch.zeros(32, dtype=torch.int32),
                   tiling=tiling(64, 2, fault))


def test_wait_pre_block_without_the_notify_is_reported_as_a_hang(lib):
    with pytest.raises(KernelRuleViolation, match=r"WaitPreBlock \(block 2, round 1\): the blocks before it never "
                                                  r"notify"):
        lib.launch("ordered_update", 4, y=torch.zeros(64), ws=torch.zeros(32, dtype=torch.int32),
                   tiling=tiling(64, 2, 3))


@pytest.fixture(scope="module")
def slice_lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "data_copy_slice.cpp")])


@pytest.mark.parametrize("gap", [7, 8, 0])  # 7: DataCopyPad (a stride of 28 bytes); 8 and 0: DataCopy (whole blocks)
def test_data_copy_with_slice_info_picks_the_rows_and_bursts(slice_lib, gap):
    x = torch.randn(3, 87)
    y = torch.zeros(96)
    slice_lib.launch("slice_rows", 1, dstGm=y, srcGm=x.flatten(), tiling=struct.pack("<2I", gap, 0))
    expect = torch.cat([x[[0, 2], 16:40], x[[0, 2], 40 + gap:64 + gap]], 1)
    assert torch.equal(y, expect.flatten())


@pytest.mark.parametrize("fault,message", [
    (1, r"burstLen is 1 beyond dimension 0.*srcSliceInfo\[1\].burstLen 2"),
    (2, r"startIndex < endIndex <= shapeValue.*srcSliceInfo\[0\]: startIndex 16, endIndex 70, shapeValue 60"),
    (3, r"endIndex - startIndex \+ 1 = \(N - 1\) \* stride.*a whole number N of slices.*"
        r"srcSliceInfo\[0\]: startIndex 16, endIndex 69, stride 7, burstLen 3"),
    (4, r"srcSliceInfo\[i\].burstLen equals dstSliceInfo\[i\].burstLen.*dimension 0: 3 and 6"),
    (5, r"the twin takes each dimension's length from shapeValue.*srcSliceInfo\[1\].shapeValue 0"),
    (6, r"dimValue is 1..8.*dimValue 9"),
    (7, r"srcSliceInfo and dstSliceInfo select as many rows.*src 2 rows, dst 3"),
])
def test_data_copy_with_slice_info_planted_faults(slice_lib, fault, message):
    with pytest.raises(KernelRuleViolation, match=r"DataCopy with SliceInfo: broke the rule '" + message):
        slice_lib.launch("slice_rows", 1, dstGm=torch.zeros(96), srcGm=torch.randn(3 * 87),
                         tiling=struct.pack("<2I", 7, fault))

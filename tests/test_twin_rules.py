"""The twin stops a kernel that breaks a hardware or programming-model rule, naming kernel, core and rule.

The kernels under tests/kernels each carry one planted bug; a control kernel that obeys every rule
must run clean.
"""
import os
import re
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelCompileError, KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def planted():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "planted_bugs.cpp")])


def launch(lib, kernel, block_dim, n):
    x = torch.randn(n)
    y = torch.full((n,), -7.0)
    stats = lib.launch(kernel, block_dim, x=x, y=y, workspace=None, tiling=struct.pack("<I", n))
    return x, y, stats


@pytest.mark.parametrize("n", [1, 31, 64, 100, 1000])
def test_control_kernel_runs_clean(planted, n):
    x, y, stats = launch(planted, "copy_ok", 1, n)
    assert torch.equal(x, y)
    assert stats.total.gm_bytes_read == 4 * n and stats.total.gm_bytes_written == 4 * n


@pytest.mark.parametrize("n", [1, 31, 64, 100, 1000])
def test_tail_blocks_read_into_the_allocation_padding(planted, n):
    # A2's runtime allocates AlignUp(4n, 32) + 32 bytes for x: whole-block reads of the tail stay inside.
    x, y, stats = launch(planted, "copy_tail_blocks_ok", 1, n)
    assert torch.equal(x, y)
    tail = -(-n // 8) * 32 - 4 * n
    assert stats.total.gm_padding_bytes_read == tail
    assert stats.total.gm_bytes_read == 4 * n + tail


@pytest.mark.parametrize(
    "kernel,block_dim,n,core,call,rule",
    [
        ("unaligned_copy", 1, 31, 0, r"DataCopy\(GM->UB\)", "DataCopy moves whole 32-byte blocks"),
        ("ub_overflow", 2, 64, 0, r"TPipe::InitBuffer", "UB allocations fit in the UB"),
        ("gm_overread", 4, 100, 2, r"DataCopy\(GM->UB\)", "GM reads stay inside the launch's buffers"),
        ("overlapping_writes", 3, 64, 1, r"DataCopy/DataCopyPad to GM", "no two cores write the same GM bytes"),
        ("shifted_unequal_writes", 3, 96, 1, r"DataCopy/DataCopyPad to GM", "no two cores write the same GM bytes"),
        ("leaked_tensor", 2, 64, 0, r"kernel end", "every tensor from AllocTensor is released with FreeTensor"),
        ("dequeue_empty", 1, 64, 0, r"TQue::DeQue", "DeQue takes from a queue holding a tensor"),
        ("double_free", 1, 64, 0, r"TQue::FreeTensor", "FreeTensor takes a tensor that is allocated"),
        ("unaligned_operand", 1, 64, 0, r"Add", "UB operands start at a 32-byte aligned address"),
        ("bad_round_mode", 1, 64, 0, r"Cast", "Cast uses a round mode the conversion supports on A2"),
        ("read_other_core_writes", 2, 64, 1, r"DataCopy/GetValue from GM",
         "a core reads GM another core writes in the same launch only after SyncAll"),
    ],
)
def test_planted_bug_is_caught(planted, kernel, block_dim, n, core, call, rule):
    with pytest.raises(KernelRuleViolation) as info:
        launch(planted, kernel, block_dim, n)
    message = str(info.value)
    assert f"kernel '{kernel}', core {core}, " in message
    assert re.search(call, message), message
    assert rule in message


@pytest.mark.parametrize("cores", [2, 3])
def test_cores_writing_the_same_values_unordered_run_clean(planted, cores):
    # The counterpart of overlapping_writes: the same launch with every core writing 1.0 (the NPU's last write
    # wins, and every write holds the same bytes). Counted over each pair of cores: 64 floats each.
    _, y, stats = launch(planted, "overlapping_equal_writes", cores, 64)
    assert torch.equal(y, torch.ones(64))
    assert stats.total.gm_unordered_equal_bytes == cores * (cores - 1) // 2 * 256


def test_cores_writing_the_same_values_over_shifted_ranges_run_clean(planted):
    # Ranges [0, 64), [8, 72), [16, 80): compared through what GM holds after the launch; the rest of y untouched.
    _, y, stats = launch(planted, "shifted_equal_writes", 3, 96)
    assert torch.equal(y[:80], torch.full((80,), 2.5)) and torch.equal(y[80:], torch.full((16,), -7.0))
    assert stats.total.gm_unordered_equal_bytes == (56 + 48 + 56) * 4


def test_unequal_values_name_both_cores_and_the_overlap(planted):
    with pytest.raises(KernelRuleViolation, match=r"core [012] and core [012] both wrote bytes \[\d+, \d+\) of GM "
                                                  r"buffer 'y'.*not the same values there"):
        launch(planted, "shifted_unequal_writes", 3, 96)


def test_cores_reading_back_their_own_writes_run_clean(planted):
    x, y, _ = launch(planted, "read_own_writes", 3, 64)
    assert torch.equal(y[:24], x[:24])


def test_cross_core_read_names_both_cores_and_the_bytes(planted):
    with pytest.raises(KernelRuleViolation, match=r"core 1 read bytes \[0, 32\) of GM buffer 'y', which core 0 wrote"):
        launch(planted, "read_other_core_writes", 2, 64)


def test_gm_overread_reports_buffer_and_offsets(planted):
    with pytest.raises(KernelRuleViolation, match=r"offset 200 of GM buffer 'x', which holds 400 bytes; the access "
                                                  r"ends at offset 456"):
        launch(planted, "gm_overread", 4, 100)


def test_instruction_without_a2_dtype_support_does_not_compile():
    with pytest.raises(KernelCompileError, match=r"Add on A2 supports int16_t, half, int32_t and float"):
        ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "bf16_add.cpp")])


def test_correct_kernel_given_a_short_output_buffer_is_stopped_at_the_gm_bound(planted):
    # 8 floats of output for 64 of input: the kernel's write leaves the GM buffer it was given and the padding
    # after its allocation (64 bytes: AlignUp(32, 32) + 32).
    with pytest.raises(RuntimeError, match=r"GM writes stay inside the launch's buffers.*the access ends at offset "
                                           r"256\).*only to offset 64 "):
        planted.launch("copy_ok", 1, x=torch.randn(64), y=torch.empty(8), workspace=None, tiling=struct.pack("<I", 64))
    # 8 floats for 16: the write ends at offset 64, inside that padding, where the NPU writes it harmlessly when
    # y ends its allocation; a y that is a view of a larger tensor would have its next elements overwritten.
    x, storage = torch.randn(16), torch.full((16,), -7.0)
    with pytest.raises(RuntimeError, match=r"GM writes stay inside the launch's buffers.*'y' does not end its "
                                           r"allocation"):
        planted.launch("copy_ok", 1, x=x, y=storage[:8], workspace=None, tiling=struct.pack("<I", 16))
    assert torch.equal(storage[8:], torch.full((8,), -7.0))
    y = torch.empty(8)
    stats = planted.launch("copy_ok", 1, x=x, y=y, workspace=None, tiling=struct.pack("<I", 16))
    assert torch.equal(y, x[:8]) and stats.total.gm_padding_bytes_written == 32

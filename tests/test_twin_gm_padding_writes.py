"""DMA writes past an output's end: into the padding the runtime allocates after an allocation (AlignUp(n, 32) + 32
bytes on A2) they are harmless on the NPU when the output ends its allocation (a fresh tensor, a view reaching its
storage's end), and the twin lets them run, counts them (gm_padding_bytes_written) and never writes them to the
tensor's memory. Past a view that ends before its storage (the NPU would overwrite the storage's next elements),
past the padding, and as scalar stores, they are refused. Both launch paths: KernelLibrary.launch (ctypes) and
the Launcher (ascend_ext._C's argument marshalling)."""
import os
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
SENTINEL = -1234.5


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "gm_padding_writes.cpp")])


def run(lib, path, kernel, x, y, extra=0):
    tiling = struct.pack("<II", x.numel(), extra)
    if path == "launch":
        return lib.launch(kernel, 1, x=x, y=y, workspace=None, tiling=tiling)
    lib.launcher(kernel)(1, [x, y, None, tiling])
    return lib.last_launch_stats()


def tail_bytes(n):
    return -(-n // 8) * 32 - 4 * n


@pytest.mark.parametrize("path", ["launch", "launcher"])
@pytest.mark.parametrize("n", [1, 31, 100, 1000, 1001])
def test_tail_blocks_written_into_a_fresh_outputs_padding(lib, path, n):
    x = torch.randn(n) * 4
    y = torch.randn(n)  # fresh: it ends its allocation
    stats = run(lib, path, "scale_blocks_out", x, y)
    torch.testing.assert_close(y.double(), x.double() * 3, rtol=1e-6, atol=1e-6)
    assert stats.total.gm_padding_bytes_written == tail_bytes(n)
    assert stats.total.gm_bytes_written == 4 * n + tail_bytes(n)
    assert stats.total.gm_padding_bytes_read == tail_bytes(n)


@pytest.mark.parametrize("path", ["launch", "launcher"])
@pytest.mark.parametrize("n", [31, 100])
def test_a_view_reaching_its_storages_end_owns_the_padding(lib, path, n):
    # y starts 3 floats into its storage and ends where it ends: the padding ends AlignUp(4 (n + 3), 32) + 32 bytes
    # from the storage's start, 12 bytes less from y's. One extra block stays inside it for n = 31 (160 <= 180
    # bytes from y) and runs past it for n = 100 (448 > 436).
    storage = torch.full((n + 3,), SENTINEL)
    y = storage[3:]
    x = torch.randn(n)
    stats = run(lib, path, "scale_blocks_out", x, y)
    torch.testing.assert_close(y.double(), x.double() * 3, rtol=1e-6, atol=1e-6)
    assert torch.equal(storage[:3], torch.full((3,), SENTINEL))
    assert stats.total.gm_padding_bytes_written == tail_bytes(n)
    padded_end = -(-4 * (n + 3) // 32) * 32 + 32 - 12  # from y's start
    reach = -(-n // 8) * 32 + 32  # one extra block after the whole blocks
    if reach > padded_end:
        with pytest.raises(KernelRuleViolation, match=rf"only to offset {padded_end} "):
            run(lib, path, "scale_blocks_out", x, y, extra=1)


@pytest.mark.parametrize("path", ["launch", "launcher"])
@pytest.mark.parametrize("n", [1, 31, 100, 1001])
def test_planted_tail_blocks_past_a_view_of_a_larger_tensor(lib, path, n):
    # out= a slice: on the NPU the tail blocks would overwrite the storage's next elements. Refused, and the
    # twin leaves them as they were.
    storage = torch.full((n + 16,), SENTINEL)
    x = torch.randn(n)
    with pytest.raises(KernelRuleViolation) as info:
        run(lib, path, "scale_blocks_out", x, storage[:n])
    message = str(info.value)
    assert "kernel 'scale_blocks_out', core 0, DataCopy(UB->GM)" in message
    assert "broke the rule 'GM writes stay inside the launch's buffers'" in message
    assert f"of GM buffer 'y', which holds {4 * n} bytes; the access ends at offset {-(-n // 8) * 32}" in message
    assert "'y' does not end its allocation" in message and "would overwrite them" in message
    assert torch.equal(storage[n:], torch.full((16,), SENTINEL))


@pytest.mark.parametrize("path", ["launch", "launcher"])
@pytest.mark.parametrize("n", [1, 31, 64, 100])
def test_writes_to_the_paddings_end_pass_and_past_it_are_refused(lib, path, n):
    x = torch.randn(n)
    y = torch.randn(n)
    stats = run(lib, path, "scale_blocks_out", x, y, extra=1)  # to AlignUp(4n, 32) + 32: the allocation's end
    torch.testing.assert_close(y.double(), x.double() * 3, rtol=1e-6, atol=1e-6)
    assert stats.total.gm_padding_bytes_written == tail_bytes(n) + 32
    padded = -(-4 * n // 32) * 32 + 32
    with pytest.raises(KernelRuleViolation, match=rf"GM buffer 'y', which holds {4 * n} bytes; the access ends at "
                                                  rf"offset {padded + 32}\).*only to offset {padded} "):
        run(lib, path, "scale_blocks_out", x, torch.randn(n), extra=2)


@pytest.mark.parametrize("path", ["launch", "launcher"])
def test_planted_scalar_store_past_the_end(lib, path):
    with pytest.raises(KernelRuleViolation, match=r"GlobalTensor::SetValue.*stricter than the NPU.*a scalar store"):
        run(lib, path, "set_value_past_end", torch.randn(31), torch.randn(31))


def test_bytes_arguments_are_allocations_of_their_own(lib):
    # A GM argument given as bytes is copied into a buffer of its own: it ends its allocation.
    n = 13
    x = torch.randn(n)
    stats = lib.launch("scale_blocks_out", 1, x=x, y=bytes(4 * n), workspace=None, tiling=struct.pack("<II", n, 0))
    assert stats.total.gm_padding_bytes_written == tail_bytes(n)


@pytest.fixture(scope="module")
def cube():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "cube_basic.cpp")])


@pytest.mark.parametrize("view", [False, True])
def test_fixpipe_rows_of_16_columns_into_an_8_column_output(cube, view):
    # Fixpipe NZ -> ND of nSize 16 columns with rows 8 apart (tests/kernels/cube_basic.cpp mode 0, n = 8): each row's
    # columns 8..15 land on the next row's start, which that row then writes, and the last row's run 32 bytes past C:
    # into the padding of a fresh C (the NPU writes it there); past a view of a larger tensor, refused.
    m, n, k = 16, 8, 16
    g = torch.Generator().manual_seed(int(torch.randint(0, 2**31 - 1, (1,))))
    a = (torch.rand(m, k, generator=g, dtype=torch.float64) * 2 - 1).half()
    b = (torch.rand(k, n, generator=g, dtype=torch.float64) * 2 - 1).half()
    tiling = struct.pack("<6IQ", m, n, k, 0, 0, 0, 0)
    if view:
        storage = torch.full((m * n + 8,), SENTINEL)
        with pytest.raises(KernelRuleViolation, match=r"Fixpipe.*GM buffer 'c'.*'c' does not end its allocation"):
            cube.launch("cube_half", 1, a=a, b=b, bias=None, c=storage[:m * n].view(m, n), tiling=tiling)
        assert torch.equal(storage[m * n:], torch.full((8,), SENTINEL))
        return
    c = torch.zeros(m, n)
    stats = cube.launch("cube_half", 1, a=a, b=b, bias=None, c=c, tiling=tiling)
    torch.testing.assert_close(c.double(), a.double() @ b.double(), rtol=1e-5, atol=1e-5)
    assert stats.total.gm_padding_bytes_written == 32

"""The NPU adapter (torch_ext/csrc/npu/) on a real NPU: how operands are described to aclnn, which device
and stream a call uses, and what the queued launch keeps alive. Skipped without an NPU (with the reason);
on an NPU machine: `python -m pytest tests/test_npu_adapter.py` (or the whole suite).
"""
import threading

import pytest
import torch

import ascend_ext
from conftest import KERNEL_DTYPES, NPU_AVAILABLE, NPU_SKIP_REASON, assert_matches_reference, rand

pytestmark = pytest.mark.skipif(not NPU_AVAILABLE, reason=NPU_SKIP_REASON)

ACL_FORMAT_NC1HWC0 = 3
ACL_FORMAT_FRACTAL_NZ = 29


def npu_count() -> int:
    return torch.npu.device_count() if NPU_AVAILABLE else 0


def reference(x, y):
    return x.cpu().double() + y.cpu().double()


def check(x, y, dtype):
    z = ascend_ext.vector_add(x, y)
    assert z.device == x.device
    assert_matches_reference(z, reference(x, y), dtype)
    return z


# ---- views: each operand is described as exactly its own elements --------------------------------------

@pytest.mark.parametrize("dtype", KERNEL_DTYPES, ids=lambda d: str(d).replace("torch.", ""))
def test_contiguous_views_into_a_larger_storage(dtype):
    a = rand(4, 3, 1000, dtype=dtype, device="npu")
    b = rand(4, 3, 1000, dtype=dtype, device="npu")
    before = a.clone(), b.clone()
    check(a[1], b[2], dtype)                       # nonzero storage offsets, storage 4x larger
    for xa, xb in zip(a.chunk(4), b.chunk(4)):     # every chunk, the last one ending at the storage end
        check(xa, xb, dtype)
    check(a[3, 2, 17:], b[0, 0, :983], dtype)     # odd offsets and lengths
    torch.testing.assert_close(a, before[0], rtol=0, atol=0)  # inputs untouched
    torch.testing.assert_close(b, before[1], rtol=0, atol=0)


def test_strided_and_broadcast_views():
    a = rand(64, 130, device="npu")
    b = rand(130, 64, device="npu")
    check(a[::2], a[1::2], torch.float32)
    check(a[:, :64], b.t()[:, :64].contiguous(), torch.float32)
    check(b.t(), a, torch.float32)
    check(a, rand(130, device="npu"), torch.float32)   # broadcast
    check(a[:, :1].expand(64, 130), a, torch.float32)


def test_output_is_a_fresh_dense_tensor():
    a = rand(8, 1000, device="npu")
    z = ascend_ext.vector_add(a[1], a[2])
    assert z.is_contiguous() and z.storage_offset() == 0 and z.untyped_storage().nbytes() == 1000 * 4


# ---- private NPU formats: converted to ND before the kernel reads them ----------------------------------

def test_fractal_nz_inputs():
    import torch_npu

    x = rand(64, 128, dtype=torch.float16, device="npu")
    y = rand(64, 128, dtype=torch.float16, device="npu")
    xn = torch_npu.npu_format_cast(x, ACL_FORMAT_FRACTAL_NZ)
    assert torch_npu.get_npu_format(xn) == ACL_FORMAT_FRACTAL_NZ
    check(xn, y, torch.float16)
    check(xn, torch_npu.npu_format_cast(y, ACL_FORMAT_FRACTAL_NZ), torch.float16)


def test_nc1hwc0_input():
    import torch_npu

    x = rand(2, 19, 7, 5, dtype=torch.float16, device="npu")  # C=19: padded to 32 in NC1HWC0
    y = rand(2, 19, 7, 5, dtype=torch.float16, device="npu")
    check(torch_npu.npu_format_cast(x, ACL_FORMAT_NC1HWC0), y, torch.float16)


# ---- devices and streams ---------------------------------------------------------------------------------

@pytest.mark.skipif(npu_count() < 2, reason="needs a second NPU")
def test_second_device_runs_there_and_leaves_the_current_device_alone():
    torch.npu.set_device(0)
    x = rand(100_000, device="npu:1")
    y = rand(100_000, device="npu:1")
    z = check(x, y, torch.float32)
    assert z.device == torch.device("npu:1")
    assert torch.npu.current_device() == 0


@pytest.mark.skipif(npu_count() < 2, reason="needs a second NPU")
def test_a_cpu_scalar_x_runs_on_the_device_of_y():
    # torch.add(x cpu 0-d, y npu:1) runs on npu:1 whatever the current device: the guard follows y.
    torch.npu.set_device(0)
    x = torch.tensor(1.5)
    y = rand(1000, device="npu:1")
    for z in (ascend_ext.vector_add(x, y), ascend_ext.vector_add(x, y, alpha=2.0)):
        assert z.device == torch.device("npu:1")
    torch.testing.assert_close(ascend_ext.vector_add(x, y).cpu(), torch.add(x, y).cpu())
    torch.testing.assert_close(ascend_ext.vector_add(x, y, alpha=2.0).cpu(), torch.add(x, y, alpha=2.0).cpu())
    assert torch.npu.current_device() == 0


@pytest.mark.skipif(npu_count() < 2, reason="needs a second NPU")
def test_operands_on_two_devices_are_rejected():
    with pytest.raises(RuntimeError, match="vector_add"):
        ascend_ext.vector_add(rand(10, device="npu:0"), rand(10, device="npu:1"))


def test_side_stream_orders_with_torch_work():
    s = torch.npu.Stream()
    x = rand(1 << 20, device="npu")
    with torch.npu.stream(s):
        y = x * 2
        z = ascend_ext.vector_add(x, y)
    s.synchronize()
    torch.testing.assert_close(z.cpu(), (x * 3).cpu())


# ---- what a queued launch keeps alive ---------------------------------------------------------------------

def test_many_queued_calls_of_growing_sizes_before_one_synchronisation():
    # Growing workspace requests and inputs dropped right after the call: every launch must still read
    # its own operands and workspace when the task queue runs it.
    results = []
    for n in [1, 100, 4096, 100_000, 1 << 20, 3 << 20]:
        x, y = rand(n, device="npu"), rand(n, device="npu")
        results.append((ascend_ext.vector_add(x, y), reference(x, y)))
        del x, y
    torch.npu.synchronize()
    for z, ref in results:
        assert_matches_reference(z, ref, torch.float32)


def test_concurrent_first_calls_from_threads():
    out, errors = {}, []

    def work(i):
        try:
            x, y = rand(10_000 + i, device="npu"), rand(10_000 + i, device="npu")
            out[i] = (ascend_ext.vector_add(x, y), reference(x, y))
        except Exception as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for z, ref in out.values():
        assert_matches_reference(z, ref, torch.float32)

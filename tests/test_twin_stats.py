"""What the twin's counters report for the built-in ops, core by core."""
import os
import subprocess
import threading
import sys

import pytest
import torch

import ascend_ext
from conftest import rand


@pytest.mark.parametrize("n", [1, 31, 4096, 4096 * 48 + 7, 1_000_003])
def test_vector_add_float32_moves_exactly_8n_in_and_4n_out(n):
    ascend_ext.vector_add(rand(n), rand(n))
    stats = ascend_ext.twin.last_launch_stats()
    assert stats.kernel == "vector_add"
    assert stats.total.gm_bytes_read == 8 * n
    assert stats.total.gm_bytes_written == 4 * n
    assert stats.total.vector_element_ops == {"Add": n}


def test_each_core_moves_its_own_share():
    n = 4096 * 48 + 7
    ascend_ext.vector_add(rand(n), rand(n))
    stats = ascend_ext.twin.last_launch_stats()
    plan = ascend_ext.twin.plan("vector_add", [n])
    assert stats.block_dim == plan["block_dim"] == len(stats.cores) == plan["col_groups"]
    shares = [plan["cols_former"]] * plan["col_former_num"] + [plan["cols_tail"]] * (
        plan["block_dim"] - plan["col_former_num"]
    )
    shares[-1] -= sum(shares) - n
    assert [c.gm_bytes_written for c in stats.cores] == [4 * s for s in shares]
    assert all(c.ub_bytes_allocated == plan["ub_bytes"] for c in stats.cores)


@pytest.mark.parametrize("rows,d", [(5, 130), (1000, 7), (1 << 14, 128), (3, 100_000)])
def test_a_broadcast_row_is_read_in_place_once_per_row_group(rows, d):
    x, b = rand(rows, d), rand(d)
    z = ascend_ext.vector_add(x, b)
    assert torch.equal(z, x + b)
    stats = ascend_ext.twin.last_launch_stats()
    plan = ascend_ext.twin.plan("vector_add", [rows, d])
    assert stats.total.gm_bytes_read == 4 * (rows * d + plan["row_groups"] * d)
    assert stats.total.gm_bytes_read == 4 * (rows * d + plan["bcast_elems_read"])
    assert stats.total.gm_bytes_written == 4 * rows * d


def test_bias_on_one_row_group_reads_exactly_nd_plus_d():
    rows, d = 40, 50  # small enough for one core: N*D + D elements, the broadcast row read once
    ascend_ext.vector_add(rand(rows, d), rand(d))
    stats = ascend_ext.twin.last_launch_stats()
    assert stats.block_dim == 1
    assert stats.total.gm_bytes_read == 4 * (rows * d + d)


def test_scalar_operands_are_read_once_per_core():
    n = 1 << 18
    ascend_ext.vector_add(rand(n), rand(1))
    stats = ascend_ext.twin.last_launch_stats()
    assert stats.total.gm_bytes_read == 4 * (n + stats.block_dim)
    assert stats.total.vector_element_ops == {"Adds": n}
    ascend_ext.vector_add(rand(n), 2.0, alpha=3.0)
    stats = ascend_ext.twin.last_launch_stats()
    assert stats.total.gm_bytes_read == 4 * n and stats.total.vector_element_ops == {"Adds": n}


def test_bfloat16_adds_in_float32():
    n = 5000
    ascend_ext.vector_add(rand(n, dtype=torch.bfloat16), rand(n, dtype=torch.bfloat16))
    total = ascend_ext.twin.last_launch_stats().total
    assert total.vector_element_ops == {"Add": n, "Cast": 3 * n}
    assert total.gm_bytes_read == 4 * n and total.gm_bytes_written == 2 * n


def test_record_collects_every_launch_in_order():
    with ascend_ext.twin.record() as rec:
        ascend_ext.vector_add(rand(10), rand(10))
        ascend_ext.vector_add(rand(100_000), rand(100_000))
    assert [launch.kernel for launch in rec.launches] == ["vector_add", "vector_add"]
    assert [launch.total.gm_bytes_written for launch in rec.launches] == [40, 400_000]


def test_empty_input_launches_nothing():
    with ascend_ext.twin.record() as rec:
        out = ascend_ext.vector_add(rand(0, 5), rand(5))
    assert out.shape == (0, 5) and rec.launches == []


def test_platform_profile_changes_the_core_count():
    assert ascend_ext.twin.get_platform() == "Ascend910B2"
    try:
        ascend_ext.twin.set_platform("910B3")
        ascend_ext.vector_add(rand(1 << 20), rand(1 << 20))
        assert ascend_ext.twin.last_launch_stats().block_dim == 40
    finally:
        ascend_ext.twin.set_platform("Ascend910B2")
    with pytest.raises(ValueError, match="unknown platform 'Ascend310P'"):
        ascend_ext.twin.set_platform("Ascend310P")


# Run with 1 and 3 pool threads (one process each, the count is read once): vector_add over many cores,
# DispersionCorrection rows split across cores (forward and backward: SyncAll between the passes), and
# kernels whose 8 cores meet at SyncAll twice, all 8 on a single thread when there is one.
THREADS_SCRIPT = """
import hashlib, sys, torch, ascend_ext
def digest(*ts):
    return hashlib.sha256(b"".join(t.contiguous().view(torch.uint8).numpy().tobytes() for t in ts)).hexdigest()[:16]
torch.manual_seed(0)
x = torch.randn(777_777); y = torch.randn(777_777)
print(ascend_ext.vector_add(x, y).double().sum().item())
d = 2 * ascend_ext.twin.plan("dispersion_correction", [1, 1 << 20], torch.float32)["chunk_len"] + 37
x = torch.randn(3, d); g = torch.randn(3, d)
op = torch.ops.ascend_ext
print(digest(op.dispersion_correction(x, 0.8, 1), op.dispersion_correction_backward(g, x, 0.8, 1, 1e-5)))
print(ascend_ext.twin.last_launch_stats().block_dim)
lib = ascend_ext.twin.compile_kernels([sys.argv[1]])
x = torch.randint(-50, 50, (64,)).float(); out = torch.zeros(64); ws = torch.zeros(128)
lib.launch("exchange", 8, x=x, y=out, ws=ws)
c = x.view(8, 8)
assert torch.equal(out, (c + c.roll(-1, 0) + c.roll(-2, 0)).reshape(-1))
try:
    lib.launch("exchange_last_core_skips", 8, x=x, y=out, ws=ws)
except ascend_ext.twin.KernelRuleViolation as e:
    assert "every core reaches every SyncAll" in str(e)
else:
    raise AssertionError("no violation")
print("sync-all ok")
"""


def test_results_do_not_depend_on_how_many_threads_run_the_cores():
    kernels = os.path.join(os.path.dirname(__file__), "kernels", "sync_all.cpp")
    outputs = set()
    for threads in ("1", "3"):
        env = dict(os.environ, ASCEND_TWIN_THREADS=threads)
        proc = subprocess.run([sys.executable, "-c", THREADS_SCRIPT, kernels], env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        outputs.add(proc.stdout)
    assert len(outputs) == 1
    lines = outputs.pop().splitlines()
    assert int(lines[2]) > 3 and lines[3] == "sync-all ok"  # the 3 rows were split across cores


@pytest.mark.parametrize("value", ["abc", "-1"])
def test_invalid_thread_count_is_a_clear_error(value):
    code = "import torch, ascend_ext; ascend_ext.vector_add(torch.ones(3), torch.ones(3))"
    env = dict(os.environ, ASCEND_TWIN_THREADS=value)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert proc.returncode != 0
    assert f"ValueError: ascend_ext twin: ASCEND_TWIN_THREADS='{value}' is not a whole number of threads" in \
        proc.stderr


def test_nested_record_keeps_the_outer_recording():
    with ascend_ext.twin.record() as outer:
        ascend_ext.vector_add(rand(10), rand(10))
        with ascend_ext.twin.record() as inner:
            ascend_ext.vector_add(rand(20), rand(20))
        ascend_ext.vector_add(rand(30), rand(30))
    assert [launch.total.gm_bytes_written for launch in inner.launches] == [80]
    assert [launch.total.gm_bytes_written for launch in outer.launches] == [40, 80, 120]


def _in_thread(fn):
    result = {}

    def run():
        try:
            result["value"] = fn()
        except BaseException as exc:  # handed to the caller
            result["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "error" in result:
        raise result["error"]
    return result.get("value")


def test_last_launch_stats_before_any_launch_raises():
    with pytest.raises(LookupError, match="this thread has made no twin launch yet"):
        _in_thread(ascend_ext.twin.last_launch_stats)


def test_statistics_and_recordings_belong_to_the_calling_thread():
    ascend_ext.vector_add(rand(7), rand(7))
    with ascend_ext.twin.record() as rec:
        other = _in_thread(lambda: (ascend_ext.vector_add(rand(50), rand(50)),
                                    ascend_ext.twin.last_launch_stats())[1])
        ascend_ext.vector_add(rand(9), rand(9))
    assert other.total.gm_bytes_written == 200
    assert [launch.total.gm_bytes_written for launch in rec.launches] == [36]
    assert ascend_ext.twin.last_launch_stats().total.gm_bytes_written == 36


@pytest.mark.parametrize("sizes", [[2**40, 2**40], [2**62, 4], [2**64]])
def test_plan_of_a_size_beyond_int64_is_a_clear_error(sizes):
    with pytest.raises(ValueError, match=r"2\^63 - 1"):
        ascend_ext.twin.plan("vector_add", sizes)


def test_plan_of_the_largest_size_works():
    plan = ascend_ext.twin.plan("vector_add", [2**31, 2**31])
    assert plan["rows"] * plan["row_length"] == 2**62

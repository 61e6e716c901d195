"""The benchmark's cost model: the counters it reads, its arithmetic, and its verdict on our kernels.

Timing is never asserted (benchmarks print ratios; these machines are noisy). What is asserted is
deterministic: the twin's per-pipe counters, the model's formulas on hand-made counters, and that the
modelled time of large launches of our kernels stays close to the roofline floor.
"""
import math

import pytest
import torch

import ascend_ext
from ascend_ext import twin
from ascend_ext.__main__ import _bench_package

bench = _bench_package()
from ascend_ext.bench import costmodel, model_cases  # noqa: E402  (registered by _bench_package)
from ascend_ext.bench.profiles import PROFILES  # noqa: E402

B2 = PROFILES["Ascend910B2"]


def test_vector_counters_count_calls_and_repeats():
    x, y = torch.randn(1000), torch.randn(1000)
    ascend_ext.vector_add(x, y)
    s = twin.last_launch_stats()
    assert s.block_dim == 1
    core = s.cores[0]
    # one tile: two copies in, one Add over 1000 floats = ceil(4000 / 256) repeats, one copy out
    assert core.vector_instructions == {"Add": {"calls": 1, "repeats": math.ceil(1000 * 4 / 256)}}
    assert (core.mte2_calls, core.mte2_bursts, core.mte3_calls, core.mte3_bursts) == (2, 2, 1, 1)
    assert core.data_copy_calls == core.mte2_calls + core.mte3_calls


def test_cast_repeats_count_the_wider_side():
    x = torch.randn(48, 200).to(torch.bfloat16)
    ascend_ext.dispersion_correction(x, 0.8, 0)
    total = twin.last_launch_stats().total
    cast = total.vector_instructions["Cast"]
    # every bf16 -> float and float -> bf16 conversion issues a repeat per 64 elements (256 bytes of float)
    assert total.vector_element_ops["Cast"] == 2 * x.numel()
    assert cast["repeats"] >= math.ceil(2 * x.numel() / 64)
    assert cast["repeats"] <= cast["calls"] * math.ceil(200 / 64) + cast["calls"]


def _core(**kw):
    base = dict(gm_bytes_read=0, gm_bytes_written=0, data_copy_calls=0, ub_bytes_allocated=0, cube_macs=0,
                vector_element_ops={})
    base.update(kw)
    return ascend_ext.twin.CoreStats(**base)


def _case(read, write, flops=1, unit="vector"):
    return costmodel.OpCase("op", "s", "float32", read, write, flops, unit, 4)


def test_vector_core_time_is_its_slowest_pipe():
    core = _core(gm_bytes_read=111 * 1000, gm_bytes_written=66 * 100, mte2_calls=2, mte2_bursts=2, mte3_calls=1,
                 mte3_bursts=1, vector_element_ops={"Exp": 6400, "Add": 6400},
                 vector_instructions={"Exp": {"calls": 1, "repeats": 100}, "Add": {"calls": 1, "repeats": 100}})
    pipes = costmodel.core_pipes(core, B2, "fp32")
    clk = B2.clock_hz
    assert pipes["MTE2"] == pytest.approx((1000 + 2 * B2.mte2_fixed_cycles) / clk)
    assert pipes["MTE3"] == pytest.approx((100 + B2.mte3_fixed_cycles) / clk)
    # Exp: 6400 elements at 32 per cycle (200 cycles) beats its 100 repeats; Add: 100 repeats at 1.18
    v = 6400 / 32 + 100 * B2.vector_repeat_cycles["Add"] + 2 * B2.vector_fixed_cycles
    assert pipes["V"] == pytest.approx(v / clk)


def test_short_bursts_cost_a_whole_granule():
    core = _core(gm_bytes_read=1000 * 8, mte2_calls=1, mte2_bursts=1000)  # 1000 bursts of 8 bytes
    pipes = costmodel.core_pipes(core, B2, "fp32")
    assert pipes["MTE2"] == pytest.approx((1000 * B2.gm_burst_granule / B2.mte2_ub_bytes_per_cycle
                                           + B2.mte2_fixed_cycles) / B2.clock_hz)


def test_kernel_time_waves_shared_memory_and_launch():
    core = _core(gm_bytes_read=111 * 18000, mte2_calls=0)  # MTE2 busy 18000 cycles = 10 us
    n = B2.aiv + 1  # one core more than the chip has: a second wave
    stats = ascend_ext.twin.LaunchStats("k", B2.name, n, [core] * n)
    r = costmodel.model_launch(stats, B2, _case(read=1, write=0))
    assert r["waves"] == 2
    assert r["compute_us"] == pytest.approx(20.0)
    assert r["model_us"] == pytest.approx(20.0 + B2.launch_s * 1e6)
    # the same bytes from far more cores than HBM can feed: the shared bound takes over
    big = ascend_ext.twin.LaunchStats("k", B2.name, 1, [_core(gm_bytes_read=10**9)])
    r = costmodel.model_launch(big, B2, _case(read=10**9 * 2**8, write=0))
    assert r["bound"] == "HBM"


def test_re_reads_of_an_l2_resident_footprint_hit_l2():
    assert costmodel.hbm_bytes(10 << 20, 90 << 20, 0, B2) == 10 << 20
    assert costmodel.hbm_bytes(B2.l2_bytes * 2, B2.l2_bytes * 3, 0, B2) == B2.l2_bytes * 3
    assert costmodel.hbm_bytes(0, 0, B2.l2_bytes + 5, B2) == 5


@pytest.mark.parametrize("make", [
    lambda: model_cases.vector_add((1 << 22,), (1 << 22,), torch.float32),
    lambda: model_cases.vector_add((4096, 1024), (1024,), torch.float16),
    lambda: model_cases.matmul(512, 512, 512, torch.float16),
], ids=["vector_add", "vector_add_bias", "matmul"])
def test_large_launches_model_at_or_above_the_floor(make):
    case, call = make()
    with twin.record() as rec:
        call()
    r = costmodel.model_recording(rec.launches, B2, case)
    assert r["floor_us"] <= r["model_us"]
    if case.op == "vector_add":  # the kernel body streams within 15 % of the roofline (launch aside)
        assert r["floor_us"] / (r["model_us"] - r["launch_us"]) >= 0.85, r


def test_bench_quick_model_section_writes_json_and_png(tmp_path):
    pytest.importorskip("matplotlib")
    out, png = tmp_path / "b.json", tmp_path / "b.png"
    assert bench.main(["--quick", "--section", "model", "--json", str(out), "--plot", str(png)]) == 0
    import json

    result = json.loads(out.read_text())
    assert {r["platform"] for r in result["model"]} == set(PROFILES)
    assert all(r["floor_us"] > 0 and r["model_us"] > 0 for r in result["model"])
    assert result["validation"] and all(v["published_us"] > 0 for v in result["validation"])
    assert png.stat().st_size > 10_000

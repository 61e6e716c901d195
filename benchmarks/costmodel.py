"""Section 3: what the kernels would take on a 910B, modelled from the twin's per-core counters.

The twin runs the real kernel and counts, per virtual core, what each pipe had to do: GM->UB copies
(MTE2: bytes, copies, bursts), UB->GM copies (MTE3), vector instructions (V: issued calls and 256-byte
repeats per instruction kind), cube MACs and the L1/L0/L0C traffic of the cube core. The model turns
those counts into time with a chip profile (`profiles.py`, every figure with its public source):

    pipe time  = work / the pipe's rate + per-instruction start-up
    core time  = max over its pipes (the pipes run concurrently; our kernels double-buffer)
    kernel     = max(slowest core per wave of cores, bytes / the shared HBM (and L2) bandwidth) + launch

The roofline floor of the same op is max(minimal bytes / HBM bandwidth, essential FLOPs / peak): the
time no implementation can beat. ratio = floor / modelled time (1.0 = on the roofline). CANN's msKPP
predicts a kernel's time from a separate model of it written in msKPP's DSL; this model instead reads the
counters of the very kernel the NPU runs, so a re-read, a tail or an idle core shows up by itself.
"""
import dataclasses
from typing import Dict, List, Optional

from .profiles import ChipProfile


@dataclasses.dataclass
class OpCase:
    """What the roofline needs to know about one call, independent of any implementation."""
    op: str
    shape: str
    dtype: str
    read_bytes: int       # every input read once
    write_bytes: int      # every output written once
    flops: int            # essential arithmetic (a MAC = 2 FLOPs; an elementwise add = 1)
    unit: str             # "cube" or "vector": which peak bounds the FLOPs
    compute_bytes: int    # element size of the arithmetic (vector peak = 256 B per cycle / this)

    @property
    def min_bytes(self) -> int:
        return self.read_bytes + self.write_bytes


def _dtype_key(dtype: str) -> str:
    return {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32"}.get(dtype, dtype)


def _copy_cycles(nbytes: int, calls: int, bursts: int, rate: float, fixed: float, granule: int) -> float:
    # a burst shorter than the granule still moves a whole granule
    return max(nbytes, bursts * granule) / rate + calls * fixed


def core_pipes(core, profile: ChipProfile, cube_dtype: str) -> Dict[str, float]:
    """Seconds each pipe of one core is busy."""
    p = profile
    clk = p.clock_hz
    if core.cube_macs:
        c = core.cube
        return {
            "MTE2": _copy_cycles(core.gm_bytes_read, core.mte2_calls, core.mte2_bursts, p.mte2_l1_bytes_per_cycle,
                                 p.mte2_fixed_cycles, p.gm_burst_granule) / clk,
            "MTE1": (c.get("l0a_bytes_loaded", 0) / p.l0a_bytes_per_cycle
                     + c.get("l0b_bytes_loaded", 0) / p.l0b_bytes_per_cycle) / clk,
            "Cube": (core.cube_macs / p.cube_macs_per_cycle[cube_dtype]
                     + c.get("mmad_calls", 0) * p.mmad_fixed_cycles) / clk,
            "FixPipe": c.get("l0c_bytes_out", 0) / p.fixpipe_bytes_per_cycle / clk,
        }
    v = 0.0
    for name, d in core.vector_instructions.items():
        cycles = d["repeats"] * p.vector_repeat_cycles.get(name, 1.0)
        if name in p.vector_elements_per_cycle:
            cycles = max(cycles, core.vector_element_ops.get(name, 0) / p.vector_elements_per_cycle[name])
        v += cycles + d["calls"] * p.vector_fixed_cycles
    return {
        "MTE2": _copy_cycles(core.gm_bytes_read, core.mte2_calls, core.mte2_bursts, p.mte2_ub_bytes_per_cycle,
                             p.mte2_fixed_cycles, p.gm_burst_granule) / clk,
        "V": v / clk,
        "MTE3": _copy_cycles(core.gm_bytes_written, core.mte3_calls, core.mte3_bursts, p.mte3_bytes_per_cycle,
                             p.mte3_fixed_cycles, p.gm_burst_granule) / clk,
    }


def hbm_bytes(read_footprint: int, gm_read: int, write_footprint: int, profile: ChipProfile) -> int:
    """Bytes the HBM itself must serve. Reads: the footprint once when it fits in L2 (re-reads hit L2),
    every read otherwise. Writes: L2 is write-back; what fits in it need not reach HBM within the kernel
    (AD's add example notes its output writes landing in L2)."""
    reads = read_footprint if read_footprint <= profile.l2_bytes else max(gm_read, read_footprint)
    return reads + max(0, write_footprint - profile.l2_bytes)


def shared_seconds(hbm: int, gm_total: int, profile: ChipProfile) -> float:
    """The chip-wide bound: HBM for what misses L2, L2 bandwidth for every GM access."""
    return max(hbm / profile.hbm_bytes_per_s, gm_total / profile.l2_bytes_per_s)


def model_launch(stats, profile: ChipProfile, case: OpCase) -> dict:
    """Modelled time of one twin launch on `profile`."""
    cube = any(c.cube_macs for c in stats.cores)
    physical = profile.aic if cube else profile.aiv
    per_core = [core_pipes(c, profile, _dtype_key(case.dtype)) for c in stats.cores]
    core_times = [max(p.values()) if p else 0.0 for p in per_core]
    # blockDim virtual cores run on `physical` cores in waves of `physical`.
    waves = [core_times[i:i + physical] for i in range(0, len(core_times), physical)]
    compute = sum(max(w) for w in waves)
    slowest = max(range(len(core_times)), key=lambda i: core_times[i]) if core_times else 0
    gm_read = sum(c.gm_bytes_read for c in stats.cores)
    gm_bytes = gm_read + sum(c.gm_bytes_written for c in stats.cores)
    hbm = hbm_bytes(case.read_bytes, gm_read, case.write_bytes, profile)
    shared = shared_seconds(hbm, gm_bytes, profile)
    kernel = max(compute, shared) + profile.launch_s
    pipes = per_core[slowest] if per_core else {}
    if profile.launch_s > max(compute, shared):
        bound = "launch"
    elif shared >= compute:
        bound = "HBM" if hbm / profile.hbm_bytes_per_s >= gm_bytes / profile.l2_bytes_per_s else "L2"
    else:
        bound = max(pipes, key=pipes.get) if pipes else "-"
    floor = roofline_floor(case, profile)
    return {
        "kernel": stats.kernel, "platform": profile.name, "block_dim": stats.block_dim,
        "physical_cores": physical, "waves": len(waves),
        "gm_bytes": gm_bytes, "hbm_bytes": hbm,
        "slowest_core_pipes_us": {k: v * 1e6 for k, v in pipes.items()},
        "mean_core_us": sum(core_times) / len(core_times) * 1e6 if core_times else 0.0,
        "compute_us": compute * 1e6, "shared_memory_us": shared * 1e6, "launch_us": profile.launch_s * 1e6,
        "model_us": kernel * 1e6, "floor_us": floor * 1e6, "ratio": floor / kernel if kernel else 0.0,
        "bound": bound,
    }


def roofline_floor(case: OpCase, profile: ChipProfile) -> float:
    """No implementation beats this: the minimal bytes through the memory system (same L2 rules as the
    model), and the essential FLOPs at the peak of the unit that does them."""
    memory = shared_seconds(hbm_bytes(case.read_bytes, case.read_bytes, case.write_bytes, profile), case.min_bytes,
                            profile)
    return max(memory, case.flops / peak_flops(case, profile))


def peak_flops(case: OpCase, profile: ChipProfile) -> float:
    if case.unit == "cube":
        return profile.aic * profile.cube_macs_per_cycle[_dtype_key(case.dtype)] * 2 * profile.clock_hz
    return profile.aiv * profile.vector_repeat_bytes / case.compute_bytes * profile.clock_hz


def model_recording(launches, profile: ChipProfile, case: OpCase) -> dict:
    """A call that made several launches (a forward and a backward, say): the launches run one after
    the other, so their times add; the floor is the op's."""
    parts = [model_launch(s, profile, case) for s in launches]
    total = sum(p["model_us"] for p in parts)
    floor = roofline_floor(case, profile) * 1e6
    out = dict(parts[0]) if len(parts) == 1 else {
        "kernel": "+".join(p["kernel"] for p in parts), "platform": profile.name,
        "block_dim": max(p["block_dim"] for p in parts), "gm_bytes": sum(p["gm_bytes"] for p in parts),
        "bound": "/".join(p["bound"] for p in parts), "launch_us": sum(p["launch_us"] for p in parts),
        "slowest_core_pipes_us": parts[0]["slowest_core_pipes_us"]}
    out.update({"model_us": total, "floor_us": floor, "ratio": floor / total if total else 0.0})
    return out


def shortfall(row: dict, case: OpCase, flops_bound: Optional[bool] = None) -> str:
    """Why a modelled time is above the floor, in words, from the numbers that make it."""
    reasons: List[str] = []
    if row["gm_bytes"] > case.min_bytes * 1.05:
        reasons.append(f"moves {row['gm_bytes'] / case.min_bytes:.2f}x the minimal bytes (re-reads)")
    if row.get("launch_us", 0) > 0.1 * row["model_us"]:
        reasons.append(f"launch is {row['launch_us'] / row['model_us']:.0%} of the time")
    if row.get("mean_core_us") and row.get("compute_us") and row.get("waves", 1) == 1:
        imbalance = row["compute_us"] / max(row["mean_core_us"], 1e-12)
        if imbalance > 1.1:
            reasons.append(f"core imbalance: slowest core {imbalance:.2f}x the mean")
    if row.get("block_dim") and row.get("physical_cores") and row["block_dim"] < row["physical_cores"]:
        reasons.append(f"{row['block_dim']} of {row['physical_cores']} cores busy")
    pipes = row.get("slowest_core_pipes_us") or {}
    if pipes and row["bound"] in pipes and row["bound"] not in ("MTE2", "MTE3"):
        reasons.append(f"{row['bound']} pipe is the bottleneck ({pipes[row['bound']]:.1f} us)")
    return "; ".join(reasons)

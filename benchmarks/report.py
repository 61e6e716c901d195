"""The benchmark's outputs: tables on stdout, the JSON file, the roofline PNG."""
import json
from typing import List, Optional

from .profiles import PROFILES


def _mark(row: dict) -> str:
    if not row.get("target"):
        return ""
    return "met" if row["met"] else "MISSED"


def print_host(rows: List[dict]) -> None:
    print("\n1. Host path, 1-element tensors (median of interleaved calls; ratio = ours / theirs, lower is better)")
    print(f"  {'call':<44} {'us':>8}  {'against':<24} {'ratio':>6}  {'target':<8} ")
    for r in rows:
        print(f"  {r['name']:<44} {r['value']:>8.2f}  {r['against']:<24} {r['ratio']:>6.2f}  {r['target']:<8} {_mark(r)}")


def print_throughput(rows: List[dict]) -> None:
    print("\n2. Twin throughput vs ATen on this CPU (best of alternating runs; ratio = theirs / ours, higher is better)")
    print(f"  {'case':<46} {'threads':>7} {'twin ms':>9} {'against':<14} {'their ms':>9} {'ratio':>6}  {'target':<7}")
    for r in rows:
        print(f"  {r['name']:<46} {r['threads']:>7} {r['value']:>9.2f} {r['against']:<14} {r['against_ms']:>9.2f} "
              f"{r['ratio']:>6.2f}  {r['target']:<7} {_mark(r)}")


def print_model(rows: List[dict]) -> None:
    print("\n3. Cost model: the kernel's time on the NPU from the twin's per-core counters (us), against the roofline "
          "floor; ratio = floor / model (target >= 0.85 for large shapes)")
    print(f"  {'op':<31} {'shape':<18} {'dtype':<8} {'chip':<6} {'cores':>5} {'model':>9} {'floor':>9} {'ratio':>6} "
          f"{'bound':<8} why below 0.85")
    for r in rows:
        print(f"  {r['op']:<31} {r['shape']:<18} {r['dtype']:<8} {r['platform'].replace('Ascend', ''):<6} "
              f"{r['block_dim']:>5} {r['model_us']:>9.2f} {r['floor_us']:>9.2f} {r['ratio']:>6.2f} {r['bound']:<8} "
              f"{r['shortfall']}")


def print_validation(rows: List[dict]) -> None:
    print("\n   Validation against published 910B measurements (model / published; 1.0 = exact)")
    for r in rows:
        print(f"  {r['what']:<60} published {r['published_us']:>9.1f} us  model {r['model_us']:>9.1f} us  "
              f"{r['model_us'] / r['published_us']:>5.2f}x   [{r['source']}]")


def write_json(path: str, result: dict) -> None:
    with open(path, "w") as f:
        json.dump(result, f, indent=1)


def plot(path: str, model_rows: List[dict]) -> Optional[str]:
    """The roofline of each chip profile with our kernels placed on it. Returns an error text when
    matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install ascend_ext[demo]); no PNG written"
    profiles = list(PROFILES.values())
    fig, axes = plt.subplots(1, len(profiles), figsize=(6.5 * len(profiles), 5.2), squeeze=False)
    for ax, profile in zip(axes[0], profiles):
        bw = profile.hbm_bytes_per_s
        xs = [2.0 ** e for e in range(-4, 13)]
        ceilings = [("cube fp16", profile.aic * profile.cube_macs_per_cycle["fp16"] * 2 * profile.clock_hz),
                    ("vector fp32", profile.aiv * profile.vector_repeat_bytes / 4 * profile.clock_hz)]
        for label, peak in ceilings:
            ax.plot(xs, [min(peak, x * bw) / 1e12 for x in xs], label=f"roofline: {label} {peak / 1e12:.0f} TFLOP/s, "
                                                                      f"HBM {bw / 1e12:.1f} TB/s")
        for r in (r for r in model_rows if r["platform"] == profile.name):
            x = r["flops"] / r["min_bytes"]
            y = r["flops"] / (r["model_us"] * 1e-6) / 1e12
            ax.scatter([x], [y], s=18)
            ax.annotate(f"{r['op'].replace('dispersion_correction', 'DC')} {r['shape']} {r['dtype']}", (x, y),
                        fontsize=6, xytext=(3, 2), textcoords="offset points")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("arithmetic intensity (FLOP per minimal HBM byte)")
        ax.set_ylabel("TFLOP/s (modelled from the twin's counters)")
        ax.set_title(f"{profile.name}: our kernels on the roofline")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return None

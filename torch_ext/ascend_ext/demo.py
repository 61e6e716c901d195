"""`python -m ascend_ext demo` (or `ascend-ext demo`): trains a small residual MLP built from ascend_ext's
layers on a synthetic task, next to the same model built from torch's layers, and reports how the two
compare, how accurate each op is against float64, and what the kernels did on the CPU twin.
"""
import argparse
import os
import time
from typing import Dict, List

import torch

from . import selfcheck
from .models import TeacherTask, build_pair
from .training import AMP_DTYPES, TrainConfig, TrainResult, run_data_parallel, train


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--steps", type=int, default=300, help="training steps (default 300)")
    parser.add_argument("--batch", type=int, default=128, help="global batch size (default 128)")
    parser.add_argument("--width", type=int, default=64, help="hidden width of the model (default 64)")
    parser.add_argument("--depth", type=int, default=2, help="residual blocks (default 2)")
    parser.add_argument("--lr", type=float, default=3e-3, help="Adam learning rate (default 3e-3)")
    parser.add_argument("--amp", choices=sorted(AMP_DTYPES), default=None,
                        help="mixed precision: autocast to bfloat16, or float16 with a GradScaler")
    parser.add_argument("--ddp", type=int, default=1, metavar="N",
                        help="train data-parallel on N processes, the model replicated (DDP; gloo on CPU, hccl on NPUs)")
    parser.add_argument("--fsdp", type=int, default=1, metavar="N",
                        help="train data-parallel on N processes, the model sharded (FSDP2 fully_shard; gloo on CPU, "
                             "hccl on NPUs)")
    parser.add_argument("--compile", nargs="?", const="inductor", default=None, metavar="BACKEND",
                        help="torch.compile the models (backend: inductor when given without a value)")
    parser.add_argument("--device", choices=["auto", "cpu", "npu"], default="auto",
                        help="auto: the NPU when torch_npu imports and sees a device, else the CPU twin")
    parser.add_argument("--plot", default="ascend_ext_demo.png", metavar="PNG",
                        help="where to write the loss curves (default ./ascend_ext_demo.png)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.add_argument("--seed", type=int, default=0)


class DemoError(Exception):
    """A bad argument or an unusable device: printed as one line, exit status 2."""


def npu_available() -> bool:
    try:
        import torch_npu  # noqa: F401
    except Exception:
        return False
    return torch.npu.is_available()


def pick_device(requested: str) -> str:
    if requested == "cpu":
        return "cpu"
    if npu_available():
        return "npu"
    if requested == "npu":
        raise DemoError("--device npu: no NPU here (torch_npu does not import or sees no device); "
                        "`python -m ascend_ext doctor` says what is missing")
    return "cpu"


def validate(args: argparse.Namespace, device: str) -> None:
    for name in ("steps", "batch", "width", "depth"):
        if getattr(args, name) < 1:
            raise DemoError(f"--{name} must be at least 1, got {getattr(args, name)}")
    if not args.lr > 0:
        raise DemoError(f"--lr must be positive, got {args.lr}")
    for name in ("ddp", "fsdp"):
        world = getattr(args, name)
        if world < 1:
            raise DemoError(f"--{name} must be at least 1, got {world}")
        if args.batch % world:
            raise DemoError(f"--batch {args.batch} does not split evenly over --{name} {world} processes")
        if device == "npu" and world > torch.npu.device_count():
            raise DemoError(f"--{name} {world}: only {torch.npu.device_count()} NPU(s) here")
    if args.ddp > 1 and args.fsdp > 1:
        raise DemoError(f"--ddp {args.ddp} and --fsdp {args.fsdp}: choose one way to train data-parallel")
    if args.compile is not None and args.compile not in torch._dynamo.list_backends(exclude_tags=()):
        raise DemoError(f"--compile {args.compile}: not a torch.compile backend; known: "
                        f"{', '.join(torch._dynamo.list_backends())}")
    plot_dir = os.path.dirname(os.path.abspath(args.plot))
    if not os.path.isdir(plot_dir):
        raise DemoError(f"--plot {args.plot}: directory {plot_dir} does not exist")


def run(args: argparse.Namespace) -> int:
    device = pick_device(args.device)
    validate(args, device)
    if device == "cpu":
        torch.set_num_threads(1)  # a tiny model: intra-op threads cost more than they give; the twin has its own
    cfg = TrainConfig(steps=args.steps, batch=args.batch, lr=args.lr, amp=args.amp, compile=args.compile,
                      device=device, seed=args.seed, width=args.width, depth=args.depth,
                      eval_every=eval_every(args.steps), progress=not args.no_progress)
    ours_model, _ = build_pair(cfg.seed, **cfg.sizes())
    n_params = sum(p.numel() for p in ours_model.parameters())
    backend = (f"the CPU twin of {__import__('ascend_ext').twin.get_platform()}" if device == "cpu"
               else f"{torch.npu.get_device_name(0)}")
    options = ", ".join(filter(None, [f"AMP {args.amp}" if args.amp else "", _parallel_label(args),
                                      f"torch.compile({args.compile})" if args.compile else ""])) or "float32, eager"
    print(f"ascend_ext demo: a {cfg.depth}-block residual MLP ({n_params:,} parameters) on a {cfg.classes}-class "
          f"teacher task, {cfg.steps} steps of {cfg.batch} on {device} ({backend}); {options}", flush=True)

    start = time.perf_counter()
    results, times = train_both(cfg, args.ddp, args.fsdp)
    checks = selfcheck.check_all((torch.float32,) + ((AMP_DTYPES[args.amp],) if args.amp else ()), device)
    print_report(cfg, results, times, checks)
    write_plot(args.plot, cfg, results, _parallel_label(args))
    print(f"\nloss curves: {args.plot}\ntotal wall time {time.perf_counter() - start:.1f} s")
    if not all(c.ok for c in checks):
        print("FAILED: an op's result is outside its tolerance (see above)")
        return 1
    return 0


def _parallel_label(args: argparse.Namespace) -> str:
    return f"DDP x{args.ddp}" if args.ddp > 1 else f"FSDP2 x{args.fsdp}" if args.fsdp > 1 else ""


def eval_every(steps: int) -> int:
    """About 12 held-out evaluations per run, at most one every 25 steps."""
    return max(1, min(25, -(-steps // 12)))


def train_both(cfg: TrainConfig, ddp: int, fsdp: int = 1):
    if ddp > 1 or fsdp > 1:
        start = time.perf_counter()
        results = run_data_parallel(cfg, world=max(ddp, fsdp), worker="pair" if ddp > 1 else "fsdp_pair")
        return results, {"ours and native, " + ("DDP" if ddp > 1 else "FSDP2"): time.perf_counter() - start}
    results, times = {}, {}
    for name, model in zip(("ours", "native"), build_pair(cfg.seed, **cfg.sizes())):
        start = time.perf_counter()
        results[name] = train(model.to(cfg.device), cfg, TeacherTask(cfg.d_in, cfg.classes),
                              count_launches=name == "ours", label=name)
        times[name] = time.perf_counter() - start
    return results, times


def _mb(n: int) -> str:
    return f"{n / 1e6:,.1f} MB"


def print_report(cfg: TrainConfig, results: Dict[str, TrainResult], times: Dict[str, float],
                 checks: List[selfcheck.CheckResult]) -> None:
    ours, native = results["ours"], results["native"]
    print("\n                        ours (ascend_ext)   native (torch)")
    tail = max(1, len(ours.losses) // 10)
    rows = [("training loss, last 10%", sum(ours.losses[-tail:]) / tail, sum(native.losses[-tail:]) / tail, "{:.4f}"),
            ("held-out loss", ours.final_loss, native.final_loss, "{:.4f}"),
            ("held-out accuracy", 100 * ours.final_accuracy, 100 * native.final_accuracy, "{:.1f} %")]
    for label, a, b, fmt in rows:
        print(f"  {label:<22}{fmt.format(a):>17}{fmt.format(b):>17}")
    if "ours" in times:
        print(f"  {'training wall time':<22}{times['ours']:>15.1f} s{times['native']:>15.1f} s")
    else:
        label, seconds = next(iter(times.items()))
        print(f"  training wall time (both, {label.split(', ')[-1]}): {seconds:.1f} s")
    diff = max((ours.state_dict[k].float() - native.state_dict[k].float()).abs().max().item()
               for k in native.state_dict)
    print(f"  largest parameter difference after training, ours vs native: {diff:.2e}")

    print("\nper-op check on a small input vs float64:")
    for c in checks:
        print(f"  [{'ok' if c.ok else 'FAIL':^4}] {c.line()}")

    if ours.counters:
        print(f"\nCPU twin counters per kernel, summed over the {cfg.steps} training steps of ours"
              + (" (rank 0)" if "ours" not in times else "") + ":")
        w = max(len("kernel"), *(len(k) for k in ours.counters)) + 2
        print(f"  {'kernel':<{w}}{'launches':>9}{'GM read':>13}{'GM written':>13}{'cube MACs':>15}{'vector ops':>14}")
        for kernel, c in sorted(ours.counters.items()):
            print(f"  {kernel:<{w}}{c['launches']:>9,}{_mb(c['gm_bytes_read']):>13}{_mb(c['gm_bytes_written']):>13}"
                  f"{c['cube_macs']:>15,}{c['vector_element_ops']:>14,}")
    elif cfg.device != "cpu":
        print("\n(kernel counters come from the CPU twin; on the NPU use the CANN profiler)")


def smoothing_span(steps: int) -> int:
    """Steps the loss curve's moving average spans: a twentieth of the run, between 1 and 10 (a longer span
    lags a falling curve by about as many steps)."""
    return max(1, min(10, steps // 20))


def smooth(values: List[float], span: int) -> List[float]:
    """Exponential moving average over ``span`` steps (weight 1 - 1/span) with bias correction, as Adam
    corrects its moments: each point is a weighted mean of the losses seen so far, so the curve starts at
    the data instead of being pulled toward the first loss."""
    beta, avg, out = 1.0 - 1.0 / span, 0.0, []
    for i, v in enumerate(values, 1):
        avg = beta * avg + (1.0 - beta) * v
        out.append(avg / (1.0 - beta ** i))
    return out


def write_plot(path: str, cfg: TrainConfig, results: Dict[str, TrainResult], parallel: str = "") -> str:
    import matplotlib.pyplot as plt

    fig = make_figure(cfg, results, parallel)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def make_figure(cfg: TrainConfig, results: Dict[str, TrainResult], parallel: str = ""):
    """Three panels: the training loss (per step, faint, and smoothed), ours minus native per step (the two
    curves coincide when the layers agree, so their difference is what shows whether they do), and the
    held-out accuracy on a 0-100 % axis with the chance level."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_loss, ax_diff, ax_acc) = plt.subplots(1, 3, figsize=(15, 4.4),
                                                   gridspec_kw=dict(width_ratios=[1.25, 0.8, 1]))
    styles = {"ours": dict(color="#c0392b", lw=2.4, label="ascend_ext layers (Ascend C kernels)"),
              "native": dict(color="#2c3e50", lw=1.4, ls=(0, (4, 3)), label="torch layers (drawn over ours)")}
    span = smoothing_span(cfg.steps)
    for name, r in results.items():
        steps = range(1, len(r.losses) + 1)
        ax_loss.plot(steps, r.losses, color=styles[name]["color"], alpha=0.2, lw=0.8)
        ax_loss.plot(steps, smooth(r.losses, span), **styles[name])
        ax_acc.plot(r.eval_steps, [100 * a for a in r.accuracies], marker="o", ms=3.5, **styles[name])
    smoothing = f"smoothed: bias-corrected EMA over {span} steps" if span > 1 else "not smoothed (short run)"
    ax_loss.set(title=f"training loss (faint: per step; {smoothing})", xlabel="step", ylabel="cross-entropy",
                yscale="log", xlim=(1, max(2, cfg.steps)))
    if {"ours", "native"} <= results.keys():
        ours, native = results["ours"].losses, results["native"].losses
        diff = [a - b for a, b in zip(ours, native)]
        ax_diff.plot(range(1, len(diff) + 1), diff, color="#8e44ad", lw=1.0)
        ax_diff.axhline(0.0, color="black", lw=0.6)
        largest = max(abs(d) for d in diff)
        ax_diff.set_ylim(-1.2 * largest if largest else -1e-7, 1.2 * largest if largest else 1e-7)
        ax_diff.ticklabel_format(axis="y", style="sci", scilimits=(-3, 3))
        ax_diff.set(title=f"loss, ours - native (largest |diff| {largest:.1e})", xlabel="step",
                    ylabel="difference", xlim=(1, max(2, cfg.steps)))
    chance = 100.0 / cfg.classes
    ax_acc.axhline(chance, color="gray", ls=":", lw=1.2, label=f"chance ({chance:.1f} %)")
    ax_acc.set(title=f"held-out accuracy ({cfg.eval_size} samples)", xlabel="step", ylabel="accuracy (%)",
               ylim=(0, 100), xlim=(0, max(2, cfg.steps)))
    for ax in (ax_loss, ax_diff, ax_acc):
        ax.grid(alpha=0.3)
    ax_loss.legend()
    ax_acc.legend(loc="lower right")
    opts = ", ".join(filter(None, [f"AMP {cfg.amp}" if cfg.amp else "float32", parallel,
                                   f"torch.compile({cfg.compile})" if cfg.compile else ""]))
    fig.suptitle(f"ascend_ext demo on {cfg.device}: {cfg.depth}-block residual MLP, width {cfg.width}, "
                 f"batch {cfg.batch}, {cfg.steps} steps, {opts}")
    fig.tight_layout()
    return fig

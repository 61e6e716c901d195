"""`python -m ascend_ext demo` (or `ascend-ext demo`): trains a small residual MLP built from ascend_ext's
layers on a synthetic task, next to the same model built from torch's layers, and reports how the two
compare, how accurate each op is against float64, and what the kernels did on the CPU twin.
"""
import argparse
import os
import time
from typing import Dict, List, Optional

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
                        help="train data-parallel on N processes (gloo on CPU, hccl on NPUs)")
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
    if args.ddp < 1:
        raise DemoError(f"--ddp must be at least 1, got {args.ddp}")
    if args.batch % args.ddp:
        raise DemoError(f"--batch {args.batch} does not split evenly over --ddp {args.ddp} processes")
    if device == "npu" and args.ddp > torch.npu.device_count():
        raise DemoError(f"--ddp {args.ddp}: only {torch.npu.device_count()} NPU(s) here")
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
                      progress=not args.no_progress)
    ours_model, _ = build_pair(cfg.seed, **cfg.sizes())
    n_params = sum(p.numel() for p in ours_model.parameters())
    backend = (f"the CPU twin of {__import__('ascend_ext').twin.get_platform()}" if device == "cpu"
               else f"{torch.npu.get_device_name(0)}")
    options = ", ".join(filter(None, [f"AMP {args.amp}" if args.amp else "", f"DDP x{args.ddp}" if args.ddp > 1 else "",
                                      f"torch.compile({args.compile})" if args.compile else ""])) or "float32, eager"
    print(f"ascend_ext demo: a {cfg.depth}-block residual MLP ({n_params:,} parameters) on a {cfg.classes}-class "
          f"teacher task, {cfg.steps} steps of {cfg.batch} on {device} ({backend}); {options}", flush=True)

    start = time.perf_counter()
    results, times = train_both(cfg, args.ddp)
    checks = selfcheck.check_all((torch.float32,) + ((AMP_DTYPES[args.amp],) if args.amp else ()), device)
    print_report(cfg, results, times, checks)
    write_plot(args.plot, cfg, results, args.ddp)
    print(f"\nloss curves: {args.plot}\ntotal wall time {time.perf_counter() - start:.1f} s")
    if not all(c.ok for c in checks):
        print("FAILED: an op's result is outside its tolerance (see above)")
        return 1
    return 0


def train_both(cfg: TrainConfig, ddp: int):
    if ddp > 1:
        start = time.perf_counter()
        results = run_data_parallel(cfg, world=ddp, worker="pair")
        return results, {"ours and native, DDP": time.perf_counter() - start}
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
        print(f"  training wall time (both, DDP): {next(iter(times.values())):.1f} s")
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


def _smooth(values: List[float], weight: float = 0.9) -> List[float]:
    out, avg = [], values[0]
    for v in values:
        avg = weight * avg + (1 - weight) * v
        out.append(avg)
    return out


def write_plot(path: str, cfg: TrainConfig, results: Dict[str, TrainResult], ddp: int = 1) -> Optional[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(11, 4.2))
    styles = {"ours": dict(color="#c0392b", lw=2.2, label="ascend_ext layers (Ascend C kernels)"),
              "native": dict(color="#2c3e50", lw=1.4, ls="--", label="torch layers")}
    for name, r in results.items():
        steps = range(1, len(r.losses) + 1)
        ax_loss.plot(steps, r.losses, color=styles[name]["color"], alpha=0.18, lw=0.8)
        ax_loss.plot(steps, _smooth(r.losses), **styles[name])
        ax_acc.plot(r.eval_steps, [100 * a for a in r.accuracies], marker="o", ms=3, **styles[name])
    ax_loss.set(title="training loss (cross-entropy; faint: per step)", xlabel="step", ylabel="loss", yscale="log")
    ax_acc.set(title="held-out accuracy", xlabel="step", ylabel="accuracy (%)")
    for ax in (ax_loss, ax_acc):
        ax.grid(alpha=0.3)
        ax.legend()
    opts = ", ".join(filter(None, [f"AMP {cfg.amp}" if cfg.amp else "float32", f"DDP x{ddp}" if ddp > 1 else "",
                                   f"torch.compile({cfg.compile})" if cfg.compile else ""]))
    fig.suptitle(f"ascend_ext demo on {cfg.device}: {cfg.depth}-block residual MLP, width {cfg.width}, "
                 f"batch {cfg.batch}, {opts}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path

"""Section 2: the twin's throughput against ATen on this CPU.

The twin runs the real kernel with every rule check, the hazard detector and the counters on; ATen runs
its native CPU kernels. Ratios are ATen time / twin time (1.0 = as fast as torch, higher = faster), each
pair measured alternately in one process, with all cores (the twin's worker pool and torch's intra-op
threads both use every CPU) and with one thread each (ASCEND_TWIN_THREADS=1, torch.set_num_threads(1),
in a subprocess, because the twin reads its thread count once).
"""
import json
import os
import subprocess
import sys
from typing import Callable, Dict, List, Optional

import torch

import ascend_ext

from . import training_step
from .timing import alternating_best


def composition(x: torch.Tensor, alpha: float, mode: int = 1, eps: float = 1e-5) -> torch.Tensor:
    """DispersionCorrection as a torch user writes it (the formulas of README.md, "dispersion_correction"), statistics in float32."""
    xf = x.float()
    mu = xf.mean(-1, keepdim=True)
    if mode == 0:
        return (mu + alpha * (xf - mu)).to(x.dtype)
    var = (xf - mu).square().mean(-1, keepdim=True)
    return (mu + alpha * (xf - mu) * torch.rsqrt(var + eps)).to(x.dtype)


def _compare(name: str, ours: Callable, theirs: Dict[str, Callable], repeat: int, threads: str,
             targets: Dict[str, float]) -> List[dict]:
    t = alternating_best({"ours": ours, **theirs}, repeat)
    rows = []
    for against, fn_time in ((k, t[k]) for k in theirs):
        ratio = fn_time / t["ours"]
        target = targets.get(against)
        rows.append({"section": "throughput", "name": name, "threads": threads, "value": t["ours"] * 1e3,
                     "unit": "ms", "against": against, "against_ms": fn_time * 1e3, "ratio": ratio,
                     "target": f">= {target}" if target is not None else "",
                     "met": True if target is None else ratio >= target})
    return rows


def cases(quick: bool, threads: str, with_compile: bool) -> List[dict]:
    repeat = 3 if quick else 7
    rows: List[dict] = []
    torch.manual_seed(0)

    n = 1 << (20 if quick else 24)
    for dtype, target in ((torch.float32, 0.9), (torch.bfloat16, 0.8)):
        x, y = torch.randn(n).to(dtype), torch.randn(n).to(dtype)
        rows += _compare(f"vector_add 2^{n.bit_length() - 1} {str(dtype)[6:]}", lambda: ascend_ext.vector_add(x, y),
                         {"torch.add": lambda: torch.add(x, y)}, repeat, threads,
                         {"torch.add": target} if target else {})
    x, b = torch.randn(n // 1024, 1024), torch.randn(1024)
    rows += _compare(f"vector_add ({n // 1024},1024)+(1024,) float32", lambda: ascend_ext.vector_add(x, b),
                     {"torch.add": lambda: torch.add(x, b)}, repeat, threads, {})

    side = 1024 if quick else 4096
    x = torch.randn(side, side)
    theirs = {"eager torch": lambda: composition(x, 0.8, 1)}
    targets = {"eager torch": 1.5}
    if with_compile:
        torch._dynamo.config.recompile_limit = 64
        compiled = torch.compile(composition, backend="inductor", dynamic=False)
        theirs["torch.compile"] = lambda: compiled(x, 0.8, 1)
        targets["torch.compile"] = 1.0
    rows += _compare(f"dispersion_correction mode 1 {side}x{side} float32",
                     lambda: ascend_ext.dispersion_correction(x, 0.8, 1), theirs, repeat, threads, targets)

    m = 256 if quick else 1024
    for dtype, target in ((torch.float32, 0.8), (torch.float16, 1.0), (torch.bfloat16, 1.0)):
        a, bm = torch.randn(m, m).to(dtype), torch.randn(m, m).to(dtype)
        rows += _compare(f"matmul {m}^3 {str(dtype)[6:]}", lambda: ascend_ext.matmul(a, bm),
                         {"torch.mm": lambda: torch.mm(a, bm)}, repeat, threads, {"torch.mm": target})

    # One training step (forward, loss, backward, Adam): ours <= 1.5x (demo) and <= 1.3x (encoder layer)
    # the native model's time, i.e. native / ours >= 1/1.5 and >= 1/1.3.
    for name, pair, target in (("train step, demo model (batch 128)", training_step.demo_pair, 0.67),
                               ("train step, encoder layer 256/4h/s128/b8", training_step.encoder_pair, 0.77)):
        fns = pair(quick)
        rows += _compare(name, fns["ours"], {"native": fns["native"]}, repeat, threads, {"native": target})
    return rows


def _one_thread_rows(quick: bool, with_compile: bool) -> Optional[List[dict]]:
    env = dict(os.environ, ASCEND_TWIN_THREADS="1", PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    # ascend_ext.__main__ finds the bench package in a source tree too (PYTHONPATH=torch_ext), where it is
    # not a subpackage on disk.
    code = ("import json, torch; torch.set_num_threads(1); "
            "from ascend_ext.__main__ import _bench_package; _bench_package(); "
            f"from {__package__}.throughput import cases; "
            f"print('@@' + json.dumps(cases({quick}, '1', {with_compile})))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"the one-thread throughput run failed:\n{out.stderr[-2000:]}")
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("@@")][-1]
    return json.loads(line[2:])


def run(quick: bool) -> List[dict]:
    with_compile = not quick
    rows = cases(quick, str(os.cpu_count() or 1), with_compile)
    if not quick:
        rows += _one_thread_rows(quick, with_compile)
    return rows

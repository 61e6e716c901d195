"""Section 1: the host path. What one call costs on tiny tensors, where the kernel's work is nothing and
dispatch, argument checks, tiling and the launch are everything.

- vector_add on 1-element tensors, CPU (the twin runs the kernel) and Meta (our dispatch, checks, shape
  and stride logic alone), our public call and the raw op next to torch.add and aten.add.Tensor;
- the twin's launch: our CPU call minus our Meta call, i.e. the kernel launch on the twin and its checks;
- forward + backward of ascend_ext.nn.Linear against torch.nn.Linear at batch 8, 16 -> 16;
- an op declared with ascend_ext.library against a hand-written torch.library.custom_op around the same
  kernel's launch, and against our C++ ops (declared_op.py).
"""
import os
import re
import subprocess
from typing import List, Optional

import torch

import ascend_ext

from .timing import interleaved_medians


def _row(name: str, value: float, unit: str, against: str, ratio: float, target: str, ok: bool) -> dict:
    return {"section": "host", "name": name, "value": value, "unit": unit, "against": against,
            "ratio": ratio, "target": target, "met": ok}


def run(quick: bool) -> List[dict]:
    calls, rounds = (300, 5) if quick else (2000, 11)
    cpu = [torch.ones(1), torch.ones(1)]
    meta = [torch.ones(1, device="meta"), torch.ones(1, device="meta")]
    aten_add = torch.ops.aten.add.Tensor
    raw = torch.ops.ascend_ext.vector_add
    t = interleaved_medians({
        "cpu public": lambda: ascend_ext.vector_add(*cpu),
        "cpu raw": lambda: raw(*cpu),
        "meta public": lambda: ascend_ext.vector_add(*meta),
        "meta raw": lambda: raw(*meta),
        "torch.add": lambda: torch.add(*cpu),
        "aten.add.Tensor": lambda: aten_add(*cpu),
        "torch.add meta": lambda: torch.add(*meta),
    }, calls, rounds)
    rows = [
        _row("vector_add public, Meta", t["meta public"], "us", "aten.add.Tensor (CPU)",
             t["meta public"] / t["aten.add.Tensor"], "<= 1.0", t["meta public"] <= t["aten.add.Tensor"]),
        _row("vector_add raw op, Meta", t["meta raw"], "us", "aten.add.Tensor (CPU)",
             t["meta raw"] / t["aten.add.Tensor"], "", True),
        _row("vector_add public, CPU (twin)", t["cpu public"], "us", "torch.add (CPU)",
             t["cpu public"] / t["torch.add"], "<= 3.0", t["cpu public"] <= 3.0 * t["torch.add"]),
        _row("vector_add raw op, CPU (twin)", t["cpu raw"], "us", "torch.add (CPU)",
             t["cpu raw"] / t["torch.add"], "", True),
        _row("torch.add, Meta", t["torch.add meta"], "us", "aten.add.Tensor (CPU)",
             t["torch.add meta"] / t["aten.add.Tensor"], "", True),
    ]
    launch = max(t["cpu raw"] - t["meta raw"], 0.0)
    rows.append(_row("CPU raw - Meta raw (output, launch, kernel)", launch, "us", "torch.add (CPU)",
                     launch / t["torch.add"], "", True))
    own = _twin_launch_driver()
    if own is not None:
        rows.append(_row("twin's own launch, 1 element (C++ driver)", own, "us", "torch.add (CPU)",
                         own / t["torch.add"], "<= 2 us", own <= 2.0))
    rows.append(_linear(calls // 4, rounds))
    rows += _declared(calls // 2, rounds)
    return rows


def _declared(calls: int, rounds: int) -> List[dict]:
    from .declared_op import measure

    t = measure(calls, rounds)
    ratio = t["declared"] / t["hand-written"]
    return [
        _row("declared op (ascend_ext.library), CPU (twin)", t["declared"], "us",
             "hand-written custom_op around lib.launch", ratio, "<= 1.0", ratio <= 1.0),
        _row("declared op (ascend_ext.library), CPU (twin)", t["declared"], "us", "vector_add (C++ adapter)",
             t["declared"] / t["vector_add (C++)"], "", True),
        _row("hand-written custom_op around lib.launch, CPU (twin)", t["hand-written"], "us", "torch.add (CPU)",
             t["hand-written"] / t["torch.add"], "", True),
    ]


def _twin_launch_driver() -> Optional[float]:
    """The twin's own cost of a 1-element vector_add launch without torch or Python, from the C++ driver
    benchmarks/bench_twin_launch.cpp when a CMake build of this checkout has it (build/cmake; the test
    command builds it). None elsewhere (a pip install has no C++ build tree)."""
    driver = os.path.join(os.getcwd(), "build", "cmake", "bench_twin_launch")
    if not os.access(driver, os.X_OK):
        return None
    out = subprocess.run([driver], capture_output=True, text=True, timeout=120)
    m = re.search(r"1 element, 1 core:\s+([0-9.]+) ns", out.stdout)
    return float(m.group(1)) / 1000 if out.returncode == 0 and m else None


def _linear(calls: int, rounds: int) -> dict:
    torch.manual_seed(0)
    native = torch.nn.Linear(16, 16)
    ours = ascend_ext.nn.Linear(16, 16)
    ours.load_state_dict(native.state_dict())
    x = torch.randn(8, 16)
    g = torch.randn(8, 16)

    def step(m):
        def run():
            m.zero_grad(set_to_none=True)
            m(x).backward(g)
        return run

    t = interleaved_medians({"ours": step(ours), "native": step(native)}, calls, rounds)
    ratio = t["ours"] / t["native"]
    return _row("nn.Linear fwd+bwd 8x16x16", t["ours"], "us", "torch.nn.Linear", ratio, "<= 2.0", ratio <= 2.0)

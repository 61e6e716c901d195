"""Side-by-side timing: every comparison is measured in one run, the sides interleaved, so that the noise
of a shared machine hits all of them alike. Results are ratios, never absolute targets."""
import statistics
import time
from typing import Callable, Dict


def interleaved_medians(fns: Dict[str, Callable[[], object]], calls: int, rounds: int) -> Dict[str, float]:
    """Median per-call time in microseconds of each function over `rounds` rounds of `calls` calls; the
    functions take turns within every round."""
    samples: Dict[str, list] = {name: [] for name in fns}
    for fn in fns.values():  # warm-up: first-touch page faults, lazy initialisation
        fn()
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            samples[name].append((time.perf_counter() - t0) / calls * 1e6)
    return {name: statistics.median(v) for name, v in samples.items()}


def alternating_best(fns: Dict[str, Callable[[], object]], repeat: int) -> Dict[str, float]:
    """Best time in seconds of each function over `repeat` alternations (A, B, A, B, ...): the best is the
    least disturbed run, and alternating keeps drift from favouring one side."""
    best = {name: float("inf") for name in fns}
    for fn in fns.values():
        fn()
    for _ in range(repeat):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t0)
    return best

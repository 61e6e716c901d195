"""VectorAdd on the CPU twin, side by side with torch.add in one run (ratios, not absolute times).

What it measures: the twin's cost to run the kernel (all rule checks and counters on) relative to
torch's native CPU add, and how that changes with the number of threads running the virtual cores.
The modelled NPU time comes from the counters: bytes moved / HBM bandwidth of the profile below
(the kernel is bandwidth-bound: 1 add per 12 bytes moved in float32).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import torch

import ascend_ext

HBM_BYTES_PER_S = 1.6e12  # assumption for the estimate: 910B-class HBM bandwidth


def best_of(fn, repeat):
    fn()  # warm-up: first-touch page faults and thread start-up are not what we compare
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=[4096, 1 << 18, 1 << 22])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    threads = os.environ.get("ASCEND_TWIN_THREADS", "all")
    print(f"twin threads: {threads}; torch threads: {torch.get_num_threads()}")
    print(f"{'n':>10} {'dtype':>9} {'twin ms':>9} {'torch ms':>9} {'twin/torch':>10} {'GB moved':>9} {'model NPU us':>12}")
    for n in args.sizes:
        for dtype in (torch.float32, torch.bfloat16):
            x, y = torch.randn(n).to(dtype), torch.randn(n).to(dtype)
            twin_t, _ = best_of(lambda: ascend_ext.vector_add(x, y), args.repeat)
            torch_t, _ = best_of(lambda: torch.add(x, y), args.repeat)
            total = ascend_ext.twin.last_launch_stats()
            moved = sum(c.gm_bytes_read + c.gm_bytes_written for c in total.cores)
            print(f"{n:>10} {str(dtype)[6:]:>9} {twin_t * 1e3:>9.3f} {torch_t * 1e3:>9.3f} {twin_t / torch_t:>10.1f}"
                  f" {moved / 1e9:>9.4f} {moved / HBM_BYTES_PER_S * 1e6:>12.2f}")
    x1, y1 = torch.ones(1), torch.ones(1)
    call_t, _ = best_of(lambda: [ascend_ext.vector_add(x1, y1) for _ in range(1000)], args.repeat)
    add_t, _ = best_of(lambda: [torch.add(x1, y1) for _ in range(1000)], args.repeat)
    print(f"launch cost, 1-element tensors: ascend_ext.vector_add {call_t * 1e3:.2f} us, torch.add "
          f"{add_t * 1e3:.2f} us, ratio {call_t / add_t:.1f} (the twin's own part: build/cmake/bench_twin_launch)")
    if "ASCEND_TWIN_THREADS" not in os.environ:
        print("\nthe same with the virtual cores on one thread:")
        env = dict(os.environ, ASCEND_TWIN_THREADS="1")
        subprocess.run([sys.executable, __file__, "--repeat", str(args.repeat), "--sizes", *map(str, args.sizes)],
                       env=env, check=True)


if __name__ == "__main__":
    main()

"""VectorAdd on the CPU twin, side by side with torch.add in one run (ratios, not absolute times).

Two measurements:
- host path: the cost of one call on 1-element tensors (dispatch, checks, tiling, launch), our public
  call and torch.ops.ascend_ext.vector_add against torch.add and torch.ops.aten.add.Tensor, on CPU (the
  twin runs the kernel) and on Meta (dispatch + checks + shapes alone); medians of interleaved rounds;
- throughput: the twin's cost to run the kernel (all rule checks and counters on) relative to torch's
  native CPU add, for equal shapes and for a broadcast bias, with all and with one twin thread.
The modelled NPU time comes from the counters: bytes moved / HBM bandwidth of the profile below.
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
    return min(times)


def interleaved_medians(fns, calls=2000, rounds=9):
    """Median per-call time (us) of each function, rounds interleaved so that drift hits all alike."""
    samples = {name: [] for name in fns}
    for fn in fns.values():
        fn()
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            samples[name].append((time.perf_counter() - t0) / calls * 1e6)
    return {name: statistics.median(v) for name, v in samples.items()}


def host_path():
    print("host path, 1-element tensors (median us per call)")
    for device in ("cpu", "meta"):
        x, y = torch.ones(1, device=device), torch.ones(1, device=device)
        t = interleaved_medians({
            "ascend_ext.vector_add": lambda: ascend_ext.vector_add(x, y),
            "torch.ops.ascend_ext.vector_add": lambda: torch.ops.ascend_ext.vector_add(x, y),
            "torch.add": lambda: torch.add(x, y),
            "torch.ops.aten.add.Tensor": lambda: torch.ops.aten.add.Tensor(x, y),
        })
        base, aten = t["torch.add"], t["torch.ops.aten.add.Tensor"]
        for name, us in t.items():
            print(f"  {device:>4} {name:<34} {us:8.2f} us   {us / base:6.2f}x torch.add   "
                  f"{us / aten:6.2f}x aten.add.Tensor")


def throughput(sizes, repeat):
    threads = os.environ.get("ASCEND_TWIN_THREADS", "all")
    print(f"\nthroughput; twin threads: {threads}; torch threads: {torch.get_num_threads()}")
    print(f"{'shape':>14} {'dtype':>9} {'twin ms':>9} {'torch ms':>9} {'twin/torch':>10} {'GB moved':>9} "
          f"{'model NPU us':>12}")
    cases = [((n,), (n,)) for n in sizes] + [((n // 128, 128), (128,)) for n in sizes if n >= 128]
    for x_shape, y_shape in cases:
        for dtype in (torch.float32, torch.bfloat16):
            x, y = torch.randn(x_shape).to(dtype), torch.randn(y_shape).to(dtype)
            twin_t = best_of(lambda: ascend_ext.vector_add(x, y), repeat)
            torch_t = best_of(lambda: torch.add(x, y), repeat)
            moved = sum(c.gm_bytes_read + c.gm_bytes_written for c in ascend_ext.twin.last_launch_stats().cores)
            shape = "x".join(map(str, x_shape)) + ("+bias" if y_shape != x_shape else "")
            print(f"{shape:>14} {str(dtype)[6:]:>9} {twin_t * 1e3:>9.3f} {torch_t * 1e3:>9.3f} "
                  f"{twin_t / torch_t:>10.1f} {moved / 1e9:>9.4f} {moved / HBM_BYTES_PER_S * 1e6:>12.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=[4096, 1 << 18, 1 << 22])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--no-host", action="store_true", help="skip the host-path measurement")
    args = parser.parse_args()
    if not args.no_host:
        host_path()
    throughput(args.sizes, args.repeat)
    if "ASCEND_TWIN_THREADS" not in os.environ:
        print("\nthe same with the virtual cores on one thread:")
        env = dict(os.environ, ASCEND_TWIN_THREADS="1")
        subprocess.run([sys.executable, __file__, "--no-host", "--repeat", str(args.repeat), "--sizes",
                        *map(str, args.sizes)], env=env, check=True)


if __name__ == "__main__":
    main()

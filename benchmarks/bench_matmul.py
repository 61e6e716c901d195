"""MatMul on the CPU twin's cube cores next to torch.mm, with the same number of threads (ratios).

Two numbers per thread count, both float32 at M = N = K (default 1024):
- micro-kernel: the twin's Mmad (the blocked AVX2 micro-kernel, one thread) over the base tiles of the
  product, against torch.mm on one thread;
- kernel: op_kernel/matmul_cube.cpp launched on the twin (tiling, L1/L0 staging, conversions, every rule check and
  counter on), with ASCEND_TWIN_THREADS=T threads running the virtual cube cores, against torch.mm with
  torch.set_num_threads(T).
A ratio is torch time / twin time: 1.0 means as fast as torch.mm, 0.5 half as fast. Measurements alternate
between the two sides and keep the best of --repeat, to be fair on a shared machine.

Needs the C++ build (bench_twin_matmul): cmake -S . -B build/cmake -G Ninja && cmake --build build/cmake
"""
import argparse
import json
import os
import subprocess
import time

import torch


def torch_mm_seconds(n, threads, repeat):
    torch.set_num_threads(threads)
    a, b = torch.randn(n, n), torch.randn(n, n)
    torch.mm(a, b)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        torch.mm(a, b)
        best = min(best, time.perf_counter() - t0)
    return best


def twin_seconds(driver, n, threads, repeat):
    env = dict(os.environ, ASCEND_TWIN_THREADS=str(threads))
    out = subprocess.run([driver, str(n), str(n), str(n), "float32", str(repeat)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build", "cmake"))
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--threads", type=int, nargs="*", default=[1, os.cpu_count() or 1])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3, help="alternations of twin and torch measurements")
    args = parser.parse_args()
    driver = os.path.join(args.build, "bench_twin_matmul")
    n = args.size
    print(f"float32 {n}x{n}x{n}; ratio = torch.mm time / twin time (>= 0.5 is the target)")
    print(f"{'threads':>7} {'torch ms':>9} {'kernel ms':>10} {'kernel ratio':>12} {'mmad ms (1 thr)':>16} {'mmad ratio':>10}"
          f" {'cores':>5} {'GM read == plan':>15}")
    torch_one = float("inf")
    for threads in sorted(set(args.threads)):
        best_torch, best = float("inf"), None
        for _ in range(args.rounds):
            best_torch = min(best_torch, torch_mm_seconds(n, threads, args.repeat))
            r = twin_seconds(driver, n, threads, args.repeat)
            if best is None or r["kernel_seconds"] < best["kernel_seconds"]:
                best = r
            if best["mmad_seconds_one_thread"] > r["mmad_seconds_one_thread"]:
                best["mmad_seconds_one_thread"] = r["mmad_seconds_one_thread"]
        if threads == 1:
            torch_one = best_torch
        torch_one = min(torch_one, torch_mm_seconds(n, 1, args.repeat))
        mmad = best["mmad_seconds_one_thread"]
        print(f"{threads:>7} {best_torch * 1e3:>9.1f} {best['kernel_seconds'] * 1e3:>10.1f}"
              f" {best_torch / best['kernel_seconds']:>12.2f} {mmad * 1e3:>16.1f} {torch_one / mmad:>10.2f}"
              f" {best['block_dim']:>5} {str(best['gm_bytes_read'] == best['plan_gm_bytes_read']):>15}")


if __name__ == "__main__":
    main()

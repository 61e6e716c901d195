"""DispersionCorrection on the CPU twin, side by side with the eager torch composition of the same formula
and with its torch.compile'd (inductor) version, in one run (ratios on this machine, not NPU times).

For each shape: forward and backward time of the twin (all rule checks and counters on), of eager torch
and of torch.compile, the GM bytes the kernels moved (counters), and the modelled NPU time from those bytes
(bytes / HBM bandwidth; rows longer than UB read x twice, which the counters show).
"""
import argparse
import time

import torch

import ascend_ext

HBM_BYTES_PER_S = 1.6e12  # assumption for the estimate: 910B-class HBM bandwidth


def composition(x, alpha: float, mode: int = 1, eps: float = 1e-5):
    """The op as torch users would write it, statistics in float32."""
    xf = x.float()
    mu = xf.mean(-1, keepdim=True)
    if mode == 0:
        return (mu + alpha * (xf - mu)).to(x.dtype)
    var = (xf - mu).square().mean(-1, keepdim=True)
    return (mu + alpha * (xf - mu) * torch.rsqrt(var + eps)).to(x.dtype)


def best_of(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def forward_backward(fn, x, g):
    def run():
        xr = x.detach().requires_grad_()
        fn(xr).backward(g)
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shapes", nargs="*", default=["10000x7", "4096x1024", "48x4096", "4x100000"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    torch._dynamo.config.recompile_limit = 64  # one graph per shape, dtype, mode: all measured
    compiled = torch.compile(composition, backend="inductor", dynamic=False)
    print(f"torch threads: {torch.get_num_threads()}")
    print(f"{'shape':>12} {'dtype':>9} {'mode':>4} | {'fwd ms: twin':>12} {'eager':>7} {'compiled':>8} | "
          f"{'fwd+bwd ms: twin':>16} {'eager':>7} {'compiled':>8} | {'GB moved':>8} {'model NPU us':>12}")
    for spec in args.shapes:
        shape = tuple(int(s) for s in spec.split("x"))
        for dtype in (torch.float32, torch.bfloat16):
            for mode in (1, 0):
                x = torch.randn(shape).to(dtype)
                g = torch.randn(shape).to(dtype)
                ours = lambda t: ascend_ext.dispersion_correction(t, 0.8, mode)  # noqa: E731
                eager = lambda t: composition(t, 0.8, mode)  # noqa: E731
                comp = lambda t: compiled(t, 0.8, mode)  # noqa: E731
                fwd = [best_of(lambda f=f: f(x), args.repeat) for f in (ours, eager, comp)]
                moved = sum(c.gm_bytes_read + c.gm_bytes_written for c in ascend_ext.twin.last_launch_stats().cores)
                both = [best_of(forward_backward(f, x, g), args.repeat) for f in (ours, eager, comp)]
                print(f"{spec:>12} {str(dtype)[6:]:>9} {mode:>4} | {fwd[0] * 1e3:>12.3f} {fwd[1] * 1e3:>7.3f} "
                      f"{fwd[2] * 1e3:>8.3f} | {both[0] * 1e3:>16.3f} {both[1] * 1e3:>7.3f} {both[2] * 1e3:>8.3f} | "
                      f"{moved / 1e9:>8.4f} {moved / HBM_BYTES_PER_S * 1e6:>12.2f}")


if __name__ == "__main__":
    main()

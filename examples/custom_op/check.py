"""The conformance suite (ascend_ext.testing.check_op) on the RMSNorm ops of rms_norm.py, against float64
references written from the math:

    python check.py            # every check of both ops, with its result

Samples: rows with a tail (D not a multiple of a 32-byte block), a 3-d x, one row, a non-contiguous x,
another eps, a row of zeros, long rows, more rows than cores and groups, large magnitudes; each drawn fresh
in float32, float16, bfloat16 and float64.
"""
import torch

import ascend_ext.testing as at
from ascend_ext.testing import Sample
from rms_norm import GROUPS, RMSNorm, rms_norm, rms_norm_backward


def reference(x, gamma, eps=1e-6):
    rstd = (x.pow(2).mean(-1) + eps).rsqrt()
    return x * rstd.unsqueeze(-1) * gamma, rstd


def backward_reference(grad_y, grad_rstd, x, gamma, rstd):
    """grad_x of y = x * rstd * gamma with rstd = (mean(x^2) + eps)^-1/2 (its dependence on x included), and
    the sums of grad_y * x * rstd over the kernel's row groups (min(rows, GROUPS) contiguous groups, the
    first rows % groups of them one row longer)."""
    d, r = x.shape[-1], rstd.unsqueeze(-1)
    xhat, gg = x * r, grad_y * gamma
    k = ((gg * xhat).sum(-1, keepdim=True) + grad_rstd.unsqueeze(-1) * r) / d
    grad_x = r * (gg - xhat * k)
    rows = (grad_y * xhat).reshape(-1, d)
    groups = min(rows.shape[0], GROUPS)
    base, extra = divmod(rows.shape[0], groups)
    sizes = [base + 1] * extra + [base] * (groups - extra)
    return grad_x, torch.stack([part.sum(0) for part in rows.split(sizes)])


def samples(dtype):
    def r(*shape, scale=1.0):
        return (torch.randn(shape, dtype=torch.float64) * scale).to(dtype)

    def w(d):
        return (1 + 0.5 * torch.randn(d, dtype=torch.float64)).to(dtype)

    zero_row = r(6, 40)
    zero_row[3] = 0
    return [  # the first four are the ones opcheck, torch.compile and torch.export use
        Sample((r(5, 13), w(13)), {}, "tail"),
        Sample((r(2, 3, 17), w(17)), {}, "3-d"),
        Sample((r(1, 40), w(40)), {}, "one-row"),
        Sample((r(33, 8).t(), w(33)), {}, "non-contiguous"),
        Sample((r(4, 24), w(24)), {"eps": 0.1}, "eps"),
        Sample((zero_row, w(40)), {}, "zero-row"),
        Sample((r(6, 1000), w(1000)), {}, "long-rows"),
        Sample((r(300, 24), w(24)), {}, "many-rows"),
        Sample((r(7, 96, scale=1e4), w(96)), {}, "large-magnitude"),
    ]


def backward_samples(dtype):
    acc = torch.promote_types(dtype, torch.float32)
    out = []
    for s in samples(dtype):
        x, gamma = s.args
        rstd = reference(x.double(), gamma.double(), **s.kwargs)[1].to(acc)
        grad_y = torch.randn(x.shape, dtype=torch.float64).to(dtype)
        grad_rstd = torch.randn(rstd.shape, dtype=torch.float64).to(acc)
        out.append(Sample((grad_y, grad_rstd, x, gamma, rstd), {}, s.name))
    return out


def batched(dtype):
    """x with a batch dimension, gamma shared: the vmap rule makes the batch more rows (one launch)."""
    x = torch.randn(3, 4, 13, dtype=torch.float64).to(dtype)
    return Sample((x, (1 + torch.randn(13, dtype=torch.float64)).to(dtype)), {}, "batched"), (0, None)


def layer():
    norm = RMSNorm(24)
    with torch.no_grad():
        norm.weight.normal_(1.0, 0.5)
    return norm, (torch.randn(3, 5, 24),)


def check(verbose=True):
    """Runs check_op on both ops; raises AssertionError naming every failed check."""
    reports = {
        "rms_norm": at.check_op(rms_norm, samples, reference, batched_sample=batched, make_layer=layer,
                                sized_sample=lambda n: Sample((torch.randn(n, 24), torch.randn(24)), {}, "sized")),
        "rms_norm_backward": at.check_op(rms_norm_backward, backward_samples, backward_reference),
    }
    if verbose:
        for op, report in reports.items():
            print(f"== my_ops::{op}")
            for name, result in report.items():
                print(f"  {name:45s} {result}")
    return reports


if __name__ == "__main__":
    check()

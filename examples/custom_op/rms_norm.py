"""RMSNorm from an Ascend C kernel (rms_norm.cpp) as torch ops, declared once:

    torch.ops.my_ops.rms_norm(x, gamma, eps=1e-6) -> (y, rstd)
    torch.ops.my_ops.rms_norm_backward(grad_y, grad_rstd, x, gamma, rstd) -> (grad_x, grad_gamma_parts)
    RMSNorm(dim, eps)                                     # the layer

y = x * rstd * gamma with rstd = 1 / sqrt(mean(x^2) + eps) over the last dimension; rstd (float32, float64
for float64 x) is kept for the backward. The backward kernel sums grad_y * x * rstd over row groups, one
float32 row per group; torch adds the groups up. On CPU the CPU twin runs the kernels, on an NPU the same
declarations launch them on the device.
"""
import math

import torch

import ascend_ext.library as al

MyRmsNormTiling = al.c_struct("rms_norm_tiling.h", "MyRmsNormTiling")

DTYPES = ("float32", "float16", "bfloat16", "float64")  # float64 runs on the CPU twin only (gradcheck)
ACC = al.promoted("x", "float32")  # rstd and the statistics: float32, float64 for float64 x
GROUPS = 240  # at most this many grad_gamma partial rows: a multiple of 48 and of 40 (A2's vector cores)


def _rows_cols(x, gamma):
    if gamma.dim() != 1 or gamma.shape[0] != x.shape[-1]:
        raise ValueError(f"my_ops::rms_norm: gamma has shape {tuple(gamma.shape)}; expected ({x.shape[-1]},), the "
                         f"last dimension of x {tuple(x.shape)}")
    return math.prod(x.shape[:-1]), x.shape[-1]


# ---- tiling: how many cores, how many rows per UB tile -------------------------------------------------------------


def _ub_bytes(backward, rows, pitch, t, c):
    """The UB the kernel allocates, InitBuffer by InitBuffer, for tiles of `rows` rows of `pitch` elements;
    t and c: the bytes of an element of x and of the arithmetic."""
    tile = rows * pitch
    stat = -(-rows * c // 32) * 32  # one C per row of a tile, in whole 32-byte blocks
    wide = t != c  # 16-bit rows are Cast to float in UB
    gamma = pitch * t + wide * pitch * c
    if backward:
        return (3 * 2 * tile * t  # grad_y, x and grad_x queues, double-buffered
                + 2 * 2 * stat  # rstd and grad_rstd queue
                + pitch * c  # the group's grad_gamma row
                + tile * c + wide * 2 * tile * c  # products; x and grad_y widened
                + stat + 32 + gamma)  # row sums, ReduceSum's buffer, gamma
    return (2 * 2 * tile * t + 2 * stat  # x, y and rstd queues, double-buffered
            + tile * c + wide * tile * c  # squares; x widened
            + 2 * stat + 32 + gamma)  # row sums, ones, ReduceSum's buffer, gamma


def _tiling(x, gamma, eps, groups, platform, backward):
    rows, cols = _rows_cols(x, gamma)
    op = "rms_norm_backward" if backward else "rms_norm"
    if cols == 0:
        raise ValueError(f"my_ops::{op}: x {tuple(x.shape)} has rows of 0 elements; there is nothing to normalize")
    t, c = x.element_size(), 8 if x.dtype == torch.float64 else 4
    block = 32 // t
    pitch = -(-cols // block) * block  # a row in UB: whole 32-byte blocks
    usable = platform.ub_bytes - platform.ub_api_reserved_bytes
    if _ub_bytes(backward, 1, pitch, t, c) > usable:
        longest = max(p for p in range(block, pitch, block) if _ub_bytes(backward, 1, p, t, c) <= usable)
        raise ValueError(f"my_ops::{op}: rows of {cols} {x.dtype} elements do not fit in the UB of {platform.name}; "
                         f"this kernel keeps whole rows in UB, at most {longest} elements of {x.dtype} per row")
    lo, hi = 1, min(4095, max(1, -(-rows // max(groups, 1))))  # DataCopyPad moves at most 4095 rows at once
    while lo < hi:  # the most rows of a group that fit in UB
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if _ub_bytes(backward, mid, pitch, t, c) <= usable else (lo, mid - 1)
    return MyRmsNormTiling(rows=rows, cols=cols, tileRows=lo, groups=groups, eps=eps, eps64=eps)


def forward_tiling(x, gamma, eps, *, platform):
    rows, _ = _rows_cols(x, gamma)
    cores = max(1, min(rows, platform.vector_cores))  # one group of rows per core
    return al.Tiling(block_dim=cores, data=_tiling(x, gamma, eps, min(rows, cores), platform, backward=False))


def backward_tiling(grad_y, grad_rstd, x, gamma, rstd, *, platform):
    groups = _groups(x)
    cores = max(1, min(groups, platform.vector_cores))
    return al.Tiling(block_dim=cores, data=_tiling(x, gamma, 0.0, groups, platform, backward=True))


def _groups(x):
    return torch.sym_min(math.prod(x.shape[:-1]), GROUPS)


def _rstd_shape(x, gamma, eps):
    _rows_cols(x, gamma)  # fake tensors check gamma too
    return x.shape[:-1]


# ---- the forward op: y and rstd ------------------------------------------------------------------------------------


def _setup(ctx, inputs, output):
    x, gamma, _ = inputs
    ctx.save_for_backward(x, gamma, output[1])


def _backward(ctx, grad_y, grad_rstd):
    x, gamma, rstd = ctx.saved_tensors
    grad_x, parts = rms_norm_backward(grad_y, grad_rstd, x, gamma, rstd)
    return grad_x, parts.sum(0).to(gamma.dtype), None


def _jvp(ctx, t_x, t_gamma, _t_eps):
    x, gamma, rstd = ctx.saved_tensors
    acc = rstd.dtype
    xa, t_xa, r = x.to(acc), t_x.to(acc), rstd.unsqueeze(-1)
    t_r = -(r * r * r) * (xa * t_xa).mean(-1, keepdim=True)
    t_y = gamma.to(acc) * (t_xa * r + xa * t_r) + t_gamma.to(acc) * xa * r
    return t_y.to(x.dtype), t_r.squeeze(-1)


def _vmap(info, in_dims, x, gamma, eps):
    x_dim, gamma_dim = in_dims[0], in_dims[1]
    if gamma_dim is None:  # the batch becomes more rows: one launch
        return rms_norm(x.movedim(x_dim, 0), gamma, eps), (0, 0)
    outs = [rms_norm(x.select(x_dim, i) if x_dim is not None else x, gamma.select(gamma_dim, i), eps)
            for i in range(info.batch_size)]  # a gamma per sample: one launch each
    return (torch.stack([y for y, _ in outs]), torch.stack([r for _, r in outs])), (0, 0)


rms_norm = al.op(
    "my_ops::rms_norm(Tensor x, Tensor gamma, float eps=1e-6) -> (Tensor y, Tensor rstd)",
    kernel=al.Kernel("rms_norm.cpp"),
    dtypes={"x": al.TensorArg(DTYPES, rank=(1, None)), "gamma": al.TensorArg("x", rank=1)},
    outputs={"y": al.like("x"), "rstd": al.Out(shape=_rstd_shape, dtype=ACC)},
    tiling=forward_tiling, tiling_struct=MyRmsNormTiling,
    setup_context=_setup, backward=_backward, jvp=_jvp, vmap=_vmap,
)


# ---- the backward op and its own derivatives, in torch ops (double backward, forward mode) -------------------------


def _group_sum(t):
    """(rows, D) -> (groups, D): the sums over the kernel's row groups (as even as can be, the longer first)."""
    (rows, d), groups = t.shape, torch.sym_min(t.shape[0], GROUPS)
    if groups == 0:
        return t.new_zeros(0, d)
    base, extra = rows // groups, rows % groups
    cut = extra * (base + 1)
    return torch.cat([t[:cut].reshape(extra, base + 1, d).sum(1), t[cut:].reshape(groups - extra, base, d).sum(1)])


def _group_expand(p, rows):
    """(groups, D) -> (rows, D): each group's row repeated over the rows of the group."""
    groups, d = p.shape
    if groups == 0:
        return p.new_zeros(0, d)
    base, extra = rows // groups, rows % groups
    return torch.cat([p[:extra, None].expand(extra, base + 1, d).reshape(-1, d),
                      p[extra:, None].expand(groups - extra, base, d).reshape(-1, d)])


def _flat(gy, grs, x, gamma, r):
    """The backward's inputs as (rows, D) / (rows, 1) in the accumulation dtype."""
    acc, d = r.dtype, x.shape[-1]
    return (gy.reshape(-1, d).to(acc), grs.reshape(-1, 1), x.reshape(-1, d).to(acc), gamma.to(acc),
            r.reshape(-1, 1), d)


def _backward_setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _backward_backward(ctx, grad_gx, grad_parts):
    gy_in, grs_in, x_in, gamma_in, r_in = ctx.saved_tensors
    gy, grs, x, gamma, r, d = _flat(gy_in, grs_in, x_in, gamma_in, r_in)
    ggx = grad_gx.reshape(-1, d).to(r.dtype)
    gp = _group_expand(grad_parts.to(r.dtype), x.shape[0])
    xh, gg = x * r, gy * gamma
    k = ((gg * xh).sum(-1, keepdim=True) + grs * r) / d
    u = (ggx * xh).sum(-1, keepdim=True)
    d_gg = r * ggx - (r * u / d) * xh
    d_xh = -r * k * ggx - (r * u / d) * gg + gp * gy
    d_r = (ggx * (gg - k * xh)).sum(-1, keepdim=True) - r * (grs / d) * u + (d_xh * x).sum(-1, keepdim=True)
    return ((d_gg * gamma + gp * xh).reshape(gy_in.shape).to(gy_in.dtype), (-(r * r) * u / d).reshape(grs_in.shape),
            (d_xh * r).reshape(x_in.shape).to(x_in.dtype), (d_gg * gy).sum(0).to(gamma_in.dtype),
            d_r.reshape(r_in.shape))


def _backward_jvp(ctx, t_gy, t_grs, t_x, t_gamma, t_r):
    gy_in, grs_in, x_in, gamma_in, r_in = ctx.saved_tensors
    gy, grs, x, gamma, r, d = _flat(gy_in, grs_in, x_in, gamma_in, r_in)
    t_gy, t_grs, t_x, t_gamma, t_r, _ = _flat(t_gy, t_grs, t_x, t_gamma, t_r)
    xh, gg = x * r, gy * gamma
    k = ((gg * xh).sum(-1, keepdim=True) + grs * r) / d
    t_xh, t_gg = t_x * r + x * t_r, t_gy * gamma + gy * t_gamma
    t_k = ((t_gg * xh + gg * t_xh).sum(-1, keepdim=True) + t_grs * r + grs * t_r) / d
    t_gx = t_r * (gg - xh * k) + r * (t_gg - t_xh * k - xh * t_k)
    return t_gx.reshape(x_in.shape).to(x_in.dtype), _group_sum(t_gy * xh + gy * t_xh)


rms_norm_backward = al.op(
    "my_ops::rms_norm_backward(Tensor grad_y, Tensor grad_rstd, Tensor x, Tensor gamma, Tensor rstd) "
    "-> (Tensor grad_x, Tensor grad_gamma_parts)",
    kernel=al.Kernel("rms_norm.cpp"),
    dtypes={"grad_y": DTYPES, "grad_rstd": al.promoted("grad_y", "float32"), "x": "grad_y", "gamma": "grad_y",
            "rstd": al.promoted("grad_y", "float32")},
    outputs={"grad_x": al.like("x"),
             "grad_gamma_parts": al.Out(shape=lambda grad_y, grad_rstd, x, gamma, rstd: (_groups(x), x.shape[-1]),
                                        dtype=ACC)},
    tiling=backward_tiling, tiling_struct=MyRmsNormTiling,
    setup_context=_backward_setup, backward=_backward_backward, jvp=_backward_jvp,
)



class RMSNorm(torch.nn.Module):
    """y = x / sqrt(mean(x^2) + eps) * weight over the last dimension, as torch.nn.RMSNorm(dim, eps)."""

    def __init__(self, dim: int, eps: float = 1e-6, device=None, dtype=None):
        super().__init__()
        self.eps = eps
        self.weight = torch.nn.Parameter(torch.ones(dim, device=device, dtype=dtype))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.my_ops.rms_norm(x, self.weight.to(x.dtype), self.eps)[0]

// dispersion_correction and dispersion_correction_backward on the Autograd key, in C++.
//
// The forward's Jacobian J (per row: 11^T/D + (alpha/s) P in mode 1, with the symmetric projection
// P = I - 11^T/D - xh xh^T/D; alpha I + (1 - alpha) 11^T/D in mode 0) is symmetric, so one kernel serves
// both directions: grad_x = J^T g = dispersion_correction_backward(g, x) and the forward-mode tangent
// J t = dispersion_correction_backward(t, x).
//
// dispersion_correction_backward is linear in grad with the same J; its derivative with respect to x
// (mode 1 only; mode 0 does not depend on x) is written with differentiable torch ops: it is a second
// derivative, needed only for double backward, Hessians and nested forward mode, where the clarity and
// the free higher derivatives of a torch composition outweigh a dedicated kernel.
#include <ATen/TensorOperators.h>
#include <ATen/ops/zeros_like.h>
#include <torch/csrc/autograd/saved_variable.h>

#include "autograd_support.h"
#include "ops/dispersion_correction.h"

namespace ascend_ext {

namespace {

using namespace autograd;
using torch::autograd::SavedVariable;

using Forward = at::Tensor(const at::Tensor&, double, int64_t, double);
using Backward = at::Tensor(const at::Tensor&, const at::Tensor&, double, int64_t, double);

const auto& ForwardOp()
{
    static const auto op = Op<Forward>("ascend_ext::dispersion_correction");
    return op;
}
const auto& BackwardOp()
{
    static const auto op = Op<Backward>("ascend_ext::dispersion_correction_backward");
    return op;
}

// Per row of x (mode 1): xh = (x - mu) / s and alpha / s^2, in torch ops; 16-bit inputs in float.
struct RowGeometry {
    at::Tensor xhat;
    at::Tensor alphaOverS2;
};
RowGeometry Geometry(const at::Tensor& x, double alpha, double eps)
{
    const at::Tensor xc = x - x.mean(-1, /*keepdim=*/true);
    const at::Tensor s2 = xc.square().mean(-1, /*keepdim=*/true) + eps;
    return {xc * s2.rsqrt(), s2.reciprocal() * alpha};
}

// P u = u - mean(u) - xh * mean(xh * u), row-wise.
at::Tensor Project(const at::Tensor& u, const at::Tensor& xhat)
{
    return u - u.mean(-1, true) - xhat * (xhat * u).mean(-1, true);
}

at::Tensor Opmath(const at::Tensor& t)
{
    return t.scalar_type() == at::kHalf || t.scalar_type() == at::kBFloat16 ? t.to(at::kFloat) : t;
}

// d/dx <v, J(x) g> (mode 1): -(alpha/s^2) (xh mean(v P g) + mean(g xh) P v + mean(v xh) P g).
at::Tensor GradOfBackwardWrtX(const at::Tensor& g, const at::Tensor& x, const at::Tensor& v, double alpha, double eps)
{
    const at::Tensor gf = Opmath(g), vf = Opmath(v);
    const RowGeometry r = Geometry(Opmath(x), alpha, eps);
    const at::Tensor pg = Project(gf, r.xhat);
    const at::Tensor m = (gf * r.xhat).mean(-1, true);
    const at::Tensor out = -r.alphaOverS2 * (r.xhat * (vf * pg).mean(-1, true) + m * Project(vf, r.xhat) +
                                             (vf * r.xhat).mean(-1, true) * pg);
    return out.to(x.scalar_type());
}

// The directional derivative of J(x) g along tx (mode 1):
// -(alpha/s^2) (mean(xh tx) P g + mean(g xh) P tx + xh mean(g P tx)).
at::Tensor TangentOfBackwardAlongX(const at::Tensor& g, const at::Tensor& x, const at::Tensor& tx, double alpha,
                                   double eps)
{
    const at::Tensor gf = Opmath(g), tf = Opmath(tx);
    const RowGeometry r = Geometry(Opmath(x), alpha, eps);
    const at::Tensor ptx = Project(tf, r.xhat);
    const at::Tensor out = -r.alphaOverS2 * ((r.xhat * tf).mean(-1, true) * Project(gf, r.xhat) +
                                             (gf * r.xhat).mean(-1, true) * ptx +
                                             r.xhat * (gf * ptx).mean(-1, true));
    return out.to(x.scalar_type());
}

struct Attrs {
    double alpha;
    int64_t mode;
    double eps;
};

// grad_x = J^T g, by the backward kernel (differentiable: the call goes through its Autograd kernel).
struct DispersionCorrectionBackwardNode : Node {
    SavedVariable x;
    Attrs a{};

    variable_list apply(variable_list&& grads) override
    {
        variable_list out(1);
        if (!grads[0].defined() || !task_should_compute_output(0)) return out;
        out[0] = BackwardOp().call(grads[0], x.unpack(), a.alpha, a.mode, a.eps);
        return out;
    }
    void release_variables() override { x.reset_data(); }
    std::string name() const override { return "DispersionCorrectionBackward"; }
};

// The backward op's own backward: grad_grad = J v (the kernel again), grad_x from GradOfBackwardWrtX.
struct DispersionCorrectionDoubleBackwardNode : Node {
    SavedVariable grad;
    SavedVariable x;
    Attrs a{};

    variable_list apply(variable_list&& grads) override
    {
        variable_list out(2);
        const at::Tensor& v = grads[0];
        if (!v.defined()) return out;
        const at::Tensor xv = x.unpack();
        if (task_should_compute_output(0)) out[0] = BackwardOp().call(v, xv, a.alpha, a.mode, a.eps);
        if (task_should_compute_output(1) && a.mode == kDispersionNormalize) {
            out[1] = GradOfBackwardWrtX(grad.unpack(), xv, v, a.alpha, a.eps);
        }
        return out;
    }
    void release_variables() override
    {
        grad.reset_data();
        x.reset_data();
    }
    std::string name() const override { return "DispersionCorrectionBackwardBackward"; }
};

}  // namespace

at::Tensor dispersion_correction_autograd(const at::Tensor& x, double alpha, int64_t mode, double eps)
{
    at::Tensor result = BelowAutograd([&] { return ForwardOp().call(x, alpha, mode, eps); });
    if (torch::autograd::compute_requires_grad(x)) {
        auto node = c10::make_intrusive<DispersionCorrectionBackwardNode>();
        node->x = SavedVariable(x, /*is_output=*/false);
        node->a = {alpha, mode, eps};
        AttachBackward(result, node, x);
    }
    const at::Tensor tx = Tangent(x);
    if (tx.defined()) {
        const at::Tensor tangent = BackwardOp().call(tx, x._fw_primal(0), alpha, mode, eps);
        result._set_fw_grad(TangentLike(result, tangent), /*level=*/0, /*is_inplace_op=*/false);
    }
    return result;
}

at::Tensor dispersion_correction_backward_autograd(const at::Tensor& grad, const at::Tensor& x, double alpha,
                                                   int64_t mode, double eps)
{
    at::Tensor result = BelowAutograd([&] { return BackwardOp().call(grad, x, alpha, mode, eps); });
    if (torch::autograd::compute_requires_grad(grad, x)) {
        auto node = c10::make_intrusive<DispersionCorrectionDoubleBackwardNode>();
        node->grad = SavedVariable(grad, /*is_output=*/false);
        node->x = SavedVariable(x, /*is_output=*/false);
        node->a = {alpha, mode, eps};
        AttachBackward(result, node, grad, x);
    }
    const at::Tensor tg = Tangent(grad);
    const at::Tensor tx = Tangent(x);
    if (tg.defined() || tx.defined()) {
        const at::Tensor xp = x._fw_primal(0);
        at::Tensor tangent;
        if (tg.defined()) tangent = BackwardOp().call(tg, xp, alpha, mode, eps);
        if (tx.defined() && mode == kDispersionNormalize) {
            const at::Tensor along = TangentOfBackwardAlongX(grad._fw_primal(0), xp, tx, alpha, eps);
            tangent = tangent.defined() ? tangent + along : along;
        }
        // Mode 0 with only x carrying a tangent: the backward does not depend on x, the tangent is zero.
        if (!tangent.defined()) tangent = at::zeros_like(result);
        result._set_fw_grad(TangentLike(result, tangent), /*level=*/0, /*is_inplace_op=*/false);
    }
    return result;
}

}  // namespace ascend_ext

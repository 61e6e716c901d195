// vector_add on the Autograd key, in C++: backward (summed over broadcast dimensions), double backward
// (the backward is made of differentiable ops) and forward-mode AD (tangent = tx + alpha * ty).
#include <ATen/ops/mul.h>

#include "autograd_support.h"
#include "common.h"
#include "ops/vector_add.h"

namespace ascend_ext {

namespace {

using namespace autograd;

using Functional = at::Tensor(const at::Tensor&, const at::Tensor&, const c10::Scalar&);
using FunctionalScalar = at::Tensor(const at::Tensor&, const c10::Scalar&, const c10::Scalar&);
using Out = at::Tensor&(const at::Tensor&, const at::Tensor&, const c10::Scalar&, at::Tensor&);
using Inplace = at::Tensor&(at::Tensor&, const at::Tensor&, const c10::Scalar&);
using InplaceScalar = at::Tensor&(at::Tensor&, const c10::Scalar&, const c10::Scalar&);

const auto& FunctionalOp()
{
    static const auto op = Op<Functional>("ascend_ext::vector_add");
    return op;
}
const auto& ScalarOp()
{
    static const auto op = Op<FunctionalScalar>("ascend_ext::vector_add", "Scalar");
    return op;
}

// grad_x = g summed to x's shape; grad_y = alpha * g summed to y's shape (absent for a number y).
struct VectorAddBackward : Node {
    c10::SymDimVector xSizes;
    c10::SymDimVector ySizes;
    bool yIsTensor = true;
    c10::Scalar alpha;

    variable_list apply(variable_list&& grads) override
    {
        variable_list out(yIsTensor ? 2 : 1);
        const at::Tensor& g = grads[0];
        if (!g.defined()) return out;
        if (task_should_compute_output(0)) out[0] = g.sum_to_size_symint(xSizes);
        if (yIsTensor && task_should_compute_output(1)) {
            const at::Tensor scaled = alpha.equal(1) ? g : at::mul(g, alpha);
            out[1] = scaled.sum_to_size_symint(ySizes);
        }
        return out;
    }
    std::string name() const override { return "VectorAddBackward"; }
};

void SetTangent(const at::Tensor& result, const at::Tensor& tx, const at::Tensor& ty, const c10::Scalar& alpha)
{
    if (!tx.defined() && !ty.defined()) return;
    at::Tensor tangent;
    if (tx.defined() && ty.defined()) {
        tangent = TangentLike(result, FunctionalOp().call(tx, ty, alpha));
    } else if (tx.defined()) {
        tangent = TangentLike(result, tx);
    } else {
        tangent = TangentLike(result, alpha.equal(1) ? ty : at::mul(ty, alpha));
    }
    result._set_fw_grad(tangent, /*level=*/0, /*is_inplace_op=*/false);
}

void RejectAutogradForOut(const at::Tensor& x, const at::Tensor& y)
{
    TORCH_CHECK(!NeedsAutograd(x, y), "ascend_ext.vector_add: the out= form does not support automatic "
                "differentiation, but an argument requires grad or has a forward-mode tangent; use the functional "
                "form vector_add(x, y)");
}

}  // namespace

at::Tensor vector_add_autograd(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha)
{
    at::Tensor result = BelowAutograd([&] { return FunctionalOp().call(x, y, alpha); });
    if (torch::autograd::compute_requires_grad(x, y)) {
        auto node = c10::make_intrusive<VectorAddBackward>();
        node->xSizes = c10::SymDimVector(x.sym_sizes().begin(), x.sym_sizes().end());
        node->ySizes = c10::SymDimVector(y.sym_sizes().begin(), y.sym_sizes().end());
        node->alpha = alpha;
        AttachBackward(result, node, x, y);
    }
    SetTangent(result, Tangent(x), Tangent(y), alpha);
    return result;
}

at::Tensor vector_add_scalar_autograd(const at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha)
{
    at::Tensor result = BelowAutograd([&] { return ScalarOp().call(x, y, alpha); });
    if (torch::autograd::compute_requires_grad(x)) {
        auto node = c10::make_intrusive<VectorAddBackward>();
        node->xSizes = c10::SymDimVector(x.sym_sizes().begin(), x.sym_sizes().end());
        node->yIsTensor = false;
        AttachBackward(result, node, x);
    }
    SetTangent(result, Tangent(x), at::Tensor(), alpha);
    return result;
}

at::Tensor& vector_add_out_autograd(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha,
                                    at::Tensor& out)
{
    RejectAutogradForOut(x, y);
    static const auto op = Op<Out>("ascend_ext::vector_add", "out");
    BelowAutograd([&]() -> at::Tensor& { return op.call(x, y, alpha, out); });
    torch::autograd::impl::bump_version(out);
    return out;
}

// In place: with nothing to differentiate, the kernel writes x directly; otherwise x.copy_(x + alpha * y),
// whose autograd (and in-place rules: leaves, views, version counters) is torch's own.
at::Tensor& vector_add__autograd(at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha)
{
    if (NeedsAutograd(x, y)) return x.copy_(FunctionalOp().call(x, y, alpha));
    static const auto op = Op<Inplace>("ascend_ext::vector_add_");
    BelowAutograd([&]() -> at::Tensor& { return op.call(x, y, alpha); });
    torch::autograd::impl::bump_version(x);
    return x;
}

at::Tensor& vector_add__scalar_autograd(at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha)
{
    if (NeedsAutograd(x)) return x.copy_(ScalarOp().call(x, y, alpha));
    static const auto op = Op<InplaceScalar>("ascend_ext::vector_add_", "Scalar");
    BelowAutograd([&]() -> at::Tensor& { return op.call(x, y, alpha); });
    torch::autograd::impl::bump_version(x);
    return x;
}

}  // namespace ascend_ext

// matmul on the Autograd key, in C++. c = op(a) @ op(b) + bias. Every gradient is the same op with other
// transpose flags (never a materialised transpose), so double backward and forward AD go through the
// cube kernel too:
//   grad_a = g @ op(b)^T            stored as a:   a^T = op(b) @ g^T when trans_a
//   grad_b = op(a)^T @ g            stored as b:   b^T = g^T @ op(a) when trans_b
//   grad_bias = g summed over rows; tangent = op(ta) @ op(b) + op(a) @ op(tb) + tbias.
#include <ATen/ops/add.h>
#include <ATen/ops/sum.h>
#include <torch/csrc/autograd/saved_variable.h>

#include "autograd_support.h"
#include "ops/matmul.h"

namespace ascend_ext {

namespace {

using namespace autograd;

using Signature = at::Tensor(const at::Tensor&, const at::Tensor&, bool, bool, const std::optional<at::Tensor>&);

at::Tensor Matmul(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                  const std::optional<at::Tensor>& bias = std::nullopt)
{
    static const auto op = Op<Signature>("ascend_ext::matmul");
    return op.call(a, b, transA, transB, bias);
}

at::Tensor GradA(const at::Tensor& g, const at::Tensor& b, bool transA, bool transB)
{
    return transA ? Matmul(b, g, transB, true) : Matmul(g, b, false, !transB);
}

at::Tensor GradB(const at::Tensor& g, const at::Tensor& a, bool transA, bool transB)
{
    return transB ? Matmul(g, a, true, transA) : Matmul(a, g, !transA, false);
}

struct MatmulBackward : Node {
    torch::autograd::SavedVariable a, b;
    bool transA = false, transB = false;

    variable_list apply(variable_list&& grads) override
    {
        variable_list out(3);
        const at::Tensor& g = grads[0];
        if (!g.defined()) return out;
        if (task_should_compute_output(0)) out[0] = GradA(g, b.unpack(), transA, transB);
        if (task_should_compute_output(1)) out[1] = GradB(g, a.unpack(), transA, transB);
        if (task_should_compute_output(2)) out[2] = g.sum(0);
        return out;
    }
    void release_variables() override
    {
        a.reset_data();
        b.reset_data();
    }
    std::string name() const override { return "MatmulBackward"; }
};

}  // namespace

at::Tensor matmul_autograd(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                           const std::optional<at::Tensor>& bias)
{
    const at::Tensor biasT = bias.has_value() ? *bias : at::Tensor();
    at::Tensor result = BelowAutograd([&] { return Matmul(a, b, transA, transB, bias); });
    if (torch::autograd::compute_requires_grad(a, b, biasT)) {
        auto node = c10::make_intrusive<MatmulBackward>();
        node->a = torch::autograd::SavedVariable(a, false);
        node->b = torch::autograd::SavedVariable(b, false);
        node->transA = transA;
        node->transB = transB;
        AttachBackward(result, node, a, b, biasT);
    }
    const at::Tensor ta = Tangent(a), tb = Tangent(b), tbias = Tangent(biasT);
    if (ta.defined() || tb.defined() || tbias.defined()) {
        at::Tensor tangent;
        auto accumulate = [&](const at::Tensor& t) { tangent = tangent.defined() ? at::add(tangent, t) : t; };
        // With the primals' own tangents stripped (_fw_primal), as ATen's formulas do: a tangent may not carry
        // a forward gradient of its own at the same level.
        if (ta.defined()) accumulate(Matmul(ta, b._fw_primal(0), transA, transB));
        if (tb.defined()) accumulate(Matmul(a._fw_primal(0), tb, transA, transB));
        if (tbias.defined()) accumulate(tbias);
        result._set_fw_grad(TangentLike(result, tangent), /*level=*/0, /*is_inplace_op=*/false);
    }
    return result;
}

}  // namespace ascend_ext

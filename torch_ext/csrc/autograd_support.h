// What the C++ autograd kernels of the ops share: running the device kernel below autograd, attaching a
// backward node, and forward-mode tangents (the level-0 forward gradient, which torch.func.jvp maps to).
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/utils.h>

#include <utility>

namespace ascend_ext::autograd {

using torch::autograd::Node;
using torch::autograd::variable_list;

// The typed handle of an ascend_ext op, for calls through the dispatcher.
template <typename Signature>
c10::TypedOperatorHandle<Signature> Op(const char* name, const char* overload = "")
{
    return c10::Dispatcher::singleton().findSchemaOrThrow(name, overload).typed<Signature>();
}

// Runs fn with the autograd and ADInplaceOrView keys excluded: the device (or Meta) kernel.
template <typename F>
decltype(auto) BelowAutograd(F&& fn)
{
    at::AutoDispatchBelowADInplaceOrView guard;
    return fn();
}

inline at::Tensor Tangent(const at::Tensor& t)
{
    return t.defined() ? t._fw_grad(/*level=*/0) : at::Tensor();
}

// Any input that needs a graph (backward) or carries a tangent (forward AD)?
template <typename... Tensors>
bool NeedsAutograd(const Tensors&... ts)
{
    return torch::autograd::compute_requires_grad(ts...) || (Tangent(ts).defined() || ...);
}

// Connects `result` to a new backward node whose inputs are `inputs` (in the node's output order).
template <typename NodeT, typename... Tensors>
void AttachBackward(const at::Tensor& result, c10::intrusive_ptr<NodeT> node, const Tensors&... inputs)
{
    node->set_next_edges(torch::autograd::collect_next_edges(inputs...));
    torch::autograd::set_history(result, node);
}

// A tangent with the primal's shape and dtype, made without in-place writes (so it works on tensors
// batched by vmap, as in jacfwd); _set_fw_grad lays it out like the primal.
inline at::Tensor TangentLike(const at::Tensor& primal, const at::Tensor& value)
{
    const at::Tensor cast = value.scalar_type() == primal.scalar_type() ? value : value.to(primal.scalar_type());
    return cast.sym_sizes().equals(primal.sym_sizes()) ? cast : cast.expand_symint(primal.sym_sizes());
}

}  // namespace ascend_ext::autograd

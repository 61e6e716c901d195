// Autocast policies of the ascend_ext ops, shared by AutocastCPU and AutocastPrivateUse1 (NPU).
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

namespace ascend_ext {

// "promote" (like torch.add under autocast): floating inputs of different dtypes run in the widest one,
// so a float32 residual can be added to a bfloat16 activation.
template <c10::DispatchKey AutocastKey>
at::Tensor vector_add_autocast(const at::Tensor& x, const at::Tensor& y)
{
    c10::impl::ExcludeDispatchKeyGuard noAutocast(AutocastKey);
    static const auto op = c10::Dispatcher::singleton()
                               .findSchemaOrThrow("ascend_ext::vector_add", "")
                               .typed<at::Tensor(const at::Tensor&, const at::Tensor&)>();
    if (x.defined() && y.defined() && x.is_floating_point() && y.is_floating_point() &&
        x.scalar_type() != y.scalar_type()) {
        const at::ScalarType common = c10::promoteTypes(x.scalar_type(), y.scalar_type());
        return op.call(x.to(common), y.to(common));
    }
    return op.call(x, y);
}

}  // namespace ascend_ext

// The vmap batching rule of matmul (in C++: its bias is keyword-only, which torch.library.register_vmap
// does not take). A batch of a, or of b, is folded into M, or N, of a single launch; when both are batched
// each sample is its own launch (a batched GEMM is not what the kernel does).
#include <ATen/functorch/PlumbingHelper.h>
#include <ATen/ops/add.h>
#include <ATen/ops/stack.h>

#include "autograd_support.h"
#include "ops/matmul.h"

namespace ascend_ext {

namespace {

using Signature = at::Tensor(const at::Tensor&, const at::Tensor&, bool, bool, const std::optional<at::Tensor>&);

at::Tensor Matmul(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                  const std::optional<at::Tensor>& bias)
{
    static const auto op = autograd::Op<Signature>("ascend_ext::matmul");
    return op.call(a, b, transA, transB, bias);
}

}  // namespace

at::Tensor matmul_batched(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                          const std::optional<at::Tensor>& bias)
{
    using namespace at::functorch;
    c10::impl::ExcludeDispatchKeyGuard guard(c10::DispatchKey::FuncTorchBatched);
    const auto layer = maybeCurrentDynamicLayer();
    TORCH_INTERNAL_ASSERT(layer.has_value());
    const int64_t level = layer->layerId();
    if (!isBatchedAtLevel(a, level) && !isBatchedAtLevel(b, level) && !isBatchedAtLevel(bias, level)) {
        return Matmul(a, b, transA, transB, bias);
    }
    auto [av, aDim] = unwrapTensorAtLevel(a, level);
    auto [bv, bDim] = unwrapTensorAtLevel(b, level);
    std::optional<at::Tensor> biasV;
    std::optional<int64_t> biasDim;
    if (bias.has_value() && bias->defined()) std::tie(biasV, biasDim) = unwrapTensorAtLevel(*bias, level);
    // An unbatched bias rides in the kernel; a batched one is added per sample afterwards.
    const std::optional<at::Tensor> kernelBias = biasDim.has_value() ? std::nullopt : biasV;

    at::Tensor out;
    if (aDim.has_value() && !bDim.has_value()) {
        at::Tensor a3 = av.movedim(*aDim, 0);
        if (transA) a3 = a3.transpose(1, 2);  // per sample [M, K]
        const int64_t batch = a3.size(0), m = a3.size(1);
        out = Matmul(a3.reshape({batch * m, a3.size(2)}), bv, false, transB, kernelBias).view({batch, m, -1});
    } else if (bDim.has_value() && !aDim.has_value()) {
        at::Tensor b3 = bv.movedim(*bDim, 0);
        if (!transB) b3 = b3.transpose(1, 2);  // per sample [N, K]
        const int64_t batch = b3.size(0), n = b3.size(1);
        at::Tensor bias2;
        if (kernelBias.has_value()) bias2 = kernelBias->repeat({batch});
        out = Matmul(av, b3.reshape({batch * n, b3.size(2)}), transA, true,
                     bias2.defined() ? std::optional<at::Tensor>(bias2) : std::nullopt);
        out = out.view({out.size(0), batch, n}).movedim(1, 0);
    } else if (aDim.has_value() && bDim.has_value()) {
        const at::Tensor a3 = av.movedim(*aDim, 0), b3 = bv.movedim(*bDim, 0);
        std::vector<at::Tensor> samples;
        for (int64_t i = 0; i < a3.size(0); ++i) samples.push_back(Matmul(a3[i], b3[i], transA, transB, kernelBias));
        out = at::stack(samples);
    } else {  // only the bias is batched
        out = Matmul(av, bv, transA, transB, std::nullopt).unsqueeze(0);
    }
    if (biasDim.has_value()) out = at::add(out, biasV->movedim(*biasDim, 0).unsqueeze(1));
    return makeBatched(out, 0, level);
}

}  // namespace ascend_ext

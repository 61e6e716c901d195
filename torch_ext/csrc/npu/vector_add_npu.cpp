// vector_add on the NPU: the same preparation as the CPU path (promotion, layout, which operand is read in
// place), then aclnnVectorAdd of the op package with the operands described as flat buffers, as the
// kernel reads them.
#include "npu/op_api.h"
#include "ops/vector_add.h"

namespace ascend_ext {

namespace {

// aclnnVectorAddGetWorkspaceSize(x, yOptional, scaleX, scaleY, yValue, z, ...): float attributes are
// doubles in the generated API.
using GetWorkspaceFn = int (*)(const aclTensor* x, const aclTensor* y, double scaleX, double scaleY, double yValue,
                               const aclTensor* z, uint64_t* workspaceSize, aclOpExecutor** executor);

// A dense tensor as the 1-D buffer of its elements in memory order.
at::Tensor Flat(const at::Tensor& t)
{
    return t.defined() ? t.as_strided({t.numel()}, {1}) : t;
}

at::Tensor RunNpu(VectorAddCall call)
{
    const VectorAddLaunch& l = call.launch;
    if (l.z.numel() > 0) {
        static const auto getWorkspace =
            reinterpret_cast<GetWorkspaceFn>(npu::OpApiSymbol("aclnnVectorAddGetWorkspaceSize"));
        npu::AclTensors tensors;
        aclTensor* x = tensors.Add(Flat(l.full));
        aclTensor* y = tensors.Add(Flat(l.bcast));
        aclTensor* z = tensors.Add(Flat(l.z));
        const VectorAddProblem& p = l.problem;
        const double yValue = p.mode == kVectorAddScalarTiling ? p.scalar : 0.0;
        const double scaleY = p.mode == kVectorAddScalarTiling ? 1.0 : p.scaleBcast;
        npu::RunAclnn("VectorAdd", l.z.device(), std::move(tensors), [&](uint64_t* size, aclOpExecutor** executor) {
            return getWorkspace(x, y, p.scaleFull, scaleY, yValue, z, size, executor);
        });
    }
    if (call.copyBack) call.result.copy_(l.z);
    return call.result;
}

}  // namespace

at::Tensor vector_add_npu(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha)
{
    return RunNpu(PrepareVectorAdd(x, y, c10::Scalar(), alpha, at::Tensor()));
}

at::Tensor vector_add_scalar_npu(const at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha)
{
    return RunNpu(PrepareVectorAdd(x, at::Tensor(), y, alpha, at::Tensor()));
}

at::Tensor& vector_add_out_npu(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha, at::Tensor& out)
{
    PrepareVectorAddOut(x, y, alpha, out);
    RunNpu(PrepareVectorAdd(x, y, c10::Scalar(), alpha, out));
    return out;
}

at::Tensor& vector_add__npu(at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha)
{
    CheckVectorAddInplace(x, y, c10::Scalar());
    RunNpu(PrepareVectorAdd(x, y, c10::Scalar(), alpha, x));
    return x;
}

at::Tensor& vector_add__scalar_npu(at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha)
{
    CheckVectorAddInplace(x, at::Tensor(), y);
    RunNpu(PrepareVectorAdd(x, at::Tensor(), y, alpha, x));
    return x;
}

}  // namespace ascend_ext

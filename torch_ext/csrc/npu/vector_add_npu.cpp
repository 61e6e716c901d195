// vector_add on the NPU: the same preparation as the CPU path (promotion, layout, which operand is read in
// place), then aclnnVectorAdd of the op package with the operands described as the flat buffers the kernel
// reads (z = scale_x * x + scale_y * y, or + y_value without y: op_host/vector_add.cpp).
#include <ATen/DeviceGuard.h>

#include "ascend_ext_generated/aclnn.h"  // the op types' typed calls, from the declarations
#include "ops/vector_add.h"

namespace ascend_ext {

namespace {

// A dense tensor as the 1-D buffer of its elements in memory order.
at::Tensor Flat(const at::Tensor& t)
{
    return t.defined() ? t.as_strided({t.numel()}, {1}) : t;
}

at::Tensor RunNpu(VectorAddCall call)
{
    const VectorAddLaunch& l = call.launch;
    if (l.z.numel() > 0) {
        // The operands the CPU path decodes with DecodeVectorAddProblem, which the TilingFunc runs on them.
        const VectorAddOperands& o = l.operands;
        aclnn::VectorAdd("vector_add", Flat(l.full), Flat(l.bcast), o.scaleX, o.scaleY, o.yValue, Flat(l.z));
    }
    if (call.copyBack) call.result.copy_(l.z);
    return call.result;
}

}  // namespace

// Each entry guards the device of the operand that decides the result's (x, or y when x is a CPU 0-d
// tensor: torch.add's rule), or of the out=/in-place tensor: output, workspace and stream are on it.
at::Tensor vector_add_npu(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha)
{
    const c10::OptionalDeviceGuard guard(at::device_of(VectorAddDeviceOperand(x, y)));
    return RunNpu(PrepareVectorAdd(x, y, c10::Scalar(), alpha, at::Tensor()));
}

at::Tensor vector_add_scalar_npu(const at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha)
{
    const c10::OptionalDeviceGuard guard(at::device_of(x));
    return RunNpu(PrepareVectorAdd(x, at::Tensor(), y, alpha, at::Tensor()));
}

at::Tensor& vector_add_out_npu(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha, at::Tensor& out)
{
    const c10::OptionalDeviceGuard guard(at::device_of(out));
    PrepareVectorAddOut(x, y, alpha, out);
    RunNpu(PrepareVectorAdd(x, y, c10::Scalar(), alpha, out));
    return out;
}

at::Tensor& vector_add__npu(at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha)
{
    const c10::OptionalDeviceGuard guard(at::device_of(x));
    CheckVectorAddInplace(x, y, c10::Scalar());
    RunNpu(PrepareVectorAdd(x, y, c10::Scalar(), alpha, x));
    return x;
}

at::Tensor& vector_add__scalar_npu(at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha)
{
    const c10::OptionalDeviceGuard guard(at::device_of(x));
    CheckVectorAddInplace(x, at::Tensor(), y);
    RunNpu(PrepareVectorAdd(x, at::Tensor(), y, alpha, x));
    return x;
}

}  // namespace ascend_ext

// dispersion_correction: checks shared by all devices; the CPU (twin) and Meta implementations.
#include "ops/dispersion_correction.h"

#include <ATen/ops/empty.h>
#include <c10/core/SymBool.h>

#include <cmath>

#include "common.h"
#include "twin_launch.h"

namespace ascend_ext {

DispersionCorrectionAttrs CheckDispersionCorrectionAttrs(const char* op, double alpha, int64_t mode, double eps)
{
    TORCH_CHECK_VALUE(mode == kDispersionScale || mode == kDispersionNormalize, "ascend_ext.", op,
                      ": argument 'mode' must be 0 (scale the dispersion by alpha) or 1 (normalize it to alpha), got ",
                      mode);
    TORCH_CHECK_VALUE(std::isfinite(alpha), "ascend_ext.", op, ": argument 'alpha' must be a finite number, got ",
                      alpha);
    TORCH_CHECK_VALUE(std::isfinite(eps) && eps >= 0, "ascend_ext.", op,
                      ": argument 'eps' must be a finite number >= 0, got ", eps);
    TORCH_CHECK_VALUE(mode != kDispersionNormalize || eps > 0, "ascend_ext.", op,
                      ": argument 'eps' must be > 0 in mode 1 (a constant row would divide 0 by 0), got ", eps);
    return {alpha, mode, eps};
}

DType CheckDispersionCorrectionInput(const char* op, const at::Tensor& x)
{
    CheckTensor(op, "x", x);
    const DType dtype = KernelDType(op, "x", x);
    TORCH_CHECK_VALUE(x.dim() >= 1, "ascend_ext.", op,
                      ": argument 'x' must have at least one dimension (its last one holds the rows), got a 0-d "
                      "tensor");
    const c10::SymInt& d = x.sym_sizes().back();
    if (auto known = d.maybe_as_int()) {
        TORCH_CHECK_VALUE(*known > 0, "ascend_ext.", op, ": argument 'x' has rows of length 0 (shape ",
                          x.sym_sizes(), "); the last dimension must not be empty");
    } else {
        // Undecidable while tracing (an unbacked size): a runtime assert, as ATen does.
        TORCH_SYM_CHECK(d.sym_gt(0), "ascend_ext.", op, ": argument 'x' has rows of length 0; the last dimension must "
                        "not be empty");
    }
    return dtype;
}

DType CheckDispersionCorrectionBackward(const char* op, const at::Tensor& grad, const at::Tensor& x)
{
    CheckTensor(op, "grad", grad);
    const DType dtype = CheckDispersionCorrectionInput(op, x);
    CheckSameDType(op, "grad", grad, "x", x);
    CheckSameDevice(op, "grad", grad, "x", x);
    TORCH_CHECK_VALUE(grad.sym_sizes().equals(x.sym_sizes()), "ascend_ext.", op, ": argument 'grad' has shape ",
                      grad.sym_sizes(), "; expected the shape ", x.sym_sizes(), " of 'x'");
    return dtype;
}

DispersionCorrectionProblem DispersionCorrectionProblemOf(const at::Tensor& x, const DispersionCorrectionAttrs& a,
                                                          DType dtype, bool backward)
{
    // As the op's Float attrs carry alpha and eps to the NPU TilingFunc (float64 exists on the twin only).
    const auto attr = [&](double v) { return dtype == DType::kFloat64 ? v : static_cast<double>(static_cast<float>(v)); };
    const DispersionCorrectionDecoded d = DecodeDispersionCorrectionProblem(
        x.sizes().data(), x.dim(), attr(a.alpha), a.mode, attr(a.eps), backward);
    TORCH_INTERNAL_ASSERT(d.error == nullptr, "ascend_ext.dispersion_correction: ", d.error);
    return d.problem;
}

// ---- CPU: the kernels on the twin ----------------------------------------------------------------------

at::Tensor dispersion_correction_cpu(const at::Tensor& x, double alpha, int64_t mode, double eps)
{
    constexpr const char* kOp = "dispersion_correction";
    const DType dtype = CheckDispersionCorrectionInput(kOp, x);
    const DispersionCorrectionAttrs attrs = CheckDispersionCorrectionAttrs(kOp, alpha, mode, eps);
    const at::Tensor input = x.contiguous();
    at::Tensor y = at::empty(x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
    if (y.numel() == 0) return y;
    const DispersionCorrectionPlan plan =
        ComputeDispersionCorrectionTiling(DispersionCorrectionProblemOf(input, attrs, dtype, false), dtype, TwinPlatform());
    // Split rows exchange partial statistics through the workspace (op_host/dispersion_correction_tiling.h).
    LaunchOnTwin(kOp, dtype, plan.blockDim, {{"x", &input}, {"y", &y}}, plan.tiling, plan.workspaceBytes);
    return y;
}

at::Tensor dispersion_correction_backward_cpu(const at::Tensor& grad, const at::Tensor& x, double alpha, int64_t mode,
                                              double eps)
{
    constexpr const char* kOp = "dispersion_correction_backward";
    const DType dtype = CheckDispersionCorrectionBackward(kOp, grad, x);
    const DispersionCorrectionAttrs attrs = CheckDispersionCorrectionAttrs(kOp, alpha, mode, eps);
    const at::Tensor g = grad.contiguous();
    at::Tensor gradX = at::empty(x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
    if (gradX.numel() == 0) return gradX;
    const DispersionCorrectionProblem p = DispersionCorrectionProblemOf(g, attrs, dtype, true);
    const DispersionCorrectionPlan plan = ComputeDispersionCorrectionTiling(p, dtype, TwinPlatform());
    // x is read only when grad_x depends on it (mode 1).
    const at::Tensor input = plan.tiling.readX ? x.contiguous() : at::Tensor();
    LaunchOnTwin("dispersion_correction_backward", dtype, plan.blockDim, {{"grad", &g}, {"x", &input}, {"grad_x", &gradX}},
                 plan.tiling, plan.workspaceBytes);
    return gradX;
}

// ---- Meta (fake tensors, torch.compile): shapes and dtypes only -----------------------------------------

at::Tensor dispersion_correction_meta(const at::Tensor& x, double alpha, int64_t mode, double eps)
{
    CheckDispersionCorrectionInput("dispersion_correction", x);
    CheckDispersionCorrectionAttrs("dispersion_correction", alpha, mode, eps);
    return at::empty_symint(x.sym_sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
}

at::Tensor dispersion_correction_backward_meta(const at::Tensor& grad, const at::Tensor& x, double alpha,
                                               int64_t mode, double eps)
{
    CheckDispersionCorrectionBackward("dispersion_correction_backward", grad, x);
    CheckDispersionCorrectionAttrs("dispersion_correction_backward", alpha, mode, eps);
    return at::empty_symint(x.sym_sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
}

}  // namespace ascend_ext

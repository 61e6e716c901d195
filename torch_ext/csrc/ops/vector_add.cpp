// vector_add: checks, promotion and layout shared by all devices; the CPU (twin) and Meta implementations.
#include "ops/vector_add.h"

#include <ATen/MemoryOverlap.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TypeProperties.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_strided.h>
#include <c10/core/SymBool.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "common.h"
#include "twin_launch.h"

namespace ascend_ext {

namespace {

constexpr const char* kOp = "vector_add";

bool IsCpuScalar(const at::Tensor& t) { return t.dim() == 0 && t.is_cpu(); }

// torch.result_type of the operands, checked against the dtypes the kernel is built for.
at::ScalarType ResultType(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& other, bool onNpu)
{
    at::ScalarType t;
    if (y.defined() && x.scalar_type() == y.scalar_type()) {
        t = x.scalar_type();
    } else {
        at::native::ResultTypeState state{};
        state = at::native::update_result_type_state(x, state);
        state = y.defined() ? at::native::update_result_type_state(y, state)
                            : at::native::update_result_type_state(other, state);
        t = at::native::result_type(state);
    }
    if (t == x.scalar_type() && (!y.defined() || t == y.scalar_type())) {
        if (t != at::kFloat) KernelDType(kOp, "argument 'x'", t, onNpu);
        return t;
    }
    const std::string what = y.defined() ? "x (" + DTypeString(x.scalar_type()) + ") + y (" +
                                               DTypeString(y.scalar_type()) + "), promoted as torch.add does,"
                                         : "x (" + DTypeString(x.scalar_type()) + ") + a Python number,";
    KernelDType(kOp, what, t, onNpu);
    return t;
}

at::Tensor CastTo(const at::Tensor& t, at::ScalarType dtype)
{
    return t.scalar_type() == dtype ? t : t.to(dtype);
}

// Dimensions of z from outermost to innermost in memory (z is non-overlapping and dense).
std::vector<int64_t> MemoryOrder(const at::Tensor& z)
{
    std::vector<int64_t> order(z.dim());
    std::iota(order.begin(), order.end(), 0);
    if (!z.is_contiguous()) {
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t a, int64_t b) { return z.stride(a) > z.stride(b); });
    }
    return order;
}

// How the kernel can read an operand broadcast to z's shape.
enum class Reading {
    kScalar,        // one element
    kRows,          // D elements, contiguous in z's memory order, repeated for every row (D = numel(z): full)
    kStridedRows,   // the same pattern, but its D elements are not laid out in z's order: compact them first
    kOther,         // any other broadcast: materialise it at z's size
};
struct Classified {
    Reading how;
    uint64_t rowLength;
};

Classified Classify(const at::Tensor& t, const at::Tensor& z, const std::vector<int64_t>& order)
{
    if (t.numel() == 1 && z.numel() > 1) return {Reading::kScalar, 1};
    const int64_t off = z.dim() - t.dim();
    bool inRows = true;   // walking outward from the innermost dimension: still in the repeated row?
    bool dense = true;
    int64_t expected = 1;
    uint64_t rowLength = 1;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const int64_t d = *it;
        const int64_t size = z.size(d);
        if (size == 1) continue;
        const bool broadcast = d < off || t.size(d - off) == 1;
        if (inRows && broadcast) {
            if (rowLength == 1) return {Reading::kOther, 0};  // varies along rows, constant along them
            inRows = false;
        } else if (!inRows && !broadcast) {
            return {Reading::kOther, 0};  // a broadcast dimension between two real ones
        }
        if (inRows) {
            dense = dense && t.stride(d - off) == expected;
            expected *= size;
            rowLength *= static_cast<uint64_t>(size);
        }
    }
    return {dense ? Reading::kRows : Reading::kStridedRows, rowLength};
}

// Elements the launch would copy if `t` were the operand read as B.
uint64_t CostAsBroadcast(const Classified& c, uint64_t n)
{
    switch (c.how) {
        case Reading::kScalar:
        case Reading::kRows: return 0;
        case Reading::kStridedRows: return c.rowLength;
        default: return n;
    }
}

// A copy of t with its own sizes (padded to z's rank) laid out densely in z's memory order.
at::Tensor CompactInOrder(const at::Tensor& t, const at::Tensor& z, const std::vector<int64_t>& order)
{
    const int64_t nd = z.dim();
    std::vector<int64_t> sizes(nd, 1), strides(nd, 0);
    for (int64_t i = 0; i < t.dim(); ++i) sizes[nd - t.dim() + i] = t.size(i);
    int64_t running = 1;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        strides[*it] = running;
        running *= sizes[*it];
    }
    at::Tensor c = at::empty_strided(sizes, strides, t.options());
    c.copy_(t);
    return c;
}

at::Tensor MaterialiseLike(const at::Tensor& t, const at::Tensor& z)
{
    at::Tensor m = at::empty_strided(z.sizes(), z.strides(), z.options());
    m.copy_(t);
    return m;
}

// A number as the op package's Float attr carries it to the NPU TilingFunc: float, except in the twin's
// float64 build (no NPU kernel), so that both decode the same values.
double AttrValue(double v, DType dtype)
{
    return dtype == DType::kFloat64 ? v : static_cast<double>(static_cast<float>(v));
}

// The launch with its problem decoded from its operands by the op's one decode (vector_add_tiling.h).
VectorAddLaunch Decoded(VectorAddLaunch l)
{
    const VectorAddDecoded d = DecodeVectorAddProblem(l.operands);
    TORCH_INTERNAL_ASSERT(d.error == nullptr, "ascend_ext.vector_add: ", d.error);
    l.problem = d.problem;
    return l;
}

// Chooses which operand is read as F and how B is read, copying as little as possible.
VectorAddLaunch BuildLaunch(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& other, double alpha,
                            const at::Tensor& z, DType dtype)
{
    VectorAddLaunch l;
    l.z = z;
    l.dtype = dtype;
    const uint64_t n = static_cast<uint64_t>(z.numel());
    VectorAddOperands& o = l.operands;
    o.fullElems = n;
    const std::vector<int64_t> order = MemoryOrder(z);

    // A Python number, or a CPU 0-d tensor joining tensors on another device: the scalar rides in the tiling.
    const bool yHostScalar = !y.defined() || (IsCpuScalar(y) && !z.is_cpu());
    const bool xHostScalar = y.defined() && IsCpuScalar(x) && !z.is_cpu();
    if (yHostScalar || xHostScalar) {
        const at::Tensor& tensor = xHostScalar ? y : x;
        const double value = !y.defined() ? other.toDouble() : (xHostScalar ? x : y).item<double>();
        const Classified c = Classify(tensor, z, order);
        if (c.how == Reading::kRows && c.rowLength == n) {
            l.full = tensor;
        } else {
            l.z.copy_(tensor);  // computed in place in the output
            l.full = l.z;
        }
        // The NPU adapter passes the scaled number as y_value with scale_y 1, as here.
        o.scaleX = AttrValue(xHostScalar ? alpha : 1.0, dtype);
        o.yValue = AttrValue(xHostScalar ? value : value * alpha, dtype);
        return Decoded(std::move(l));
    }

    const Classified cx = Classify(x, z, order);
    const Classified cy = Classify(y, z, order);
    const bool xFull = cx.how == Reading::kRows && cx.rowLength == n;
    const bool yFull = cy.how == Reading::kRows && cy.rowLength == n;
    // F = x unless reading y as F copies fewer elements.
    const uint64_t costXF = (xFull ? 0 : n) + CostAsBroadcast(cy, n);
    const uint64_t costYF = (yFull ? 0 : n) + CostAsBroadcast(cx, n);
    const bool swap = costYF < costXF;
    const at::Tensor& f = swap ? y : x;
    const at::Tensor& b = swap ? x : y;
    const Classified cb = swap ? cx : cy;
    o.scaleX = AttrValue(swap ? alpha : 1.0, dtype);
    o.scaleY = AttrValue(swap ? 1.0 : alpha, dtype);

    if ((swap ? yFull : xFull)) {
        l.full = f;
    } else if (!b.is_alias_of(z)) {
        l.z.copy_(f);  // F is computed in place in the output: no temporary
        l.full = l.z;
    } else {
        l.full = MaterialiseLike(f, z);
    }
    switch (cb.how) {
        case Reading::kScalar:
        case Reading::kRows: l.bcast = b; break;  // one element, or the D elements of a row
        case Reading::kStridedRows: l.bcast = CompactInOrder(b, z, order); break;
        case Reading::kOther: l.bcast = MaterialiseLike(b, z); break;
    }
    o.hasBcast = true;
    o.bcastElems = static_cast<uint64_t>(l.bcast.numel());
    return Decoded(std::move(l));
}

// The number operand: any real number; a bool counts as 0 or 1, as in torch.add.
void CheckNumber(const c10::Scalar& y)
{
    TORCH_CHECK_TYPE(!y.isComplex(), "ascend_ext.vector_add: argument 'y' must be a real number, got a complex number");
}

// The result tensor, laid out as torch.add lays out its result.
at::Tensor EmptyElementwise(const at::Tensor& x, const at::Tensor& y, c10::SymIntArrayRef shape,
                            const at::TensorOptions& options)
{
    const std::optional<c10::SymDimVector> strides = ElementwiseResultStrides(x, y, shape);
    return strides ? at::empty_strided_symint(shape, *strides, options) : at::empty_symint(shape, options);
}

double AlphaValue(const c10::Scalar& alpha)
{
    CheckRealScalar(kOp, "alpha", alpha);
    return alpha.toDouble();
}

void LaunchOnTwin(const VectorAddLaunch& l)
{
    const VectorAddPlan plan = ComputeVectorAddTiling(l.problem, l.dtype, TwinPlatform());
    if (plan.blockDim == 0) return;
    ascend_ext::LaunchOnTwin(kOp, l.dtype, plan.blockDim, {{"x", &l.full}, {"y", &l.bcast}, {"z", &l.z}}, plan.tiling);
}

at::Tensor RunCpu(VectorAddCall call)
{
    LaunchOnTwin(call.launch);
    if (call.copyBack) call.result.copy_(call.launch.z);
    return call.result;
}

}  // namespace

const at::Tensor& VectorAddDeviceOperand(const at::Tensor& x, const at::Tensor& y)
{
    if (!y.defined() || x.device() == y.device()) return x;
    if (IsCpuScalar(y)) return x;
    if (IsCpuScalar(x)) return y;
    CheckSameDevice(kOp, "x", x, "y", y);  // throws
    return x;
}

VectorAddCall PrepareVectorAdd(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& other,
                               const c10::Scalar& alpha, const at::Tensor& into)
{
    CheckTensor(kOp, "x", x);
    if (!y.defined()) CheckNumber(other);
    const double a = AlphaValue(alpha);
    const at::Tensor& anchor = VectorAddDeviceOperand(x, y);
    const at::ScalarType dtype = ResultType(x, y, other, anchor.is_privateuseone());
    const DType kernelDType = KernelDType(kOp, "the result", dtype, anchor.is_privateuseone());

    VectorAddCall call;
    if (into.defined()) {
        call.result = into;
        const bool direct = into.scalar_type() == dtype && into.is_non_overlapping_and_dense();
        call.copyBack = !direct;
        call.launch.z = direct ? into
                               : at::empty(into.sizes(), into.options().dtype(dtype).memory_format(
                                                             into.suggest_memory_format()));
    } else {
        const c10::SymDimVector shape = y.defined() ? BroadcastShape(kOp, "x", x, "y", y) : c10::SymDimVector(
                                                                                              x.sym_sizes().begin(),
                                                                                              x.sym_sizes().end());
        call.result = EmptyElementwise(x, y, shape, anchor.options().dtype(dtype));
        call.launch.z = call.result;
    }
    if (call.launch.z.numel() == 0) return call;
    call.launch = BuildLaunch(CastTo(x, dtype), y.defined() ? CastTo(y, dtype) : y, other, a, call.launch.z,
                              kernelDType);
    return call;
}

void CheckVectorAddInplace(const at::Tensor& self, const at::Tensor& y, const c10::Scalar& other)
{
    CheckTensor(kOp, "x", self);
    if (y.defined()) {
        const c10::SymDimVector shape = BroadcastShape(kOp, "x", self, "y", y);
        TORCH_CHECK_VALUE(self.sym_sizes().equals(shape), "ascend_ext.vector_add_: the result's shape ",
                          c10::SymIntArrayRef(shape), " differs from the shape ", self.sym_sizes(),
                          " of 'x', which the in-place form writes");
    } else {
        CheckNumber(other);
    }
    const at::ScalarType dtype = ResultType(self, y, other, VectorAddDeviceOperand(self, y).is_privateuseone());
    TORCH_CHECK_TYPE(c10::canCast(dtype, self.scalar_type()), "ascend_ext.vector_add_: the result type ",
                     DTypeString(dtype), " can't be cast to the dtype ", DTypeString(self.scalar_type()),
                     " of 'x', which the in-place form writes");
    at::assert_no_internal_overlap(self);
    if (y.defined()) at::assert_no_partial_overlap(self, y);
}

void PrepareVectorAddOut(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha, const at::Tensor& out)
{
    CheckTensor(kOp, "x", x);
    CheckTensor(kOp, "y", y);
    CheckTensor(kOp, "out", out);
    const at::Tensor& anchor = VectorAddDeviceOperand(x, y);
    TORCH_CHECK_VALUE(out.device() == anchor.device(), "ascend_ext.vector_add: argument 'out' is on ", out.device(),
                      "; expected ", anchor.device(), " like the inputs");
    const at::ScalarType dtype = ResultType(x, y, c10::Scalar(), anchor.is_privateuseone());
    TORCH_CHECK_TYPE(c10::canCast(dtype, out.scalar_type()), "ascend_ext.vector_add: the result type ",
                     DTypeString(dtype), " can't be cast to the dtype ", DTypeString(out.scalar_type()),
                     " of argument 'out'");
    AlphaValue(alpha);
    const c10::SymDimVector shape = BroadcastShape(kOp, "x", x, "y", y);
    at::native::resize_output_symint(out, shape);
    at::assert_no_internal_overlap(out);
    at::assert_no_partial_overlap(out, x);
    at::assert_no_partial_overlap(out, y);
}

// ---- CPU: the kernel on the twin ----------------------------------------------------------------------

at::Tensor vector_add_cpu(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha)
{
    CheckTensor(kOp, "y", y);
    return RunCpu(PrepareVectorAdd(x, y, c10::Scalar(), alpha, at::Tensor()));
}

at::Tensor vector_add_scalar_cpu(const at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha)
{
    return RunCpu(PrepareVectorAdd(x, at::Tensor(), y, alpha, at::Tensor()));
}

at::Tensor& vector_add_out_cpu(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha, at::Tensor& out)
{
    PrepareVectorAddOut(x, y, alpha, out);
    RunCpu(PrepareVectorAdd(x, y, c10::Scalar(), alpha, out));
    return out;
}

at::Tensor& vector_add__cpu(at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha)
{
    CheckVectorAddInplace(x, y, c10::Scalar());
    RunCpu(PrepareVectorAdd(x, y, c10::Scalar(), alpha, x));
    return x;
}

at::Tensor& vector_add__scalar_cpu(at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha)
{
    CheckVectorAddInplace(x, at::Tensor(), y);
    RunCpu(PrepareVectorAdd(x, at::Tensor(), y, alpha, x));
    return x;
}

// ---- Meta (fake tensors, torch.compile): shapes, dtypes and strides only ------------------------------

namespace {
at::Tensor EmptyResult(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& other, const c10::Scalar& alpha)
{
    CheckTensor(kOp, "x", x);
    if (!y.defined()) CheckNumber(other);
    AlphaValue(alpha);
    const at::Tensor& anchor = VectorAddDeviceOperand(x, y);
    const at::ScalarType dtype = ResultType(x, y, other, anchor.is_privateuseone());
    const c10::SymDimVector shape = y.defined() ? BroadcastShape(kOp, "x", x, "y", y)
                                                : c10::SymDimVector(x.sym_sizes().begin(), x.sym_sizes().end());
    return EmptyElementwise(x, y, shape, anchor.options().dtype(dtype));
}
}  // namespace

at::Tensor vector_add_meta(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha)
{
    CheckTensor(kOp, "y", y);
    return EmptyResult(x, y, c10::Scalar(), alpha);
}

at::Tensor vector_add_scalar_meta(const at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha)
{
    return EmptyResult(x, at::Tensor(), y, alpha);
}

at::Tensor& vector_add_out_meta(const at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha, at::Tensor& out)
{
    PrepareVectorAddOut(x, y, alpha, out);
    return out;
}

at::Tensor& vector_add__meta(at::Tensor& x, const at::Tensor& y, const c10::Scalar& alpha)
{
    CheckVectorAddInplace(x, y, c10::Scalar());
    AlphaValue(alpha);
    return x;
}

at::Tensor& vector_add__scalar_meta(at::Tensor& x, const c10::Scalar& y, const c10::Scalar& alpha)
{
    CheckVectorAddInplace(x, at::Tensor(), y);
    AlphaValue(alpha);
    return x;
}

}  // namespace ascend_ext

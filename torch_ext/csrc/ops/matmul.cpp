// matmul: checks, layouts and empty shapes shared by all devices; the CPU (twin) and Meta implementations;
// the autocast rule (runs in the autocast dtype).
#include "ops/matmul.h"

#include <ATen/autocast_mode.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <c10/core/SymBool.h>

#include <map>
#include <mutex>
#include <tuple>

#include "common.h"
#include "twin_launch.h"

namespace ascend_ext {

namespace {

constexpr const char* kOp = "matmul";

const char* Flag(bool t) { return t ? "True" : "False"; }

}  // namespace

c10::SymDimVector CheckMatmulArgs(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                                  const std::optional<at::Tensor>& bias)
{
    CheckTensor(kOp, "a", a);
    CheckTensor(kOp, "b", b);
    TORCH_CHECK_VALUE(a.dim() == 2, "ascend_ext.matmul: argument 'a' must be 2-D, got ", a.dim(),
                      "-D of shape ", a.sym_sizes(), " (use reshape for batches, or ascend_ext.nn.Linear)");
    TORCH_CHECK_VALUE(b.dim() == 2, "ascend_ext.matmul: argument 'b' must be 2-D, got ", b.dim(), "-D of shape ",
                      b.sym_sizes());
    CheckSameDevice(kOp, "a", a, "b", b);
    KernelDType(kOp, "a", a);  // float64 only on the CPU twin (its float64 build of the kernel)
    CheckSameDType(kOp, "a", a, "b", b);
    const c10::SymInt m = a.sym_size(transA ? 1 : 0);
    const c10::SymInt ka = a.sym_size(transA ? 0 : 1);
    const c10::SymInt kb = b.sym_size(transB ? 1 : 0);
    const c10::SymInt n = b.sym_size(transB ? 0 : 1);
    if (ka.is_heap_allocated() || kb.is_heap_allocated()) {
        TORCH_SYM_CHECK(ka.sym_eq(kb), "ascend_ext.matmul: op(a) is ", m, "x", ka, " and op(b) is ", kb, "x", n,
                        ": the inner dimensions must match (trans_a=", Flag(transA), ", trans_b=", Flag(transB), ")");
    } else {
        TORCH_CHECK_VALUE(ka == kb, "ascend_ext.matmul: op(a) is ", m, "x", ka, " and op(b) is ", kb, "x", n,
                          ": the inner dimensions must match (trans_a=", Flag(transA), ", trans_b=", Flag(transB),
                          ")");
    }
    if (bias.has_value() && bias->defined()) {
        const at::Tensor& c = *bias;
        TORCH_CHECK_VALUE(c.dim() == 1, "ascend_ext.matmul: argument 'bias' must be 1-D of length N=", n, ", got shape ",
                          c.sym_sizes());
        TORCH_CHECK_VALUE(TORCH_GUARD_OR_TRUE(c.sym_size(0).sym_eq(n)), "ascend_ext.matmul: argument 'bias' has length ",
                          c.sym_size(0), "; expected N=", n);
        CheckSameDType(kOp, "a", a, "bias", c);
        CheckSameDevice(kOp, "a", a, "bias", c);
    }
    return {m, n};
}

MatmulLaunch PrepareMatmul(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                           const std::optional<at::Tensor>& bias)
{
    const c10::SymDimVector shape = CheckMatmulArgs(a, b, transA, transB, bias);
    MatmulLaunch l;
    l.dtype = KernelDType(kOp, "a", a);
    l.m = static_cast<uint64_t>(shape[0].expect_int());
    l.n = static_cast<uint64_t>(shape[1].expect_int());
    l.k = static_cast<uint64_t>(a.size(transA ? 0 : 1));
    const bool hasBias = bias.has_value() && bias->defined();
    if (l.m == 0 || l.n == 0 || l.k == 0) {
        // No cube work: an empty result, or (K = 0) the bias broadcast over the rows, as torch gives.
        l.c = hasBias && l.m > 0 && l.n > 0 ? bias->expand({static_cast<int64_t>(l.m), static_cast<int64_t>(l.n)})
                                                  .contiguous()
                                            : at::zeros({static_cast<int64_t>(l.m), static_cast<int64_t>(l.n)},
                                                        a.options());
        return l;
    }
    // The kernel reads row-major operands; a transposed view is the other flag on its contiguous base.
    auto asStored = [](const at::Tensor& t, bool& trans) {
        if (t.is_contiguous()) return t;
        if (t.t().is_contiguous()) {
            trans = !trans;
            return t.t();
        }
        return t.contiguous();
    };
    l.transA = transA;
    l.transB = transB;
    l.a = asStored(a, l.transA);
    l.b = asStored(b, l.transB);
    // The A2 Matmul adds a float32 bias in L0C; the twin's float64 build a double one.
    if (hasBias) l.bias = bias->to(l.dtype == DType::kFloat64 ? at::kDouble : at::kFloat).contiguous();
    const MatmulDecoded decoded =
        DecodeMatmulProblem(l.a.sizes().data(), l.a.dim(), l.b.sizes().data(), l.b.dim(), l.transA, l.transB,
                            hasBias ? l.bias.sizes().data() : nullptr, hasBias ? l.bias.dim() : 0);
    TORCH_INTERNAL_ASSERT(decoded.error == nullptr, "ascend_ext.matmul: ", decoded.error);
    TORCH_INTERNAL_ASSERT(decoded.problem.m == l.m && decoded.problem.n == l.n && decoded.problem.k == l.k);
    l.problem = decoded.problem;
    l.c = at::empty({static_cast<int64_t>(l.m), static_cast<int64_t>(l.n)}, a.options());
    l.needsKernel = true;
    return l;
}

// The tiling is a pure function of the problem, the dtype and the platform, and a model's layers ask for the
// same few shapes every step: plans are kept per key (the cache starts over past 512 keys).
static MatmulPlan CachedMatmulTiling(const MatmulProblem& p, DType dtype, const PlatformInfo& platform)
{
    using Key = std::tuple<uint64_t, uint64_t, uint64_t, bool, bool, bool, int, const PlatformInfo*>;
    static std::mutex mutex;
    static std::map<Key, MatmulPlan> plans;
    const Key key{p.m, p.n, p.k, p.transA, p.transB, p.hasBias, static_cast<int>(dtype), &platform};
    {
        std::lock_guard<std::mutex> lock(mutex);
        const auto it = plans.find(key);
        if (it != plans.end()) return it->second;
    }
    const MatmulPlan plan = ComputeMatmulTiling(p, dtype, platform);
    std::lock_guard<std::mutex> lock(mutex);
    if (plans.size() >= 512) plans.clear();
    plans.emplace(key, plan);
    return plan;
}

at::Tensor matmul_cpu(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                      const std::optional<at::Tensor>& bias)
{
    MatmulLaunch l = PrepareMatmul(a, b, transA, transB, bias);
    if (!l.needsKernel) return l.c;
    const MatmulPlan plan = CachedMatmulTiling(l.problem, l.dtype, TwinPlatform());
    TORCH_CHECK_VALUE(plan.unsupported == nullptr, "ascend_ext.matmul: ", l.m, "x", l.k, " @ ", l.k, "x", l.n,
                      " cannot be tiled: ", plan.unsupported);
    LaunchOnTwin("matmul_cube", l.dtype, plan.blockDim, {{"a", &l.a}, {"b", &l.b}, {"bias", &l.bias}, {"c", &l.c}},
                 plan.tiling);
    return l.c;
}

at::Tensor matmul_meta(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                       const std::optional<at::Tensor>& bias)
{
    const c10::SymDimVector shape = CheckMatmulArgs(a, b, transA, transB, bias);
    return at::empty_symint(shape, a.options());
}

// matmul runs in the autocast dtype (like torch.mm): a, b and bias are cast to it.
template <c10::DeviceType Device>
at::Tensor matmul_autocast(const at::Tensor& a, const at::Tensor& b, bool transA, bool transB,
                           const std::optional<at::Tensor>& bias)
{
    c10::impl::ExcludeDispatchKeyGuard noAutocast(c10::autocast_dispatch_keyset);
    static const auto op = c10::Dispatcher::singleton()
                               .findSchemaOrThrow("ascend_ext::matmul", "")
                               .typed<at::Tensor(const at::Tensor&, const at::Tensor&, bool, bool,
                                                 const std::optional<at::Tensor>&)>();
    const at::ScalarType dtype = at::autocast::get_autocast_dtype(Device);
    std::optional<at::Tensor> castBias;
    if (bias.has_value() && bias->defined()) castBias = at::autocast::cached_cast(dtype, *bias, Device);
    return op.call(at::autocast::cached_cast(dtype, a, Device), at::autocast::cached_cast(dtype, b, Device), transA,
                   transB, castBias);
}

template at::Tensor matmul_autocast<c10::DeviceType::CPU>(const at::Tensor&, const at::Tensor&, bool, bool,
                                                          const std::optional<at::Tensor>&);
template at::Tensor matmul_autocast<c10::DeviceType::PrivateUse1>(const at::Tensor&, const at::Tensor&, bool, bool,
                                                                  const std::optional<at::Tensor>&);

}  // namespace ascend_ext

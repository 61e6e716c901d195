#include "common.h"

#include <cstdlib>
#include <mutex>

namespace ascend_ext {

namespace {
// The dtype as Python spells it (torch.float32, not Float).
std::string DTypeString(at::ScalarType t)
{
    switch (t) {
        case at::kFloat: return "torch.float32";
        case at::kHalf: return "torch.float16";
        case at::kBFloat16: return "torch.bfloat16";
        case at::kDouble: return "torch.float64";
        case at::kInt: return "torch.int32";
        case at::kLong: return "torch.int64";
        case at::kShort: return "torch.int16";
        case at::kChar: return "torch.int8";
        case at::kByte: return "torch.uint8";
        case at::kBool: return "torch.bool";
        case at::kComplexFloat: return "torch.complex64";
        case at::kComplexDouble: return "torch.complex128";
        default: return std::string("torch.") + c10::toString(t);
    }
}
}  // namespace

void CheckTensor(const char* op, const char* arg, const at::Tensor& t)
{
    TORCH_CHECK_TYPE(t.defined(), "ascend_ext.", op, ": argument '", arg, "' must be a tensor, got None");
}

DType KernelDType(const char* op, const char* arg, const at::Tensor& t)
{
    switch (t.scalar_type()) {
        case at::kFloat: return DType::kFloat32;
        case at::kHalf: return DType::kFloat16;
        case at::kBFloat16: return DType::kBFloat16;
        case at::kDouble:
            if (!t.is_privateuseone()) return DType::kFloat64;
            [[fallthrough]];
        default:
            TORCH_CHECK_TYPE(false, "ascend_ext.", op, ": argument '", arg, "' has dtype ",
                             DTypeString(t.scalar_type()),
                             "; expected torch.float32, torch.float16 or torch.bfloat16",
                             t.is_privateuseone() ? "" : " (or torch.float64 on the CPU twin)");
    }
}

void CheckSameDType(const char* op, const char* argA, const at::Tensor& a, const char* argB, const at::Tensor& b)
{
    TORCH_CHECK_TYPE(a.scalar_type() == b.scalar_type(), "ascend_ext.", op, ": arguments '", argA, "' and '", argB,
                     "' must have the same dtype, got ", DTypeString(a.scalar_type()), " and ",
                     DTypeString(b.scalar_type()));
}

void CheckSameDevice(const char* op, const char* argA, const at::Tensor& a, const char* argB, const at::Tensor& b)
{
    TORCH_CHECK_VALUE(a.device() == b.device(), "ascend_ext.", op, ": arguments '", argA, "' and '", argB,
                      "' must be on the same device, got ", a.device(), " and ", b.device());
}

c10::SymDimVector BroadcastShape(const char* op, const char* argA, const at::Tensor& a, const char* argB,
                                 const at::Tensor& b)
{
    const c10::SymIntArrayRef sa = a.sym_sizes();
    const c10::SymIntArrayRef sb = b.sym_sizes();
    const size_t ndim = std::max(sa.size(), sb.size());
    c10::SymDimVector out(ndim);
    for (size_t i = 0; i < ndim; ++i) {
        const bool hasA = i < sa.size();
        const bool hasB = i < sb.size();
        const c10::SymInt da = hasA ? sa[sa.size() - 1 - i] : c10::SymInt(1);
        const c10::SymInt db = hasB ? sb[sb.size() - 1 - i] : c10::SymInt(1);
        const bool ok = TORCH_GUARD_OR_FALSE(da.sym_eq(db)) || TORCH_GUARD_OR_FALSE(da.sym_eq(1)) ||
                        TORCH_GUARD_OR_FALSE(db.sym_eq(1));
        TORCH_CHECK_VALUE(ok, "ascend_ext.", op, ": shapes of '", argA, "' ", sa, " and '", argB, "' ", sb,
                          " do not broadcast (dimension ", static_cast<int64_t>(ndim - 1 - i), " from the end: ", da,
                          " vs ", db, ")");
        out[ndim - 1 - i] = TORCH_GUARD_OR_FALSE(da.sym_eq(1)) ? db : da;
    }
    return out;
}

namespace {
std::mutex gPlatformMutex;
const PlatformInfo* gPlatform = nullptr;
}  // namespace

const PlatformInfo& TwinPlatform()
{
    std::lock_guard<std::mutex> lock(gPlatformMutex);
    if (gPlatform == nullptr) {
        const char* env = std::getenv("ASCEND_EXT_TWIN_PLATFORM");
        gPlatform = env != nullptr ? FindPlatform(env) : &kAscend910B2;
        TORCH_CHECK_VALUE(gPlatform != nullptr, "ascend_ext: ASCEND_EXT_TWIN_PLATFORM='", env,
                          "' is not a known platform (Ascend910B2, Ascend910B3)");
    }
    return *gPlatform;
}

bool SetTwinPlatform(const char* name)
{
    const PlatformInfo* p = FindPlatform(name);
    if (p == nullptr) return false;
    std::lock_guard<std::mutex> lock(gPlatformMutex);
    gPlatform = p;
    return true;
}

}  // namespace ascend_ext

#include "common.h"

#include <c10/core/SymBool.h>

#include <atomic>
#include <cstdlib>

namespace ascend_ext {

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

void CheckTensor(const char* op, const char* arg, const at::Tensor& t)
{
    TORCH_CHECK_TYPE(t.defined(), "ascend_ext.", op, ": argument '", arg, "' must be a tensor, got None");
}

DType KernelDType(const char* op, const std::string& what, at::ScalarType t, bool onNpu)
{
    switch (t) {
        case at::kFloat: return DType::kFloat32;
        case at::kHalf: return DType::kFloat16;
        case at::kBFloat16: return DType::kBFloat16;
        case at::kDouble:
            if (!onNpu) return DType::kFloat64;
            [[fallthrough]];
        default:
            TORCH_CHECK_TYPE(false, "ascend_ext.", op, ": ", what, " has dtype ", DTypeString(t),
                             "; expected torch.float32, torch.float16 or torch.bfloat16",
                             onNpu ? "" : " (or torch.float64 on the CPU twin)");
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

void CheckRealScalar(const char* op, const char* arg, const c10::Scalar& s)
{
    TORCH_CHECK_TYPE(!s.isComplex() && !s.isBoolean(), "ascend_ext.", op, ": argument '", arg,
                     "' must be a real number, got ", s.isComplex() ? "a complex number" : "a bool");
}

c10::SymDimVector BroadcastShape(const char* op, const char* argA, const at::Tensor& a, const char* argB,
                                 const at::Tensor& b)
{
    const c10::SymIntArrayRef sa = a.sym_sizes();
    const c10::SymIntArrayRef sb = b.sym_sizes();
    const size_t ndim = std::max(sa.size(), sb.size());
    c10::SymDimVector out(ndim);
    for (size_t i = 0; i < ndim; ++i) {
        const c10::SymInt& da = i < sa.size() ? sa[sa.size() - 1 - i] : c10::SymInt(1);
        const c10::SymInt& db = i < sb.size() ? sb[sb.size() - 1 - i] : c10::SymInt(1);
        c10::SymInt& o = out[ndim - 1 - i];
        if (TORCH_GUARD_OR_FALSE(da.sym_eq(1))) {
            o = db;
        } else if (TORCH_GUARD_OR_FALSE(db.sym_eq(1))) {
            o = da;
        } else {
            if (da.is_heap_allocated() || db.is_heap_allocated()) {
                TORCH_SYM_CHECK(da.sym_eq(db), "ascend_ext.", op, ": shapes of '", argA, "' ", sa, " and '", argB,
                                "' ", sb, " do not broadcast (dimension ", static_cast<int64_t>(ndim - 1 - i),
                                " from the end: ", da, " vs ", db, ")");
            } else {
                TORCH_CHECK_VALUE(da == db, "ascend_ext.", op, ": shapes of '", argA, "' ", sa, " and '", argB, "' ",
                                  sb, " do not broadcast (dimension ", static_cast<int64_t>(ndim - 1 - i),
                                  " from the end: ", da, " vs ", db, ")");
            }
            o = da;
        }
    }
    return out;
}

namespace {
bool SameSizes(c10::SymIntArrayRef a, c10::SymIntArrayRef b)
{
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (!TORCH_GUARD_OR_FALSE(a[i].sym_eq(b[i]))) return false;
    }
    return true;
}
}  // namespace


namespace {

// Stride of t along output dimension d of an ndim-dimensional result of `shape` (0 where t is broadcast).
c10::SymInt AlignedStride(const at::Tensor& t, size_t d, c10::SymIntArrayRef shape)
{
    const int64_t off = static_cast<int64_t>(shape.size()) - t.dim();
    const int64_t td = static_cast<int64_t>(d) - off;
    if (td < 0) return 0;
    if (TORCH_GUARD_OR_FALSE(t.sym_size(td).sym_eq(1)) && !TORCH_GUARD_OR_FALSE(shape[d].sym_eq(1))) return 0;
    return t.sym_stride(td);
}

bool AllSameShape(std::initializer_list<const at::Tensor*> ts, c10::SymIntArrayRef shape)
{
    for (const at::Tensor* t : ts) {
        if (t->defined() && !SameSizes(t->sym_sizes(), shape)) return false;
    }
    return true;
}

}  // namespace

std::optional<c10::SymDimVector> ElementwiseResultStrides(const at::Tensor& a, const at::Tensor& b,
                                                         c10::SymIntArrayRef shape)
{
    const size_t ndim = shape.size();
    if (ndim <= 1) return std::nullopt;
    // TensorIterator's fast set-up: operands of the result's shape that share a layout give it to the result.
    if (AllSameShape({&a, &b}, shape)) {
        const bool bDefined = b.defined();
        if (a.is_contiguous_or_false() && (!bDefined || b.is_contiguous_or_false())) return std::nullopt;
        for (at::MemoryFormat f : {at::MemoryFormat::ChannelsLast, at::MemoryFormat::ChannelsLast3d}) {
            if ((f == at::MemoryFormat::ChannelsLast ? ndim == 4 : ndim == 5) && a.is_contiguous_or_false(f) &&
                (!bDefined || b.is_contiguous_or_false(f))) {
                return c10::SymDimVector(a.sym_strides().begin(), a.sym_strides().end());
            }
        }
        if (a.is_non_overlapping_and_dense() && (!bDefined || (b.is_non_overlapping_and_dense() &&
                                                               a.sym_strides().equals(b.sym_strides())))) {
            return c10::SymDimVector(a.sym_strides().begin(), a.sym_strides().end());
        }
    }
    // Otherwise the dimension order TensorIterator derives from the operands' strides (first operand first;
    // broadcast dimensions abstain; equal strides put the smaller size inside), innermost first.
    std::vector<size_t> perm(ndim);
    for (size_t i = 0; i < ndim; ++i) perm[i] = ndim - 1 - i;
    auto shouldSwap = [&](size_t d0, size_t d1) -> int {
        for (const at::Tensor* t : {&a, &b}) {
            if (!t->defined()) continue;
            const c10::SymInt s0 = AlignedStride(*t, d0, shape);
            const c10::SymInt s1 = AlignedStride(*t, d1, shape);
            if (TORCH_GUARD_OR_FALSE(s0.sym_eq(0)) || TORCH_GUARD_OR_FALSE(s1.sym_eq(0))) continue;
            if (TORCH_GUARD_OR_FALSE(s0.sym_lt(s1))) return -1;
            if (TORCH_GUARD_OR_FALSE(s0.sym_gt(s1))) return 1;
            if (TORCH_GUARD_OR_FALSE(shape[d0].sym_gt(shape[d1]))) return 1;
        }
        return 0;
    };
    for (size_t i = 1; i < ndim; ++i) {
        size_t d1 = i;
        for (size_t d0 = i; d0-- > 0;) {
            const int c = shouldSwap(perm[d0], perm[d1]);
            if (c > 0) {
                std::swap(perm[d0], perm[d1]);
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
    bool inverted = true;
    for (size_t i = 0; i < ndim; ++i) inverted = inverted && perm[i] == ndim - 1 - i;
    if (inverted) return std::nullopt;
    c10::SymDimVector strides(ndim);
    c10::SymInt next = 1;
    for (size_t i = 0; i < ndim; ++i) {
        strides[perm[i]] = next;
        const c10::SymInt& size = shape[perm[i]];
        next = TORCH_GUARD_OR_FALSE(size.sym_eq(0)) ? next : next * size;
    }
    return strides;
}

namespace {
std::atomic<const PlatformInfo*> gPlatform{nullptr};  // read on every CPU call: no lock on that path
}  // namespace

const PlatformInfo& TwinPlatform()
{
    const PlatformInfo* p = gPlatform.load(std::memory_order_acquire);
    if (p != nullptr) return *p;
    const char* env = std::getenv("ASCEND_EXT_TWIN_PLATFORM");
    const PlatformInfo* found = env != nullptr ? FindPlatform(env) : &kAscend910B2;
    TORCH_CHECK_VALUE(found != nullptr, "ascend_ext: ASCEND_EXT_TWIN_PLATFORM='", env,
                      "' is not a known platform (Ascend910B2, Ascend910B3)");
    const PlatformInfo* expected = nullptr;
    gPlatform.compare_exchange_strong(expected, found);  // a concurrent set_platform wins
    return *gPlatform.load(std::memory_order_acquire);
}

bool SetTwinPlatform(const char* name)
{
    const PlatformInfo* p = FindPlatform(name);
    if (p == nullptr) return false;
    gPlatform.store(p, std::memory_order_release);
    return true;
}

}  // namespace ascend_ext

// GlobalTensor and LocalTensor, and the logical positions buffers live in.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_shape_info.h"
#include "twin/kernel_types.h"
#include "twin/runtime.h"

namespace ascend_twin {
// How an element type is named in messages about GM bindings.
template <typename T>
constexpr const char* GmTypeName()
{
    if constexpr (std::is_same_v<T, half>) return "half";
    else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
    else if constexpr (std::is_same_v<T, float>) return "float";
    else if constexpr (std::is_same_v<T, double>) return "double";
    else if constexpr (std::is_same_v<T, bool>) return "bool";
    else if constexpr (std::is_integral_v<T>) {
        constexpr const char* kSigned[] = {"", "int8_t", "int16_t", "", "int32_t", "", "", "", "int64_t"};
        constexpr const char* kUnsigned[] = {"", "uint8_t", "uint16_t", "", "uint32_t", "", "", "", "uint64_t"};
        return std::is_signed_v<T> ? kSigned[sizeof(T)] : kUnsigned[sizeof(T)];
    } else return "T";
}
}  // namespace ascend_twin

namespace AscendC {

enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;
using TEventID = int8_t;  // an event id, as TPipe::AllocEventID/FetchEventID return it (kernel_tensor_base.h)

// L2 cache hints of GM accesses (impl/basic_api/utils/kernel_utils_macros.h).
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };

template <typename T>
class LocalTensor;
template <typename T>
class SymbolOverrideAdd;
template <typename T>
class SymbolOverrideSub;
template <typename T>
class SymbolOverrideMul;
template <typename T>
class SymbolOverrideDiv;
template <typename T>
class SymbolOverrideOr;
template <typename T>
class SymbolOverrideAnd;
template <typename T>
class SymbolOverrideCompare;

namespace twin_detail {
// Checks a static tensor's place (LocalTensor(pos, addr, tileSize)) and returns its UB memory: no fresh
// range (other tensors may view the same bytes), so nothing is poisoned or forgotten.
uint8_t* StaticUbTensor(const char* call, TPosition pos, uint32_t addr, uint64_t bytes);

// Identifies the queue buffer a LocalTensor came from, so EnQue/FreeTensor can check its state.
struct BufferRef {
    const void* owner = nullptr;  // the TQue/TBuf that handed the tensor out
    int32_t slot = -1;
};
}  // namespace twin_detail

}  // namespace AscendC

namespace ascend_twin::internal {

// The twin's own state of the API objects (a tensor's address and buffer, a queue's set-up, a TPipe's UB
// end) is in members the Ascend C API does not have. They are private, so that a kernel calling one fails
// to compile here as it would on CANN; the twin's headers reach them through Access (a friend of each
// class), and through the AscendC::twin_detail functions below.
struct Access {
    template <class X>
    static auto Data(const X& x)
    {
        return x.TwinData();
    }
    template <class X>
    static auto Int4Bytes(const X& x)
    {
        return x.TwinInt4Bytes();
    }
    template <class X>
    static auto Position(const X& x)
    {
        return x.TwinPosition();
    }
    template <class X>
    static const auto& Ref(const X& x)
    {
        return x.TwinRef();
    }
    template <class X, class... Args>
    static void Bind(X& x, Args&&... args)
    {
        x.TwinBind(static_cast<Args&&>(args)...);
    }
    template <class X, class... Args>
    static auto Init(X& x, Args&&... args)
    {
        return x.TwinInit(static_cast<Args&&>(args)...);
    }
    template <class X>
    static auto& Resources(X& x)
    {
        return x.TwinResources();
    }
    template <class X, class... Args>
    static void PoolReset(X& x, Args&&... args)
    {
        x.TwinPoolReset(static_cast<Args&&>(args)...);
    }
    template <class X, class... Args>
    static void InitPool(X& x, Args&&... args)
    {
        x.TwinInitPool(static_cast<Args&&>(args)...);
    }
    template <class X, class... Args>
    static void ShareWith(X& x, Args&&... args)
    {
        x.TwinShareWith(static_cast<Args&&>(args)...);
    }
    template <class X>
    static auto& ExternPool(X& x)
    {
        return x.TwinExternPool();
    }
};

}  // namespace ascend_twin::internal

namespace AscendC::twin_detail {

template <class X>
inline auto TwinData(const X& x)
{
    return ascend_twin::internal::Access::Data(x);
}
// The UB address of a LocalTensor's first element, for the twin's own calls (GetPhyAddr is the kernel's: it
// hands out a raw pointer, which the twin counts as a scalar write).
template <class X>
inline uint64_t UbAddress(const X& x)
{
    return ascend_twin::UbOffset(ascend_twin::internal::Access::Data(x));
}
template <class X>
inline TPosition TwinPosition(const X& x)
{
    return ascend_twin::internal::Access::Position(x);
}
template <class X>
inline const BufferRef& TwinRef(const X& x)
{
    return ascend_twin::internal::Access::Ref(x);
}
// Binds a tensor to UB: size in elements (int4b_t: in bytes, as the device's buffers count them).
template <typename T>
inline void TwinBind(LocalTensor<T>& t, T* data, uint32_t size, TPosition position, BufferRef ref)
{
    ascend_twin::internal::Access::Bind(t, data, size, position, ref);
}
template <class X, class... Args>
inline auto TwinInit(X& x, Args&&... args)
{
    return ascend_twin::internal::Access::Init(x, static_cast<Args&&>(args)...);
}

}  // namespace AscendC::twin_detail

namespace AscendC {

// A view of global memory (int4b_t: twin/kernel_int4.h). Bounds are not checked by the tensor itself (the hardware
// does not either); every DataCopy/GetValue/SetValue checks the access against the launch's buffers.
template <typename T>
class GlobalTensor {
public:
    using PrimType = T;

    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize)
    {
        ascend_twin::CheckGmBinding("GlobalTensor::SetGlobalBuffer", buffer, sizeof(T), ascend_twin::GmTypeName<T>());
        address_ = buffer;
        size_ = bufferSize;
    }
    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer) { SetGlobalBuffer(buffer, 0); }

    __aicore__ inline const __gm__ T* GetPhyAddr() const { return address_; }
    __aicore__ inline __gm__ T* GetPhyAddr(const uint64_t offset) const { return address_ + offset; }
    __aicore__ inline uint64_t GetSize() const { return size_; }

    __aicore__ inline GlobalTensor operator[](const uint64_t offset) const
    {
        GlobalTensor view = *this;  // like the device API: the address moves, the recorded size does not
        view.address_ = address_ + offset;
        return view;
    }

    // The L2 cache policy of this tensor's accesses. On A2 it changes where the data is cached, never what is
    // read or written (the twin has no L2, so it only records the mode).
    template <CacheRwMode rwMode = CacheRwMode::RW>
    __aicore__ inline void SetL2CacheHint(CacheMode mode)
    {
        cacheMode_ = mode;
    }

    __aicore__ inline T GetValue(const uint64_t offset) const
    {
        T value;
        ascend_twin::ScalarGmRead("GlobalTensor::GetValue", address_ + offset, sizeof(T), &value);
        return value;
    }
    __aicore__ inline void SetValue(const uint64_t offset, const T value)
    {
        ascend_twin::ScalarGmWrite("GlobalTensor::SetValue", address_ + offset, sizeof(T));
        address_[offset] = value;
    }

    CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;  // public, as in the real GlobalTensor

    // The shape the tensor carries (A2: shapeInfo_; kernel_tensor_impl.h sets and returns it as is).
    __aicore__ inline void SetShapeInfo(const ShapeInfo& shapeInfo) { shapeInfo_ = shapeInfo; }
    __aicore__ inline ShapeInfo GetShapeInfo() const { return shapeInfo_; }
    ShapeInfo shapeInfo_;

private:
    friend struct ascend_twin::internal::Access;
    T* TwinData() const { return address_; }  // for the data movement functions

    T* address_ = nullptr;
    uint64_t size_ = 0;
};

// A view of on-chip memory (UB on vector cores). Lengths are in elements.
template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    LocalTensor() = default;

    // Static tensor programming: tileSize elements at byte address addr of the position's memory (UB for
    // VECIN/VECOUT/VECCALC; on a cube core L1 for A1/B1/C1, L0A for A2, L0B for B2, L0C for CO1, BT for C2).
    // addr is 32-byte aligned and the tensor lies inside the memory (LocalTensor constructor docs); the cube
    // instructions check their operands' alignment in L0 as for queue buffers.
    __aicore__ inline LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize)
    {
        uint8_t* mem = twin_detail::StaticUbTensor("LocalTensor(pos, addr, tileSize)", pos, addr,
                                                   static_cast<uint64_t>(tileSize) * sizeof(T));
        TwinBind(reinterpret_cast<T*>(mem), tileSize, pos, {});
    }

    // The operator forms of the whole-tensor instructions: dst = src0 + src1 is Add(dst, src0, src1,
    // dst.GetSize()), and so on; dst = src0 < src1 is Compare over src0.GetSize() elements (A2: half and
    // float operands). Defined in twin/kernel_symbol_override.h.
    __aicore__ inline SymbolOverrideAdd<T> operator+(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideSub<T> operator-(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideMul<T> operator*(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideDiv<T> operator/(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideOr<T> operator|(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideAnd<T> operator&(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator<(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator>(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator!=(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator==(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator<=(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator>=(const LocalTensor<T>& src1) const;
    LocalTensor(const LocalTensor&) = default;
    LocalTensor& operator=(const LocalTensor&) = default;
    __aicore__ inline void operator=(const SymbolOverrideAdd<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideSub<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideMul<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideDiv<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideOr<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideAnd<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideCompare<float>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideCompare<half>& symbolOverride);

    __aicore__ inline LocalTensor operator[](const uint32_t offset) const
    {
        if (offset > size_) {
            ascend_twin::FailF("LocalTensor::operator[]", "LocalTensor offsets stay inside the tensor",
                               "offset %u of a tensor of %u elements", offset, size_);
        }
        LocalTensor view = *this;  // keeps the buffer handle: EnQue/FreeTensor of a view act on its buffer
        view.data_ += offset;
        view.size_ -= offset;
        return view;
    }

    __aicore__ inline uint32_t GetSize() const { return size_; }
    __aicore__ inline uint32_t GetLength() const { return size_ * sizeof(T); }
    __aicore__ inline void SetSize(const uint32_t size)
    {
        if (size > capacity_) {
            ascend_twin::FailF("LocalTensor::SetSize", "a LocalTensor cannot grow past its buffer",
                               "%u elements asked, the buffer holds %u", size, capacity_);
        }
        size_ = size;
    }
    __aicore__ inline int32_t GetPosition() const { return static_cast<int32_t>(position_); }
    // The element's address, of the type the API returns (PrimType*); A2's debug build asserts that the offset
    // lies inside the tensor. A core's UB (and a cube core's L1) starts at a 4 GiB boundary on the twin, so the
    // pointer's low 32 bits are the device's address of the element (UB and L1 addresses start at 0): a
    // `(uint32_t)` cast, an alignment test or a static tensor built from it see the device's numbers.
    // Accesses through the pointer are beyond the twin's view: it takes the call as the scalar unit writing
    // the tensor from that element on (as operator()), so initcheck and the hazard detector see those bytes
    // written then and nothing of the accesses themselves (docs/twin.md, "Raw pointers").
    __aicore__ inline T* GetPhyAddr() const { return GetPhyAddr(0); }
    __aicore__ inline T* GetPhyAddr(const uint32_t offset) const
    {
        CheckIndex("LocalTensor::GetPhyAddr", offset);
        ascend_twin::RawUbPointer("LocalTensor::GetPhyAddr", data_ + offset, (size_ - offset) * sizeof(T));
        return data_ + offset;
    }

    __aicore__ inline T GetValue(const uint32_t index) const
    {
        CheckIndex("LocalTensor::GetValue", index);
        ascend_twin::Instr("LocalTensor::GetValue", ascend_twin::Pipe::kS).Read("tensor", data_ + index, sizeof(T));
        return data_[index];
    }
    __aicore__ inline void SetValue(const uint32_t index, const T value) const
    {
        CheckIndex("LocalTensor::SetValue", index);
        ascend_twin::Instr("LocalTensor::SetValue", ascend_twin::Pipe::kS).Write("tensor", data_ + index, sizeof(T));
        data_[index] = value;
    }
    __aicore__ inline T& operator()(const uint32_t index) const
    {
        CheckIndex("LocalTensor::operator()", index);
        // A reference the scalar unit may read or write: checked as a write (initcheck cannot tell).
        ascend_twin::Instr("LocalTensor::operator()", ascend_twin::Pipe::kS).Write("tensor", data_ + index, sizeof(T));
        return data_[index];
    }

    template <typename CAST_T>
    __aicore__ inline LocalTensor<CAST_T> ReinterpretCast() const
    {
        LocalTensor<CAST_T> out;
        twin_detail::TwinBind(out, reinterpret_cast<CAST_T*>(data_), size_ * sizeof(T) / sizeof(CAST_T), position_,
                              ref_);
        return out;
    }

    // The shape the tensor carries (A2: shapeInfo_; kernel_tensor_impl.h sets and returns it as is).
    __aicore__ inline void SetShapeInfo(const ShapeInfo& shapeInfo) { shapeInfo_ = shapeInfo; }
    __aicore__ inline ShapeInfo GetShapeInfo() const { return shapeInfo_; }
    ShapeInfo shapeInfo_;

private:
    friend struct ascend_twin::internal::Access;

    // Twin internals used by TQue/TBuf and the instruction headers.
    void TwinBind(T* data, uint32_t size, TPosition position, twin_detail::BufferRef ref)
    {
        data_ = data;
        size_ = size;
        capacity_ = size;
        position_ = position;
        ref_ = ref;
    }
    T* TwinData() const { return data_; }
    TPosition TwinPosition() const { return position_; }
    const twin_detail::BufferRef& TwinRef() const { return ref_; }

    void CheckIndex(const char* call, uint32_t index) const
    {
        if (data_ == nullptr) {
            ascend_twin::Fail(call, "LocalTensors come from TQue::AllocTensor/DeQue or TBuf::Get",
                              "the tensor was never bound to UB");
        }
        if (index >= size_) {
            ascend_twin::FailF(call, "LocalTensor indices stay inside the tensor",
                               "index %llu of a tensor of %u elements", static_cast<unsigned long long>(index), size_);
        }
    }

    T* data_ = nullptr;
    uint32_t size_ = 0;
    uint32_t capacity_ = 0;
    TPosition position_ = TPosition::VECCALC;
    twin_detail::BufferRef ref_;
};

}  // namespace AscendC

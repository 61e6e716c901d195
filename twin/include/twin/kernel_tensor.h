// GlobalTensor and LocalTensor, and the logical positions buffers live in.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_types.h"
#include "twin/runtime.h"

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
    MAX,
};
using QuePosition = TPosition;

// A view of global memory. Bounds are not checked by the tensor itself (the hardware does not either);
// every DataCopy/GetValue/SetValue checks the access against the launch's buffers.
template <typename T>
class GlobalTensor {
    static_assert(!std::is_same_v<T, int4b_t>,
                  "the twin does not model GlobalTensor<int4b_t> (two elements a byte): copy int4b_t data through an "
                  "int8_t view and ReinterpretCast<int4b_t>()");

public:
    using PrimType = T;

    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize)
    {
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

    __aicore__ inline T GetValue(const uint64_t offset) const
    {
        ascend_twin::ScalarGmRead("GlobalTensor::GetValue", address_ + offset, sizeof(T));
        return address_[offset];
    }
    __aicore__ inline void SetValue(const uint64_t offset, const T value)
    {
        ascend_twin::ScalarGmWrite("GlobalTensor::SetValue", address_ + offset, sizeof(T));
        address_[offset] = value;
    }

    // Twin access for the data movement functions.
    T* TwinData() const { return address_; }

private:
    T* address_ = nullptr;
    uint64_t size_ = 0;
};

namespace twin_detail {
// Identifies the queue buffer a LocalTensor came from, so EnQue/FreeTensor can check its state.
struct BufferRef {
    const void* owner = nullptr;  // the TQue/TBuf that handed the tensor out
    int32_t slot = -1;
};
}  // namespace twin_detail

// A view of on-chip memory (UB on vector cores). Lengths are in elements.
template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    LocalTensor() = default;

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
    // The UB address, as on the device: UB addresses start at 0.
    __aicore__ inline uint64_t GetPhyAddr() const { return ascend_twin::UbOffset(data_); }
    __aicore__ inline uint64_t GetPhyAddr(const uint32_t offset) const { return ascend_twin::UbOffset(data_ + offset); }

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
        out.TwinBind(reinterpret_cast<CAST_T*>(data_), size_ * sizeof(T) / sizeof(CAST_T), position_, ref_);
        return out;
    }

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

private:
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

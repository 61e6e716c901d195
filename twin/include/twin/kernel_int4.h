// LocalTensor<int4b_t> (impl/basic_api/kernel_tensor_impl.h): the tensor counts elements, two to a byte
// (element 2k in the low nibble, 2k + 1 in the high one). GetSize() is twice the bytes, GetLength() the
// bytes; ReinterpretCast to and from it converts through the bytes (the docs' way to get one: allocate
// int8_t, then ReinterpretCast<int4b_t>(); TBuf::Get<int4b_t>() and TQue::AllocTensor<int4b_t>() give the
// same count; TBuf::Get<int4b_t>(len) takes len elements, len / 2 bytes; GetWithOffset<int4b_t>(size, ...)
// covers size bytes, 2 * size elements, as kernel_tbuf_impl.h computes it). SetSize keeps whole bytes
// (size / 2 of them), as the device does. A view (operator[]) or GetPhyAddr(offset) starts on a whole
// byte: an odd offset is a violation (the device's debug build asserts it for GetPhyAddr; operator[] would
// silently drop the half byte). operator() (a reference to one element) is not offered: no reference
// reaches half a byte. The static form LocalTensor<int4b_t>(pos, addr, tileSize) covers tileSize / 2 bytes.
//
// GlobalTensor<int4b_t> (the same file): GM data two elements a byte, low nibble first; SetGlobalBuffer's size,
// operator[] and GetPhyAddr(offset) count elements, the address moves by offset / 2 bytes. An odd offset is a
// violation (the device asserts it in GetPhyAddr's debug build; operator[] would drop the half byte). The data
// moves through DataCopy GM -> L1 with Nd2NzParams only (counted in bytes there: two int4b_t as one int8_t, as
// the device's implementation copies them); the other DataCopy forms do not take it here.
#pragma once

#include <cstdint>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_types.h"
#include "twin/runtime.h"

namespace AscendC {

namespace twin_detail {
// Element `index` of int4b_t data: the low nibble of byte index / 2 for even indices, the high one for odd.
inline int8_t Int4Nibble(uint8_t byte, uint64_t index)
{
    return static_cast<int8_t>(int4b_t(static_cast<uint32_t>(byte >> (4 * (index % 2)))));
}
inline uint8_t SetInt4Nibble(uint8_t byte, uint64_t index, int4b_t value)
{
    const uint32_t shift = 4 * (index % 2);
    return static_cast<uint8_t>((byte & ~(0xfu << shift)) | ((value.storage & 0xfu) << shift));
}
}  // namespace twin_detail

template <>
class LocalTensor<int4b_t> {
public:
    using PrimType = int4b_t;

    LocalTensor() = default;

    // Static tensor programming (kernel_tensor_impl.h): tileSize elements, tileSize / 2 bytes at byte address
    // addr of the position's memory. An odd tileSize would leave half a byte: refused.
    __aicore__ inline LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize)
    {
        if (tileSize % 2 != 0) {
            ascend_twin::FailF("LocalTensor(pos, addr, tileSize)", "an int4b_t tensor holds an even number of "
                               "elements (two a byte)", "tileSize %u", tileSize);
        }
        uint8_t* mem = twin_detail::StaticUbTensor("LocalTensor(pos, addr, tileSize)", pos, addr, tileSize / 2);
        TwinBind(reinterpret_cast<int4b_t*>(mem), tileSize / 2, pos, {});
    }

    __aicore__ inline LocalTensor operator[](const uint32_t offset) const
    {
        CheckViewOffset("LocalTensor::operator[]", offset);
        LocalTensor view = *this;
        view.data_ += offset / 2;
        view.size_ -= offset;
        return view;
    }

    __aicore__ inline uint32_t GetSize() const { return size_; }
    __aicore__ inline uint32_t GetLength() const { return size_ / 2; }
    __aicore__ inline void SetSize(const uint32_t size)
    {
        if (size / 2 * 2 > capacity_) {
            ascend_twin::FailF("LocalTensor::SetSize", "a LocalTensor cannot grow past its buffer",
                               "%u int4b_t elements asked, the buffer holds %u", size, capacity_);
        }
        size_ = size / 2 * 2;
    }
    __aicore__ inline int32_t GetPosition() const { return static_cast<int32_t>(position_); }
    // As LocalTensor<T>::GetPhyAddr: the byte holding element `offset` (int4b_t*), which must be even.
    __aicore__ inline int4b_t* GetPhyAddr() const { return GetPhyAddr(0); }
    __aicore__ inline int4b_t* GetPhyAddr(const uint32_t offset) const
    {
        CheckViewOffset("LocalTensor::GetPhyAddr", offset);
        CheckIndex("LocalTensor::GetPhyAddr", offset);
        ascend_twin::RawUbPointer("LocalTensor::GetPhyAddr", data_ + offset / 2, (size_ - offset + 1) / 2);
        return data_ + offset / 2;
    }

    __aicore__ inline int4b_t GetValue(const uint32_t index) const
    {
        CheckIndex("LocalTensor::GetValue", index);
        const uint8_t* byte = reinterpret_cast<const uint8_t*>(data_) + index / 2;
        ascend_twin::Instr("LocalTensor::GetValue", ascend_twin::Pipe::kS).Read("tensor", byte, 1);
        return int4b_t(static_cast<uint32_t>(*byte >> (4 * (index % 2))));
    }
    __aicore__ inline void SetValue(const uint32_t index, const int4b_t value) const
    {
        CheckIndex("LocalTensor::SetValue", index);
        uint8_t* byte = reinterpret_cast<uint8_t*>(data_) + index / 2;
        // The scalar unit reads the byte, replaces one nibble and writes it back.
        ascend_twin::Instr instr("LocalTensor::SetValue", ascend_twin::Pipe::kS);
        instr.Read("tensor", byte, 1);
        instr.Write("tensor", byte, 1);
        *byte = twin_detail::SetInt4Nibble(*byte, index, value);
    }

    template <typename CAST_T>
    __aicore__ inline LocalTensor<CAST_T> ReinterpretCast() const
    {
        LocalTensor<CAST_T> out;
        twin_detail::TwinBind(out, reinterpret_cast<CAST_T*>(data_), size_ / 2 / sizeof(CAST_T), position_, ref_);
        return out;
    }

private:
    friend struct ascend_twin::internal::Access;

    // Twin internals. TwinBind takes the bytes the tensor covers (what TBuf/TQue and ReinterpretCast pass).
    void TwinBind(int4b_t* data, uint32_t bytes, TPosition position, twin_detail::BufferRef ref)
    {
        data_ = data;
        size_ = bytes * 2;
        capacity_ = size_;
        position_ = position;
        ref_ = ref;
    }
    int4b_t* TwinData() const { return data_; }  // the first byte
    TPosition TwinPosition() const { return position_; }
    const twin_detail::BufferRef& TwinRef() const { return ref_; }

    void CheckViewOffset(const char* call, uint32_t offset) const
    {
        if (offset > size_) {
            ascend_twin::FailF(call, "LocalTensor offsets stay inside the tensor",
                               "offset %u of a tensor of %u elements", offset, size_);
        }
        if (offset % 2 != 0) {
            ascend_twin::FailF(call, "an int4b_t tensor offset is even (a view starts on a whole byte)",
                               "offset %u", offset);
        }
    }
    void CheckIndex(const char* call, uint32_t index) const
    {
        if (data_ == nullptr) {
            ascend_twin::FailF(call, "LocalTensors come from TQue::AllocTensor/DeQue or TBuf::Get",
                               "the tensor was never bound to UB");
        }
        if (index >= size_) {
            ascend_twin::FailF(call, "LocalTensor indices stay inside the tensor",
                               "index %u of a tensor of %u elements", index, size_);
        }
    }

    int4b_t* data_ = nullptr;
    uint32_t size_ = 0;  // elements (nibbles)
    uint32_t capacity_ = 0;
    TPosition position_ = TPosition::VECCALC;
    twin_detail::BufferRef ref_;
};

template <>
class GlobalTensor<int4b_t> {
public:
    using PrimType = int4b_t;

    // bufferSize in elements (GetSize() returns it as given).
    __aicore__ inline void SetGlobalBuffer(__gm__ int4b_t* buffer, uint64_t bufferSize)
    {
        ascend_twin::CheckGmBinding("GlobalTensor::SetGlobalBuffer", buffer, 1, "int4b_t");
        address_ = buffer;
        size_ = bufferSize;
    }
    __aicore__ inline void SetGlobalBuffer(__gm__ int4b_t* buffer) { SetGlobalBuffer(buffer, 0); }

    __aicore__ inline const __gm__ int4b_t* GetPhyAddr() const { return address_; }
    __aicore__ inline __gm__ int4b_t* GetPhyAddr(const uint64_t offset) const
    {
        CheckOffset("GlobalTensor::GetPhyAddr", offset);
        return address_ + offset / 2;
    }
    __aicore__ inline uint64_t GetSize() const { return size_; }

    __aicore__ inline GlobalTensor operator[](const uint64_t offset) const
    {
        CheckOffset("GlobalTensor::operator[]", offset);
        GlobalTensor view = *this;
        view.address_ = address_ + offset / 2;
        return view;
    }

    template <CacheRwMode rwMode = CacheRwMode::RW>
    __aicore__ inline void SetL2CacheHint(CacheMode mode)
    {
        cacheMode_ = mode;
    }

    __aicore__ inline int4b_t GetValue(const uint64_t offset) const
    {
        const uint8_t* byte = reinterpret_cast<const uint8_t*>(address_) + offset / 2;
        uint8_t bits;
        ascend_twin::ScalarGmRead("GlobalTensor::GetValue", byte, 1, &bits);
        return int4b_t(static_cast<uint32_t>(bits >> (4 * (offset % 2))));
    }
    __aicore__ inline void SetValue(const uint64_t offset, const int4b_t value)
    {
        uint8_t* byte = reinterpret_cast<uint8_t*>(address_) + offset / 2;
        ascend_twin::ScalarGmRead("GlobalTensor::SetValue", byte, 1);  // the other nibble is kept
        ascend_twin::ScalarGmWrite("GlobalTensor::SetValue", byte, 1);
        *byte = twin_detail::SetInt4Nibble(*byte, offset, value);
    }

    CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;

    __aicore__ inline void SetShapeInfo(const ShapeInfo& shapeInfo) { shapeInfo_ = shapeInfo; }
    __aicore__ inline ShapeInfo GetShapeInfo() const { return shapeInfo_; }
    ShapeInfo shapeInfo_;

private:
    friend struct ascend_twin::internal::Access;
    // The first byte, for the DataCopy forms that take int4b_t. The other forms reach the data through TwinData,
    // which refuses int4b_t at compile time: they count whole-byte elements.
    uint8_t* TwinInt4Bytes() const { return reinterpret_cast<uint8_t*>(address_); }
    template <typename D = void>
    int4b_t* TwinData() const
    {
        static_assert(sizeof(D) == 0,
                      "the twin moves GlobalTensor<int4b_t> data through DataCopy GM -> L1 with Nd2NzParams, the "
                      "Matmul API and GetValue/SetValue (its other data movement forms are not modelled for 4-bit "
                      "elements)");
        return address_;
    }

    static void CheckOffset(const char* call, uint64_t offset)
    {
        if (offset % 2 != 0) {
            ascend_twin::FailF(call, "an int4b_t GlobalTensor offset is even (a view starts on a whole byte)",
                               "offset %llu", static_cast<unsigned long long>(offset));
        }
    }

    int4b_t* address_ = nullptr;
    uint64_t size_ = 0;  // elements
};

}  // namespace AscendC

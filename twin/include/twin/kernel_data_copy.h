// DataCopy and DataCopyPad between GM and UB, with their parameter structs.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "twin/kernel_tensor.h"
#include "twin/runtime.h"

namespace AscendC {

struct DataCopyParams {
    DataCopyParams() = default;
    DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn)
    {
    }
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;  // 32-byte blocks
    uint16_t srcStride = 0;  // 32-byte blocks between the end of one block and the start of the next
    uint16_t dstStride = 0;
};

struct DataCopyExtParams {
    DataCopyExtParams() = default;
    DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn,
                      const uint32_t dstStrideIn, const uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn)
    {
    }
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;   // bytes
    uint32_t srcStride = 0;  // GM side: bytes; UB side: 32-byte blocks
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
};

template <typename T>
struct DataCopyPadExtParams {
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue, T padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue)
    {
    }
    bool isPad = false;
    uint8_t leftPadding = 0;   // elements
    uint8_t rightPadding = 0;  // elements
    T paddingValue = 0;
};

namespace twin_detail {

enum class Direction : uint8_t { kGmToUb, kUbToGm };

// One strided transfer between GM and UB: blockCount blocks of blockBytes. A GM block starts every
// gmPitch bytes; a UB block every ubPitch bytes, its data ubLead bytes in (left padding). Checks
// alignment and bounds, copies, counts.
struct Transfer {
    const char* call;
    Direction direction;
    uint8_t* ub;          // start of the LocalTensor (must be 32-byte aligned)
    uint64_t ubCapacity;  // bytes of the LocalTensor
    uint8_t* gm;
    uint32_t elementSize;
    uint32_t blockCount;
    uint64_t blockBytes;
    uint64_t gmPitch;
    uint64_t ubPitch;
    uint64_t ubLead = 0;
    uint64_t ubBlockSpan = 0;  // UB bytes one block occupies (0: blockBytes)
};
void Run(const Transfer& t);

void CheckCopyLength(const char* call, uint64_t bytes);
void CheckBlockLen(const char* call, uint32_t blockLen, uint32_t elementSize);
void CheckPadding(const char* call, uint32_t leftBytes, uint32_t rightBytes);

template <typename T>
uint8_t* Bytes(const LocalTensor<T>& t)
{
    return reinterpret_cast<uint8_t*>(t.TwinData());
}
template <typename T>
uint8_t* Bytes(const GlobalTensor<T>& t)
{
    return reinterpret_cast<uint8_t*>(t.TwinData());
}

}  // namespace twin_detail

// GM -> UB, count elements; count * sizeof(T) must be a whole number of 32-byte blocks.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count)
{
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    twin_detail::CheckCopyLength("DataCopy(GM->UB)", bytes);
    twin_detail::Run({"DataCopy(GM->UB)", twin_detail::Direction::kGmToUb, twin_detail::Bytes(dst), dst.GetLength(),
                      twin_detail::Bytes(src), sizeof(T), 1, bytes, bytes, bytes});
}

// UB -> GM, count elements; same length rule.
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count)
{
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    twin_detail::CheckCopyLength("DataCopy(UB->GM)", bytes);
    twin_detail::Run({"DataCopy(UB->GM)", twin_detail::Direction::kUbToGm, twin_detail::Bytes(src), src.GetLength(),
                      twin_detail::Bytes(dst), sizeof(T), 1, bytes, bytes, bytes});
}

// Strided forms: blockLen and both gaps in 32-byte blocks.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const DataCopyParams& repeatParams)
{
    const uint64_t len = repeatParams.blockLen * 32ULL;
    twin_detail::Run({"DataCopy(GM->UB, DataCopyParams)", twin_detail::Direction::kGmToUb, twin_detail::Bytes(dst),
                      dst.GetLength(), twin_detail::Bytes(src), sizeof(T), repeatParams.blockCount, len,
                      len + repeatParams.srcStride * 32ULL, len + repeatParams.dstStride * 32ULL});
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& repeatParams)
{
    const uint64_t len = repeatParams.blockLen * 32ULL;
    twin_detail::Run({"DataCopy(UB->GM, DataCopyParams)", twin_detail::Direction::kUbToGm, twin_detail::Bytes(src),
                      src.GetLength(), twin_detail::Bytes(dst), sizeof(T), repeatParams.blockCount, len,
                      len + repeatParams.dstStride * 32ULL, len + repeatParams.srcStride * 32ULL});
}

// GM -> UB in blockCount blocks of blockLen bytes (any length). In UB each block starts on a 32-byte
// boundary; leftPadding/rightPadding elements around it are filled with paddingValue when isPad is set,
// otherwise the rest of the block's last 32 bytes is left as it was.
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& dataCopyParams, const DataCopyPadExtParams<T>& padParams)
{
    const char* call = "DataCopyPad(GM->UB)";
    const DataCopyExtParams& p = dataCopyParams;
    const uint32_t left = padParams.leftPadding * sizeof(T);
    const uint32_t right = padParams.rightPadding * sizeof(T);
    twin_detail::CheckBlockLen(call, p.blockLen, sizeof(T));
    twin_detail::CheckPadding(call, left, right);
    const uint64_t slot = (p.blockLen + left + right + 31ULL) / 32 * 32;
    twin_detail::Run({call, twin_detail::Direction::kGmToUb, twin_detail::Bytes(dst), dst.GetLength(),
                      twin_detail::Bytes(src), sizeof(T), p.blockCount, p.blockLen, p.blockLen + p.srcStride,
                      slot + p.dstStride * 32ULL, left, slot});
    if (!padParams.isPad) return;
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        T* elems = reinterpret_cast<T*>(twin_detail::Bytes(dst) + b * (slot + p.dstStride * 32ULL));
        const uint64_t dataBegin = left / sizeof(T);
        const uint64_t dataEnd = dataBegin + p.blockLen / sizeof(T);
        for (uint64_t e = 0; e < slot / sizeof(T); ++e) {
            if (e < dataBegin || e >= dataEnd) elems[e] = padParams.paddingValue;
        }
    }
}

// UB -> GM: blockCount blocks of blockLen bytes; UB blocks start on 32-byte boundaries.
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyExtParams& dataCopyParams)
{
    const DataCopyExtParams& p = dataCopyParams;
    twin_detail::CheckBlockLen("DataCopyPad(UB->GM)", p.blockLen, sizeof(T));
    const uint64_t slot = (p.blockLen + 31ULL) / 32 * 32;
    twin_detail::Run({"DataCopyPad(UB->GM)", twin_detail::Direction::kUbToGm, twin_detail::Bytes(src),
                      src.GetLength(), twin_detail::Bytes(dst), sizeof(T), p.blockCount, p.blockLen,
                      p.blockLen + p.dstStride, slot + p.srcStride * 32ULL});
}

}  // namespace AscendC

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

void CheckCopyLength(const char* call, uint64_t bytes);
void CheckUbRange(const char* call, const char* operand, uint64_t needBytes, uint64_t haveBytes);
void CheckGmElementAligned(const char* call, const void* gm, uint32_t elementSize);
void CountCopy();

}  // namespace twin_detail

// GM -> UB, count elements; count * sizeof(T) must be a whole number of 32-byte blocks.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count)
{
    const char* call = "DataCopy(GM->UB)";
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    twin_detail::CheckCopyLength(call, bytes);
    ascend_twin::CheckUbAligned(call, "dst", dst.TwinData());
    twin_detail::CheckUbRange(call, "dst", bytes, dst.GetLength());
    twin_detail::CheckGmElementAligned(call, src.TwinData(), sizeof(T));
    ascend_twin::CheckGmRead(call, src.TwinData(), bytes);
    std::memcpy(dst.TwinData(), src.TwinData(), bytes);
    twin_detail::CountCopy();
}

// UB -> GM, count elements; same length rule.
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count)
{
    const char* call = "DataCopy(UB->GM)";
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    twin_detail::CheckCopyLength(call, bytes);
    ascend_twin::CheckUbAligned(call, "src", src.TwinData());
    twin_detail::CheckUbRange(call, "src", bytes, src.GetLength());
    twin_detail::CheckGmElementAligned(call, dst.TwinData(), sizeof(T));
    ascend_twin::CheckGmWrite(call, dst.TwinData(), bytes);
    std::memcpy(dst.TwinData(), src.TwinData(), bytes);
    twin_detail::CountCopy();
}

// GM -> UB in blockCount blocks of blockLen bytes (any length). In UB each block starts on a 32-byte
// boundary; leftPadding/rightPadding elements around it are filled with paddingValue when isPad is set.
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& dataCopyParams, const DataCopyPadExtParams<T>& padParams)
{
    const char* call = "DataCopyPad(GM->UB)";
    const DataCopyExtParams& p = dataCopyParams;
    if (p.blockCount == 0 || p.blockLen == 0) return;
    if (p.blockLen % sizeof(T) != 0) {
        ascend_twin::Fail(call, "blockLen is a whole number of elements",
                          std::to_string(p.blockLen) + " bytes for " + std::to_string(sizeof(T)) + "-byte elements");
    }
    if (padParams.leftPadding * sizeof(T) > 32 || padParams.rightPadding * sizeof(T) > 32) {
        ascend_twin::Fail(call, "leftPadding and rightPadding are at most 32 bytes each",
                          std::to_string(padParams.leftPadding) + " and " + std::to_string(padParams.rightPadding) +
                              " elements requested");
    }
    ascend_twin::CheckUbAligned(call, "dst", dst.TwinData());
    const uint64_t left = padParams.leftPadding * sizeof(T);
    const uint64_t right = padParams.rightPadding * sizeof(T);
    const uint64_t slot = (p.blockLen + left + right + 31) / 32 * 32;
    const uint64_t ubSpan = (p.blockCount - 1) * (slot + p.dstStride * 32ULL) + slot;
    twin_detail::CheckUbRange(call, "dst", ubSpan, dst.GetLength());
    auto* ub = reinterpret_cast<uint8_t*>(dst.TwinData());
    const auto* gm = reinterpret_cast<const uint8_t*>(src.TwinData());
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        const uint8_t* from = gm + b * (static_cast<uint64_t>(p.blockLen) + p.srcStride);
        uint8_t* to = ub + b * (slot + p.dstStride * 32ULL);
        ascend_twin::CheckGmRead(call, from, p.blockLen);
        std::memcpy(to + left, from, p.blockLen);
        if (padParams.isPad) {
            T* elems = reinterpret_cast<T*>(to);
            const uint64_t n = slot / sizeof(T);
            const uint64_t dataBegin = left / sizeof(T);
            const uint64_t dataEnd = dataBegin + p.blockLen / sizeof(T);
            for (uint64_t e = 0; e < n; ++e) {
                if (e < dataBegin || e >= dataEnd) elems[e] = padParams.paddingValue;
            }
        }
    }
    twin_detail::CountCopy();
}

// UB -> GM: blockCount blocks of blockLen bytes; UB blocks start on 32-byte boundaries.
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyExtParams& dataCopyParams)
{
    const char* call = "DataCopyPad(UB->GM)";
    const DataCopyExtParams& p = dataCopyParams;
    if (p.blockCount == 0 || p.blockLen == 0) return;
    if (p.blockLen % sizeof(T) != 0) {
        ascend_twin::Fail(call, "blockLen is a whole number of elements",
                          std::to_string(p.blockLen) + " bytes for " + std::to_string(sizeof(T)) + "-byte elements");
    }
    ascend_twin::CheckUbAligned(call, "src", src.TwinData());
    const uint64_t slot = (p.blockLen + 31ULL) / 32 * 32;
    const uint64_t ubSpan = (p.blockCount - 1) * (slot + p.srcStride * 32ULL) + p.blockLen;
    twin_detail::CheckUbRange(call, "src", ubSpan, src.GetLength());
    const auto* ub = reinterpret_cast<const uint8_t*>(src.TwinData());
    auto* gm = reinterpret_cast<uint8_t*>(dst.TwinData());
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        uint8_t* to = gm + b * (static_cast<uint64_t>(p.blockLen) + p.dstStride);
        ascend_twin::CheckGmWrite(call, to, p.blockLen);
        std::memcpy(to, ub + b * (slot + p.srcStride * 32ULL), p.blockLen);
    }
    twin_detail::CountCopy();
}

// Strided forms in 32-byte blocks.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const DataCopyParams& repeatParams)
{
    const char* call = "DataCopy(GM->UB, DataCopyParams)";
    const DataCopyParams& p = repeatParams;
    if (p.blockCount == 0 || p.blockLen == 0) return;
    ascend_twin::CheckUbAligned(call, "dst", dst.TwinData());
    const uint64_t len = p.blockLen * 32ULL;
    twin_detail::CheckUbRange(call, "dst", (p.blockCount - 1) * (len + p.dstStride * 32ULL) + len, dst.GetLength());
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        const auto* from = reinterpret_cast<const uint8_t*>(src.TwinData()) + b * (len + p.srcStride * 32ULL);
        ascend_twin::CheckGmRead(call, from, len);
        std::memcpy(reinterpret_cast<uint8_t*>(dst.TwinData()) + b * (len + p.dstStride * 32ULL), from, len);
    }
    twin_detail::CountCopy();
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& repeatParams)
{
    const char* call = "DataCopy(UB->GM, DataCopyParams)";
    const DataCopyParams& p = repeatParams;
    if (p.blockCount == 0 || p.blockLen == 0) return;
    ascend_twin::CheckUbAligned(call, "src", src.TwinData());
    const uint64_t len = p.blockLen * 32ULL;
    twin_detail::CheckUbRange(call, "src", (p.blockCount - 1) * (len + p.srcStride * 32ULL) + len, src.GetLength());
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        auto* to = reinterpret_cast<uint8_t*>(dst.TwinData()) + b * (len + p.dstStride * 32ULL);
        ascend_twin::CheckGmWrite(call, to, len);
        std::memcpy(to, reinterpret_cast<const uint8_t*>(src.TwinData()) + b * (len + p.srcStride * 32ULL), len);
    }
    twin_detail::CountCopy();
}

}  // namespace AscendC

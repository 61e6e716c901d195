// Transpose and TransDataTo5HD (include/basic_api/kernel_operator_vec_transpose_intf.h, TransposeType,
// TransposeParamsExt and TransDataTo5HDParams in kernel_struct_transpose.h; docs: Memory矢量计算/数据排布转换/
// Transpose.md, TransDataTo5HD.md).
//
// Transpose(dst, src): a 16 x 16 matrix of 16-bit elements, dst = src^T (dst may be src). The enhanced form:
// TRANSPOSE_ND2ND_B16 the same for uint16_t (hSize = wSize = 16); TRANSPOSE_NCHW2NHWC / NHWC2NCHW the axes
// permutation (0, 2, 3, 1) / (0, 3, 1, 2) of [N, C, H, W] / [N, H, W, C], dst apart from src, sharedTmpBuffer at
// least (cSize + 2) / (2 cSize + 1) x h0 x w0 x sizeof(T) bytes (h0 = 32 for 8-bit types, else 16; w0 = 32 /
// sizeof(T)); the twin computes the permutation directly and writes zeros over the part of the temporary buffer
// the call needs (the device leaves its intermediate blocks there).
// TransDataTo5HD: per repeat, 16 source blocks (32 bytes each, at srcList[k] + srcRepStride blocks per repeat)
// form a matrix whose columns become the 16 destination blocks: 16-bit, dst block i element j = src block j
// element i; 8-bit, the low or high half (srcHighHalf) of the source blocks gives the low or high half
// (dstHighHalf) of each destination block. The docs: with repeatTimes 1 the blocks start at the list plus one
// stride, with more at the list itself, then one stride further per repeat. 32-bit elements: not modelled
// (the twin stops: the layout is given only by a figure the docs do not carry as text).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_transpose_type.h"
#include "twin/platform.h"
#include "twin/runtime.h"

namespace AscendC {

struct TransDataTo5HDParams {
    constexpr __aicore__ TransDataTo5HDParams() = default;
    constexpr __aicore__ TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                                              const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                                              const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn),
          srcHighHalf(srcHighHalfIn),
          repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn)
    {
    }
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

struct TransposeParamsExt {
    constexpr __aicore__ TransposeParamsExt() = default;
    constexpr __aicore__ TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                            const uint16_t wSizeIn, const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn)
    {
    }
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

namespace twin_detail {

template <typename T>
void Transpose16(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src)
{
    ascend_twin::CheckUbAligned(call, "dst", TwinData(dst));
    ascend_twin::CheckUbAligned(call, "src", TwinData(src));
    if (dst.GetSize() < 256 || src.GetSize() < 256) {
        ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                           "a 16 x 16 transpose reads and writes 256 elements; src holds %u, dst %u", src.GetSize(),
                           dst.GetSize());
    }
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    instr.Read("src", TwinData(src), 512);
    instr.Write("dst", TwinData(dst), 512);
    T tmp[256];
    for (int i = 0; i < 256; ++i) tmp[i] = TwinData(src)[i];
    for (int r = 0; r < 16; ++r) {
        for (int c = 0; c < 16; ++c) TwinData(dst)[c * 16 + r] = tmp[r * 16 + c];  // dst may be src
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kTranspose, 256, 1);
}

}  // namespace twin_detail

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src)
{
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, half>,
                  "Transpose (16 x 16) on A2 supports int16_t, uint16_t and half");
    twin_detail::Transpose16("Transpose", dst, src);
}

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& transposeParams)
{
    constexpr const char* call = "Transpose";
    static_assert(std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, uint16_t> || std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
                      std::is_same_v<T, uint32_t> || std::is_same_v<T, float>,
                  "Transpose (enhanced) on A2 supports int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t "
                  "and float");
    const TransposeParamsExt& p = transposeParams;
    if (p.transposeType == TransposeType::TRANSPOSE_TYPE_NONE) return;  // the docs: the API does nothing
    if (p.transposeType == TransposeType::TRANSPOSE_ND2ND_B16) {
        if (!std::is_same_v<T, uint16_t>) {
            ascend_twin::Fail(call, "TRANSPOSE_ND2ND_B16 on A2 transposes uint16_t (Transpose docs, 数据类型)",
                              "another element type");
        }
        if (p.hSize != 16 || p.wSize != 16) {
            ascend_twin::FailF(call, "TRANSPOSE_ND2ND_B16 takes hSize = wSize = 16 (Transpose docs)",
                               "hSize %u, wSize %u", static_cast<unsigned>(p.hSize), static_cast<unsigned>(p.wSize));
        }
        twin_detail::Transpose16(call, dst, src);
        return;
    }
    const bool toNhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
    if (!toNhwc && p.transposeType != TransposeType::TRANSPOSE_NHWC2NCHW) {
        ascend_twin::FailF(call, "transposeType is TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC or TRANSPOSE_NHWC2NCHW on A2 "
                                 "(the others: 当前不支持, Transpose docs)",
                           "transposeType %u", static_cast<unsigned>(p.transposeType));
    }
    const uint64_t n = p.nSize, c = p.cSize, hw = static_cast<uint64_t>(p.hSize) * p.wSize;
    if (c > 4095 || hw > 4095 || hw * sizeof(T) % 32 != 0) {
        ascend_twin::FailF(call, "cSize is 0..4095, hSize x wSize 0..4095 with hSize x wSize x sizeof(T) a multiple of 32 "
                                 "bytes (Transpose docs, 约束说明)",
                           "cSize %llu, hSize x wSize %llu (%llu bytes)", static_cast<unsigned long long>(c),
                           static_cast<unsigned long long>(hw), static_cast<unsigned long long>(hw * sizeof(T)));
    }
    if (n == 0 || c == 0 || hw == 0) return;  // the docs: no computation, dst untouched
    ascend_twin::CheckUbAligned(call, "dst", twin_detail::TwinData(dst));
    ascend_twin::CheckUbAligned(call, "src", twin_detail::TwinData(src));
    ascend_twin::CheckUbAligned(call, "sharedTmpBuffer", twin_detail::TwinData(sharedTmpBuffer));
    const uint64_t total = n * c * hw;
    if (src.GetSize() < total || dst.GetSize() < total) {
        ascend_twin::FailF(call, "UB accesses stay inside the LocalTensor",
                           "N x C x H x W = %llu elements; src holds %u, dst %u", static_cast<unsigned long long>(total),
                           src.GetSize(), dst.GetSize());
    }
    const auto* s0 = reinterpret_cast<const uint8_t*>(twin_detail::TwinData(src));
    const auto* d0 = reinterpret_cast<const uint8_t*>(twin_detail::TwinData(dst));
    if (d0 < s0 + total * sizeof(T) && s0 < d0 + total * sizeof(T)) {
        ascend_twin::Fail(call, "TRANSPOSE_NCHW2NHWC / NHWC2NCHW do not reuse src as dst (Transpose docs, 约束说明)",
                          "dst and src overlap in UB");
    }
    const uint64_t h0 = sizeof(T) == 1 ? 32 : 16, w0 = 32 / sizeof(T);
    const uint64_t need = (toNhwc ? c + 2 : 2 * c + 1) * h0 * w0 * sizeof(T);
    if (sharedTmpBuffer.GetSize() < need) {
        ascend_twin::FailF(call, "sharedTmpBuffer holds at least the documented size ((cSize + 2) or (2 cSize + 1) x h0 x w0 x "
                                 "sizeof(T) bytes; Transpose docs, A2 table)",
                           "it holds %u bytes, the call needs %llu", sharedTmpBuffer.GetSize(),
                           static_cast<unsigned long long>(need));
    }
    ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
    instr.Read("src", s0, total * sizeof(T));
    instr.Write("sharedTmpBuffer", twin_detail::TwinData(sharedTmpBuffer), need);
    instr.Write("dst", d0, total * sizeof(T));
    std::memset(twin_detail::TwinData(sharedTmpBuffer), 0, need);
    const T* s = twin_detail::TwinData(src);
    T* d = twin_detail::TwinData(dst);
    for (uint64_t a = 0; a < n; ++a) {
        for (uint64_t ch = 0; ch < c; ++ch) {
            for (uint64_t x = 0; x < hw; ++x) {
                if (toNhwc) {
                    d[(a * hw + x) * c + ch] = s[(a * c + ch) * hw + x];
                } else {
                    d[(a * c + ch) * hw + x] = s[(a * hw + x) * c + ch];
                }
            }
        }
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kTranspose, total, (total * sizeof(T) + 255) / 256);
}

namespace twin_detail {

// TransDataTo5HD on UB addresses: `(uint64_t)tensor.GetPhyAddr()` or the device's UB address (UbAddressValue).
template <typename T>
void TransDataTo5HDRun(const uint64_t* dstList, const uint64_t* srcList, const TransDataTo5HDParams& p)
{
    constexpr const char* call = "TransDataTo5HD";
    static_assert(std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, uint16_t> || std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
                      std::is_same_v<T, uint32_t> || std::is_same_v<T, float>,
                  "TransDataTo5HD on A2 supports int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t and float");
    if constexpr (sizeof(T) == 4) {
        ascend_twin::Fail(call, "32-bit TransDataTo5HD is not modelled by the twin (docs/twin.md)",
                          "the docs give its layout as a figure only; use 16-bit or 8-bit elements on the twin");
    } else {
        ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
        const uint64_t ubSize = core.platform->ubSize;
        auto block = [&](const char* what, const uint64_t* list, int k, uint32_t r, uint16_t stride) {
            const uint64_t step = p.repeatTimes == 1 ? 1 : r;
            const uint64_t addr = ascend_twin::UbAddressValue(list[k]);
            const uint64_t off = addr + step * stride * 32;
            if (addr % 32 != 0 || off + 32 > ubSize) {
                ascend_twin::FailF(call, "each list address is a 32-byte aligned UB address and its blocks stay in UB",
                                   "%s[%d] = %llu, repeat %u reaches UB bytes [%llu, %llu) of %llu", what, k,
                                   static_cast<unsigned long long>(addr), r, static_cast<unsigned long long>(off),
                                   static_cast<unsigned long long>(off + 32), static_cast<unsigned long long>(ubSize));
            }
            return core.ub + off;
        };
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        for (uint32_t r = 0; r < p.repeatTimes; ++r) {
            uint8_t in[16][32];
            for (int k = 0; k < 16; ++k) {
                const uint8_t* s = block("srcList", srcList, k, r, p.srcRepStride);
                instr.Read("srcList", s, 32);
                std::memcpy(in[k], s, 32);
            }
            for (int i = 0; i < 16; ++i) {
                uint8_t* d = block("dstList", dstList, i, r, p.dstRepStride);
                if constexpr (sizeof(T) == 2) {
                    instr.Write("dstList", d, 32);
                    for (int j = 0; j < 16; ++j) std::memcpy(d + 2 * j, in[j] + 2 * i, 2);
                } else {
                    uint8_t* half16 = d + (p.dstHighHalf ? 16 : 0);
                    instr.Write("dstList", half16, 16);
                    for (int j = 0; j < 16; ++j) half16[j] = in[j][i + (p.srcHighHalf ? 16 : 0)];
                }
            }
        }
        ascend_twin::CountVec(ascend_twin::VecOp::kTransDataTo5HD, 256ull * p.repeatTimes, p.repeatTimes);
    }
}

}  // namespace twin_detail

template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams)
{
    twin_detail::TransDataTo5HDRun<T>(dstList, srcList, nchwconvParams);
}

template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams)
{
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int k = 0; k < NCHW_CONV_ADDR_LIST_SIZE; ++k) {
        d[k] = twin_detail::UbAddress(dstList[k]);
        s[k] = twin_detail::UbAddress(srcList[k]);
    }
    twin_detail::TransDataTo5HDRun<T>(d, s, nchwconvParams);
}

template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                                      const TransDataTo5HDParams& nchwconvParams)
{
    if (dst.GetSize() < NCHW_CONV_ADDR_LIST_SIZE || src.GetSize() < NCHW_CONV_ADDR_LIST_SIZE) {
        ascend_twin::FailF("TransDataTo5HD", "dst and src hold 16 addresses each",
                           "dst holds %u, src %u", dst.GetSize(), src.GetSize());
    }
    ascend_twin::Instr instr("TransDataTo5HD", ascend_twin::Pipe::kS);
    instr.Read("dst", twin_detail::TwinData(dst), 128);
    instr.Read("src", twin_detail::TwinData(src), 128);
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    std::memcpy(d, twin_detail::TwinData(dst), sizeof d);
    std::memcpy(s, twin_detail::TwinData(src), sizeof s);
    twin_detail::TransDataTo5HDRun<T>(d, s, nchwconvParams);
}

}  // namespace AscendC

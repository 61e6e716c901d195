// LoadData (卷积数据搬运) v2 on A2: L1 -> L0A/L0B in the img2col form (LoadData3DParamsV2), with its
// configuration registers: the Feature Map (SetFmatrix: l1H, l1W, padList), the pad value
// (SetLoadDataPaddingValue), the repeat (SetLoadDataRepeat) and the L1 boundary (SetLoadDataBoundary).
//
// The source is a feature map in L1 as NC1HWC0 with N = 1: element (c1, h, w, c0) at ((c1 * l1H + h) * l1W + w) *
// C0 + c0, C0 = 32 / sizeof(T). Its img2col matrix has one row per output position (ho, wo) (row ho * Wo + wo,
// Ho = (l1H + top + bottom - ((filterH - 1) * dilationFilterH + 1)) / strideH + 1, Wo likewise) and one column
// per (c1, kh, kw, c0) (column ((c1 * filterH + kh) * filterW + kw) * C0 + c0); outside the map it holds the pad
// value. The instruction moves the slice rows [mStartPt, mStartPt + mExtension) x columns [kStartPt, kStartPt +
// kExtension) (i, j from the slice's corner) into (the docs' pseudocode, load3d.py):
//   L0A (ZZ): fractal (i / 16, j / C0) at (i / 16) * ceil(kExtension / C0) + j / C0, inside [i % 16][j % C0];
//   L0A with enTranspose (b16/b32): the slice transposed, fractal (j / 16, i / C0) at (j / 16) *
//       (ceil(mExtension / 16) * 16 / C0) + i / C0, inside [j % 16][i % C0];
//   L0B (always transposed, ZN): fractal (i / C0, j / 16) at (i / C0) * ceil(kExtension / 16) + j / 16, inside
//       [j % 16][i % C0] -- the B operand of Mmad with k = i, n = j.
// With the default IsResetLoad3dConfig {true, true} the call itself sets the Feature Map from l1H/l1W/padList and
// the pad value from padValue; with false the registers set before are used.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/kernel_cube_basic.h"

namespace AscendC {

struct IsResetLoad3dConfig {
    __aicore__ constexpr IsResetLoad3dConfig(const bool isSetFMatrixIn, const bool isSetPaddingIn)
        : isSetFMatrix(isSetFMatrixIn), isSetPadding(isSetPaddingIn)
    {
    }
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

enum class FmatrixMode : uint8_t {
    FMATRIX_LEFT = 0,
    FMATRIX_RIGHT = 1,
};

template <typename T>
struct LoadData3DParamsV2 {
    __aicore__ LoadData3DParamsV2()
    {
        for (int32_t i = 0; i < PAD_SIZE; ++i) padList[i] = 0;
    }
    __aicore__ LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                                  const uint16_t channelSizeIn, const uint16_t kExtensionIn,
                                  const uint16_t mExtensionIn, const uint16_t kStartPtIn, const uint16_t mStartPtIn,
                                  const uint8_t strideWIn, const uint8_t strideHIn, const uint8_t filterWIn,
                                  const uint8_t filterHIn, const uint8_t dilationFilterWIn,
                                  const uint8_t dilationFilterHIn, const bool enTransposeIn, const bool enSmallKIn,
                                  const T padValueIn)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn),
          filterH(filterHIn), dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn),
          enTranspose(enTransposeIn), enSmallK(enSmallKIn), padValue(padValueIn)
    {
        for (int32_t i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
    }
    __aicore__ LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                                  const uint16_t channelSizeIn, const uint16_t kExtensionIn,
                                  const uint16_t mExtensionIn, const uint16_t kStartPtIn, const uint16_t mStartPtIn,
                                  const uint8_t strideWIn, const uint8_t strideHIn, const uint8_t filterWIn,
                                  const uint8_t filterHIn, const uint8_t dilationFilterWIn,
                                  const uint8_t dilationFilterHIn, const bool enTransposeIn, const bool enSmallKIn,
                                  const T padValueIn, const bool filterSizeWIn, const bool filterSizeHIn,
                                  const bool fMatrixCtrlIn)
        : LoadData3DParamsV2(padListIn, l1HIn, l1WIn, channelSizeIn, kExtensionIn, mExtensionIn, kStartPtIn,
                             mStartPtIn, strideWIn, strideHIn, filterWIn, filterHIn, dilationFilterWIn,
                             dilationFilterHIn, enTransposeIn, enSmallKIn, padValueIn)
    {
        filterSizeW = filterSizeWIn;
        filterSizeH = filterSizeHIn;
        fMatrixCtrl = fMatrixCtrlIn;
    }

    uint8_t padList[PAD_SIZE] = {0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    T padValue = 0;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
};

// A2's form (kernel_struct_mm.h): no dstStride (that field is Ascend 950's).
struct LoadDataRepeatParam {
    __aicore__ LoadDataRepeatParam() {}
    __aicore__ LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn,
                                   const uint8_t repeatModeIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn)
    {
    }
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint8_t reserved = 0;
};

namespace twin_detail {
// The instruction's fields, type-erased (padding: the pad register's value when the call sets it).
struct Load3dV2Args {
    uint8_t padList[4];
    uint16_t l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt;
    uint8_t strideW, strideH, filterW, filterH, dilationFilterW, dilationFilterH;
    bool enTranspose, enSmallK, filterSizeW, filterSizeH, fMatrixCtrl;
    bool setFmatrix, setPadding;
    uint64_t padding;
};
void LoadData3DV2(const CubeOperand& dst, const CubeOperand& src, const Load3dV2Args& a);
void SetFmatrixRegister(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], uint8_t fmatrixMode);
void SetPaddingRegister(uint64_t value);
void SetLoad3dRepeatRegister(uint16_t repeatStride, uint8_t repeatTime, uint8_t repeatMode);
void SetLoad3dBoundaryRegister(uint32_t boundaryValue);

// The pad register's value for a pad of type T (A2: b16/b32 their bits; b8 the byte twice; b4 the nibble in
// every nibble of those bits).
template <typename T>
uint64_t PaddingBits(const T v)
{
    if constexpr (std::is_same_v<T, int4b_t>) {
        const uint64_t n = v.storage & 0xfu;
        return (n << 12) | (n << 8) | (n << 4) | n;
    } else if constexpr (sizeof(T) == 1) {
        const uint64_t b = static_cast<uint8_t>(v);
        return (b << 8) | b;
    } else if constexpr (sizeof(T) == 2) {
        uint16_t bits;
        std::memcpy(&bits, &v, 2);
        return bits;
    } else {
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        return bits;
    }
}
}  // namespace twin_detail

// A2's types (kernel_operator_mm_base_impl.h, __NPU_ARCH__ 2201): into L0A int4b_t, uint8_t, int8_t, half,
// bfloat16_t, float, uint32_t, int32_t; into L0B the 16- and 32-bit ones (checked when the destination is known:
// A2's L0B form does nothing for b4/b8).
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData3DParamsV2<U>& loadDataParams)
{
    static_assert(std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, half> ||
                      std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float> || std::is_same_v<T, uint32_t> ||
                      std::is_same_v<T, int32_t> || std::is_same_v<T, int4b_t>,
                  "LoadData with LoadData3DParamsV2 on A2 supports int4b_t (into L0A), uint8_t, int8_t, half, "
                  "bfloat16_t, float, uint32_t and int32_t");
    const LoadData3DParamsV2<U>& p = loadDataParams;
    twin_detail::Load3dV2Args a{{p.padList[0], p.padList[1], p.padList[2], p.padList[3]},
                                p.l1H, p.l1W, p.channelSize, p.kExtension, p.mExtension, p.kStartPt, p.mStartPt,
                                p.strideW, p.strideH, p.filterW, p.filterH, p.dilationFilterW, p.dilationFilterH,
                                p.enTranspose, p.enSmallK, p.filterSizeW, p.filterSizeH, p.fMatrixCtrl,
                                defaultConfig.isSetFMatrix, defaultConfig.isSetPadding,
                                twin_detail::PaddingBits<U>(p.padValue)};
    twin_detail::LoadData3DV2(twin_detail::Operand("dst", dst), twin_detail::Operand("src", src), a);
}

template <typename T>
__aicore__ inline void SetLoadDataPaddingValue(const T padValue)
{
    static_assert(std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, uint16_t> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                      std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, float>,
                  "SetLoadDataPaddingValue on A2 supports int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, "
                  "int32_t, uint32_t and float");
    twin_detail::SetPaddingRegister(twin_detail::PaddingBits<T>(padValue));
}

__aicore__ inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode)
{
    twin_detail::SetFmatrixRegister(l1H, l1W, padList, static_cast<uint8_t>(fmatrixMode));
}

__aicore__ inline void SetLoadDataBoundary(uint32_t boundaryValue)
{
    twin_detail::SetLoad3dBoundaryRegister(boundaryValue);
}

__aicore__ inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams)
{
    twin_detail::SetLoad3dRepeatRegister(repeatParams.repeatStride, repeatParams.repeatTime, repeatParams.repeatMode);
}

}  // namespace AscendC

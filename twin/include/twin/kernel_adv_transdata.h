// TransData of the advanced API (高阶API/张量变换/TransData), A2 forms (include/adv_api/transpose/transdata.h,
// transdata_common.h):
//   template <const TransDataConfig& config, typename T, typename U, typename S>
//   TransData(dstTensor, srcTensor, sharedTmpBuffer, const TransDataParams<U, S>& params)
//   TransData(dstTensor, srcTensor, params)                      (the framework's buffer, PopStackBuffer)
// TransDataConfig {srcFormat, dstFormat} and TransDataParams<U, S> {srcLayout, dstLayout} (Layout, kernel_layout.h).
// Kernels include it as "lib/transpose/transdata.h". Checked against the header, A2's implementation
// (impl/adv_api/detail/transpose/transdata/transdata_impl.h: n, c, d, h, w are read from the NCDHW layout), its
// CPU-debug checks (api_check/kernel_check/transpose/transdata/transdata_check_common.h), the host tiling
// (impl/adv_api/tiling/transpose/transdata_tiling.cpp) and the docs.
//
// The four conversions (C0 = N0 = 16; an NCDHW tensor in UB keeps each (n, c, d) row of h * w elements padded to a
// multiple of 16, padHw; docs: the caller pads an NCDHW source, the API pads an NCDHW result with invalid data):
//   NCDHW -> FRACTAL_Z_3D [D, C1, H, W, N1, N0, C0], NCDHW -> NDC1HWC0 [N, D, C1, H, W, C0], and back. The twin
//   moves the elements as one V instruction (counted as TransDataTo5HD repeats); an NCDHW result's padding columns
//   are left as unspecified bytes, and so is the part of the temporary buffer A2 uses. With c (n) not a multiple of
//   16 the padded C0 (N0) lanes of a FRACTAL_Z_3D / NDC1HWC0 result are 0 (A2's TransDataTo5HD lists point them at
//   the zeros it Duplicates into the buffer's start); a source's padded lanes are dropped.
//
// T is int16_t, uint16_t, half or bfloat16_t; U and S Layouts of 5, 7 or 6 modes as the formats want (static_asserts,
// A2's); config one of the four pairs (a static_assert: stricter than A2, which compiles another pair into nothing). Rules (the error names each): operands at VECIN/VECCALC/VECOUT, 32-byte
// aligned; the NCDHW tensor holds n * c * d * padHw elements, the other n1/c1/d/h/w/n0/c0 matching the NCDHW shape
// (c1 = ceil(c / c0), n1 = ceil(n / n0), d, h, w equal) and holding its product; c0 and n0 16 (docs); the buffer
// holds GetTransDataMaxMinTmpSize's size for the shape and overlaps neither operand (docs); src and dst do not
// overlap (docs).
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_adv_common.h"
#include "twin/kernel_layout.h"
#include "twin/kernel_shape_info.h"

namespace AscendC {

template <typename T, typename U>
struct TransDataParams {
    T srcLayout;
    U dstLayout;
};

#ifndef ASCC_PARAM_TRANSDATACONFIG
#define ASCC_PARAM_TRANSDATACONFIG
struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};
#endif  // ASCC_PARAM_TRANSDATACONFIG

namespace twin_detail {

enum class TransDataKind { kNcdhwToFz3d, kFz3dToNcdhw, kNcdhwTo6hd, k6hdToNcdhw };

void TransDataRun(TransDataKind kind, const MathOperand& dst, const MathOperand& src, const MathOperand& tmp,
                  bool framework, const int32_t* ncdhw, const int32_t* other, int otherDims);

template <typename L, size_t... Is>
inline void TransDataDims(const L& layout, int32_t* out, std::index_sequence<Is...>)
{
    const auto shape = layout.GetShape();
    ((out[Is] = static_cast<int32_t>(Std::get<Is>(shape))), ...);
}

template <const TransDataConfig& config, typename T, typename U, typename S>
inline void TransDataForm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                          bool framework, const TransDataParams<U, S>& params)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, uint16_t> ||
                      std::is_same_v<T, int16_t>,
                  "TransData: current only supports half/bfloat16_t/uint16_t/int16_t types");
    static_assert(is_layout_v<U>, "TransData: srcLayout must be a layout");
    static_assert(is_layout_v<S>, "TransData: dstLayout must be a layout");
    constexpr size_t srcDims = Std::tuple_size_v<Std::remove_cvref_t<decltype(params.srcLayout.GetShape())>>;
    constexpr size_t dstDims = Std::tuple_size_v<Std::remove_cvref_t<decltype(params.dstLayout.GetShape())>>;
    constexpr DataFormat from = config.srcFormat, to = config.dstFormat;
    constexpr bool fz = (from == DataFormat::NCDHW && to == DataFormat::FRACTAL_Z_3D);
    constexpr bool zf = (from == DataFormat::FRACTAL_Z_3D && to == DataFormat::NCDHW);
    constexpr bool h6 = (from == DataFormat::NCDHW && to == DataFormat::NDC1HWC0);
    constexpr bool b6 = (from == DataFormat::NDC1HWC0 && to == DataFormat::NCDHW);
    static_assert(fz || zf || h6 || b6, "TransData: config is (NCDHW, FRACTAL_Z_3D), (FRACTAL_Z_3D, NCDHW), "
                                        "(NCDHW, NDC1HWC0) or (NDC1HWC0, NCDHW) (the twin is stricter: A2 compiles "
                                        "another pair and does nothing, its CPU-debug check refuses it)");
    static_assert(srcDims == (zf ? 7 : (b6 ? 6 : 5)), "TransData: srcLayout's shape has the source format's dims "
                                                      "(NCDHW 5, FRACTAL_Z_3D 7, NDC1HWC0 6)");
    static_assert(dstDims == (fz ? 7 : (h6 ? 6 : 5)), "TransData: dstLayout's shape has the destination format's "
                                                      "dims (NCDHW 5, FRACTAL_Z_3D 7, NDC1HWC0 6)");
    int32_t s[7] = {0}, d[7] = {0};
    TransDataDims(params.srcLayout, s, std::make_index_sequence<srcDims>{});
    TransDataDims(params.dstLayout, d, std::make_index_sequence<dstDims>{});
    const bool srcIsNcdhw = from == DataFormat::NCDHW;
    const TransDataKind kind = fz ? TransDataKind::kNcdhwToFz3d
                                  : (zf ? TransDataKind::kFz3dToNcdhw
                                        : (h6 ? TransDataKind::kNcdhwTo6hd : TransDataKind::k6hdToNcdhw));
    TransDataRun(kind, AdvOperand(dst), AdvOperand(src), AdvOperand(tmp), framework, srcIsNcdhw ? s : d,
                 srcIsNcdhw ? d : s, static_cast<int>(srcIsNcdhw ? dstDims : srcDims));
}

}  // namespace twin_detail

template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params)
{
    twin_detail::TransDataForm<config, T, U, S>(dstTensor, srcTensor, sharedTmpBuffer, false, params);
}

template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const TransDataParams<U, S>& params)
{
    twin_detail::TransDataForm<config, T, U, S>(dstTensor, srcTensor, twin_detail::AdvFrameworkTmpTensor("TransData"),
                                                 true, params);
}

}  // namespace AscendC

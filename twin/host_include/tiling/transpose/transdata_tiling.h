// TransData's host size function on the twin, with the real name and signature (asc-devkit
// include/adv_api/transpose/transdata_tiling.h; host code reaches it as "tiling/transpose/transdata_tiling.h",
// "lib/transpose/transdata_tiling.h" or through "tiling/tiling_api.h"):
//   bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform, const TensorShape& srcShape,
//                                  const TensorShape& dstShape, const TensorDataType dataType,
//                                  const TransDataConfig& config, uint32_t& maxValue, uint32_t& minValue);
// A2's impl/adv_api/tiling/transpose/transdata_tiling.cpp: the shapes checked against the formats (NCDHW 5 dims,
// NDC1HWC0 6, FRACTAL_Z_3D 7; the other's n/d/h/w those of the NCDHW shape, c0 = n0 = 16, c1 = ceil(c / 16),
// n1 = ceil(n / 16)), DT_FLOAT16/DT_BF16/DT_UINT16/DT_INT16 only, the four format pairs only; a failed check is
// reported on stderr naming the function and returns false. The size (bytes, maximum = minimum), padHw = h * w
// rounded up to 16: NCDHW -> NDC1HWC0 2 * d * padHw * (1 + c1 * 16); back 2 * d * c1 * 16 * padHw + 512;
// NCDHW -> FRACTAL_Z_3D max(2 * c * d * padHw, 2 * d * h * w * n1 * 16) + 2 * n1 * 16 * d * c1 * 16 * padHw; back
// 2 * n1 * 16 * c1 * 16 * d * padHw, twice that when c or n is not a multiple of 16. Inline: nothing to link.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/tensor.h"
#include "graph/types.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

using TensorShape = ge::Shape;        // include/adv_api/utils/types.h
using TensorDataType = ge::DataType;  // include/adv_api/utils/types.h

#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
#endif
#ifndef ASCC_PARAM_TRANSDATACONFIG
#define ASCC_PARAM_TRANSDATACONFIG
struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};
#endif

inline bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform,
                                      const AscendC::TensorShape& srcShape, const AscendC::TensorShape& dstShape,
                                      const AscendC::TensorDataType dataType, const TransDataConfig& config,
                                      uint32_t& maxValue, uint32_t& minValue)
{
    (void)platform;  // the twin's platform is dav-2201, one of the three A2 accepts
    const char* fn = "[TransData][GetTransDataMaxMinTmpSize]";
    if (dataType != ge::DT_FLOAT16 && dataType != ge::DT_BF16 && dataType != ge::DT_UINT16 &&
        dataType != ge::DT_INT16) {
        std::fprintf(stderr, "%s it only supports DT_FLOAT16/DT_BF16/DT_UINT16/DT_INT16 data type\n", fn);
        return false;
    }
    using F = DataFormat;
    const bool toFz = config.srcFormat == F::NCDHW && config.dstFormat == F::FRACTAL_Z_3D;
    const bool fromFz = config.srcFormat == F::FRACTAL_Z_3D && config.dstFormat == F::NCDHW;
    const bool to6hd = config.srcFormat == F::NCDHW && config.dstFormat == F::NDC1HWC0;
    const bool from6hd = config.srcFormat == F::NDC1HWC0 && config.dstFormat == F::NCDHW;
    if (!toFz && !fromFz && !to6hd && !from6hd) {
        std::fprintf(stderr, "%s The parameter config srcFormat/dstFormat only supports "
                             "(NCDHW, FRACTAL_Z_3D)/(FRACTAL_Z_3D, NCDHW)/(NCDHW, NDC1HWC0)/(NDC1HWC0, NCDHW)!\n", fn);
        return false;
    }
    const std::vector<int64_t> src = srcShape.GetDims(), dst = dstShape.GetDims();
    const std::vector<int64_t>& nc = (toFz || to6hd) ? src : dst;
    const std::vector<int64_t>& ot = (toFz || to6hd) ? dst : src;
    const size_t otDims = (toFz || fromFz) ? 7 : 6;
    if (nc.size() != 5 || ot.size() != otDims) {
        std::fprintf(stderr, "%s input shapes are not matched with DataFormat.\n", fn);
        std::fprintf(stderr, "%s failed to validate inputs informations.\n", fn);
        return false;
    }
    const int64_t n = nc[0], c = nc[1], d = nc[2], h = nc[3], w = nc[4];
    const int64_t c1 = (c + 15) / 16, n1 = (n + 15) / 16, padHw = (h * w + 15) / 16 * 16;
    bool ok = true;
    if (toFz || fromFz) {  // [D, C1, H, W, N1, N0, C0]
        ok = ot[0] == d && ot[2] == h && ot[3] == w && ot[6] == 16 && ot[1] == c1 && ot[5] == 16 &&
             ot[4] == n1;
    } else {  // [N, D, C1, H, W, C0]
        ok = ot[0] == n && ot[1] == d && ot[3] == h && ot[4] == w && ot[5] == 16 && ot[2] == c1;
    }
    if (!ok) {
        std::fprintf(stderr, "%s failed to validate inputs informations.\n", fn);
        return false;
    }
    int64_t bytes = 0;
    if (to6hd) bytes = d * padHw * 2 + d * c1 * 16 * padHw * 2;
    if (from6hd) bytes = d * c1 * 16 * padHw * 2 + 512;
    if (toFz) bytes = std::max(c * d * padHw * 2, d * h * w * n1 * 16 * 2) + n1 * 16 * d * c1 * 16 * padHw * 2;
    if (fromFz) bytes = n1 * 16 * c1 * 16 * d * padHw * 2 * ((n == n1 * 16 && c == c1 * 16) ? 1 : 2);
    maxValue = minValue = static_cast<uint32_t>(bytes);
    return true;
}

}  // namespace AscendC

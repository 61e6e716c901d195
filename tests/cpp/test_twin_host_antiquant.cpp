// AscendAntiQuant's host size functions (tiling/quantization/ascend_antiquant_tiling.h) return A2's sizes: half
// output, per tensor and per channel, transposed or not, fp4 inputs, and the factor form; the kernel side is not
// modelled by the twin.
#include <cstdint>

#include "check.h"
#include "tiling/ascend_antiquant/ascend_antiquant_tiling.h"
#include "tiling/quantization/ascend_antiquant_tiling.h"

using namespace AscendC;

TEST_CASE("GetAscendAntiQuantMaxMinTmpSize: A2's sizes")
{
    const ge::Shape src({64, 256}), perChannel({1, 256}), perTensor({1}), srcT({256, 64}), scaleT({256});
    uint32_t mx = 1, mn = 1;
    GetAscendAntiQuantMaxMinTmpSize(src, perChannel, false, ge::DT_INT8, ge::DT_FLOAT16, mx, mn);
    CHECK_EQ(mx, 0u);
    CHECK_EQ(mn, 0u);
    GetAscendAntiQuantMaxMinTmpSize(src, perTensor, false, ge::DT_INT8, ge::DT_BF16, mx, mn);
    CHECK_EQ(mx, 64u * 256 * 4);
    CHECK_EQ(mn, 1024u);
    GetAscendAntiQuantMaxMinTmpSize(src, perChannel, false, ge::DT_INT8, ge::DT_BF16, mx, mn);  // K = srcShape[0]
    CHECK_EQ(mx, 256u * 2 * 4 + 64 * 64 * 4);
    CHECK_EQ(mn, mx);
    GetAscendAntiQuantMaxMinTmpSize(srcT, scaleT, true, ge::DT_INT8, ge::DT_BF16, mx, mn);
    CHECK_EQ(mx, 80u * 256 * 4);
    CHECK_EQ(mn, mx);
    GetAscendAntiQuantMaxMinTmpSize(srcT, perTensor, true, ge::DT_INT8, ge::DT_BF16, mx, mn);
    CHECK_EQ(mx, 256u * 64 * 4);
    CHECK_EQ(mn, 1024u);
    GetAscendAntiQuantMaxMinTmpSize(srcT, ge::Shape({3, 7}), true, ge::DT_FLOAT4_E2M1, ge::DT_BF16, mx, mn);
    CHECK_EQ(mx, 64u);  // 21 rounded up to 32, twice
    CHECK_EQ(mn, 64u);
    GetAscendAntiQuantMaxMinTmpSize(srcT, ge::Shape({3, 7}), false, ge::DT_FLOAT4_E1M2, ge::DT_BF16, mx, mn);
    CHECK_EQ(mx, 0u);
    CHECK_EQ(GetAscendAntiQuantMaxTmpSize(src, perChannel, false, ge::DT_INT4, ge::DT_BF16), 256u * 8 + 64 * 64 * 4);
    CHECK_EQ(GetAscendAntiQuantMinTmpSize(src, perTensor, false, ge::DT_INT4, ge::DT_BF16), 1024u);
}

TEST_CASE("GetAscendAntiQuantTmpBufferFactorSize: A2's factors")
{
    const ge::Shape src({64, 256}), perChannel({1, 256}), perTensor({1});
    uint32_t live = 9, extra = 9;
    GetAscendAntiQuantTmpBufferFactorSize(src, perChannel, false, ge::DT_INT8, ge::DT_FLOAT16, live, extra);
    CHECK_EQ(live, 0u);
    CHECK_EQ(extra, 0u);
    GetAscendAntiQuantTmpBufferFactorSize(src, perTensor, true, ge::DT_INT8, ge::DT_BF16, live, extra);
    CHECK_EQ(live, 1u);
    CHECK_EQ(extra, 0u);
    GetAscendAntiQuantTmpBufferFactorSize(src, perChannel, false, ge::DT_INT8, ge::DT_BF16, live, extra);
    CHECK_EQ(live, 0u);
    CHECK_EQ(extra, 256u * 8 + 64 * 64 * 4);
    GetAscendAntiQuantTmpBufferFactorSize(src, perChannel, true, ge::DT_INT8, ge::DT_BF16, live, extra);
    CHECK_EQ(extra, 80u * 256 * 4);
    GetAscendAntiQuantTmpBufferFactorSize(src, ge::Shape({40}), true, ge::DT_FLOAT4_E2M1, ge::DT_BF16, live, extra);
    CHECK_EQ(live, 0u);
    CHECK_EQ(extra, 128u);
}

TEST_MAIN()

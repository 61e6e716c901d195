// The SoftMax family's option and shape types, as kernels include them ("lib/activation/softmax_utils.h"; asc-devkit
// include/adv_api/activation/softmax_utils.h): SoftmaxMode, SoftmaxConfig (constexpr constructors of 1, 3 and 4
// arguments, no default constructor, as declared there), SOFTMAX_DEFAULT_CFG, SoftMaxParams (SoftmaxFlashV3) and
// SoftMaxShapeInfo. Every SoftMax header and the twin's kernel_operator.h include it.
#pragma once

#include <cstdint>

#include "twin/kernel_types.h"

namespace AscendC {

enum class SoftmaxMode {
    SOFTMAX_NORMAL = 0,
    SOFTMAX_OUTPUT_WITHOUT_BRC = 1,  // the statistics one element a row instead of one 32-byte block (FlashV2)
};

struct SoftmaxConfig {
    __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn) { isCheckTiling = isCheckTilingIn; }
    __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
    {
        isCheckTiling = isCheckTilingIn;
        oriSrcM = oriSrcMIn;
        oriSrcK = oriSrcKIn;
    }
    __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                                       const enum SoftmaxMode modeIn)
    {
        isCheckTiling = isCheckTilingIn;
        oriSrcM = oriSrcMIn;
        oriSrcK = oriSrcKIn;
        mode = modeIn;
    }
    bool isCheckTiling = true;  // recompute the tiling when the call's shape is not the tiling's
    uint32_t oriSrcM = 0;       // a compile-time shape (both non-zero): the reduction runs over oriSrcK columns
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};

constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

struct SoftMaxParams {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
    uint32_t loopCnt{1};
    uint32_t splitMeanCnt{8};
    float alpha{0.9375};
};

struct SoftMaxShapeInfo {
    uint32_t srcM{0};     // rows (the product of the non-last axes)
    uint32_t srcK{0};     // the row length in UB: 32-byte aligned
    uint32_t oriSrcM{0};  // the rows of the original data
    uint32_t oriSrcK{0};  // the original row length: the reductions cover oriSrcK columns
};

}  // namespace AscendC

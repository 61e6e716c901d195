// The SoftMax family of the activation API (高阶API/激活函数/SoftMax接口, LogSoftMax接口), A2 forms: SoftMax,
// SimpleSoftMax, SoftmaxFlash (deprecated), SoftmaxFlashV2, LogSoftMax, SoftmaxGrad, SoftmaxGradFront,
// AdjustSoftMaxRes and the kernel-side SoftMaxFlashV2TilingFunc. Kernels include them as
// "lib/activation/softmax.h", "simplesoftmax.h", "softmaxflash.h", "softmaxflashv2.h", "logsoftmax.h",
// "softmaxgrad.h" (asc-devkit include/adv_api/activation/); A2's kernel_operator.h includes them all, and so does
// the twin's. Checked against those headers, the A2 implementations (impl/adv_api/detail/activation/softmax/
// membase/v220, membase/common, softmax_common), their API checks (impl/adv_api/detail/api_check/kernel_check/
// activation/softmax/) and the docs.
//
// Every call sees its source as [srcM, srcK] rows (softmaxShapeInfo; srcK 32-byte aligned) of which the first
// oriSrcK columns are data: the row reductions (max, sum) cover oriSrcK columns, the elementwise steps all srcK
// (the padding columns come out as the formula gives them, as the docs say: "补齐的数据会参与部分运算"). The rows
// computed are the ones the tiling's parts cover (rangeM * splitM + tailM: srcM for a host tiling, oriSrcM for the
// one SoftMax/SimpleSoftMax/LogSoftMax recompute on the kernel side); when the call's srcM/srcK are not the
// tiling's, the API recomputes the tiling from its temporary buffer, as A2 does (SoftmaxFlashV2 only with
// config.isCheckTiling; LogSoftMax always). Statistics (max, sum, expMax, inMax, inSum) are one 32-byte block a
// row holding the row's value in every element ([m, 8] float, [m, 16] half), or with
// SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC (SoftmaxFlashV2 only: A2's other APIs ignore the mode) one element a
// row. The twin computes each row in double from the input values and rounds each output once (A2 computes in
// float, half through Casts: a few ulp apart); the formulas are the docs':
//   SoftMax        max = rowmax, sum = Σ e^(x - max), dst = e^(x - max) / sum
//   SimpleSoftMax  dst = e^(x - inMax) / inSum
//   LogSoftMax     max, sum as SoftMax, dst = log10(e^(x - max) / sum) (A2: Ln then Muls by 1/ln 10)
//   SoftmaxFlash   isUpdate false: SoftMax; true: max = max(inMax, rowmax), e = e^(x - max),
//                  sum = e^(inMax - max) * inSum + Σ e, expMax = e^(inMax - max) * inSum / sum, dst = e / sum
//   SoftmaxFlashV2 isUpdate false: max = rowmax, dst = e^(x - max), sum = Σ dst (expMax untouched); true:
//                  max = max(inMax, rowmax), dst = e^(x - max), expMax = e^(inMax - max), sum = expMax * inSum + Σ dst;
//                  the outReduceMax form also writes rowmax there (only with SOFTMAX_OUTPUT_WITHOUT_BRC and isUpdate:
//                  with SOFTMAX_NORMAL that form does nothing, as the docs and A2 say)
//   SoftmaxGrad    d = Σ grad * src; isFront: dst = d (a block a row); else dst = (grad - d) * src
//   SoftmaxGradFront  dst = Σ grad * src (a block a row)
// The call is one V instruction reading its inputs (the rows it covers, and whole statistics blocks), writing the
// temporary buffer's part the tiling uses (left as NaN bytes) and its outputs, counted as its own VecOp (srcM * srcK
// element-ops); the mask is left normal and full, as A2 leaves it. AdjustSoftMaxRes runs A2's own sequence with the
// twin's instructions (a V->S flag, scalar reads of maxTensor, Duplicate rows of softMaxRes).
//
// Run-time rules (the error names each; twin/src/adv_softmax.cpp): T half/float (compile time, as A2's checks);
// every tensor at VECIN/VECCALC/VECOUT, 32-byte aligned; srcM, srcK given (the twin does not model a tensor's
// ShapeInfo, the shape A2 takes when they are 0), srcK * sizeof(T) a multiple of 32, 1 <= oriSrcK <= srcK,
// oriSrcM <= srcM; src (and grad) hold srcM * srcK elements, dst as many; the statistics tensors hold a block
// (or an element) for every row computed; the tiling is one A2's tiling functions produce for this shape (splitM
// > 0, splitK = srcK, the parts' sizes, at most srcM rows covered; with config.isCheckTiling false it is for
// this srcM/srcK); the temporary buffer holds splitM * the API's row size (SoftmaxKernelRowFloatsA2 in
// twin/softmax_tiling_a2.h; without sharedTmpBuffer: the UB after the TPipe's buffers, as A2's PopStackBuffer)
// and overlaps no operand; isBasicBlock needs srcK < 2048, srcK >= 256 / sizeof(T), srcK % 64 == 0 and
// srcM % 8 == 0 (A2's check); an output overlaps no other operand, except the documented in-place pairs
// (src/dst but for LogSoftMax, maxTensor/inMaxTensor and expSumTensor/inExpSumTensor for the Flash APIs), which
// start at the same address; every block of an input statistics tensor holds one value; LogSoftMax's input lies in
// [-2147483647, 2147483647] (outside it the row's outputs are NaN: "输出结果无效"). isDataFormatNZ = true (the NZ
// layout) is refused: the twin models the ND layout only. Where A2's basic-block paths reuse an input as scratch
// (SoftmaxFlashV2 WITHOUT_BRC float with isBasicBlock), the twin leaves the input unchanged.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/activation/softmax_utils.h"
#include "twin/kernel_adv_math.h"
#include "twin/kernel_sync.h"
#include "twin/kernel_sys_var.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"
#include "twin/kernel_vec_repeat.h"
#include "twin/softmax_tiling_a2.h"

namespace AscendC {
namespace twin_detail {

struct SmTensor {
    uint8_t* addr = nullptr;
    uint64_t bytes = 0;  // what the tensor holds
    TPosition pos = TPosition::VECCALC;
    uint32_t typeSize = 0;
    bool present = false;
};

template <typename T>
inline SmTensor SmOf(const LocalTensor<T>& t)
{
    return SmTensor{reinterpret_cast<uint8_t*>(TwinData(t)), static_cast<uint64_t>(t.GetSize()) * sizeof(T),
                    TwinPosition(t), static_cast<uint32_t>(sizeof(T)), true};
}

struct SoftmaxCall {
    ascend_twin::SoftmaxApi api = ascend_twin::SoftmaxApi::kSoftMax;
    const char* name = "";
    bool isBasicBlock = false;
    bool isDataFormatNZ = false;
    bool isUpdate = false;
    bool isFront = false;
    bool withoutBrc = false;    // SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC (FlashV2)
    bool checkTiling = true;    // recompute on a shape mismatch
    bool alwaysRecompute = false;  // LogSoftMax
    bool outReduceMax = false;  // FlashV2's form with outReduceMax
    uint32_t cfgOriSrcM = 0;
    uint32_t cfgOriSrcK = 0;
    SoftMaxShapeInfo shape;
    const tiling::SoftMaxTiling* tiling = nullptr;
    bool framework = false;  // the temporary buffer is the framework's (no sharedTmpBuffer)
    SoftMaxParams params;    // SoftmaxFlashV3: loopCnt, splitMeanCnt, alpha (and the shape)
    SmTensor dst, src, grad, sum, max, expMax, inSum, inMax, reduceMax, tmp, mean, inMean;
};

// Checks the rules above, records the instruction and computes the outputs.
void SoftmaxRun(SoftmaxCall& call);

template <typename T>
inline constexpr bool kSmHalfFloat = std::is_same_v<T, half> || std::is_same_v<T, float>;

inline SmTensor SmFramework(const char* call)
{
    TPipe* pipe = GetTPipePtr();
    uint64_t bytes = 0;
    uint8_t* p = AdvFrameworkTmp(call, pipe, pipe == nullptr ? 0 : TwinUbEnd(*pipe), bytes);
    return SmTensor{p, bytes, TPosition::VECCALC, 1, true};
}

inline void SmSetTmp(SoftmaxCall& c, const LocalTensor<uint8_t>* sharedTmpBuffer)
{
    if (sharedTmpBuffer != nullptr) {
        c.tmp = SmOf(*sharedTmpBuffer);
    } else {
        c.tmp = SmFramework(c.name);
        c.framework = true;
    }
}

template <const SoftmaxConfig& config>
inline void SmSetConfig(SoftmaxCall& c)
{
    c.checkTiling = config.isCheckTiling;
    c.cfgOriSrcM = config.oriSrcM;
    c.cfgOriSrcK = config.oriSrcK;
}

// SoftMax and SimpleSoftMax (the same operands but for the statistics' direction).
template <ascend_twin::SoftmaxApi api, typename T1, typename T2, bool isBasicBlock, bool isDataFormatNZ,
          const SoftmaxConfig& config>
inline void SoftMaxRun(const LocalTensor<T1>& dst, const LocalTensor<T2>* sum, const LocalTensor<T2>* max,
                       const LocalTensor<T1>& src, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                       const SoftMaxShapeInfo& shape)
{
    constexpr bool kTypes = kSmHalfFloat<T1> && kSmHalfFloat<T2>;
    static_assert(api != ascend_twin::SoftmaxApi::kSoftMax || kTypes, "SoftMax on A2 supports half and float");
    static_assert(api != ascend_twin::SoftmaxApi::kSimpleSoftMax || kTypes,
                  "SimpleSoftMax on A2 supports half and float");
    SoftmaxCall c;
    c.api = api;
    c.name = api == ascend_twin::SoftmaxApi::kSoftMax ? "SoftMax" : "SimpleSoftMax";
    c.isBasicBlock = isBasicBlock;
    c.isDataFormatNZ = isDataFormatNZ;
    SmSetConfig<config>(c);
    c.checkTiling = true;  // SoftMax and SimpleSoftMax always compare the shape with the tiling's
    c.shape = shape;
    c.tiling = &tiling;
    c.dst = SmOf(dst);
    c.src = SmOf(src);
    if (sum != nullptr) (api == ascend_twin::SoftmaxApi::kSoftMax ? c.sum : c.inSum) = SmOf(*sum);
    if (max != nullptr) (api == ascend_twin::SoftmaxApi::kSoftMax ? c.max : c.inMax) = SmOf(*max);
    SmSetTmp(c, tmp);
    SoftmaxRun(c);
}

template <typename T1, typename T2, bool isUpdate, bool isBasicBlock, bool isDataFormatNZ, const SoftmaxConfig& config>
inline void SoftmaxFlashV2Run(const LocalTensor<T1>& dst, const LocalTensor<T2>* outReduceMax,
                              const LocalTensor<T2>& sum, const LocalTensor<T2>& max, const LocalTensor<T1>& src,
                              const LocalTensor<T1>& expMax, const LocalTensor<T2>& inSum,
                              const LocalTensor<T2>& inMax, const LocalTensor<uint8_t>* tmp,
                              const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape)
{
    static_assert(kSmHalfFloat<T1> && kSmHalfFloat<T2>, "SoftmaxFlashV2 on A2 supports half and float");
    SoftmaxCall c;
    c.api = ascend_twin::SoftmaxApi::kSoftmaxFlashV2;
    c.name = "SoftmaxFlashV2";
    c.isBasicBlock = isBasicBlock;
    c.isDataFormatNZ = isDataFormatNZ;
    c.isUpdate = isUpdate;
    SmSetConfig<config>(c);
    c.withoutBrc = config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC;
    c.shape = shape;
    c.tiling = &tiling;
    c.dst = SmOf(dst);
    c.src = SmOf(src);
    c.sum = SmOf(sum);
    c.max = SmOf(max);
    if (isUpdate) {
        c.expMax = SmOf(expMax);
        c.inSum = SmOf(inSum);
        c.inMax = SmOf(inMax);
    }
    if (outReduceMax != nullptr) {
        // The outReduceMax form: A2 runs it only in the WITHOUT_BRC mode (docs: "其配置为SOFTMAX_NORMAL模式时，
        // 接口功能不执行"), with the tiling as given (config.isCheckTiling is reserved there).
        if (!c.withoutBrc) return;
        c.outReduceMax = true;
        c.checkTiling = false;
        if (isUpdate) c.reduceMax = SmOf(*outReduceMax);
    }
    SmSetTmp(c, tmp);
    SoftmaxRun(c);
}

template <typename T1, typename T2, bool isBasicBlock>
inline void SoftmaxFlashRun(const LocalTensor<T1>& dst, const LocalTensor<T2>& sum, const LocalTensor<T2>& max,
                            const LocalTensor<T1>& src, const LocalTensor<T1>& expMax, const LocalTensor<T2>& inSum,
                            const LocalTensor<T2>& inMax, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                            bool isUpdate, const SoftMaxShapeInfo& shape)
{
    static_assert(kSmHalfFloat<T1> && kSmHalfFloat<T2>, "SoftmaxFlash on A2 supports half and float");
    SoftmaxCall c;
    c.api = ascend_twin::SoftmaxApi::kSoftmaxFlash;
    c.name = "SoftmaxFlash";
    c.isBasicBlock = isBasicBlock;
    c.isUpdate = isUpdate;
    c.shape = shape;
    c.tiling = &tiling;
    c.dst = SmOf(dst);
    c.src = SmOf(src);
    c.sum = SmOf(sum);
    c.max = SmOf(max);
    if (isUpdate) {
        c.expMax = SmOf(expMax);
        c.inSum = SmOf(inSum);
        c.inMax = SmOf(inMax);
    }
    SmSetTmp(c, tmp);
    SoftmaxRun(c);
}

template <typename T, bool isBasicBlock, bool isDataFormatNZ>
inline void SoftmaxGradRun(ascend_twin::SoftmaxApi api, const LocalTensor<T>& dst, const LocalTensor<T>& grad,
                           const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                           bool isFront, const SoftMaxShapeInfo& shape)
{
    static_assert(kSmHalfFloat<T>, "SoftmaxGrad on A2 supports half and float");
    SoftmaxCall c;
    c.api = api;
    c.name = api == ascend_twin::SoftmaxApi::kSoftmaxGrad ? "SoftmaxGrad" : "SoftmaxGradFront";
    c.isBasicBlock = isBasicBlock;
    c.isDataFormatNZ = isDataFormatNZ;
    c.isFront = isFront;
    c.shape = shape;
    c.tiling = &tiling;
    c.dst = SmOf(dst);
    c.grad = SmOf(grad);
    c.src = SmOf(src);
    SmSetTmp(c, tmp);
    SoftmaxRun(c);
}

}  // namespace twin_detail

// ---- SoftMax (lib/activation/softmax.h) --------------------------------------------------------------------

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftMaxRun<ascend_twin::SoftmaxApi::kSoftMax, T, T, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftMaxRun<ascend_twin::SoftmaxApi::kSoftMax, half, float, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftMaxRun<ascend_twin::SoftmaxApi::kSoftMax, T, T, isBasicBlock, false, config>(
        dstTensor, nullptr, nullptr, srcTensor, nullptr, tiling, softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftMaxRun<ascend_twin::SoftmaxApi::kSoftMax, T, T, isBasicBlock, false, config>(
        dstTensor, nullptr, nullptr, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftMaxRun<ascend_twin::SoftmaxApi::kSoftMax, T, T, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftMaxRun<ascend_twin::SoftmaxApi::kSoftMax, half, float, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo);
}

// AdjustSoftMaxRes: rows whose max equals `from` (its bits, as a float's or a half's) become `to`; true when one
// did. A2's sequence with the twin's instructions: a V->S flag, scalar reads, Duplicate in counter mode.
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
__aicore__ inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                                        const uint32_t from, const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo)
{
    static_assert(twin_detail::kSmHalfFloat<T1> && twin_detail::kSmHalfFloat<T2>,
                  "AdjustSoftMaxRes on A2 supports half and float");
    if (isDataFormatNZ) {
        ascend_twin::Fail("AdjustSoftMaxRes", "the twin models the ND layout of the SoftMax family",
                          "isDataFormatNZ = true (the NZ layout) is not modelled");
    }
    SetMaskNorm();
    ResetMask();
    TPipe* pipe = GetTPipePtr();
    if (pipe == nullptr) {
        ascend_twin::Fail("AdjustSoftMaxRes", "AdjustSoftMaxRes takes its V->S event from the TPipe (FetchEventID)",
                          "there is no TPipe (GetTPipePtr() is null)");
    }
    const event_t eventIdVToS = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(eventIdVToS);
    WaitFlag<HardEvent::V_S>(eventIdVToS);
    const uint32_t step = stepSizeMode != 0 ? 1 : 32 / sizeof(T2);
    bool found = false;
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, softmaxShapeInfo.srcK);
    for (uint32_t j = 0; j < softmaxShapeInfo.srcM; ++j) {
        const T2 maxValue = maxTensor.GetValue(j * step);
        bool hit = false;
        if constexpr (sizeof(T2) == sizeof(float)) {
            uint32_t bits = 0;
            std::memcpy(&bits, &maxValue, sizeof(bits));
            hit = bits == from;
        } else {
            uint16_t bits = 0;
            std::memcpy(&bits, &maxValue, sizeof(bits));
            hit = bits == static_cast<uint16_t>(from);
        }
        if (hit) {
            Duplicate<T1, false>(softMaxRes[j * softmaxShapeInfo.srcK], to, MASK_PLACEHOLDER, 1, 1,
                                 DEFAULT_REPEAT_STRIDE);
            found = true;
        }
    }
    SetMaskNorm();
    ResetMask();
    return found;
}

// ---- SimpleSoftMax (lib/activation/simplesoftmax.h) ---------------------------------------------------------

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                     const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                     const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftMaxRun<ascend_twin::SoftmaxApi::kSimpleSoftMax, T, T, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &inSumTensor, &inMaxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                     const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                     const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftMaxRun<ascend_twin::SoftmaxApi::kSimpleSoftMax, half, float, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &inSumTensor, &inMaxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                     const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftMaxRun<ascend_twin::SoftmaxApi::kSimpleSoftMax, T, T, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &inSumTensor, &inMaxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                     const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftMaxRun<ascend_twin::SoftmaxApi::kSimpleSoftMax, half, float, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &inSumTensor, &inMaxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo);
}

// ---- SoftmaxFlash (lib/activation/softmaxflash.h; deprecated by the real header in favour of SoftmaxFlashV2) ----

#define ASCEND_TWIN_SOFTMAXFLASH_DEPRECATED [[deprecated("softmaxflash.h is deprecated, please use softmaxflashv2.h instead!")]]

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
ASCEND_TWIN_SOFTMAXFLASH_DEPRECATED __aicore__ inline void SoftmaxFlash(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
    const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling, bool isUpdate = false,
    const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxFlashRun<T, T, isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor,
                                                     inSumTensor, inMaxTensor, nullptr, tiling, isUpdate,
                                                     softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
ASCEND_TWIN_SOFTMAXFLASH_DEPRECATED __aicore__ inline void SoftmaxFlash(
    const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
    const LocalTensor<half>& srcTensor, const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
    const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling, bool isUpdate = false,
    const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxFlashRun<half, float, isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor,
                                                            inSumTensor, inMaxTensor, nullptr, tiling, isUpdate,
                                                            softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
ASCEND_TWIN_SOFTMAXFLASH_DEPRECATED __aicore__ inline void SoftmaxFlash(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
    const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxFlashRun<T, T, isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor,
                                                     inSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, isUpdate,
                                                     softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
ASCEND_TWIN_SOFTMAXFLASH_DEPRECATED __aicore__ inline void SoftmaxFlash(
    const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
    const LocalTensor<half>& srcTensor, const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
    const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxFlashRun<half, float, isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor,
                                                            inSumTensor, inMaxTensor, &sharedTmpBuffer, tiling,
                                                            isUpdate, softmaxShapeInfo);
}

#undef ASCEND_TWIN_SOFTMAXFLASH_DEPRECATED

// ---- SoftmaxFlashV2 (lib/activation/softmaxflashv2.h) -------------------------------------------------------

// The kernel-side tiling, documented for kernels whose shape differs from the host's (A2's
// SoftMaxFlashV2TilingFuncImpl; localWorkSpaceSize in bytes). isUpdate does not change it. A2 asserts in the
// CPU-debug build that with isFlashOutputBrc and more than one part, reduceM is a multiple of a block of T1; the twin
// checks that where SoftmaxFlashV2 runs the tiling.
__aicore__ inline constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(
    const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
    const uint32_t localWorkSpaceSize, const bool isUpdate = false, const bool isBasicBlock = false,
    const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false)
{
    ascend_twin::SoftmaxKernelOptions o{};
    o.isBasicBlock = isBasicBlock;
    o.isUpdate = isUpdate;
    o.isDataFormatNZ = isDataFormatNZ;
    return ascend_twin::SoftmaxKernelTilingA2<SoftMaxTiling>(ascend_twin::SoftmaxApi::kSoftmaxFlashV2, shapeInfo.srcM,
                                                             shapeInfo.srcK, shapeInfo.oriSrcM, dataTypeSize1,
                                                             dataTypeSize2, localWorkSpaceSize / 4, o, isFlashOutputBrc);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                                      const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                      const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxFlashV2Run<T, T, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, nullptr, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, nullptr,
        tiling, softmaxShapeInfo);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                      const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxFlashV2Run<half, float, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, nullptr, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, nullptr,
        tiling, softmaxShapeInfo);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                                      const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                      const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxFlashV2Run<T, T, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, nullptr, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
        &sharedTmpBuffer, tiling, softmaxShapeInfo);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                      const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxFlashV2Run<half, float, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, nullptr, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
        &sharedTmpBuffer, tiling, softmaxShapeInfo);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                                      const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                                      const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxFlashV2Run<T, T, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &outReduceMax, outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax, nullptr, tiling,
        softmaxShapeInfo);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                                      const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                                      const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                                      const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxFlashV2Run<T, T, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &outReduceMax, outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax, &sharedTmpBuffer, tiling,
        softmaxShapeInfo);
}

// ---- SoftmaxFlashV3 (lib/activation/softmaxflashv3.h) -------------------------------------------------------

namespace twin_detail {

template <typename T, typename U, bool isUpdate, bool isBasicBlock, bool isDataFormatNZ, const SoftmaxConfig& config>
inline void SoftmaxFlashV3Run(const LocalTensor<T>& dst, const LocalTensor<U>& mean, const LocalTensor<U>& expSum,
                              const LocalTensor<U>& max, const LocalTensor<T>& src, const LocalTensor<T>& expMax,
                              const LocalTensor<U>& inMean, const LocalTensor<U>& inExpSum,
                              const LocalTensor<U>& inMax, const LocalTensor<uint8_t>* tmp,
                              const SoftMaxTiling& tiling, const SoftMaxParams& params)
{
    static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>,
                  "SoftmaxFlashV3 on A2: T is half and U float (A2's check)");
    SoftmaxCall c;
    c.api = ascend_twin::SoftmaxApi::kSoftmaxFlashV3;
    c.name = "SoftmaxFlashV3";
    c.isBasicBlock = isBasicBlock;
    c.isDataFormatNZ = isDataFormatNZ;
    c.isUpdate = isUpdate;
    c.checkTiling = false;  // A2 runs the tiling as given (no kernel-side recomputation for V3)
    c.params = params;
    c.shape = SoftMaxShapeInfo{params.srcM, params.srcK, params.oriSrcM, params.oriSrcK};
    c.tiling = &tiling;
    c.dst = SmOf(dst);
    c.src = SmOf(src);
    c.mean = SmOf(mean);
    c.sum = SmOf(expSum);
    c.max = SmOf(max);
    if (isUpdate) {
        c.expMax = SmOf(expMax);
        c.inMean = SmOf(inMean);
        c.inSum = SmOf(inExpSum);
        c.inMax = SmOf(inMax);
    }
    SmSetTmp(c, tmp);
    SoftmaxRun(c);
}

}  // namespace twin_detail

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                                      const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                                      const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxParams& params)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::SoftmaxFlashV3Run<T, U, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor, inExpSumTensor,
        inMaxTensor, nullptr, tiling, params);
}

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                                      const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                                      const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxParams& params)
{
    if ASCEND_IS_AIC {
        return;
    }
    twin_detail::SoftmaxFlashV3Run<T, U, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor, inExpSumTensor,
        inMaxTensor, &sharedTmpBuffer, tiling, params);
}

// ---- LogSoftMax (lib/activation/logsoftmax.h) ---------------------------------------------------------------

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                                  const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                  const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    static_assert(twin_detail::kSmHalfFloat<T>, "LogSoftMax on A2 supports half and float");
    static_assert(sizeof(LogSoftMaxTiling) == sizeof(SoftMaxTiling), "LogSoftMaxTiling has SoftMaxTiling's fields");
    twin_detail::SoftmaxCall c;
    c.api = ascend_twin::SoftmaxApi::kLogSoftMax;
    c.name = "LogSoftMax";
    c.isDataFormatNZ = isDataFormatNZ;
    c.alwaysRecompute = true;  // A2 recomputes the tiling from sharedTmpBuffer on every call
    c.shape = softmaxShapeInfo;
    c.tiling = reinterpret_cast<const SoftMaxTiling*>(&tiling);
    c.dst = twin_detail::SmOf(dst);
    c.src = twin_detail::SmOf(src);
    c.sum = twin_detail::SmOf(sum);
    c.max = twin_detail::SmOf(max);
    c.tmp = twin_detail::SmOf(sharedTmpBuffer);
    twin_detail::SoftmaxRun(c);
}

// ---- SoftmaxGrad, SoftmaxGradFront (lib/activation/softmaxgrad.h) -----------------------------------------------

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxGradRun<T, false, isDataFormatNZ>(ascend_twin::SoftmaxApi::kSoftmaxGrad, dstTensor, gradTensor,
                                                          srcTensor, nullptr, tiling, isFront, softmaxShapeInfo);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxGradRun<T, isBasicBlock, isDataFormatNZ>(ascend_twin::SoftmaxApi::kSoftmaxGradFront, dstTensor,
                                                                 gradTensor, srcTensor, nullptr, tiling, true,
                                                                 softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxGradRun<T, false, isDataFormatNZ>(ascend_twin::SoftmaxApi::kSoftmaxGrad, dstTensor, gradTensor,
                                                          srcTensor, &sharedTmpBuffer, tiling, isFront,
                                                          softmaxShapeInfo);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {})
{
    twin_detail::SoftmaxGradRun<T, isBasicBlock, isDataFormatNZ>(ascend_twin::SoftmaxApi::kSoftmaxGradFront, dstTensor,
                                                                 gradTensor, srcTensor, &sharedTmpBuffer, tiling, true,
                                                                 softmaxShapeInfo);
}

}  // namespace AscendC

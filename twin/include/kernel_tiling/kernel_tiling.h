// The high-level API tiling structs, as kernels and host code include them ("kernel_tiling/kernel_tiling.h"). On NPU
// machines CANN's generated header of this name is used; the twin's declares the same 26 structs in
// AscendC::tiling with the same field names, types, order and 8-byte packing (each size checked below against the
// real header's), and, like the real header, puts every one of them into the global namespace with a using
// declaration. So tiling bytes written by host code are read unchanged by either side, and a kernel that declares
// its own struct of one of these names (RmsNormTiling, SoftMaxTiling, ...) fails to compile here as it does with
// bisheng (tests/test_twin_adv_api_forms.py, the clash tests). The real header is generated from asc-devkit's
// include/adv_api/**/*_tilingdata.h (impl/adv_api/cmake/scripts/gen_kernel_tiling_data_def.py).
#pragma once

#include <cstdint>

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)

// LogSoftMax (lib/activation/logsoftmax.h).
struct LogSoftMaxTiling {
    uint32_t srcM = 0, srcK = 0, srcSize = 0, outMaxM = 0, outMaxK = 0, outMaxSize = 0, splitM = 0, splitK = 0;
    uint32_t splitSize = 0, reduceM = 0, reduceK = 0, reduceSize = 0, rangeM = 0, tailM = 0, tailSplitSize = 0;
    uint32_t tailReduceSize = 0;
};

// The SoftMax family: SoftMax, SimpleSoftMax, SoftmaxFlash, SoftmaxFlashV2/V3, SoftmaxGrad(Front).
struct SoftMaxTiling {
    uint32_t srcM = 0, srcK = 0, srcSize = 0, outMaxM = 0, outMaxK = 0, outMaxSize = 0, splitM = 0, splitK = 0;
    uint32_t splitSize = 0, reduceM = 0, reduceK = 0, reduceSize = 0, rangeM = 0, tailM = 0, tailSplitSize = 0;
    uint32_t tailReduceSize = 0;
};

// Conv3D.
struct TConv3DApiTiling {
    uint64_t orgDo = 0;
    uint32_t orgCo = 0;
    uint64_t orgHo = 0, orgWo = 0, orgDi = 0;
    uint32_t orgCi = 0;
    uint64_t orgHi = 0, orgWi = 0;
    uint32_t kernelD = 0, kernelH = 0, kernelW = 0;
    uint64_t singleCoreDo = 0;
    uint32_t singleCoreCo = 0;
    uint64_t singleCoreM = 0;
    uint32_t singleCoreGroupOpt = 0, groups = 0, strideH = 0, strideW = 0, strideD = 0, dilationH = 0;
    uint32_t dilationW = 0, dilationD = 0, padHead = 0, padTail = 0, padUp = 0, padDown = 0, padLeft = 0;
    uint32_t padRight = 0, mL0 = 0, kL0 = 0, nL0 = 0, kAL1 = 0, kAL1Tail = 0, kBL1 = 0, kBL1Tail = 0, nBL1 = 0;
    uint32_t mAL1 = 0, kBL1DivK0 = 0, kBL1TailDivK0 = 0, nBL1DivnL0 = 0, mAL1DivmL0 = 0, cin1InAL1 = 0;
    uint32_t cin1InAL1Tail = 0, nL0xk0 = 0;
    uint64_t kL0xorgCoAlignN0 = 0, kernelHxkernelW = 0, cin1xOriHixOriWixk0 = 0, oriHixOriWixk0 = 0, oriWixk0 = 0;
    uint64_t orgHixWi = 0, orgHoxWo = 0;
    uint32_t pBufferFlag = 0, groupOpt = 0, cinOpt = 0, coutOpt = 0;
    int8_t offsetx = 0;
    uint8_t bl1FullLoad = 0, al1FullLoad = 0, bl1BypassFlag = 0, iterateMNOrder = 0, biasFullLoadFlag = 0;
    uint8_t fixpParamsFullLoadFlag = 0, hf32Enable = 0, hf32TransMode = 0, resvered1 = 0;
    uint16_t resvered2 = 0;
    uint32_t resvered3 = 0;
};

// Conv3DBackpropFilter.
struct TConv3DBpFilterTiling {
    uint32_t batch = 0, cin = 0, cout = 0, cin1G = 0, cout1G = 0, dout = 0, ho = 0, wo = 0, di = 0, hi = 0, wi = 0;
    uint32_t dk = 0, hk = 0, wk = 0, group = 0, strideD = 0, strideH = 0, strideW = 0, padFront = 0, padBack = 0;
    uint32_t padUp = 0, padDown = 0, padLeft = 0, padRight = 0, dilationD = 0, dilationH = 0, dilationW = 0;
    uint32_t channelSize = 0, al0Pbuffer = 0, bl0Pbuffer = 0, cl0Pbuffer = 0, al1Pbuffer = 0, bl1Pbuffer = 0;
    uint32_t baseM = 0, baseK = 0, baseN = 0, m0 = 0, k0 = 0, n0 = 0, stepM = 0, stepN = 0, stepKa = 0, stepKb = 0;
    uint32_t iterateOrder = 0, bl1Bound = 0, hf32Flag = 0, singleCoreDk = 0, singleCoreGroup = 0;
    uint32_t singleCoreCout = 0, singleCoreHo = 0;
    uint64_t singleCoreBatch = 0, singleCoreCin = 0;
};

// Conv3DBackpropFilter.
struct Conv3DBpFilterParams {
    uint32_t totalL1Size = 0;
};

// Conv3DBackpropFilter.
struct TConv3DBpFilterBasicBlockTiling {
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
};

// Conv3DBackpropFilter.
struct Conv3DBackpropFilterTilingData {
    Conv3DBpFilterParams params;
    TConv3DBpFilterTiling dwTiling;
    TConv3DBpFilterBasicBlockTiling basicBlockTiling;
};

// Conv3DBackpropInput.
struct TConv3DBackpropInputTiling {
    uint32_t batch = 0, cin = 0, cout = 0, cout1 = 0, cin1 = 0, cout1G = 0, cin1G = 0, c0 = 0, c0Bits = 0;
    uint32_t dout = 0, ho = 0, wo = 0, di = 0, hi = 0, wi = 0, dk = 0, hk = 0, wk = 0, group = 0, strideD = 0;
    uint32_t strideH = 0, strideW = 0, padFront = 0, padBack = 0, padUp = 0, padDown = 0, padLeft = 0;
    uint32_t padRight = 0, backpropPadTail = 0, backpropPadUp = 0, backpropPadDown = 0, backpropPadLeft = 0;
    uint32_t backpropPadRight = 0, dilationD = 0, dilationH = 0, dilationW = 0, al0Pbuffer = 0, bl0Pbuffer = 0;
    uint32_t cl0Pbuffer = 0, al1Pbuffer = 0, bl1Pbuffer = 0, singleCoreGroup = 0, singleCoreCout = 0;
    uint32_t singleCoreCout1 = 0, singleCoreCin1 = 0, singleCoreDin = 0, singleCoreHo = 0, baseM = 0, baseK = 0;
    uint32_t baseN = 0, baseD = 0, baseBatch = 0, baseGroup = 0, stepM = 0, stepN = 0, stepKa = 0, stepKb = 0;
    uint32_t stepBatch = 0, stepGroup = 0, iterateOrder = 0;
    int32_t hf32Flag = 0, initOutputFlag = 0, reserved = 0;
    uint64_t singleCoreBatch = 0, singleCoreM = 0, singleCoreCin = 0;
};

// Conv3DBackpropInput.
struct Conv3DBackpropInputTilingData {
    TConv3DBackpropInputTiling conv3DDxTiling;
};

// HCCL (MC2).
struct Mc2ServerCfg {
    uint32_t version = 0;
    uint8_t debugMode = 0, sendArgIndex = 0, recvArgIndex = 0, commOutArgIndex = 0;
    uint8_t reserved[8] = {};
};

// HCCL (MC2).
struct Mc2HcommCfg {
    uint8_t skipLocalRankCopy = 0, skipBufferWindowCopy = 0, stepSize = 0;
    char reserved[13] = {};
    char groupName[128] = {};
    char algConfig[128] = {};
    uint32_t opType = 0, reduceType = 0;
};

// HCCL (MC2).
struct Mc2InitTiling {
    uint8_t reserved[64] = {};
};

// HCCL (MC2).
struct Mc2CcTiling {
    uint8_t reserved[512] = {};
};

// The Matmul API's.
struct TCubeTiling {
    int32_t usedCoreNum = 0;
    int32_t M = 0;
    int32_t N = 0;
    int32_t Ka = 0;
    int32_t Kb = 0;
    int32_t singleCoreM = 0;
    int32_t singleCoreN = 0;
    int32_t singleCoreK = 0;
    int32_t baseM = 0;
    int32_t baseN = 0;
    int32_t baseK = 0;
    int32_t depthA1 = 0;
    int32_t depthB1 = 0;
    int32_t stepM = 0;
    int32_t stepN = 0;
    int32_t isBias = 0;
    int32_t transLength = 0;
    int32_t iterateOrder = 0;
    int32_t shareMode = 0;
    int32_t shareL1Size = 0;
    int32_t shareL0CSize = 0;
    int32_t shareUbSize = 0;
    int32_t batchM = 0;
    int32_t batchN = 0;
    int32_t singleBatchM = 0;
    int32_t singleBatchN = 0;
    int32_t stepKa = 0;
    int32_t stepKb = 0;
    int32_t depthAL1CacheUB = 0;
    int32_t depthBL1CacheUB = 0;
    int32_t dbL0A = 0;
    int32_t dbL0B = 0;
    int32_t dbL0C = 0;
    int32_t ALayoutInfoB = 0;
    int32_t ALayoutInfoS = 0;
    int32_t ALayoutInfoN = 0;
    int32_t ALayoutInfoG = 0;
    int32_t ALayoutInfoD = 0;
    int32_t BLayoutInfoB = 0;
    int32_t BLayoutInfoS = 0;
    int32_t BLayoutInfoN = 0;
    int32_t BLayoutInfoG = 0;
    int32_t BLayoutInfoD = 0;
    int32_t CLayoutInfoB = 0;
    int32_t CLayoutInfoS1 = 0;
    int32_t CLayoutInfoN = 0;
    int32_t CLayoutInfoG = 0;
    int32_t CLayoutInfoS2 = 0;
    int32_t BatchNum = 0;
    int32_t mxTypePara = 0;
};

// BatchNorm.
struct BatchNormTiling {
    uint32_t originalBLength = 0, meanVarSize = 0, meanTmpTensorPos = 0, varianceTmpTensorPos = 0, tmpBufSize = 0;
    uint32_t oneTmpSize = 0, firstTmpStartPos = 0, secondTmpStartPos = 0, thirdTmpStartPos = 0, loopRound = 0;
    uint32_t inputTailSize = 0, inputTailPos = 0, meanVarTailSize = 0, meanVarTailPos = 0, bshCurLength = 0;
    uint32_t shCurLength = 0;
    float firstDimValueBack = 0;
    uint32_t castHalfRepStride = 0, shCurLengthBlockNum = 0, castHalfOutRepStride = 0;
};

// DeepNorm.
struct DeepNormTiling {
    uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0, inputXSize = 0, meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0, meanTmpTensorPos = 0, meanTmpTensorSize = 0, varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0, tmpBufSize = 0, oneTmpSize = 0, firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0, thirdTmpStartPos = 0, loopRound = 0, inputRoundSize = 0, inputTailSize = 0;
    uint32_t inputTailPos = 0, meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0, bshCurLength = 0;
    uint32_t bsCurLength = 0;
    float lastDimValueBack = 0;
};

// GroupNorm.
struct GroupNormTiling {
    uint32_t n = 0, c = 0, hw = 0, g = 0, d = 0, hwAlignSize = 0, dhwAlignSize = 0, inputXSize = 0;
    uint32_t meanVarSize = 0, numberOfTmpBuf = 0, meanTmpTensorPos = 0, meanTmpTensorSize = 0;
    uint32_t varianceTmpTensorPos = 0, varianceTmpTensorSize = 0, tmpBufSize = 0, oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0, secondTmpStartPos = 0, thirdTmpStartPos = 0, loopRound = 0, inputRoundSize = 0;
    uint32_t inputTailSize = 0, inputTailPos = 0, meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0;
    uint32_t bshCurLength = 0, bsCurLength = 0;
    float factor = 0;
    bool smallShape = 0;
};

// LayerNormGradBeta.
struct LayerNormGradBetaTiling {
    uint32_t stackBufferSize = 0, bLength = 0, sLength = 0, hLength = 0, originalHLength = 0, bshLength = 0;
    uint32_t bsLength = 0, oneCalSize = 0, numberOfTmpBuf = 0, loopRound = 0, inputTailSize = 0, inputTailPos = 0;
    uint32_t bsTailSize = 0, bshCurLength = 0, bsCurLength = 0, gammaTempTensorPos = 0, betaTempTensorPos = 0;
    uint32_t inputDyTmpTensorPos = 0, resForGammaTmpTensorPos = 0, reserved = 0;
};

// LayerNormGrad.
struct LayerNormGradTiling {
    uint32_t stackBufferSize = 0, bLength = 0, sLength = 0, hLength = 0, originalHLength = 0, oneCalSize = 0;
    uint32_t nohCalSize = 0, loopNum = 0, tailSize = 0, nohTailSize = 0, tmpTensorBSHPos = 0, tmpTensorBSHSize = 0;
    uint32_t pdVarTensorPos = 0, pdVarTensorSize = 0, pdMeanTensorPos = 0, pdMeanTensorSize = 0, x1TensorPos = 0;
    uint32_t x1TensorSize = 0, x2TensorPos = 0, x2TensorSize = 0, x3TensorPos = 0, x3TensorSize = 0;
    uint32_t tmpTensorPos = 0, tmpTensorSize = 0, tmpTensor1Pos = 0, tmpTensor1Size = 0, tmpTensor2Pos = 0;
    uint32_t tmpTensor2Size = 0, lastDimValueBack = 0, lastDimValueBackMulTwo = 0;
};

// LayerNorm.
struct LayerNormTiling {
    uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0, inputXSize = 0, meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0, meanTmpTensorPos = 0, meanTmpTensorSize = 0, varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0, tmpBufSize = 0, oneTmpSize = 0, firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0, thirdTmpStartPos = 0, loopRound = 0, inputRoundSize = 0, inputTailSize = 0;
    uint32_t inputTailPos = 0, meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0, bshCurLength = 0;
    uint32_t bsCurLength = 0;
    float lastDimValueBack = 0;
};

// LayerNorm (the separate-output form).
struct LayerNormSeparateTiling {
    uint32_t aLength = 0, rLength = 0, halfAddRepeatTimes = 0, rHeadLength = 0;
    float k2Rec = 0, k2RRec = 0;
    uint32_t inputXSize = 0, meanVarSize = 0, numberOfTmpBuf = 0, varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0, tmpBufSize = 0, oneTmpSize = 0, firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0, thirdTmpStartPos = 0, loopRound = 0, inputRoundSize = 0, inputTailSize = 0;
    uint32_t inputTailPos = 0, meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0, arCurLength = 0;
    uint32_t aCurLength = 0;
    float rValueBack = 0;
};

// RmsNorm.
struct RmsNormTiling {
    uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0;
    float reciprocalOfHLength = 0;
    uint32_t mainBshLength = 0, mainBsLength = 0, mainBsLengthAlign = 0, loopRound = 0, inputTailPos = 0;
    uint32_t tailBshLength = 0, tailBsLength = 0;
};

// UnPad.
struct UnPadTiling {
    uint32_t srcHeight = 0, srcWidth = 0, tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0, tmpBuffer2Offset = 0;
    uint32_t widthTiling = 0, widthFractal = 0, widthFractalTail = 0;
};

// Pad.
struct PadTiling {
    uint32_t srcHeight = 0, srcWidth = 0, srcOriWidth = 0, widthWithoutLastBlock = 0, blocksPerRow = 0;
    uint32_t heightTiling = 0, heightFractal = 0, heightFractalTail = 0, mainLoopOffset = 0, tailBlockOffset = 0;
    uint32_t tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0, tmpBuffer2Offset = 0, widthTiling = 0, widthFractal = 0;
    uint32_t widthFractalTail = 0, widthFractalTailAlingned = 0, brcbTiling = 0, brcbFractal = 0;
    uint32_t brcbFractalTail = 0, maxRepeatTimes = 0, brcbTilingRepeatTimes = 0, brcbTilingRepeatTimesTail = 0;
    uint32_t brcbFractalTailRepeatTimes = 0, brcbFractalTailRepeatTimesTail = 0, reserved = 0;
};

// TopK.
struct TopkTiling {
    int32_t tmpLocalSize = 0, allDataSize = 0, innerDataSize = 0;
    uint32_t sortRepeat = 0;
    int32_t mrgSortRepeat = 0, kAlignFourBytes = 0, kAlignTwoBytes = 0, maskOffset = 0, maskVreducev2FourBytes = 0;
    int32_t maskVreducev2TwoBytes = 0, mrgSortSrc1offset = 0, mrgSortSrc2offset = 0, mrgSortSrc3offset = 0;
    int32_t mrgSortTwoQueueSrc1Offset = 0, mrgFourQueueTailPara1 = 0, mrgFourQueueTailPara2 = 0, srcIndexOffset = 0;
    uint32_t copyUbToUbBlockCount = 0;
    int32_t topkMrgSrc1MaskSizeOffset = 0, topkNSmallSrcIndexOffset = 0;
    uint32_t vreduceValMask0 = 0, vreduceValMask1 = 0, vreduceIdxMask0 = 0, vreduceIdxMask1 = 0;
    uint16_t vreducehalfValMask0 = 0, vreducehalfValMask1 = 0, vreducehalfValMask2 = 0, vreducehalfValMask3 = 0;
    uint16_t vreducehalfValMask4 = 0, vreducehalfValMask5 = 0, vreducehalfValMask6 = 0, vreducehalfValMask7 = 0;
};

// ConfusionTranspose.
struct ConfusionTransposeTiling {
    uint32_t param0 = 0, param1 = 0, param2 = 0, param3 = 0, param4 = 0, param5 = 0, param6 = 0, param7 = 0;
    uint32_t param8 = 0, param9 = 0, param10 = 0, param11 = 0, param12 = 0, param13 = 0, param14 = 0, param15 = 0;
    uint32_t param16 = 0, param17 = 0;
};

#pragma pack(pop)

static_assert(sizeof(LogSoftMaxTiling) == 64, "LogSoftMaxTiling has the size of the real header's");
static_assert(sizeof(SoftMaxTiling) == 64, "SoftMaxTiling has the size of the real header's");
static_assert(sizeof(TConv3DApiTiling) == 312, "TConv3DApiTiling has the size of the real header's");
static_assert(sizeof(TConv3DBpFilterTiling) == 216, "TConv3DBpFilterTiling has the size of the real header's");
static_assert(sizeof(Conv3DBpFilterParams) == 4, "Conv3DBpFilterParams has the size of the real header's");
static_assert(sizeof(TConv3DBpFilterBasicBlockTiling) == 12, "TConv3DBpFilterBasicBlockTiling has the size of the real header's");
static_assert(sizeof(Conv3DBackpropFilterTilingData) == 240, "Conv3DBackpropFilterTilingData has the size of the real header's");
static_assert(sizeof(TConv3DBackpropInputTiling) == 280, "TConv3DBackpropInputTiling has the size of the real header's");
static_assert(sizeof(Conv3DBackpropInputTilingData) == 280, "Conv3DBackpropInputTilingData has the size of the real header's");
static_assert(sizeof(Mc2ServerCfg) == 16, "Mc2ServerCfg has the size of the real header's");
static_assert(sizeof(Mc2HcommCfg) == 280, "Mc2HcommCfg has the size of the real header's");
static_assert(sizeof(Mc2InitTiling) == 64, "Mc2InitTiling has the size of the real header's");
static_assert(sizeof(Mc2CcTiling) == 512, "Mc2CcTiling has the size of the real header's");
static_assert(sizeof(TCubeTiling) == 200, "TCubeTiling has the size of the real header's");
static_assert(sizeof(BatchNormTiling) == 80, "BatchNormTiling has the size of the real header's");
static_assert(sizeof(DeepNormTiling) == 104, "DeepNormTiling has the size of the real header's");
static_assert(sizeof(GroupNormTiling) == 120, "GroupNormTiling has the size of the real header's");
static_assert(sizeof(LayerNormGradBetaTiling) == 80, "LayerNormGradBetaTiling has the size of the real header's");
static_assert(sizeof(LayerNormGradTiling) == 120, "LayerNormGradTiling has the size of the real header's");
static_assert(sizeof(LayerNormTiling) == 104, "LayerNormTiling has the size of the real header's");
static_assert(sizeof(LayerNormSeparateTiling) == 104, "LayerNormSeparateTiling has the size of the real header's");
static_assert(sizeof(RmsNormTiling) == 48, "RmsNormTiling has the size of the real header's");
static_assert(sizeof(UnPadTiling) == 32, "UnPadTiling has the size of the real header's");
static_assert(sizeof(PadTiling) == 104, "PadTiling has the size of the real header's");
static_assert(sizeof(TopkTiling) == 112, "TopkTiling has the size of the real header's");
static_assert(sizeof(ConfusionTransposeTiling) == 72, "ConfusionTransposeTiling has the size of the real header's");

}  // namespace tiling
}  // namespace AscendC

using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::SoftMaxTiling;
using AscendC::tiling::TConv3DApiTiling;
using AscendC::tiling::TConv3DBpFilterTiling;
using AscendC::tiling::Conv3DBpFilterParams;
using AscendC::tiling::TConv3DBpFilterBasicBlockTiling;
using AscendC::tiling::Conv3DBackpropFilterTilingData;
using AscendC::tiling::TConv3DBackpropInputTiling;
using AscendC::tiling::Conv3DBackpropInputTilingData;
using AscendC::tiling::Mc2ServerCfg;
using AscendC::tiling::Mc2HcommCfg;
using AscendC::tiling::Mc2InitTiling;
using AscendC::tiling::Mc2CcTiling;
using AscendC::tiling::TCubeTiling;
using AscendC::tiling::BatchNormTiling;
using AscendC::tiling::DeepNormTiling;
using AscendC::tiling::GroupNormTiling;
using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::UnPadTiling;
using AscendC::tiling::PadTiling;
using AscendC::tiling::TopkTiling;
using AscendC::tiling::ConfusionTransposeTiling;

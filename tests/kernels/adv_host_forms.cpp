// Every host size function of the advanced API the twin provides, called as host tiling code calls them (compile
// only). tests/test_twin_adv_api_forms.py compiles it against the twin's host_include and, where the ascchk checkers
// are built, against the real CANN host headers (check_host.sh, the tiling library's compile).
#include "tiling/math/floor_tiling.h"
#include "tiling/math/log_tiling.h"
#include "tiling/math/round_tiling.h"
#include "tiling/math/sin_tiling.h"
#include "tiling/math/acosh_tiling.h"
#include "tiling/math/power_tiling.h"
#include "tiling/activation/sigmoid_tiling.h"
#include "tiling/activation/silu_tiling.h"
#include "tiling/activation/swish_tiling.h"
#include "tiling/activation/gelu_tiling.h"
#include "tiling/activation/swiglu_tiling.h"
#include "tiling/reduce/sum_tiling.h"
#include "tiling/index/arithprogression_tiling.h"
#include "tiling/activation/softmax_tiling.h"
#include "tiling/activation/logsoftmax_tiling.h"
#include "tiling/softmax/softmax_tiling.h"
#include "tiling/reduce/reduce_tiling.h"
#include "tiling/quantization/ascend_dequant_tiling.h"
#include "tiling/filter/dropout_tiling.h"
#include "tiling/normalization/rmsnorm_tiling.h"
#include "tiling/normalization/layernorm_tiling.h"
#include "tiling/normalization/normalize_tiling.h"
#include "tiling/normalization/welfordfinalize_tiling.h"
#include "tiling/normalization/deepnorm_tiling.h"
#include "tiling/normalization/layernorm_grad_tiling.h"
#include "tiling/normalization/layernorm_grad_beta_tiling.h"
#include "tiling/quantization/ascend_quant_tiling.h"
#include "tiling/quantization/ascend_antiquant_tiling.h"
#include "tiling/math/xor_tiling.h"
#include "tiling/pad/pad_tiling.h"
#include "tiling/select/selectwithbytesmask_tiling.h"
#include "tiling/transpose/confusion_transpose_tiling.h"
#include "tiling/sort/sort_tiling_intf.h"
#include "tiling/math/exp_tiling.h"
#include "tiling/math/clamp_tiling.h"
#include "tiling/math/fmod_tiling.h"
#include "tiling/math/axpy_tiling.h"
#include "tiling/math/cumsum_tiling.h"
#include "tiling/activation/geglu_tiling.h"
#include "tiling/platform/platform_ascendc.h"

uint32_t AdvHostForms(const platform_ascendc::PlatformAscendC& p)
{
    const ge::Shape s({8, 128});
    const ge::Shape one({1});
    uint32_t mx = 0, mn = 0, live = 0, extra = 0;
    AscendC::GetFloorMaxMinTmpSize(s, 2, false, mx, mn);
    AscendC::GetFloorTmpBufferFactorSize(2, live, extra);
    AscendC::GetLogMaxMinTmpSize(s, 4, false, mx, mn);
    AscendC::GetLog2MaxMinTmpSize(s, 2, false, mx, mn);
    AscendC::GetLog10TmpBufferFactorSize(4, live, extra);
    AscendC::GetRoundMaxMinTmpSize(p, s, 2, false, mx, mn);
    AscendC::GetRoundTmpBufferFactorSize(p, 2, live, extra);
    AscendC::GetSinMaxMinTmpSize(s, 4, true, mx, mn);
    AscendC::GetSinTmpBufferFactorSize(4, live, extra);
    AscendC::GetAcoshMaxMinTmpSize(s, 2, false, mx, mn);
    AscendC::GetPowerMaxMinTmpSize(s, one, false, 4, false, mx, mn);
    AscendC::GetPowerTmpBufferFactorSize(true, false, false, 4, live, extra);
    AscendC::GetSigmoidMaxMinTmpSize(s, 2, false, mx, mn);
    AscendC::GetSiluTmpSize(s, 2, false, mx, mn);
    AscendC::GetSwishTmpSize(s, 4, false, mx, mn);
    AscendC::GetGeluMaxMinTmpSize(s, 2, mx, mn);
    mx += AscendC::GetGeluMaxTmpSize(s, 2) + AscendC::GetGeluMinTmpSize(s, 4);
    AscendC::GetSwiGLUMaxMinTmpSize(s, 2, mx, mn, false);
    AscendC::GetSwiGLUTmpBufferFactorSize(2, live, extra);
    mx += AscendC::GetExpMaxMinTmpSize(s, 4, true, mx, mn) ? 1 : 0;
    AscendC::GetExpTmpBufferFactorSize(2, live, extra);
    AscendC::GetClampMaxMinTmpSize(s, 2, false, mx, mn);
    AscendC::GetClampTmpBufferFactorSize(4, live, extra);
    AscendC::GetFmodMaxMinTmpSize(s, 2, false, mx, mn);
    AscendC::GetFmodTmpBufferFactorSize(4, live, extra);
    AscendC::GetAxpyMaxMinTmpSize(s, 2, false, mx, mn);
    AscendC::GetAxpyTmpBufferFactorSize(2, live, extra);
    AscendC::GetCumSumMaxMinTmpSize(s, 4, true, false, mx, mn);
    AscendC::GetGeGLUMaxMinTmpSize(s, 2, false, mx, mn);
    AscendC::GetGeGLUTmpBufferFactorSize(4, live, extra);
    AscendC::GetSumMaxMinTmpSize(1000, 4, false, mx, mn);
    AscendC::GetArithProgressionMaxMinTmpSize(mx, mn);
    AscendC::GetArangeMaxMinTmpSize(mx, mn);
    AscendC::tiling::SoftMaxTiling st;
    AscendC::tiling::LogSoftMaxTiling lt;
    mx += AscendC::GetSoftMaxMaxTmpSize(s, 2, false) + AscendC::GetSoftMaxMinTmpSize(s, 4, false);
    AscendC::SoftMaxTilingFunc(s, 2, 8192, st);
    mx += AscendC::GetSoftMaxFlashMaxTmpSize(s, 2, true, false) + AscendC::GetSoftMaxFlashMinTmpSize(s, 4, false, false);
    AscendC::SoftMaxFlashTilingFunc(s, 4, 8192, st, true);
    AscendC::SoftMaxFlashTilingFunc(s, 4, 8192, st);
    mx += AscendC::GetSoftMaxGradMaxTmpSize(s, 2, true, false) + AscendC::GetSoftMaxGradMinTmpSize(s, 4, false, false);
    AscendC::SoftMaxGradTilingFunc(s, 2, 8192, st, true);
    AscendC::SoftMaxGradTilingFunc(s, 2, 8192, st);
    mx += AscendC::IsBasicBlockInSoftMax(st) ? 1 : 0;
    mx += AscendC::IsBasicBlockInSoftMax(st, 4) ? 1 : 0;
    mx += AscendC::GetSoftMaxFlashV2MinTmpSize(s, 2, 4, true) + AscendC::GetSoftMaxFlashV2MaxTmpSize(s, 4, 4, false, true, true);
    AscendC::SoftMaxFlashV2TilingFunc(s, 2, 4, 8192, st, true);
    AscendC::SoftMaxFlashV2TilingFunc(s, 2, 2, 8192, st, true, false, true);
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(s, 2, 4, mx, mn, true);
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(s, 2, 4, mx, mn, false, false);
    AscendC::SoftMaxFlashV3TilingFunc(s, 2, 4, 8192, st, true);
    mx += AscendC::GetLogSoftMaxMaxTmpSize(s, 2, false) + AscendC::GetLogSoftMaxMinTmpSize(s, 4, false);
    AscendC::LogSoftMaxTilingFunc(s, 4, 8192, lt);
    const ge::Shape s2({16, 70});
    AscendC::GetReduceSumMaxMinTmpSize(s2, ge::DT_FLOAT, AscendC::ReducePattern::AR, true, false, mx, mn);
    AscendC::GetReduceMaxMaxMinTmpSize(s2, ge::DT_FLOAT16, AscendC::ReducePattern::RA, true, true, mx, mn);
    AscendC::GetReduceMinMaxMinTmpSize(s2, ge::DT_FLOAT, AscendC::ReducePattern::AR, true, false, mx, mn);
    AscendC::GetReduceProdMaxMinTmpSize(s2, ge::DT_FLOAT, AscendC::ReducePattern::RA, true, false, mx, mn);
    AscendC::GetReduceMeanMaxMinTmpSize(s2, ge::DT_FLOAT, AscendC::ReducePattern::AR, true, false, mx, mn);
    AscendC::GetReduceAnyMaxMinTmpSize(s2, ge::DT_UINT8, AscendC::ReducePattern::AR, true, false, mx, mn);
    AscendC::GetReduceAllMaxMinTmpSize(s2, ge::DT_FLOAT, AscendC::ReducePattern::RA, true, false, mx, mn);
    AscendC::GetAscendDequantMaxMinTmpSize(s2, 4, mx, mn);
    AscendC::GetAscendDequantTmpBufferFactorSize(s2, live, extra);
    AscendC::GetDropOutMaxMinTmpSize(s2, 2, false, mx, mn);
    mx += AscendC::GetDropOutMinTmpSize(s2, 4, false) + AscendC::GetDropOutMaxTmpSize(s2, 4, false);
    const ge::Shape bsh({2, 8, 64});
    AscendC::tiling::RmsNormTiling rms;
    bool ok = AscendC::GetRmsNormMaxMinTmpSize(bsh, 2, mx, mn) && AscendC::GetRmsNormMaxMinTmpSize(bsh, 4, mx, mn, true);
    ok = ok && AscendC::GetRmsNormTilingInfo(bsh, bsh, mx, 4, rms) && AscendC::GetRmsNormTilingInfo(bsh, bsh, mx, 2, rms, true);
    mx += ok ? rms.mainBsLength : 0;
    const ge::Shape bshh({2, 8, 64, 60});
    AscendC::tiling::LayerNormTiling ln;
    AscendC::GetLayerNormMaxMinTmpSize(bshh, 2, false, mx, mn);
    AscendC::GetLayerNormNDTilingInfo(bshh, mx, 4, true, ln);
    mx += ln.oneTmpSize;
    const ge::Shape ar({8, 64});
    AscendC::tiling::LayerNormSeparateTiling lns;
    optiling::LayerNormSeparateTiling lnsc;
    AscendC::GetLayerNormMaxMinTmpSize(ar, 4, false, true, false, mx, mn);
    AscendC::GetLayerNormNDTilingInfo(ar, mx, 4, false, true, lns);
    AscendC::GetLayerNormNDTilingInfo(ar, mx, 2, false, true, lnsc);
    AscendC::GetNormalizeMaxMinTmpSize(ar, 2, 4, false, true, false, mx, mn);
    mx += lns.oneTmpSize;
    AscendC::GetWelfordUpdateMaxMinTmpSize(s2, 2, 4, false, true, mx, mn);
    AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape({64}), 4, false, mx, mn);
    AscendC::tiling::DeepNormTiling dn;
    optiling::DeepNormTiling dnc;
    ok = AscendC::GetDeepNormMaxMinTmpSize(bsh, 4, false, true, mx, mn);
    ok = ok && AscendC::GetDeepNormTilingInfo(bsh, bsh, mx, 4, false, true, dn) &&
         AscendC::GetDeepNormTilingInfo(bsh, bsh, mx, 2, false, false, dnc);
    mx += ok ? dn.oneTmpSize : 0;
    AscendC::tiling::LayerNormGradTiling lng;
    optiling::LayerNormGradTiling lngc;
    AscendC::tiling::LayerNormGradBetaTiling lngb;
    optiling::LayerNormGradBetaTiling lngbc;
    AscendC::GetLayerNormGradMaxMinTmpSize(bshh, 4, false, mx, mn);
    AscendC::GetLayerNormGradNDTilingInfo(bshh, mx, 4, false, lng);
    AscendC::GetLayerNormGradNDTilingInfo(bshh, mx, 2, false, lngc);
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(bshh, 2, false, mx, mn);
    AscendC::GetLayerNormGradBetaNDTilingInfo(bshh, mx, 2, false, lngb);
    AscendC::GetLayerNormGradBetaNDTilingInfo(bshh, mx, 4, false, lngbc);
    mx += lng.oneCalSize + lngb.oneCalSize;
    AscendC::GetAscendAntiQuantMaxMinTmpSize(s2, ge::Shape({128}), false, ge::DT_INT8, ge::DT_BF16, mx, mn);
    AscendC::GetAscendAntiQuantTmpBufferFactorSize(s2, ge::Shape({1}), true, ge::DT_INT8, ge::DT_BF16, live, extra);
    mx += AscendC::GetAscendAntiQuantMaxTmpSize(s2, ge::Shape({1}), false, ge::DT_INT8, ge::DT_FLOAT16) +
          AscendC::GetAscendAntiQuantMinTmpSize(s2, ge::Shape({1}), false, ge::DT_INT8, ge::DT_FLOAT16);
    AscendC::GetAscendQuantMaxMinTmpSize(s2, 2, mx, mn);
    AscendC::GetAscendQuantTmpBufferFactorSize(live, extra);
    AscendC::GetXorMaxMinTmpSize(s, 2, false, mx, mn);
    AscendC::GetXorTmpBufferFactorSize(2, live, extra);
    const ge::Shape hw({16, 31});
    AscendC::GetPadMaxMinTmpSize(hw, 4, mx, mn);
    AscendC::tiling::PadTiling padT;
    optiling::PadTiling padC;
    AscendC::PadTilingFunc(hw, hw, mx, 4, padT);
    AscendC::PadTilingFunc(hw, hw, mx, 4, padC);
    platform_ascendc::PlatformAscendC* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    AscendC::GetUnPadMaxMinTmpSize(*plat, hw, 4, mx, mn);
    AscendC::tiling::UnPadTiling unPadT;
    optiling::UnPadTiling unPadC;
    AscendC::UnPadTilingFunc(hw, mx, 4, unPadT);
    AscendC::UnPadTilingFunc(hw, mx, 4, unPadC);
    mx += padT.srcWidth + unPadT.srcWidth;
    AscendC::GetSelectMaxMinTmpSize(hw, one, 4, hw, 1, false, mx, mn);
    AscendC::GetSelectWithBytesMaskMaxMinTmpSize(one, hw, 2, hw, 2, true, mx, mn);
    mx += AscendC::GetSelectMaxTmpSize(hw, one, 4, hw, 1, false) + AscendC::GetSelectMinTmpSize(hw, one, 4, hw, 1, true) +
          AscendC::GetSelectWithBytesMaskMaxTmpSize(hw, one, 4, hw, 4, false) +
          AscendC::GetSelectWithBytesMaskMinTmpSize(hw, one, 4, hw, 4, false);
    const ge::Shape bnsh({1, 2, 64, 32});
    AscendC::GetTransposeMaxMinTmpSize(bnsh, 2, 1, mx, mn);
    AscendC::GetConfusionTransposeMaxMinTmpSize(bnsh, 2, 2, mx, mn);
    optiling::ConfusionTransposeTiling ctC;
    AscendC::tiling::ConfusionTransposeTiling ctT;
    AscendC::GetTransposeTilingInfo(bnsh, mn, 2, 1, ctC);
    AscendC::GetTransposeTilingInfo(bnsh, mn, 2, 1, ctT);
    AscendC::GetConfusionTransposeTilingInfo(bnsh, mn, 2, 2, ctC);
    AscendC::GetConfusionTransposeTilingInfo(bnsh, mn, 2, 2, ctT);
    mx += ctT.param6;
    AscendC::SortConfig sortConfig;
    sortConfig.type = AscendC::SortType::MERGE_SORT;
    AscendC::GetSortMaxMinTmpSize(ge::Shape({128}), ge::DT_FLOAT, ge::DT_UINT32, false, sortConfig, mx, mn);
    mx += AscendC::GetConcatTmpSize(*plat, 128, 4) + AscendC::GetSortTmpSize(*plat, 128, 2);
    return mx + mn + live + extra + st.splitM + lt.splitM;
}

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
    AscendC::GetSumMaxMinTmpSize(1000, 4, false, mx, mn);
    AscendC::GetArithProgressionMaxMinTmpSize(mx, mn);
    AscendC::GetArangeMaxMinTmpSize(mx, mn);
    return mx + mn + live + extra;
}

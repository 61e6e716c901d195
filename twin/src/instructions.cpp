// Out-of-line parts of the instruction headers: count checks, cast modes, events, tiling loads.
#include <cstring>

#include "kernel_operator.h"

namespace AscendC::twin_detail {

void CheckCount(const char* call, int64_t count)
{
    if (count < 0) {
        ascend_twin::Fail(call, "count is not negative", "count " + std::to_string(count));
    }
}

const char* RoundModeName(RoundMode mode)
{
    switch (mode) {
        case RoundMode::CAST_NONE: return "CAST_NONE";
        case RoundMode::CAST_RINT: return "CAST_RINT";
        case RoundMode::CAST_FLOOR: return "CAST_FLOOR";
        case RoundMode::CAST_CEIL: return "CAST_CEIL";
        case RoundMode::CAST_ROUND: return "CAST_ROUND";
        case RoundMode::CAST_TRUNC: return "CAST_TRUNC";
        case RoundMode::CAST_ODD: return "CAST_ODD";
        default: return "UNKNOWN";
    }
}

void FailCastMode(const char* conversion, RoundMode mode, const char* allowed)
{
    ascend_twin::Fail("Cast", "Cast uses a round mode the conversion supports on A2",
                      std::string(conversion) + " with " + RoundModeName(mode) + "; allowed: " + allowed);
}

void CheckEventId(const char* call, int32_t eventID)
{
    if (eventID < 0 || eventID > 7) {
        ascend_twin::Fail(call, "event ids are 0..7 on A2", "event id " + std::to_string(eventID));
    }
}

}  // namespace AscendC::twin_detail

namespace ascend_twin {

void LoadTiling(void* dst, uint64_t bytes, const void* tilingGm)
{
    // Checked but not counted: tiling is launch metadata, not data traffic of the op.
    CheckGmInBounds("GET_TILING_DATA", "GM reads stay inside the launch's buffers", "read", tilingGm, bytes);
    std::memcpy(dst, tilingGm, bytes);
}

}  // namespace ascend_twin

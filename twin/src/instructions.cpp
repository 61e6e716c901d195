// Out-of-line parts of the instruction headers: count checks, cast modes, events, tiling loads.
#include <cmath>
#include <cstring>

#include "kernel_operator.h"
#include "twin/violation.h"

namespace AscendC::twin_detail {

void CheckCount(const char* call, int64_t count)
{
    if (count < 0) {
        ascend_twin::Fail(call, "count is not negative", "count " + std::to_string(count));
    }
    // The count forms run in counter mode and leave normal mode with a full mask behind.
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    core.maskCounter = false;
    core.maskHigh = core.maskLow = ~0ull;
}

Lanes MaskLanes(const char* call, uint32_t elementSize, bool isSetMask, const uint64_t* mask, bool isArray,
                uint8_t repeatTime)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    Lanes lanes;
    lanes.perRepeat = 256 / elementSize;
    if (isSetMask) {
        if (core.maskCounter) {
            core.maskLow = mask[0];
            core.maskHigh = 0;
        } else if (isArray) {
            core.maskLow = mask[0];
            core.maskHigh = mask[1];
        } else {
            if (mask[0] > lanes.perRepeat) {
                ascend_twin::Fail(call, "a continuous mask selects at most one repeat of elements",
                                  "mask " + std::to_string(mask[0]) + " for " + std::to_string(elementSize) +
                                      "-byte elements, at most " + std::to_string(lanes.perRepeat));
            }
            const uint64_t len = mask[0];
            core.maskLow = len >= 64 ? ~0ull : (1ull << len) - 1;
            core.maskHigh = len >= 128 ? ~0ull : (len <= 64 ? 0 : (1ull << (len - 64)) - 1);
        }
    }
    lanes.counter = core.maskCounter;
    if (lanes.counter) {
        lanes.count = core.maskLow;
        lanes.repeats = static_cast<uint32_t>((lanes.count + lanes.perRepeat - 1) / lanes.perRepeat);
    } else {
        lanes.low = core.maskLow;
        lanes.high = lanes.perRepeat > 64 ? core.maskHigh : 0;
        if (lanes.perRepeat < 64) lanes.low &= (1ull << lanes.perRepeat) - 1;
        lanes.repeats = repeatTime;
    }
    return lanes;
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

void FailCastMode(const char* dstType, const char* srcType, RoundMode mode, uint32_t allowed)
{
    std::string list;
    for (uint32_t m = 0; m < 32; ++m) {
        if ((allowed >> m) & 1u) list += std::string(list.empty() ? "" : ", ") + RoundModeName(static_cast<RoundMode>(m));
    }
    ascend_twin::Fail("Cast", "Cast uses a round mode the conversion supports on A2",
                      std::string(srcType) + "->" + dstType + " with " + RoundModeName(mode) + "; allowed: " + list);
}

void FailCastNaN(const char* dstType, const char* srcType)
{
    ascend_twin::Fail("Cast", "Cast converts to an integer type only values the docs define a result for",
                      std::string(srcType) + "->" + dstType +
                          " of a NaN: the conversion rules define none (the twin stops rather than guess)");
}

void FailCastNegative(const char* dstType, const char* srcType, float value)
{
    ascend_twin::Fail("Cast", "Cast to uint8_t takes no negative input (an exception on A2)",
                      std::string(srcType) + "->" + dstType + " of " + std::to_string(value));
}

float IntToFloat(int64_t v, RoundMode mode)
{
    if (v == 0) return 0.0f;
    const bool negative = v < 0;
    const uint64_t m = negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    const int bits = 64 - __builtin_clzll(m);
    if (bits <= 24) return negative ? -static_cast<float>(m) : static_cast<float>(m);
    const int shift = bits - 24;  // float keeps 24 significant bits
    uint64_t keep = m >> shift;
    const uint64_t rest = m & ((1ull << shift) - 1);
    const uint64_t halfway = 1ull << (shift - 1);
    bool up = false;  // away from zero
    switch (mode) {
        case RoundMode::CAST_FLOOR: up = negative && rest != 0; break;
        case RoundMode::CAST_CEIL: up = !negative && rest != 0; break;
        case RoundMode::CAST_ROUND: up = rest >= halfway; break;
        case RoundMode::CAST_TRUNC: up = false; break;
        default: up = rest > halfway || (rest == halfway && (keep & 1u)); break;  // RINT (and NONE)
    }
    keep += up ? 1 : 0;
    const float r = std::ldexp(static_cast<float>(keep), shift);
    return negative ? -r : r;
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

namespace AscendC::twin_detail {

void FailCastOverlap(uint32_t repeat, uint64_t srcBegin, uint64_t srcEnd, uint64_t dstEnd)
{
    ascend_twin::FailF("Cast", "a widening Cast's later repeat does not read src bytes an earlier repeat wrote",
                       "repeat %u reads src bytes [%llu, %llu) from dst's start, which repeats 0..%u wrote as dst "
                       "(bytes [0, %llu)): on A2 it would convert the new values (Cast docs, 约束说明; 通用地址重叠约束)",
                       repeat, static_cast<unsigned long long>(srcBegin), static_cast<unsigned long long>(srcEnd),
                       repeat - 1, static_cast<unsigned long long>(dstEnd));
}

void FailAxpyOverlap()
{
    ascend_twin::Fail("Axpy", "Axpy from half to float does not overlap src and dst",
                      "the bytes Axpy reads from src overlap the float dst it writes");
}

void CheckBrcb(const void* dst, uint64_t dstBytes, const void* src, uint64_t srcBytes, uint32_t elementSize,
               uint8_t repeatTime, uint16_t dstBlkStride, uint16_t dstRepStride)
{
    if (dstBlkStride == 0) {
        ascend_twin::Fail("Brcb", "Brcb's dstBlkStride is not 0 (undefined behaviour on the device)",
                          "dstBlkStride 0");
    }
    if (repeatTime == 0) return;
    const uint64_t srcNeed = static_cast<uint64_t>(repeatTime) * 8 * elementSize;
    if (srcNeed > srcBytes) {
        ascend_twin::Fail("Brcb", "UB accesses stay inside the LocalTensor",
                          "src holds " + std::to_string(srcBytes / elementSize) + " elements, " +
                              std::to_string(repeatTime) + " repeats read " + std::to_string(srcNeed / elementSize));
    }
    const uint8_t* d = static_cast<const uint8_t*>(dst);
    const uint8_t* s = static_cast<const uint8_t*>(src);
    for (uint64_t i = 0; i < repeatTime; ++i) {
        for (uint64_t j = 0; j < 8; ++j) {
            const uint64_t off = (i * dstRepStride + j * dstBlkStride) * 32;
            if (off + 32 > dstBytes) {
                ascend_twin::Fail("Brcb", "UB accesses stay inside the LocalTensor",
                                  "repeat " + std::to_string(i) + ", block " + std::to_string(j) + " ends at byte " +
                                      std::to_string(off + 32) + " of a dst of " + std::to_string(dstBytes) + " bytes");
            }
            if (d + off < s + srcNeed && s < d + off + 32) {
                ascend_twin::Fail("Brcb", "Brcb's src and dst do not share memory",
                                  "repeat " + std::to_string(i) + ", block " + std::to_string(j) +
                                      " of dst overlaps the " + std::to_string(srcNeed) + " bytes read from src");
            }
        }
    }
}

}  // namespace AscendC::twin_detail

// The rule checks of the Broadcast high-level API (twin/include/twin/kernel_broadcast.h).
#include "twin/kernel_broadcast.h"

#include <algorithm>

namespace AscendC::twin_detail {

namespace {

constexpr const char* kCall = "Broadcast";
constexpr const char* kShapeRule =
    "srcShape broadcasts to dstShape: each srcShape[i] is dstShape[i] or 1, and srcShape has no 0";
// A2's PopStackBuffer ends the framework's buffer at TOTAL_UB_SIZE - sizeof(KfcMsg): the last 128 bytes of
// UB carry the cube/vector message slot (dav_c220 kfc_comm.h: "The message length is 128 bytes").
constexpr uint64_t kKfcMsgBytes = 128;

const char* PosName(TPosition p) { return PositionName(p); }

bool IsVecPosition(TPosition p)
{
    return p == TPosition::VECIN || p == TPosition::VECCALC || p == TPosition::VECOUT;
}

bool Overlap(const void* a, uint64_t aBytes, const void* b, uint64_t bBytes)
{
    const uint8_t* pa = static_cast<const uint8_t*>(a);
    const uint8_t* pb = static_cast<const uint8_t*>(b);
    return aBytes != 0 && bBytes != 0 && pa < pb + bBytes && pb < pa + aBytes;
}

// The bytes of the temporary buffer the A2 implementation writes, for a buffer of tmpBytes.
uint64_t TmpUsed(const ascend_twin::BroadcastTmpSize& sz, const uint32_t* dstShape, uint32_t typeSize,
                 uint64_t tmpBytes)
{
    if (sz.axis == -1) return sz.castBytes;
    if (sz.axis == 0) return sz.castBytes + 32;  // one block of zeros
    const uint64_t ts = typeSize == 1 ? 2 : typeSize;
    const uint64_t perBlock = 32 / ts;
    const uint64_t m = dstShape[0];
    const uint64_t k = dstShape[1];
    const bool aligned = k % perBlock == 0;
    const uint64_t kAlign = ascend_twin::BroadcastAlignUp(k, perBlock);
    // Rows per round: as many whole minimum units as the buffer holds, each unit perBlock rows.
    const uint64_t unit = perBlock * perBlock + (aligned ? 0 : perBlock * kAlign);
    const uint64_t rowsPerRound = (tmpBytes - sz.castBytes) / ts / unit * perBlock;
    const uint64_t rows = std::min(m, rowsPerRound);
    const uint64_t brcb = ascend_twin::BroadcastAlignUp(rows, 8) * 32;  // one block per row, 8 rows a repeat
    const uint64_t used = aligned ? brcb : std::max(brcb, rows * 32 + rows * kAlign * ts);  // + the padded rows
    return sz.castBytes + used;
}

}  // namespace

uint64_t CheckBroadcast(int32_t dim, int32_t axis, uint32_t typeSize, const uint32_t* dstShape,
                        const uint32_t* srcShape, const BroadcastOperand& dst, const BroadcastOperand& src,
                        const BroadcastOperand& tmp, bool framework)
{
    const char* posRule = "Broadcast's operands are at VECIN, VECCALC or VECOUT";
    if (!IsVecPosition(dst.pos)) ascend_twin::FailF(kCall, posRule, "dstLocal is at %s", PosName(dst.pos));
    if (!IsVecPosition(src.pos)) ascend_twin::FailF(kCall, posRule, "srcLocal is at %s", PosName(src.pos));
    const bool tmpBound = tmp.addr != nullptr;
    if (!framework && tmpBound && !IsVecPosition(tmp.pos)) {
        ascend_twin::FailF(kCall, posRule, "sharedTmpBuffer is at %s", PosName(tmp.pos));
    }
    ascend_twin::CheckUbAligned(kCall, "dstLocal", dst.addr);
    ascend_twin::CheckUbAligned(kCall, "srcLocal", src.addr);
    if (tmpBound) ascend_twin::CheckUbAligned(kCall, "sharedTmpBuffer", tmp.addr);

    int64_t srcDims[2] = {1, 1};
    int64_t dstDims[2] = {1, 1};
    uint64_t srcSize = 1;
    uint64_t dstSize = 1;
    for (int32_t i = 0; i < dim; ++i) {
        if (srcShape[i] == 0 || (srcShape[i] != dstShape[i] && srcShape[i] != 1)) {
            ascend_twin::FailF(kCall, kShapeRule,
                               "dim %d: srcShape[%d] = %u, dstShape[%d] = %u", dim, i, srcShape[i], i, dstShape[i]);
        }
        srcDims[i] = srcShape[i];
        dstDims[i] = dstShape[i];
        srcSize *= srcShape[i];
        dstSize *= dstShape[i];
    }
    if (dim == 2 && srcSize != dstSize && srcSize != 1) {
        const int32_t shapeAxis = srcShape[0] == 1 ? 0 : 1;
        if (shapeAxis != axis) {
            ascend_twin::FailF(kCall, "the axis template parameter is the axis srcShape broadcasts along",
                               "axis = %d, but srcShape [%u, %u] -> dstShape [%u, %u] broadcasts axis %d", axis,
                               srcShape[0], srcShape[1], dstShape[0], dstShape[1], shapeAxis);
        }
    }
    if (dim == 2 && axis == 0 && (static_cast<uint64_t>(srcShape[1]) * typeSize) % 32 != 0) {
        ascend_twin::FailF(kCall, "with dim 2 and axis 0, srcShape[1] * sizeof(T) is a multiple of 32 bytes",
                           "srcShape[1] = %u elements of %u bytes", srcShape[1], typeSize);
    }
    const char* holdRule = "Broadcast's operands hold their shapes";
    if (src.bytes < srcSize * typeSize) {
        ascend_twin::FailF(kCall, holdRule, "srcLocal holds %llu elements, srcShape has %llu",
                           static_cast<unsigned long long>(src.bytes / typeSize),
                           static_cast<unsigned long long>(srcSize));
    }
    if (dst.bytes < dstSize * typeSize) {
        ascend_twin::FailF(kCall, holdRule, "dstLocal holds %llu elements, dstShape has %llu",
                           static_cast<unsigned long long>(dst.bytes / typeSize),
                           static_cast<unsigned long long>(dstSize));
    }
    if (Overlap(src.addr, srcSize * typeSize, dst.addr, dstSize * typeSize)) {
        ascend_twin::FailF(kCall, "Broadcast's src and dst do not overlap",
                           "srcLocal [UB %llu, +%llu bytes) and dstLocal [UB %llu, +%llu bytes) share bytes",
                           static_cast<unsigned long long>(ascend_twin::UbOffset(src.addr)),
                           static_cast<unsigned long long>(srcSize * typeSize),
                           static_cast<unsigned long long>(ascend_twin::UbOffset(dst.addr)),
                           static_cast<unsigned long long>(dstSize * typeSize));
    }
    const ascend_twin::BroadcastTmpSize sz = ascend_twin::BroadcastTmpSizeA2(dim, srcDims, dstDims, typeSize);
    if (sz.error != nullptr) {  // the checks above leave nothing the size function refuses; kept as a guard
        ascend_twin::FailF(kCall, kShapeRule, "%s", sz.error);
    }
    if (tmp.bytes < sz.minValue) {
        if (framework) {
            ascend_twin::FailF(kCall,
                               "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                               "bytes) holds Broadcast's minimum temporary size",
                               "%llu bytes are left, GetBroadCastMaxMinTmpSize's minimum is %u",
                               static_cast<unsigned long long>(tmp.bytes), sz.minValue);
        }
        ascend_twin::FailF(kCall, "sharedTmpBuffer holds at least GetBroadCastMaxMinTmpSize's minimum",
                           "sharedTmpBuffer holds %llu bytes, the minimum is %u (maximum %u)",
                           static_cast<unsigned long long>(tmp.bytes), sz.minValue, sz.maxValue);
    }
    const uint64_t used = sz.minValue == 0 ? 0 : TmpUsed(sz, dstShape, typeSize, tmp.bytes);
    if (Overlap(tmp.addr, used, src.addr, srcSize * typeSize) || Overlap(tmp.addr, used, dst.addr, dstSize * typeSize)) {
        ascend_twin::FailF(kCall, "sharedTmpBuffer does not overlap src or dst",
                           "the %llu bytes of sharedTmpBuffer Broadcast writes (from UB %llu) share bytes with %s",
                           static_cast<unsigned long long>(used),
                           static_cast<unsigned long long>(ascend_twin::UbOffset(tmp.addr)),
                           Overlap(tmp.addr, used, src.addr, srcSize * typeSize) ? "srcLocal" : "dstLocal");
    }
    return used;
}

uint8_t* BroadcastFrameworkTmp(const void* tpipe, uint64_t pipeEnd, uint64_t& bytes)
{
    const char* rule =
        "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 bytes) holds Broadcast's "
        "minimum temporary size";
    if (tpipe == nullptr) {
        ascend_twin::Fail(kCall, rule, "there is no TPipe (GetTPipePtr() is null): pass sharedTmpBuffer");
    }
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    const uint64_t end = core.platform->ubSize - kKfcMsgBytes;
    if (pipeEnd >= end) {
        // A2's PopStackBuffer asserts that some UB is left, whatever the call needs.
        ascend_twin::FailF(kCall, rule, "the TPipe's buffers end at UB %llu, nothing is left before %llu",
                           static_cast<unsigned long long>(pipeEnd), static_cast<unsigned long long>(end));
    }
    bytes = end - pipeEnd;
    return core.ub + pipeEnd;
}

void FailBroadcastType(uint32_t typeSize)
{
    ascend_twin::FailF("Broadcast", "Broadcast's T is uint8_t, int8_t, half or float on A2",
                       "T is a %u-byte type outside that list. A2's API check (DataTypeVerifyingParameters, in CANN's "
                       "CPU-debug build) refuses it when the call runs; the NPU build does not check, and the twin "
                       "is stricter here (docs/twin.md). bisheng compiles the call, so a kernel may instantiate it "
                       "for a dtype it never broadcasts",
                       typeSize);
}

void FailBroadcastA5Only(const char* call)
{
    ascend_twin::Fail(call, "the dynamic-shape Broadcast and GetBroadcastTilingInfo exist on Ascend 950PR/950DT only",
                      "on A2 (dav-2201) the real header compiles their bodies to nothing, so dst would stay "
                      "unwritten; use Broadcast<T, dim, axis>");
}

}  // namespace AscendC::twin_detail

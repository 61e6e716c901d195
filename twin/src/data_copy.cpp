#include "twin/kernel_data_copy.h"
#include "twin/kernel_data_copy_slice.h"
#include "twin/violation.h"

#include <cstring>

#include "twin/hazard.h"

namespace AscendC::twin_detail {

void CheckCopyLength(const char* call, uint64_t bytes)
{
    if (bytes % 32 != 0) {
        ascend_twin::Fail(call, "DataCopy moves whole 32-byte blocks",
                          std::to_string(bytes) + " bytes requested, not a multiple of 32; copy unaligned lengths with "
                                                  "DataCopyPad (the twin is stricter than the NPU here, which rounds "
                                                  "the length down to whole blocks and silently leaves out the last " +
                              std::to_string(bytes % 32) + " bytes)");
    }
}

void CheckUbRange(const char* call, const char* operand, uint64_t needBytes, uint64_t haveBytes)
{
    if (needBytes > haveBytes) {
        ascend_twin::Fail(call, "UB accesses stay inside the LocalTensor",
                          std::string("operand '") + operand + "' needs " + std::to_string(needBytes) +
                              " bytes but the tensor holds " + std::to_string(haveBytes));
    }
}

void CheckGmElementAligned(const char* call, const void* gm, uint32_t elementSize)
{
    if (reinterpret_cast<uintptr_t>(gm) % elementSize != 0) {
        ascend_twin::Fail(call, "GM addresses of DataCopy are aligned to the element size",
                          "address " + ascend_twin::Hex(reinterpret_cast<uintptr_t>(gm)) + " for " +
                              std::to_string(elementSize) + "-byte elements (DataCopyPad takes any GM address)");
    }
}

constexpr uint32_t kMaxBlockCount = 4095;     // MAX_BLOCK_COUNT; blockCount is 12 bits in the instruction
constexpr uint32_t kMaxPadBlockLen = 2097151;  // DataCopyPad blockLen: 21 bits of bytes

void CheckBlockCount(const char* call, uint32_t blockCount)
{
    if (blockCount > kMaxBlockCount) {
        ascend_twin::Fail(call, "blockCount is within the instruction's range",
                          "blockCount " + std::to_string(blockCount) + ", allowed 0 to " +
                              std::to_string(kMaxBlockCount));
    }
}

void CheckBlockLen(const char* call, uint32_t blockLen, uint32_t elementSize)
{
    if (blockLen > kMaxPadBlockLen) {
        ascend_twin::Fail(call, "blockLen is within the instruction's range",
                          "blockLen " + std::to_string(blockLen) + " bytes, at most " + std::to_string(kMaxPadBlockLen));
    }
    if (blockLen % elementSize != 0) {
        ascend_twin::Fail(call, "blockLen is a whole number of elements",
                          std::to_string(blockLen) + " bytes for " + std::to_string(elementSize) + "-byte elements");
    }
}

void CheckPadding(const char* call, uint32_t leftBytes, uint32_t rightBytes)
{
    if (leftBytes > 32 || rightBytes > 32) {
        ascend_twin::Fail(call, "leftPadding and rightPadding are at most 32 bytes each",
                          std::to_string(leftBytes) + " and " + std::to_string(rightBytes) + " bytes requested");
    }
}

void Run(const Transfer& t)
{
    if (t.blockCount == 0 || t.blockBytes == 0) return;  // a no-op on the hardware too
    const bool toUb = t.direction == Direction::kGmToUb;
    ascend_twin::CheckUbAligned(t.call, toUb ? "dst" : "src", t.ub);
    const uint64_t span = t.ubBlockSpan ? t.ubBlockSpan : t.ubLead + t.blockBytes;
    CheckUbRange(t.call, toUb ? "dst" : "src", (t.blockCount - 1) * t.ubPitch + span, t.ubCapacity);
    CheckGmElementAligned(t.call, t.gm, t.gmAlign ? t.gmAlign : t.elementSize);
    // MTE2 fills whole UB blocks (data, padding and dummy elements); MTE3 reads the data bytes.
    ascend_twin::Instr instr(t.call, toUb ? ascend_twin::Pipe::kMte2 : ascend_twin::Pipe::kMte3);
    for (uint32_t b = 0; b < t.blockCount; ++b) {
        if (toUb) {
            instr.Write("dst", t.ub + b * t.ubPitch, span);
        } else {
            instr.Read("src", t.ub + b * t.ubPitch + t.ubLead, t.blockBytes);
        }
    }
    // Blocks read from one buffer: checked, counted and recorded at once (one record for rows with gaps between).
    const bool readAtOnce =
        toUb && ascend_twin::CheckGmReadRunsInOneBuffer(t.call, t.gm, t.gmPitch, t.blockBytes, t.blockCount);
    for (uint32_t b = 0; b < t.blockCount; ++b) {
        uint8_t* gm = t.gm + b * t.gmPitch;
        uint8_t* ub = t.ub + b * t.ubPitch + t.ubLead;
        if (readAtOnce) {
            instr.GmRead(gm, t.blockBytes);
            std::memcpy(ub, gm, t.blockBytes);
        } else if (toUb) {
            // A read running into the allocation's padding gets undefined bytes there (NaN for the float types).
            const uint64_t inside = ascend_twin::CheckGmDmaRead(t.call, gm, t.blockBytes);
            instr.GmRead(gm, inside);
            std::memcpy(ub, gm, inside);
            std::memset(ub + inside, 0xff, t.blockBytes - inside);
        } else if (ascend_twin::CurrentCore().atomicOp != ascend_twin::AtomicOp::kNone) {
            ascend_twin::AtomicCopyToGm(t.call, gm, ub, t.blockBytes);
        } else {
            // A write running on into an allocation's padding: only the bytes inside the buffer are the caller's.
            instr.GmWrite(gm, ascend_twin::CopyToGm(t.call, gm, ub, t.blockBytes));
        }
    }
    ascend_twin::CoreCounters& c = ascend_twin::CurrentCore().counters;
    ++c.dataCopyCalls;
    ++(toUb ? c.mte2Calls : c.mte3Calls);
    (toUb ? c.mte2Bursts : c.mte3Bursts) += t.blockCount;
}

}  // namespace AscendC::twin_detail

namespace AscendC::twin_detail {

void SliceLayout(const char* side, const SliceInfo info[], const SliceInfo other[], uint32_t dimValue,
                 uint32_t elementBytes, uint32_t& start, uint32_t* offsets, uint32_t& count)
{
    const char* call = "DataCopy with SliceInfo";
    if (dimValue < 1 || dimValue > static_cast<uint32_t>(K_MAX_DIM)) {
        ascend_twin::FailF(call, "dimValue is 1..8 (the SliceInfo arrays' size)", "dimValue %u", dimValue);
    }
    const uint32_t c0 = 32 / elementBytes;
    start = 0;
    count = 1;
    offsets[0] = 0;
    uint32_t sliceSize = 1;
    for (uint32_t i = 0; i < dimValue; ++i) {
        const SliceInfo& s = info[i];
        if (s.shapeValue == 0) {
            ascend_twin::FailF(call, "the twin takes each dimension's length from shapeValue",
                               "%s[%u].shapeValue 0 asks for the tensor's ShapeInfo, which the twin does not keep", side,
                               i);
        }
        if (i > 0 && s.burstLen != 1) {
            ascend_twin::FailF(call, "burstLen is 1 beyond dimension 0", "%s[%u].burstLen %u", side, i, s.burstLen);
        }
        if (s.burstLen != other[i].burstLen) {
            ascend_twin::FailF(call, "srcSliceInfo[i].burstLen equals dstSliceInfo[i].burstLen",
                               "dimension %u: %u and %u", i, s.burstLen, other[i].burstLen);
        }
        if (!(s.startIndex < s.endIndex && s.endIndex <= s.shapeValue)) {
            ascend_twin::FailF(call, "startIndex < endIndex <= shapeValue", "%s[%u]: startIndex %u, endIndex %u, "
                               "shapeValue %u", side, i, s.startIndex, s.endIndex, s.shapeValue);
        }
        // endIndex - startIndex + 1 = (N - 1) * stride + N * piece, N >= 1 (piece: burstLen blocks, or one row)
        const uint64_t piece = i == 0 ? static_cast<uint64_t>(s.burstLen) * c0 : 1;
        const uint64_t span = static_cast<uint64_t>(s.endIndex) - s.startIndex + 1 + s.stride;
        if (piece == 0 || span % (piece + s.stride) != 0) {
            ascend_twin::FailF(call, "endIndex - startIndex + 1 = (N - 1) * stride + N * burstLen * 32 / sizeof(T) "
                               "(a whole number N of slices; rows beyond dimension 0)",
                               "%s[%u]: startIndex %u, endIndex %u, stride %u, burstLen %u", side, i, s.startIndex,
                               s.endIndex, s.stride, s.burstLen);
        }
        if (i == 0) {
            start = s.startIndex;
            continue;
        }
        sliceSize *= info[i - 1].shapeValue;  // DataCopyGetPhyStartIndex / DataCopyGetOffsetList
        start += sliceSize * s.startIndex;
        const uint32_t rows = static_cast<uint32_t>(span / (1 + s.stride));
        if (static_cast<uint64_t>(count) * rows > MAX_SLICE_SIZE) {
            ascend_twin::FailF(call, "the slices number at most MAX_SLICE_SIZE (1536) rows", "%s selects %llu", side,
                               static_cast<unsigned long long>(count) * rows);
        }
        for (uint32_t r = 1; r < rows; ++r) {
            for (uint32_t k = 0; k < count; ++k) offsets[r * count + k] = offsets[k] + r * (1 + s.stride) * sliceSize;
        }
        count *= rows;
    }
}

}  // namespace AscendC::twin_detail

// The rule checks of Pad and UnPad and the arithmetic of the unaligned Pad (twin/include/twin/kernel_adv_pad.h).
#include "twin/kernel_adv_pad.h"

#include <cstring>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

constexpr uint64_t kBlock = 32;
constexpr uint64_t kPadBaseBlockBytes = 16 * kBlock;  // A2's tiling: 16 rows of a 32-byte block (TransDataTo5HD)

void CheckPads(const char* call, uint32_t typeSize, uint32_t leftPad, uint32_t rightPad)
{
    if (leftPad * typeSize >= kBlock) {
        ascend_twin::FailF(call, "leftPad * sizeof(T) is under 32 bytes", "leftPad = %u, sizeof(T) = %u", leftPad,
                           typeSize);
    }
    if (rightPad * typeSize >= kBlock) {
        ascend_twin::FailF(call, "rightPad * sizeof(T) is under 32 bytes", "rightPad = %u, sizeof(T) = %u", rightPad,
                           typeSize);
    }
}

void CheckSource(const char* call, uint32_t typeSize, const MathOperand& src, uint32_t height, uint32_t width)
{
    const uint64_t bytes = static_cast<uint64_t>(height) * width * typeSize;
    if (height == 0 || width == 0) {
        ascend_twin::FailF(call, "tiling.srcHeight and tiling.srcWidth are positive (the host tiling function's shape)",
                           "srcHeight = %u, srcWidth = %u", height, width);
    }
    if (bytes % kBlock != 0) {
        ascend_twin::FailF(call, "the source's data (srcHeight * srcWidth elements) is a whole number of 32-byte blocks "
                                 "(docs: 源操作数的数据量必须32B对齐)",
                           "%u x %u elements of %u bytes are %llu bytes", height, width, typeSize, U(bytes));
    }
    if (bytes > src.bytes) {
        ascend_twin::FailF(call, "srcTensor holds tiling.srcHeight * tiling.srcWidth elements",
                           "srcTensor holds %llu, the tiling's %u x %u is %llu", U(src.bytes / typeSize), height, width,
                           U(bytes / typeSize));
    }
}

void CheckDst(const char* call, uint32_t typeSize, const MathOperand& dst, uint64_t elements)
{
    if (elements * typeSize > dst.bytes) {
        ascend_twin::FailF(call, "dstTensor holds the result", "dstTensor holds %llu elements, the result is %llu",
                           U(dst.bytes / typeSize), U(elements));
    }
}

}  // namespace

bool PadCheck(uint32_t typeSize, const MathOperand& dst, const MathOperand& src, const MathOperand& tmp,
              bool framework, const PadParams& params, const tiling::PadTiling& tiling)
{
    const char* call = "Pad";
    CheckVecOperands(call, {{"dstTensor", &dst}, {"srcTensor", &src}, {"sharedTmpBuffer", &tmp}},
                     framework ? &tmp : nullptr);
    CheckPads(call, typeSize, params.leftPad, params.rightPad);
    const uint32_t height = tiling.srcHeight, width = tiling.srcWidth;
    CheckSource(call, typeSize, src, height, width);
    if (static_cast<uint64_t>(width) * typeSize % kBlock == 0) {
        if (tiling.srcOriWidth == width) {
            ascend_twin::FailF(call, "a 32-byte aligned width has redundant columns to pad (tiling.srcOriWidth != "
                                     "tiling.srcWidth; docs: 已32B对齐，且全部为有效数据，则不支持)",
                               "srcWidth = srcOriWidth = %u", width);
        }
        if (params.leftPad != 0) {
            ascend_twin::FailF(call, "a 32-byte aligned width pads on the right only (leftPad 0; docs: 只支持在右边进行pad)",
                               "leftPad = %u", params.leftPad);
        }
        if (params.rightPad == 0) {
            ascend_twin::FailF(call, "a 32-byte aligned width has rightPad > 0", "rightPad = 0");
        }
        if (tiling.srcOriWidth < width && (width - tiling.srcOriWidth) * typeSize >= kBlock) {
            ascend_twin::FailF(call, "srcWidth is srcOriWidth rounded up to 32 bytes (the redundant columns lie in each "
                                     "row's last block; docs: pad之后的总width不超过原width向最近32B对齐后的宽度)",
                               "srcOriWidth = %u, srcWidth = %u, sizeof(T) = %u", tiling.srcOriWidth, width, typeSize);
        }
        if (tiling.srcOriWidth > width || tiling.srcOriWidth + params.rightPad > width) {
            ascend_twin::FailF(call, "srcOriWidth + rightPad is at most srcWidth (docs: pad之后的总width不超过原width向最近"
                                     "32B对齐后的宽度)",
                               "srcOriWidth = %u, rightPad = %u, srcWidth = %u", tiling.srcOriWidth, params.rightPad,
                               width);
        }
        CheckDst(call, typeSize, dst, static_cast<uint64_t>(height) * width);
        if (Overlap(dst.addr, static_cast<uint64_t>(height) * width * typeSize, src.addr,
                    static_cast<uint64_t>(height) * width * typeSize) &&
            dst.addr != src.addr) {
            ascend_twin::FailF(call, "dstTensor and srcTensor are the same tensor or do not overlap",
                               "they share bytes at different addresses");
        }
        return true;
    }
    const uint64_t outWidth = static_cast<uint64_t>(width) + params.leftPad + params.rightPad;
    if (outWidth * typeSize % kBlock != 0) {
        ascend_twin::FailF(call, "(srcWidth + leftPad + rightPad) * sizeof(T) is a whole number of 32 bytes (the width "
                                 "padded to its 32-byte alignment)",
                           "srcWidth = %u, leftPad = %u, rightPad = %u, sizeof(T) = %u", width, params.leftPad,
                           params.rightPad, typeSize);
    }
    CheckDst(call, typeSize, dst, height * outWidth);
    if (tiling.tmpBuffer1BlockNum == 0) {
        ascend_twin::FailF(call, "tiling.tmpBuffer1BlockNum >= 1 for an unaligned width (PadTilingFunc given at least "
                                 "GetPadMaxMinTmpSize's minimum as stackBufferSize)",
                           "tmpBuffer1BlockNum = 0");
    }
    const uint64_t used = 2ull * tiling.tmpBuffer1BlockNum * kPadBaseBlockBytes;
    if (tmp.bytes < used) {
        ascend_twin::FailF(call,
                           framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers holds the "
                                       "2 * tiling.tmpBuffer1BlockNum * 512 bytes the tiling makes A2 use"
                                     : "sharedTmpBuffer holds the 2 * tiling.tmpBuffer1BlockNum * 512 bytes the tiling "
                                       "makes A2 use",
                           "%llu bytes, the tiling's tmpBuffer1BlockNum = %u uses %llu", U(tmp.bytes),
                           tiling.tmpBuffer1BlockNum, U(used));
    }
    const uint64_t srcBytes = static_cast<uint64_t>(height) * width * typeSize;
    const uint64_t dstBytes = height * outWidth * typeSize;
    if (Overlap(tmp.addr, used, src.addr, srcBytes) || Overlap(tmp.addr, used, dst.addr, dstBytes)) {
        ascend_twin::FailF(call, "the temporary buffer overlaps neither srcTensor nor dstTensor",
                           "the %llu bytes A2 uses from UB %llu share bytes with %s", U(used),
                           U(ascend_twin::UbOffset(tmp.addr)),
                           Overlap(tmp.addr, used, src.addr, srcBytes) ? "srcTensor" : "dstTensor");
    }
    if (Overlap(dst.addr, dstBytes, src.addr, srcBytes)) {
        ascend_twin::FailF(call, "dstTensor and srcTensor do not overlap (an unaligned width writes rows of another "
                                 "length than it reads)",
                           "dstTensor [UB %llu, +%llu bytes) and srcTensor [UB %llu, +%llu bytes) share bytes",
                           U(ascend_twin::UbOffset(dst.addr)), U(dstBytes), U(ascend_twin::UbOffset(src.addr)),
                           U(srcBytes));
    }
    return false;
}

void PadUnalignedRun(uint32_t typeSize, const MathOperand& dst, const MathOperand& src, const MathOperand& tmp,
                     bool framework, const PadParams& params, const void* padValue, const tiling::PadTiling& tiling)
{
    const uint32_t height = tiling.srcHeight, width = tiling.srcWidth;
    const uint32_t outWidth = width + params.leftPad + params.rightPad;
    const uint64_t used = 2ull * tiling.tmpBuffer1BlockNum * kPadBaseBlockBytes;
    {
        ascend_twin::Instr instr("Pad", ascend_twin::Pipe::kV);
        instr.Read("srcTensor", src.addr, static_cast<uint64_t>(height) * width * typeSize);
        instr.Write(framework ? "the framework's temporary buffer" : "sharedTmpBuffer", tmp.addr, used);
        instr.Write("dstTensor", dst.addr, static_cast<uint64_t>(height) * outWidth * typeSize);
    }
    const uint8_t* s = static_cast<const uint8_t*>(src.addr);
    uint8_t* d = static_cast<uint8_t*>(const_cast<void*>(dst.addr));
    for (uint32_t r = 0; r < height; ++r) {
        std::memcpy(d + (static_cast<uint64_t>(r) * outWidth + params.leftPad) * typeSize,
                    s + static_cast<uint64_t>(r) * width * typeSize, static_cast<uint64_t>(width) * typeSize);
        for (uint32_t c = 0; c < outWidth; ++c) {
            if (c >= params.leftPad && c < params.leftPad + width) continue;
            std::memcpy(d + (static_cast<uint64_t>(r) * outWidth + c) * typeSize, padValue, typeSize);
        }
    }
    std::memset(const_cast<void*>(tmp.addr), 0xff, used);
    ascend_twin::CountVec(ascend_twin::VecOp::kDuplicate, static_cast<uint64_t>(height) * outWidth,
                          ascend_twin::CountFormRepeats(static_cast<uint64_t>(height) * outWidth, typeSize));
}

void UnPadCheck(uint32_t typeSize, const MathOperand& dst, const MathOperand& src, const UnPadParams& params,
                const tiling::UnPadTiling& tiling)
{
    const char* call = "UnPad";
    CheckVecOperands(call, {{"dstTensor", &dst}, {"srcTensor", &src}}, nullptr);
    CheckPads(call, typeSize, params.leftPad, params.rightPad);
    const uint32_t height = tiling.srcHeight, width = tiling.srcWidth;
    CheckSource(call, typeSize, src, height, width);
    if (static_cast<uint64_t>(width) * typeSize % kBlock != 0) {
        ascend_twin::FailF(call, "tiling.srcWidth * sizeof(T) is a whole number of 32 bytes (docs: width非32B对齐，则不"
                                 "支持调用本接口unpad)",
                           "srcWidth = %u, sizeof(T) = %u", width, typeSize);
    }
    if (params.rightPad == 0) {
        ascend_twin::FailF(call, "unPadParams.rightPad > 0 (docs: rightPad要求小于32B，大于0)", "rightPad = 0");
    }
    CheckDst(call, typeSize, dst, static_cast<uint64_t>(height) * (width - params.rightPad));
}

}  // namespace AscendC::twin_detail

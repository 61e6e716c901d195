// The rule checks and the arithmetic of the quantization API (twin/include/twin/kernel_adv_quant.h).
#include "twin/kernel_adv_quant.h"
#include "twin/kernel_adv_antiquant.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

uint32_t SizeOf(QuantKind k)
{
    switch (k) {
        case QuantKind::kHalf: case QuantKind::kBf16: return 2;
        case QuantKind::kFloat: case QuantKind::kInt32: return 4;
        case QuantKind::kU64: return 8;
        case QuantKind::kInt8: return 1;
    }
    return 4;
}

// A scale element as A2 reads it: float; bfloat16_t widened; uint64_t's low 32 bits as a float (docs).
float ScaleAt(const MathOperand& t, QuantKind k, uint32_t i)
{
    const uint8_t* p = static_cast<const uint8_t*>(t.addr);
    float f = 0.0f;
    if (k == QuantKind::kFloat) {
        std::memcpy(&f, p + i * 4, 4);
    } else if (k == QuantKind::kBf16) {
        uint16_t b;
        std::memcpy(&b, p + i * 2, 2);
        f = ascend_twin::Bf16BitsToFloat(b);
    } else {
        std::memcpy(&f, p + i * 8, 4);  // little-endian: the low half of the uint64_t
    }
    return f;
}

void StoreDst(void* base, QuantKind k, uint64_t i, float v)
{
    uint8_t* p = static_cast<uint8_t*>(base);
    if (k == QuantKind::kFloat) {
        std::memcpy(p + i * 4, &v, 4);
    } else if (k == QuantKind::kBf16) {
        const uint16_t b = ascend_twin::FloatToBf16Bits(v);  // CAST_RINT
        std::memcpy(p + i * 2, &b, 2);
    } else {
        const uint16_t h = ascend_twin::FloatToHalfBits(v);  // CAST_NONE: to nearest
        std::memcpy(p + i * 2, &h, 2);
    }
}

void CheckOperand(const char* call, const char* name, const MathOperand& op)
{
    if (op.pos != TPosition::VECIN && op.pos != TPosition::VECCALC && op.pos != TPosition::VECOUT) {
        ascend_twin::FailF(call, "the quantization API's operands are at VECIN, VECCALC or VECOUT", "%s is at %s", name,
                           PositionName(op.pos));
    }
    ascend_twin::CheckUbAligned(call, name, op.addr);
}

}  // namespace

void DequantRun(const DequantCall& c)
{
    const char* call = "AscendDequant";
    CheckOperand(call, "dstTensor", c.dstT);
    CheckOperand(call, "srcTensor", c.srcT);
    if (c.scaleIsTensor) CheckOperand(call, "deqScale", c.scaleT);
    if (!c.framework) CheckOperand(call, "sharedTmpBuffer", c.tmp);
    const uint32_t dstSize = SizeOf(c.dst);
    const uint32_t scaleSize = SizeOf(c.scale);
    const uint64_t srcElems = c.srcT.bytes / 4;
    const uint64_t scaleElems = c.scaleIsTensor ? c.scaleT.bytes / scaleSize : 0;
    DequantParams p = c.params;
    uint64_t total = 0;  // the elements (in rows of n) A2 computes
    if (c.withParams) {
        const uint32_t blk = 32 / dstSize;
        const uint64_t nDst = (static_cast<uint64_t>(p.n) + blk - 1) / blk * blk;
        if (p.n % 8 != 0) {
            ascend_twin::FailF(call, "params.n is a multiple of 8: a row of int32_t is 32-byte aligned (A2's check)",
                               "params = {m %u, n %u, calCount %u}", p.m, p.n, p.calCount);
        }
        if (static_cast<uint64_t>(p.m) * p.n > srcElems) {
            ascend_twin::FailF(call, "params.m * params.n <= the elements srcTensor holds (A2's check)",
                               "params = {m %u, n %u}, srcTensor holds %llu", p.m, p.n, U(srcElems));
        }
        if (p.calCount == 0 || p.calCount > p.n) {
            ascend_twin::FailF(call, "0 < params.calCount <= params.n (A2's check)", "params = {m %u, n %u, calCount %u}",
                               p.m, p.n, p.calCount);
        }
        if (static_cast<uint64_t>(p.m) * nDst * dstSize > c.dstT.bytes) {
            ascend_twin::FailF(call,
                               "dstTensor holds params.m rows of params.n rounded up to 32 bytes of dstT (A2's check)",
                               "params = {m %u, n %u}: %llu elements needed, dstTensor holds %llu", p.m, p.n,
                               U(p.m * nDst), U(c.dstT.bytes / dstSize));
        }
        if (c.scaleIsTensor && p.calCount > scaleElems) {
            ascend_twin::FailF(call, "params.calCount <= the elements deqScale holds (A2's check)",
                               "calCount %u, deqScale holds %llu", p.calCount, U(scaleElems));
        }
        if (c.singleRowMode && p.m == 1 && p.calCount % blk == 0 && p.n % p.calCount == 0) {
            p.m = p.n / p.calCount;  // {1, n, calCount} is {n / calCount, calCount, calCount} (docs)
            p.n = p.calCount;
        }
        total = static_cast<uint64_t>(p.m) * p.n;
    } else {
        if (scaleElems == 0 || srcElems % scaleElems != 0) {
            ascend_twin::FailF(call, "without DequantParams, srcTensor's size is a multiple of deqScale's (A2's check)",
                               "srcTensor holds %llu, deqScale %llu", U(srcElems), U(scaleElems));
        }
        if (c.scale == QuantKind::kU64 && scaleElems % 8 != 0) {
            ascend_twin::FailF(call, "without DequantParams, a uint64_t deqScale holds a multiple of 8 elements (A2's "
                                     "check)",
                               "deqScale holds %llu", U(scaleElems));
        }
        p = DequantParams{static_cast<uint32_t>(srcElems / scaleElems), static_cast<uint32_t>(scaleElems),
                          static_cast<uint32_t>(scaleElems)};
        total = srcElems;
        if (c.hasCalCount) {
            if (c.calCount == 0 || c.calCount > srcElems) {
                ascend_twin::FailF(call, "0 < calCount <= the elements srcTensor holds (A2's check)",
                                   "calCount %u, srcTensor holds %llu", c.calCount, U(srcElems));
            }
            total = c.calCount;
        }
    }
    const uint32_t blk = 32 / dstSize;
    const uint64_t dstInner = (static_cast<uint64_t>(p.n) + blk - 1) / blk * blk;
    const uint64_t rows = (total + p.n - 1) / p.n;
    const uint64_t dstBytes = ((rows - 1) * dstInner + (total - (rows - 1) * p.n)) * dstSize;
    if (dstBytes > c.dstT.bytes) {
        ascend_twin::FailF(call, "dstTensor holds the rows A2 writes (rows of n rounded up to 32 bytes of dstT)",
                           "%llu elements needed, dstTensor holds %llu", U(dstBytes / dstSize), U(c.dstT.bytes / dstSize));
    }
    const uint64_t srcBytes = total * 4;
    // The temporary buffer: the scale as floats (calCount rounded up to a block) and at least one row of n floats.
    const uint64_t scaleFloats = (static_cast<uint64_t>(p.calCount) + 7) / 8 * 8;
    const uint64_t tmpFloats = c.tmp.bytes / 4;
    const uint64_t rowsFloats = tmpFloats > scaleFloats ? (tmpFloats - scaleFloats) / p.n * p.n : 0;
    if (rowsFloats == 0) {
        ascend_twin::FailF(call,
                           c.framework ? "without sharedTmpBuffer, the UB after the TPipe's buffers (up to its last 128 "
                                         "bytes) holds the scale and one row as floats (A2's check)"
                                       : "sharedTmpBuffer holds the scale and one row as floats: (calCount rounded up "
                                         "to 8 + n) * 4 bytes (A2's check: stackBuffer size is not large enough)",
                           "%llu bytes, %llu needed (calCount %u, n %u)", U(c.tmp.bytes), U((scaleFloats + p.n) * 4),
                           p.calCount, p.n);
    }
    const uint64_t tmpUsed = (scaleFloats + std::min<uint64_t>(rowsFloats, static_cast<uint64_t>(p.m) * p.n)) * 4;
    if (Overlap(c.dstT.addr, dstBytes, c.srcT.addr, srcBytes)) {
        ascend_twin::FailF(call, "src and dst do not overlap (docs: 不支持源操作数与目的操作数地址重叠)",
                           "dstTensor [UB %llu, +%llu bytes) and srcTensor [UB %llu, +%llu bytes) share bytes",
                           U(ascend_twin::UbOffset(c.dstT.addr)), U(dstBytes), U(ascend_twin::UbOffset(c.srcT.addr)),
                           U(srcBytes));
    }
    const uint64_t scaleBytes = c.scaleIsTensor ? static_cast<uint64_t>(p.calCount) * scaleSize : 0;
    for (const auto& [name, addr, bytes] : {std::tuple<const char*, const void*, uint64_t>{"dstTensor", c.dstT.addr, dstBytes},
                                            {"srcTensor", c.srcT.addr, srcBytes}, {"deqScale", c.scaleT.addr, scaleBytes}}) {
        if (Overlap(c.tmp.addr, tmpUsed, addr, bytes)) {
            ascend_twin::FailF(call, "sharedTmpBuffer overlaps no operand",
                               "the %llu bytes of the temporary buffer the call uses (from UB %llu) share bytes with %s",
                               U(tmpUsed), U(ascend_twin::UbOffset(c.tmp.addr)), name);
        }
    }
    {
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        instr.Read("srcTensor", c.srcT.addr, srcBytes);
        if (scaleBytes != 0) instr.Read("deqScale", c.scaleT.addr, scaleBytes);
        instr.Write(c.framework ? "the framework's temporary buffer" : "sharedTmpBuffer", c.tmp.addr, tmpUsed);
        for (uint64_t r = 0; r < rows; ++r) {
            const uint64_t n = std::min<uint64_t>(p.n, total - r * p.n);
            instr.Write("dstTensor", static_cast<const uint8_t*>(c.dstT.addr) + r * dstInner * dstSize, n * dstSize);
        }
    }
    void* dst = const_cast<void*>(c.dstT.addr);
    const int32_t* src = static_cast<const int32_t*>(c.srcT.addr);
    for (uint64_t f = 0; f < total; ++f) {
        const uint64_t r = f / p.n;
        const uint32_t col = static_cast<uint32_t>(f % p.n);
        const uint64_t at = r * dstInner + col;
        if (col >= p.calCount) {  // undefined (docs): NaN bytes
            std::memset(static_cast<uint8_t*>(dst) + at * dstSize, 0xff, dstSize);
            continue;
        }
        const float s = c.scaleIsTensor ? ScaleAt(c.scaleT, c.scale, col) : c.scalarScale;
        StoreDst(dst, c.dst, at, static_cast<float>(src[f]) * s);
    }
    std::memset(const_cast<void*>(c.tmp.addr), 0xff, tmpUsed);
    SetMaskNorm();
    ResetMask();
    ascend_twin::CountVec(ascend_twin::VecOp::kAscendDequant, total, ascend_twin::CountFormRepeats(total, 4));
}

void AntiQuantCheck(const AntiQuantCall& c)
{
    const char* call = "AscendAntiQuant";
    if (c.scalar) {
        if (c.framework) CheckVecOperands(call, {{"dst", &c.dst}, {"src", &c.src}}, nullptr);
        else CheckVecOperands(call, {{"dst", &c.dst}, {"src", &c.src}, {"sharedTmpBuffer", &c.tmp}}, nullptr);
    } else if (c.framework) {
        CheckVecOperands(call, {{"dst", &c.dst}, {"src", &c.src}, {"offset", &c.offset}, {"scale", &c.scale}},
                         nullptr);
    } else {
        CheckVecOperands(call, {{"dst", &c.dst}, {"src", &c.src}, {"offset", &c.offset}, {"scale", &c.scale},
                                {"sharedTmpBuffer", &c.tmp}},
                         nullptr);
    }
    if (c.scalar) {  // A2 reads neither k nor shapeInfo here: all of src, one offset and scale
        if (c.dst.bytes < c.srcElements * 2) {
            ascend_twin::FailF(call, "dst holds src.GetSize() elements", "dst holds %llu, src %llu",
                               U(c.dst.bytes / 2), U(c.srcElements));
        }
        if (Overlap(c.dst.addr, c.srcElements * 2, c.src.addr, c.srcBytes)) {
            ascend_twin::FailF(call, "dst overlaps no source (docs: 不支持源操作数与目的操作数地址重叠; A2's check)",
                               "dst and %s share bytes", "src");
        }
        return;
    }
    if (c.k == 0 || c.srcElements == 0 || c.srcElements % c.k != 0) {
        ascend_twin::FailF(call, "k > 0 and src.GetSize() a multiple of k (src is [K, N] with K = k, docs)",
                           "k %u, src holds %llu elements", c.k, U(c.srcElements));
    }
    const uint64_t n = c.srcElements / c.k;
    if (n * 2 % 32 != 0 || n * 2 / 32 > 255) {
        ascend_twin::FailF(call,
                           "N * sizeof(half) is a multiple of 32 (docs: 参与计算的数据长度要求32B对齐) and at most 255 "
                           "blocks (A2 puts N * 2 / 32 into an 8-bit repeat stride)",
                           "N = src.GetSize() / k = %llu", U(n));
    }
    if (c.dst.bytes < c.srcElements * 2) {
        ascend_twin::FailF(call, "dst holds src.GetSize() elements", "dst holds %llu, src %llu", U(c.dst.bytes / 2),
                           U(c.srcElements));
    }
    for (const auto& [name, op] : {std::pair<const char*, const MathOperand*>{"offset", &c.offset}, {"scale", &c.scale}}) {
        if (op->bytes < n * 2) {
            ascend_twin::FailF(call, "offset and scale hold N = src.GetSize() / k elements (one per column)",
                               "%s holds %llu, N is %llu", name, U(op->bytes / 2), U(n));
        }
    }
    const AntiQuantShapeInfo& s = c.shapeInfo;
    if (static_cast<uint64_t>(s.offsetHeight) * s.offsetWidth > c.offset.bytes / 2 ||
        static_cast<uint64_t>(s.scaleHeight) * s.scaleWidth > c.scale.bytes / 2) {
        ascend_twin::FailF(call,
                           "shapeInfo.offsetHeight * offsetWidth <= offset.GetSize() and scaleHeight * scaleWidth <= "
                           "scale.GetSize() (A2's check)",
                           "shapeInfo = {%u, %u, %u, %u}, offset %llu, scale %llu elements", s.offsetHeight,
                           s.offsetWidth, s.scaleHeight, s.scaleWidth, U(c.offset.bytes / 2), U(c.scale.bytes / 2));
    }
    const uint64_t dstBytes = c.srcElements * 2;
    for (const auto& [name, addr, bytes] :
         {std::tuple<const char*, const void*, uint64_t>{"src", c.src.addr, c.srcBytes},
          {"offset", c.offset.addr, n * 2},
          {"scale", c.scale.addr, n * 2}}) {
        if (Overlap(c.dst.addr, dstBytes, addr, bytes)) {
            ascend_twin::FailF(call, "dst overlaps no source (docs: 不支持源操作数与目的操作数地址重叠; A2's check)",
                               "dst and %s share bytes", name);
        }
    }
}

}  // namespace AscendC::twin_detail

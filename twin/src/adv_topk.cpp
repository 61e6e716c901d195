// TopK's rule checks and its result (twin/include/twin/kernel_adv_topk.h).
#include "twin/kernel_adv_topk.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

constexpr const char* kCall = "TopK";

double ValueAt(uint32_t typeSize, const uint8_t* p)
{
    if (typeSize == 2) {
        uint16_t bits;
        std::memcpy(&bits, p, 2);
        return ascend_twin::HalfBitsToFloat(bits);
    }
    float f;
    std::memcpy(&f, p, 4);
    return f;
}

// x * -1 of a half or float: its sign bit flipped (what Muls by -1 does to every value but NaN's sign, which no
// rule reads).
void Negate(uint32_t typeSize, uint8_t* p)
{
    p[typeSize - 1] ^= 0x80;
}

void Holds(const char* name, const MathOperand& op, uint64_t elements, uint32_t elemBytes, const char* what)
{
    if (op.bytes < elements * elemBytes) {
        ascend_twin::FailF(kCall, what, "%s holds %llu elements, %llu needed", name, U(op.bytes / elemBytes),
                           U(elements));
    }
}

// The fields A2's path reads (topk_common_impl.h, topk_v220_impl.h) against TopKTilingFunc's for these arguments.
void CheckTiling(const TopKCall& c, const tiling::TopkTiling& got, const TopKInfo& info)
{
    tiling::TopkTiling want;
    twin_topk::A2Tiling(info.inner, info.outter, c.k, c.typeSize, c.isInitIndex,
                        c.small ? TopKMode::TOPK_NSMALL : TopKMode::TOPK_NORMAL, c.isLargest, want);
    struct Field {
        const char* name;
        int64_t want, got;
        bool read;
    };
    const bool normal = !c.small;
    const Field fields[] = {
        {"tmpLocalSize", want.tmpLocalSize, got.tmpLocalSize, true},
        {"maskOffset", want.maskOffset, got.maskOffset, !c.isLargest},
        {"innerDataSize", want.innerDataSize, got.innerDataSize, true},
        {"srcIndexOffset", want.srcIndexOffset, got.srcIndexOffset, normal && !c.isInitIndex},
        {"sortRepeat", want.sortRepeat, got.sortRepeat, normal},
        {"copyUbToUbBlockCount", want.copyUbToUbBlockCount, got.copyUbToUbBlockCount, normal},
        {"mrgSortRepeat", want.mrgSortRepeat, got.mrgSortRepeat, normal},
        {"mrgSortSrc1offset", want.mrgSortSrc1offset, got.mrgSortSrc1offset, normal},
        {"mrgSortSrc2offset", want.mrgSortSrc2offset, got.mrgSortSrc2offset, normal},
        {"mrgSortSrc3offset", want.mrgSortSrc3offset, got.mrgSortSrc3offset, normal},
        {"mrgSortTwoQueueSrc1Offset", want.mrgSortTwoQueueSrc1Offset, got.mrgSortTwoQueueSrc1Offset, normal},
        {"kAlignFourBytes", want.kAlignFourBytes, got.kAlignFourBytes, normal},
        {"kAlignTwoBytes", want.kAlignTwoBytes, got.kAlignTwoBytes, normal && c.typeSize == 2},
        {"maskVreducev2FourBytes", want.maskVreducev2FourBytes, got.maskVreducev2FourBytes, normal},
        {"maskVreducev2TwoBytes", want.maskVreducev2TwoBytes, got.maskVreducev2TwoBytes, normal && c.typeSize == 2},
        {"allDataSize", want.allDataSize, got.allDataSize, c.small && !c.isLargest},
        {"topkMrgSrc1MaskSizeOffset", want.topkMrgSrc1MaskSizeOffset, got.topkMrgSrc1MaskSizeOffset, c.small},
        {"topkNSmallSrcIndexOffset", want.topkNSmallSrcIndexOffset, got.topkNSmallSrcIndexOffset,
         c.small && !c.isInitIndex},
        {"vreduceValMask0", want.vreduceValMask0, got.vreduceValMask0, c.small && c.typeSize == 4},
        {"vreduceValMask1", want.vreduceValMask1, got.vreduceValMask1, c.small && c.typeSize == 4},
        {"vreduceIdxMask0", want.vreduceIdxMask0, got.vreduceIdxMask0, c.small},
        {"vreduceIdxMask1", want.vreduceIdxMask1, got.vreduceIdxMask1, c.small},
        {"vreducehalfValMask0", want.vreducehalfValMask0, got.vreducehalfValMask0, c.small && c.typeSize == 2},
        {"vreducehalfValMask1", want.vreducehalfValMask1, got.vreducehalfValMask1, c.small && c.typeSize == 2},
        {"vreducehalfValMask2", want.vreducehalfValMask2, got.vreducehalfValMask2, c.small && c.typeSize == 2},
        {"vreducehalfValMask3", want.vreducehalfValMask3, got.vreducehalfValMask3, c.small && c.typeSize == 2},
        {"vreducehalfValMask4", want.vreducehalfValMask4, got.vreducehalfValMask4, c.small && c.typeSize == 2},
        {"vreducehalfValMask5", want.vreducehalfValMask5, got.vreducehalfValMask5, c.small && c.typeSize == 2},
        {"vreducehalfValMask6", want.vreducehalfValMask6, got.vreducehalfValMask6, c.small && c.typeSize == 2},
        {"vreducehalfValMask7", want.vreducehalfValMask7, got.vreducehalfValMask7, c.small && c.typeSize == 2},
    };
    for (const Field& f : fields) {
        if (f.read && f.want != f.got) {
            ascend_twin::FailF(kCall,
                               "tilling is TopKTilingFunc's for this call (inner, outter, k, sizeof(T), isInitIndex, "
                               "topkMode, isLargest): A2 sorts and gathers with its fields unchecked (the twin is "
                               "stricter here)",
                               "tilling.%s = %lld, TopKTilingFunc(inner %d, outter %d, k %d, %u bytes, isInitIndex %d, "
                               "%s, isLargest %d) gives %lld",
                               f.name, static_cast<long long>(f.got), info.inner, info.outter, c.k, c.typeSize,
                               c.isInitIndex ? 1 : 0, c.small ? "TOPK_NSMALL" : "TOPK_NORMAL", c.isLargest ? 1 : 0,
                               static_cast<long long>(f.want));
        }
    }
}

}  // namespace

void TopKRun(const TopKCall& c, const MathOperand& dstValue, const MathOperand& dstIndex, const MathOperand& src,
             const MathOperand& srcIndex, const MathOperand& finish, const MathOperand& tmp,
             const tiling::TopkTiling& tiling, const TopKInfo& info)
{
    const uint32_t ts = c.typeSize;
    CheckVecOperands(kCall, {{"dstValueLocal", &dstValue}, {"dstIndexLocal", &dstIndex}, {"srcLocal", &src}}, nullptr);
    if (c.isInitIndex) CheckVecOperands(kCall, {{"srcIndexLocal", &srcIndex}}, nullptr);
    if (c.isHasfinish) CheckVecOperands(kCall, {{"finishLocal", &finish}}, nullptr);
    if (!c.framework) {
        CheckVecOperands(kCall, {{"tmpLocal", &tmp}}, nullptr);
        if (tmp.pos != TPosition::VECCALC) {
            ascend_twin::FailF(kCall, "tmpLocal is at VECCALC (docs: 逻辑位置仅支持VECCALC，不支持其他逻辑位置)",
                               "tmpLocal is at %s", PositionName(tmp.pos));
        }
    }
    if (info.inner <= 0 || info.inner % 32 != 0) {
        ascend_twin::FailF(kCall, "topKInfo.inner is a positive multiple of 32", "inner = %d", info.inner);
    }
    if (!c.small && info.inner > 4096) {
        ascend_twin::FailF(kCall, "topKInfo.inner is at most 4096 in TOPK_NORMAL mode", "inner = %d", info.inner);
    }
    if (c.small && info.inner != 32) {
        ascend_twin::FailF(kCall, "topKInfo.inner is 32 in TOPK_NSMALL mode", "inner = %d", info.inner);
    }
    if (c.small && c.isHasfinish) {
        ascend_twin::FailF(kCall, "isHasfinish is false in TOPK_NSMALL mode (docs: Small模式支持的取值：false)",
                           "isHasfinish = true");
    }
    if (info.n < 1 || info.n > info.inner) {
        ascend_twin::FailF(kCall, "1 <= topKInfo.n <= topKInfo.inner", "n = %d, inner = %d", info.n, info.inner);
    }
    if (c.k < 1 || c.k > info.n) {
        ascend_twin::FailF(kCall, "1 <= k <= topKInfo.n", "k = %d, n = %d", c.k, info.n);
    }
    if (info.outter < 1) {
        ascend_twin::FailF(kCall, "topKInfo.outter >= 1", "outter = %d", info.outter);
    }
    const uint64_t inner = static_cast<uint64_t>(info.inner), outter = static_cast<uint64_t>(info.outter);
    const uint64_t k = static_cast<uint64_t>(c.k);
    const uint64_t kPad = c.small ? k : (k + 32 / ts - 1) / (32 / ts) * (32 / ts);
    const uint64_t kPadIndex = c.small ? k : (k + 7) / 8 * 8;
    Holds("srcLocal", src, outter * inner, ts, "srcLocal holds topKInfo.outter * topKInfo.inner elements");
    Holds("dstValueLocal", dstValue, outter * kPad, ts,
          c.small ? "dstValueLocal holds k * outter elements (TOPK_NSMALL)"
                  : "dstValueLocal holds k_pad * outter elements (k rounded up to 32 bytes of T; TOPK_NORMAL)");
    Holds("dstIndexLocal", dstIndex, outter * kPadIndex, 4,
          c.small ? "dstIndexLocal holds k * outter elements (TOPK_NSMALL)"
                  : "dstIndexLocal holds kpad_index * outter elements (k rounded up to 8; TOPK_NORMAL)");
    const uint64_t indexElems = c.small ? outter * inner : inner;
    if (c.isInitIndex) {
        Holds("srcIndexLocal", srcIndex, indexElems, 4,
              c.small ? "srcIndexLocal holds outter * inner indices with isInitIndex (TOPK_NSMALL)"
                      : "srcIndexLocal holds inner indices with isInitIndex (TOPK_NORMAL: one row for all)");
    }
    if (c.isHasfinish) {
        Holds("finishLocal", finish, outter, 1, "finishLocal holds topKInfo.outter flags with isHasfinish");
    }
    CheckTiling(c, tiling, info);
    const uint64_t tmpBytes = static_cast<uint64_t>(tiling.tmpLocalSize) * ts;
    if (tmp.bytes < tmpBytes) {
        ascend_twin::FailF(kCall,
                           c.framework ? "the framework's buffer (the UB after the TPipe's buffers) holds "
                                         "tilling.tmpLocalSize elements of T (GetTopKMaxMinTmpSize's minimum)"
                                       : "tmpLocal holds tilling.tmpLocalSize elements of T (GetTopKMaxMinTmpSize's "
                                         "minimum)",
                           "%llu bytes, %llu needed", U(tmp.bytes), U(tmpBytes));
    }
    const uint64_t srcBytes = outter * inner * ts, dvBytes = outter * kPad * ts, diBytes = outter * kPadIndex * 4;
    const uint64_t siBytes = c.isInitIndex ? indexElems * 4 : 0, fBytes = c.isHasfinish ? outter : 0;
    const NamedOperand dsts[] = {{"dstValueLocal", &dstValue}, {"dstIndexLocal", &dstIndex}};
    const uint64_t dstBytes[] = {dvBytes, diBytes};
    const NamedOperand srcs[] = {{"srcLocal", &src}, {"srcIndexLocal", &srcIndex}, {"finishLocal", &finish}};
    const uint64_t srcBytesAll[] = {srcBytes, siBytes, fBytes};
    for (int d = 0; d < 2; ++d) {
        for (int s = 0; s < 3; ++s) {
            if (Overlap(dsts[d].op->addr, dstBytes[d], srcs[s].op->addr, srcBytesAll[s])) {
                ascend_twin::FailF(kCall, "sources and destinations do not overlap (docs: 不支持源操作数与目的操作数地址重叠)",
                                   "%s and %s share bytes", dsts[d].name, srcs[s].name);
            }
        }
    }
    if (Overlap(dstValue.addr, dvBytes, dstIndex.addr, diBytes)) {
        ascend_twin::FailF(kCall, "dstValueLocal and dstIndexLocal do not overlap", "they share bytes");
    }
    const NamedOperand all[] = {dsts[0], dsts[1], srcs[0], srcs[1], srcs[2]};
    const uint64_t allBytes[] = {dvBytes, diBytes, srcBytes, siBytes, fBytes};
    for (int i = 0; i < 5; ++i) {
        if (Overlap(tmp.addr, tmpBytes, all[i].op->addr, allBytes[i])) {
            ascend_twin::FailF(kCall, "the temporary buffer overlaps no operand",
                               "the %llu bytes A2 uses from UB %llu share bytes with %s", U(tmpBytes),
                               U(ascend_twin::UbOffset(tmp.addr)), all[i].name);
        }
    }
    {
        ascend_twin::Instr instr(kCall, ascend_twin::Pipe::kV);
        instr.Read("srcLocal", src.addr, srcBytes);
        if (siBytes != 0) instr.Read("srcIndexLocal", srcIndex.addr, siBytes);
        if (fBytes != 0) instr.Read("finishLocal", finish.addr, fBytes);
        if (tmpBytes != 0) {
            instr.Write(c.framework ? "the framework's temporary buffer" : "tmpLocal", tmp.addr, tmpBytes);
        }
        instr.Write("dstValueLocal", dstValue.addr, dvBytes);
        instr.Write("dstIndexLocal", dstIndex.addr, diBytes);
    }
    const uint8_t* s = static_cast<const uint8_t*>(src.addr);
    const uint8_t* si = static_cast<const uint8_t*>(srcIndex.addr);
    const uint8_t* fin = static_cast<const uint8_t*>(finish.addr);
    uint8_t* dv = static_cast<uint8_t*>(const_cast<void*>(dstValue.addr));
    uint8_t* di = static_cast<uint8_t*>(const_cast<void*>(dstIndex.addr));
    std::vector<uint32_t> order(inner);
    std::vector<double> key(inner);
    for (uint64_t r = 0; r < outter; ++r) {
        for (uint64_t j = 0; j < inner; ++j) {
            const double v = ValueAt(ts, s + (r * inner + j) * ts);
            key[j] = c.isLargest ? v : -v;
            order[j] = static_cast<uint32_t>(j);
        }
        // Descending keys, NaN first, equal keys in input order (Sort32 and MrgSort keep it).
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            if (std::isnan(key[a]) || std::isnan(key[b])) return std::isnan(key[a]) && !std::isnan(key[b]);
            return key[a] > key[b];
        });
        const bool finished = c.isHasfinish && fin[r] != 0;
        for (uint64_t i = 0; i < k; ++i) {
            const uint32_t j = order[i];
            std::memcpy(dv + (r * kPad + i) * ts, s + (r * inner + j) * ts, ts);
            int32_t index = static_cast<int32_t>(j);
            if (c.isInitIndex) std::memcpy(&index, si + ((c.small ? r * inner : 0) + j) * 4, 4);
            if (finished) index = info.n;
            std::memcpy(di + (r * kPadIndex + i) * 4, &index, 4);
        }
        // A2's Muls by -1 over maskOffset = outter * k_pad elements: the written values come back, the tails flip.
        if (!c.isLargest) {
            for (uint64_t i = k; i < kPad; ++i) Negate(ts, dv + (r * kPad + i) * ts);
        }
    }
    if (tmpBytes != 0) std::memset(const_cast<void*>(tmp.addr), 0xff, tmpBytes);
    ascend_twin::CountVec(ascend_twin::VecOp::kSort, outter * inner, outter * (inner / 32));
}

}  // namespace AscendC::twin_detail

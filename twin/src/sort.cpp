// The rule checks and the arithmetic of Concat, Sort and Extract (twin/include/twin/kernel_sort.h).
#include "twin/kernel_sort.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "adv_common.h"

namespace AscendC::twin_detail {

namespace {

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

void Need(const char* call, const char* name, const MathOperand& op, uint64_t bytes, const char* what)
{
    if (op.bytes < bytes) {
        ascend_twin::FailF(call, what, "%s holds %llu bytes, %llu needed", name, U(op.bytes), U(bytes));
    }
}

}  // namespace

void SortCheckRepeat(const char* call, int32_t repeatTime)
{
    if (repeatTime < 0 || repeatTime > 255) {
        ascend_twin::FailF(call, "repeatTime is in [0, 255]", "repeatTime = %d", repeatTime);
    }
}

void Sort32Run(uint32_t typeSize, bool isFullSort, const MathOperand& dst, const MathOperand& concat,
               const MathOperand& index, const MathOperand& tmp, int32_t repeatTime)
{
    const char* call = "Sort";
    SortCheckRepeat(call, repeatTime);
    CheckVecOperands(call, {{"dst", &dst}, {"concat", &concat}, {"index", &index}, {"tmp", &tmp}},
                     isFullSort ? nullptr : &tmp);
    const uint64_t n = static_cast<uint64_t>(repeatTime) * 32;
    Need(call, "concat", concat, n * typeSize, "concat and index hold repeatTime * 32 elements");
    Need(call, "index", index, n * 4, "concat and index hold repeatTime * 32 elements");
    Need(call, "dst", dst, n * 8, "dst holds repeatTime * 32 sorted elements of 8 bytes (GetSortLen)");
    if (isFullSort) Need(call, "tmp", tmp, n * 8, "with isFullSort, tmp holds repeatTime * 32 elements of 8 bytes");
    if (Overlap(dst.addr, n * 8, concat.addr, n * typeSize) || Overlap(dst.addr, n * 8, index.addr, n * 4)) {
        ascend_twin::FailF(call, "dst overlaps neither concat nor index", "dst [UB %llu, +%llu bytes) shares bytes with %s",
                           U(ascend_twin::UbOffset(dst.addr)), U(n * 8),
                           Overlap(dst.addr, n * 8, concat.addr, n * typeSize) ? "concat" : "index");
    }
    if (isFullSort) {
        for (const MathOperand* o : {&dst, &concat, &index}) {
            const uint64_t ob = o == &dst ? n * 8 : (o == &concat ? n * typeSize : n * 4);
            if (Overlap(tmp.addr, n * 8, o->addr, ob)) {
                ascend_twin::FailF(call, "tmp overlaps no operand", "tmp [UB %llu, +%llu bytes) shares bytes with %s",
                                   U(ascend_twin::UbOffset(tmp.addr)), U(n * 8),
                                   o == &dst ? "dst" : (o == &concat ? "concat" : "index"));
            }
        }
    }
    {
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        instr.Read("concat", concat.addr, n * typeSize);
        instr.Read("index", index.addr, n * 4);
        if (isFullSort && n != 0) instr.Write("tmp", tmp.addr, n * 8);
        instr.Write("dst", dst.addr, n * 8);
    }
    const uint8_t* v = static_cast<const uint8_t*>(concat.addr);
    const uint8_t* ix = static_cast<const uint8_t*>(index.addr);
    std::vector<uint64_t> order(n);
    for (uint64_t i = 0; i < n; ++i) order[i] = i;
    // Descending, NaN first, equal values in input order.
    const auto before = [&](uint64_t a, uint64_t b) {
        const double x = ValueAt(typeSize, v + a * typeSize), y = ValueAt(typeSize, v + b * typeSize);
        if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && !std::isnan(y);
        return x > y;
    };
    const uint64_t group = isFullSort ? n : 32;
    for (uint64_t g = 0; g < n; g += group) {
        std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(g),
                         order.begin() + static_cast<std::ptrdiff_t>(g + group), before);
    }
    uint8_t* d = static_cast<uint8_t*>(const_cast<void*>(dst.addr));
    for (uint64_t k = 0; k < n; ++k) {
        uint8_t pair[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        std::memcpy(pair, v + order[k] * typeSize, typeSize);
        std::memcpy(pair + 4, ix + order[k] * 4, 4);
        std::memcpy(d + k * 8, pair, 8);
    }
    if (isFullSort && n != 0) std::memset(const_cast<void*>(tmp.addr), 0xff, n * 8);
    ascend_twin::CountVec(ascend_twin::VecOp::kSort, n, static_cast<uint64_t>(repeatTime));
}

void ExtractRun(uint32_t typeSize, const MathOperand& dstValue, const MathOperand& dstIndex, const MathOperand& sorted,
                int32_t repeatTime)
{
    const char* call = "Extract";
    SortCheckRepeat(call, repeatTime);
    CheckVecOperands(call, {{"dstValue", &dstValue}, {"dstIndex", &dstIndex}, {"sorted", &sorted}}, nullptr);
    const uint64_t n = static_cast<uint64_t>(repeatTime) * 32;
    Need(call, "sorted", sorted, n * 8, "sorted holds repeatTime * 32 sorted elements of 8 bytes");
    Need(call, "dstValue", dstValue, n * typeSize, "dstValue and dstIndex hold repeatTime * 32 elements");
    Need(call, "dstIndex", dstIndex, n * 4, "dstValue and dstIndex hold repeatTime * 32 elements");
    if (Overlap(dstValue.addr, n * typeSize, sorted.addr, n * 8) || Overlap(dstIndex.addr, n * 4, sorted.addr, n * 8) ||
        Overlap(dstValue.addr, n * typeSize, dstIndex.addr, n * 4)) {
        ascend_twin::FailF(call, "dstValue, dstIndex and sorted do not overlap",
                           "dstValue [UB %llu), dstIndex [UB %llu), sorted [UB %llu)",
                           U(ascend_twin::UbOffset(dstValue.addr)), U(ascend_twin::UbOffset(dstIndex.addr)),
                           U(ascend_twin::UbOffset(sorted.addr)));
    }
    {
        ascend_twin::Instr instr(call, ascend_twin::Pipe::kV);
        instr.Read("sorted", sorted.addr, n * 8);
        instr.Write("dstValue", dstValue.addr, n * typeSize);
        instr.Write("dstIndex", dstIndex.addr, n * 4);
    }
    const uint8_t* s = static_cast<const uint8_t*>(sorted.addr);
    uint8_t* dv = static_cast<uint8_t*>(const_cast<void*>(dstValue.addr));
    uint8_t* di = static_cast<uint8_t*>(const_cast<void*>(dstIndex.addr));
    for (uint64_t k = 0; k < n; ++k) {
        std::memcpy(dv + k * typeSize, s + k * 8, typeSize);
        std::memcpy(di + k * 4, s + k * 8 + 4, 4);
    }
    ascend_twin::CountVec(ascend_twin::VecOp::kGatherMask, 2 * n, 2 * static_cast<uint64_t>(repeatTime));
}

}  // namespace AscendC::twin_detail

// VectorAdd tiling: z = scaleFull * F + scaleBcast * B. F ("full", the kernel's x) has the output's R x D
// elements in the output's memory order and B ("broadcast", the kernel's y) is either full too (R = 1), one row of D elements repeated
// for every row (the bias and residual pattern, read in place), or a single scalar.
//
// Host-only: the kernel reads the struct from op_kernel/vector_add_tiling_data.h.
#pragma once

#include <algorithm>
#include <utility>
#include <stdexcept>
#include <vector>

#include "../op_kernel/vector_add_tiling_data.h"  // the struct the kernel reads (GET_TILING_DATA)
#include "platform_info.h"

namespace ascend_ext {

// What the adapter decided about the operands, in the kernel's terms.
struct VectorAddProblem {
    uint64_t rows = 0;
    uint64_t rowLength = 0;
    VectorAddMode mode = kVectorAddRows;
    double scaleFull = 1.0;
    double scaleBcast = 1.0;
    double scalar = 0.0;  // kVectorAddScalarTiling only, already times scaleBcast
};

struct VectorAddPlan {
    VectorAddTilingData tiling;
    uint32_t blockDim;       // 0: empty output, nothing to launch
    uint64_t ubBytes;        // UB the kernel allocates per core
    uint64_t bcastElemsRead; // elements of B the kernel reads from GM, over all cores
};

inline constexpr uint32_t kVectorAddBufferNum = 2;           // double buffering of the F and z queues
inline constexpr uint64_t kVectorAddMinBytesPerCore = 8192;  // below this a core costs more than it saves
inline constexpr uint64_t kVectorAddTileAlign = 64;          // tile columns: 32-byte aligned for every dtype
inline constexpr uint64_t kVectorAddMaxTileRows = 4095;      // DataCopyPad blockCount limit

inline bool VectorAddComputesInFloat(DType dtype, const VectorAddProblem& p)
{
    if (dtype == DType::kBFloat16) return true;  // the A2 vector unit has no bfloat16 arithmetic
    // half + half with no scale is one correctly rounded half Add; anything else (a scale, a float scalar)
    // is computed in float and rounded once, as torch computes half arithmetic.
    return dtype == DType::kFloat16 && (p.mode != kVectorAddRows || p.scaleFull != 1.0 || p.scaleBcast != 1.0);
}

// Bytes of UB per tile element: F and z queues double buffered, the staged B (one buffer in the input
// dtype), the replicated and scaled B in the compute type, and a float work tile when computing in float.
inline uint64_t VectorAddUbBytesPerElement(DType dtype, bool inFloat)
{
    const uint64_t t = DTypeSize(dtype);
    const uint64_t compute = inFloat ? sizeof(float) : t;
    return 2ULL * kVectorAddBufferNum * t + t + compute + (inFloat ? sizeof(float) : 0);
}

// Splits n items into `groups` groups: the first `formerNum` get `former` items, the rest one `unit` less.
struct Split {
    uint64_t former;
    uint32_t formerNum;
};
inline Split SplitEvenly(uint64_t n, uint64_t groups, uint64_t unit)
{
    const uint64_t units = CeilDiv(n, unit);
    return {(units / groups + (units % groups ? 1 : 0)) * unit, static_cast<uint32_t>(units % groups)};
}

inline VectorAddPlan ComputeVectorAddTiling(const VectorAddProblem& p, DType dtype, const PlatformInfo& platform)
{
    VectorAddPlan plan{};
    VectorAddTilingData& t = plan.tiling;
    t.rows = p.rows;
    t.rowLength = p.rowLength;
    t.mode = p.mode;
    t.scaleFull = static_cast<float>(p.scaleFull);
    t.scaleBcast = static_cast<float>(p.scaleBcast);
    t.scalar = static_cast<float>(p.scalar);
    t.scaleFull64 = p.scaleFull;
    t.scaleBcast64 = p.scaleBcast;
    t.scalar64 = p.scalar;
    t.scaleFullIsOne = p.scaleFull == 1.0 ? 1 : 0;
    const bool inFloat = VectorAddComputesInFloat(dtype, p);
    t.computeInFloat = inFloat ? 1 : 0;
    if (p.rows == 0 || p.rowLength == 0) return plan;

    const uint64_t elem = DTypeSize(dtype);
    const uint64_t blockElems = platform.ubAlign / elem;
    const uint64_t perElement = VectorAddUbBytesPerElement(dtype, inFloat);
    const uint64_t tileCap = AlignDown(UbUsable(platform) / perElement, kVectorAddTileAlign);
    const uint64_t minElemsPerCore = kVectorAddMinBytesPerCore / elem;
    const uint64_t pitch = AlignUp(p.rowLength, blockElems);  // a row's UB footprint

    if (p.mode == kVectorAddRows && p.rows > 1 && pitch <= tileCap && p.rowLength <= minElemsPerCore) {
        // Short rows: whole rows per tile, cores split the rows, each reads B once.
        const uint64_t wanted = CeilDiv(p.rows * p.rowLength, minElemsPerCore);
        t.rowGroups = static_cast<uint32_t>(std::min<uint64_t>({wanted, platform.aivNum, p.rows}));
        t.colGroups = 1;
        const Split rows = SplitEvenly(p.rows, t.rowGroups, 1);
        t.rowsFormer = rows.former;
        t.rowFormerNum = rows.formerNum == 0 ? t.rowGroups : rows.formerNum;
        t.colsFormer = t.colsTail = p.rowLength;
        t.colFormerNum = 1;
        t.tileCols = static_cast<uint32_t>(p.rowLength);
        t.tileRows = static_cast<uint32_t>(std::min<uint64_t>({tileCap / pitch, kVectorAddMaxTileRows, t.rowsFormer}));
    } else {
        // Long rows (or one row, or a scalar B): cores split the columns in whole 32-byte blocks, and the
        // rows when there are columns for fewer cores than the platform has.
        const uint64_t colBlocks = CeilDiv(p.rowLength, blockElems);
        const uint64_t wanted = std::max<uint64_t>(1, CeilDiv(p.rowLength, minElemsPerCore));
        t.colGroups = static_cast<uint32_t>(std::min<uint64_t>({wanted, platform.aivNum, colBlocks}));
        t.rowGroups = static_cast<uint32_t>(std::min<uint64_t>(p.rows, platform.aivNum / t.colGroups));
        const Split rows = SplitEvenly(p.rows, t.rowGroups, 1);
        t.rowsFormer = rows.former;
        t.rowFormerNum = rows.formerNum == 0 ? t.rowGroups : rows.formerNum;
        const Split cols = SplitEvenly(colBlocks, t.colGroups, 1);
        t.colsFormer = cols.former * blockElems;
        t.colsTail = (cols.formerNum == 0 ? cols.former : cols.former - 1) * blockElems;
        t.colFormerNum = cols.formerNum == 0 ? t.colGroups : cols.formerNum;
        t.tileRows = 1;
        t.tileCols = static_cast<uint32_t>(std::min(tileCap, AlignUp(t.colsFormer, kVectorAddTileAlign)));
    }
    // What the kernel allocates: F and z queues, the staged B row, the replicated B and the float work tile.
    const uint64_t rowPitch = AlignUp(t.tileCols, blockElems);
    const uint64_t tileElems = t.tileRows * rowPitch;
    const bool rowsMode = p.mode == kVectorAddRows;
    const bool replicate = rowsMode && (t.tileRows > 1 || inFloat || p.scaleBcast != 1.0);
    const uint64_t computeSize = inFloat ? sizeof(float) : elem;
    plan.ubBytes = 2ULL * kVectorAddBufferNum * tileElems * elem + (rowsMode ? rowPitch * elem : 0) +
                   (replicate ? tileElems * computeSize : 0) + (inFloat ? tileElems * sizeof(float) : 0);
    plan.blockDim = t.rowGroups * t.colGroups;
    plan.bcastElemsRead = p.mode == kVectorAddRows ? static_cast<uint64_t>(t.rowGroups) * p.rowLength
                          : p.mode == kVectorAddScalarGm ? plan.blockDim
                                                         : 0;
    return plan;
}

// The op's operands as the op package receives them (op_host/vector_add.cpp): x with fullElems elements
// and y with bcastElems, or no y (hasBcast false: the number yValue rides in the tiling); the Float attrs
// scale_x, scale_y, y_value. z = scale_x * x + scale_y * (y or y_value).
struct VectorAddOperands {
    uint64_t fullElems = 0;
    bool hasBcast = false;
    uint64_t bcastElems = 0;
    double scaleX = 1.0;
    double scaleY = 1.0;
    double yValue = 0.0;
};

struct VectorAddDecoded {
    VectorAddProblem problem;
    const char* error = nullptr;  // non-null: the operands describe no VectorAdd (says why)
};

// The problem the kernel solves for those operands. The one decode of the op: the CPU adapter and the
// NPU TilingFunc both call it, so the twin's launches cover what the NPU tiles.
inline VectorAddDecoded DecodeVectorAddProblem(const VectorAddOperands& o)
{
    VectorAddDecoded r;
    VectorAddProblem& p = r.problem;
    p.rows = 1;
    p.rowLength = o.fullElems;
    p.scaleFull = o.scaleX;
    if (!o.hasBcast) {
        p.mode = kVectorAddScalarTiling;
        p.scalar = o.scaleY * o.yValue;
        return r;
    }
    p.scaleBcast = o.scaleY;
    if (o.bcastElems == o.fullElems) return r;  // equal element counts: one row
    if (o.bcastElems == 1) {
        p.mode = kVectorAddScalarGm;
    } else if (o.bcastElems != 0 && o.fullElems % o.bcastElems == 0) {
        p.rows = o.fullElems / o.bcastElems;
        p.rowLength = o.bcastElems;
    } else {
        r.error = "y must have 1 element, x's element count, or a divisor of it (one row repeated over x)";
    }
    return r;
}

// Equal shapes: both operands are n elements.
inline VectorAddPlan ComputeVectorAddTiling(uint64_t n, DType dtype, const PlatformInfo& platform)
{
    VectorAddProblem p;
    p.rows = 1;
    p.rowLength = n;
    return ComputeVectorAddTiling(p, dtype, platform);
}

// The plan as named numbers, for ascend_ext.twin.plan() and the snapshot tests.
inline std::vector<std::pair<const char*, uint64_t>> DescribeVectorAddPlan(const VectorAddPlan& plan)
{
    const VectorAddTilingData& t = plan.tiling;
    return {{"block_dim", plan.blockDim},       {"rows", t.rows},
            {"row_length", t.rowLength},        {"mode", t.mode},
            {"row_groups", t.rowGroups},        {"col_groups", t.colGroups},
            {"rows_former", t.rowsFormer},      {"row_former_num", t.rowFormerNum},
            {"cols_former", t.colsFormer},      {"cols_tail", t.colsTail},
            {"col_former_num", t.colFormerNum}, {"tile_rows", t.tileRows},
            {"tile_cols", t.tileCols},          {"compute_in_float", t.computeInFloat},
            {"ub_bytes", plan.ubBytes},         {"bcast_elems_read", plan.bcastElemsRead}};
}

// The plan of ascend_ext.twin.plan("vector_add", sizes): [n], two operands of n elements, or [rows, d], rows x d
// plus a broadcast row of d elements (the op's declaration names this function, al.Plan).
inline std::vector<std::pair<const char*, uint64_t>> VectorAddPlanFromSizes(const std::vector<int64_t>& sizes,
                                                                            DType dtype, const PlatformInfo& platform)
{
    int64_t n = 1;  // like a torch tensor's numel, it must fit in int64_t
    for (int64_t s : sizes) {
        if (__builtin_mul_overflow(n, s, &n)) {
            throw std::invalid_argument("sizes hold more than 2^63 - 1 elements, more than any tensor can");
        }
    }
    VectorAddProblem p;
    p.rows = sizes.size() == 2 ? static_cast<uint64_t>(sizes[0]) : 1;
    p.rowLength = sizes.size() == 2 ? static_cast<uint64_t>(sizes[1]) : static_cast<uint64_t>(n);
    return DescribeVectorAddPlan(ComputeVectorAddTiling(p, dtype, platform));
}

}  // namespace ascend_ext

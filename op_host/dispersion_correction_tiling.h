// DispersionCorrection tiling, shared by the forward kernel (dispersion_correction) and the backward kernel
// (dispersion_correction_backward). The input is R rows of D elements; each row is one reduction.
//
// Cores split the rows (the first rowFormerNum cores take rowsFormer rows, the rest one fewer). A core
// streams its rows through UB in one of two ways:
//  - packed: whole rows, tileRows of them per tile, each row at a 32-byte aligned pitch in UB, moved by
//    one DataCopyPad per tile; every element is read from GM once and written once;
//  - multi-pass: a row that does not fit in UB is read in chunks of chunkLen elements twice: pass 1
//    computes each chunk's statistics in UB and merges them (Chan et al.), pass 2 writes the output.
//
// Few long rows (multi-pass, fewer rows than half the vector cores) are split across cores: each row
// gets coresPerRow cores, each core a contiguous range of the row's chunks (the first partFormerNum
// parts partChunks chunks, the others one fewer). Pass 1 leaves each core's partial statistics in its
// 64-byte slot of the GM workspace (slot = block index); SyncAll; every core of the row reads the row's
// slots and merges them in slot order (the same operations in the same order on every core, so all
// get bit-identical statistics), then writes its part of the output in pass 2.
//
// Why one launch with SyncAll rather than a second launch: the partials are a few bytes per core and the
// combine is a handful of scalar operations, so a second launch would cost more (a launch on the NPU is
// several microseconds; the output pass would also re-derive every core's part) than one barrier; the
// barrier keeps each core's UB state (its chunk range, alpha, the reference mean) across the combine.
// SyncAll needs every block resident at once: blockDim stays <= the vector core count, the kernel is
// declared KERNEL_TYPE_MIX_AIV_1_0 (the hardware SyncAll needs the MIX scheduler) and the op asks for
// batch mode (SetScheduleMode), as the SyncAll docs recommend.
// Host-only: the kernels read the struct from op_kernel/dispersion_correction_tiling_data.h.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <stdexcept>
#include <vector>

#include "../op_kernel/dispersion_correction_tiling_data.h"  // the struct the kernel reads (GET_TILING_DATA)
#include "platform_info.h"

namespace ascend_ext {

struct DispersionCorrectionProblem {
    uint64_t rows = 0;
    uint64_t rowLength = 0;
    uint32_t mode = kDispersionNormalize;
    double alpha = 1.0;
    double eps = 1e-5;
    bool backward = false;  // the grad kernel: inputs grad and x, output grad_x
};

struct DispersionCorrectionPlan {
    DispersionCorrectionTilingData tiling;
    uint32_t blockDim;          // 0: empty output, nothing to launch
    uint64_t ubBytes;           // UB the kernel allocates per core
    uint64_t gmElemsRead;       // elements read from GM over all cores (all inputs, all passes)
    uint64_t gmElemsWritten;    // elements written to GM
    uint64_t workspaceBytes;    // the op's GM workspace: one partial-statistics slot per core when split
    uint64_t gmWorkspaceBytesRead;     // split: every core reads its row's coresPerRow slots
    uint64_t gmWorkspaceBytesWritten;  // split: every core writes its slot
};

struct DispersionCorrectionDecoded {
    DispersionCorrectionProblem problem;
    const char* error = nullptr;  // non-null: the operands describe no DispersionCorrection (says why)
};

// The op's operands as the op package receives them (op_host/dispersion_correction*.cpp): x's shape (rows
// along its last dimension) and the attrs alpha, mode, eps. The one decode of the op: the CPU adapter and
// the NPU TilingFunc both call it.
inline DispersionCorrectionDecoded DecodeDispersionCorrectionProblem(const int64_t* dims, size_t rank, double alpha,
                                                                     int64_t mode, double eps, bool backward)
{
    DispersionCorrectionDecoded r;
    uint64_t elems = 1;
    bool negative = false;
    for (size_t i = 0; i < rank; ++i) {
        negative = negative || dims[i] < 0;
        elems *= static_cast<uint64_t>(dims[i] < 0 ? 0 : dims[i]);
    }
    if (rank == 0 || negative || dims[rank - 1] == 0) {
        r.error = "x needs at least one dimension, none negative and the last one not empty";
    } else if (mode != kDispersionScale && mode != kDispersionNormalize) {
        r.error = "mode must be 0 (scale) or 1 (normalize)";
    } else {
        DispersionCorrectionProblem& p = r.problem;
        p.rowLength = static_cast<uint64_t>(dims[rank - 1]);
        p.rows = elems / p.rowLength;
        p.mode = static_cast<uint32_t>(mode);
        p.alpha = alpha;
        p.eps = eps;
        p.backward = backward;
    }
    return r;
}

inline constexpr uint32_t kDispersionBufferNum = 2;            // double buffering of the GM <-> UB queues
inline constexpr uint64_t kDispersionMinBytesPerCore = 8192;   // below this a core costs more than it saves
inline constexpr uint64_t kDispersionChunkAlign = 64;          // chunk length: 32-byte aligned for every dtype
inline constexpr uint64_t kDispersionMaxTileRows = 4095;       // DataCopyPad blockCount limit
inline constexpr uint64_t kDispersionReduceTmpBytes = 32;      // ReduceSum's shared buffer (unused on A2)

// Element type the kernels compute in: float for float16/bfloat16/float32, double for the twin's float64.
inline uint64_t DispersionComputeSize(DType dtype) { return dtype == DType::kFloat64 ? 8 : 4; }

// Per-row statistics slots in UB (one compute-type element per row each): forward sum, correction sum,
// M2 (then the scale), alpha; backward: sums of grad, x, centred x, squares, grad * centred x, the scale,
// alpha.
inline uint64_t DispersionStatSlots(bool backward) { return backward ? 7 : 4; }

// UB bytes per tile element: the double-buffered queues (x and y; backward grad, x and grad_x) in the
// input dtype, plus the compute-type work tiles (forward: centred x, squares; backward: grad, centred x,
// products).
inline uint64_t DispersionBytesPerElement(DType dtype, bool backward, bool readX)
{
    const uint64_t t = DTypeSize(dtype);
    const uint64_t c = DispersionComputeSize(dtype);
    if (!backward) return 2 * kDispersionBufferNum * t + 2 * c;
    return (readX ? 3 : 2) * kDispersionBufferNum * t + 3 * c;
}

// UB the kernel allocates for `tileRows` rows of `tileElemsPerRow` elements (pitch) each.
inline uint64_t DispersionUbBytes(DType dtype, bool backward, bool readX, uint64_t tileRows, uint64_t pitch,
                                  uint64_t ubAlign, bool shortRows = false)
{
    const uint64_t c = DispersionComputeSize(dtype);
    const uint64_t statBytes = AlignUp(tileRows * c, ubAlign);
    const uint64_t bcastBytes = shortRows ? AlignUp(tileRows, 8) * kDispersionShortBcastBytes : 0;
    return tileRows * pitch * DispersionBytesPerElement(dtype, backward, readX) +
           DispersionStatSlots(backward) * statBytes + kDispersionReduceTmpBytes + bcastBytes;
}

inline DispersionCorrectionPlan ComputeDispersionCorrectionTiling(const DispersionCorrectionProblem& p, DType dtype,
                                                                  const PlatformInfo& platform)
{
    DispersionCorrectionPlan plan{};
    DispersionCorrectionTilingData& t = plan.tiling;
    t.rows = p.rows;
    t.rowLength = p.rowLength;
    t.mode = p.mode;
    t.alpha = static_cast<float>(p.alpha);
    t.eps = static_cast<float>(p.eps);
    t.alpha64 = p.alpha;
    t.eps64 = p.eps;
    const bool readX = !p.backward || p.mode == kDispersionNormalize;
    t.readX = readX ? 1 : 0;
    t.coresPerRow = 1;
    if (p.rows == 0 || p.rowLength == 0) return plan;

    const uint64_t elem = DTypeSize(dtype);
    const uint64_t blockElems = platform.ubAlign / elem;
    const uint64_t ub = UbUsable(platform);
    const uint64_t inputs = p.backward ? (readX ? 2 : 1) : 1;

    // Cores: enough rows each to be worth a core, never more cores than rows.
    const uint64_t bytes = p.rows * p.rowLength * elem * inputs;
    const uint64_t wanted = std::max<uint64_t>(1, CeilDiv(bytes, kDispersionMinBytesPerCore));
    const uint32_t cores = static_cast<uint32_t>(std::min<uint64_t>({wanted, platform.aivNum, p.rows}));
    t.rowsFormer = CeilDiv(p.rows, cores);
    t.rowFormerNum = static_cast<uint32_t>(p.rows % cores == 0 ? cores : p.rows % cores);

    const uint64_t pitch = AlignUp(p.rowLength, blockElems);
    // Short float rows add the per-row broadcast buffer (op_kernel/dispersion_correction_tiling_data.h).
    const bool shortRows = DispersionShortRows(static_cast<uint32_t>(elem),
                                               static_cast<uint32_t>(DispersionComputeSize(dtype)), p.rowLength, 0);
    if (DispersionUbBytes(dtype, p.backward, readX, 1, pitch, platform.ubAlign, shortRows) <= ub) {
        // Packed: as many whole rows per tile as UB holds.
        uint64_t rows = std::min<uint64_t>({t.rowsFormer, kDispersionMaxTileRows,
                                            ub / (pitch * DispersionBytesPerElement(dtype, p.backward, readX))});
        while (rows > 1 && DispersionUbBytes(dtype, p.backward, readX, rows, pitch, platform.ubAlign, shortRows) > ub) {
            --rows;
        }
        t.tileRows = static_cast<uint32_t>(std::max<uint64_t>(rows, 1));
        t.chunkLen = static_cast<uint32_t>(p.rowLength);
        t.multiPass = 0;
        plan.ubBytes = DispersionUbBytes(dtype, p.backward, readX, t.tileRows, pitch, platform.ubAlign, shortRows);
    } else {
        // Multi-pass: the longest chunk UB holds, in whole 64-element units.
        const uint64_t fixed = DispersionUbBytes(dtype, p.backward, readX, 1, 0, platform.ubAlign);
        const uint64_t chunk = AlignDown((ub - fixed) / DispersionBytesPerElement(dtype, p.backward, readX),
                                         kDispersionChunkAlign);
        t.tileRows = 1;
        t.chunkLen = static_cast<uint32_t>(chunk);
        t.multiPass = 1;
        plan.ubBytes = DispersionUbBytes(dtype, p.backward, readX, 1, chunk, platform.ubAlign);
    }
    plan.blockDim = cores;
    if (t.multiPass && p.rows * 2 <= platform.aivNum) {
        // Few long rows: split each across cores, every core at least one chunk.
        const uint64_t chunks = CeilDiv(p.rowLength, t.chunkLen);
        const uint64_t perRow = std::min<uint64_t>(platform.aivNum / p.rows, chunks);
        t.coresPerRow = static_cast<uint32_t>(perRow);
        t.partChunks = static_cast<uint32_t>(CeilDiv(chunks, perRow));
        t.partFormerNum = static_cast<uint32_t>(chunks % perRow == 0 ? perRow : chunks % perRow);
        t.rowsFormer = 1;
        t.rowFormerNum = static_cast<uint32_t>(p.rows);
        plan.blockDim = static_cast<uint32_t>(p.rows * perRow);
        plan.workspaceBytes = plan.blockDim * kDispersionPartialBytes;
        plan.gmWorkspaceBytesWritten = plan.workspaceBytes;
        plan.gmWorkspaceBytesRead = plan.blockDim * perRow * kDispersionPartialBytes;
    }
    const uint64_t elems = p.rows * p.rowLength;
    plan.gmElemsRead = elems * inputs * (t.multiPass ? 2 : 1);
    plan.gmElemsWritten = elems;
    return plan;
}

// The plan as named numbers, for ascend_ext.twin.plan() and the snapshot tests.
inline std::vector<std::pair<const char*, uint64_t>> DescribeDispersionCorrectionPlan(
    const DispersionCorrectionPlan& plan)
{
    const DispersionCorrectionTilingData& t = plan.tiling;
    return {{"block_dim", plan.blockDim},     {"rows", t.rows},
            {"row_length", t.rowLength},      {"rows_former", t.rowsFormer},
            {"row_former_num", t.rowFormerNum}, {"tile_rows", t.tileRows},
            {"chunk_len", t.chunkLen},        {"multi_pass", t.multiPass},
            {"mode", t.mode},                 {"read_x", t.readX},
            {"ub_bytes", plan.ubBytes},       {"gm_elems_read", plan.gmElemsRead},
            {"gm_elems_written", plan.gmElemsWritten},
            {"cores_per_row", t.coresPerRow}, {"part_chunks", t.partChunks},
            {"part_former_num", t.partFormerNum},
            {"workspace_bytes", plan.workspaceBytes},
            {"gm_workspace_bytes_read", plan.gmWorkspaceBytesRead},
            {"gm_workspace_bytes_written", plan.gmWorkspaceBytesWritten}};
}

// The plan of ascend_ext.twin.plan("dispersion_correction", sizes): [rows, d] (mode 1, forward) or
// [rows, d, mode, backward], x viewed as rows of d elements (the op's declaration names this function).
inline std::vector<std::pair<const char*, uint64_t>> DispersionCorrectionPlanFromSizes(
    const std::vector<int64_t>& sizes, DType dtype, const PlatformInfo& platform)
{
    if (sizes.size() != 2 && sizes.size() != 4) {
        throw std::invalid_argument("dispersion_correction plans take [rows, d] or [rows, d, mode, backward]");
    }
    DispersionCorrectionProblem p;
    p.rows = static_cast<uint64_t>(sizes[0]);
    p.rowLength = static_cast<uint64_t>(sizes[1]);
    if (sizes.size() == 4) {
        p.mode = static_cast<uint32_t>(sizes[2]);
        p.backward = sizes[3] != 0;
    }
    return DescribeDispersionCorrectionPlan(ComputeDispersionCorrectionTiling(p, dtype, platform));
}

}  // namespace ascend_ext

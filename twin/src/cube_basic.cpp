// The raw cube path (twin/kernel_cube_basic.h): the core's L1/L0A/L0B/L0C/BT memories and the copies,
// loads, Mmad and Fixpipe that move data through them.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "twin/kernel_cube.h"
#include "twin/kernel_cube_basic.h"
#include "twin/kernel_matmul_mix.h"
#include "twin/violation.h"

#include "core_sched.h"

namespace AscendC::twin_detail {

namespace {

constexpr uint64_t kBtBytes = 1024;  // BiasTable Buffer on A2 (docs: L1ToBiasTable-Buffer数据搬运)
// The Fixpipe Buffer's space for the quantisation parameters (TPosition::C2PIPE2GM) on A2: the 910B platform
// files' fb0_size. Its tensors start at multiples of 128 bytes (docs: L1ToFixpipe-Buffer数据搬运).
constexpr uint64_t kFbBytes = 2048;
constexpr int32_t kMemories = 6;
constexpr const char* kMemoryName[] = {"L1", "L0A", "L0B", "L0C", "BT", "FB"};
constexpr uint32_t kMemoryAlign[] = {32, 512, 512, 64, 64, 128};

uint64_t MemoryBytes(int32_t m)
{
    const ascend_twin::Platform& p = *ascend_twin::CurrentCore().platform;
    switch (m) {
        case 0: return p.l1Size;
        case 1: return p.l0aSize;
        case 2: return p.l0bSize;
        case 3: return p.l0cSize;
        case 4: return kBtBytes;
        default: return kFbBytes;
    }
}

uint64_t MemoryOffset(int32_t m)
{
    uint64_t off = 0;
    for (int32_t i = 0; i < m; ++i) off += (MemoryBytes(i) + 63) / 64 * 64;
    return off;
}

namespace {
// The sparse index buffer of each AI Cube core (LoadDataWithSparse docs: a quarter of L0B's size, written by
// LoadDataWithSparse, read by MmadWithSparse): a 128-byte index fractal for each 512-byte L0B fractal, at a
// quarter of that fractal's L0B offset. Kept per core, emptied when the core first reaches its cube memories in a
// launch (Cube()), with the fractals loaded so far.
struct SparseIndex {
    std::vector<uint8_t> bytes;
    std::vector<uint8_t> loaded;  // per index fractal
};
std::mutex gSparseMutex;
std::map<const ascend_twin::CoreContext*, SparseIndex> gSparse;

SparseIndex& SparseOf(ascend_twin::CoreContext& core, bool reset = false)
{
    std::lock_guard<std::mutex> lock(gSparseMutex);
    SparseIndex& s = gSparse[&core];
    if (reset || s.loaded.empty()) {
        s.bytes.assign(MemoryBytes(2) / 4, 0);
        s.loaded.assign(MemoryBytes(2) / 512, 0);
    }
    return s;
}

// The LoadData (卷积数据搬运) v2 registers of each AI Cube core (twin/kernel_load3d.h), emptied like the sparse
// index when the core first reaches its cube memories in a launch.
struct Load3dRegisters {
    bool fmatrixSet = false;  // SetFmatrix, or a LoadData with isSetFMatrix, ran in this launch
    uint16_t l1H = 0, l1W = 0;
    uint8_t padList[4] = {0, 0, 0, 0};
    uint64_t padding = 0;
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1, repeatMode = 0;
    uint32_t boundary = 0;
};
std::map<const ascend_twin::CoreContext*, Load3dRegisters> gLoad3d;

// The Fixpipe's registers of each AI Cube core that the L0C -> GM DataCopy reads: QUANT_PRE (SetFixpipePreQuantFlag),
// FPC's quantisation address (SetFixPipeConfig with a Fixpipe Buffer tensor, kept as its FB offset) and ND_PARA
// (SetFixpipeNz2ndFlag). Emptied when the core first reaches its cube memories in a launch: a register read before
// its Set call in the launch is refused (the device would read whatever the previous kernel left).
struct FixpipeRegisters {
    bool quantSet = false;
    uint64_t quantPre = 0;
    bool fpcSet = false;
    uint64_t fpcQuantOffset = 0;  // FB offset of the quantisation words
    bool ndSet = false;
    uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
};
std::map<const ascend_twin::CoreContext*, FixpipeRegisters> gFixpipe;

Load3dRegisters& Load3dOf(ascend_twin::CoreContext& core, bool reset = false)
{
    std::lock_guard<std::mutex> lock(gSparseMutex);
    Load3dRegisters& r = gLoad3d[&core];
    if (reset) r = Load3dRegisters{};
    return r;
}

FixpipeRegisters& FixpipeOf(ascend_twin::CoreContext& core, bool reset = false)
{
    std::lock_guard<std::mutex> lock(gSparseMutex);
    FixpipeRegisters& r = gFixpipe[&core];
    if (reset) r = FixpipeRegisters{};
    return r;
}
}  // namespace

uint8_t* Cube()
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.cube == nullptr) {  // the core's first cube access in this launch
        core.cube = ascend_twin::CurrentStackCube(MemoryOffset(kMemories));
        SparseOf(core, true);
        Load3dOf(core, true);
        FixpipeOf(core, true);
    }
    return core.cube;
}

// Which memory a pointer lies in, and its offset there; -1 when in none of them.
int32_t MemoryOfPointer(const uint8_t* p, uint64_t* offset)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.cube == nullptr || p < core.cube) return -1;
    const uint64_t off = static_cast<uint64_t>(p - core.cube);
    for (int32_t m = 0; m < kMemories; ++m) {
        const uint64_t base = MemoryOffset(m);
        if (off >= base && off < base + MemoryBytes(m)) {
            *offset = off - base;
            return m;
        }
    }
    return -1;
}

// Checks that an operand lies in the memory `want` at the alignment that memory asks for.
void CheckOperand(const char* call, const CubeOperand& t, int32_t want, uint32_t align = 0)
{
    uint64_t offset = 0;
    const int32_t m = t.data == nullptr ? -1 : MemoryOfPointer(t.data, &offset);
    if (m != want) {
        ascend_twin::FailF(call, "cube operands are in the memory the instruction reads or writes",
                           "operand '%s' (TPosition::%s) is not in %s", t.name, PositionName(t.position),
                           kMemoryName[want]);
    }
    const uint32_t a = align != 0 ? align : kMemoryAlign[want];
    if (offset % a != 0) {
        ascend_twin::FailF(call, "cube operands are aligned as their memory requires",
                           "operand '%s' at %s offset %llu, not a multiple of %u bytes", t.name, kMemoryName[want],
                           static_cast<unsigned long long>(offset), a);
    }
}

void CheckInside(const char* call, const CubeOperand& t, uint64_t end)
{
    if (end > t.bytes) {
        ascend_twin::FailF(call, "cube accesses stay inside the LocalTensor",
                           "operand '%s' holds %llu bytes, the access reaches byte %llu", t.name,
                           static_cast<unsigned long long>(t.bytes), static_cast<unsigned long long>(end));
    }
}

void CheckRange(const char* call, const char* what, uint64_t v, uint64_t lo, uint64_t hi)
{
    if (v < lo || v > hi) {
        ascend_twin::FailF(call, "cube parameters are in their documented ranges", "%s %llu is outside [%llu, %llu]",
                           what, static_cast<unsigned long long>(v), static_cast<unsigned long long>(lo),
                           static_cast<unsigned long long>(hi));
    }
}

float Load(const uint8_t* p, CubeElem e)
{
    switch (e) {
        case CubeElem::kHalf: {
            half h;
            std::memcpy(&h, p, 2);
            return static_cast<float>(h);
        }
        case CubeElem::kBf16: {
            uint16_t b;
            std::memcpy(&b, p, 2);
            return ascend_twin::Bf16BitsToFloat(b);
        }
        case CubeElem::kFloat: {
            float f;
            std::memcpy(&f, p, 4);
            return f;
        }
        case CubeElem::kInt8: return static_cast<float>(static_cast<int8_t>(*p));
        case CubeElem::kInt32: {
            int32_t i;
            std::memcpy(&i, p, 4);
            return static_cast<float>(i);
        }
        default: return 0.0f;
    }
}

int32_t LoadInt(const uint8_t* p, CubeElem e)
{
    if (e == CubeElem::kInt8) return static_cast<int8_t>(*p);
    int32_t i;
    std::memcpy(&i, p, 4);
    return i;
}

// Element `index` of an integer operand: int4b_t sits in nibble index % 2 of byte index / 2 (low nibble first).
int32_t LoadIntAt(const uint8_t* base, uint64_t index, CubeElem e, uint32_t es)
{
    if (e == CubeElem::kInt4) {
        const int32_t v = (base[index / 2] >> (4 * (index % 2))) & 0xf;
        return v >= 8 ? v - 16 : v;
    }
    return LoadInt(base + index * es, e);
}

// Copies one element between nibble addresses: int4b_t (1 nibble) or a whole-byte type (2 * es nibbles).
void CopyElem(uint8_t* dst, uint64_t dstNibble, const uint8_t* src, uint64_t srcNibble, bool s4, uint32_t es)
{
    if (!s4) {
        std::memcpy(dst + dstNibble / 2, src + srcNibble / 2, es);
        return;
    }
    const uint8_t v = (src[srcNibble / 2] >> (4 * (srcNibble % 2))) & 0xf;
    const uint32_t shift = 4 * (dstNibble % 2);
    dst[dstNibble / 2] = static_cast<uint8_t>((dst[dstNibble / 2] & ~(0xfu << shift)) | (v << shift));
}

}  // namespace

// unitFlag (Mmad and Fixpipe docs): 0 off, 2 on keeping L0C's unit flags, 3 on resetting them; 1 is no value.
void CheckUnitFlag(const char* call, uint8_t unitFlag)
{
    if (unitFlag == 1 || unitFlag > 3) {
        ascend_twin::FailF(call, "unitFlag is 0 (off), 2 (on, flags kept) or 3 (on, flags reset)", "unitFlag %u",
                           static_cast<unsigned>(unitFlag));
    }
}

uint8_t* CubeBase(TPosition pos) { return Cube() + MemoryOffset(CubeMemoryOf(pos)); }

uint8_t* StaticCubeTensor(const char* call, TPosition pos, uint32_t addr, uint64_t bytes)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    const int32_t m = CubeMemoryOf(pos);
    if (core.kernelType == KERNEL_TYPE_AIV_ONLY) {
        ascend_twin::FailF(call, "an AI Vector core has no L1 or L0 buffers",
                           "a KERNEL_TYPE_AIV_ONLY kernel placed a static tensor in %s (TPosition::%s)",
                           kMemoryName[m], PositionName(pos));
    }
    if (addr + bytes > MemoryBytes(m)) {
        ascend_twin::FailF(call, "a static tensor lies inside its memory",
                           "%llu bytes at %s address %u; %s has %llu bytes of %s",
                           static_cast<unsigned long long>(bytes), kMemoryName[m], addr, core.platform->name,
                           static_cast<unsigned long long>(MemoryBytes(m)), kMemoryName[m]);
    }
    return CubeBase(pos) + addr;
}

uint32_t CubeBufferBytes(TPosition pos, uint32_t len)
{
    const uint32_t a = kMemoryAlign[CubeMemoryOf(pos)];
    return (len + a - 1) / a * a;
}

uint32_t CubeAllocate(const char* call, PipeResources& res, TPosition pos, uint32_t num, uint32_t len)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    const int32_t m = CubeMemoryOf(pos);
    if (core.kernelType == KERNEL_TYPE_AIV_ONLY) {
        ascend_twin::FailF(call, "an AI Vector core has no L1 or L0 buffers",
                           "a KERNEL_TYPE_AIV_ONLY kernel asked for %s (TPosition::%s)", kMemoryName[m],
                           PositionName(pos));
    }
    if (len == 0) ascend_twin::Fail(call, "InitBuffer gives each buffer more than 0 bytes", "len is 0");
    const uint64_t bytes = static_cast<uint64_t>(num) * CubeBufferBytes(pos, len);
    const uint64_t capacity = MemoryBytes(m);
    if (m == 0 && res.tscmUsed != 0 && res.cubeNext[m] + bytes > ascend_twin::L1Usable(*core.platform) - res.tscmUsed) {
        ascend_twin::FailF(call, "L1 buffers and the TSCM buffers (from the top of L1 down) do not overlap",
                           "asking for %llu bytes of L1 (TPosition::%s) with %llu already allocated; TSCM queues "
                           "took the top %llu of the %llu bytes below the KFC messages (TOTAL_L1_SIZE)",
                           static_cast<unsigned long long>(bytes), PositionName(pos),
                           static_cast<unsigned long long>(res.cubeNext[m]),
                           static_cast<unsigned long long>(res.tscmUsed),
                           static_cast<unsigned long long>(ascend_twin::L1Usable(*core.platform)));
    }
    if (res.cubeNext[m] + bytes > capacity) {
        ascend_twin::FailF(call, "cube buffers fit in their memory",
                           "asking for %llu bytes of %s (TPosition::%s) with %llu already allocated; %s has %llu bytes",
                           static_cast<unsigned long long>(bytes), kMemoryName[m], PositionName(pos),
                           static_cast<unsigned long long>(res.cubeNext[m]), core.platform->name,
                           static_cast<unsigned long long>(capacity));
    }
    const uint32_t offset = static_cast<uint32_t>(res.cubeNext[m]);
    res.cubeNext[m] += bytes;
    std::memset(CubeBase(pos) + offset, 0xff, bytes);  // poisoned, as UB buffers are
    return offset;
}

void CopyGmToL1(const char* call, const CubeOperand& dst, const uint8_t* src, uint32_t elemSize, uint16_t blockCount,
                uint64_t blockBytes, uint64_t srcStrideBytes, uint64_t dstStrideBytes)
{
    CheckOperand(call, dst, 0);
    if (blockCount == 0 || blockBytes == 0) return;
    const uint64_t end = (blockCount - 1) * dstStrideBytes + blockBytes;
    CheckInside(call, dst, end);
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    for (uint16_t b = 0; b < blockCount; ++b) {
        const uint8_t* s = src + b * srcStrideBytes;
        const uint64_t inside = ascend_twin::CheckGmDmaRead(call, s, blockBytes);  // the rest: padding, undefined
        std::memcpy(dst.data + b * dstStrideBytes, s, inside);
        std::memset(dst.data + b * dstStrideBytes + inside, 0xff, blockBytes - inside);
    }
    core.counters.cube.l1BytesLoaded += blockCount * blockBytes;
    core.counters.dataCopyCalls += 1;
    (void)elemSize;
}

void CopyGmToL1Raw(const char* call, TPosition pos, uint8_t* dst, uint64_t dstBytes, uint32_t elemSize,
                   const uint8_t* src, uint16_t blockCount, uint64_t blockBytes, uint64_t srcStep, uint64_t dstStep)
{
    const CubeOperand d{"dst", pos, dst, dstBytes, elemSize, CubeElem::kUint8};
    CopyGmToL1(call, d, src, elemSize, blockCount, blockBytes, srcStep, dstStep);
}

void CopyL1ToGmRaw(const char* call, TPosition pos, const uint8_t* src, uint64_t srcBytes, uint8_t* dst,
                   uint16_t blockCount, uint64_t blockBytes, uint64_t srcStep, uint64_t dstStep)
{
    const CubeOperand s{"src", pos, const_cast<uint8_t*>(src), srcBytes, 1, CubeElem::kUint8};
    CheckOperand(call, s, 0);  // L1, 32-byte aligned
    if (blockCount == 0 || blockBytes == 0) return;
    CheckInside(call, s, (blockCount - 1) * srcStep + blockBytes);
    const bool atomic = ascend_twin::CurrentCore().atomicOp != ascend_twin::AtomicOp::kNone;
    for (uint16_t b = 0; b < blockCount; ++b) {
        uint8_t* d = dst + b * dstStep;
        if (atomic) {  // SetAtomicAdd/Max/Min: L1 -> GM is one of A2's atomic paths (SetAtomicAdd docs)
            ascend_twin::AtomicCopyToGm(call, d, src + b * srcStep, blockBytes);
            continue;
        }
        ascend_twin::CopyToGm(call, d, src + b * srcStep, blockBytes);  // padding: not written
    }
    ascend_twin::CurrentCore().counters.dataCopyCalls += 1;
}

void CopyNd2Nz(const CubeOperand& dst, const uint8_t* src, const Nd2NzParams& p)
{
    const char* call = "DataCopy(GM->L1, Nd2NzParams)";
    CheckOperand(call, dst, 0);
    CheckRange(call, "ndNum", p.ndNum, 0, 4095);
    CheckRange(call, "nValue", p.nValue, 0, 16384);
    CheckRange(call, "srcDValue", p.srcDValue, 1, 65535);
    CheckRange(call, "dstNzC0Stride", p.dstNzC0Stride, 1, 16384);
    CheckRange(call, "dstNzNStride", p.dstNzNStride, 1, 16384);
    CheckRange(call, "dstNzMatrixStride", p.dstNzMatrixStride, 0, 16384);
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;  // a NOP, as documented
    const uint32_t es = dst.elemSize;
    const uint32_t c0 = 32 / es;
    const uint32_t cols = (p.dValue + c0 - 1) / c0 * c0;  // padded with zeros to whole 32-byte columns
    uint64_t end = 0;
    for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
        for (uint32_t r = 0; r < p.nValue; ++r) {
            for (uint32_t c = 0; c < cols; c += c0) {
                const uint64_t e = static_cast<uint64_t>(nd) * p.dstNzMatrixStride + (c / c0) * p.dstNzC0Stride * c0 +
                                   static_cast<uint64_t>(r) * p.dstNzNStride * c0;
                end = std::max(end, (e + c0) * es);
            }
        }
    }
    CheckInside(call, dst, end);
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
        const uint8_t* matrix = src + static_cast<uint64_t>(nd) * p.srcNdMatrixStride * es;
        for (uint32_t r = 0; r < p.nValue; ++r) {
            const uint8_t* row = matrix + static_cast<uint64_t>(r) * p.srcDValue * es;
            // Elements past `inside` lie in the allocation's padding: undefined bytes.
            const uint64_t inside = ascend_twin::CheckGmDmaRead(call, row, static_cast<uint64_t>(p.dValue) * es);
            for (uint32_t c = 0; c < cols; ++c) {
                const uint64_t e = static_cast<uint64_t>(nd) * p.dstNzMatrixStride + (c / c0) * p.dstNzC0Stride * c0 +
                                   static_cast<uint64_t>(r) * p.dstNzNStride * c0 + c % c0;
                uint8_t* d = dst.data + e * es;
                if (c >= p.dValue) std::memset(d, 0, es);
                else if ((static_cast<uint64_t>(c) + 1) * es <= inside) std::memcpy(d, row + static_cast<uint64_t>(c) * es, es);
                else std::memset(d, 0xff, es);
            }
        }
    }
    core.counters.cube.l1BytesLoaded += static_cast<uint64_t>(p.ndNum) * p.nValue * cols * es;
    core.counters.dataCopyCalls += 1;
}

void CopyL1ToBt(const CubeOperand& dst, const CubeOperand& src, const DataCopyParams& p)
{
    const char* call = "DataCopy(L1->BT)";
    CheckOperand(call, dst, 4);
    CheckOperand(call, src, 0);
    CheckRange(call, "blockCount", p.blockCount, 0, 4095);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    // blockLen counts 64-byte units of the source (A2); srcStride 32-byte blocks, dstStride 64-byte units.
    const uint64_t srcBytes = p.blockLen * 64ULL;
    const uint64_t elems = srcBytes / src.elemSize;
    const uint64_t dstBytes = elems * dst.elemSize;
    const uint64_t srcStep = srcBytes + p.srcStride * 32ULL;
    const uint64_t dstStep = dstBytes + p.dstStride * 64ULL;
    CheckInside(call, src, (p.blockCount - 1) * srcStep + srcBytes);
    CheckInside(call, dst, (p.blockCount - 1) * dstStep + dstBytes);
    for (uint16_t b = 0; b < p.blockCount; ++b) {
        for (uint64_t i = 0; i < elems; ++i) {
            const uint8_t* s = src.data + b * srcStep + i * src.elemSize;
            uint8_t* d = dst.data + b * dstStep + i * dst.elemSize;
            if (dst.elem == CubeElem::kInt32) {
                const int32_t v = LoadInt(s, src.elem);
                std::memcpy(d, &v, 4);
            } else {
                const float v = Load(s, src.elem);
                std::memcpy(d, &v, 4);
            }
        }
    }
}

void LoadData2D(const CubeOperand& dst, const CubeOperand& src, const LoadData2DParams& p)
{
    const char* call = "LoadData(L1->L0A/L0B)";
    uint64_t offset = 0;
    const int32_t dm = MemoryOfPointer(dst.data, &offset);
    if (dm != 1 && dm != 2) {
        ascend_twin::FailF(call, "cube operands are in the memory the instruction reads or writes",
                           "operand 'dst' (TPosition::%s) is in neither L0A nor L0B", PositionName(dst.position));
    }
    CheckOperand(call, dst, dm);
    CheckOperand(call, src, 0);
    if (p.addrMode != 0) {
        ascend_twin::Fail(call, "LoadData's addrMode is 0 from L1 (only GM -> L1 may decrement)", "addrMode 1");
    }
    if (p.ifTranspose && src.elem == CubeElem::kInt4) {
        ascend_twin::Fail(call, "LoadData transposes only 16-bit fractals (A2's int4b_t load ignores ifTranspose: the "
                          "twin refuses it rather than load untransposed)", "ifTranspose with int4b_t");
    }
    if (p.ifTranspose && dst.elemSize != 2) {
        ascend_twin::FailF(call, "LoadData transposes only 16-bit fractals",
                           "ifTranspose with %u-byte elements", dst.elemSize);
    }
    if (p.repeatTimes == 0) return;
    constexpr uint64_t kFractal = 512;
    const uint64_t lastSrc = (p.startIndex + static_cast<uint64_t>(p.repeatTimes - 1) * p.srcStride + 1) * kFractal;
    const uint64_t lastDst = static_cast<uint64_t>(p.repeatTimes - 1) * (1 + p.dstGap) * kFractal + kFractal;
    CheckInside(call, src, lastSrc);
    CheckInside(call, dst, lastDst);
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint8_t* s = src.data + (p.startIndex + static_cast<uint64_t>(r) * p.srcStride) * kFractal;
        uint8_t* d = dst.data + static_cast<uint64_t>(r) * (1 + p.dstGap) * kFractal;
        if (!p.ifTranspose) {
            std::memmove(d, s, kFractal);
        } else {  // a 16 x 16 fractal of 16-bit elements, transposed
            uint16_t tmp[256];
            std::memcpy(tmp, s, kFractal);
            auto* out = reinterpret_cast<uint16_t*>(d);
            for (int i = 0; i < 16; ++i) {
                for (int j = 0; j < 16; ++j) out[j * 16 + i] = tmp[i * 16 + j];
            }
        }
    }
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    (dm == 1 ? core.counters.cube.l0aBytesLoaded : core.counters.cube.l0bBytesLoaded) += p.repeatTimes * kFractal;
}

void LoadDataTranspose(const CubeOperand& dst, const CubeOperand& src, const LoadData2dTransposeParams& p)
{
    const char* call = "LoadDataWithTranspose";
    uint64_t offset = 0;
    const int32_t dm = MemoryOfPointer(dst.data, &offset);
    if (dm != 1 && dm != 2) {
        ascend_twin::FailF(call, "cube operands are in the memory the instruction reads or writes",
                           "operand 'dst' (TPosition::%s) is in neither L0A nor L0B", PositionName(dst.position));
    }
    CheckOperand(call, dst, dm);  // 512-byte aligned
    CheckOperand(call, src, 0);   // L1, 32-byte aligned
    const bool s4 = dst.elem == CubeElem::kInt4;
    if (s4 && dm != 2) {
        ascend_twin::Fail(call, "LoadDataWithTranspose of int4b_t writes L0B only (docs: b4数据类型仅在目的操作数为L0B "
                          "Buffer的时候支持; A2's L0A form does nothing for it)", "int4b_t into L0A");
    }
    if (p.repeatTimes == 0) return;
    // Square matrices of the source, transposed into 512-byte fractals of 16 rows x C0 (the docs' pseudocode,
    // load_data_with_transpose.py): b8/b16 squares are S x S (S = C0: 32, 16) made of S / 16 fractals stacked;
    // destination fractal j holds rows j * 16 .. j * 16 + 15 of the transposed square. A float square is 16 x 16
    // made of two 16 x 8 fractals side by side; destination fractal j holds columns j * 8 .. j * 8 + 7 of the
    // transposed square. int4b_t: 64 x 64 squares of four 16 x 64 fractals, addressed in nibbles.
    const uint32_t es = dst.elemSize;
    const uint32_t c0 = s4 ? 64 : 32 / es;
    const uint32_t nib = s4 ? 1 : 2 * es;  // nibbles an element
    const uint32_t fractals = es == 4 ? 2 : c0 / 16;
    const uint64_t fractal = 512;                 // bytes
    const uint64_t square = fractal * fractals;   // bytes
    std::vector<uint64_t> written;
    const int64_t step = p.addrMode ? -static_cast<int64_t>(p.srcStride) : static_cast<int64_t>(p.srcStride);
    const int64_t lastSquare = static_cast<int64_t>(p.startIndex) + step * (p.repeatTimes - 1);
    if (lastSquare < 0) {
        ascend_twin::FailF(call, "LoadDataWithTranspose's decrementing source stays at or after the tensor's start",
                           "startIndex %u, srcStride %u, repeatTimes %u with addrMode 1", p.startIndex, p.srcStride,
                           static_cast<unsigned>(p.repeatTimes));
    }
    const uint64_t srcEnd = (static_cast<uint64_t>(std::max<int64_t>(p.startIndex, lastSquare)) + 1) * square;
    const uint64_t dstEnd = static_cast<uint64_t>(p.repeatTimes - 1) * (p.dstGap + 1) * fractal +
                            static_cast<uint64_t>(fractals - 1) * (p.dstFracGap + 1) * fractal + fractal;
    CheckInside(call, src, srcEnd);
    CheckInside(call, dst, dstEnd);
    std::vector<uint8_t> tmp(square);
    for (uint32_t i = 0; i < p.repeatTimes; ++i) {
        const uint8_t* sq = src.data + static_cast<uint64_t>(p.startIndex + step * static_cast<int64_t>(i)) * square;
        std::memcpy(tmp.data(), sq, square);
        for (uint32_t j = 0; j < fractals; ++j) {
            const uint64_t at = static_cast<uint64_t>(i) * (p.dstGap + 1) * fractal +
                                static_cast<uint64_t>(j) * (p.dstFracGap + 1) * fractal;
            if (std::find(written.begin(), written.end(), at) != written.end()) {
                ascend_twin::FailF(call, "LoadDataWithTranspose's destination fractals do not overlap (docs: 开发者需要"
                                   "保证目的操作数转置后的分形没有重叠)",
                                   "iteration %u writes fractal %u at dst byte %llu, which an earlier one wrote (dstGap "
                                   "%u, dstFracGap %u)", i, j, static_cast<unsigned long long>(at), p.dstGap,
                                   p.dstFracGap);
            }
            written.push_back(at);
            uint8_t* d = dst.data + at;
            for (uint32_t k = 0; k < 16; ++k) {
                for (uint32_t c = 0; c < c0; ++c) {
                    uint64_t e;  // the source element, in elements from the square's start
                    if (es == 4) {  // square (R, C): fractal C / 8, row R, column C % 8; here R = j * 8 + c, C = k
                        e = (k / 8) * 128ULL + (j * 8 + c) * 8ULL + k % 8;
                    } else {  // square row-major S x S, S = c0: element (c, j * 16 + k)
                        e = static_cast<uint64_t>(c) * c0 + j * 16 + k;
                    }
                    CopyElem(d, (k * c0 + c) * nib, tmp.data(), e * nib, s4, es);
                }
            }
        }
    }
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    (dm == 1 ? core.counters.cube.l0aBytesLoaded : core.counters.cube.l0bBytesLoaded) +=
        static_cast<uint64_t>(p.repeatTimes) * fractals * fractal;
}


void LoadDataSparse(const CubeOperand& dst, const CubeOperand& src, const CubeOperand& idx, const LoadData2DParams& p)
{
    const char* call = "LoadDataWithSparse";
    CheckOperand(call, dst, 2);  // L0B, 512-byte aligned
    CheckOperand(call, src, 0);  // L1
    CheckOperand(call, idx, 0);  // L1
    if (p.ifTranspose) {
        ascend_twin::Fail(call, "LoadDataWithSparse does not transpose (docs: 不支持转置功能)", "ifTranspose true");
    }
    if (p.repeatTimes == 0) return;
    constexpr uint64_t kFractal = 512, kIdxFractal = 128;
    CheckInside(call, src, (p.startIndex + static_cast<uint64_t>(p.repeatTimes)) * kFractal);
    CheckInside(call, idx, (p.startIndex + static_cast<uint64_t>(p.repeatTimes)) * kIdxFractal);
    CheckInside(call, dst, p.repeatTimes * kFractal);
    uint64_t dstOffset = 0;
    MemoryOfPointer(dst.data, &dstOffset);
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    SparseIndex& sp = SparseOf(core);
    // contiguous fractals only: srcStride, dstGap and the rest are not used (docs)
    std::memmove(dst.data, src.data + p.startIndex * kFractal, p.repeatTimes * kFractal);
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint64_t f = dstOffset / kFractal + r;
        std::memcpy(sp.bytes.data() + f * kIdxFractal, idx.data + (p.startIndex + r) * kIdxFractal, kIdxFractal);
        sp.loaded[f] = 1;
    }
    core.counters.cube.l0bBytesLoaded += p.repeatTimes * kFractal;
}

// C[m, n] = sum over the dense K / 2 of A[m, picked(n, d)] * B[d, n]: B in L0B holds the dense (4:2 filtered)
// matrix as Zn int8_t fractals; the index fractal of each B fractal holds, per n and per pair (d, d + 1) of dense
// entries, two 2-bit indices of the group of 4 original K: the first picks element idx0 of the group, the second
// element 1 + idx1 (MmadWithSparse docs, 矩阵A稀疏选择算法; 4 indices a byte, the first in the low bits).
void MmadSparseRun(const CubeOperand& dst, const CubeOperand& fm, const CubeOperand& filter, const MmadParams& p)
{
    const char* call = "MmadWithSparse";
    CheckOperand(call, dst, 3, 1024);  // L0C, 256 elements aligned (docs)
    CheckOperand(call, fm, 1);
    CheckOperand(call, filter, 2);
    CheckRange(call, "m", p.m, 0, 4095);
    CheckRange(call, "n", p.n, 0, 4095);
    CheckRange(call, "k", p.k, 0, 4095);
    CheckUnitFlag(call, p.unitFlag);
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    if (p.k % 64 != 0) {
        ascend_twin::FailF(call, "MmadWithSparse's k (of the full A) is a multiple of 64: whole groups of 4 for "
                           "each 32-entry dense int8_t block", "k %u", p.k);
    }
    const uint32_t mBlocks = (p.m + 15) / 16, nBlocks = (p.n + 15) / 16;
    const uint32_t kBlocks = p.k / 32, dBlocks = p.k / 64;  // A's 32-wide K blocks, B's dense 32-wide blocks
    CheckInside(call, fm, static_cast<uint64_t>(mBlocks) * kBlocks * 512);
    CheckInside(call, filter, static_cast<uint64_t>(dBlocks) * nBlocks * 512);
    CheckInside(call, dst, static_cast<uint64_t>(nBlocks) * mBlocks * 256 * 4);
    uint64_t bOffset = 0;
    MemoryOfPointer(filter.data, &bOffset);
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    SparseIndex& sp = SparseOf(core);
    for (uint32_t f = 0; f < dBlocks * nBlocks; ++f) {
        if (!sp.loaded[bOffset / 512 + f]) {
            ascend_twin::FailF(call, "MmadWithSparse reads the index fractals LoadDataWithSparse loaded with B",
                               "the L0B fractal at byte %llu has no index fractal in this launch",
                               static_cast<unsigned long long>(bOffset + f * 512ULL));
        }
    }
    for (uint32_t mm = 0; mm < p.m; ++mm) {
        for (uint32_t nn = 0; nn < p.n; ++nn) {
            int64_t acc = 0;
            uint8_t* c = dst.data + ((nn / 16) * mBlocks * 256ULL + mm * 16ULL + nn % 16) * 4;
            if (!p.cmatrixInitVal && !p.cmatrixSource) acc = LoadInt(c, CubeElem::kInt32);
            for (uint32_t d = 0; d < p.k / 2; ++d) {
                const uint64_t frac = (d / 32) * static_cast<uint64_t>(nBlocks) + nn / 16;
                const int8_t b = static_cast<int8_t>(filter.data[frac * 512 + (nn % 16) * 32 + d % 32]);
                const uint8_t byte = sp.bytes[(bOffset / 512 + frac) * 128 + (nn % 16) * 8 + (d % 32) / 4];
                const uint32_t index = (byte >> (2 * (d % 4))) & 3;
                const uint32_t kk = (d / 2) * 4 + (d % 2 == 0 ? index : 1 + index);
                if (kk >= p.k) continue;
                const int8_t a = static_cast<int8_t>(
                    fm.data[((mm / 16) * kBlocks + kk / 32) * 512ULL + (mm % 16) * 32 + kk % 32]);
                acc += static_cast<int64_t>(a) * b;
            }
            const int32_t out = static_cast<int32_t>(acc);
            std::memcpy(c, &out, 4);
        }
    }
    core.counters.cubeMacs += static_cast<uint64_t>(p.m) * p.n * (p.k / 2);
}

void MmadRun(const CubeOperand& dst, const CubeOperand& fm, const CubeOperand& filter, const CubeOperand* bias,
             const MmadParams& p)
{
    const char* call = "Mmad";
    CheckOperand(call, dst, 3);
    CheckOperand(call, fm, 1);
    CheckOperand(call, filter, 2);
    if (bias != nullptr) CheckOperand(call, *bias, 4);
    CheckRange(call, "m", p.m, 0, 4095);
    CheckRange(call, "n", p.n, 0, 4095);
    CheckRange(call, "k", p.k, 0, 4095);
    CheckUnitFlag(call, p.unitFlag);
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    // The form without a bias tensor and cmatrixSource true
    // (cmatrixInitVal false) starts C from the BiasTable at its address 0 (Mmad docs: cmatrixSource true
    // initialises L0C from BT (C2); A2's mad of that form carries no BT address).
    CubeOperand btRow{"BiasTable", TPosition::C2, CubeBase(TPosition::C2), kBtBytes, dst.elemSize, dst.elem};
    if (bias == nullptr && !p.cmatrixInitVal && p.cmatrixSource) {
        CheckInside(call, btRow, static_cast<uint64_t>(p.n) * btRow.elemSize);
        bias = &btRow;
    }

    // int4b_t (A2: mad_s4): k is even (kernel_operator_mm_impl.h asserts it), C0 = 64 elements of half a byte.
    const bool s4 = fm.elem == CubeElem::kInt4;
    if (s4 && p.k % 2 != 0) {
        ascend_twin::FailF(call, "MmadParams.k is even when A and B are int4b_t (kernel_operator_mm_impl.h)",
                           "k %u", p.k);
    }
    const uint32_t es = fm.elemSize;
    const uint32_t c0 = s4 ? 64 : 32 / es;
    const uint32_t kAlign = (es == 4 && p.kDirectionAlign) ? 16 : c0;
    const uint32_t kPadded = (p.k + kAlign - 1) / kAlign * kAlign;
    const uint32_t kBlocks = kPadded / c0;
    const uint32_t mBlocks = (p.m + 15) / 16;
    const uint32_t nBlocks = (p.n + 15) / 16;
    const uint64_t fractal = 512;  // 16 x C0 elements
    // M = 1 runs as GEMV on A2: L0A holds A as one ND row of K elements, not in 16-row fractals (Mmad docs,
    // GEMV; switching it off with disableGemv exists on Ascend 950 only).
    const bool gemv = p.m == 1;
    const uint64_t gemvBytes = s4 ? kPadded / 2ULL : static_cast<uint64_t>(kPadded) * es;
    CheckInside(call, fm, gemv ? gemvBytes : mBlocks * kBlocks * fractal);
    // kDirectionAlign pads K of A (L0A) only; B in L0B keeps K in blocks of C0 (the B addresses below).
    CheckInside(call, filter, static_cast<uint64_t>((p.k + c0 - 1) / c0) * nBlocks * fractal);
    CheckInside(call, dst, static_cast<uint64_t>(nBlocks) * mBlocks * 256 * dst.elemSize);
    if (bias != nullptr) CheckInside(call, *bias, static_cast<uint64_t>(p.n) * bias->elemSize);
    const uint64_t fractalElems = 16ULL * c0;
    auto AIndex = [&](uint32_t mm, uint32_t kk) -> uint64_t {  // in elements
        if (gemv) return kk;
        return ((mm / 16) * kBlocks + kk / c0) * fractalElems + (mm % 16) * c0 + kk % c0;
    };
    auto BIndex = [&](uint32_t kk, uint32_t nn) -> uint64_t {
        return ((kk / c0) * nBlocks + nn / 16) * fractalElems + (nn % 16) * c0 + kk % c0;
    };
    const bool integer = dst.elem == CubeElem::kInt32;
    // C's starting value: 0, what L0C holds, or the BT row.
    const bool fromBias = bias != nullptr;
    const bool accumulate = !fromBias && (p.isBias || (!p.cmatrixInitVal && !p.cmatrixSource));
    for (uint32_t mm = 0; mm < p.m; ++mm) {
        for (uint32_t nn = 0; nn < p.n; ++nn) {
            uint8_t* c = dst.data + ((nn / 16) * mBlocks * 256ULL + mm * 16ULL + nn % 16) * dst.elemSize;
            if (integer) {
                int32_t acc = 0;
                if (fromBias) acc = LoadInt(bias->data + nn * 4ULL, CubeElem::kInt32);
                else if (accumulate) acc = LoadInt(c, CubeElem::kInt32);
                for (uint32_t kk = 0; kk < p.k; ++kk) {
                    acc += LoadIntAt(fm.data, AIndex(mm, kk), fm.elem, es) *
                           LoadIntAt(filter.data, BIndex(kk, nn), filter.elem, es);
                }
                std::memcpy(c, &acc, 4);
            } else {
                float acc = 0.0f;
                if (fromBias) acc = Load(bias->data + nn * 4ULL, CubeElem::kFloat);
                else if (accumulate) acc = Load(c, CubeElem::kFloat);
                for (uint32_t kk = 0; kk < p.k; ++kk) {
                    acc += Load(fm.data + AIndex(mm, kk) * es, fm.elem) *
                           Load(filter.data + BIndex(kk, nn) * es, filter.elem);
                }
                std::memcpy(c, &acc, 4);
            }
        }
    }
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    core.counters.cubeMacs += static_cast<uint64_t>(p.m) * p.n * p.k;
    core.counters.cube.mmadCalls += 1;
}

namespace {

bool IsVectorQuant(QuantMode_t q) { return q == VDEQF16 || q == VQF322B8_PRE || q == VREQ8; }

const char* QuantName(QuantMode_t q)
{
    static const char* const kNames[] = {"NoQuant", "F322F16", "F322BF16", "DEQF16", "VDEQF16",
                                         "QF322B8_PRE", "VQF322B8_PRE", "REQ8", "VREQ8"};
    const int i = static_cast<int>(q);
    return i >= 0 && i < 9 ? kNames[i] : "an unknown mode";
}

// One QUANT_PRE word of (V)QF322B8_PRE (the quantisation docs' table for NPU architecture 2201): M1 in bits
// 0-31, a float the hardware reads as (1, 8, 10), so bits 0-12 do not count; Offset in bits 37-45; the Sign
// flag in bit 46 (1: int8_t, 0: uint8_t). N and the MCB bit (32-36) are not used by this mode.
struct B8Quant {
    double m1;
    int32_t offset;
};

// M1 of a quantisation word: bits 0-31 read as (1, 8, 10); inf, nan and denormals refused (the docs' constraint).
double DecodeM1(const char* call, uint64_t word, const char* where)
{
    const uint32_t bits = static_cast<uint32_t>(word) & ~0x1FFFu;
    const uint32_t exponent = (bits >> 23) & 0xFF;
    if (exponent == 0xFF || (exponent == 0 && (bits & 0x7FFFFFu) != 0)) {
        ascend_twin::FailF(call, "Fixpipe's quantisation parameter is not inf, nan or a denormal",
                           "%s M1 bits 0x%08x", where, bits);
    }
    float m1;
    std::memcpy(&m1, &bits, 4);
    return static_cast<double>(m1);
}

B8Quant DecodeB8Quant(const char* call, uint64_t word, bool signedOut, const char* where)
{
    const double m1 = DecodeM1(call, word, where);
    if (((word >> 46) & 1) != (signedOut ? 1u : 0u)) {
        // deliberately stricter than A2 (docs/twin.md): the hardware would write the other type's saturation
        ascend_twin::FailF(call, "the Sign bit (46) of Fixpipe's quantisation parameter matches the output type",
                           "%s bit 46 is %u for %s output", where, static_cast<unsigned>((word >> 46) & 1),
                           signedOut ? "int8_t" : "uint8_t");
    }
    const uint32_t offset = static_cast<uint32_t>(word >> 37) & 0x1FF;
    if (offset & 0x100) {
        // deliberately stricter (docs/twin.md): A2's docs call Offset a 9-bit integer without saying whether
        // it is signed; values 0-255 read the same either way
        ascend_twin::FailF(call, "the twin models Fixpipe's quantisation Offset in [0, 255] (bit 45 clear)",
                           "%s Offset field 0x%03x", where, offset);
    }
    return {m1, static_cast<int32_t>(offset)};
}

// The int32_t quantisations (DEQF16, REQ8 and their vector forms) with the MCB bit (36) set first shift the int32_t
// right by N (bits 32-35) into an int16_t; the docs read N = 0 as a shift of 1 and the sample algorithm as 0, so
// the twin models MCB clear only (the int32_t converted to float directly) and refuses a set bit (docs/twin.md).
void CheckNoMcb(const char* call, uint64_t word, const char* where)
{
    if ((word >> 36) & 1) {
        ascend_twin::FailF(call, "the twin models the int32_t quantisations (DEQF16, REQ8) with the MCB bit (36) "
                           "clear", "%s has MCB set (the shift by N into int16_t is not modelled)", where);
    }
}

// float -> int8_t/uint8_t (QF322B8_PRE, VQF322B8_PRE): x times M1 (x >= 0) or M2 (x < 0; M2 is M1, or 0 with
// ReLU), saturated to [-256, 255], rounded to nearest even, plus Offset, saturated to the output type.
int32_t QuantB8(float x, const B8Quant& q, bool relu, bool signedOut)
{
    if (std::isnan(x)) return 0;  // not documented for integer outputs; the twin writes 0 (docs/twin.md)
    const double scaled = static_cast<double>(x) * (x >= 0 || !relu ? q.m1 : 0.0);
    const double clamped = std::min(std::max(scaled, -256.0), 255.0);
    const int32_t v = static_cast<int32_t>(std::nearbyint(clamped)) + q.offset;
    return signedOut ? std::min(std::max(v, -128), 127) : std::min(std::max(v, 0), 255);
}

}  // namespace

namespace {
void FixpipeRun(const char* call, uint8_t* dst, const CubeOperand* l1Dst, CubeElem dstElem, uint32_t dstSize,
                const CubeOperand& src, const FixpipeParamsV220& p, bool nz2nd, const CubeOperand* cbufWorkspace,
                const char* scalarName = "deqScalar");
}  // namespace

void FixpipeToGm(uint8_t* dst, CubeElem dstElem, uint32_t dstSize, const CubeOperand& src, const FixpipeParamsV220& p,
                 bool nz2nd, const CubeOperand* cbufWorkspace)
{
    FixpipeRun("Fixpipe(L0C->GM)", dst, nullptr, dstElem, dstSize, src, p, nz2nd, cbufWorkspace);
}

namespace {
void FixpipeToL1Run(const char* call, const CubeOperand& dst, const CubeOperand& src, const FixpipeParamsV220& p,
                    const CubeOperand* cbufWorkspace, const char* scalarName);
}  // namespace

void FixpipeToL1(const CubeOperand& dst, const CubeOperand& src, const FixpipeParamsV220& p, bool nz2nd,
                 const CubeOperand* cbufWorkspace)
{
    const char* call = "Fixpipe(L0C->L1)";
    // A2 (CheckFixpipeL0C2L1Param, dav_c220): NZ out only.
    if (nz2nd) {
        ascend_twin::Fail(call, "Fixpipe into L1 writes NZ (CFG_NZ)", "config CFG_ROW_MAJOR (NZ2ND) with an L1 "
                          "destination");
    }
    FixpipeToL1Run(call, dst, src, p, cbufWorkspace, "deqScalar");
}

namespace {
void FixpipeToL1Run(const char* call, const CubeOperand& dst, const CubeOperand& src, const FixpipeParamsV220& p,
                    const CubeOperand* cbufWorkspace, const char* scalarName)
{
    CheckOperand(call, dst, 0);  // L1, 32-byte aligned (the docs: 目的矩阵NZ格式地址需要满足32字节对齐)
    // A2 (CheckFixpipeL0C2L1Param, dav_c220): no channel split, and the pairs float to int8_t/uint8_t/half/
    // bfloat16_t, int32_t to int8_t/uint8_t/half (no float or int32_t into L1).
    if (p.isChannelSplit) {
        ascend_twin::Fail(call, "Fixpipe into L1 goes without channel split", "isChannelSplit true");
    }
    if (p.dstStride == 0) ascend_twin::Fail(call, "Fixpipe's dstStride is not 0", "dstStride 0");
    const bool integer = src.elem == CubeElem::kInt32;
    const bool pairOk = dst.elem == CubeElem::kInt8 || dst.elem == CubeElem::kUint8 || dst.elem == CubeElem::kHalf ||
                        (!integer && dst.elem == CubeElem::kBf16);
    if (!pairOk) {
        ascend_twin::FailF(call, "Fixpipe's L0C -> L1 types are an A2 pair (float to int8_t/uint8_t/half/bfloat16_t, "
                           "int32_t to int8_t/uint8_t/half)",
                           "%s L0C to %u-byte L1 elements", integer ? "int32_t" : "float", dst.elemSize);
    }
    FixpipeRun(call, nullptr, &dst, dst.elem, dst.elemSize, src, p, false, cbufWorkspace, scalarName);
}
}  // namespace

namespace {
void FixpipeRun(const char* call, uint8_t* dst, const CubeOperand* l1Dst, CubeElem dstElem, uint32_t dstSize,
                const CubeOperand& src, const FixpipeParamsV220& p, bool nz2nd, const CubeOperand* cbufWorkspace,
                const char* scalarName)
{
    CheckOperand(call, src, 3);
    CheckUnitFlag(call, p.unitFlag);
    CheckRange(call, "nSize", p.nSize, 0, 4095);
    CheckRange(call, "mSize", p.mSize, 0, nz2nd ? 8192 : 65535);
    const bool integer = src.elem == CubeElem::kInt32;
    const bool b8 = dstElem == CubeElem::kInt8 || dstElem == CubeElem::kUint8;
    // A2's pairs (L0C -> GM: float to int8_t/uint8_t/half/bfloat16_t/float, int32_t to int8_t/uint8_t/half/
    // int32_t) and the quantPre each one takes.
    const bool pairOk = integer ? (b8 || dstElem == CubeElem::kHalf || dstElem == CubeElem::kInt32)
                                : (b8 || dstElem == CubeElem::kHalf || dstElem == CubeElem::kBf16 ||
                                   dstElem == CubeElem::kFloat);
    if (!pairOk) {
        ascend_twin::FailF(call, "Fixpipe's L0C -> GM types are an A2 pair (float to int8_t/uint8_t/half/bfloat16_t/"
                           "float, int32_t to int8_t/uint8_t/half/int32_t)",
                           "%s L0C to %u-byte output elements", integer ? "int32_t" : "float", dstSize);
    }
    bool quantOk;
    if (integer) {
        quantOk = dstElem == CubeElem::kInt32 ? p.quantPre == NoQuant
                  : b8 ? (p.quantPre == REQ8 || p.quantPre == VREQ8) : (p.quantPre == DEQF16 || p.quantPre == VDEQF16);
    } else {
        quantOk = dstElem == CubeElem::kHalf   ? p.quantPre == F322F16
                  : dstElem == CubeElem::kBf16 ? p.quantPre == F322BF16
                  : b8 ? (p.quantPre == QF322B8_PRE || p.quantPre == VQF322B8_PRE) : p.quantPre == NoQuant;
    }
    if (!quantOk) {
        ascend_twin::FailF(call, "Fixpipe's quantPre matches the L0C and output types",
                           "quantPre %s for %s L0C and %u-byte output elements", QuantName(p.quantPre),
                           integer ? "int32_t" : "float", dstSize);
    }
    const bool vectorQuant = IsVectorQuant(p.quantPre);
    if (vectorQuant && cbufWorkspace == nullptr) {
        ascend_twin::FailF(call, "a vector quantPre comes with the Fixpipe form that takes cbufWorkspace",
                           "quantPre %s without a cbufWorkspace tensor", QuantName(p.quantPre));
    }
    if (!vectorQuant && cbufWorkspace != nullptr) {
        // A2's implementation of this form only writes for VDEQF16, VQF322B8_PRE and VREQ8
        ascend_twin::FailF(call, "the Fixpipe form with cbufWorkspace takes a vector quantPre (VDEQF16, "
                           "VQF322B8_PRE, VREQ8)", "quantPre %s with a cbufWorkspace tensor: A2 writes nothing",
                           QuantName(p.quantPre));
    }
    if (p.nSize == 0 || p.mSize == 0 || p.ndNum == 0) return;
    if (p.isChannelSplit) {
        if (integer || dstElem != CubeElem::kFloat) {
            ascend_twin::FailF(call, "Fixpipe's channel split is for float L0C written as float",
                               "isChannelSplit with %s L0C and %u-byte output elements",
                               integer ? "int32_t" : "float", dstSize);
        }
        if (nz2nd) {
            ascend_twin::Fail(call, "Fixpipe's channel split writes NZ (CFG_NZ), not with NZ2ND",
                              "isChannelSplit with CFG_ROW_MAJOR");
        }
        if (p.unitFlag != 0) {
            ascend_twin::FailF(call, "Fixpipe's channel split goes without unitFlag", "isChannelSplit with unitFlag %u",
                               static_cast<unsigned>(p.unitFlag));
        }
        if (p.nSize % 8 != 0) {
            ascend_twin::FailF(call, "Fixpipe's nSize is a multiple of 8 (with channel split)", "nSize %u", p.nSize);
        }
    } else if (!nz2nd && p.nSize % 16 != 0) {
        // NZ output writes whole 16-column fractals. NZ2ND writes nSize columns of each row, any nSize: its
        // pseudocode (NZ2ND.md) walks ceil(nSize / 16) blocks, and A2's Matmul API writes ND tails with nSize =
        // the tile's width (copy_cube_out_fixpipe.h), although the parameter table asks for multiples of 16.
        ascend_twin::FailF(call, "Fixpipe's nSize is a multiple of 16 (NZ output without channel split)", "nSize %u",
                           p.nSize);
    }
    if (nz2nd && p.dstStride == 0) ascend_twin::Fail(call, "Fixpipe's dstStride is not 0", "dstStride 0");
    const uint32_t srcBlocks = (p.nSize + 15) / 16;
    const uint64_t srcEnd = static_cast<uint64_t>(p.ndNum - 1) * p.srcNdStride * 256 * 4 +
                            ((srcBlocks - 1) * static_cast<uint64_t>(p.srcStride) * 16 + p.mSize * 16ULL) * 4;
    CheckInside(call, src, srcEnd);
    // Quantisation parameters: one for all of C (deqScalar, QUANT_PRE) or one per column (cbufWorkspace in L1, or
    // the Fixpipe Buffer words of the DataCopy form).
    const bool signedOut = dstElem == CubeElem::kInt8;
    const bool dequant = integer && dstElem == CubeElem::kHalf;  // DEQF16, VDEQF16
    std::vector<B8Quant> quant;
    std::vector<double> scale;
    if (b8 || dequant) {
        if (vectorQuant) {
            // L1 (32-byte aligned) for Fixpipe's cbufWorkspace, the Fixpipe Buffer (128-byte aligned) for DataCopy
            CheckOperand(call, *cbufWorkspace, cbufWorkspace->position == TPosition::C2PIPE2GM ? 5 : 0);
            CheckInside(call, *cbufWorkspace, static_cast<uint64_t>(p.nSize) * 8);
        }
        for (uint32_t c = 0; c < (vectorQuant ? p.nSize : 1u); ++c) {
            uint64_t word = p.deqScalar;
            std::string where = scalarName;
            if (vectorQuant) {
                std::memcpy(&word, cbufWorkspace->data + c * 8ULL, 8);
                where = std::string(cbufWorkspace->name) + "[" + std::to_string(c) + "]";
            }
            if (integer) CheckNoMcb(call, word, where.c_str());
            if (b8) quant.push_back(DecodeB8Quant(call, word, signedOut, where.c_str()));
            else scale.push_back(DecodeM1(call, word, where.c_str()));  // DEQF16: Offset and Sign not used
        }
    }
    // With channel split each 16 x 16 fractal leaves as two 16 x 8 ones: the Z columns are 8 wide.
    const uint32_t zWidth = p.isChannelSplit ? 8 : 16;
    // int8_t/uint8_t written as NZ (Int8 Channel Merge, automatic): each two adjacent 16-column fractals leave as
    // one 16 x 32 fractal (32-byte rows); with an odd number of 16-column blocks the last one stays 16 x 16.
    const uint32_t merged = p.nSize / 32 * 32;
    if (l1Dst != nullptr) {  // the extent the NZ output reaches in the L1 tensor
        const uint32_t zCols = b8 ? merged / 32 + (p.nSize - merged) / 16 : p.nSize / zWidth;
        const uint32_t lastRow = b8 ? (p.nSize == merged ? 32 : 16) : zWidth * dstSize;
        CheckInside(call, *l1Dst, (zCols - 1) * static_cast<uint64_t>(p.dstStride) * 32 + p.mSize * lastRow);
    }
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
        const uint8_t* s0 = src.data + static_cast<uint64_t>(nd) * p.srcNdStride * 256 * 4;
        for (uint32_t j = 0; j < p.mSize; ++j) {
            for (uint32_t c = 0; c < p.nSize; ++c) {
                const uint8_t* s = s0 + ((c / 16) * static_cast<uint64_t>(p.srcStride) * 16 + j * 16ULL + c % 16) * 4;
                uint64_t e;
                if (nz2nd) {
                    e = static_cast<uint64_t>(nd) * p.dstNdStride + static_cast<uint64_t>(j) * p.dstStride + c;
                } else if (b8 && c < merged) {  // Int8 Channel Merge: pairs of 16 x 16 fractals as one 16 x 32
                    e = (c / 32) * static_cast<uint64_t>(p.dstStride) * 32 + j * 32ULL + c % 32;
                } else if (b8) {  // the odd last 16 columns: a 16 x 16 fractal after the merged Z columns
                    e = (merged / 32) * static_cast<uint64_t>(p.dstStride) * 32 + j * 16ULL + c % 16;
                } else {  // NZ out: dstStride in 32-byte blocks between Z columns
                    e = (c / zWidth) * static_cast<uint64_t>(p.dstStride) * 32 / dstSize + j * zWidth + c % zWidth;
                }
                uint8_t out[4];
                float v;
                std::memcpy(&v, s, 4);
                if (integer && dstElem == CubeElem::kInt32) {
                    std::memcpy(out, s, 4);
                } else if (integer) {
                    // REQ8/DEQF16 (the quantisation docs' algorithm): the int32_t as a float, times M1 (x >= 0) or
                    // M2 (M1, or 0 with ReLU); REQ8 then as QF322B8_PRE, DEQF16 saturated to half's range
                    int32_t iv;
                    std::memcpy(&iv, s, 4);
                    const float x = static_cast<float>(iv);
                    if (b8) {
                        const int32_t q = QuantB8(x, quant[vectorQuant ? c : 0], p.reluEn, signedOut);
                        out[0] = static_cast<uint8_t>(q & 0xFF);
                    } else {
                        const double m = x >= 0 || !p.reluEn ? scale[vectorQuant ? c : 0] : 0.0;
                        const double y = std::min(std::max(static_cast<double>(x) * m, -65504.0), 65504.0);
                        const half h = static_cast<half>(static_cast<float>(y));
                        std::memcpy(out, &h, 2);
                    }
                } else if (b8) {
                    const int32_t q = QuantB8(v, quant[vectorQuant ? c : 0], p.reluEn, signedOut);
                    out[0] = static_cast<uint8_t>(q & 0xFF);  // the int8_t or uint8_t bits
                } else {
                    if (p.reluEn && v < 0) v = 0;
                    if (dstElem == CubeElem::kHalf) {
                        const half h = static_cast<half>(v);
                        std::memcpy(out, &h, 2);
                    } else if (dstElem == CubeElem::kBf16) {
                        const uint16_t b = ascend_twin::FloatToBf16Bits(v);  // F322BF16: round to nearest even
                        std::memcpy(out, &b, 2);
                    } else {
                        std::memcpy(out, &v, 4);
                    }
                }
                if (l1Dst != nullptr) {
                    std::memcpy(l1Dst->data + e * dstSize, out, dstSize);
                    continue;
                }
                uint8_t* d = dst + e * dstSize;
                if (core.atomicOp != ascend_twin::AtomicOp::kNone) {  // SetAtomicAdd/Max/Min: combined with GM
                    ascend_twin::AtomicCopyToGm(call, d, out, dstSize);
                } else {
                    ascend_twin::CopyToGm(call, d, out, dstSize);  // padding: not written
                }
            }
        }
    }
    core.counters.cube.l0cBytesOut += static_cast<uint64_t>(p.ndNum) * p.mSize * p.nSize * 4;
}
}  // namespace

void FixPipeConfig(const CubeOperand* reluPre, const CubeOperand& pre, bool isUnitFlag)
{
    const char* call = "SetFixPipeConfig";
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.kernelType == KERNEL_TYPE_AIV_ONLY) {
        ascend_twin::Fail(call, "SetFixPipeConfig configures the AI Cube core's Fixpipe", "called on an AI Vector core");
    }
    // The one-tensor form takes the quantisation tensor in the Fixpipe Buffer, or a CO1 tensor when it only clears
    // the unit flags; the two-tensor form a Fixpipe Buffer quantPre and a reluPre the docs reserve (an empty
    // LocalTensor, or one in the Fixpipe Buffer: A2's debug check).
    const bool unitFlagOnly = reluPre == nullptr && pre.position == TPosition::CO1;
    for (const CubeOperand* t : {reluPre, &pre}) {
        if (t == nullptr || t->position == TPosition::C2PIPE2GM) continue;
        if (unitFlagOnly) continue;
        // an empty LocalTensor (docs: 传入一个空LocalTensor即可)
        if (t == reluPre && t->data == nullptr) continue;
        ascend_twin::FailF(call, reluPre == nullptr
                                     ? "SetFixPipeConfig's preData is a Fixpipe Buffer tensor (TPosition::C2PIPE2GM), or "
                                       "a CO1 tensor when only isUnitFlag is set"
                                     : "SetFixPipeConfig's reluPre and quantPre are Fixpipe Buffer tensors "
                                       "(TPosition::C2PIPE2GM)",
                           "%s is at TPosition::%s", t->name, PositionName(t->position));
    }
    // The twin runs a core's Mmad and Fixpipe in program order and keeps no unit flags: clearing them
    // (isUnitFlag) changes nothing it computes.
    (void)isUnitFlag;
    if (unitFlagOnly) return;
    // FPC[15:8]: the quantisation words' address in 128-byte units
    CheckOperand(call, pre, 5);
    uint64_t offset = 0;
    MemoryOfPointer(pre.data, &offset);
    FixpipeRegisters& r = FixpipeOf(core);
    r.fpcSet = true;
    r.fpcQuantOffset = offset;
}

void CopyL1ToFb(const char* call, const CubeOperand& dst, const CubeOperand& src, uint16_t blockCount,
                uint64_t blockBytes, uint64_t srcStrideBytes, uint64_t dstStrideBytes)
{
    CheckOperand(call, dst, 5);  // Fixpipe Buffer, 128-byte aligned
    CheckOperand(call, src, 0);  // L1, 32-byte aligned
    CheckRange(call, "blockCount", blockCount, 0, 4095);
    if (blockCount == 0 || blockBytes == 0) return;  // a NOP (docs)
    if (blockCount > 1 && dstStrideBytes == 0) {
        ascend_twin::Fail(call, "dstGap is at least 1 when blockCount > 1 (docs: 0 makes every block overwrite the "
                          "first)", "dstGap 0");
    }
    const uint64_t last = blockCount - 1ULL;
    CheckInside(call, src, last * srcStrideBytes + blockBytes);
    CheckInside(call, dst, last * dstStrideBytes + blockBytes);
    for (uint64_t b = 0; b <= last; ++b) {
        std::memmove(dst.data + b * dstStrideBytes, src.data + b * srcStrideBytes, blockBytes);
    }
    ascend_twin::CurrentCore().counters.cube.l1BytesLoaded += (last + 1) * blockBytes;
}

void SetPreQuantRegister(uint64_t config)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.kernelType == KERNEL_TYPE_AIV_ONLY) return;  // A2: ASCEND_IS_AIC only
    Cube();
    FixpipeRegisters& r = FixpipeOf(core);
    r.quantSet = true;
    r.quantPre = config;
}

void SetNz2ndRegister(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride)
{
    const char* call = "SetFixpipeNz2ndFlag";
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.kernelType == KERNEL_TYPE_AIV_ONLY) return;  // A2: ASCEND_IS_AIC only
    Cube();
    CheckRange(call, "ndNum", ndNum, 1, 65535);
    CheckRange(call, "srcNdStride", srcNdStride, ndNum > 1 ? 1 : 0, 512);  // A2's check: [0, 512]; the docs: >= 1
    if (ndNum > 1) CheckRange(call, "dstNdStride", dstNdStride, 1, 65535);
    FixpipeRegisters& r = FixpipeOf(core);
    r.ndSet = true;
    r.ndNum = ndNum;
    r.srcNdStride = srcNdStride;
    r.dstNdStride = dstNdStride;
}

namespace {
// The DataCopy from L0C's parameters as the Fixpipe's, with the registers its modes read: QUANT_PRE, the Fixpipe
// Buffer words SetFixPipeConfig named (into `words`), ND_PARA.
FixpipeParamsV220 CopyOutParams(const char* call, const DataCopyCO12DstParams& p, CubeOperand& words, bool* vector)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.kernelType == KERNEL_TYPE_AIV_ONLY) {
        ascend_twin::Fail(call, "DataCopy from L0C runs on the AI Cube core", "called on an AI Vector core");
    }
    Cube();
    if (p.clipReluPre != 0 || p.eltWiseOp != 0) {
        ascend_twin::FailF(call, "clipReluPre and eltWiseOp are 0 on A2 (the docs: Atlas 200I/500 A2 only)",
                           "clipReluPre %u, eltWiseOp %u", static_cast<unsigned>(p.clipReluPre),
                           static_cast<unsigned>(p.eltWiseOp));
    }
    CheckRange(call, "reluPre", p.reluPre, 0, 1);
    FixpipeRegisters& r = FixpipeOf(core);
    FixpipeParamsV220 fp;
    fp.nSize = p.nSize;
    fp.mSize = p.mSize;
    fp.srcStride = p.srcStride;
    fp.dstStride = p.dstStride;
    fp.quantPre = p.quantPre;
    fp.reluEn = p.reluPre != 0;
    fp.unitFlag = p.unitFlag;
    fp.isChannelSplit = p.channelSplit;
    *vector = IsVectorQuant(p.quantPre);
    if (p.quantPre == DEQF16 || p.quantPre == QF322B8_PRE || p.quantPre == REQ8) {
        if (!r.quantSet) {
            ascend_twin::FailF(call,
                               "a scalar quantPre reads the word SetFixpipePreQuantFlag set earlier in the launch",
                               "quantPre %s with no SetFixpipePreQuantFlag (the twin is stricter than A2, which "
                               "reads what an earlier kernel left)",
                               QuantName(p.quantPre));
        }
        fp.deqScalar = r.quantPre;
    }
    if (*vector) {
        if (!r.fpcSet) {
            ascend_twin::FailF(call,
                               "a vector quantPre reads the Fixpipe Buffer words SetFixPipeConfig named earlier in "
                               "the launch",
                               "quantPre %s with no SetFixPipeConfig of a Fixpipe Buffer tensor (the twin is "
                               "stricter than A2, which reads what an earlier kernel left)",
                               QuantName(p.quantPre));
        }
        words = CubeOperand{"the Fixpipe Buffer words", TPosition::C2PIPE2GM,
                            CubeBase(TPosition::C2PIPE2GM) + r.fpcQuantOffset, kFbBytes - r.fpcQuantOffset, 8,
                            CubeElem::kUint32};
    }
    if (p.nz2ndEn) {
        if (!r.ndSet) {
            ascend_twin::Fail(call, "nz2ndEn reads the NZ2ND parameters SetFixpipeNz2ndFlag set earlier in the launch",
                              "nz2ndEn with no SetFixpipeNz2ndFlag (the twin is stricter than A2, which reads what "
                              "an earlier kernel left)");
        }
        fp.ndNum = r.ndNum;
        fp.srcNdStride = r.srcNdStride;
        fp.dstNdStride = r.dstNdStride;
    }
    return fp;
}
}  // namespace

void DataCopyL0cToGm(uint8_t* dst, CubeElem dstElem, uint32_t dstSize, const CubeOperand& src,
                     const DataCopyCO12DstParams& p)
{
    const char* call = "DataCopy(L0C->GM)";
    CubeOperand words{};
    bool vector = false;
    const FixpipeParamsV220 fp = CopyOutParams(call, p, words, &vector);
    FixpipeRun(call, dst, nullptr, dstElem, dstSize, src, fp, p.nz2ndEn, vector ? &words : nullptr,
               "QUANT_PRE (SetFixpipePreQuantFlag)");
}

void DataCopyL0cToL1(const CubeOperand& dst, const CubeOperand& src, const DataCopyCO12DstParams& p)
{
    const char* call = "DataCopy(L0C->L1)";
    if (p.nz2ndEn) {
        ascend_twin::Fail(call, "DataCopy from L0C into L1 writes NZ on A2 (nz2ndEn is Ascend 950's)", "nz2ndEn true");
    }
    CubeOperand words{};
    bool vector = false;
    const FixpipeParamsV220 fp = CopyOutParams(call, p, words, &vector);
    FixpipeToL1Run(call, dst, src, fp, vector ? &words : nullptr, "QUANT_PRE (SetFixpipePreQuantFlag)");
}

// ---- LoadData (卷积数据搬运) v2 and its registers (twin/kernel_load3d.h) ----

void SetFmatrixRegister(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], uint8_t fmatrixMode)
{
    const char* call = "SetFmatrix";
    Cube();
    CheckRange(call, "l1H", l1H, 1, 32767);
    CheckRange(call, "l1W", l1W, 1, 32767);
    if (fmatrixMode != 0) {
        ascend_twin::FailF(call, "SetFmatrix's fmatrixMode is FmatrixMode::FMATRIX_LEFT (docs: 当前只支持FMATRIX_LEFT, "
                           "左右矩阵均使用该配置)", "fmatrixMode %u", static_cast<unsigned>(fmatrixMode));
    }
    Load3dRegisters& r = Load3dOf(ascend_twin::CurrentCore());
    r.fmatrixSet = true;
    r.l1H = l1H;
    r.l1W = l1W;
    std::memcpy(r.padList, padList, 4);
}

void SetPaddingRegister(uint64_t value)
{
    Cube();
    Load3dOf(ascend_twin::CurrentCore()).padding = value;
}

void SetLoad3dRepeatRegister(uint16_t repeatStride, uint8_t repeatTime, uint8_t repeatMode)
{
    Cube();
    CheckRange("SetLoadDataRepeat", "repeatMode", repeatMode, 0, 1);
    Load3dRegisters& r = Load3dOf(ascend_twin::CurrentCore());
    r.repeatStride = repeatStride;
    r.repeatTime = repeatTime;
    r.repeatMode = repeatMode;
}

void SetLoad3dBoundaryRegister(uint32_t boundaryValue)
{
    const char* call = "SetLoadDataBoundary";
    Cube();
    if (boundaryValue != 0 && boundaryValue < 1024) {
        ascend_twin::FailF(call, "SetLoadDataBoundary's boundaryValue is 0 (no boundary) or at least 1024 bytes "
                           "(docs: 设置1~1023值是未定义行为)", "boundaryValue %u", boundaryValue);
    }
    if (boundaryValue > MemoryBytes(0)) {
        ascend_twin::FailF(call, "SetLoadDataBoundary's boundaryValue lies inside L1", "boundaryValue %u, L1 holds %llu "
                           "bytes", boundaryValue, static_cast<unsigned long long>(MemoryBytes(0)));
    }
    Load3dOf(ascend_twin::CurrentCore()).boundary = boundaryValue;
}

void LoadData3DV2(const CubeOperand& dst, const CubeOperand& src, const Load3dV2Args& a)
{
    const char* call = "LoadData(LoadData3DParamsV2)";
    uint64_t offset = 0;
    const int32_t dm = MemoryOfPointer(dst.data, &offset);
    if (dm != 1 && dm != 2) {
        ascend_twin::FailF(call, "LoadData with LoadData3DParamsV2 writes L0A (A2) or L0B (B2) on A2",
                           "operand 'dst' (TPosition::%s) is in neither L0A nor L0B", PositionName(dst.position));
    }
    CheckOperand(call, dst, dm);  // 512-byte aligned
    CheckOperand(call, src, 0);   // L1, 32-byte aligned
    const uint32_t es = dst.elemSize;
    const bool s4 = dst.elem == CubeElem::kInt4;  // int4b_t: C0 64, addressed in nibbles
    const uint32_t c0 = s4 ? 64 : 32 / es;
    const uint32_t nib = s4 ? 1 : 2 * es;  // nibbles an element
    if (dm == 2 && es == 1) {
        ascend_twin::Fail(call, "LoadData with LoadData3DParamsV2 into L0B takes 16- and 32-bit types on A2 (docs: "
                          "L1 Buffer->L0B Buffer通路不支持b4/b8类型数据)",
                          s4 ? "int4b_t into L0B" : "an 8-bit type into L0B");
    }
    if (dm == 1 && es == 1 && a.enTranspose) {
        ascend_twin::Fail(call, "LoadData with LoadData3DParamsV2 transposes b16/b32 into L0A on A2 (docs: 转置场景下，"
                          "L1 Buffer->L0A Buffer通路不支持b8数据类型; the twin refuses b4 too)",
                          s4 ? "enTranspose with int4b_t into L0A" : "enTranspose with an 8-bit type into L0A");
    }
    if (a.fMatrixCtrl) {
        ascend_twin::Fail(call, "LoadData3DParamsV2's fMatrixCtrl is false (docs: 当前只支持设置为false)",
                          "fMatrixCtrl true");
    }
    if (a.enSmallK) {
        ascend_twin::Fail(call, "LoadData3DParamsV2's enSmallK is false (docs: 当前产品形态，该特性已不再支持)",
                          "enSmallK true");
    }
    // The call's own register writes (IsResetLoad3dConfig), then the instruction with the registers' values.
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    Load3dRegisters& reg = Load3dOf(core);
    if (a.setFmatrix) {
        reg.fmatrixSet = true;
        reg.l1H = a.l1H;
        reg.l1W = a.l1W;
        std::memcpy(reg.padList, a.padList, 4);
    } else if (!reg.fmatrixSet) {
        ascend_twin::Fail(call, "LoadData with IsResetLoad3dConfig isSetFMatrix false reads the Feature Map SetFmatrix "
                          "set (the twin is stricter: it refuses the register's unset value)",
                          "no SetFmatrix (nor LoadData with isSetFMatrix) before it in this launch");
    }
    if (a.setPadding) reg.padding = a.padding;
    const uint32_t l1H = reg.l1H, l1W = reg.l1W;
    const uint32_t padL = reg.padList[0], padR = reg.padList[1], padT = reg.padList[2], padB = reg.padList[3];
    CheckRange(call, "l1H", l1H, 0, 32767);
    CheckRange(call, "l1W", l1W, 0, 32767);
    CheckRange(call, "strideW", a.strideW, 1, 63);
    CheckRange(call, "strideH", a.strideH, 1, 63);
    CheckRange(call, "dilationFilterW", a.dilationFilterW, 1, 255);
    CheckRange(call, "dilationFilterH", a.dilationFilterH, 1, 255);
    CheckRange(call, "mStartPt", a.mStartPt, 0, 32767);
    // channelSize (docs, A2): b32 4, N*8, N*8+4; b16 4, 8, N*16, N*16+4, N*16+8; b8 4, 8, 16, N*32, N*32+4, +8, +16.
    const uint32_t cs = a.channelSize;
    const uint32_t rem = cs % c0;
    const bool csOk = s4 ? (cs == 0 || rem == 0 || rem == 8 || rem == 16 || rem == 32)
                         : (cs == 0 || rem == 0 || rem == 4 || (es <= 2 && rem == 8) || (es == 1 && rem == 16));
    if (!csOk) {
        ascend_twin::FailF(call, s4          ? "channelSize of int4b_t is 8, 16, 32, N*64, N*64+8, N*64+16 or N*64+32 "
                                               "(LoadData docs, A2)"
                                 : es == 4   ? "channelSize of a 32-bit type is 4, N*8 or N*8+4 (LoadData docs, A2)"
                                 : es == 2 ? "channelSize of a 16-bit type is 4, 8, N*16, N*16+4 or N*16+8 (LoadData "
                                             "docs, A2)"
                                           : "channelSize of an 8-bit type is 4, 8, 16, N*32, N*32+4, N*32+8 or "
                                             "N*32+16 (LoadData docs, A2)",
                           "channelSize %u", cs);
    }
    if (a.kStartPt % c0 != 0) {
        ascend_twin::FailF(call, "kStartPt is a multiple of C0 (32 bytes of elements: b4 64, b8 32, b16 16, b32 8; "
                           "LoadData docs)", "kStartPt %u, C0 %u",
                           a.kStartPt, c0);
    }
    if (es <= 2 && a.mStartPt % 16 != 0) {
        ascend_twin::FailF(call, "mStartPt of b4/b8/b16 types is a multiple of 16 on A2", "mStartPt %u", a.mStartPt);
    }
    if (reg.repeatTime > 1) {
        ascend_twin::FailF(call, "the twin models LoadData with LoadData3DParamsV2 of one repeat",
                           "SetLoadDataRepeat repeatTime %u", static_cast<unsigned>(reg.repeatTime));
    }
    // NOPs (docs): a zero size or repeatTime, or a zero filter without filterSize.
    if (l1H == 0 || l1W == 0 || cs == 0 || a.kExtension == 0 || a.mExtension == 0 || reg.repeatTime == 0 ||
        (a.filterW == 0 && !a.filterSizeW) || (a.filterH == 0 && !a.filterSizeH)) {
        return;
    }
    if (rem != 0) {
        ascend_twin::FailF(call, "the twin models LoadData with LoadData3DParamsV2 of channelSize a multiple of C0",
                           "channelSize %u, C0 %u (the small-channel layouts 4/8/16 are not modelled)", cs, c0);
    }
    const uint32_t fw = a.filterW + (a.filterSizeW ? 256u : 0u), fh = a.filterH + (a.filterSizeH ? 256u : 0u);
    const int64_t spanW = static_cast<int64_t>(fw - 1) * a.dilationFilterW + 1;
    const int64_t spanH = static_cast<int64_t>(fh - 1) * a.dilationFilterH + 1;
    const int64_t wo = (static_cast<int64_t>(l1W) + padL + padR - spanW) / a.strideW + 1;
    const int64_t ho = (static_cast<int64_t>(l1H) + padT + padB - spanH) / a.strideH + 1;
    if (static_cast<int64_t>(l1W) + padL + padR < spanW || static_cast<int64_t>(l1H) + padT + padB < spanH) {
        ascend_twin::FailF(call, "the dilated filter fits the padded feature map (at least one output row)",
                           "filter %u x %u dilated to %lld x %lld, padded map %u x %u", fh, fw,
                           static_cast<long long>(spanH), static_cast<long long>(spanW), l1H + padT + padB,
                           l1W + padL + padR);
    }
    const uint64_t c1 = cs / c0;
    const uint64_t mTotal = static_cast<uint64_t>(ho * wo);
    const uint64_t kTotal = c1 * fh * fw * c0;
    const uint32_t mExt = a.mExtension, kExt = a.kExtension;
    // The slice lies in the img2col matrix (the twin is stricter: the docs' pseudocode has no rows or columns
    // beyond it); kExtension is a multiple of C0 and, for b8/b16, mExtension of 16 unless it covers the last fractal.
    if (a.kStartPt + static_cast<uint64_t>(kExt) > kTotal || a.mStartPt + static_cast<uint64_t>(mExt) > mTotal) {
        ascend_twin::FailF(call, "the slice [mStartPt, +mExtension) x [kStartPt, +kExtension) lies in the img2col "
                           "matrix (the twin is stricter than the hardware here)",
                           "rows %u..%u, columns %u..%u of a %llu x %llu matrix", a.mStartPt, a.mStartPt + mExt,
                           a.kStartPt, a.kStartPt + kExt, static_cast<unsigned long long>(mTotal),
                           static_cast<unsigned long long>(kTotal));
    }
    if (kExt % c0 != 0 && a.kStartPt + kExt <= kTotal - c0) {
        ascend_twin::FailF(call, "kExtension is a multiple of C0 unless it covers the rightmost fractal (LoadData docs)",
                           "kExtension %u, C0 %u, kStartPt %u of %llu columns", kExt, c0, a.kStartPt,
                           static_cast<unsigned long long>(kTotal));
    }
    const uint64_t mTotal16 = (mTotal + 15) / 16 * 16;
    if (es <= 2 && mExt % 16 != 0 && a.mStartPt + mExt <= mTotal16 - 16) {
        ascend_twin::FailF(call, "mExtension of b4/b8/b16 types is a multiple of 16 unless it covers the bottom fractal "
                           "(LoadData docs)", "mExtension %u, mStartPt %u of %llu rows", mExt, a.mStartPt,
                           static_cast<unsigned long long>(mTotal));
    }
    const bool transpose = dm == 2 || a.enTranspose;
    const uint64_t fractal = 512;
    const uint64_t mBlocksC0 = (mExt + 15) / 16 * 16 / c0;  // C0-wide blocks of the 16-padded rows
    const uint64_t kBlocks = (kExt + c0 - 1) / c0, kBlocks16 = (kExt + 15) / 16;
    const uint64_t fractals = !transpose ? (mExt + 15) / 16 * kBlocks : mBlocksC0 * kBlocks16;
    // The destination nibble of slice element (i, j); the last one written bounds the access (the padded tail of
    // the last fractal is not written).
    auto DstAt = [&](uint64_t i, uint64_t j) -> uint64_t {
        if (!transpose) return ((i / 16) * kBlocks + j / c0) * fractal * 2 + ((i % 16) * c0 + j % c0) * nib;
        if (dm == 1) return ((j / 16) * mBlocksC0 + i / c0) * fractal * 2 + ((j % 16) * c0 + i % c0) * nib;
        return ((i / c0) * kBlocks16 + j / 16) * fractal * 2 + ((j % 16) * c0 + i % c0) * nib;
    };
    uint64_t written = 0;  // bytes
    for (uint64_t i = 0; i < mExt; ++i) {
        for (uint64_t j = 0; j < kExt; ++j) written = std::max(written, (DstAt(i, j) + nib + 1) / 2);
    }
    CheckInside(call, dst, written);
    // Source addresses: in the tensor, or with a boundary set, wrapped to L1's start past it.
    uint64_t srcOffset = 0;
    MemoryOfPointer(src.data, &srcOffset);
    const uint64_t boundary = reg.boundary;
    if (boundary != 0 && srcOffset >= boundary) {
        ascend_twin::FailF(call, "the source starts inside the boundary SetLoadDataBoundary set (docs)",
                           "src at L1 byte %llu, boundary %llu", static_cast<unsigned long long>(srcOffset),
                           static_cast<unsigned long long>(boundary));
    }
    uint8_t* l1 = src.data - srcOffset;
    uint8_t pad[4];
    std::memcpy(pad, &reg.padding, 4);
    std::vector<uint8_t> out(written);
    std::memcpy(out.data(), dst.data, out.size());
    for (uint32_t i = 0; i < mExt; ++i) {
        const uint64_t m = a.mStartPt + i;
        const int64_t oh = static_cast<int64_t>(m / wo), ow = static_cast<int64_t>(m % wo);
        for (uint32_t j = 0; j < kExt; ++j) {
            const uint64_t k = a.kStartPt + j;
            const uint64_t ch1 = k / (static_cast<uint64_t>(fh) * fw * c0);
            const uint64_t win = k / c0 % (static_cast<uint64_t>(fh) * fw);
            const int64_t h = oh * a.strideH + static_cast<int64_t>(win / fw) * a.dilationFilterH - padT;
            const int64_t w = ow * a.strideW + static_cast<int64_t>(win % fw) * a.dilationFilterW - padL;
            const uint64_t at = DstAt(i, j);
            if (h < 0 || w < 0 || h >= static_cast<int64_t>(l1H) || w >= static_cast<int64_t>(l1W)) {
                CopyElem(out.data(), at, pad, 0, s4, es);
                continue;
            }
            const uint64_t e = ((ch1 * l1H + static_cast<uint64_t>(h)) * l1W + static_cast<uint64_t>(w)) * c0 + k % c0;
            uint64_t addr = srcOffset + e * nib / 2;
            if (boundary != 0 && addr >= boundary) {
                addr %= boundary;
            } else if ((e + 1) * nib > src.bytes * 2) {
                ascend_twin::FailF(call, "cube accesses stay inside the LocalTensor",
                                   "operand 'src' holds %llu bytes, the feature map element (c1 %llu, h %lld, w %lld) "
                                   "is at byte %llu", static_cast<unsigned long long>(src.bytes),
                                   static_cast<unsigned long long>(ch1), static_cast<long long>(h),
                                   static_cast<long long>(w), static_cast<unsigned long long>(e * nib / 2));
            }
            CopyElem(out.data(), at, l1 + addr, s4 ? e % 2 : 0, s4, es);
        }
    }
    std::memcpy(dst.data, out.data(), out.size());
    (dm == 1 ? core.counters.cube.l0aBytesLoaded : core.counters.cube.l0bBytesLoaded) += fractals * fractal;
}

uint32_t TscmAllocate(const char* call, PipeResources& res, uint32_t num, uint32_t len)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.kernelType == KERNEL_TYPE_AIV_ONLY) {
        ascend_twin::Fail(call, "TSCM buffers are in an AI Cube core's L1",
                          "a KERNEL_TYPE_AIV_ONLY kernel has no AI Cube core (a MIX kernel's AIVs reach their AIC's)");
    }
    if (len == 0) ascend_twin::Fail(call, "InitBuffer gives each buffer more than 0 bytes", "len is 0");
    const uint64_t capacity = ascend_twin::L1Usable(*core.platform);  // TOTAL_L1_SIZE: tscmBufferPtr_'s start
    // A2's TscmInitBuffer asserts num * len < TOTAL_L1_SIZE before it rounds len up to 32 bytes.
    if (static_cast<uint64_t>(num) * len >= capacity) {
        ascend_twin::FailF(call, "a TSCM queue's buffers are smaller than L1 (TscmInitBuffer: num * len < "
                           "TOTAL_L1_SIZE)",
                           "%u buffers of %u bytes; TOTAL_L1_SIZE is %llu bytes", num, len,
                           static_cast<unsigned long long>(capacity));
    }
    const uint64_t share = static_cast<uint64_t>(num) * ((len + 31u) / 32u * 32u);
    const bool aiv = core.coreType == AscendC::AIV;
    const uint64_t ratio = aiv ? static_cast<uint64_t>(core.subBlockNum) : 1;
    const uint64_t sub = aiv ? static_cast<uint64_t>(core.subBlockIdx) : 0;
    if (res.tscmUsed + ratio * share + res.cubeNext[0] > capacity) {
        ascend_twin::FailF(call, "TSCM buffers (from the top of L1 down, one share per AIV of the block) and the L1 "
                           "buffers (from the bottom up) fit in L1 without overlapping (TscmInitBuffer's check)",
                           "asking for %llu x %llu bytes with %llu taken from the top and %llu from the bottom; "
                           "TOTAL_L1_SIZE is %llu bytes",
                           static_cast<unsigned long long>(ratio), static_cast<unsigned long long>(share),
                           static_cast<unsigned long long>(res.tscmUsed),
                           static_cast<unsigned long long>(res.cubeNext[0]),
                           static_cast<unsigned long long>(capacity));
    }
    const uint64_t first = capacity - res.tscmUsed - (ratio - sub) * share;
    res.tscmUsed += ratio * share;
    if (!aiv) std::memset(Cube() + MemoryOffset(0) + first, 0xff, share);  // poisoned, as other L1 buffers are
    return static_cast<uint32_t>(first);
}

void CopyGmToTscm(const char* call, uint8_t* dst, uint64_t dstBytes, const uint8_t* src, uint16_t blockCount,
                  uint64_t blockBytes, uint64_t srcStep, uint64_t dstStep)
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.coreType != AscendC::AIV) {  // A2's DataCopyGM2L1Impl on the AIC: copy_gm_to_cbuf into the L1 tensor
        CopyGmToL1Raw(call, TPosition::TSCM, dst, dstBytes, 1, src, blockCount, blockBytes, srcStep, dstStep);
        return;
    }
    ascend_twin::PostScmCopy(call, static_cast<uint64_t>(dst - TscmBase()), dstBytes, src, blockCount, blockBytes,
                             srcStep, dstStep);
}

void CopyNd2NzTscm(const CubeOperand& dst, const uint8_t* src, const Nd2NzParams& p)
{
    if (ascend_twin::CurrentCore().coreType != AscendC::AIV) {  // the AIC's copy_gm_to_cbuf_multi_nd2nz
        CopyNd2Nz(dst, src, p);
        return;
    }
    const uint16_t fields[8] = {p.ndNum,     p.nValue,        p.dValue,       p.srcNdMatrixStride,
                                p.srcDValue, p.dstNzC0Stride, p.dstNzNStride, p.dstNzMatrixStride};
    ascend_twin::PostScmNd2Nz("DataCopy(GM->TSCM, Nd2NzParams)", static_cast<uint64_t>(dst.data - TscmBase()),
                              dst.bytes, dst.elemSize, src, fields);
}

uint8_t* TscmBase()
{
    ascend_twin::CoreContext& core = ascend_twin::CurrentCore();
    if (core.coreType != AscendC::AIV) return Cube() + MemoryOffset(0);
    // The AIV's stand-in for its AIC's L1: addresses only (a TSCM tensor's offset from here is its L1 address).
    alignas(64) static uint8_t standIn[2u << 20];
    if (MemoryBytes(0) > sizeof(standIn)) {
        ascend_twin::Fail("TSCM", "the platform's L1 fits the twin's TSCM address range", "L1 larger than 2 MiB");
    }
    return standIn;
}

}  // namespace AscendC::twin_detail

namespace ascend_twin {

void CopyGmToL1At(const char* call, uint64_t l1Addr, uint64_t l1Room, const uint8_t* src, uint16_t blockCount,
                  uint64_t blockBytes, uint64_t srcStep, uint64_t dstStep)
{
    uint64_t l1Bytes = 0;
    uint8_t* l1 = CubeL1(&l1Bytes);
    if (l1Addr + l1Room > l1Bytes) {
        FailF(call, "a TSCM tensor lies in L1", "L1 address %llu + %llu bytes; L1 has %llu bytes",
              static_cast<unsigned long long>(l1Addr), static_cast<unsigned long long>(l1Room),
              static_cast<unsigned long long>(l1Bytes));
    }
    AscendC::twin_detail::CopyGmToL1Raw(call, AscendC::TPosition::TSCM, l1 + l1Addr, l1Room, 1, src, blockCount,
                                        blockBytes, srcStep, dstStep);
}

void CopyNd2NzAt(uint64_t l1Addr, uint64_t l1Room, uint32_t elemSize, const uint8_t* src, const uint16_t nd2nz[8])
{
    uint64_t l1Bytes = 0;
    uint8_t* l1 = CubeL1(&l1Bytes);
    if (l1Addr + l1Room > l1Bytes) {
        FailF("DataCopy(GM->TSCM, Nd2NzParams) (AIC, SCMFUN_GM2L1ND2NZ)", "a TSCM tensor lies in L1",
              "L1 address %llu + %llu bytes; L1 has %llu bytes", static_cast<unsigned long long>(l1Addr),
              static_cast<unsigned long long>(l1Room), static_cast<unsigned long long>(l1Bytes));
    }
    const AscendC::Nd2NzParams p(nd2nz[0], nd2nz[1], nd2nz[2], nd2nz[3], nd2nz[4], nd2nz[5], nd2nz[6], nd2nz[7]);
    const AscendC::twin_detail::CubeOperand dst{"dst", AscendC::TPosition::TSCM, l1 + l1Addr, l1Room, elemSize,
                                                AscendC::twin_detail::CubeElem::kUint8};
    AscendC::twin_detail::CopyNd2Nz(dst, src, p);
}

uint8_t* CubeL1(uint64_t* bytes)
{
    *bytes = AscendC::twin_detail::MemoryBytes(0);
    return AscendC::twin_detail::Cube() + AscendC::twin_detail::MemoryOffset(0);
}

}  // namespace ascend_twin

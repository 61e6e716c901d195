// Shared by the cube core's sources: operand conversion, the L1 group cache and the Matmul object's state.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "twin/cube_gemm.h"
#include "twin/kernel_cube.h"
#include "twin/kernel_types.h"
#include "twin/runtime.h"
#include "twin/violation.h"

namespace ascend_twin {

namespace cube_detail {

inline uint32_t SizeOf(CubeType t)
{
    return t == CubeType::kFloat64 ? 8 : (t == CubeType::kFloat32 || t == CubeType::kInt32) ? 4 : t == CubeType::kInt8 ? 1 : 2;
}

// L0C's element: float32 for the floating A2 types, int32_t for int8_t A; double in the twin's float64 build (see
// lib/matmul_intf.h).
inline uint32_t AccSizeOf(CubeType a) { return a == CubeType::kFloat64 ? 8 : 4; }

// The twin's element for L1/L0 and L0C: double for the float64 build and for int8_t A (each int8_t product and
// every int32_t sum of them up to 2^53 is exact in double, so L0C's int32_t accumulation is reproduced exactly).
inline bool UsesDouble(CubeType a) { return a == CubeType::kFloat64 || a == CubeType::kInt8 || a == CubeType::kInt4; }

// int4b_t: `count` elements from element `first` of `base` (two a byte, low nibble first), `srcStride` elements
// apart, into dst[i * dstStride].
template <typename E>
inline void ConvertRunS4(const uint8_t* base, int64_t first, int64_t srcStride, E* dst, int64_t dstStride,
                         int64_t count)
{
    for (int64_t i = 0; i < count; ++i) {
        const int64_t e = first + i * srcStride;
        const int v = (base[e / 2] >> (4 * (e % 2))) & 0xf;
        dst[i * dstStride] = static_cast<E>(v >= 8 ? v - 16 : v);
    }
}

// The twin holds operands in L1/L0 as E: float, or double in the float64 build.
template <typename E>
inline E LoadElem(const uint8_t* p, CubeType t)
{
    if (t == CubeType::kFloat64) {
        double d;
        std::memcpy(&d, p, 8);
        return static_cast<E>(d);
    }
    if (t == CubeType::kFloat32) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    if (t == CubeType::kInt8) return static_cast<E>(static_cast<int8_t>(*p));
    if (t == CubeType::kInt32) {
        int32_t i;
        std::memcpy(&i, p, 4);
        return static_cast<E>(i);
    }
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return t == CubeType::kFloat16 ? HalfBitsToFloat(bits) : Bf16BitsToFloat(bits);
}

template <typename E>
inline void StoreElem(uint8_t* p, CubeType t, E v)
{
    if (t == CubeType::kFloat64) {
        const double d = v;
        std::memcpy(p, &d, 8);
        return;
    }
    if (t == CubeType::kInt32) {  // L0C's int32_t as it is (int8_t A: the sums are integers within int32_t)
        const int32_t i = static_cast<int32_t>(v);
        std::memcpy(p, &i, 4);
        return;
    }
    const float f = static_cast<float>(v);
    if (t == CubeType::kFloat32) {
        std::memcpy(p, &f, 4);
        return;
    }
    const uint16_t bits = t == CubeType::kFloat16 ? FloatToHalfBits(f) : FloatToBf16Bits(f);
    std::memcpy(p, &bits, 2);
}

// Whether elements of type t are stored exactly as E (a plain copy).
template <typename E>
inline bool SameRepr(CubeType t)
{
    return std::is_same_v<E, double> ? t == CubeType::kFloat64 : t == CubeType::kFloat32;
}

// Converts `count` elements spaced `srcStride` elements apart into dst[i * dstStride].
template <typename E>
inline void ConvertRun(const uint8_t* src, int64_t srcStride, CubeType t, E* dst, int64_t dstStride, int64_t count)
{
    if (SameRepr<E>(t) && srcStride == 1) {
        if (dstStride == 1 && count >= 64) {  // a long run: one memcpy
            std::memcpy(dst, src, count * sizeof(E));
        } else {  // a short or scattered run: inline moves (a memcpy call per short run costs more than the run)
            for (int64_t i = 0; i < count; ++i) std::memcpy(dst + i * dstStride, src + i * sizeof(E), sizeof(E));
        }
        return;
    }
    if constexpr (std::is_same_v<E, float>) {  // a contiguous 16-bit run: converted 16 at a time (cube_gemm.cpp)
        if ((t == CubeType::kFloat16 || t == CubeType::kBFloat16) && srcStride == 1 && dstStride == 1) {
            const auto* bits = reinterpret_cast<const uint16_t*>(src);
            if (t == CubeType::kFloat16) {
                WidenHalfRun(bits, count, dst);
            } else {
                WidenBf16Run(bits, count, dst);
            }
            return;
        }
    }
    // The source type chosen once per run, not per element, so that each loop is a plain strided copy or
    // conversion (and vectorises where the run is contiguous): the transposed loads of A and B, and every
    // load of half/bfloat16 operands, come through here.
    switch (t) {
        case CubeType::kFloat64: {
            const int64_t step = srcStride * 8;
            for (int64_t i = 0; i < count; ++i) dst[i * dstStride] = LoadElem<E>(src + i * step, CubeType::kFloat64);
            return;
        }
        case CubeType::kFloat32: {
            const int64_t step = srcStride * 4;
            for (int64_t i = 0; i < count; ++i) dst[i * dstStride] = LoadElem<E>(src + i * step, CubeType::kFloat32);
            return;
        }
        case CubeType::kFloat16: {
            const int64_t step = srcStride * 2;
            for (int64_t i = 0; i < count; ++i) dst[i * dstStride] = LoadElem<E>(src + i * step, CubeType::kFloat16);
            return;
        }
        case CubeType::kBFloat16: {
            const int64_t step = srcStride * 2;
            for (int64_t i = 0; i < count; ++i) dst[i * dstStride] = LoadElem<E>(src + i * step, CubeType::kBFloat16);
            return;
        }
        case CubeType::kInt8: {
            for (int64_t i = 0; i < count; ++i) dst[i * dstStride] = LoadElem<E>(src + i * srcStride, CubeType::kInt8);
            return;
        }
        case CubeType::kInt32: {
            const int64_t step = srcStride * 4;
            for (int64_t i = 0; i < count; ++i) dst[i * dstStride] = LoadElem<E>(src + i * step, CubeType::kInt32);
            return;
        }
    }
}

// One operand's L1 groups, replaced first-in first-out.
template <typename E>
struct L1Cache {
    int64_t slots = 0;
    int64_t slotElems = 0;
    std::vector<E> data;
    std::vector<int64_t> keys;  // -1: empty
    int64_t next = 0;           // slot to replace next

    void Reset(int64_t nSlots, int64_t elemsPerSlot)
    {
        slots = nSlots;
        slotElems = elemsPerSlot;
        data.resize(nSlots * elemsPerSlot);  // contents are never read before a load writes them
        Empty();
    }
    void Empty()
    {
        keys.assign(slots, -1);
        next = 0;
    }
    // Returns the slot holding `key`, or -1 after choosing `*victim` to load it into.
    int64_t Find(int64_t key, int64_t* victim)
    {
        for (int64_t i = 0; i < slots; ++i) {
            if (keys[i] == key) return i;
        }
        *victim = next;
        keys[next] = key;
        next = (next + 1) % slots;
        return -1;
    }
    E* Slot(int64_t i) { return data.data() + i * slotElems; }
    bool Has(int64_t key) const { return std::find(keys.begin(), keys.end(), key) != keys.end(); }
};

// A cube core's L1 and L0 as the twin stores them, in element type E.
template <typename E>
struct CubeBuffers {
    L1Cache<E> a1, b1;          // L1 in the micro-kernel's panel order: L0A/L0B tiles are read in place
    std::vector<E> l0c, biasRow;
};

}  // namespace cube_detail

struct CubeMatmul::State {
    CubeMatmulTypes types;
    AscendC::tiling::TCubeTiling t{};
    bool initialised = false, ended = false, iterated = false;
    int64_t orgM = 0, orgN = 0, orgKa = 0, orgKb = 0, orgKc = 0;
    int64_t singleM = 0, singleN = 0, singleK = 0;
    const uint8_t* a = nullptr;
    const uint8_t* b = nullptr;
    const uint8_t* bias = nullptr;
    bool transA = false, transB = false, biasOn = false;
    // A at TPosition::TSCM (SetTensorA with an L1 tensor): `a` is the tensor in the AI Cube core's L1, the single-core
    // A in NZ (CubeMatmul::SetTensorAL1), aL1Bytes its size.
    bool aL1 = false;
    uint64_t aL1Bytes = 0;
    uint8_t atomic = 0;  // enAtomic of the writes in progress (CubeMatmul::SetAtomic)
    // int8_t A with half C: SetQuantScalar (quant 1, its word) or SetQuantVector (quant 2, the GM words of this
    // core's columns); Init clears it (the API's MatmulQuantProcessor::Init).
    uint8_t quant = 0;
    uint64_t quantScalar = 0;
    const uint8_t* quantVector = nullptr;
    // MatmulCallBackFunc's CopyA1/CopyB1 (CubeMatmul::SetCopyInHook).
    CubeMatmul::CopyInHook copyIn = nullptr;
    void* copyInCtx = nullptr;
    bool copyInA = false, copyInB = false;
    const uint8_t* sparseIndex = nullptr;  // SparseMatmulType B: SetSparseIndex's tensor
    // The walk one block at a time (Iterate/GetTensorC, and the MIX server): blocks computed so far, and the
    // one in L0C (its base-block row/column and size).
    int64_t nextBlock = 0;
    bool blockInL0C = false;
    int64_t blockM = 0, blockN = 0, blockRows = 0, blockCols = 0;
    // The walk's prefetch of the next A and B groups it loads (cube_walk.cpp PlanPrefetch): their GM runs and
    // how far they are touched; the group's L1 key (-1: none). A hint to the CPU, no part of the model.
    cube_detail::GmPrefetch prefetch[2];
    int64_t prefetchKey[2] = {-1, -1};
    cube_detail::CubeBuffers<float> f32;   // every A2 type
    cube_detail::CubeBuffers<double> f64;  // the twin's float64 build
    template <typename E>
    cube_detail::CubeBuffers<E>& Buffers()
    {
        if constexpr (std::is_same_v<E, double>) {
            return f64;
        } else {
            return f32;
        }
    }
};


// The NORM walk (cube_walk.cpp) over the block set by SetTail: all of it into C in GM (IterateAll), or one
// base block at a time: CubeBeginIterate, then CubeIterateBlock (false when every block is done) and
// CubeWriteBlock (the block in L0C, rows `ld` elements apart from dst; checked = dst is the launch's GM).
void CubeIterateAll(CubeMatmul::State& s, void* gm);
void CubeBeginIterate(CubeMatmul::State& s);
int64_t CubeBlockCount(const CubeMatmul::State& s);
bool CubeIterateBlock(CubeMatmul::State& s);
void CubeWriteBlock(CubeMatmul::State& s, uint8_t* dst, int64_t ld, bool checked);

// The elements between C's rows in GM: orgKc, or orgN; with C in ND_ALIGN rounded up to 32 bytes (the API's
// GetOrgWidth): the padding columns are not written.
// C in NZ with channel split (float): 8-column fractals of Ceil(orgM, 16) * 16 rows each, one after another; element
// (m, n) at ((n / 8) * alignM + m) * 8 + n % 8 (the API's CopyOutNZ2NZ with isEnableChannelSplit on A2).
inline int64_t CNzRows(const CubeMatmul::State& s) { return (s.orgM + 15) / 16 * 16; }
inline int64_t CRowStride(const CubeMatmul::State& s)
{
    if (s.types.cNzChannelSplit) return CNzRows(s);
    const int64_t n = s.orgKc > 0 ? s.orgKc : s.orgN;
    if (!s.types.cNdAlign) return n;
    const int64_t per = 32 / cube_detail::SizeOf(s.types.c);
    return (n + per - 1) / per * per;
}
// The element of C in GM where the block in L0C starts (rows `ld` apart; for NZ, ld is the fractals' row count).
inline int64_t CBlockOffset(const CubeMatmul::State& s, int64_t ld)
{
    if (s.types.cNzChannelSplit) return s.blockN * s.t.baseN * ld + s.blockM * s.t.baseM * 8;
    return s.blockM * s.t.baseM * ld + s.blockN * s.t.baseN;
}

}  // namespace ascend_twin

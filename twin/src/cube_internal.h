// Shared by the cube core's sources: operand conversion, the L1 group cache and the Matmul object's state.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "twin/cube_gemm.h"
#include "twin/kernel_cube.h"
#include "twin/kernel_types.h"
#include "twin/runtime.h"
#include "twin/violation.h"

namespace ascend_twin {

namespace cube_detail {

inline uint32_t SizeOf(CubeType t) { return t == CubeType::kFloat32 ? 4 : 2; }

inline float LoadElem(const uint8_t* p, CubeType t)
{
    if (t == CubeType::kFloat32) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return t == CubeType::kFloat16 ? HalfBitsToFloat(bits) : Bf16BitsToFloat(bits);
}

inline void StoreElem(uint8_t* p, CubeType t, float v)
{
    if (t == CubeType::kFloat32) {
        std::memcpy(p, &v, 4);
        return;
    }
    const uint16_t bits = t == CubeType::kFloat16 ? FloatToHalfBits(v) : FloatToBf16Bits(v);
    std::memcpy(p, &bits, 2);
}

// Converts `count` elements spaced `srcStride` elements apart into dst[i * dstStride].
inline void ConvertRun(const uint8_t* src, int64_t srcStride, CubeType t, float* dst, int64_t dstStride, int64_t count)
{
    const uint32_t es = SizeOf(t);
    if (t == CubeType::kFloat32 && srcStride == 1 && dstStride == 1) {
        std::memcpy(dst, src, count * 4);
        return;
    }
    for (int64_t i = 0; i < count; ++i) dst[i * dstStride] = LoadElem(src + i * srcStride * es, t);
}

// One operand's L1 groups, replaced first-in first-out.
struct L1Cache {
    int64_t slots = 0;
    int64_t slotFloats = 0;
    std::vector<float> data;
    std::vector<int64_t> keys;  // -1: empty
    int64_t next = 0;           // slot to replace next

    void Reset(int64_t nSlots, int64_t floatsPerSlot)
    {
        slots = nSlots;
        slotFloats = floatsPerSlot;
        data.resize(nSlots * floatsPerSlot);  // contents are never read before a load writes them
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
    float* Slot(int64_t i) { return data.data() + i * slotFloats; }
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
    cube_detail::L1Cache a1, b1;
    std::vector<float> l0a, l0b, l0c, biasRow;
};


// Runs the NORM walk for the block set by SetTail (cube_walk.cpp).
void CubeIterateAll(CubeMatmul::State& s, void* gm);

}  // namespace ascend_twin

// Helpers the advanced-API rule checks share (twin/src/adv_*.cpp, broadcast.cpp).
#pragma once

#include <cstdint>
#include <initializer_list>

#include "twin/kernel_adv_math.h"
#include "twin/runtime.h"

namespace AscendC::twin_detail {

// For printf-style details: uint64_t as %llu.
inline unsigned long long U(uint64_t v) { return static_cast<unsigned long long>(v); }

// Whether two byte ranges share a byte (a null or empty range shares none).
inline bool Overlap(const void* a, uint64_t aBytes, const void* b, uint64_t bBytes)
{
    const uint8_t* pa = static_cast<const uint8_t*>(a);
    const uint8_t* pb = static_cast<const uint8_t*>(b);
    return a != nullptr && b != nullptr && aBytes != 0 && bBytes != 0 && pa < pb + bBytes && pb < pa + aBytes;
}

struct NamedOperand {
    const char* name;
    const MathOperand* op;
};

// Each operand but `skip` (the framework's temporary buffer) at VECIN/VECCALC/VECOUT and 32-byte aligned in
// UB, as the advanced API's checks require.
inline void CheckVecOperands(const char* call, std::initializer_list<NamedOperand> ops, const MathOperand* skip)
{
    for (const NamedOperand& o : ops) {
        if (o.op == skip) continue;
        if (o.op->pos != TPosition::VECIN && o.op->pos != TPosition::VECCALC && o.op->pos != TPosition::VECOUT) {
            ascend_twin::FailF(call, "the advanced math API's operands are at VECIN, VECCALC or VECOUT", "%s is at %s",
                               o.name, PositionName(o.op->pos));
        }
        ascend_twin::CheckUbAligned(call, o.name, o.op->addr);
    }
}

}  // namespace AscendC::twin_detail

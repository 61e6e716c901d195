// Helpers the advanced-API headers that run A2's instruction sequences share (DropOut, RmsNorm, ...): an operand's
// bytes and position for the rule checks, and the framework form's temporary buffer as a LocalTensor.
#pragma once

#include <cstdint>

#include "twin/kernel_adv_math.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"

namespace AscendC::twin_detail {

template <typename T>
inline MathOperand AdvOperand(const LocalTensor<T>& t)
{
    return MathOperand{TwinData(t), static_cast<uint64_t>(t.GetSize()) * sizeof(T), TwinPosition(t)};
}

// The temporary buffer of a form without sharedTmpBuffer: A2 pops the reserved stack buffer, the UB after the
// TPipe's buffers (AdvFrameworkTmp names `call` when there is none).
inline LocalTensor<uint8_t> AdvFrameworkTmpTensor(const char* call)
{
    TPipe* pipe = GetTPipePtr();
    uint64_t bytes = 0;
    uint8_t* p = AdvFrameworkTmp(call, pipe, pipe == nullptr ? 0 : TwinUbEnd(*pipe), bytes);
    return LocalTensor<uint8_t>(TPosition::VECCALC, static_cast<uint32_t>(ascend_twin::UbOffset(p)),
                                static_cast<uint32_t>(bytes));
}

}  // namespace AscendC::twin_detail

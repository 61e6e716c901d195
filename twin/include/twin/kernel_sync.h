// Pipeline synchronisation. The twin runs each core's instructions in program order, so barriers and
// flags order nothing; they are accepted so that kernels compile unchanged, and their pairing is checked.
#pragma once

#include <cstdint>

#include "twin/runtime.h"

enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX = 10 };

namespace AscendC {

enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3,
    MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S,
    MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX
};

template <pipe_t pipe>
__aicore__ inline void PipeBarrier()
{
    static_assert(pipe != PIPE_S, "PipeBarrier does not take PIPE_S");
}

namespace twin_detail {
void CheckEventId(const char* call, int32_t eventID);
}

template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID)
{
    twin_detail::CheckEventId("SetFlag", eventID);
}

template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID)
{
    twin_detail::CheckEventId("WaitFlag", eventID);
}

}  // namespace AscendC

// PopStackBuffer (basic API, impl/basic_api/kernel_pop_stack_buffer.h): a LocalTensor over the rest of a UB
// position after the TPipe's buffers, up to A2's end of the stack buffer, TOTAL_UB_SIZE - sizeof(KfcMsg) (the last
// 128 bytes carry the cube/vector messages). The advanced APIs' forms without sharedTmpBuffer take the same range
// (twin_detail::AdvFrameworkTmp, which also checks the rules: a TPipe exists, something is left).
#pragma once

#include <cstdint>

#include "twin/kernel_adv_math.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"
#include "twin/runtime.h"  // Fail/FailF with C strings: no heap containers in kernel headers

namespace AscendC {

// T any element type (the docs list the 1-, 2-, 4- and 8-byte integers, half and float; the implementation is
// generic). pos must be a UB position: A2's GetEndAddress asserts "hardType should be UB" (CPU-debug builds), the
// twin refuses any other position at run time.
template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T>& popLocal)
{
    if constexpr (pos != TPosition::VECIN && pos != TPosition::VECOUT && pos != TPosition::VECCALC) {
        ascend_twin::Fail("PopStackBuffer", "pos is a UB position (VECIN, VECOUT, VECCALC/LCM): A2 pops UB only",
                          "pos is another memory's position");
    }
    TPipe* pipe = GetTPipePtr();
    uint64_t bytes = 0;
    uint8_t* p = twin_detail::AdvFrameworkTmp("PopStackBuffer", pipe, pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe),
                                              bytes);
    popLocal = LocalTensor<T>(pos, static_cast<uint32_t>(ascend_twin::UbOffset(p)), static_cast<uint32_t>(bytes / sizeof(T)));
    return true;
}

}  // namespace AscendC

// Synchronisation inside a core: flags between pipes, barriers, event ids. Every call is an edge of the
// hazard detector (twin/hazard.h): a missing one shows up as a race on the UB bytes it should order.
#pragma once

#include <cstdint>

#include "twin/hazard.h"
#include "twin/kernel_types.h"
#include "twin/runtime.h"

enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX = 10 };

enum event_t : uint8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace AscendC {

enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3,
    MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S,
    MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX
};

namespace twin_detail {

void CheckEventId(const char* call, int32_t eventID);
// Under a TPipe, a kernel's SetFlag/WaitFlag ids come from AllocEventID/FetchEventID (SetFlag docs): an id a
// queue of the TPipe holds for the same HardEvent is a collision.
void CheckKernelEventId(const char* call, uint32_t eventIndex, int32_t eventID);

struct EventPipes {
    const char* name;
    ascend_twin::Pipe src;
    ascend_twin::Pipe dst;
};

// Indexed by HardEvent (a table at namespace scope: the queues look events up at run time too).
namespace event_table {
using P = ascend_twin::Pipe;
inline constexpr EventPipes kEventPipes[] = {
    {"MTE2_MTE1", P::kMte2, P::kMte1}, {"MTE1_MTE2", P::kMte1, P::kMte2}, {"MTE1_M", P::kMte1, P::kM},
    {"M_MTE1", P::kM, P::kMte1},       {"MTE2_V", P::kMte2, P::kV},       {"V_MTE2", P::kV, P::kMte2},
    {"MTE3_V", P::kMte3, P::kV},       {"V_MTE3", P::kV, P::kMte3},       {"M_V", P::kM, P::kV},
    {"V_M", P::kV, P::kM},             {"V_V", P::kV, P::kV},             {"MTE3_MTE1", P::kMte3, P::kMte1},
    {"MTE1_MTE3", P::kMte1, P::kMte3}, {"MTE1_V", P::kMte1, P::kV},       {"MTE2_M", P::kMte2, P::kM},
    {"M_MTE2", P::kM, P::kMte2},       {"V_MTE1", P::kV, P::kMte1},       {"M_FIX", P::kM, P::kFix},
    {"FIX_M", P::kFix, P::kM},         {"MTE3_MTE2", P::kMte3, P::kMte2}, {"MTE2_MTE3", P::kMte2, P::kMte3},
    {"S_V", P::kS, P::kV},             {"V_S", P::kV, P::kS},             {"S_MTE2", P::kS, P::kMte2},
    {"MTE2_S", P::kMte2, P::kS},       {"S_MTE3", P::kS, P::kMte3},       {"MTE3_S", P::kMte3, P::kS},
    {"MTE2_FIX", P::kMte2, P::kFix},   {"FIX_MTE2", P::kFix, P::kMte2},   {"FIX_S", P::kFix, P::kS},
    {"M_S", P::kM, P::kS},             {"FIX_MTE3", P::kFix, P::kMte3},   {"MTE1_FIX", P::kMte1, P::kFix},
    {"FIX_MTE1", P::kFix, P::kMte1},   {"FIX_FIX", P::kFix, P::kFix},
};
static_assert(sizeof(kEventPipes) / sizeof(kEventPipes[0]) == static_cast<size_t>(HardEvent::MAX));
}  // namespace event_table

constexpr const EventPipes& Pipes(HardEvent e) { return event_table::kEventPipes[static_cast<uint32_t>(e)]; }

constexpr ascend_twin::Pipe PipeOf(pipe_t pipe)
{
    switch (pipe) {
        case PIPE_V: return ascend_twin::Pipe::kV;
        case PIPE_M: return ascend_twin::Pipe::kM;
        case PIPE_MTE1: return ascend_twin::Pipe::kMte1;
        case PIPE_MTE2: return ascend_twin::Pipe::kMte2;
        case PIPE_MTE3: return ascend_twin::Pipe::kMte3;
        case PIPE_FIX: return ascend_twin::Pipe::kFix;
        default: return ascend_twin::Pipe::kS;
    }
}

}  // namespace twin_detail

// Orders the pipe's own instructions (PIPE_ALL: every pipe waits for every pipe).
template <pipe_t pipe>
__aicore__ inline void PipeBarrier()
{
    static_assert(pipe != PIPE_S, "PipeBarrier does not take PIPE_S");
    if constexpr (pipe == PIPE_ALL) {
        ascend_twin::BarrierAll();
    } else {
        ascend_twin::Barrier(twin_detail::PipeOf(pipe));
    }
}

// The src pipe signals once everything it was given before has completed ...
template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID)
{
    twin_detail::CheckEventId("SetFlag", eventID);
    twin_detail::CheckKernelEventId("SetFlag", static_cast<uint32_t>(event), eventID);
    constexpr twin_detail::EventPipes p = twin_detail::Pipes(event);
    ascend_twin::SetFlag(p.name, p.src, p.dst, eventID, static_cast<uint32_t>(event));
}

// ... and the dst pipe waits for that signal before running what it is given next.
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID)
{
    twin_detail::CheckEventId("WaitFlag", eventID);
    twin_detail::CheckKernelEventId("WaitFlag", static_cast<uint32_t>(event), eventID);
    constexpr twin_detail::EventPipes p = twin_detail::Pipes(event);
    ascend_twin::WaitFlag(p.name, p.src, p.dst, eventID, static_cast<uint32_t>(event));
}


namespace twin_detail {

// The pipes A2 synchronises between (SUPPORTED_PIPE of impl/basic_api/kernel_event.h for dav-2201: PIPE_ALL is
// not one).
constexpr bool IsSupportedPipe(pipe_t pipe)
{
    return pipe == PIPE_S || pipe == PIPE_V || pipe == PIPE_M || pipe == PIPE_MTE1 || pipe == PIPE_MTE2 ||
           pipe == PIPE_MTE3 || pipe == PIPE_FIX;
}

// The pairs of distinct A2 pipes no HardEvent names: set_flag(src, dst, id) has a flag for them too (the real
// TQueSync accepts them); the twin keeps their flags after the HardEvent ones.
inline constexpr EventPipes kUnnamedPairs[] = {
    {"S_M", event_table::P::kS, event_table::P::kM},        {"S_MTE1", event_table::P::kS, event_table::P::kMte1},
    {"S_FIX", event_table::P::kS, event_table::P::kFix},    {"MTE1_S", event_table::P::kMte1, event_table::P::kS},
    {"V_FIX", event_table::P::kV, event_table::P::kFix},    {"FIX_V", event_table::P::kFix, event_table::P::kV},
    {"M_MTE3", event_table::P::kM, event_table::P::kMte3},  {"MTE3_M", event_table::P::kMte3, event_table::P::kM},
    {"MTE3_FIX", event_table::P::kMte3, event_table::P::kFix},
};

// The flag set_flag(src, dst, id) sets, as an index of the twin's flag table: the HardEvent's own for a pair a
// HardEvent names (SetFlag<HardEvent::MTE2_V>(id) and TQueSync<PIPE_MTE2, PIPE_V>::SetFlag(id) are the same
// flag), else HardEvent::MAX + its place in kUnnamedPairs.
constexpr uint32_t FlagOfPipes(pipe_t src, pipe_t dst)
{
    for (uint32_t e = 0; e < static_cast<uint32_t>(HardEvent::MAX); ++e) {
        if (event_table::kEventPipes[e].src == PipeOf(src) && event_table::kEventPipes[e].dst == PipeOf(dst)) {
            return e;
        }
    }
    for (uint32_t i = 0; i < sizeof(kUnnamedPairs) / sizeof(kUnnamedPairs[0]); ++i) {
        if (kUnnamedPairs[i].src == PipeOf(src) && kUnnamedPairs[i].dst == PipeOf(dst)) {
            return static_cast<uint32_t>(HardEvent::MAX) + i;
        }
    }
    return ~0u;  // not reached for two distinct supported pipes
}

constexpr EventPipes FlagPipes(uint32_t flag)
{
    return flag < static_cast<uint32_t>(HardEvent::MAX) ? event_table::kEventPipes[flag]
                                                        : kUnnamedPairs[flag - static_cast<uint32_t>(HardEvent::MAX)];
}

}  // namespace twin_detail

// A flag from pipe src to pipe dst as an object (include/basic_api/kernel_operator_block_sync_intf.h,
// impl/basic_api/kernel_tquesync_impl.h; docs 核内同步/TQueSync): SetFlag(id) on src, WaitFlag(id) on dst, ids
// 0..7 on A2, in pairs. The impl's static_asserts: src != dst, both pipes supported.
template <pipe_t src, pipe_t dst>
class TQueSync {
    static_assert(src != dst, "TQueSync: src/dst pipe cannot be same");
    static_assert(twin_detail::IsSupportedPipe(src), "TQueSync: src pipe not supported (A2: PIPE_S, PIPE_V, PIPE_M, "
                                                     "PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX)");
    static_assert(twin_detail::IsSupportedPipe(dst), "TQueSync: dst pipe not supported (A2: PIPE_S, PIPE_V, PIPE_M, "
                                                     "PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX)");
    static constexpr uint32_t kIndex = twin_detail::FlagOfPipes(src, dst);
    static constexpr bool kNamed = kIndex < static_cast<uint32_t>(HardEvent::MAX);
    static_assert(kIndex != ~0u, "TQueSync: a pair of distinct supported pipes has a flag");

public:
    // The same rules as SetFlag<HardEvent>/WaitFlag<HardEvent>, named after TQueSync.
    __aicore__ inline void SetFlag(int8_t id)  // TEventID
    {
        constexpr const char* kCall = "TQueSync::SetFlag";
        twin_detail::CheckEventId(kCall, id);
        if constexpr (kNamed) twin_detail::CheckKernelEventId(kCall, kIndex, id);
        constexpr twin_detail::EventPipes p = twin_detail::FlagPipes(kIndex);
        if (!ascend_twin::TrySetFlag(p.name, p.src, id, kIndex)) {
            ascend_twin::FailF(kCall, "every SetFlag is matched by a WaitFlag before the same flag is set again",
                               "SetFlag(%d) of the %s flag while it is still set: the WaitFlag for the previous "
                               "SetFlag is missing",
                               static_cast<int>(id), p.name);
        }
    }
    __aicore__ inline void WaitFlag(int8_t id)  // TEventID
    {
        constexpr const char* kCall = "TQueSync::WaitFlag";
        twin_detail::CheckEventId(kCall, id);
        if constexpr (kNamed) twin_detail::CheckKernelEventId(kCall, kIndex, id);
        constexpr twin_detail::EventPipes p = twin_detail::FlagPipes(kIndex);
        if (!ascend_twin::TryWaitFlag(p.dst, id, kIndex)) {
            ascend_twin::FailF(kCall, "every WaitFlag waits for a SetFlag made before it",
                               "WaitFlag(%d) of the %s flag with no SetFlag of it before (the NPU would wait "
                               "forever unless a later SetFlag releases it; the twin requires the SetFlag first)",
                               static_cast<int>(id), p.name);
        }
    }
};

}  // namespace AscendC

// TPipe, TQue/TQueBind and TBuf: UB allocation and the queue discipline between pipeline stages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_int4.h"
#include "twin/kernel_local_alloc.h"
#include "twin/kernel_sync.h"
#include "twin/kernel_sys_var.h"
#include "twin/kernel_tensor.h"
#include "twin/runtime.h"

namespace AscendC {

template <TPosition pos>
class TBuf;

// A buffer's record in a pool (impl/basic_api/kernel_tensor_base.h, A2's fields): what a custom TBufPool
// (EXTERN_IMPL_BUFPOOL) hands its queues and TBufs as TBufHandles through GetBufHandle, and what their
// InitBufHandle fills in. The twin's queues keep their own state; they write these fields as A2 does.
using TTagType = int32_t;
using TBufHandle = uint8_t*;
constexpr TEventID INVALID_TEVENTID = static_cast<TEventID>(-1);
enum class TBufState : uint8_t { FREE = 0, OCCUPIED, ENQUE, DEQUE };
struct TBufType {
    TBufState state;
    HardEvent freeBufEvt;
    TEventID enQueEvtID;
    TEventID freeBufEvtID;
    uint32_t address;
    uint32_t dataLen;
    TTagType usertag;
};
// A TBufPool's bookkeeping (impl/basic_api/kernel_tpipe_base.h, A2's fields), the member EXTERN_IMPL_BUFPOOL
// declares: startAddr_/maxLen_ the pool's UB range (set by TPipe::InitBufPool), maxAddr_ the next free address
// and curBufSize_ the handles taken, both kept by the custom pool's own InitBuffer.
template <uint32_t bufIDSize = 4>
struct TBufPoolImpl {
    struct TBufType buf_[bufIDSize];
    uint32_t startAddr_;
    uint32_t maxAddr_;
    uint32_t maxLen_;
    uint8_t curBufSize_;
    uint8_t isReset_;
};

namespace twin_detail {

constexpr uint32_t kMaxPipeBuffers = 64;  // QBUF_MAX_LEN: buffers (TQue buffers and TBufs) per TPipe
constexpr int32_t kMaxEventIds = 8;       // QUE_MAX_EVENT: event ids per HardEvent on A2 (kernel_macros.h)
constexpr uint32_t kHardEvents = static_cast<uint32_t>(HardEvent::MAX);

enum class SlotState : uint8_t { kFree, kAllocated, kQueued };

// "VECIN", or "VECIN->VECOUT" for a TQueBind, for messages.
struct QueueLabel {
    char text[40];
};
QueueLabel QueueName(TPosition src, TPosition dst);
const char* PositionName(TPosition pos);

// The pipe that fills a buffer at a position, and the pipe that consumes it from there. A queue's EnQue is
// a flag from the producer of its source position to the consumer of its destination position (VECIN:
// MTE2 -> V, VECOUT: V -> MTE3, VECIN->VECOUT: MTE2 -> MTE3), its FreeTensor the flag back that the
// buffer's next AllocTensor waits for: enQueEvt and freeBufEvt of the real TQueBind (GetQueEvt).
constexpr ascend_twin::Pipe Producer(TPosition pos)
{
    using P = ascend_twin::Pipe;
    switch (pos) {
        case TPosition::VECIN: case TPosition::A1: case TPosition::B1: case TPosition::C1: return P::kMte2;
        case TPosition::A2: case TPosition::B2: case TPosition::C2: return P::kMte1;
        case TPosition::CO1: return P::kM;
        case TPosition::CO2: return P::kFix;
        default: return P::kV;
    }
}

constexpr ascend_twin::Pipe Consumer(TPosition pos)
{
    using P = ascend_twin::Pipe;
    switch (pos) {
        case TPosition::VECOUT: case TPosition::CO2: return P::kMte3;
        case TPosition::A1: case TPosition::B1: case TPosition::C1: return P::kMte1;
        case TPosition::A2: case TPosition::B2: case TPosition::C2: return P::kM;
        case TPosition::CO1: return P::kFix;
        default: return P::kV;
    }
}

// The HardEvent from pipe a to pipe b.
constexpr HardEvent EventBetween(ascend_twin::Pipe a, ascend_twin::Pipe b)
{
    for (uint32_t e = 0; e < kHardEvents; ++e) {
        const EventPipes p = Pipes(static_cast<HardEvent>(e));
        if (p.src == a && p.dst == b) return static_cast<HardEvent>(e);
    }
    return HardEvent::MAX;
}

// The position a queue's buffers and events belong to (GetPosition(src, dst) of the real API).
constexpr TPosition QueuePosition(TPosition src, TPosition dst)
{
    return dst == TPosition::GM || dst == TPosition::CO2 ? src : dst;
}

// UB carving and the buffer budget shared by every InitBuffer of one TPipe.
class UbAllocator {
public:
    // Checks len > 0 and the buffer count, then carves num buffers of len bytes (rounded up to 32) and
    // returns the first one's offset.
    uint32_t Allocate(const char* call, uint32_t num, uint32_t len);
    // Carves one range of bytes (rounded up to 32) that counts as no buffer: a TBufPool's memory.
    uint32_t AllocatePool(const char* call, uint32_t bytes);
    void Reset()
    {
        next_ = base_;
        buffers_ = 0;
    }
    uint64_t End() const { return next_; }  // UB offset past the last buffer handed out
    // A TBufPool's allocator: [base, base + len) of UB, at most maxBuffers buffers.
    void Window(uint64_t base, uint64_t len, uint32_t maxBuffers)
    {
        base_ = next_ = base;
        limit_ = base + len;
        maxBuffers_ = maxBuffers;
        buffers_ = 0;
    }
    uint64_t Base() const { return base_; }
    uint64_t Limit() const { return limit_; }
    uint32_t MaxBuffers() const { return maxBuffers_; }
    uint32_t Buffers() const { return buffers_; }

private:
    uint64_t base_ = 0;
    uint64_t next_ = 0;
    uint64_t limit_ = 0;  // 0: the whole UB (a TPipe)
    uint32_t buffers_ = 0;
    uint32_t maxBuffers_ = kMaxPipeBuffers;
};

// Who took an event id from a TPipe's pool.
enum class EventHolder : uint8_t { kKernel, kQueueEnQue, kQueueFree };

// A TPipe's event ids, 8 per HardEvent (the real eventPool_): AllocEventID takes one for the kernel, and
// the queues take theirs from the same pool (kernel_tquebind_impl.h): a buffer holds an enQueEvt id from
// EnQue to DeQue and a freeBufEvt id from FreeTensor to its next AllocTensor (or FreeAllEvent); a depth-0
// queue holds both of every buffer from InitBuffer on. A kernel's hand-picked SetFlag/WaitFlag id that a
// queue holds is a collision, and a pool with no id left is the failure the NPU's AllocEventID meets.
class EventPool {
public:
    int8_t Alloc(const char* call, HardEvent evt, EventHolder holder);
    int8_t First(const char* call, HardEvent evt) const;  // the lowest free id (FetchEventID)
    void Release(HardEvent evt, int32_t id);
    bool HeldByQueue(HardEvent evt, int32_t id) const
    {
        return (queue_[static_cast<uint32_t>(evt)] >> id) & 1u;
    }
    // Destroy/Reset: waits the flags freed queue buffers still have set (DestroyWithoutPipeAll), then
    // (Reset) frees every id.
    void WaitQueueFreeFlags();
    void Clear();

private:
    [[noreturn]] void Exhausted(const char* call, HardEvent evt) const;

    uint8_t used_[kHardEvents] = {};       // bit id: taken
    uint8_t queue_[kHardEvents] = {};      // taken by a queue (EnQue or FreeTensor)
    uint8_t queueFree_[kHardEvents] = {};  // of those, freeBufEvt ids of freed buffers
};

// What a TPipe hands its queues and buffers. `generation` changes at the TPipe's Reset and Destroy: the
// queues and TBufs it set up before need InitBuffer again.
struct PipeResources {
    UbAllocator ub;
    uint64_t cubeNext[6] = {};  // bytes handed out in L1, L0A, L0B, L0C, BT, FB (twin/kernel_cube_basic.h)
    uint64_t tscmUsed = 0;      // bytes TSCM queues took from the top of L1 down (TPipe's tscmBufferPtr_)
    EventPool events;
    uint32_t generation = 0;
    // A TBufPool's resources: its own UB window, the TPipe's event ids and set-up generation.
    PipeResources* pipe = nullptr;
    EventPool& Events() { return pipe != nullptr ? pipe->events : events; }
    uint32_t Generation() const { return pipe != nullptr ? pipe->generation : generation; }
};

// The cube core's memories: a queue or TBuf at A1/B1/C1, A2, B2, CO1 or C2 takes its buffers there
// (twin/src/cube_basic.cpp), every other position in UB.
constexpr int32_t CubeMemoryOf(TPosition pos)
{
    switch (pos) {
        case TPosition::A1: case TPosition::B1: case TPosition::C1: return 0;  // L1
        case TPosition::A2: return 1;                                          // L0A
        case TPosition::B2: return 2;                                          // L0B
        case TPosition::CO1: return 3;                                         // L0C
        case TPosition::C2: return 4;                                          // BT
        case TPosition::C2PIPE2GM: return 5;                                   // FB (quantisation parameters)
        default: return -1;
    }
}
uint32_t CubeAllocate(const char* call, PipeResources& res, TPosition pos, uint32_t num, uint32_t len);
uint8_t* CubeBase(TPosition pos);
// A static LocalTensor (pos, addr, tileSize) in a cube memory: its bytes at addr there.
uint8_t* StaticCubeTensor(const char* call, TPosition pos, uint32_t addr, uint64_t bytes);
uint32_t CubeBufferBytes(TPosition pos, uint32_t len);  // a buffer's size as allocated (aligned)
// TSCM queues (TSCM<pos, depth> = TQueBind<pos, TPosition::TSCM, depth>): their buffers in the AI Cube core's L1,
// from its top down (A2's TPipe::TscmInitBuffer): on the AIC of the kernel's own L1; on an AIV of a MIX kernel of
// its block's AIC's L1, each AIV its own share (GetTaskRation() shares, the AIV's the (ratio - GetSubBlockIdx())-th
// from the top). TscmAllocate returns the first buffer's L1 address (each buffer's length rounded up to 32 bytes);
// TscmBase where address 0 is for this core: the L1 on the AIC, on an AIV a stand-in range the AIV cannot read
// (the data is in the AIC's L1; DataCopy into it is a message to the AIC, twin/src/matmul_mix.cpp).
uint32_t TscmAllocate(const char* call, PipeResources& res, uint32_t num, uint32_t len);
uint8_t* TscmBase();

// A queue's flags: SetFlag/WaitFlag with the id from the pool.
void QueueSetFlag(const char* call, HardEvent evt, int32_t id);
void QueueWaitFlag(const char* call, HardEvent evt, int32_t id);

// The core's count of TPipe set-ups: TPipe::Reset and Destroy start a new one (NextPipeGeneration returns
// it), after which queues and TBufs are given buffers again by InitBuffer. A queue's destructor compares
// its own with the core's (its TPipe may be gone by then).
uint32_t PipeGeneration();
uint32_t NextPipeGeneration();

// The twin's side of a pool written with EXTERN_IMPL_BUFPOOL (a member the macro declares): the UB range its
// TPipe::InitBufPool gave it, which handle serves which queue or TBuf, and the queues whose free flags its
// Reset waits. Rules (each error names the call): the pool is set up by InitBufPool before a queue takes a
// buffer from it; a buffer's handle is one of the pool's bufIDSize handles; a handle serves one queue or TBuf
// until the pool's Reset; a buffer lies inside the pool's memory (the twin is stricter than A2 here, which
// does not check: a buffer outside the pool overlaps memory the TPipe hands to others).
template <uint32_t bufIDSize>
class ExternPool {
public:
    explicit ExternPool(const TBufType* handles) : handles_(handles) {}
    ExternPool(const ExternPool&) = delete;
    ExternPool& operator=(const ExternPool&) = delete;

    void InitPool(PipeResources& pipe, uint64_t offset, uint32_t len)
    {
        res_.pipe = &pipe;
        base_ = offset;
        len_ = (static_cast<uint64_t>(len) + 31u) / 32u * 32u;
        initialised_ = true;
        Forget();
    }
    bool Initialised() const { return initialised_; }
    PipeResources& Pipe() { return *res_.pipe; }
    uint64_t Base() const { return base_; }
    uint64_t Length() const { return len_; }

    // A queue's or TBuf's InitBufHandle: the handle's buffer is [addr, addr + bytes) of UB.
    PipeResources& Claim(const char* call, const TBufType* handle, const void* owner, uint64_t addr, uint64_t bytes)
    {
        if (!initialised_) {
            ascend_twin::Fail(call, "a custom TBufPool is set up by TPipe::InitBufPool (or a TBufPool's InitBufPool) "
                              "before it hands out buffers", "this pool has no memory (never set up, or Reset)");
        }
        const std::ptrdiff_t i = handle - handles_;
        if (i < 0 || i >= static_cast<std::ptrdiff_t>(bufIDSize)) {
            ascend_twin::FailF(call, "InitBufHandle's bufhandle is one of the custom TBufPool's handles "
                               "(GetBufHandle(0) to GetBufHandle(BUFID_SIZE - 1))",
                               "handle %td of a pool of BUFID_SIZE %u", i, static_cast<unsigned>(bufIDSize));
        }
        if (owner_[i] != nullptr && owner_[i] != owner) {
            ascend_twin::FailF(call, "each handle of a custom TBufPool serves one queue or TBuf until the pool's Reset",
                               "handle %td already serves another queue or TBuf (advance the pool's GetCurBufSize "
                               "with SetCurBufSize)", i);
        }
        if (addr < base_ || addr + bytes > base_ + len_) {
            ascend_twin::FailF(call, "a custom TBufPool's buffers lie inside the pool's memory (the twin is stricter "
                               "than A2, which does not check)",
                               "a buffer of %llu bytes at UB address %llu, the pool holds UB [%llu, %llu)",
                               static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(addr),
                               static_cast<unsigned long long>(base_), static_cast<unsigned long long>(base_ + len_));
        }
        owner_[i] = owner;
        return res_;
    }
    void Remember(void* queue, void (*reset)(void*, const char*))
    {
        for (uint32_t k = 0; k < members_; ++k) {
            if (queues_[k] == queue) return;
        }
        if (members_ < kMembers) {
            queues_[members_] = queue;
            resets_[members_] = reset;
            ++members_;
        }
    }
    // Reset: waits the free flags of the pool's queues (A2 waits each handle's freeBufEvtID), then the pool holds
    // no memory until it is set up again. At the pool's destruction the queues may be gone: the TPipe's own
    // Destroy waits their flags then.
    void Reset(const char* call, bool destroying)
    {
        if (!destroying && ascend_twin::InLaunch()) {
            for (uint32_t k = 0; k < members_; ++k) resets_[k](queues_[k], call);
        }
        initialised_ = false;
        base_ = len_ = 0;
        Forget();
    }

private:
    static constexpr uint32_t kMembers = bufIDSize < kMaxPipeBuffers ? bufIDSize : kMaxPipeBuffers;
    void Forget()
    {
        members_ = 0;
        for (uint32_t k = 0; k < bufIDSize; ++k) owner_[k] = nullptr;
    }

    const TBufType* handles_;
    PipeResources res_;
    uint64_t base_ = 0;
    uint64_t len_ = 0;
    bool initialised_ = false;
    const void* owner_[bufIDSize] = {};
    uint32_t members_ = 0;
    void* queues_[kMembers] = {};
    void (*resets_[kMembers])(void*, const char*) = {};
};

}  // namespace twin_detail

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
public:
    TQueBind() = default;
    TQueBind(const TQueBind&) = delete;
    TQueBind& operator=(const TQueBind&) = delete;

    ~TQueBind()
    {
        if (!ascend_twin::InLaunch() || num_ == 0 || generation_ != twin_detail::PipeGeneration()) return;
        for (int32_t i = 0; i < num_; ++i) {
            if (state_[i] != twin_detail::SlotState::kFree) {
                ascend_twin::DeferF("kernel end", "every tensor from AllocTensor is released with FreeTensor",
                                    "buffer %d of a %s queue was still %s when the kernel returned (the twin is "
                                    "stricter than the NPU here, which does not check; a leaked buffer is a bug when "
                                    "the code runs in a loop)",
                                    i, twin_detail::QueueName(src, dst).text,
                                    state_[i] == twin_detail::SlotState::kQueued ? "enqueued" : "allocated");
                return;
            }
        }
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor()
    {
        static_assert(depth != 0, "must use AllocTensor<LocalTensor&> api while tque's depth is zero");
        return TakeFree<T>();
    }

    // Depth 0 (in-place use): the tensor is bound to a free buffer.
    template <typename T>
    __aicore__ inline void AllocTensor(LocalTensor<T>& input)
    {
        static_assert(depth == 0, "can not AllocTensor in place while tque's depth is non zero");
        input = TakeFree<T>();
    }

    template <typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T>& tensor)
    {
        const int32_t i = OwnSlot("TQue::EnQue", tensor);
        if (state_[i] != twin_detail::SlotState::kAllocated) {
            ascend_twin::FailF("TQue::EnQue", "EnQue takes a tensor allocated and not yet enqueued",
                               "buffer %d is already in the queue", i);
        }
        if constexpr (depth != 0) {  // depth counts consecutive EnQues; depth 0 is in-place use
            if (count_ >= depth) {
                ascend_twin::FailF("TQue::EnQue", "no more consecutive EnQues than the queue depth",
                                   "the %s queue of depth %d is full (DeQue before enqueuing more; the twin is "
                                   "stricter than the NPU here, whose release build silently overwrites the oldest "
                                   "entry)",
                                   twin_detail::QueueName(src, dst).text, static_cast<int>(depth));
            }
            if (!AivTscm()) {
                enqueId_[i] = res_->Events().Alloc("TQue::EnQue", kEnQueEvt, twin_detail::EventHolder::kQueueEnQue);
            }
            fifo_[(head_ + count_) % depth] = i;
            ++count_;
        }
        if (!AivTscm()) twin_detail::QueueSetFlag("TQue::EnQue", kEnQueEvt, enqueId_[i]);
        state_[i] = twin_detail::SlotState::kQueued;
        return true;
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> DeQue()
    {
        static_assert(depth != 0, "must use DeQue<LocalTensor&> api while tque's depth is zero");
        CheckInitialised("TQue::DeQue");
        if (count_ == 0) {
            ascend_twin::FailF("TQue::DeQue", "DeQue takes from a queue holding a tensor",
                               "the %s queue is empty (a missing EnQue; on the NPU this call would wait forever)",
                               twin_detail::QueueName(src, dst).text);
        }
        const int32_t i = fifo_[head_];
        head_ = (head_ + 1) % depth;
        --count_;
        if (!AivTscm()) {
            twin_detail::QueueWaitFlag("TQue::DeQue", kEnQueEvt, enqueId_[i]);
            res_->Events().Release(kEnQueEvt, enqueId_[i]);
        }
        enqueId_[i] = -1;
        state_[i] = twin_detail::SlotState::kAllocated;
        return Tensor<T>(i);
    }

    // Depth 0: waits for the EnQue of the tensor's own buffer (no FIFO: the tensor keeps its buffer).
    template <typename T>
    __aicore__ inline void DeQue(LocalTensor<T>& input)
    {
        static_assert(depth == 0, "can not DeQue in place while tque's depth is non zero");
        const int32_t i = OwnSlot("TQue::DeQue", input);
        if (state_[i] != twin_detail::SlotState::kQueued) {
            ascend_twin::FailF("TQue::DeQue", "DeQue takes a tensor that was enqueued",
                               "buffer %d was not enqueued (a missing EnQue; on the NPU this call would wait forever)",
                               i);
        }
        if (!AivTscm()) twin_detail::QueueWaitFlag("TQue::DeQue", kEnQueEvt, enqueId_[i]);
        state_[i] = twin_detail::SlotState::kAllocated;
    }

    template <typename T>
    __aicore__ inline void FreeTensor(LocalTensor<T>& tensor)
    {
        const int32_t i = OwnSlot("TQue::FreeTensor", tensor);
        if (state_[i] != twin_detail::SlotState::kAllocated) {
            ascend_twin::FailF("TQue::FreeTensor", "FreeTensor takes a tensor that is allocated and not enqueued",
                               "buffer %d %s", i,
                               state_[i] == twin_detail::SlotState::kFree ? "is already free (double FreeTensor)"
                                                                          : "is still in the queue (DeQue it first)");
        }
        if constexpr (!kTscm) {  // A2 sets no free flag for a TSCM queue (IsAivTscm in kernel_tquebind_impl.h)
            if constexpr (depth != 0) {
                freeId_[i] = res_->Events().Alloc("TQue::FreeTensor", kFreeBufEvt,
                                                  twin_detail::EventHolder::kQueueFree);
            }
            twin_detail::QueueSetFlag("TQue::FreeTensor", kFreeBufEvt, freeId_[i]);
        }
        state_[i] = twin_detail::SlotState::kFree;
    }

    // Waits for the free flags the queue's buffers hold and gives their event ids back to the TPipe, so
    // that more buffers than event ids can take turns at one position (TQue简介: TQue Buffer限制).
    __aicore__ inline void FreeAllEvent()
    {
        static_assert(depth != 0, "can not use FreeAllEvent api while depth is zero");
        CheckInitialised("TQue::FreeAllEvent");
        for (int32_t i = 0; i < num_; ++i) {
            if (state_[i] == twin_detail::SlotState::kQueued) {
                ascend_twin::FailF("TQue::FreeAllEvent", "FreeAllEvent runs with no tensor in the queue",
                                   "buffer %d of the %s queue is enqueued (DeQue it first; the twin is stricter than "
                                   "the NPU here, where only the debug build asserts it)", i,
                                   twin_detail::QueueName(src, dst).text);
            }
            if (freeId_[i] >= 0) {
                twin_detail::QueueWaitFlag("TQue::FreeAllEvent", kFreeBufEvt, freeId_[i]);
                res_->Events().Release(kFreeBufEvt, freeId_[i]);
                freeId_[i] = -1;
            }
        }
    }

    __aicore__ inline bool VacantInQue() const { return count_ < depth; }
    __aicore__ inline bool HasTensorInQue() const { return count_ > 0; }
    __aicore__ inline int32_t GetTensorCountInQue() const { return count_; }

    // Set-up by a custom TBufPool (EXTERN_IMPL_BUFPOOL): the queue's num buffers are the handles from
    // startBufhandle on; InitBufHandle gives the one bufhandle names its UB address and length (A2 ignores its
    // bufPool and index arguments: the handle names the buffer). Rules (the error names each): num 1 to 64;
    // InitStartBufHandle before InitBufHandle; bufhandle one of the queue's num handles and of the pool's;
    // len > 0 (A2's check); and before the queue is used every one of its buffers has been given an address.
    __aicore__ inline void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len)
    {
        const char* call = "TQue::InitStartBufHandle";
        if (num == 0 || num > kSlots) {
            ascend_twin::FailF(call, "a queue has 1 to 64 buffers (QBUF_MAX_LEN)", "num %u",
                               static_cast<unsigned>(num));
        }
        (void)len;  // A2 keeps num * len for its debug checks only; each buffer's length comes with InitBufHandle
        start_ = reinterpret_cast<TBufType*>(startBufhandle);
        for (int32_t k = 0; k < num; ++k) {
            state_[k] = twin_detail::SlotState::kFree;
            enqueId_[k] = -1;
            freeId_[k] = -1;
        }
        head_ = count_ = nextAlloc_ = 0;
        num_ = num;
        external_ = true;
        setMask_ = 0;
        res_ = nullptr;
    }

    template <typename T>
    __aicore__ inline void InitBufHandle(T* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                                         uint32_t len)
    {
        const char* call = "TQue::InitBufHandle";
        (void)index;
        if (!external_ || start_ == nullptr) {
            ascend_twin::Fail(call, "InitStartBufHandle names a queue's handles before its InitBufHandle",
                              "this queue has no InitStartBufHandle");
        }
        if (len == 0) ascend_twin::Fail(call, "InitBufHandle's len is larger than 0", "len 0");
        auto* handle = reinterpret_cast<TBufType*>(bufhandle);
        const std::ptrdiff_t slot = handle - start_;
        if (slot < 0 || slot >= num_) {
            ascend_twin::FailF(call, "InitBufHandle's bufhandle is one of the num handles from InitStartBufHandle",
                               "the handle is %td handles from the queue's start handle, the queue has %d buffers",
                               slot, static_cast<int>(num_));
        }
        const uint32_t aligned = (len + 31u) / 32u * 32u;
        auto& pool = ascend_twin::internal::Access::ExternPool(*bufPool);
        twin_detail::PipeResources& res = pool.Claim(call, handle, this, curPoolAddr, aligned);
        pool.Remember(this, [](void* q, const char* c) { static_cast<TQueBind*>(q)->TwinPoolReset(c); });
        if (res_ != nullptr && res_ != &res) {
            ascend_twin::Fail(call, "a queue's buffers come from one custom TBufPool",
                              "this queue already has buffers from another pool");
        }
        res_ = &res;
        generation_ = res.Generation();
        handle->state = TBufState::FREE;  // as A2 fills the record
        handle->freeBufEvt = kFreeBufEvt;
        handle->enQueEvtID = INVALID_TEVENTID;
        handle->freeBufEvtID = INVALID_TEVENTID;
        handle->address = curPoolAddr;
        handle->dataLen = aligned;
        handle->usertag = -1;
        offset_[slot] = curPoolAddr;
        slotLen_[slot] = aligned;
        if constexpr (depth == 0) {  // both event ids from the set-up on, as TwinInit takes them
            if (!((setMask_ >> slot) & 1u)) {
                enqueId_[slot] = res.Events().Alloc(call, kEnQueEvt, twin_detail::EventHolder::kQueueEnQue);
                freeId_[slot] = res.Events().Alloc(call, kFreeBufEvt, twin_detail::EventHolder::kQueueFree);
                twin_detail::QueueSetFlag(call, kFreeBufEvt, freeId_[slot]);
            }
        }
        setMask_ |= uint64_t{1} << slot;
    }

private:
    friend struct ascend_twin::internal::Access;

    // TBufPool::Reset: waits the free flags of the queue's freed buffers and gives their ids back (the real
    // Reset waits each buffer's freeBufEvt), so that another pool sharing the memory may take it over.
    void TwinPoolReset(const char* call)
    {
        if constexpr (depth != 0) {
            for (int32_t i = 0; i < num_; ++i) {
                if (freeId_[i] >= 0) {
                    twin_detail::QueueWaitFlag(call, kFreeBufEvt, freeId_[i]);
                    res_->Events().Release(kFreeBufEvt, freeId_[i]);
                    freeId_[i] = -1;
                }
            }
        }
    }

    static constexpr TPosition kPosition = twin_detail::QueuePosition(src, dst);
    // A TSCM queue (TSCM<pos, depth>): its buffers in L1 (TPipe::TscmInitBuffer), its flags GM -> L1's on the AIC;
    // on an AIV of A2 the queue sets and waits no flags (the AIV only sends the AIC messages).
    static constexpr bool kTscm = kPosition == TPosition::TSCM;
    static_assert(!kTscm || src == TPosition::GM,
                  "the twin models TSCM queues whose data comes from GM (TSCM<TPosition::GM, depth>); from VECOUT (UB "
                  "-> L1 through the AIC) is not modelled");
    static constexpr HardEvent kEnQueEvt =
        kTscm ? HardEvent::MTE2_MTE1 : twin_detail::EventBetween(twin_detail::Producer(src), twin_detail::Consumer(dst));
    static constexpr HardEvent kFreeBufEvt =
        kTscm ? HardEvent::MTE1_MTE2 : twin_detail::EventBetween(twin_detail::Consumer(dst), twin_detail::Producer(src));
    static bool AivTscm() { return kTscm && ascend_twin::CurrentCore().coreType == AIV; }
    static_assert(kEnQueEvt != HardEvent::MAX && kFreeBufEvt != HardEvent::MAX,
                  "the twin has no HardEvent between this queue's pipes");

    // Called by TPipe::InitBuffer (again after TPipe::Reset).
    void TwinInit(const char* call, twin_detail::PipeResources& res, uint8_t num, uint32_t len)
    {
        if (num_ != 0 && res_ == &res && generation_ == res.Generation()) {
            ascend_twin::Fail(call, "InitBuffer runs once per queue (again only after TPipe::Reset)",
                              "this queue already has buffers");
        }
        if (num == 0) ascend_twin::Fail(call, "a queue has at least 1 buffer", "0 buffers requested");
        constexpr bool kCube = twin_detail::CubeMemoryOf(kPosition) >= 0;
        const uint32_t aligned = kCube ? twin_detail::CubeBufferBytes(kPosition, len) : (len + 31u) / 32u * 32u;
        const uint32_t first = kTscm   ? twin_detail::TscmAllocate(call, res, num, len)
                               : kCube ? twin_detail::CubeAllocate(call, res, kPosition, num, len)
                                       : res.ub.Allocate(call, num, len);  // at most kMaxPipeBuffers in all
        for (int32_t k = 0; k < num; ++k) {
            state_[k] = twin_detail::SlotState::kFree;
            enqueId_[k] = -1;
            freeId_[k] = -1;
        }
        head_ = count_ = nextAlloc_ = 0;
        res_ = &res;
        generation_ = res.Generation();
        for (uint8_t k = 0; k < num; ++k) {
            offset_[k] = first + k * aligned;
            slotLen_[k] = aligned;
        }
        num_ = num;
        external_ = false;
        start_ = nullptr;
        if constexpr (depth == 0 && !kTscm) {
            // A depth-0 queue takes both event ids of every buffer at InitBuffer and keeps them; the free
            // flag starts set, so the first AllocTensor does not wait (kernel_tpipe_impl.h InitBuffer).
            for (int32_t k = 0; k < num_; ++k) {
                enqueId_[k] = res.Events().Alloc(call, kEnQueEvt, twin_detail::EventHolder::kQueueEnQue);
                freeId_[k] = res.Events().Alloc(call, kFreeBufEvt, twin_detail::EventHolder::kQueueFree);
                twin_detail::QueueSetFlag(call, kFreeBufEvt, freeId_[k]);
            }
        }
    }

    template <typename T>
    LocalTensor<T> TakeFree()
    {
        CheckInitialised("TQue::AllocTensor");
        for (int32_t k = 0; k < num_; ++k) {
            const int32_t i = (nextAlloc_ + k) % num_;
            if (state_[i] == twin_detail::SlotState::kFree) {
                state_[i] = twin_detail::SlotState::kAllocated;
                nextAlloc_ = (i + 1) % num_;
                if (freeId_[i] >= 0) {  // waits for the FreeTensor that released the buffer
                    twin_detail::QueueWaitFlag("TQue::AllocTensor", kFreeBufEvt, freeId_[i]);
                    if constexpr (depth != 0) {
                        res_->Events().Release(kFreeBufEvt, freeId_[i]);
                        freeId_[i] = -1;
                    }
                }
                return Tensor<T>(i);
            }
        }
        ascend_twin::FailF("TQue::AllocTensor", "no more live tensors than the queue's buffers",
                           "all %d buffers of the %s queue are in use (a FreeTensor is missing; on the NPU this call "
                           "would wait forever)",
                           static_cast<int>(num_), twin_detail::QueueName(src, dst).text);
    }

    template <typename T>
    LocalTensor<T> Tensor(int32_t i)
    {
        LocalTensor<T> t;
        uint8_t* base = kTscm                                      ? twin_detail::TscmBase()
                        : twin_detail::CubeMemoryOf(kPosition) >= 0 ? twin_detail::CubeBase(kPosition)
                                                                    : ascend_twin::CurrentCore().ub;
        twin_detail::TwinBind(t, reinterpret_cast<T*>(base + offset_[i]), slotLen_[i] / sizeof(T), kPosition,
                              {this, i});
        return t;
    }

    void CheckInitialised(const char* call) const
    {
        if (num_ == 0) {
            ascend_twin::FailF(call, "a queue is given buffers by TPipe::InitBuffer before use",
                               "the %s queue has no buffers", twin_detail::QueueName(src, dst).text);
        }
        if (external_ && setMask_ != (num_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << num_) - 1)) {
            int32_t unset = 0;
            while ((setMask_ >> unset) & 1u) ++unset;
            ascend_twin::FailF(call, "every buffer of a queue a custom TBufPool sets up is given its address by "
                               "InitBufHandle (the handle InitStartBufHandle's start + i for buffer i)",
                               "buffer %d of the %s queue (%d buffers) has none", static_cast<int>(unset),
                               twin_detail::QueueName(src, dst).text, static_cast<int>(num_));
        }
        if (generation_ != res_->Generation()) {
            ascend_twin::FailF(call, "a queue is given buffers by TPipe::InitBuffer again after TPipe::Reset",
                               "the %s queue's buffers went with the Reset", twin_detail::QueueName(src, dst).text);
        }
    }

    template <typename T>
    int32_t OwnSlot(const char* call, const LocalTensor<T>& tensor) const
    {
        CheckInitialised(call);
        const twin_detail::BufferRef& ref = twin_detail::TwinRef(tensor);
        if (ref.owner != this || ref.slot < 0) {
            ascend_twin::Fail(call, "a queue takes back only whole tensors it handed out",
                              ref.owner == this ? "the tensor is a sub-view (operator[]) of a queue buffer"
                                                : "the tensor comes from another queue or buffer");
        }
        return ref.slot;
    }

    static constexpr int32_t kSlots = static_cast<int32_t>(twin_detail::kMaxPipeBuffers);
    static constexpr int32_t kFifo = depth > 0 ? depth : 1;

    twin_detail::PipeResources* res_ = nullptr;
    uint32_t generation_ = 0;
    int32_t num_ = 0;
    // A custom TBufPool's queue: its handles from start_, setMask_ bit i once buffer i has an address.
    bool external_ = false;
    TBufType* start_ = nullptr;
    uint64_t setMask_ = 0;
    // Slots [0, num_) are set by TwinInit (or InitBufHandle).
    uint32_t offset_[kSlots];
    uint32_t slotLen_[kSlots];
    int8_t enqueId_[kSlots];  // the enQueEvt id a queued buffer holds (depth 0: held from InitBuffer on)
    int8_t freeId_[kSlots];   // the freeBufEvt id a freed buffer holds, -1: none
    twin_detail::SlotState state_[kSlots];
    int32_t fifo_[kFifo];
    int32_t head_ = 0;
    int32_t count_ = 0;
    int32_t nextAlloc_ = 0;
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

// A queue whose buffers are in L1, managed by the kernel (include/basic_api/kernel_tpipe.h): the data comes from
// `pos` (GM on the twin) and feeds a Matmul whose A is at TPosition::TSCM.
template <TPosition pos, int32_t depth = 1, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

// Scratch UB without queue semantics: Get() returns the same memory every time.
template <TPosition pos = TPosition::LCM>
class TBuf {
public:
    template <typename T>
    __aicore__ inline LocalTensor<T> Get()
    {
        if constexpr (std::is_same_v<T, int4b_t>) return Get<int8_t>().template ReinterpretCast<int4b_t>();
        return Get<T>(len_ / sizeof(T));
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> Get(uint32_t len)
    {
        // int4b_t: len elements, two to a byte (the device keeps len / 2 bytes).
        if constexpr (std::is_same_v<T, int4b_t>) return Get<int8_t>(len / 2).template ReinterpretCast<int4b_t>();
        CheckInitialised("TBuf::Get");
        if (static_cast<uint64_t>(len) * sizeof(T) > len_) {
            ascend_twin::FailF("TBuf::Get", "TBuf::Get asks for no more than the buffer holds",
                               "%u elements of %zu bytes asked from a buffer of %u bytes", len, sizeof(T),
                               static_cast<unsigned>(len_));
        }
        if (len == 0 || (static_cast<uint64_t>(len) * sizeof(T)) % 32 != 0) {
            ascend_twin::FailF("TBuf::Get", "TBuf::Get(len) asks for a positive whole number of 32-byte blocks",
                               "%u elements of %zu bytes", len, sizeof(T));
        }
        LocalTensor<T> t;
        twin_detail::TwinBind(t, reinterpret_cast<T*>(Base() + offset_), len, pos, {this, -1});
        return t;
    }

    // size elements starting bufOffset bytes into the buffer.
    template <typename T>
    __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset)
    {
        CheckInitialised("TBuf::GetWithOffset");
        if (bufOffset % 32 != 0) {
            ascend_twin::FailF("TBuf::GetWithOffset", "GetWithOffset's bufOffset is a multiple of 32 bytes",
                               "bufOffset %u", bufOffset);
        }
        if (static_cast<uint64_t>(bufOffset) + static_cast<uint64_t>(size) * sizeof(T) > len_) {
            ascend_twin::FailF("TBuf::GetWithOffset", "GetWithOffset stays inside the TBuf",
                               "%u elements of %zu bytes at offset %u of a buffer of %u bytes", size, sizeof(T), bufOffset,
                               static_cast<unsigned>(len_));
        }
        LocalTensor<T> t;
        twin_detail::TwinBind(t, reinterpret_cast<T*>(Base() + offset_ + bufOffset), size, pos,
                              {this, -1});
        return t;
    }

    // The queue calls of a TBuf do nothing but hand out its memory, as on the device.
    template <typename T>
    __aicore__ inline void EnQue(const LocalTensor<T>&)
    {
    }
    template <typename T>
    __aicore__ inline LocalTensor<T> DeQue()
    {
        return Get<T>();
    }
    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor()
    {
        return Get<T>();
    }
    template <typename T>
    __aicore__ inline void FreeTensor(LocalTensor<T>&)
    {
    }

    // Set-up by a custom TBufPool (EXTERN_IMPL_BUFPOOL): one handle (num 1, A2's check) and the buffer's length
    // in bytes; InitBufHandle (A2's TBuf inherits TQueBind's) gives the handle its UB address. Rules as the
    // queue's: InitStartBufHandle first, bufhandle the TBuf's handle and one of the pool's, len > 0.
    __aicore__ inline void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len)
    {
        const char* call = "TBuf::InitStartBufHandle";
        if (num != 1) {
            ascend_twin::FailF(call, "InitStartBufHandle's num is 1 for a TBuf", "num %u", static_cast<unsigned>(num));
        }
        if (len == 0) ascend_twin::Fail(call, "InitStartBufHandle's len is larger than 0", "len 0");
        start_ = reinterpret_cast<TBufType*>(startBufhandle);
        startLen_ = len;
        len_ = 0;  // no memory until InitBufHandle
        res_ = nullptr;
    }

    template <typename T>
    __aicore__ inline void InitBufHandle(T* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                                         uint32_t len)
    {
        const char* call = "TBuf::InitBufHandle";
        (void)index;
        if (start_ == nullptr) {
            ascend_twin::Fail(call, "InitStartBufHandle names a TBuf's handle before its InitBufHandle",
                              "this TBuf has no InitStartBufHandle");
        }
        if (len == 0) ascend_twin::Fail(call, "InitBufHandle's len is larger than 0", "len 0");
        auto* handle = reinterpret_cast<TBufType*>(bufhandle);
        if (handle != start_) {
            ascend_twin::FailF(call, "InitBufHandle's bufhandle is the handle from InitStartBufHandle",
                               "the handle is %td handles from the TBuf's", handle - start_);
        }
        const uint32_t aligned = (len + 31u) / 32u * 32u;
        // Get() hands out the InitStartBufHandle length from the address: both lie in the pool.
        const uint32_t reach = aligned > startLen_ ? aligned : startLen_;
        twin_detail::PipeResources& res =
            ascend_twin::internal::Access::ExternPool(*bufPool).Claim(call, handle, this, curPoolAddr, reach);
        handle->state = TBufState::FREE;
        handle->enQueEvtID = INVALID_TEVENTID;
        handle->freeBufEvtID = INVALID_TEVENTID;
        handle->address = curPoolAddr;
        handle->dataLen = aligned;
        handle->usertag = -1;
        offset_ = curPoolAddr;
        len_ = startLen_;
        res_ = &res;
        generation_ = res.Generation();
    }

private:
    friend struct ascend_twin::internal::Access;

    // Called by TPipe::InitBuffer (again after TPipe::Reset).
    void TwinInit(const char* call, twin_detail::PipeResources& res, uint32_t len)
    {
        if (len_ != 0 && res_ == &res && generation_ == res.Generation()) {
            ascend_twin::Fail(call, "InitBuffer runs once per TBuf (again only after TPipe::Reset)",
                              "this TBuf already has memory");
        }
        constexpr bool kCube = twin_detail::CubeMemoryOf(pos) >= 0;
        offset_ = kCube ? twin_detail::CubeAllocate(call, res, pos, 1, len) : res.ub.Allocate(call, 1, len);
        len_ = kCube ? twin_detail::CubeBufferBytes(pos, len) : (len + 31u) / 32u * 32u;
        res_ = &res;
        generation_ = res.Generation();
    }

    static uint8_t* Base()
    {
        if constexpr (twin_detail::CubeMemoryOf(pos) >= 0) return twin_detail::CubeBase(pos);
        else return ascend_twin::CurrentCore().ub;
    }

    void CheckInitialised(const char* call) const
    {
        if (len_ == 0) {
            ascend_twin::Fail(call, "a TBuf is given memory by TPipe::InitBuffer before use",
                              "this TBuf has no buffer");
        }
        if (generation_ != res_->Generation()) {
            ascend_twin::Fail(call, "a TBuf is given memory by TPipe::InitBuffer again after TPipe::Reset",
                              "its memory went with the Reset");
        }
    }

    const twin_detail::PipeResources* res_ = nullptr;
    uint32_t offset_ = 0;
    uint32_t len_ = 0;
    uint32_t generation_ = 0;
    TBufType* start_ = nullptr;  // a custom TBufPool's TBuf: its handle and InitStartBufHandle's len
    uint32_t startLen_ = 0;
};

// A part of UB set aside by TPipe::InitBufPool (or TBufPool::InitBufPool) and handed to queues and TBufs by
// its own InitBuffer (docs: TBufPool). Pools that share memory (the InitBufPool form with shareBuf) take
// turns: Reset waits the free flags of the pool's queues, after which another pool may use the bytes.
template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC ||
                      pos == TPosition::A1 || pos == TPosition::B1 || pos == TPosition::C1,
                  "TbufPool Position should be one of A1/B1/C1/VECIN/VECOUT/VECCALC");
    static_assert(bufIDSize <= 16, "a TBufPool holds at most 16 buffers (bufIDSize)");
    static_assert(twin_detail::CubeMemoryOf(pos) < 0,
                  "the twin's TBufPool holds UB (VECIN/VECOUT/VECCALC); an L1 pool (A1/B1/C1) is not modelled");

public:
    TBufPool() = default;
    TBufPool(const TBufPool&) = delete;
    TBufPool& operator=(const TBufPool&) = delete;

    template <class T>
    __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len)
    {
        CheckInitialised("TBufPool::InitBuffer");
        twin_detail::TwinInit(que, "TBufPool::InitBuffer", res_, num, len);
        Remember(&que, [](void* q, const char* call) { ascend_twin::internal::Access::PoolReset(*static_cast<T*>(q), call); });
        return true;
    }

    template <TPosition bufPos>
    __aicore__ inline bool InitBuffer(TBuf<bufPos>& buf, uint32_t len)
    {
        CheckInitialised("TBufPool::InitBuffer");
        twin_detail::TwinInit(buf, "TBufPool::InitBuffer", res_, len);
        return true;
    }

    template <class T>
    __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len)
    {
        CheckInitialised("TBufPool::InitBufPool");
        const uint32_t offset = res_.ub.AllocatePool("TBufPool::InitBufPool", len);
        ascend_twin::internal::Access::InitPool(bufPool, *res_.pipe, offset, len);
        return true;
    }

    // A pool over the same bytes as shareBuf (its start, at most its length).
    template <class T, class U>
    __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf)
    {
        CheckInitialised("TBufPool::InitBufPool");
        ascend_twin::internal::Access::ShareWith(shareBuf, "TBufPool::InitBufPool", bufPool, len);
        return true;
    }

    __aicore__ inline void Reset()
    {
        for (uint32_t i = 0; i < members_; ++i) resets_[i](queues_[i], "TBufPool::Reset");
    }

private:
    friend struct ascend_twin::internal::Access;
    template <TPosition, uint32_t>
    friend class TBufPool;

    // Twin internals (TPipe::InitBufPool and the pools' InitBufPool). The docs also limit a sub-pool's
    // bufIDSize to the buffers its parent has left; A2's implementation does not (each pool keeps its own
    // bufIDSize handles) and the official TBufPool sample exceeds it, so the twin does not either.
    void TwinInitPool(twin_detail::PipeResources& pipe, uint64_t offset, uint32_t len)
    {
        res_.pipe = &pipe;
        res_.ub.Window(offset, (static_cast<uint64_t>(len) + 31u) / 32u * 32u, bufIDSize);
        members_ = 0;
        initialised_ = true;
    }
    template <class T>
    void TwinShareWith(const char* call, T& other, uint32_t len)
    {
        CheckInitialised(call);
        const uint64_t mine = res_.ub.Limit() - res_.ub.Base();
        if ((static_cast<uint64_t>(len) + 31u) / 32u * 32u > mine) {
            ascend_twin::FailF(call, "a pool sharing another pool's memory is no longer than it",
                               "%u bytes asked, the shared pool holds %llu", len, static_cast<unsigned long long>(mine));
        }
        ascend_twin::internal::Access::InitPool(other, *res_.pipe, res_.ub.Base(), static_cast<uint32_t>(mine));
    }

    void CheckInitialised(const char* call) const
    {
        if (!initialised_) {
            ascend_twin::Fail(call, "a TBufPool is set up by TPipe::InitBufPool or TBufPool::InitBufPool before use",
                              "this pool has no memory");
        }
    }
    void Remember(void* queue, void (*reset)(void*, const char*))
    {
        if (members_ < 16) {
            queues_[members_] = queue;
            resets_[members_] = reset;
            ++members_;
        }
    }

    twin_detail::PipeResources res_;
    bool initialised_ = false;
    uint32_t members_ = 0;
    void* queues_[16] = {};
    void (*resets_[16])(void*, const char*) = {};
};

class TPipe {
public:
    // The most recently constructed TPipe of the core is what GetTPipePtr() returns.
    TPipe()
    {
        if (!ascend_twin::InLaunch()) return;
        ascend_twin::CurrentCore().tpipe = this;
        res_.generation = twin_detail::PipeGeneration();
    }
    // As the real destructor: Destroy() unless the kernel called it.
    ~TPipe()
    {
        if (!ascend_twin::InLaunch()) return;
        if (!destroyed_) Release(false);
        if (ascend_twin::CurrentCore().tpipe == this) ascend_twin::CurrentCore().tpipe = nullptr;
    }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    // Event ids for SetFlag/WaitFlag: 8 per HardEvent on A2, shared with the queues' EnQue/FreeTensor.
    template <HardEvent evt>
    __aicore__ inline TEventID AllocEventID()
    {
        return res_.events.Alloc("TPipe::AllocEventID", evt, twin_detail::EventHolder::kKernel);
    }

    template <HardEvent evt>
    __aicore__ inline void ReleaseEventID(TEventID id)
    {
        twin_detail::CheckEventId("TPipe::ReleaseEventID", id);
        if (res_.events.HeldByQueue(evt, id)) {
            ascend_twin::FailF("TPipe::ReleaseEventID", "ReleaseEventID gives back ids from AllocEventID",
                               "event id %d of HardEvent::%s is held by a TQue buffer (the twin is stricter than "
                               "the NPU here, which frees it and lets the queue's next flag collide)",
                               static_cast<int>(id), twin_detail::Pipes(evt).name);
        }
        res_.events.Release(evt, id);
    }

    template <HardEvent evt>
    __aicore__ inline TEventID FetchEventID()
    {
        return FetchEventID(evt);
    }

    __aicore__ inline TEventID FetchEventID(HardEvent evt) { return res_.events.First("TPipe::FetchEventID", evt); }

    template <class T>
    __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len)
    {
        twin_detail::TwinInit(que, "TPipe::InitBuffer", res_, num, len);
        return true;
    }

    template <TPosition pos>
    __aicore__ inline bool InitBuffer(TBuf<pos>& buf, uint32_t len)
    {
        twin_detail::TwinInit(buf, "TPipe::InitBuffer", res_, len);
        return true;
    }

    // A TBufPool of len bytes (rounded up to 32) from the TPipe's UB.
    template <class T>
    __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len)
    {
        const uint32_t offset = res_.ub.AllocatePool("TPipe::InitBufPool", len);
        ascend_twin::internal::Access::InitPool(bufPool, res_, offset, len);
        return true;
    }
    // A TBufPool over the same bytes as shareBuf (its start, at most its length).
    template <class T, class U>
    __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf)
    {
        ascend_twin::internal::Access::ShareWith(shareBuf, "TPipe::InitBufPool", bufPool, len);
        return true;
    }

    // Both wait for the free flags of the queues' freed buffers; Reset also frees every event id and all of
    // UB for new InitBuffers, Destroy ends with PipeBarrier<PIPE_ALL> (kernel_tpipe_impl.h).
    __aicore__ inline void Reset()
    {
        Release(true);
        res_.generation = twin_detail::NextPipeGeneration();
    }
    __aicore__ inline void Destroy()
    {
        Release(false);
        destroyed_ = true;
        res_.generation = twin_detail::NextPipeGeneration();
    }

private:
    friend struct ascend_twin::internal::Access;

    void Release(bool reset);
    twin_detail::PipeResources& TwinResources() { return res_; }

    twin_detail::PipeResources res_;
    bool destroyed_ = false;
};

// EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE) inside a class makes it a custom TBufPool (docs:
// 自定义TBufPool): A2's members (poolPos, bufIDSize, isTbufPool, the destructor, Reset, Init, GetBufHandle,
// SetCurAddr/GetCurAddr, SetCurBufSize/GetCurBufSize, tBufPoolImpl) plus the twin's record of the pool
// (twinPool_). TPipe::InitBufPool gives it UB; the class's own InitBuffer hands its queues and TBufs handles and
// addresses through InitStartBufHandle and InitBufHandle. POSITION at A1/B1/C1/VECIN/VECOUT/VECCALC (A2's
// static_assert in Init); the twin models UB pools only (an L1 pool is refused at compile time, as TBufPool's).
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                                  \
public:                                                                                                         \
    static constexpr AscendC::TPosition poolPos = POSITION;                                                     \
    static constexpr int bufIDSize = BUFID_SIZE;                                                                \
    static constexpr bool isTbufPool = true;                                                                    \
    __aicore__ inline ~EXT_BUFPOOL()                                                                            \
    {                                                                                                           \
        twinPool_.Reset("EXTERN_IMPL_BUFPOOL::~" #EXT_BUFPOOL, true);                                           \
        ResetPool();                                                                                            \
    }                                                                                                           \
    __aicore__ inline void Reset()                                                                              \
    {                                                                                                           \
        twinPool_.Reset(#EXT_BUFPOOL "::Reset", false);                                                         \
        ResetPool();                                                                                            \
    }                                                                                                           \
    __aicore__ inline void Init()                                                                               \
    {                                                                                                           \
        constexpr auto pool = AscendC::GetPhyType(poolPos);                                                     \
        static_assert((pool == AscendC::Hardware::L1 || pool == AscendC::Hardware::UB),                         \
                      "TbufPool Position should be one of A1/B1/C1/VECIN/VECOUT/VECCALC");                      \
        static_assert(pool == AscendC::Hardware::UB,                                                            \
                      "the twin's custom TBufPool holds UB (VECIN/VECOUT/VECCALC); an L1 pool is not modelled"); \
        ResetPool();                                                                                            \
        tBufPoolImpl.isReset_ = true;                                                                           \
    }                                                                                                           \
    __aicore__ inline AscendC::TBufHandle GetBufHandle(uint8_t offset)                                          \
    {                                                                                                           \
        return reinterpret_cast<AscendC::TBufHandle>(this->tBufPoolImpl.buf_ + offset);                         \
    }                                                                                                           \
    __aicore__ inline void SetCurAddr(uint32_t curAddr) { this->tBufPoolImpl.maxAddr_ = curAddr; }              \
    __aicore__ inline uint32_t GetCurAddr() { return this->tBufPoolImpl.maxAddr_; }                             \
    __aicore__ inline void SetCurBufSize(uint8_t curBufSize) { this->tBufPoolImpl.curBufSize_ = curBufSize; }   \
    __aicore__ inline uint8_t GetCurBufSize() { return this->tBufPoolImpl.curBufSize_; }                        \
                                                                                                                \
protected:                                                                                                      \
    AscendC::TBufPoolImpl<bufIDSize> tBufPoolImpl;                                                              \
    AscendC::twin_detail::ExternPool<BUFID_SIZE> twinPool_{tBufPoolImpl.buf_};                                  \
                                                                                                                \
private:                                                                                                        \
    __aicore__ inline void ResetPool()                                                                          \
    {                                                                                                           \
        tBufPoolImpl.curBufSize_ = 0;                                                                           \
        tBufPoolImpl.startAddr_ = 0;                                                                            \
        tBufPoolImpl.maxAddr_ = 0;                                                                              \
        tBufPoolImpl.maxLen_ = 0;                                                                               \
    }                                                                                                           \
    void TwinInitPool(AscendC::twin_detail::PipeResources& pipe, uint64_t offset, uint32_t len)                 \
    {                                                                                                           \
        twinPool_.InitPool(pipe, offset, len);                                                                  \
        tBufPoolImpl.startAddr_ = static_cast<uint32_t>(offset);                                                \
        tBufPoolImpl.maxAddr_ = tBufPoolImpl.startAddr_;                                                        \
        tBufPoolImpl.maxLen_ = static_cast<uint32_t>(twinPool_.Length());                                       \
    }                                                                                                           \
    template <class TwinOther>                                                                                  \
    void TwinShareWith(const char* call, TwinOther& other, uint32_t len)                                        \
    {                                                                                                           \
        AscendC::twin_detail::ExternShare(call, twinPool_, other, len);                                         \
    }                                                                                                           \
    AscendC::twin_detail::ExternPool<BUFID_SIZE>& TwinExternPool() { return twinPool_; }                        \
    friend struct ascend_twin::internal::Access;                                                                \
    friend class AscendC::TPipe;                                                                                \
    template <AscendC::TPosition twinSrc, AscendC::TPosition twinDst, int32_t twinDepth, auto twinMask>         \
    friend class AscendC::TQueBind;                                                                             \
    template <AscendC::TPosition twinBufPos, int32_t twinDepth, auto twinMask>                                  \
    friend class AscendC::TQue;                                                                                 \
    template <AscendC::TPosition twinBufPos>                                                                    \
    friend class AscendC::TBuf

namespace twin_detail {
// A pool sharing a custom TBufPool's memory (InitBufPool with shareBuf): its start, its length.
template <uint32_t n, class Other>
void ExternShare(const char* call, ExternPool<n>& pool, Other& other, uint32_t len)
{
    if (!pool.Initialised()) {
        ascend_twin::Fail(call, "a pool shared by InitBufPool is set up before",
                          "the shared custom pool has no memory");
    }
    if ((static_cast<uint64_t>(len) + 31u) / 32u * 32u > pool.Length()) {
        ascend_twin::FailF(call, "a pool sharing another pool's memory is no longer than it",
                           "%u bytes asked, the shared pool holds %llu", len,
                           static_cast<unsigned long long>(pool.Length()));
    }
    ascend_twin::internal::Access::InitPool(other, pool.Pipe(), pool.Base(), static_cast<uint32_t>(pool.Length()));
}

// The UB offset past the buffers a TPipe handed out (where the real PopStackBuffer starts).
inline uint64_t TwinUbEnd(TPipe& pipe) { return ascend_twin::internal::Access::Resources(pipe).ub.End(); }
}  // namespace twin_detail

}  // namespace AscendC

// The core's current TPipe. Global, as in the real headers (include/basic_api/kernel_common.h): there is no
// AscendC::GetTPipePtr.
__aicore__ inline AscendC::TPipe* GetTPipePtr()
{
    return static_cast<AscendC::TPipe*>(ascend_twin::CurrentCore().tpipe);
}

// TPipe, TQue/TQueBind and TBuf: UB allocation and the queue discipline between pipeline stages.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/hazard.h"
#include "twin/kernel_int4.h"
#include "twin/kernel_sync.h"
#include "twin/kernel_tensor.h"
#include "twin/runtime.h"

namespace AscendC {

template <TPosition pos>
class TBuf;

namespace twin_detail {

constexpr int32_t kMaxQueueBuffers = 8;        // TQue buffers per position: A2 has 8 event ids per position
constexpr uint32_t kMaxPipeBuffers = 64;       // QBUF_MAX_LEN: buffers (TQue buffers and TBufs) per TPipe
constexpr uint32_t kPositions = static_cast<uint32_t>(TPosition::MAX);

enum class SlotState : uint8_t { kFree, kAllocated, kQueued };

// "VECIN", or "VECIN->VECOUT" for a TQueBind, for messages.
struct QueueLabel {
    char text[40];
};
QueueLabel QueueName(TPosition src, TPosition dst);
const char* PositionName(TPosition pos);

// The pipe that fills a buffer at a position, and the pipe that consumes it from there: a queue's EnQue
// is a flag from the producer of its source position to the consumer of its destination position
// (VECIN: MTE2 -> V, VECOUT: V -> MTE3, VECCALC: V -> V, VECIN->VECOUT: MTE2 -> MTE3), and FreeTensor
// the flag back that AllocTensor waits for.
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

// The position a queue's buffers and events belong to (GetPosition(src, dst) of the real API).
constexpr TPosition QueuePosition(TPosition src, TPosition dst)
{
    return dst == TPosition::GM || dst == TPosition::CO2 ? src : dst;
}

// UB carving and the buffer budgets shared by every InitBuffer of one TPipe.
class UbAllocator {
public:
    // Checks len > 0, the TPipe's buffer count and (queue buffers) the position's budget, then carves
    // num buffers of len bytes (rounded up to 32) and returns the first one's offset.
    uint32_t Allocate(const char* call, uint32_t num, uint32_t len, bool queue, TPosition pos);
    void Reset()
    {
        next_ = 0;
        buffers_ = 0;
        for (uint32_t& n : queueBuffers_) n = 0;
    }
    uint64_t End() const { return next_; }  // UB offset past the last buffer handed out

private:
    uint64_t next_ = 0;
    uint32_t buffers_ = 0;
    uint32_t queueBuffers_[kPositions] = {};
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
        if (depth != 0 && count_ >= depth) {  // depth counts consecutive EnQues; depth 0 is in-place use
            ascend_twin::FailF("TQue::EnQue", "no more consecutive EnQues than the queue depth",
                               "the %s queue of depth %d is full (DeQue before enqueuing more; the twin is stricter than "
                               "the NPU here, whose release build silently overwrites the oldest entry)",
                               twin_detail::QueueName(src, dst).text, static_cast<int>(depth));
        }
        state_[i] = twin_detail::SlotState::kQueued;
        enqueued_[i] = ascend_twin::PipeNow(kProducer);
        fifo_[(head_ + count_) % twin_detail::kMaxQueueBuffers] = i;
        ++count_;
        return true;
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> DeQue()
    {
        static_assert(depth != 0, "must use DeQue<LocalTensor&> api while tque's depth is zero");
        return TakeQueued<T>();
    }

    template <typename T>
    __aicore__ inline void DeQue(LocalTensor<T>& input)
    {
        static_assert(depth == 0, "can not DeQue in place while tque's depth is non zero");
        input = TakeQueued<T>();
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
        state_[i] = twin_detail::SlotState::kFree;
        freed_[i] = ascend_twin::PipeNow(kConsumer);
    }

    __aicore__ inline bool VacantInQue() const { return count_ < depth; }
    __aicore__ inline bool HasTensorInQue() const { return count_ > 0; }
    __aicore__ inline int32_t GetTensorCountInQue() const { return count_; }

private:
    friend struct ascend_twin::internal::Access;

    // Called by TPipe::InitBuffer.
    void TwinInit(const char* call, twin_detail::UbAllocator& ub, uint8_t num, uint32_t len)
    {
        if (num_ != 0) {
            ascend_twin::Fail(call, "InitBuffer runs once per queue", "this queue already has buffers");
        }
        if (num == 0 || num > twin_detail::kMaxQueueBuffers) {
            ascend_twin::FailF(call, "a queue has 1 to 8 buffers", "%u buffers requested", static_cast<unsigned>(num));
        }
        const uint32_t aligned = (len + 31u) / 32u * 32u;
        const uint32_t first = ub.Allocate(call, num, len, true, twin_detail::QueuePosition(src, dst));
        for (uint8_t k = 0; k < num; ++k) offset_[k] = first + k * aligned;
        num_ = num;
        len_ = aligned;
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> TakeFree()
    {
        CheckInitialised("TQue::AllocTensor");
        for (int32_t k = 0; k < num_; ++k) {
            const int32_t i = (nextAlloc_ + k) % num_;
            if (state_[i] == twin_detail::SlotState::kFree) {
                state_[i] = twin_detail::SlotState::kAllocated;
                nextAlloc_ = (i + 1) % num_;
                ascend_twin::PipeAcquire(kProducer, freed_[i]);  // waits for the FreeTensor that released it
                LocalTensor<T> t;
                twin_detail::TwinBind(t, reinterpret_cast<T*>(ascend_twin::CurrentCore().ub + offset_[i]),
                           len_ / sizeof(T), kPosition, {this, i});
                return t;
            }
        }
        ascend_twin::FailF("TQue::AllocTensor", "no more live tensors than the queue's buffers",
                           "all %d buffers of the %s queue are in use (a FreeTensor is missing; on the NPU this call "
                           "would wait forever)",
                           static_cast<int>(num_), twin_detail::QueueName(src, dst).text);
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> TakeQueued()
    {
        CheckInitialised("TQue::DeQue");
        if (count_ == 0) {
            ascend_twin::FailF("TQue::DeQue", "DeQue takes from a queue holding a tensor",
                               "the %s queue is empty (a missing EnQue; on the NPU this call would wait forever)",
                               twin_detail::QueueName(src, dst).text);
        }
        const int32_t i = fifo_[head_];
        head_ = (head_ + 1) % twin_detail::kMaxQueueBuffers;
        --count_;
        state_[i] = twin_detail::SlotState::kAllocated;
        ascend_twin::PipeAcquire(kConsumer, enqueued_[i]);
        LocalTensor<T> t;
        twin_detail::TwinBind(t, reinterpret_cast<T*>(ascend_twin::CurrentCore().ub + offset_[i]), len_ / sizeof(T), kPosition,
                   {this, i});
        return t;
    }

    void CheckInitialised(const char* call) const
    {
        if (num_ == 0) {
            ascend_twin::FailF(call, "a queue is given buffers by TPipe::InitBuffer before use",
                               "the %s queue has no buffers", twin_detail::QueueName(src, dst).text);
        }
    }

    template <typename T>
    int32_t OwnSlot(const char* call, const LocalTensor<T>& tensor) const
    {
        const twin_detail::BufferRef& ref = twin_detail::TwinRef(tensor);
        if (ref.owner != this || ref.slot < 0) {
            ascend_twin::Fail(call, "a queue takes back only whole tensors it handed out",
                              ref.owner == this ? "the tensor is a sub-view (operator[]) of a queue buffer"
                                                : "the tensor comes from another queue or buffer");
        }
        return ref.slot;
    }

    // Every tensor of the queue, from AllocTensor or DeQue, is at the queue's position (the real
    // GetBufferAddr sets logicPos = GetPosition(src, dst): VECOUT for a TQueBind<VECIN, VECOUT>).
    static constexpr TPosition kPosition = twin_detail::QueuePosition(src, dst);
    static constexpr ascend_twin::Pipe kProducer = twin_detail::Producer(src);
    static constexpr ascend_twin::Pipe kConsumer = twin_detail::Consumer(dst);

    int32_t num_ = 0;
    uint32_t len_ = 0;
    uint32_t offset_[twin_detail::kMaxQueueBuffers] = {};
    ascend_twin::PipeClock enqueued_[twin_detail::kMaxQueueBuffers];  // the producer's clock at EnQue
    ascend_twin::PipeClock freed_[twin_detail::kMaxQueueBuffers];     // the consumer's clock at FreeTensor
    twin_detail::SlotState state_[twin_detail::kMaxQueueBuffers] = {};
    int32_t fifo_[twin_detail::kMaxQueueBuffers] = {};
    int32_t head_ = 0;
    int32_t count_ = 0;
    int32_t nextAlloc_ = 0;
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

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
        if (len_ == 0) {
            ascend_twin::Fail("TBuf::Get", "a TBuf is given memory by TPipe::InitBuffer before use",
                              "this TBuf has no buffer");
        }
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
        twin_detail::TwinBind(t, reinterpret_cast<T*>(ascend_twin::CurrentCore().ub + offset_), len, pos, {this, -1});
        return t;
    }

    // size elements starting bufOffset bytes into the buffer.
    template <typename T>
    __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset)
    {
        if (len_ == 0) {
            ascend_twin::Fail("TBuf::GetWithOffset", "a TBuf is given memory by TPipe::InitBuffer before use",
                              "this TBuf has no buffer");
        }
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
        twin_detail::TwinBind(t, reinterpret_cast<T*>(ascend_twin::CurrentCore().ub + offset_ + bufOffset), size, pos, {this, -1});
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

private:
    friend struct ascend_twin::internal::Access;

    void TwinInit(const char* call, twin_detail::UbAllocator& ub, uint32_t len)
    {
        if (len_ != 0) ascend_twin::Fail(call, "InitBuffer runs once per TBuf", "this TBuf already has memory");
        offset_ = ub.Allocate(call, 1, len, false, pos);
        len_ = (len + 31u) / 32u * 32u;
    }

    uint32_t offset_ = 0;
    uint32_t len_ = 0;
};

class TPipe {
public:
    // The most recently constructed TPipe of the core is what GetTPipePtr() returns.
    TPipe()
    {
        if (ascend_twin::InLaunch()) ascend_twin::CurrentCore().tpipe = this;
    }
    ~TPipe()
    {
        if (ascend_twin::InLaunch() && ascend_twin::CurrentCore().tpipe == this) ascend_twin::CurrentCore().tpipe = nullptr;
    }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    // Event ids for SetFlag/WaitFlag: 8 per HardEvent on A2.
    template <HardEvent evt>
    __aicore__ inline int8_t AllocEventID()
    {
        const int8_t id = FetchEventID(evt);
        events_[static_cast<uint32_t>(evt)] |= static_cast<uint8_t>(1u << id);
        return id;
    }

    template <HardEvent evt>
    __aicore__ inline void ReleaseEventID(int8_t id)
    {
        twin_detail::CheckEventId("TPipe::ReleaseEventID", id);
        events_[static_cast<uint32_t>(evt)] &= static_cast<uint8_t>(~(1u << id));
    }

    template <HardEvent evt>
    __aicore__ inline int8_t FetchEventID()
    {
        return FetchEventID(evt);
    }

    __aicore__ inline int8_t FetchEventID(HardEvent evt)
    {
        const uint8_t used = events_[static_cast<uint32_t>(evt)];
        for (int8_t id = 0; id < 8; ++id) {
            if ((used & (1u << id)) == 0) return id;
        }
        ascend_twin::Fail("TPipe::AllocEventID", "at most 8 event ids per HardEvent are allocated at a time on A2",
                          "all 8 are allocated (ReleaseEventID the ones no longer needed)");
    }

    template <class T>
    __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len)
    {
        twin_detail::TwinInit(que, "TPipe::InitBuffer", ub_, num, len);
        return true;
    }

    template <TPosition pos>
    __aicore__ inline bool InitBuffer(TBuf<pos>& buf, uint32_t len)
    {
        twin_detail::TwinInit(buf, "TPipe::InitBuffer", ub_, len);
        return true;
    }

    __aicore__ inline void Reset() { ub_.Reset(); }
    __aicore__ inline void Destroy() { ub_.Reset(); }
private:
    friend struct ascend_twin::internal::Access;
    twin_detail::UbAllocator& TwinResources() { return ub_; }

    twin_detail::UbAllocator ub_;
    uint8_t events_[static_cast<uint32_t>(HardEvent::MAX)] = {};  // allocated event ids, one bit each
};

namespace twin_detail {
// The UB offset past the buffers a TPipe handed out (where the real PopStackBuffer starts).
inline uint64_t TwinUbEnd(TPipe& pipe) { return ascend_twin::internal::Access::Resources(pipe).End(); }
}  // namespace twin_detail

__aicore__ inline TPipe* GetTPipePtr() { return static_cast<TPipe*>(ascend_twin::CurrentCore().tpipe); }

}  // namespace AscendC

#include "core_sched.h"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <new>

#include "twin/hazard.h"
#include "twin/violation.h"
#include "twin/runtime.h"

namespace ascend_twin {

namespace {

constexpr size_t kStackBytes = 256 * 1024;

// A core's on-chip memory (its UB, or its cube memories with L1 first) that grows to the largest size asked
// for and is kept. It starts at a 4 GiB boundary, so the low 32 bits of a pointer into it are the byte's
// address in that memory as the device numbers it (UB and L1 addresses start at 0): what a kernel gets from
// `(uint32_t)tensor.GetPhyAddr()` is the device's address. Only the memory itself is mapped; the rest of
// the 4 GiB reserved to find the boundary is returned at once.
struct KeptMemory {
    static constexpr uint64_t kAlign = uint64_t(1) << 32;
    uint8_t* data = nullptr;
    uint64_t size = 0;
    uint8_t* Get(uint64_t bytes)
    {
        if (size < bytes) {
            Release();
            const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
            const uint64_t mapped = (bytes + page - 1) / page * page;
            void* p = mmap(nullptr, mapped + kAlign, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p == MAP_FAILED) throw std::bad_alloc();
            const auto start = reinterpret_cast<uintptr_t>(p);
            const uintptr_t aligned = (start + kAlign - 1) & ~(kAlign - 1);
            if (aligned > start) munmap(p, aligned - start);
            const uintptr_t end = start + mapped + kAlign;
            if (end > aligned + mapped) munmap(reinterpret_cast<void*>(aligned + mapped), end - aligned - mapped);
            if (mprotect(reinterpret_cast<void*>(aligned), mapped, PROT_READ | PROT_WRITE) != 0) {
                munmap(reinterpret_cast<void*>(aligned), mapped);
                throw std::bad_alloc();
            }
            data = reinterpret_cast<uint8_t*>(aligned);
            size = mapped;
        }
        return data;
    }
    void Release()
    {
        if (data != nullptr) munmap(data, size);
        data = nullptr;
        size = 0;
    }
    KeptMemory() = default;
    KeptMemory(const KeptMemory&) = delete;
    KeptMemory& operator=(const KeptMemory&) = delete;
    ~KeptMemory() { Release(); }
};

// A stack of its own, with a guard page below it, and the per-core records a suspended core keeps.
struct Fiber {
    ucontext_t context;
    uint8_t* mapping = nullptr;
    bool busy = false;
    uint32_t startIndex = 0;  // the core it starts with
    KeptMemory ub;
    KeptMemory cube;
    HazardState* hazard = nullptr;
    Fiber()
    {
        const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        void* p = mmap(nullptr, kStackBytes + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        mapping = static_cast<uint8_t*>(p);
        mprotect(mapping, page, PROT_NONE);  // a stack overflow faults instead of corrupting memory
        hazard = NewHazardState();
    }
    ~Fiber()
    {
        munmap(mapping, kStackBytes + static_cast<size_t>(sysconf(_SC_PAGESIZE)));
        DeleteHazardState(hazard);
    }
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;
};

// A suspended core: where its stack was left, and what it waits for.
struct Waiting {
    Fiber* fiber;         // nullptr: the thread's own stack
    ucontext_t* context;  // where it was saved
    LaunchSync* sync;
    ReadyFn ready;
    const void* arg;
};

struct Scheduler {
    ucontext_t own;  // the thread's own stack
    std::vector<std::unique_ptr<Fiber>> fibers;
    std::vector<Waiting> waiting;
    Fiber* current = nullptr;  // the fiber running now; nullptr: the thread's own stack
    bool ownIdle = false;      // the thread's own stack has no core left and waits for the others
    const std::function<bool(uint32_t&)>* next = nullptr;
    const std::function<void(uint32_t)>* body = nullptr;
    KeptMemory ownUb;
    KeptMemory ownCube;
};

thread_local Scheduler tSched;

bool Opened(const Waiting& w) { return w.sync->aborted || w.ready(*w.sync, w.arg); }

ucontext_t* ContextOf(Fiber* f) { return f != nullptr ? &f->context : &tSched.own; }

void SwitchTo(Fiber* from, ucontext_t* to, Fiber* target)
{
    Scheduler& s = tSched;
    s.current = target;
    SetHazardState(target != nullptr ? target->hazard : nullptr);
    swapcontext(ContextOf(from), to);
    // Resumed: the switcher has set current and the hazard records to ours.
}

void RunLoop(const Scheduler& s)
{
    uint32_t i;
    while ((*s.next)(i)) (*s.body)(i);
}

void FiberMain();

Fiber* StartFiber(uint32_t index)
{
    Scheduler& s = tSched;
    Fiber* f = nullptr;
    for (const std::unique_ptr<Fiber>& candidate : s.fibers) {
        if (!candidate->busy && candidate.get() != s.current) {  // never the stack we run on
            f = candidate.get();
            break;
        }
    }
    if (f == nullptr) {
        s.fibers.push_back(std::make_unique<Fiber>());
        f = s.fibers.back().get();
    }
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    getcontext(&f->context);
    f->context.uc_stack.ss_sp = f->mapping + page;
    f->context.uc_stack.ss_size = kStackBytes;
    f->context.uc_link = nullptr;
    makecontext(&f->context, FiberMain, 0);
    f->busy = true;
    f->startIndex = index;
    return f;
}

// Leaves the current stack (`self`, which has nothing to do now: it waits, or its fiber has ended) for
// one that can run. Returns when `self` is resumed, or at once when self is the idle own stack and no
// core of this thread is left.
void Dispatch(Fiber* self)
{
    Scheduler& s = tSched;
    for (;;) {
        for (size_t k = 0; k < s.waiting.size(); ++k) {
            bool open;
            {
                std::lock_guard<std::mutex> lock(s.waiting[k].sync->mutex);
                open = Opened(s.waiting[k]);
            }
            if (open) {
                const Waiting w = s.waiting[k];
                s.waiting.erase(s.waiting.begin() + static_cast<std::ptrdiff_t>(k));
                if (w.fiber == self) return;  // our own barrier opened
                SwitchTo(self, w.context, w.fiber);
                return;
            }
        }
        uint32_t index;
        if ((*s.next)(index)) {
            Fiber* f = StartFiber(index);
            SwitchTo(self, &f->context, f);
            return;
        }
        if (s.waiting.empty()) {
            if (self == nullptr) return;         // the own stack, idle: everything is done
            SwitchTo(self, &s.own, nullptr);     // an ended fiber hands back to the idle own stack
            return;
        }
        // Every core of this thread waits: sleep until a barrier opens (other threads run the rest).
        LaunchSync& sync = *s.waiting.front().sync;
        std::unique_lock<std::mutex> lock(sync.mutex);
        sync.opened.wait(lock, [&] {
            for (const Waiting& w : s.waiting) {
                if (Opened(w)) return true;
            }
            return false;
        });
    }
}

void FiberMain()
{
    Scheduler& s = tSched;
    Fiber* self = s.current;
    (*s.body)(self->startIndex);
    RunLoop(s);
    self->busy = false;
    Dispatch(self);  // never resumed: it has ended
    std::abort();
}

}  // namespace

uint8_t* CurrentStackUb(uint64_t bytes)
{
    Scheduler& s = tSched;
    return s.current != nullptr ? s.current->ub.Get(bytes) : s.ownUb.Get(bytes);
}

uint8_t* CurrentStackCube(uint64_t bytes)
{
    Scheduler& s = tSched;
    return s.current != nullptr ? s.current->cube.Get(bytes) : s.ownCube.Get(bytes);
}

void RunCores(const std::function<bool(uint32_t&)>& next, const std::function<void(uint32_t)>& body)
{
    Scheduler& s = tSched;
    s.next = &next;
    s.body = &body;
    s.current = nullptr;
    s.ownIdle = false;
    RunLoop(s);
    s.ownIdle = true;
    while (!s.waiting.empty()) Dispatch(nullptr);
    s.ownIdle = false;
    s.next = nullptr;
    s.body = nullptr;
}

namespace {

bool AnyReady(LaunchSync& sync)
{
    for (const Blocked& b : sync.blocked) {
        if (b.ready(sync, b.arg)) return true;
    }
    return false;
}

// With sync.mutex held: every core that has not returned waits, and none can go on.
void CheckDeadlock(LaunchSync& sync)
{
    if (sync.aborted || sync.blocked.empty() || sync.blocked.size() + sync.finished != sync.cores || AnyReady(sync)) {
        return;
    }
    sync.aborted = true;
    sync.deadlock = true;
    sync.opened.notify_all();
}

struct BarrierWait {
    uint64_t generation;
};

bool BarrierOpened(LaunchSync& sync, const void* arg)
{
    return sync.generation != static_cast<const BarrierWait*>(arg)->generation;
}

}  // namespace

void WaitUntil(std::unique_lock<std::mutex>& lock, ReadyFn ready, const void* arg, const char* what)
{
    CoreContext& core = CurrentCore();
    LaunchSync& sync = *core.sync;
    if (sync.aborted) throw CoreAborted{};
    if (ready(sync, arg)) return;
    sync.blocked.push_back({core.coreId, ready, arg, what});
    CheckDeadlock(sync);
    if (sync.aborted) throw CoreAborted{};  // this core completed the hang; the launcher reports it
    lock.unlock();
    Scheduler& s = tSched;
    Fiber* self = s.current;
    s.waiting.push_back({self, ContextOf(self), &sync, ready, arg});
    Dispatch(self);
    SetCurrentCore(&core);  // the cores run meanwhile set their own
    lock.lock();
    if (!ready(sync, arg)) throw CoreAborted{};  // released by an abort; keep the entry for the report
    for (size_t k = 0; k < sync.blocked.size(); ++k) {
        if (sync.blocked[k].coreId == core.coreId) {
            sync.blocked.erase(sync.blocked.begin() + static_cast<std::ptrdiff_t>(k));
            break;
        }
    }
}

void ArriveAndWait(const char* call, uint32_t participants)
{
    CoreContext& core = CurrentCore();
    LaunchSync& sync = *core.sync;
    const uint32_t want = participants == 0 ? sync.cores : participants;
    std::unique_lock<std::mutex> lock(sync.mutex);
    if (sync.aborted) throw CoreAborted{};
    if (sync.arrived == 0) {
        sync.participants = want;
    } else if (sync.participants != want) {
        sync.aborted = true;
        sync.opened.notify_all();
        lock.unlock();
        Fail(call, "the cores meeting at one SyncAll agree on how many cores it synchronises",
             "this core synchronises " + std::to_string(want) + " cores, the cores already waiting " +
                 std::to_string(sync.participants));
    }
    if (want < sync.cores) sync.partial = true;
    const BarrierWait wait{sync.generation};
    if (sync.joins.size() <= wait.generation) sync.joins.resize(wait.generation + 1);
    ReleaseClock(core, sync.joins[wait.generation]);
    if (++sync.arrived == want) {  // the last one: open the barrier and go on
        sync.arrived = 0;
        ++sync.generation;
        sync.opened.notify_all();
    } else {
        WaitUntil(lock, BarrierOpened, &wait, "SyncAll");
    }
    AcquireClock(core, sync.joins[wait.generation]);
}

void CoreFinished(LaunchSync& sync)
{
    std::lock_guard<std::mutex> lock(sync.mutex);
    ++sync.finished;
    CheckDeadlock(sync);
}

}  // namespace ascend_twin

// The threads that run a launch's virtual cores: started once, kept for the life of the process.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "twin/launch.h"

namespace ascend_twin {

// How many threads run virtual cores: ASCEND_TWIN_THREADS if set (a positive whole number, else
// std::invalid_argument), otherwise every CPU. Read once per process.
uint32_t ThreadCount();

class WorkerPool {
public:
    static WorkerPool& Instance();

    // Calls body(i) once for every i in [0, n), on the calling thread and up to threads - 1 pool
    // workers. Returns when every call has returned. body must not throw. A call that waits for the
    // others in SyncAll is suspended while its thread runs further indices (twin/src/core_sched.h). When another thread's launch
    // holds the pool, everything runs on the calling thread (results never depend on the thread count).
    void Run(uint32_t n, uint32_t threads, const std::function<void(uint32_t)>& body);

    // The host's threads to run on instead of the pool's (SetThreadRunner in twin/launch.h); nullptr: the pool's.
    void SetRunner(ThreadRunner runner) { runner_.store(runner); }

private:
    WorkerPool() = default;
    void WorkerLoop();
    void Drain(const std::function<void(uint32_t)>& body);  // takes indices of the current job until none are left

    std::atomic<ThreadRunner> runner_{nullptr};
    std::mutex runMutex_;  // one launch uses the pool at a time
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    std::vector<uint32_t> unused_;
    uint32_t started_ = 0;    // worker threads created so far
    uint64_t generation_ = 0;
    const std::function<void(uint32_t)>* body_ = nullptr;  // null: no job open for joining
    uint32_t n_ = 0;
    uint32_t next_ = 0;       // next index to hand out (under mutex_)
    uint32_t seats_ = 0;      // workers that may still join the open job
    uint32_t running_ = 0;    // workers inside the current job
};

}  // namespace ascend_twin

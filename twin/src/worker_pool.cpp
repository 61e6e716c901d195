#include "worker_pool.h"

#include "core_sched.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

namespace ascend_twin {

namespace {

uint32_t ReadThreadCount()
{
    const char* env = std::getenv("ASCEND_TWIN_THREADS");
    if (env == nullptr || *env == '\0') return std::max(1u, std::thread::hardware_concurrency());
    const std::string text(env);
    bool digits = text.size() <= 6;
    for (char c : text) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    const long n = digits ? std::strtol(env, nullptr, 10) : 0;
    if (n < 1 || n > 4096) {
        throw std::invalid_argument("ascend_ext twin: ASCEND_TWIN_THREADS='" + text +
                                    "' is not a whole number of threads from 1 to 4096 (unset it to use every CPU)");
    }
    return static_cast<uint32_t>(n);
}

}  // namespace

void SetThreadRunner(ThreadRunner runner) { WorkerPool::Instance().SetRunner(runner); }

uint32_t ThreadCount()
{
    static const uint32_t count = ReadThreadCount();  // a throw leaves it unset: the next launch reports it again
    return count;
}

WorkerPool& WorkerPool::Instance()
{
    static WorkerPool* pool = new WorkerPool;  // never destroyed: its threads may still wait at process exit
    return *pool;
}

void WorkerPool::Drain(const std::function<void(uint32_t)>& body)
{
    const std::function<bool(uint32_t&)> next = [this](uint32_t& i) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (next_ >= n_) return false;
        i = next_++;
        return true;
    };
    RunCores(next, body);  // cores that wait in SyncAll are suspended while the thread runs others
}

void WorkerPool::WorkerLoop()
{
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return generation_ != seen && body_ != nullptr && seats_ > 0; });
        seen = generation_;
        --seats_;
        ++running_;
        const std::function<void(uint32_t)>* body = body_;
        lock.unlock();
        Drain(*body);
        lock.lock();
        if (--running_ == 0) done_.notify_one();
    }
}

void WorkerPool::Run(uint32_t n, uint32_t threads, const std::function<void(uint32_t)>& body)
{
    std::unique_lock<std::mutex> run(runMutex_, std::try_to_lock);
    if (threads <= 1 || n <= 1 || !run.owns_lock()) {
        if (n == 1) {
            body(0);  // a single core has nobody to wait for at a SyncAll
            return;
        }
        uint32_t next = 0;
        RunCores([&](uint32_t& i) { return next < n ? (i = next++, true) : false; }, body);
        return;
    }
    const uint32_t helpers = std::min(threads, n) - 1;
    if (const ThreadRunner runner = runner_.load()) {  // the host's threads: each takes indices until none are left
        {
            std::lock_guard<std::mutex> lock(mutex_);
            n_ = n;
            next_ = 0;
        }
        struct Job {
            WorkerPool* pool;
            const std::function<void(uint32_t)>* body;
        } job{this, &body};
        runner(helpers + 1, [](void* ctx, uint32_t) {
            const Job& j = *static_cast<const Job*>(ctx);
            j.pool->Drain(*j.body);
        }, &job);
        std::lock_guard<std::mutex> lock(mutex_);
        if (next_ < n_) {  // no call took them: the cores never ran, their outputs would be what GM held before
            throw std::logic_error("ascend_ext twin: the thread runner set with SetThreadRunner returned with " +
                                   std::to_string(n_ - next_) + " of the launch's " + std::to_string(n_) +
                                   " cores not run (it must call fn(ctx, t) for every t in [0, threads) and return "
                                   "after they return)");
        }
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        while (started_ < helpers) {
            std::thread([this] { WorkerLoop(); }).detach();
            ++started_;
        }
        body_ = &body;
        n_ = n;
        next_ = 0;
        seats_ = helpers;
        ++generation_;
    }
    wake_.notify_all();
    Drain(body);
    std::unique_lock<std::mutex> lock(mutex_);
    body_ = nullptr;  // workers that have not joined yet stay asleep
    seats_ = 0;
    done_.wait(lock, [&] { return running_ == 0; });
}

}  // namespace ascend_twin

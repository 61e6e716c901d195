#include "worker_pool.h"

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

void WorkerPool::Drain()
{
    std::unique_lock<std::mutex> lock(mutex_);
    while (next_ < n_) {
        const uint32_t i = next_++;
        const std::function<void(uint32_t)>& body = *body_;
        lock.unlock();
        body(i);
        lock.lock();
    }
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
        lock.unlock();
        Drain();
        lock.lock();
        if (--running_ == 0) done_.notify_one();
    }
}

void WorkerPool::Run(uint32_t n, uint32_t threads, const std::function<void(uint32_t)>& body)
{
    std::unique_lock<std::mutex> run(runMutex_, std::try_to_lock);
    if (threads <= 1 || n <= 1 || !run.owns_lock()) {
        for (uint32_t i = 0; i < n; ++i) body(i);
        return;
    }
    const uint32_t helpers = std::min(threads, n) - 1;
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
    Drain();
    std::unique_lock<std::mutex> lock(mutex_);
    body_ = nullptr;  // workers that have not joined yet stay asleep
    seats_ = 0;
    done_.wait(lock, [&] { return running_ == 0; });
}

}  // namespace ascend_twin

// The NPU adapter's workspace lifetime (torch_ext/csrc/npu/workspace.h), with a stand-in for torch_npu's
// caching allocator (counts live workspaces) and for its task queue (runs the enqueued launches later, as
// its worker thread does): however many launches wait in the queue, no workspace stays allocated for them.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "check.h"
#include "torch_ext/csrc/npu/workspace.h"

namespace {

constexpr uint64_t kSystemWorkspace = 16ull << 20;  // GetLibApiWorkSpaceSize() on A2
constexpr int kQueueCapacity = 4096;                // torch_npu's task queue

struct Allocator {
    int live = 0;
    int peak = 0;
    uint64_t bytesLive = 0;
    uintptr_t next = 0x100000;
    // A block the allocator hands out: freed (back to the allocator) when its last handle goes.
    std::shared_ptr<void> Allocate(uint64_t bytes)
    {
        ++live;
        bytesLive += bytes;
        peak = live > peak ? live : peak;
        void* address = reinterpret_cast<void*>(next);
        next += 0x1000;
        return std::shared_ptr<void>(address, [this, bytes](void*) {
            --live;
            bytesLive -= bytes;
        });
    }
};

struct Queue {
    std::vector<std::function<int()>> launches;
    int Drain()
    {
        int failed = 0;
        for (auto& launch : launches) failed += launch() != 0;
        launches.clear();
        return failed;
    }
};

}  // namespace

TEST_CASE("the workspace is released right after enqueueing: none stays pinned by queued launches")
{
    Allocator allocator;
    Queue queue;
    std::vector<void*> seen;
    for (int i = 0; i < kQueueCapacity; ++i) {
        ascend_ext::npu::EnqueueWithWorkspace(
            kSystemWorkspace, [&](uint64_t bytes) { return allocator.Allocate(bytes); },
            [](const std::shared_ptr<void>& block) { return block.get(); },
            [&](void* workspace) {
                CHECK_EQ(allocator.live, 1);  // allocated while the launch is enqueued
                queue.launches.push_back([workspace, &seen] {
                    seen.push_back(workspace);
                    return workspace != nullptr ? 0 : 1;
                });
            });
        CHECK_EQ(allocator.live, 0);
    }
    CHECK_EQ(allocator.peak, 1);
    CHECK_EQ(allocator.bytesLive, 0u);
    CHECK_EQ(static_cast<int>(queue.launches.size()), kQueueCapacity);
    CHECK_EQ(queue.Drain(), 0);  // every launch got its workspace address
    CHECK_EQ(static_cast<int>(seen.size()), kQueueCapacity);
}

TEST_CASE("no workspace: nothing is allocated and the launch gets a null address")
{
    Allocator allocator;
    void* got = reinterpret_cast<void*>(1);
    ascend_ext::npu::EnqueueWithWorkspace(
        0, [&](uint64_t bytes) { return allocator.Allocate(bytes); },
        [](const std::shared_ptr<void>& block) { return block.get(); }, [&](void* workspace) { got = workspace; });
    CHECK(got == nullptr);
    CHECK_EQ(allocator.peak, 0);
}

TEST_CASE("planted: a queued launch that holds its workspace pins one per waiting launch (what the count catches)")
{
    Allocator allocator;
    Queue queue;
    for (int i = 0; i < kQueueCapacity; ++i) {
        std::shared_ptr<void> block = allocator.Allocate(kSystemWorkspace);
        queue.launches.push_back([block] { return block != nullptr ? 0 : 1; });
    }
    CHECK_EQ(allocator.live, kQueueCapacity);
    CHECK_EQ(allocator.bytesLive, kQueueCapacity * kSystemWorkspace);  // 64 GiB for 4,096 queued calls
    CHECK_EQ(queue.Drain(), 0);
    CHECK_EQ(allocator.live, 0);
}

TEST_MAIN()

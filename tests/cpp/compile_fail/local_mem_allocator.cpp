// LocalMemAllocator's compile-time rules on the twin (CMakeLists.txt compiles this file once per FAULT line, and
// once with FAULT=0, which must compile: every memory of A2 with positions of that memory).
// FAULT 1: logic pos and hardware pos not matched.
// FAULT 2: logic pos and hardware pos not matched.
// FAULT 3: illegal hardware position GM or MAX
#include "kernel_operator.h"

using namespace AscendC;

void Instantiate()
{
#if FAULT == 0
    LocalMemAllocator<> ub;
    ub.Alloc<TPosition::VECIN, float, 8>();
    LocalMemAllocator<Hardware::L1> l1;
    l1.Alloc<TPosition::C1, half>(16);
    l1.Alloc<half, 16>();
    LocalMemAllocator<Hardware::L0A>().Alloc<TPosition::A2, half, 256>();
    LocalMemAllocator<Hardware::L0B>().Alloc<TPosition::B2, half, 256>();
    LocalMemAllocator<Hardware::L0C>().Alloc<TPosition::CO1, float, 256>();
    LocalMemAllocator<Hardware::BIAS>().Alloc<TPosition::C2, float, 16>();
#elif FAULT == 1
    LocalMemAllocator<Hardware::L1>().Alloc<TPosition::A2, half, 256>();  // L0A's position from the L1 allocator
#elif FAULT == 2
    LocalMemAllocator<>().Alloc<TPosition::A1, float>(8);  // an L1 position from the UB allocator
#elif FAULT == 3
    LocalMemAllocator<Hardware::GM> gm;  // GM is no local memory
#endif
}

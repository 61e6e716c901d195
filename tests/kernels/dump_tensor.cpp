// DumpTensor / DumpAccChkPoint / ShapeInfo on a vector core: the dumps print what the tensors hold, laid out by
// a shape where one is given; `fault` plants the rule violations (docs DumpTensor, DumpAccChkPoint 约束说明).
#include "kernel_operator.h"

using namespace AscendC;

// x: n floats (n a multiple of 8, at most 8192) copied into UB, then dumped five ways; xi: 16 int32_t dumped
// from GM. fault 1: dumpSize past the tensor; 2: countOff not 32-byte aligned; 3: countOff past the tensor;
// 4: a ShapeInfo of 9 dimensions; 5: a shape with a zero dimension; 6: a tensor at L0A (a memory dumps do
// not read).
extern "C" __global__ __aicore__ void dump_forms(GM_ADDR x, GM_ADDR xi, uint32_t n, uint32_t fault)
{
    GlobalTensor<float> xGm;
    GlobalTensor<int32_t> xiGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
    xiGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(xi), 16);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    LocalTensor<float> ub = buf.Get<float>();
    DataCopy(ub, xGm, n);
    DumpTensor(ub, 7, 16);  // no flag after the copy: the dump's PIPE_ALL barrier waits for it
    uint32_t shape[] = {2, 4};
    DumpTensor(ub, 8, 8, ShapeInfo(2, shape));
    uint32_t tall[] = {3, 4};
    DumpTensor(ub, 9, 8, ShapeInfo(2, tall));    // shape larger than the data: "-" fills
    DumpAccChkPoint(ub, 10, 8, 4);               // elements 8..11
    DumpTensor(xiGm, 11, 16);
    DumpTensor(ub, 12, n);                       // over 30 KB when n > 7680: not printed
    if (fault == 1) {
        DumpTensor(ub, 13, n + 8);
    } else if (fault == 2) {
        DumpAccChkPoint(ub, 14, 3, 4);
    } else if (fault == 3) {
        DumpAccChkPoint(ub, 15, n + 8, 1);
    } else if (fault == 4) {
        uint32_t nine[] = {1, 1, 1, 1, 1, 1, 1, 1, n};
        DumpTensor(ub, 16, n, ShapeInfo(9, nine));
    } else if (fault == 5) {
        uint32_t empty[] = {2, 0};
        DumpTensor(ub, 17, 8, ShapeInfo(2, empty));
    } else if (fault == 6) {
        DumpTensor(LocalTensor<float>(TPosition::A2, 0, 64), 18, 8);
    }
}

// Matmul objects with user copy-in callbacks (MatmulCallBackFunc's CopyA1 / CopyB1; tests/test_twin_matmul_callback.py):
// - half_copy_a1: A's base tiles come from CopyA1, which reads them not from the tensor SetTensorA set (the test fills
//   that with nan) but from the GM address SetSelfDefineData passed, with the tiling SetUserDefInfo passed (its baseM,
//   baseK and Ka), into L1 as [M, K] NZ (ND2NZ, 16-row fractals);
// - int8_copy_b1: int8_t B's base tiles from CopyB1 (the tensor SetTensorB set, K rows aligned to 32 as the API's own
//   copy does for int8_t), C int32_t exactly;
// - the planted faults: SetSelfDefineData after SetTensorA; a transposed A with CopyA1; a CopyA1 that leaves the tile's
//   last K columns unwritten; a CopyA1 writing past its L1 tile.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
using F16 = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using F16T = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using F32 = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using I8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;

__aicore__ inline void LoadTiling(TCubeTiling* t, GM_ADDR tilingGm)
{
    uint32_t* dst = reinterpret_cast<uint32_t*>(t);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

__aicore__ inline uint16_t Ceil16(int v) { return static_cast<uint16_t>((v + 15) / 16 * 16); }

// mode 0: the tile as it is; 1: its last 16 K columns left unwritten; 2: dstNzC0Stride one fractal too many
// (the last column fractal ends past the tile).
template <int mode>
__aicore__ inline void CopyA1(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col, int useM,
                              int useK, const uint64_t tilingPtr, const uint64_t dataPtr)
{
    (void)gm;
    const TCubeTiling* t = reinterpret_cast<const TCubeTiling*>(tilingPtr);
    GlobalTensor<half> src;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(dataPtr));
    Nd2NzParams p;
    p.ndNum = 1;
    p.nValue = static_cast<uint16_t>(useM);
    p.dValue = static_cast<uint16_t>(mode == 1 && useK > 16 ? useK - 16 : useK);
    p.srcNdMatrixStride = 0;
    p.srcDValue = static_cast<uint16_t>(t->Ka);
    p.dstNzC0Stride = mode == 2 ? static_cast<uint16_t>(Ceil16(t->baseM) + 16) : Ceil16(useM);
    p.dstNzNStride = 1;
    p.dstNzMatrixStride = 0;
    DataCopy(aMatrix.ReinterpretCast<half>(), src[row * t->baseM * t->Ka + col * t->baseK], p);
}

__aicore__ inline void CopyB1(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col, int useK,
                              int useN, const uint64_t tilingPtr, const uint64_t dataPtr)
{
    (void)dataPtr;
    const TCubeTiling* t = reinterpret_cast<const TCubeTiling*>(tilingPtr);
    GlobalTensor<int8_t> src;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(const_cast<__gm__ void*>(gm)));
    Nd2NzParams p;
    p.ndNum = 1;
    p.nValue = static_cast<uint16_t>(useK);
    p.dValue = static_cast<uint16_t>(useN);
    p.srcNdMatrixStride = 0;
    p.srcDValue = static_cast<uint16_t>(t->N);
    p.dstNzC0Stride = static_cast<uint16_t>((useK + 31) / 32 * 32);
    p.dstNzNStride = 1;
    p.dstNzMatrixStride = 0;
    DataCopy(bMatrix, src[row * t->baseK * t->N + col * t->baseN], p);
}

// order 0: SetSelfDefineData, SetTensorA (the documented order); 1: SetTensorA, then SetSelfDefineData.
template <class AT, int mode, int order, bool trans>
__aicore__ inline void RunA(GM_ADDR a, GM_ADDR realA, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    Matmul<AT, F16, F32, F32, CFG_NORM, MatmulCallBackFunc<nullptr, CopyA1<mode>, nullptr>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    mm.SetUserDefInfo(reinterpret_cast<uint64_t>(&t));
    if constexpr (order == 0) mm.SetSelfDefineData(reinterpret_cast<uint64_t>(realA));
    mm.SetTensorA(aGm, trans);
    if constexpr (order == 1) mm.SetSelfDefineData(reinterpret_cast<uint64_t>(realA));
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
}
}  // namespace

__global__ __cube__ void half_copy_a1(GM_ADDR a, GM_ADDR real_a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                      __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    RunA<F16, 0, 0, false>(a, real_a, b, bias, c, tiling);
}

__global__ __cube__ void half_copy_a1_late_data(GM_ADDR a, GM_ADDR real_a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    RunA<F16, 0, 1, false>(a, real_a, b, bias, c, tiling);
}

__global__ __cube__ void half_copy_a1_transposed(GM_ADDR a, GM_ADDR real_a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                 __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    RunA<F16T, 0, 0, true>(a, real_a, b, bias, c, tiling);
}

__global__ __cube__ void half_copy_a1_short(GM_ADDR a, GM_ADDR real_a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                            __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    RunA<F16, 1, 0, false>(a, real_a, b, bias, c, tiling);
}

__global__ __cube__ void half_copy_a1_overrun(GM_ADDR a, GM_ADDR real_a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                              __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    RunA<F16, 2, 0, false>(a, real_a, b, bias, c, tiling);
}

__global__ __cube__ void int8_copy_b1(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                      __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    TPipe pipe;
    TCubeTiling t;
    LoadTiling(&t, tiling);
    Matmul<I8, I8, I32, I32, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, CopyB1>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<int32_t> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), t.M * t.N);
    mm.SetUserDefInfo(reinterpret_cast<uint64_t>(&t));
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
}

// The Matmul high-level API in MIX mode (no ASCENDC_CUBE_ONLY): AIV clients, an AIC server per block, in the
// forms asc-devkit's A2 samples use, written for the project: the fused matmul + bias + LeakyRelu kernel
// (__mix__(1, 2), the tiling passed by value, Iterate/GetTensorC into VECIN; matmul_leakyrelu_advanced_api), the
// kernels of the advanced Matmul samples (no declared type: the compiler infers MIX 1:2; the tiling copied from
// GM; IterateAll, Iterate<false> with SetWorkspace, IterateAll<false> with WaitIterateAll; matmul_async_iterate,
// matmul_async_iterate_all), and the planted faults of tests/test_twin_mix_matmul.py, each next to its passing
// counterpart.
//
// A is [M, K] half, B [K, N] half, bias [N] float, C [M, N] float. Each AIV (GetBlockIdx) owns the
// singleCoreM x singleCoreN tile of C at (mCore, nCore), mCore = idx % ceil(M / singleCoreM).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using AType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BiasType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CUbType = matmul::MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>;
using CGmType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

__aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

__aicore__ inline void LoadTilingFromGm(TCubeTiling* tiling, GM_ADDR tilingGm)
{
    uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
    auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

// The operands of the AIV's tile, with SetTail for the tiles at the edge of C.
template <class MM>
struct Tile {
    AscendC::GlobalTensor<half> a, b;
    AscendC::GlobalTensor<float> bias, c;
    int32_t rows = 0, cols = 0;

    __aicore__ inline void Bind(MM& mm, GM_ADDR aGm, GM_ADDR bGm, GM_ADDR biasGm, GM_ADDR cGm, const TCubeTiling& t)
    {
        const uint32_t idx = AscendC::GetBlockIdx();
        const uint32_t mCores = Ceil(t.M, t.singleCoreM);
        const uint32_t mCore = idx % mCores, nCore = idx / mCores;
        a.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(aGm), t.M * t.Ka);
        b.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(bGm), t.Kb * t.N);
        bias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(biasGm), t.N);
        c.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(cGm), t.M * t.N);
        a = a[mCore * t.singleCoreM * t.Ka];
        b = b[nCore * t.singleCoreN];
        bias = bias[nCore * t.singleCoreN];
        c = c[mCore * t.singleCoreM * t.N + nCore * t.singleCoreN];
        rows = t.M - static_cast<int32_t>(mCore * t.singleCoreM);
        cols = t.N - static_cast<int32_t>(nCore * t.singleCoreN);
        rows = rows < t.singleCoreM ? rows : t.singleCoreM;
        cols = cols < t.singleCoreN ? cols : t.singleCoreN;
        if (rows < t.singleCoreM || cols < t.singleCoreN) mm.SetTail(rows, cols);
    }
    __aicore__ inline void Set(MM& mm, bool withBias = true)
    {
        mm.SetTensorA(a);
        mm.SetTensorB(b);
        if (withBias) mm.SetBias(bias);
    }
};

// ---- matmul + bias + LeakyRelu (C at VECIN, one block at a time) -------------------------------------------

enum class Fault {
    kNone,
    kSmallLocal,        // GetTensorC into a LocalTensor smaller than baseM x baseN
    kNotSequential,     // GetTensorC into a one-block LocalTensor without enSequentialWrite
    kGetBeforeIterate,  // GetTensorC with no Iterate since SetTensorA/B
    kIterateTwice,      // the next Iterate before GetTensorC fetched the block
    kAicCalls,          // the AIC drives the object before REGIST_MATMUL_OBJ
    kNoEnd,             // the AIV returns without End
    kNoSetTensor,       // Iterate with no SetTensorA/SetTensorB
    kAsyncGet,          // GetTensorC<false> into the LocalTensor after Iterate<true>
    kWorkspaceGet,      // GetTensorC<false>() (the block in the SetWorkspace buffer) after Iterate<true>
    kAtomicLocal,       // GetTensorC into the LocalTensor with enAtomic = 1
    kAsyncAllLocal,     // IterateAll<false> into a LocalTensor
    kPartialSum,        // Iterate(enPartialSum = true)
    kInitFirst,         // the AIV calls Init before REGIST_MATMUL_OBJ
};

template <Fault fault>
__aicore__ inline void LeakyReluKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                       const TCubeTiling& tiling, float alpha)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> product;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> activated;
    matmul::Matmul<AType, BType, CUbType, BiasType> mm;
    if constexpr (fault == Fault::kAicCalls) {
        if ASCEND_IS_AIC {
            mm.SetOrgShape(tiling.M, tiling.N, tiling.Ka);
        }
    }
    if constexpr (fault == Fault::kInitFirst) {
        if ASCEND_IS_AIV {
            mm.Init(&tiling);
        }
    }
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    (void)workspace;
    Tile<decltype(mm)> tile;
    tile.Bind(mm, a, b, bias, c, tiling);
    if constexpr (fault != Fault::kNoSetTensor) tile.Set(mm);
    const uint32_t block = tiling.baseM * tiling.baseN;
    const uint32_t local = fault == Fault::kSmallLocal ? block / 2 : block;
    pipe.InitBuffer(product, 1, local * sizeof(float));
    pipe.InitBuffer(activated, 1, block * sizeof(float));
    if constexpr (fault == Fault::kGetBeforeIterate) {
        AscendC::LocalTensor<float> early = product.AllocTensor<float>();
        mm.template GetTensorC<true>(early, false, true);
        product.FreeTensor(early);
    }
    if constexpr (fault == Fault::kAsyncAllLocal) {
        AscendC::LocalTensor<float> all = product.AllocTensor<float>();
        mm.template IterateAll<false>(all);
        product.FreeTensor(all);
    }
    // The blocks go along M first (iterateOrder 0): block i is at base row i % mBlocks, column i / mBlocks.
    const uint32_t mBlocks = Ceil(tile.rows, tiling.baseM);
    uint32_t i = 0;
    while (mm.template Iterate<true>(fault == Fault::kPartialSum)) {
        if constexpr (fault == Fault::kIterateTwice) {
            mm.template Iterate<true>();
        }
        AscendC::LocalTensor<float> p = product.AllocTensor<float>();
        if constexpr (fault == Fault::kWorkspaceGet) {
            (void)mm.template GetTensorC<false>();
        }
        mm.template GetTensorC<fault != Fault::kAsyncGet>(p, fault == Fault::kAtomicLocal ? 1 : 0,
                                                          fault != Fault::kNotSequential);
        product.EnQue(p);
        p = product.DeQue<float>();
        AscendC::LocalTensor<float> r = activated.AllocTensor<float>();
        AscendC::LeakyRelu(r, p, alpha, block);
        activated.EnQue(r);
        r = activated.DeQue<float>();
        product.FreeTensor(p);
        const uint32_t row = i % mBlocks, col = i / mBlocks;
        const uint32_t rows = tile.rows - row * tiling.baseM < tiling.baseM ? tile.rows - row * tiling.baseM : tiling.baseM;
        const uint32_t cols = tile.cols - col * tiling.baseN < tiling.baseN ? tile.cols - col * tiling.baseN : tiling.baseN;
        // The block is stored densely, rows `cols` wide; C's rows are N apart.
        AscendC::DataCopyExtParams out{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(float)), 0,
                                       static_cast<uint32_t>((tiling.N - cols) * sizeof(float)), 0};
        AscendC::DataCopyPad(tile.c[row * tiling.baseM * tiling.N + col * tiling.baseN], r, out);
        activated.FreeTensor(r);
        ++i;
    }
    if constexpr (fault != Fault::kNoEnd) mm.End();
}

}  // namespace

// The sample's form: __mix__(1, 2), the system workspace as a __kfc_workspace__ parameter, the tiling by value.
__global__ __mix__(1, 2) void matmul_leakyrelu(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                               __kfc_workspace__ GM_ADDR workspace, AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kNone>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_small_local(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kSmallLocal>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_not_sequential(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kNotSequential>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_get_before_iterate(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kGetBeforeIterate>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_iterate_twice(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kIterateTwice>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_aic_calls(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kAicCalls>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_no_end(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kNoEnd>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_no_set_tensor(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kNoSetTensor>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_async_get(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kAsyncGet>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_workspace_get(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kWorkspaceGet>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_atomic_local(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kAtomicLocal>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_async_all_local(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kAsyncAllLocal>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_partial_sum(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kPartialSum>(a, b, bias, c, workspace, tiling, 0.001f);
}

__global__ __mix__(1, 2) void leakyrelu_init_first(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, __kfc_workspace__ GM_ADDR workspace,
                              AscendC::tiling::TCubeTiling tiling)
{
    LeakyReluKernel<Fault::kInitFirst>(a, b, bias, c, workspace, tiling, 0.001f);
}

// ---- C in GM: IterateAll, synchronous and asynchronous ------------------------------------------------------

namespace {

enum class AllForm {
    kSync,
    kSharedCheck,  // as kSync, but both AIVs of a block copy their 8 floats to the same bytes of `check`: a race
    kAsyncWait,
    kAsyncNoWaitFlag,
    kAsyncReadEarly,
    kTwice,            // a second IterateAll with no SetTensorA/SetTensorB since the first
    kWaitAfterSync,    // WaitIterateAll after a synchronous IterateAll
    kAsyncIterateGm,   // Iterate<false> with C at GM
    kAtomic,           // IterateAll with enAtomic = 1 (AtomicAdd into C)
    kAtomicMax,        // IterateAll with enAtomic = 2 (AtomicMax)
    kAtomicBad,        // IterateAll with enAtomic = 4 (no such mode)
    kFakeMsg,          // IterateAll with fakeMsg = true
};

using GmMatmul = matmul::Matmul<AType, BType, CGmType, BiasType>;

// The work of an AIV after REGIST_MATMUL_OBJ: its tile through IterateAll, then the tile's first 8 floats read
// back into `check`.
template <AllForm form>
__aicore__ inline void RunIterateAll(GmMatmul& mm, AscendC::TPipe& pipe, const TCubeTiling& tiling, GM_ADDR a,
                                     GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check)
{
    Tile<GmMatmul> tile;
    tile.Bind(mm, a, b, bias, c, tiling);
    tile.Set(mm);
    if constexpr (form == AllForm::kAsyncIterateGm) {
        mm.SetWorkspace(tile.c);
        mm.template Iterate<false>();
    }
    if constexpr (form == AllForm::kAtomic || form == AllForm::kAtomicMax || form == AllForm::kAtomicBad ||
                  form == AllForm::kFakeMsg) {
        constexpr uint8_t enAtomic = form == AllForm::kAtomic ? 1 : form == AllForm::kAtomicMax ? 2
                                     : form == AllForm::kAtomicBad ? 4 : 0;
        mm.IterateAll(tile.c, enAtomic, false, false, form == AllForm::kFakeMsg);
    } else if constexpr (form == AllForm::kSync || form == AllForm::kSharedCheck || form == AllForm::kTwice ||
                         form == AllForm::kWaitAfterSync) {
        mm.IterateAll(tile.c);
        if constexpr (form == AllForm::kTwice) mm.IterateAll(tile.c);
        if constexpr (form == AllForm::kWaitAfterSync) mm.WaitIterateAll();
    } else {
        mm.template IterateAll<false>(tile.c, 0, false, form != AllForm::kAsyncNoWaitFlag);
        if constexpr (form != AllForm::kAsyncReadEarly) mm.WaitIterateAll();
    }
    // Reads back the first 8 floats of the tile (the AIC wrote them): ordered after the IterateAll by its
    // notification, unless the kernel reads before WaitIterateAll.
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 32);
    AscendC::LocalTensor<float> first = q.AllocTensor<float>();
    AscendC::DataCopy(first, tile.c, 8);
    q.EnQue(first);
    first = q.DeQue<float>();
    AscendC::GlobalTensor<float> out;
    const int64_t slot = form == AllForm::kSharedCheck ? AscendC::GetBlockIdx() / 2 : AscendC::GetBlockIdx();
    out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(check) + slot * 8, 8);
    AscendC::DataCopy(out, first, 8);
    q.FreeTensor(first);
    if constexpr (form == AllForm::kAsyncReadEarly) mm.WaitIterateAll();
    mm.End();
}

template <AllForm form>
__aicore__ inline void IterateAllKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                        GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTilingFromGm(&tiling, tilingGm);
    AscendC::TPipe pipe;
    GmMatmul mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    RunIterateAll<form>(mm, pipe, tiling, a, b, bias, c, check);
}

// The AIVs register `aivObjects` Matmul objects, the AIC `aicObjects`; the AIVs compute with the last one.
template <uint32_t aivObjects, uint32_t aicObjects>
__aicore__ inline void ObjectsKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTilingFromGm(&tiling, tilingGm);
    AscendC::TPipe pipe;
    GmMatmul mm0, mm1, mm2, mm3, mm4;
    const uint32_t objects = ASCEND_IS_AIC ? aicObjects : aivObjects;
    if (objects == 1) {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm0, &tiling);
        RunIterateAll<AllForm::kSync>(mm0, pipe, tiling, a, b, bias, c, check);
    } else if (objects == 2) {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm0, &tiling, mm1, &tiling);
        RunIterateAll<AllForm::kSync>(mm1, pipe, tiling, a, b, bias, c, check);
    } else if (objects == 4) {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm0, &tiling, mm1, &tiling, mm2, &tiling, mm3, &tiling);
        RunIterateAll<AllForm::kSync>(mm3, pipe, tiling, a, b, bias, c, check);
    } else {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm0, &tiling, mm1, &tiling, mm2, &tiling, mm3, &tiling, mm4,
                          &tiling);
        RunIterateAll<AllForm::kSync>(mm4, pipe, tiling, a, b, bias, c, check);
    }
}

}  // namespace

// No declared type: the Matmul object makes these 1:2 MIX kernels (the device compiler infers it).
__global__ __aicore__ void matmul_iterate_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                              __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kSync>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void matmul_async_iterate_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                    __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kAsyncWait>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void async_all_without_wait_flag(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                       __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kAsyncNoWaitFlag>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void async_all_read_before_wait(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                      __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kAsyncReadEarly>(a, b, bias, c, check, tiling);
}

// Planted fault: the two AIVs of a block write the same 8 floats of `check`; only the order in which their AIC
// served their IterateAll messages could order the writes, and the program does not fix that order.
__global__ __aicore__ void iterate_all_shared_check(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                    __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kSharedCheck>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void iterate_all_twice(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                             __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kTwice>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void wait_after_sync_iterate_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                       __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kWaitAfterSync>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void async_iterate_c_in_gm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                 __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kAsyncIterateGm>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void iterate_all_atomic(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                              __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kAtomic>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void iterate_all_atomic_max(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                  __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kAtomicMax>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void iterate_all_atomic_bad(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                  __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kAtomicBad>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void iterate_all_fake_msg(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    IterateAllKernel<AllForm::kFakeMsg>(a, b, bias, c, check, tiling);
}

// Several Matmul objects: four on each core type (the API's most), five, and two on the AIVs against one on the AIC.
__global__ __aicore__ void four_matmul_objects(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                               __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    ObjectsKernel<4, 4>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void five_matmul_objects(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                               __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    ObjectsKernel<5, 5>(a, b, bias, c, check, tiling);
}

__global__ __aicore__ void aic_registers_fewer_objects(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                       __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    ObjectsKernel<2, 1>(a, b, bias, c, check, tiling);
}

// A 1:1 MIX kernel (one AIV per AIC), declared with KERNEL_TASK_TYPE_DEFAULT.
__global__ __aicore__ void matmul_iterate_all_1_1(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    (void)workspace;
    IterateAllKernel<AllForm::kSync>(a, b, bias, c, check, tiling);
}

// A vector-only kernel type with a MIX Matmul object: refused (the AIVs would have no AIC to serve them).
__global__ __aicore__ void matmul_in_aiv_only_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    (void)workspace;
    IterateAllKernel<AllForm::kSync>(a, b, bias, c, check, tiling);
}

// ---- C at VECIN, asynchronous: Iterate<false> into a SetWorkspace buffer, GetTensorC<false> ----------------

namespace {

enum class AsyncFault {
    kNone,
    kNoWorkspace,
    kOneGetTooMany,
    kSmallWorkspace,  // a SetWorkspace buffer of two blocks for a walk of more
    kGetIntoGm,       // GetTensorC into GM after Iterate<false>
    kUnsizedWorkspace,  // SetWorkspace with a GlobalTensor set without a size
};

template <AsyncFault fault>
__aicore__ inline void AsyncIterateKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                          GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTilingFromGm(&tiling, tilingGm);
    AscendC::TPipe pipe;
    matmul::Matmul<AType, BType, CUbType, BiasType, CFG_MDL> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    Tile<decltype(mm)> tile;
    tile.Bind(mm, a, b, bias, c, tiling);
    // The user part of the workspace (after the system's GetLibApiWorkSpaceSize() bytes): each AIV caches its
    // blocks in singleCoreM x singleCoreN floats of its own.
    AscendC::GlobalTensor<float> cache;
    const uint32_t block = tiling.baseM * tiling.baseN;
    const uint32_t own = tiling.singleCoreM * tiling.singleCoreN;
    __gm__ float* const cacheAddr =
        reinterpret_cast<__gm__ float*>(workspace + 16 * 1024 * 1024) + AscendC::GetBlockIdx() * own;
    if constexpr (fault == AsyncFault::kUnsizedWorkspace) {
        cache.SetGlobalBuffer(cacheAddr);
    } else {
        cache.SetGlobalBuffer(cacheAddr, fault == AsyncFault::kSmallWorkspace ? 2 * block : own);
    }
    tile.Set(mm);
    if constexpr (fault != AsyncFault::kNoWorkspace) mm.SetWorkspace(cache);
    mm.template Iterate<false>();
    if constexpr (fault == AsyncFault::kGetIntoGm) mm.GetTensorC(tile.c);
    AscendC::TQue<AscendC::TPosition::VECIN, 1> in;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> out;
    pipe.InitBuffer(in, 1, block * sizeof(float));
    pipe.InitBuffer(out, 1, block * sizeof(float));
    const uint32_t mBlocks = Ceil(tile.rows, tiling.baseM);
    const uint32_t blocks = mBlocks * Ceil(tile.cols, tiling.baseN) + (fault == AsyncFault::kOneGetTooMany ? 1 : 0);
    for (uint32_t i = 0; i < blocks; ++i) {
        AscendC::LocalTensor<float> p = in.AllocTensor<float>();
        mm.template GetTensorC<false>(p);
        in.EnQue(p);
        p = in.DeQue<float>();
        AscendC::LocalTensor<float> r = out.AllocTensor<float>();
        AscendC::DataCopy(r, p, block);
        out.EnQue(r);
        in.FreeTensor(p);
        r = out.DeQue<float>();
        const uint32_t row = i % mBlocks, col = i / mBlocks;
        const uint32_t rows = tile.rows - row * tiling.baseM < tiling.baseM ? tile.rows - row * tiling.baseM : tiling.baseM;
        const uint32_t cols = tile.cols - col * tiling.baseN < tiling.baseN ? tile.cols - col * tiling.baseN : tiling.baseN;
        AscendC::DataCopyExtParams params{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(float)), 0,
                                          static_cast<uint32_t>((tiling.N - cols) * sizeof(float)), 0};
        AscendC::DataCopyPad(tile.c[row * tiling.baseM * tiling.N + col * tiling.baseN], r, params);
        out.FreeTensor(r);
    }
    mm.End();
}

}  // namespace

__global__ __aicore__ void matmul_async_iterate(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    AsyncIterateKernel<AsyncFault::kNone>(a, b, bias, c, workspace, tiling);
}

__global__ __aicore__ void async_iterate_without_workspace(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                           __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    AsyncIterateKernel<AsyncFault::kNoWorkspace>(a, b, bias, c, workspace, tiling);
}

__global__ __aicore__ void async_get_past_the_end(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                  __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    AsyncIterateKernel<AsyncFault::kOneGetTooMany>(a, b, bias, c, workspace, tiling);
}

// ---- the launch model's faults --------------------------------------------------------------------------------

// AIV 1 of each block returns before REGIST_MATMUL_OBJ: its client never runs, so the AIC serving the block
// never hears that it ended (on the NPU the AIC waits forever).
__global__ __mix__(1, 2) void aiv_skips_registration(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                     __kfc_workspace__ GM_ADDR workspace,
                                                     AscendC::tiling::TCubeTiling tiling)
{
    if (ASCEND_IS_AIV && AscendC::GetSubBlockIdx() == 1) return;
    LeakyReluKernel<Fault::kNone>(a, b, bias, c, workspace, tiling, 0.001f);
}

// The kernel writes GM before its KERNEL_TASK_TYPE_DEFAULT(MIX): the twin learns the type too late to lay the
// launch out again (it would repeat the write).
__global__ __aicore__ void type_declared_after_a_write(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR check,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::GlobalTensor<float> out;
    out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(check) + AscendC::GetBlockIdx() * 8, 8);
    out.SetValue(0, 1.0f);
    AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(
        out);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    (void)workspace;
    IterateAllKernel<AllForm::kSync>(a, b, bias, c, check, tiling);
}

// Which core is which: every core writes (GetBlockIdx, GetSubBlockIdx, GetSubBlockNum, GetTaskRatio,
// GetBlockNum, core type) into a 64-byte slot of its own (a data cache line): per block the AIC's slot, then its
// AIVs' (KERNEL_TYPE_MIX_AIC_1_2).
__global__ __aicore__ void core_identity(GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    const int64_t block = ASCEND_IS_AIC ? AscendC::GetBlockIdx() : AscendC::GetBlockIdx() / AscendC::GetTaskRatio();
    const int64_t slot = block * 3 + (ASCEND_IS_AIC ? 0 : 1 + AscendC::GetSubBlockIdx());
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out) + slot * 16, 16);
    g.SetValue(0, static_cast<int32_t>(AscendC::GetBlockIdx()));
    g.SetValue(1, static_cast<int32_t>(AscendC::GetSubBlockIdx()));
    g.SetValue(2, static_cast<int32_t>(AscendC::GetSubBlockNum()));
    g.SetValue(3, static_cast<int32_t>(AscendC::GetTaskRatio()));
    g.SetValue(4, static_cast<int32_t>(AscendC::GetBlockNum()));
    g.SetValue(5, g_coreType);
    g.SetValue(6, ASCEND_IS_AIV ? 1 : 0);
    g.SetValue(7, ASCEND_IS_NOT_AIC ? 1 : 0);
    AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(g);
}

// ---- a MatmulConfig's iterateOrder; GetTensorC into GM in walk order; GetTensorC<false>() and AsyncGetTensorC ----

namespace {

constexpr MatmulConfig kOrderN = GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true,
                                                 IterateOrder::ORDER_N);

// Each block goes densely (enSequentialWrite) to the next baseM * baseN floats of `blocks`, in the order Iterate
// walks them: along N first (the configuration's ORDER_N over the tiling's ORDER_M). GetTensorC<false> posts each
// block's write without waiting for it (the kernel does not read C back).
template <bool syncGet, bool oneGetTooMany = false>
__aicore__ inline void BlocksInWalkOrder(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR blocks, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTilingFromGm(&tiling, tilingGm);
    AscendC::TPipe pipe;
    matmul::Matmul<AType, BType, CGmType, BiasType, kOrderN> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    Tile<decltype(mm)> tile;
    tile.Bind(mm, a, b, bias, blocks, tiling);
    AscendC::GlobalTensor<float> out;
    const uint32_t block = tiling.baseM * tiling.baseN;
    const uint32_t perCore = Ceil(tiling.singleCoreM, tiling.baseM) * Ceil(tiling.singleCoreN, tiling.baseN);
    out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(blocks) + AscendC::GetBlockIdx() * perCore * block,
                        perCore * block);
    tile.Set(mm);
    uint32_t i = 0;
    while (mm.Iterate()) {
        mm.template GetTensorC<syncGet>(out[i * block], 0, true);
        ++i;
    }
    if constexpr (oneGetTooMany) mm.GetTensorC(out, 0, true);  // Iterate returned false: no block
    mm.End();
}

// Iterate<false>; even blocks through GetTensorC<false>() (a GlobalTensor in the workspace, copied by the kernel),
// odd ones through AsyncGetTensorC + WaitGetTensorC. C is written densely per block, like above.
__aicore__ inline void AsyncForms(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR blocks, GM_ADDR workspace,
                                  GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTilingFromGm(&tiling, tilingGm);
    AscendC::TPipe pipe;
    matmul::Matmul<AType, BType, CUbType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    Tile<decltype(mm)> tile;
    tile.Bind(mm, a, b, bias, blocks, tiling);
    const uint32_t block = tiling.baseM * tiling.baseN;
    const uint32_t perCore = Ceil(tiling.singleCoreM, tiling.baseM) * Ceil(tiling.singleCoreN, tiling.baseN);
    AscendC::GlobalTensor<float> cache, out;
    cache.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace + 16 * 1024 * 1024) +
                              AscendC::GetBlockIdx() * perCore * block, perCore * block);
    out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(blocks) + AscendC::GetBlockIdx() * perCore * block,
                        perCore * block);
    tile.Set(mm);
    mm.SetWorkspace(cache);
    mm.template Iterate<false>();
    AscendC::TQue<AscendC::TPosition::VECIN, 1> in;
    pipe.InitBuffer(in, 1, block * sizeof(float));
    for (uint32_t i = 0; i < perCore; ++i) {
        AscendC::LocalTensor<float> t = in.AllocTensor<float>();
        if (i % 2 == 0) {
            AscendC::GlobalTensor<float> next = mm.template GetTensorC<false>();
            AscendC::DataCopy(t, next, block);
        } else {
            mm.AsyncGetTensorC(t);
            mm.WaitGetTensorC();
        }
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::DataCopy(out[i * block], t, block);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        in.FreeTensor(t);
    }
    mm.End();
}

}  // namespace

__global__ __aicore__ void blocks_in_walk_order(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR blocks,
                                                __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    BlocksInWalkOrder<true>(a, b, bias, blocks, tiling);
}

__global__ __aicore__ void blocks_in_walk_order_async_get(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR blocks,
                                                          __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    BlocksInWalkOrder<false>(a, b, bias, blocks, tiling);
}

__global__ __aicore__ void walk_get_after_the_end(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR blocks,
                                                  __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    BlocksInWalkOrder<true, true>(a, b, bias, blocks, tiling);
}

__global__ __aicore__ void async_get_forms(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR blocks,
                                           __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    AsyncForms(a, b, bias, blocks, workspace, tiling);
}

__global__ __aicore__ void async_small_workspace(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    AsyncIterateKernel<AsyncFault::kSmallWorkspace>(a, b, bias, c, workspace, tiling);
}

__global__ __aicore__ void async_get_into_gm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                            __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    AsyncIterateKernel<AsyncFault::kGetIntoGm>(a, b, bias, c, workspace, tiling);
}

__global__ __aicore__ void async_unsized_workspace(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                  __kfc_workspace__ GM_ADDR workspace, GM_ADDR tiling)
{
    AsyncIterateKernel<AsyncFault::kUnsizedWorkspace>(a, b, bias, c, workspace, tiling);
}

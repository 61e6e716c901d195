// MatMul: c = op(a) @ op(b) (+ bias) with the Matmul high-level API on the cube cores.
//
// Pure Cube mode (no vector work, as the Matmul documentation recommends for matrix-only kernels): one
// block per AI Cube core. The tiling splits C over a grid of cores; each core points the Matmul object at
// its block of A, B, bias and C, sets its block size with SetTail, and lets IterateAll walk the base
// blocks, accumulating K in L0C in float32 and writing C in the input dtype. Transposed operands are read
// in place: the kernel is instantiated for each (transA, transB) with MatmulType's ISTRANS equal to the
// flag given to SetTensorA/SetTensorB, as the SetTensorA/SetTensorB docs require for float inputs (half and
// bfloat16_t may alternate at run time; one rule for every dtype keeps the L1 sizing the same). bias is
// float32 (double in the CPU twin's float64 build, which exists for gradient checks only; the NPU has no
// float64 matmul).
#define ASCENDC_CUBE_ONLY  // before lib/matmul_intf.h: the Matmul object runs on the cube core itself
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "matmul_tiling_data.h"

using namespace AscendC;

namespace {

// The bias type of the A2 Matmul table for every NPU dtype; the twin's float64 build keeps it in double.
template <typename T>
struct MatmulBias {
    using Type = float;
};
template <>
struct MatmulBias<double> {
    using Type = double;
};

template <typename T, bool kTransA, bool kTransB>
class KernelMatmul {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T, kTransA>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, kTransB>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasT = typename MatmulBias<T>::Type;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, BiasT>;

    __aicore__ inline KernelMatmul() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const MatmulTilingData& tiling)
    {
        const TCubeTiling& t = tiling.cubeTiling;
        const uint64_t m = static_cast<uint64_t>(t.M);
        const uint64_t n = static_cast<uint64_t>(t.N);
        const uint64_t k = static_cast<uint64_t>(t.Ka);
        const uint32_t core = static_cast<uint32_t>(GetBlockIdx());
        uint64_t m0 = 0;
        uint64_t n0 = 0;
        AxisBlock(core % tiling.mCoreNum, tiling.mFormerNum, tiling.mFormerLen, tiling.mTailLen, m, m0, blockM_);
        AxisBlock(core / tiling.mCoreNum, tiling.nFormerNum, tiling.nFormerLen, tiling.nTailLen, n, n0, blockN_);
        hasBias_ = t.isBias != 0;

        // A is [M, K] or, transposed, stored [K, M]; B is [K, N] or stored [N, K]; C is [M, N].
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), m * k);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), k * n);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(c), m * n);
        aGm_ = aGm_[kTransA ? m0 : m0 * k];
        bGm_ = bGm_[kTransB ? n0 * k : n0];
        cGm_ = cGm_[m0 * n + n0];
        if (hasBias_) {
            biasGm_.SetGlobalBuffer(reinterpret_cast<__gm__ BiasT*>(bias), n);
            biasGm_ = biasGm_[n0];
        }
    }

    __aicore__ inline void Process()
    {
        if (blockM_ == 0 || blockN_ == 0) {
            return;
        }
        mm.SetTensorA(aGm_, kTransA);
        mm.SetTensorB(bGm_, kTransB);
        if (hasBias_) {
            mm.SetBias(biasGm_);
        }
        mm.SetTail(static_cast<int>(blockM_), static_cast<int>(blockN_));
        mm.IterateAll(cGm_);
        mm.End();
    }

    Matmul<AType, BType, CType, BiasType> mm;

private:
    // Grid row (or column) idx: the first `former` take formerLen, the rest tailLen; the last stops at `length`.
    __aicore__ inline static void AxisBlock(uint32_t idx, uint32_t former, uint32_t formerLen, uint32_t tailLen,
                                            uint64_t length, uint64_t& offset, uint64_t& size)
    {
        if (idx < former) {
            offset = static_cast<uint64_t>(idx) * formerLen;
            size = formerLen;
        } else {
            offset = static_cast<uint64_t>(former) * formerLen + static_cast<uint64_t>(idx - former) * tailLen;
            size = tailLen;
        }
        const uint64_t left = offset < length ? length - offset : 0;
        size = size < left ? size : left;
    }

    GlobalTensor<T> aGm_;
    GlobalTensor<T> bGm_;
    GlobalTensor<T> cGm_;
    GlobalTensor<BiasT> biasGm_;
    uint64_t blockM_ = 0;
    uint64_t blockN_ = 0;
    bool hasBias_ = false;
};

template <typename T, bool kTransA, bool kTransB>
__aicore__ inline void RunMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const MatmulTilingData& tiling)
{
    TPipe pipe;
    KernelMatmul<T, kTransA, kTransB> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tiling.cubeTiling);
    op.Init(a, b, bias, c, tiling);
    op.Process();
}

}  // namespace

// The entry cannot be named `matmul`: the Matmul API declares `namespace matmul = AscendC;` at global scope.
// The op type is MatmulCube, so the op package looks for `matmul_cube`.
extern "C" __global__ __aicore__ void matmul_cube(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    (void)workspace;
    REGISTER_TILING_DEFAULT(MatmulTilingData);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    if (tilingData.cubeTiling.usedCoreNum == 0) {
        return;  // an empty C (M, N or K = 0): the caller fills it; the Matmul object needs positive sizes
    }
    using T = DTYPE_A;
    if (tilingData.transA != 0) {
        if (tilingData.transB != 0) {
            RunMatmul<T, true, true>(a, b, bias, c, tilingData);
        } else {
            RunMatmul<T, true, false>(a, b, bias, c, tilingData);
        }
    } else if (tilingData.transB != 0) {
        RunMatmul<T, false, true>(a, b, bias, c, tilingData);
    } else {
        RunMatmul<T, false, false>(a, b, bias, c, tilingData);
    }
}

// LoadDataWithTranspose feeding L0B as asc-devkit's mmad sample does for a B given [K, N]: C[16, N] = A[16, K] x
// B[K, N]. A and B go GM -> L1 with Nd2Nz (B as column blocks of C0 columns, K rows each); A reaches L0A with
// LoadData; B reaches L0B square by square: for each S rows of K (S = C0: 32 for int8_t, 16 for half), the N / C0
// squares of those rows, each transposed into S / 16 Zn fractals. Then Mmad and Fixpipe NZ -> ND. `fault` 1:
// dstGap 0 (int8_t: an iteration's second fractal and the next iteration's first land on the same bytes);
// 2: addrMode 1 (decrementing) from startIndex 0.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

struct LdtTiling {
    uint32_t k, n, fault;
};

template <typename T, typename C>
__aicore__ inline void LdtMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, const LdtTiling& t)
{
    constexpr uint32_t c0 = 32 / sizeof(T);
    constexpr uint32_t fractals = c0 / 16;
    GlobalTensor<T> aGm, bGm;
    GlobalTensor<C> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), 16 * t.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), t.k * t.n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(c), 16 * t.n);
    LocalTensor<T> a1(TPosition::A1, 0, 16 * t.k);
    LocalTensor<T> b1(TPosition::B1, 64 * 1024, t.k * t.n);
    DataCopy(a1, aGm, Nd2NzParams(1, 16, static_cast<uint16_t>(t.k), 0, static_cast<uint16_t>(t.k), 16, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, static_cast<uint16_t>(t.k), static_cast<uint16_t>(t.n), 0,
                                  static_cast<uint16_t>(t.n), static_cast<uint16_t>(t.k), 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LocalTensor<T> a2(TPosition::A2, 0, 16 * t.k);
    LocalTensor<T> b2(TPosition::B2, 0, t.k * t.n);
    LoadData(a2, a1, LoadData2DParams(0, static_cast<uint8_t>(t.k / c0), 1, 0, 0, false, 0));
    const uint32_t squares = t.k / c0;  // squares down one column block
    for (uint32_t i = 0; i < squares; ++i) {
        LoadData2dTransposeParams p(0, static_cast<uint8_t>(t.n / c0), static_cast<uint16_t>(squares),
                                    static_cast<uint16_t>(t.fault == 1 ? 0 : fractals - 1), 0,
                                    static_cast<uint8_t>(t.fault == 2 ? 1 : 0));
        LoadDataWithTranspose(b2[i * (t.n / 16) * 512 / sizeof(T)], b1[i * c0 * c0], p);
    }
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    LocalTensor<C> c1(TPosition::CO1, 0, 16 * t.n);
    MmadParams mp;
    mp.m = 16;
    mp.n = static_cast<uint16_t>(t.n);
    mp.k = static_cast<uint16_t>(t.k);
    Mmad(c1, a2, b2, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(cGm, c1, FixpipeParamsV220(static_cast<uint16_t>(t.n), 16, 16, t.n, false));
}

}  // namespace

extern "C" __global__ __aicore__ void ldt_int8(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    LdtMatmul<int8_t, int32_t>(a, b, c, *reinterpret_cast<__gm__ LdtTiling*>(tiling));
}

extern "C" __global__ __aicore__ void ldt_half(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    LdtMatmul<half, float>(a, b, c, *reinterpret_cast<__gm__ LdtTiling*>(tiling));
}

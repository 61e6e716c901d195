// LoadData (卷积数据搬运) v2 through Mmad: a feature map (NC1HWC0, N = 1) copied GM -> L1, its img2col slice
// loaded by LoadData with LoadData3DParamsV2 into L0A (`mode` 0: A = the slice, or its transpose with
// enTranspose) or L0B (`mode` 1: B = the slice), the other operand from GM through Nd2Nz and LoadData2D (mode 0:
// B given as B^T, N x K; mode 1: A, M x K), Mmad into L0C and Fixpipe to GM (ND). `config` 1 sets the Feature
// Map and the pad value with SetFmatrix and SetLoadDataPaddingValue and loads with IsResetLoad3dConfig {false,
// false}; `boundary` calls SetLoadDataBoundary first, and with `wrapBytes` the last wrapBytes of the map are
// placed at L1 byte 0 (where reads past the boundary wrap to). `fault` plants one broken rule at a time (0: none).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

struct Load3dTiling {
    uint32_t mode, fault, config, fmElems;
    uint32_t l1H, l1W, channelSize, kExt, mExt, kStart, mStart;
    uint32_t strideW, strideH, filterW, filterH, dilW, dilH;
    uint32_t pad[4];
    uint32_t transpose, other;
    uint32_t padBits;  // the pad value's bits in T (low bytes)
    uint32_t fmOffset, boundary, wrapBytes;
    uint32_t filterSize;  // bit 0: filterSizeW, bit 1: filterSizeH (the filter 256 wider / higher)
};

constexpr uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr IsResetLoad3dConfig KEEP_REGISTERS = {false, false};

template <typename T, typename C>
__aicore__ inline void Img2colMatmul(GM_ADDR fm, GM_ADDR other, GM_ADDR c, const Load3dTiling& t)
{
    constexpr uint32_t c0 = 32 / sizeof(T);
    constexpr uint32_t frac = 512 / sizeof(T);  // elements of a fractal
    const bool toL0B = t.mode == 1;
    const bool transposed = !toL0B && t.transpose != 0;
    // Mmad's sizes: the slice is mExt x kExt.
    uint32_t m, n, k;
    if (toL0B) {
        m = t.other, k = t.mExt, n = t.kExt;
    } else if (transposed) {
        m = t.kExt, k = t.mExt, n = t.other;
    } else {
        m = t.mExt, k = t.kExt, n = t.other;
    }
    const uint32_t mb = CeilDivU(m, 16), nb = CeilDivU(n, 16), kb = CeilDivU(k, c0);

    GlobalTensor<T> fmGm, otherGm;
    GlobalTensor<C> cGm;
    fmGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(fm), t.fmElems);
    otherGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(other), (toL0B ? m : n) * k);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(c), m * n);

    // L1: the map at fmOffset (its tail at 0 when wrapped), the other operand after it.
    const uint32_t fmBytes = t.fmElems * sizeof(T);
    LocalTensor<T> fm1(TPosition::A1, t.fmOffset, t.fmElems);
    const uint32_t otherAddr = (t.fmOffset + fmBytes + 511) / 512 * 512;
    const uint32_t otherElems = (toL0B ? mb * 16 * CeilDivU(k, c0) * c0 : nb * 16 * kb * c0);
    LocalTensor<T> other1(TPosition::B1, otherAddr, otherElems);
    if (t.wrapBytes == 0) {
        DataCopy(fm1, fmGm, DataCopyParams(1, static_cast<uint16_t>(fmBytes / 32), 0, 0));
    } else {  // the map's head up to the boundary, its tail at L1 byte 0
        const uint32_t head = fmBytes - t.wrapBytes;
        LocalTensor<T> tail1(TPosition::A1, 0, t.wrapBytes / sizeof(T));
        DataCopy(fm1, fmGm, DataCopyParams(1, static_cast<uint16_t>(head / 32), 0, 0));
        DataCopy(tail1, fmGm[head / sizeof(T)], DataCopyParams(1, static_cast<uint16_t>(t.wrapBytes / 32), 0, 0));
    }
    if (toL0B) {
        DataCopy(other1, otherGm, Nd2NzParams(1, m, k, 0, k, mb * 16, 1, 0));
    } else {
        DataCopy(other1, otherGm, Nd2NzParams(1, n, k, 0, k, nb * 16, 1, 0));
    }
    PipeBarrier<PIPE_ALL>();

    LoadData3DParamsV2<T> p;
    for (int i = 0; i < 4; ++i) p.padList[i] = static_cast<uint8_t>(t.pad[i]);
    p.l1H = t.l1H;
    p.l1W = t.l1W;
    p.channelSize = t.channelSize;
    p.kExtension = t.kExt;
    p.mExtension = t.mExt;
    p.kStartPt = t.kStart;
    p.mStartPt = t.mStart;
    p.strideW = t.strideW;
    p.strideH = t.strideH;
    p.filterW = t.filterW;
    p.filterH = t.filterH;
    p.dilationFilterW = t.dilW;
    p.dilationFilterH = t.dilH;
    p.enTranspose = t.transpose != 0;
    p.filterSizeW = (t.filterSize & 1) != 0;
    p.filterSizeH = (t.filterSize & 2) != 0;
    p.padValue = *reinterpret_cast<const T*>(&t.padBits);
    switch (t.fault) {
        case 1: p.channelSize += 2; break;                      // not a documented channelSize
        case 2: p.fMatrixCtrl = true; break;                    // only false is supported
        case 3: p.kStartPt += 1; break;                         // not a multiple of C0
        case 4: p.mExtension -= 1; break;                       // b16, not a multiple of 16, not the last fractal
        case 5: p.strideW = 0; break;                           // below 1
        case 6: p.dilationFilterH = 0; break;                   // below 1
        case 7: p.filterW = t.l1W + t.pad[0] + t.pad[1] + 1; break;  // wider than the padded map
        case 8: p.mExtension += 16; break;                      // past the img2col matrix's rows
        case 10: p.enSmallK = true; break;                      // no longer supported
        case 12: p.enTranspose = true; break;                   // (int8_t) b8 into L0A transposed
        case 20: p.kExtension -= 1; break;                      // not a multiple of C0, not the last fractal
        case 22: p.channelSize += 4; break;                     // N*16+4: documented, not modelled
        default: break;
    }
    if (t.fault == 16) SetLoadDataBoundary(512);
    if (t.fault == 17) SetLoadDataBoundary(t.fmOffset);  // the map starts at the boundary
    if (t.fault == 18) SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 2));
    if (t.fault == 19) SetLoadDataRepeat(LoadDataRepeatParam(0, 2, 0));
    if (t.boundary != 0) SetLoadDataBoundary(t.boundary);
    if (t.fault == 0 && t.boundary != 0) SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0));

    const uint32_t sliceFractals = (!toL0B && !transposed) ? CeilDivU(t.mExt, 16) * CeilDivU(t.kExt, c0)
                                                           : CeilDivU(t.kExt, 16) * (CeilDivU(t.mExt, 16) * 16 / c0);
    const uint32_t a2Elems = toL0B ? mb * kb * frac : (t.fault == 21 ? frac : sliceFractals * frac);
    const uint32_t b2Elems = toL0B ? sliceFractals * frac : kb * nb * frac;
    LocalTensor<T> a2(TPosition::A2, 0, a2Elems);
    LocalTensor<T> b2(TPosition::B2, 0, b2Elems);
    LocalTensor<T> img = toL0B ? b2 : a2;
    if (t.fault == 9) img = LocalTensor<T>(TPosition::A1, otherAddr + otherElems * sizeof(T), sliceFractals * frac);
    // fault 23 (not a fault): the loaded L0B tensor ends at the last element written, without the last fractal's
    // unwritten padded half (float, kExtension 8 past a multiple of 16); Mmad reads the whole fractals.
    if (t.fault == 23) img = LocalTensor<T>(TPosition::B2, 0, sliceFractals * frac - frac / 2);
    if (t.fault == 24) img = LocalTensor<T>(TPosition::B2, 0, sliceFractals * frac - frac / 2 - 8);  // 32 B short
    if (t.fault == 11) fm1 = LocalTensor<T>(TPosition::A1, t.fmOffset, t.fmElems / 4);  // reads past its end
    if (t.config == 0 && t.fault != 13) {
        LoadData(img, fm1, p);
    } else {
        if (t.fault == 14) SetFmatrix(p.l1H, p.l1W, p.padList, FmatrixMode::FMATRIX_RIGHT);
        if (t.fault == 15) SetFmatrix(0, p.l1W, p.padList, FmatrixMode::FMATRIX_LEFT);
        if (t.fault != 13) SetFmatrix(p.l1H, p.l1W, p.padList, FmatrixMode::FMATRIX_LEFT);
        SetLoadDataPaddingValue<T>(p.padValue);
        LoadDataRepeatParam once;
        SetLoadDataRepeat(once);
        LoadData3DParamsV2<T> q = p;  // the call's own Feature Map and pad are not used
        q.l1H = 1;
        q.l1W = 1;
        q.padList[0] = q.padList[1] = q.padList[2] = q.padList[3] = 0;
        q.padValue = *reinterpret_cast<const T*>(&t.fault);  // any value: not used
        LoadData<T, KEEP_REGISTERS>(img, fm1, q);
    }

    // The other operand: B^T's NZ is L0B's ZN as it is; A's NZ goes to L0A's ZZ a 16-row block at a time.
    LoadData2DParams l2;
    l2.srcStride = 1;
    if (toL0B) {
        l2.repeatTimes = static_cast<uint8_t>(kb);
        l2.srcStride = static_cast<uint16_t>(mb);
        for (uint32_t i = 0; i < mb; ++i) LoadData(a2[i * kb * frac], other1[i * 16 * c0], l2);
    } else {
        l2.repeatTimes = static_cast<uint8_t>(nb);
        for (uint32_t i = 0; i < kb; ++i) LoadData(b2[i * nb * frac], other1[i * nb * frac], l2);
    }
    PipeBarrier<PIPE_ALL>();

    LocalTensor<C> c1(TPosition::CO1, 0, mb * nb * 256);
    MmadParams mp;
    mp.m = static_cast<uint16_t>(m);
    mp.n = static_cast<uint16_t>(n);
    mp.k = static_cast<uint16_t>(k);
    mp.cmatrixInitVal = true;
    mp.kDirectionAlign = sizeof(T) == 4 && transposed;  // the transposed float slice pads K to 16
    Mmad(c1, a2, b2, mp);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp;
    fp.nSize = static_cast<uint16_t>(n);
    fp.mSize = static_cast<uint16_t>(m);
    fp.srcStride = mb * 16;
    fp.dstStride = n;
    fp.ndNum = 1;
    Fixpipe(cGm, c1, fp);
}

}  // namespace

extern "C" __global__ __aicore__ void load3d_half(GM_ADDR fm, GM_ADDR other, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Img2colMatmul<half, float>(fm, other, c, *reinterpret_cast<__gm__ Load3dTiling*>(tiling));
}

extern "C" __global__ __aicore__ void load3d_bf16(GM_ADDR fm, GM_ADDR other, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Img2colMatmul<bfloat16_t, float>(fm, other, c, *reinterpret_cast<__gm__ Load3dTiling*>(tiling));
}

extern "C" __global__ __aicore__ void load3d_float(GM_ADDR fm, GM_ADDR other, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Img2colMatmul<float, float>(fm, other, c, *reinterpret_cast<__gm__ Load3dTiling*>(tiling));
}

extern "C" __global__ __aicore__ void load3d_int8(GM_ADDR fm, GM_ADDR other, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Img2colMatmul<int8_t, int32_t>(fm, other, c, *reinterpret_cast<__gm__ Load3dTiling*>(tiling));
}

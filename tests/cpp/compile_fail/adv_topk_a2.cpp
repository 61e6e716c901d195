// TopK's and TransData's compile-time rules on the twin (CMakeLists.txt compiles this file once per FAULT line, and
// once with FAULT=0, which must compile: TopK of half and float in both forms and modes; TransData of int16_t,
// uint16_t, half and bfloat16_t with the formats' layout ranks).
// FAULT 1: TopK on A2 supports half and float
// FAULT 2: TopK on A2 supports half and float
// FAULT 3: TransData: current only supports half/bfloat16_t/uint16_t/int16_t types
// FAULT 4: TransData: config is \(NCDHW, FRACTAL_Z_3D\), \(FRACTAL_Z_3D, NCDHW\), \(NCDHW, NDC1HWC0\) or
// FAULT 5: TransData: dstLayout's shape has the destination format's dims \(NCDHW 5, FRACTAL_Z_3D 7, NDC1HWC0 6\)
// FAULT 6: TransData: srcLayout's shape has the source format's dims \(NCDHW 5, FRACTAL_Z_3D 7, NDC1HWC0 6\)
#include "lib/sort/topk.h"
#include "lib/transpose/transdata.h"

using namespace AscendC;

constexpr TransDataConfig kToFz = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
constexpr TransDataConfig kFrom6hd = {DataFormat::NDC1HWC0, DataFormat::NCDHW};
constexpr TransDataConfig kNchw = {DataFormat::NCHW, DataFormat::NC1HWC0};

template <typename T>
void UseTopK(LocalTensor<uint8_t>& tmp, TopkTiling& t)
{
    LocalTensor<T> v, s;
    LocalTensor<int32_t> vi, si;
    LocalTensor<bool> f;
    TopKInfo info;
    TopK<T, false, true>(v, vi, s, si, f, tmp, 1, t, info, false);
    TopK<T, true, false, false, TopKMode::TOPK_NSMALL>(v, vi, s, si, f, 1, t, info);
}

template <typename T>
void UseTransData(LocalTensor<uint8_t>& tmp)
{
    LocalTensor<T> d, s;
    auto ncdhw = MakeLayout(MakeShape(16, 16, 1, 3, 5), MakeStride());
    auto fz = MakeLayout(MakeShape(1, 1, 3, 5, 1, 16, 16), MakeStride());
    auto hd = MakeLayout(MakeShape(16, 1, 1, 3, 5, 16), MakeStride());
    TransData<kToFz>(d, s, tmp, TransDataParams<decltype(ncdhw), decltype(fz)>{ncdhw, fz});
    TransData<kFrom6hd>(d, s, TransDataParams<decltype(hd), decltype(ncdhw)>{hd, ncdhw});
}

void Instantiate(LocalTensor<uint8_t>& tmp, TopkTiling& t)
{
#if FAULT == 0
    UseTopK<half>(tmp, t);
    UseTopK<float>(tmp, t);
    UseTransData<int16_t>(tmp);
    UseTransData<uint16_t>(tmp);
    UseTransData<half>(tmp);
    UseTransData<bfloat16_t>(tmp);
#elif FAULT == 1
    UseTopK<int32_t>(tmp, t);
#elif FAULT == 2
    UseTopK<bfloat16_t>(tmp, t);
#elif FAULT == 3
    UseTransData<float>(tmp);
#else
    LocalTensor<half> d, s;
    auto ncdhw = MakeLayout(MakeShape(16, 16, 1, 3, 5), MakeStride());
    auto hd = MakeLayout(MakeShape(16, 1, 1, 3, 5, 16), MakeStride());
#if FAULT == 4
    TransData<kNchw>(d, s, tmp, TransDataParams<decltype(ncdhw), decltype(hd)>{ncdhw, hd});
#elif FAULT == 5
    TransData<kToFz>(d, s, tmp, TransDataParams<decltype(ncdhw), decltype(hd)>{ncdhw, hd});
#elif FAULT == 6
    TransData<kFrom6hd>(d, s, tmp, TransDataParams<decltype(ncdhw), decltype(ncdhw)>{ncdhw, ncdhw});
#endif
#endif
}

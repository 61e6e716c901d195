// The basic API's compile-time rules on the twin: the dtype tables of A2 (dav-2201), the forms of the depth-0
// queues, and what the twin does not model (CMakeLists.txt compiles this file once per FAULT line, and once with
// FAULT=0, which must compile: each call in a form and dtype A2 has).
// FAULT 1: atomic accumulation on A2 supports half, float, int16_t, int32_t, int8_t and bfloat16_t
// FAULT 2: InitGlobalMemory on A2 supports uint16_t, int16_t, half, uint32_t, int32_t and float
// FAULT 3: Fill on A2 supports uint16_t, int16_t, half, uint32_t, int32_t and float
// FAULT 4: Brcb on A2 supports int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t and float
// FAULT 5: Select on A2 supports half and float
// FAULT 6: Select's selMask on A2 is uint8_t, uint16_t, uint32_t or uint64_t
// FAULT 7: Compare with its result in CMPMASK on A2 compares half and float
// FAULT 8: GetCmpMask on A2 takes b8, b16 or b32 tensors
// FAULT 9: Select<T, selMode>
// FAULT 10: DataCopy with Nd2NzParams on A2 supports int4b_t, int8_t, uint8_t, int16_t
// FAULT 11: L1 -> BiasTable DataCopy on A2 writes float or int32_t
// FAULT 12: L1 -> BiasTable DataCopy on A2 reads half, int32_t or float
// FAULT 13: LoadData on A2 supports int4b_t, uint8_t, int8_t, uint16_t, int16_t, half, bfloat16_t
// FAULT 14: Mmad on A2 computes half x half, bfloat16_t x bfloat16_t, float x float -> float
// FAULT 15: Mmad's bias on A2 has the type of the result
// FAULT 16: Fixpipe reads float or int32_t from L0C
// FAULT 17: CFG_COLUMN_MAJOR \(NZ2DN\) is not on A2
// FAULT 18: ReduceRepeat on A2 needs one dst and src type
// FAULT 19: ReduceRepeat supports SUM, MAX and MIN
// FAULT 20: ReduceDataBlock on A2 needs one dst and src type
// FAULT 21: ReduceDataBlock supports SUM, MAX and MIN
// FAULT 22: ReducePairElem on A2 needs one dst and src type
// FAULT 23: ReducePairElem supports SUM only
// FAULT 24: Div on A2 supports half and float
// FAULT 25: Axpy on A2 supports dst/src half/half, float/float and float/half
// FAULT 26: Duplicate on A2 supports half, bfloat16_t, int16_t, uint16_t, int32_t, uint32_t and float
// FAULT 27: LeakyRelu on A2 supports half and float
// FAULT 28: PipeBarrier does not take PIPE_S
// FAULT 29: illegal hardware position GM or MAX
// FAULT 30: Mmad with a bias tensor on A2 computes .* \(not int4b_t
// FAULT 31: Std::make_index_sequence must be within
// FAULT 32: must use AllocTensor<LocalTensor&> api while tque's depth is zero
// FAULT 33: can not AllocTensor in place while tque's depth is non zero
// FAULT 34: must use DeQue<LocalTensor&> api while tque's depth is zero
// FAULT 35: can not DeQue in place while tque's depth is non zero
// FAULT 36: can not use FreeAllEvent api while depth is zero
// FAULT 37: ShiftRight on A2 supports int16_t, uint16_t, int32_t and uint32_t
// FAULT 38: AddRelu on A2 supports int16_t, half and float
// FAULT 39: CreateVecIndex on A2 supports int16_t, half, int32_t and float
// FAULT 40: SetPadValue on A2 supports int8_t
// FAULT 41: SetPadValue's pos is TPosition::VECIN, VECOUT or MAX
// FAULT 42: the twin moves GlobalTensor<int4b_t> data through DataCopy GM -> L1 with Nd2NzParams
#include "kernel_operator.h"

using namespace AscendC;

void Atomics()
{
#if FAULT == 1
    SetAtomicAdd<double>();
#else
    SetAtomicAdd<bfloat16_t>();
    SetAtomicAdd<int8_t>();
#endif
}

void GlobalMemory(GM_ADDR p)
{
#if FAULT == 2
    GlobalTensor<double> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ double*>(p), 8);
    InitGlobalMemory(g, 8, 0.0);
#elif FAULT == 3
    GlobalTensor<int8_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(p), 8);
    Fill(g, 8, static_cast<int8_t>(0));
#else
    GlobalTensor<uint16_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ uint16_t*>(p), 8);
    InitGlobalMemory(g, 8, static_cast<uint16_t>(0));
    Fill(g, 8, static_cast<uint16_t>(1));
#endif
}

void CompareAndSelect()
{
    LocalTensor<float> f, f2, f3;
    LocalTensor<int32_t> i, i2, i3;
    LocalTensor<double> d;
    LocalTensor<uint8_t> mask;
    LocalTensor<int8_t> signedMask;
    const BinaryRepeatParams params;
#if FAULT == 4
    Brcb(signedMask, signedMask, 1, BrcbRepeatParams(1, 8));
#elif FAULT == 5
    Select(i, mask, i2, i3, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
#elif FAULT == 6
    Select(f, signedMask, f2, f3, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
#elif FAULT == 7
    Compare(i, i2, CMPMODE::EQ, 64, params);
#elif FAULT == 8
    GetCmpMask(d);
#elif FAULT == 9
    Select<float, SELMODE::VSEL_TENSOR_SCALAR_MODE>(f, f2, f3, 1, params);
#else
    Brcb(f, f2, 1, BrcbRepeatParams(1, 8));
    Select(f, mask, f2, f3, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
    Compare(f, f2, CMPMODE::LT, 64, params);
    GetCmpMask(i);
    Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(f, f2, f3, 1, params);
#endif
}

void Cube(GM_ADDR p)
{
    LocalTensor<half> h, h2;
    LocalTensor<float> c, biasF;
    LocalTensor<int32_t> c32;
    LocalTensor<double> d, d2;
    GlobalTensor<double> gd;
    GlobalTensor<half> gh;
    GlobalTensor<float> gf;
    gd.SetGlobalBuffer(reinterpret_cast<__gm__ double*>(p), 8);
    gh.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(p), 8);
    gf.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(p), 8);
    LocalTensor<int4b_t> s4, s4b;
    LocalTensor<int32_t> bias32;
    GlobalTensor<int4b_t> g4;
    g4.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(p), 16);
    const Nd2NzParams nd2nz;
    const DataCopyParams copy;
    const LoadData2DParams load;
    const MmadParams mmad;
    FixpipeParamsV220 fix;
#if FAULT == 10
    DataCopy(d, gd, nd2nz);
#elif FAULT == 11
    DataCopy(h, c, copy);
#elif FAULT == 12
    DataCopy(c, d, copy);
#elif FAULT == 13
    LoadData(d, d2, load);
#elif FAULT == 14
    Mmad(c, c32, c32, mmad);
#elif FAULT == 15
    Mmad(c, h, h2, c32, mmad);
#elif FAULT == 16
    Fixpipe(gh, h, fix);
#elif FAULT == 17
    Fixpipe<float, float, CFG_COLUMN_MAJOR>(gf, c, fix);
#elif FAULT == 30
    Mmad(c32, s4, s4b, bias32, mmad);
#elif FAULT == 42
    DataCopy(s4, g4, 128);
#else
    DataCopy(h, gh, nd2nz);
    DataCopy(c, h2, copy);
    LoadData(h, h2, load);
    Mmad(c, h, h2, mmad);
    Mmad(c, h, h2, biasF, mmad);
    Fixpipe(gh, c, fix);
    Fixpipe<float, float, CFG_ROW_MAJOR>(gf, c, fix);
    // int4b_t: GM -> L1 (ND -> NZ), L1 -> L0A/L0B, LoadDataWithTranspose, Mmad into int32_t.
    DataCopy(s4, g4, nd2nz);
    DataCopy(s4, g4[2], nd2nz);
    LoadData(s4, s4b, load);
    LoadDataWithTranspose(s4, s4b, LoadData2dTransposeParams());
    Mmad(c32, s4, s4b, mmad);
    g4.SetValue(0, g4.GetValue(1));
#endif
}

void Reductions()
{
    LocalTensor<float> f, f2;
    LocalTensor<half> h;
    const int32_t mask = 64;
#if FAULT == 18
    ReduceRepeat<ReduceType::SUM>(f, h, mask, 1, 8, 1, 8);
#elif FAULT == 19
    ReduceRepeat<ReduceType::NONE>(f, f2, mask, 1, 8, 1, 8);
#elif FAULT == 20
    ReduceDataBlock<ReduceType::MAX>(f, h, mask, 1, 1, 1, 8);
#elif FAULT == 21
    ReduceDataBlock<ReduceType::NONE>(f, f2, mask, 1, 1, 1, 8);
#elif FAULT == 22
    ReducePairElem<ReduceType::SUM>(f, h, mask, 1, 1, 1, 8);
#elif FAULT == 23
    ReducePairElem<ReduceType::MAX>(f, f2, mask, 1, 1, 1, 8);
#else
    ReduceRepeat<ReduceType::MIN>(f, f2, mask, 1, 8, 1, 8);
    ReduceDataBlock<ReduceType::SUM>(f, f2, mask, 1, 1, 1, 8);
    ReducePairElem<ReduceType::SUM>(f, f2, mask, 1, 1, 1, 8);
#endif
}

void Vector()
{
    LocalTensor<float> f, f2;
    LocalTensor<half> h;
    LocalTensor<int32_t> i, i2;
    LocalTensor<int8_t> b;
#if FAULT == 24
    Div(i, i2, i2, 64);
#elif FAULT == 25
    Axpy(h, f, 2.0f, 64);
#elif FAULT == 26
    Duplicate(b, static_cast<int8_t>(1), 64);
#elif FAULT == 27
    LeakyRelu(i, i2, 1, 64);
#elif FAULT == 28
    PipeBarrier<PIPE_S>();
#elif FAULT == 37
    ShiftRight(b, b, static_cast<int8_t>(1), 64);
#elif FAULT == 38
    AddRelu(i, i2, i2, 64);
#elif FAULT == 39
    CreateVecIndex(b, static_cast<int8_t>(0), 64);
#elif FAULT == 40
    SetPadValue(true);
#elif FAULT == 41
    SetPadValue<half, TPosition::A1>(static_cast<half>(1.0f));
#else
    SetPadValue<half, TPosition::VECIN>(static_cast<half>(1.0f));
    SetPadValue(static_cast<uint64_t>(0));
    ShiftRight(i, i2, 3, 64);
    AddRelu(h, h, h, 64);
    CreateVecIndex(f, 0.5f, 64);
    Div(f, f2, f2, 64);
    Axpy(f, h, static_cast<half>(2.0f), 64);
    Duplicate(i, 1, 64);
    LeakyRelu(f, f2, 0.01f, 64);
    PipeBarrier<PIPE_V>();
#endif
}

void Allocation()
{
#if FAULT == 29
    LocalMemAllocator<Hardware::GM> gm;  // only the on-chip memories have an allocator
#else
    LocalMemAllocator<Hardware::UB> ub;
#endif
#if FAULT == 31
    using Long = Std::make_index_sequence<65>;
    Long sequence;
    (void)sequence;
#else
    using Short = Std::make_index_sequence<64>;
    Short sequence;
    (void)sequence;
#endif
}

void Queues()
{
    TPipe pipe;
    TQue<TPosition::VECIN, 0> inPlace;
    TQue<TPosition::VECIN, 1> fifo;
    LocalTensor<float> t;
#if FAULT == 32
    t = inPlace.AllocTensor<float>();
#elif FAULT == 33
    fifo.AllocTensor<float>(t);
#elif FAULT == 34
    t = inPlace.DeQue<float>();
#elif FAULT == 35
    fifo.DeQue(t);
#elif FAULT == 36
    inPlace.FreeAllEvent();
#else
    inPlace.AllocTensor<float>(t);
    inPlace.EnQue(t);
    inPlace.DeQue(t);
    inPlace.FreeTensor(t);
    t = fifo.AllocTensor<float>();
    fifo.EnQue(t);
    t = fifo.DeQue<float>();
    fifo.FreeTensor(t);
    fifo.FreeAllEvent();
#endif
}

// The raw cube path of the basic API on A2 (docs: 矩阵计算（ISASI）): GM -> L1 copies (DataCopy, with
// Nd2NzParams the ND -> NZ conversion), L1 -> BiasTable (DataCopy C1 -> C2), L1 -> L0A/L0B (LoadData,
// LoadData2DParams), Mmad (L0A x L0B -> L0C, with a bias from BT) and Fixpipe (L0C -> GM, NZ -> ND).
//
// Queues and TBufs at A1/B1/C1 (L1), A2 (L0A), B2 (L0B), CO1 (L0C) and C2 (BT) take their buffers from the
// core's own L1/L0 memories (platform capacities; BT 1 KiB), aligned as the buffers require (L0A/L0B
// 512 B, L0C 64 B, BT 64 B, L1 32 B). Formats, with C0 = 32 / sizeof(T) elements and fractals of 16 rows:
//   L1 NZ (after Nd2Nz): element (r, c) at (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0;
//   L0A Zz: fractal (m / 16, k / C0) at (mb * kBlocks + kb) * 512 bytes, inside row-major 16 x C0;
//   L0B Zn: fractal (k / C0, n / 16) at (kb * nBlocks + nb) * 512 bytes, inside n-major (16 rows of C0 k);
//   L0C NZ: element (m, n) at (n / 16) * mBlocks * 256 + m * 16 + n % 16 (float or int32_t).
// The twin checks every operand against its tensor and memory, the documented parameter ranges and dtype
// tables, and counts multiply-accumulates and the bytes each path moves. The hazard detector covers UB:
// accesses to L1/L0 are ordered by the queues' and the kernel's flags but not checked for races.
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_data_copy.h"
#include "twin/kernel_tensor.h"
#include "twin/runtime.h"

namespace AscendC {

struct Nd2NzParams {
    __aicore__ Nd2NzParams() {}
    __aicore__ Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
                           const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn,
                           const uint16_t dstNzC0StrideIn, const uint16_t dstNzNStrideIn,
                           const uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn),
          nValue(nValueIn),
          dValue(dValueIn),
          srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn),
          dstNzC0Stride(dstNzC0StrideIn),
          dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn)
    {
    }
    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
};

struct LoadData2DParams {
    __aicore__ LoadData2DParams() {}
    __aicore__ LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                                const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn,
                                const uint8_t addrModeIn)
        : startIndex(startIndexIn),
          dstGap(dstGapIn),
          srcStride(srcStrideIn),
          ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn),
          sid(sidIn),
          addrMode(addrModeIn)
    {
    }
    uint16_t startIndex = 0;
    uint16_t dstGap = 0;
    uint16_t srcStride = 0;
    bool ifTranspose = 0;
    uint8_t repeatTimes = 0;
    uint8_t sid = 0;
    uint8_t addrMode = 0;
};

struct LoadData2dTransposeParams {
    __aicore__ LoadData2dTransposeParams() {}
    __aicore__ LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                                         const uint16_t srcStrideIn, const uint16_t dstGapIn,
                                         const uint16_t dstfracGapIn, const uint8_t addrModeIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstfracGapIn), addrMode(addrModeIn)
    {
    }
    __aicore__ LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                                         const uint16_t srcStrideIn, const uint16_t dstGapIn,
                                         const uint16_t dstfracGapIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstfracGapIn)
    {
    }
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
};

struct MmadParams {
    __aicore__ MmadParams() {}
    __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn,
                          const int32_t fmOffsetIn, const bool enSsparseIn, const bool enWinogradAIn,
                          const bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn)
    {
    }
    __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
                          const bool cmatrixSourceIn, const bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn), cmatrixInitVal(cmatrixInitValIn)
    {
    }
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;  // deprecated: C += A * B
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;  // float: K aligned to 16 rather than 8
    bool cmatrixSource = false;    // C starts from the BT buffer
    bool cmatrixInitVal = true;    // C starts from 0
};

}  // namespace AscendC

// QuantMode_t is a type of the device compiler, in the global namespace (asc-devkit's headers use it without
// declaring it; the examples name it unqualified outside AscendC). A2's values (the Fixpipe/DataCopy docs).
enum QuantMode_t { NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };

namespace AscendC {
using ::QuantMode_t;

struct FixpipeParamsV220 {
    __aicore__ FixpipeParamsV220() {}
    __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                                 const uint32_t dstStrideIn, const bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn)
    {
    }
    __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                                 const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                                 const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                                 const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar(static_cast<uint64_t>(deqScalarIn)), ndNum(ndNumIn), srcNdStride(srcNdStrideIn),
          dstNdStride(dstNdStrideIn), reluEn(reluEnIn), unitFlag(unitFlagIn)
    {
    }
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};

// The L0C -> GM DataCopy's parameters (include/basic_api/kernel_struct_data_copy.h). On A2: sid reserved (0),
// clipReluPre and eltWiseOp only on Atlas 200I/500 A2 (0 here), reluPre 0 or 1 (Normal ReLU).
struct DataCopyCO12DstParams {
    __aicore__ DataCopyCO12DstParams() {}

    __aicore__ DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint32_t dstStrideIn,
                                     const uint16_t srcStrideIn, const QuantMode_t quantPreIn, const uint8_t reluPreIn,
                                     const bool channelSplitIn, const bool nz2ndEnIn)
        : nSize(nSizeIn),
          mSize(mSizeIn),
          dstStride(dstStrideIn),
          srcStride(srcStrideIn),
          quantPre(quantPreIn),
          reluPre(reluPreIn),
          channelSplit(channelSplitIn),
          nz2ndEn(nz2ndEnIn)
    {
    }

    uint8_t sid = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = DEFAULT_DATA_COPY_STRIDE;
    uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;
    uint8_t eltWiseOp = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint8_t reluPre = 0;
    bool channelSplit = false;
    bool nz2ndEn = false;
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
    CO2Layout format;
    bool isToUB = false;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};  // declared for A2 too; Fixpipe refuses it

namespace twin_detail {

// The element kinds the cube path moves (for conversions in the type-erased core).
// kInt4: int4b_t, two elements a byte (low nibble first); its operands have elemSize 1 (the byte) and the cube
// core addresses its elements in nibbles (C0 = 64 elements, a 16 x 64 fractal of 512 bytes).
enum class CubeElem : uint8_t { kHalf, kBf16, kFloat, kInt8, kUint8, kInt16, kUint16, kInt32, kUint32, kInt4 };
template <typename T>
constexpr CubeElem CubeElemOf()
{
    if constexpr (std::is_same_v<T, half>) return CubeElem::kHalf;
    else if constexpr (std::is_same_v<T, bfloat16_t>) return CubeElem::kBf16;
    else if constexpr (std::is_same_v<T, float>) return CubeElem::kFloat;
    else if constexpr (std::is_same_v<T, int8_t>) return CubeElem::kInt8;
    else if constexpr (std::is_same_v<T, uint8_t>) return CubeElem::kUint8;
    else if constexpr (std::is_same_v<T, int16_t>) return CubeElem::kInt16;
    else if constexpr (std::is_same_v<T, uint16_t>) return CubeElem::kUint16;
    else if constexpr (std::is_same_v<T, int32_t>) return CubeElem::kInt32;
    else if constexpr (std::is_same_v<T, int4b_t>) return CubeElem::kInt4;
    else return CubeElem::kUint32;
}
template <typename T>
inline constexpr bool kCubeCopyType =
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float> ||
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>;

// A local operand of the cube path: its memory, element size and extent.
struct CubeOperand {
    const char* name;
    TPosition position;
    uint8_t* data;
    uint64_t bytes;  // the tensor's size
    uint32_t elemSize;
    CubeElem elem;
};
template <typename T>
CubeOperand Operand(const char* name, const LocalTensor<T>& t)
{
    if constexpr (std::is_same_v<T, int4b_t>) {  // GetSize() counts nibbles, GetLength() bytes
        return {name, TwinPosition(t), reinterpret_cast<uint8_t*>(TwinData(t)), t.GetLength(), 1, CubeElem::kInt4};
    } else {
        return {name, TwinPosition(t), reinterpret_cast<uint8_t*>(TwinData(t)),
                static_cast<uint64_t>(t.GetSize()) * sizeof(T), static_cast<uint32_t>(sizeof(T)), CubeElemOf<T>()};
    }
}

void CopyGmToL1(const char* call, const CubeOperand& dst, const uint8_t* src, uint32_t elemSize, uint16_t blockCount,
                uint64_t blockBytes, uint64_t srcStrideBytes, uint64_t dstStrideBytes);
void CopyNd2Nz(const CubeOperand& dst, const uint8_t* src, const Nd2NzParams& p);
// DataCopy GM -> TSCM with Nd2NzParams (A2's DataCopyGM2L1ND2NZImpl): on the AIC the copy itself; on an AIV of a MIX
// kernel a message its block's AIC serves in order (SCMFUN_GM2L1ND2NZ, twin/src/matmul_mix.cpp).
void CopyNd2NzTscm(const CubeOperand& dst, const uint8_t* src, const Nd2NzParams& p);
void CopyL1ToBt(const CubeOperand& dst, const CubeOperand& src, const DataCopyParams& p);
void LoadData2D(const CubeOperand& dst, const CubeOperand& src, const LoadData2DParams& p);
void LoadDataTranspose(const CubeOperand& dst, const CubeOperand& src, const LoadData2dTransposeParams& p);
void LoadDataSparse(const CubeOperand& dst, const CubeOperand& src, const CubeOperand& idx, const LoadData2DParams& p);
void MmadSparseRun(const CubeOperand& dst, const CubeOperand& fm, const CubeOperand& filter, const MmadParams& p);
void MmadRun(const CubeOperand& dst, const CubeOperand& fm, const CubeOperand& filter, const CubeOperand* bias,
             const MmadParams& p);
void FixpipeToGm(uint8_t* dst, CubeElem dstElem, uint32_t dstSize, const CubeOperand& src, const FixpipeParamsV220& p,
                 bool nz2nd, const CubeOperand* cbufWorkspace = nullptr);
void FixpipeToL1(const CubeOperand& dst, const CubeOperand& src, const FixpipeParamsV220& p, bool nz2nd,
                 const CubeOperand* cbufWorkspace = nullptr);
void FixPipeConfig(const CubeOperand* reluPre, const CubeOperand& pre, bool isUnitFlag);
void CopyL1ToFb(const char* call, const CubeOperand& dst, const CubeOperand& src, uint16_t blockCount,
                uint64_t blockBytes, uint64_t srcStrideBytes, uint64_t dstStrideBytes);
void DataCopyL0cToGm(uint8_t* dst, CubeElem dstElem, uint32_t dstSize, const CubeOperand& src,
                     const DataCopyCO12DstParams& p);
void DataCopyL0cToL1(const CubeOperand& dst, const CubeOperand& src, const DataCopyCO12DstParams& p);
void SetPreQuantRegister(uint64_t config);
void SetNz2ndRegister(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride);

}  // namespace twin_detail

// L1 (C1) -> Fixpipe Buffer (C2PIPE2GM), uint64_t quantisation words (docs: L1ToFixpipe-Buffer数据搬运): blockCount
// blocks of blockLen 128-byte units, srcGap (32-byte units) and dstGap (128-byte units) head to head between
// blocks. They arrive through the one DataCopy(LocalTensor, LocalTensor, ...) that also copies UB -> UB
// (twin/kernel_data_copy.h). Rules (the error names each): dst in the Fixpipe Buffer, 128-byte aligned; src in L1,
// 32-byte aligned; blockCount at most 4095; with blockCount > 1 dstGap >= 1; both inside their tensors.
template <typename T>
void twin_detail::CopyLocalToFixbuf(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                    const DataCopyParams& repeatParams)
{
    static_assert(std::is_same_v<T, uint64_t>, "L1 -> Fixpipe Buffer DataCopy on A2 moves uint64_t");
    twin_detail::CopyL1ToFb("DataCopy(L1->FB)", twin_detail::Operand("dst", dst), twin_detail::Operand("src", src),
                            repeatParams.blockCount, repeatParams.blockLen * 128ULL, repeatParams.srcGap * 32ULL,
                            repeatParams.dstGap * 128ULL);
}

// The count form: count * sizeof(T) bytes in one block (a whole number of 32-byte blocks: the device rounds down,
// the twin stops, as for the other count forms).
template <typename T>
void twin_detail::CopyLocalToFixbuf(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count)
{
    static_assert(std::is_same_v<T, uint64_t>, "L1 -> Fixpipe Buffer DataCopy on A2 moves uint64_t");
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    if (bytes % 32 != 0) {
        ascend_twin::FailF("DataCopy(L1->FB)", "count * sizeof(T) is a multiple of 32 bytes (the device rounds the "
                           "rest away)", "count %u (%llu bytes)", count, static_cast<unsigned long long>(bytes));
    }
    twin_detail::CopyL1ToFb("DataCopy(L1->FB)", twin_detail::Operand("dst", dst), twin_detail::Operand("src", src), 1,
                            bytes, 0, 0);
}

// GM -> L1 with the ND -> NZ conversion.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& intriParams)
{
    static_assert(twin_detail::kCubeCopyType<T> || std::is_same_v<T, int4b_t>,
                  "DataCopy with Nd2NzParams on A2 supports int4b_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, "
                  "uint32_t, half, bfloat16_t and float");
    if (twin_detail::TwinPosition(dst) == TPosition::TSCM) {  // from an AIV through its AIC
        if constexpr (std::is_same_v<T, int4b_t>) {  // the position is known only at run time
            ascend_twin::FailF("DataCopy(GM->TSCM, Nd2NzParams)", "the twin models TSCM copies of 2- and 4-byte and "
                               "int8_t types", "int4b_t into TSCM is not modelled (the twin's limit, not A2's)");
        } else {
            twin_detail::CopyNd2NzTscm(twin_detail::Operand("dst", dst),
                                       reinterpret_cast<const uint8_t*>(twin_detail::TwinData(src)), intriParams);
        }
        return;
    }
    if constexpr (std::is_same_v<T, int4b_t>) {
        // The device copies int4b_t as int8_t (kernel_operator_data_copy_impl.h): dValue, srcDValue and
        // srcNdMatrixStride count bytes, two elements each, and the fractal is 16 x 32 bytes (16 x 64 elements).
        twin_detail::CopyNd2Nz(twin_detail::Operand("dst", dst), ascend_twin::internal::Access::Int4Bytes(src),
                               intriParams);
    } else {
        twin_detail::CopyNd2Nz(twin_detail::Operand("dst", dst),
                               reinterpret_cast<const uint8_t*>(twin_detail::TwinData(src)), intriParams);
    }
}

// L1 (C1) -> BiasTable (C2), half/int32_t/float to float/int32_t; blockLen in 64-byte units of the source.
template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& repeatParams)
{
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                  "L1 -> BiasTable DataCopy on A2 writes float or int32_t");
    static_assert(std::is_same_v<U, half> || std::is_same_v<U, float> || std::is_same_v<U, int32_t>,
                  "L1 -> BiasTable DataCopy on A2 reads half, int32_t or float");
    twin_detail::CopyL1ToBt(twin_detail::Operand("dst", dst), twin_detail::Operand("src", src), repeatParams);
}

// The same-type form (float -> float, int32_t -> int32_t) arrives through the one DataCopy(LocalTensor,
// LocalTensor, DataCopyParams) that also copies UB -> UB (twin/kernel_data_copy.h).
template <typename T, typename U>
void twin_detail::CopyLocalToBiasTable(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                                       const DataCopyParams& repeatParams)
{
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                  "L1 -> BiasTable DataCopy on A2 writes float or int32_t");
    twin_detail::CopyL1ToBt(twin_detail::Operand("dst", dst), twin_detail::Operand("src", src), repeatParams);
}

// L1 -> L0A/L0B in 512-byte fractals.
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData2DParams& loadDataParams)
{
    static_assert(twin_detail::kCubeCopyType<T> || std::is_same_v<T, int4b_t>,
                  "LoadData on A2 supports int4b_t, uint8_t, int8_t, uint16_t, int16_t, half, bfloat16_t, uint32_t, "
                  "int32_t and float");
    twin_detail::LoadData2D(twin_detail::Operand("dst", dst), twin_detail::Operand("src", src), loadDataParams);
}

// L1 -> L0A/L0B with each square matrix transposed (b8: 32 x 32 into two 16 x 32 fractals, b16: 16 x 16, b32:
// two 16 x 8 fractals as one 16 x 16 square, b4: 64 x 64 into four 16 x 64 fractals); srcStride in squares,
// dstGap/dstFracGap in 512-byte fractals. A2's types: int4b_t (into L0B only), int8_t, uint8_t, half,
// bfloat16_t, int32_t, uint32_t, float.
template <typename T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                             const LoadData2dTransposeParams& loadDataParams)
{
    static_assert(std::is_same_v<T, int4b_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
                      std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int32_t> ||
                      std::is_same_v<T, uint32_t> || std::is_same_v<T, float>,
                  "LoadDataWithTranspose on A2 supports int4b_t (L0B only), int8_t, uint8_t, half, bfloat16_t, "
                  "int32_t, uint32_t and float");
    twin_detail::LoadDataTranspose(twin_detail::Operand("dst", dst), twin_detail::Operand("src", src), loadDataParams);
}

namespace twin_detail {
template <typename D, typename A, typename B>
inline constexpr bool kMmadTypes =
    (std::is_same_v<A, half> && std::is_same_v<B, half> && std::is_same_v<D, float>) ||
    (std::is_same_v<A, bfloat16_t> && std::is_same_v<B, bfloat16_t> && std::is_same_v<D, float>) ||
    (std::is_same_v<A, float> && std::is_same_v<B, float> && std::is_same_v<D, float>) ||
    (std::is_same_v<A, int8_t> && std::is_same_v<B, int8_t> && std::is_same_v<D, int32_t>) ||
    (std::is_same_v<A, int4b_t> && std::is_same_v<B, int4b_t> && std::is_same_v<D, int32_t>);
}  // namespace twin_detail

// L0C = L0A x L0B (+ the initial C the parameters select).
template <typename T, typename U, typename S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const MmadParams& mmadParams)
{
    static_assert(twin_detail::kMmadTypes<T, U, S>,
                  "Mmad on A2 computes half x half, bfloat16_t x bfloat16_t, float x float -> float, int8_t x "
                  "int8_t -> int32_t and int4b_t x int4b_t -> int32_t");
    twin_detail::MmadRun(twin_detail::Operand("dst", dst), twin_detail::Operand("fm", fm),
                         twin_detail::Operand("filter", filter), nullptr, mmadParams);
}

// L0C = bias (a row from the BiasTable, to every row of C) + L0A x L0B.
template <typename T, typename U, typename S, typename V>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const LocalTensor<V>& bias, const MmadParams& mmadParams)
{
    static_assert(twin_detail::kMmadTypes<T, U, S> && !std::is_same_v<U, int4b_t>,
                  "Mmad with a bias tensor on A2 computes half x half, bfloat16_t x bfloat16_t, float x float -> "
                  "float and int8_t x int8_t -> int32_t (not int4b_t: kernel_operator_mm_impl.h's bias form)");
    static_assert(std::is_same_v<V, T>, "Mmad's bias on A2 has the type of the result (float, or int32_t for int8_t)");
    const twin_detail::CubeOperand b = twin_detail::Operand("bias", bias);
    twin_detail::MmadRun(twin_detail::Operand("dst", dst), twin_detail::Operand("fm", fm),
                         twin_detail::Operand("filter", filter), &b, mmadParams);
}

// 4:2 structured sparsity (A2): LoadDataWithSparse moves repeatTimes contiguous 512-byte fractals of the dense B
// L1 -> L0B and their 128-byte index fractals into the core's index buffer; MmadWithSparse multiplies the full A
// (L0A, int8_t) by the dense B, each dense entry picking its element of A through its 2-bit index.
template <typename T = int8_t, typename U = uint8_t,
          typename std::enable_if<std::is_same<T, int8_t>::value, bool>::type = true,
          typename std::enable_if<std::is_same<U, uint8_t>::value, bool>::type = true>
__aicore__ inline void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                          const LocalTensor<U>& idx, const LoadData2DParams& loadDataParam)
{
    twin_detail::LoadDataSparse(twin_detail::Operand("dst", dst), twin_detail::Operand("src", src),
                                twin_detail::Operand("idx", idx), loadDataParam);
}

template <typename T = int32_t, typename U = int8_t,
          typename std::enable_if<std::is_same<T, int32_t>::value, bool>::type = true,
          typename std::enable_if<std::is_same<U, int8_t>::value, bool>::type = true>
__aicore__ inline void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
                                      const LocalTensor<U>& filter, const MmadParams& mmadParams)
{
    twin_detail::MmadSparseRun(twin_detail::Operand("dst", dst), twin_detail::Operand("fm", fm),
                               twin_detail::Operand("filter", filter), mmadParams);
}

// L0C -> GM: NZ -> ND (CFG_ROW_MAJOR, the default) or NZ as it is (CFG_NZ, also as 16 x 8 fractals with
// isChannelSplit); float/int32_t out, half/bfloat16_t with quantPre F322F16/F322BF16, int8_t/uint8_t with
// QF322B8_PRE, and from int32_t L0C half with DEQF16 or int8_t/uint8_t with REQ8 (one word in deqScalar).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams)
{
    static_assert(std::is_same_v<U, float> || std::is_same_v<U, int32_t>, "Fixpipe reads float or int32_t from L0C");
    static_assert(config.format != CO2Layout::COLUMN_MAJOR, "CFG_COLUMN_MAJOR (NZ2DN) is not on A2");
    twin_detail::FixpipeToGm(reinterpret_cast<uint8_t*>(twin_detail::TwinData(dst)), twin_detail::CubeElemOf<T>(),
                             sizeof(T), twin_detail::Operand("src", src), intriParams,
                             config.format == CO2Layout::ROW_MAJOR);
}

// L0C -> GM with a vector quantPre: one uint64_t quantisation parameter per column of C in L1 (VQF322B8_PRE float
// to int8_t/uint8_t, VDEQF16 int32_t to half, VREQ8 int32_t to int8_t/uint8_t).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& intriParams)
{
    static_assert(std::is_same_v<U, float> || std::is_same_v<U, int32_t>, "Fixpipe reads float or int32_t from L0C");
    static_assert(config.format != CO2Layout::COLUMN_MAJOR, "CFG_COLUMN_MAJOR (NZ2DN) is not on A2");
    const twin_detail::CubeOperand workspace = twin_detail::Operand("cbufWorkspace", cbufWorkspace);
    twin_detail::FixpipeToGm(reinterpret_cast<uint8_t*>(twin_detail::TwinData(dst)), twin_detail::CubeElemOf<T>(),
                             sizeof(T), twin_detail::Operand("src", src), intriParams,
                             config.format == CO2Layout::ROW_MAJOR, &workspace);
}

// L0C -> L1 (C1): NZ only (CFG_NZ; the default CFG_ROW_MAJOR is refused when it runs, as A2's debug check does),
// float to int8_t/uint8_t/half/bfloat16_t, int32_t to int8_t/uint8_t/half, no channel split; dstStride in
// 32-byte blocks between Z columns; int8_t/uint8_t leave as 16 x 32 fractals (Int8 Channel Merge).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams)
{
    static_assert(std::is_same_v<U, float> || std::is_same_v<U, int32_t>, "Fixpipe reads float or int32_t from L0C");
    twin_detail::FixpipeToL1(twin_detail::Operand("dst", dst), twin_detail::Operand("src", src), intriParams,
                             config.format != CO2Layout::NZ);
}

// L0C -> L1 with a vector quantPre: one uint64_t word per column of C in L1 (cbufWorkspace).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& intriParams)
{
    static_assert(std::is_same_v<U, float> || std::is_same_v<U, int32_t>, "Fixpipe reads float or int32_t from L0C");
    const twin_detail::CubeOperand workspace = twin_detail::Operand("cbufWorkspace", cbufWorkspace);
    twin_detail::FixpipeToL1(twin_detail::Operand("dst", dst), twin_detail::Operand("src", src), intriParams,
                             config.format != CO2Layout::NZ, &workspace);
}

// L0C (CO1) -> GM with DataCopyCO12DstParams (docs: L0C到GM数据搬运（DataCopy）): the Fixpipe's move with the
// registers the Set calls below fill: the scalar quantisation word (SetFixpipePreQuantFlag) for DEQF16, REQ8 and
// QF322B8_PRE, the Fixpipe Buffer words SetFixPipeConfig points at for VDEQF16, VREQ8 and VQF322B8_PRE, and the
// NZ2ND parameters (SetFixpipeNz2ndFlag) with nz2ndEn. Types: float to int8_t/uint8_t/half/bfloat16_t/float,
// int32_t to int8_t/uint8_t/half/int32_t (the docs' table). Rules as Fixpipe's (the error names each), and: the
// register a mode reads is set first in the launch; sid is the caller's (ignored); clipReluPre and eltWiseOp 0 and
// reluPre 0 or 1 on A2.
template <typename T, typename U>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                                const DataCopyCO12DstParams& intriParams)
{
    static_assert((std::is_same_v<U, float> &&
                   (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, half> ||
                    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float>)) ||
                      (std::is_same_v<U, int32_t> && (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
                                                      std::is_same_v<T, half> || std::is_same_v<T, int32_t>)),
                  "DataCopy from CO1 to GM on A2 writes float L0C as int8_t/uint8_t/half/bfloat16_t/float and int32_t "
                  "L0C as int8_t/uint8_t/half/int32_t");
    twin_detail::DataCopyL0cToGm(reinterpret_cast<uint8_t*>(twin_detail::TwinData(dst)), twin_detail::CubeElemOf<T>(),
                                 sizeof(T), twin_detail::Operand("src", src), intriParams);
}

// L0C (CO1) -> L1 (A1/B1/C1) with DataCopyCO12DstParams (docs: L0C到L1数据搬运（DataCopy）): NZ out (nz2ndEn is
// Ascend 950's; A2 refuses it here), dst 32-byte aligned, A2's pairs float to int8_t/uint8_t/half/bfloat16_t and
// int32_t to int8_t/uint8_t/half, each with its quantPre (A2 takes F322F16, F322BF16 and the six quantisations; no
// NoQuant); the registers as for the GM form.
template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                                const DataCopyCO12DstParams& intriParams)
{
    static_assert((std::is_same_v<U, float> && (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
                                                std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)) ||
                      (std::is_same_v<U, int32_t> &&
                       (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, half>)),
                  "DataCopy from CO1 to L1 on A2 writes float L0C as int8_t/uint8_t/half/bfloat16_t and int32_t L0C "
                  "as int8_t/uint8_t/half");
    twin_detail::DataCopyL0cToL1(twin_detail::Operand("dst", dst), twin_detail::Operand("src", src), intriParams);
}

// The scalar quantisation word (QUANT_PRE) of a later DataCopy from L0C with DEQF16, REQ8 or QF322B8_PRE.
__aicore__ inline void SetFixpipePreQuantFlag(uint64_t config) { twin_detail::SetPreQuantRegister(config); }

// NZ2ND of a later DataCopy from L0C with nz2ndEn (ND_PARA): ndNum matrices in [1, 65535], srcNdStride in 1024-byte
// units between the source NZ matrices (A2's check: at most 512; at least 1 when ndNum > 1), dstNdStride in
// elements between the ND matrices (at least 1 when ndNum > 1).
__aicore__ inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride)
{
    twin_detail::SetNz2ndRegister(ndNum, srcNdStride, dstNdStride);
}

// SetFixPipeConfig (A2: the FPC register): the quantisation tensor in the Fixpipe Buffer (TPosition::C2PIPE2GM)
// whose words a later L0C -> GM DataCopy's vector quantPre reads (Fixpipe's own vector form takes them from L1,
// cbufWorkspace), and isUnitFlag, which clears the unit flags of all of L0C (the unitFlag feature of
// Mmad/Fixpipe). With one tensor, a CO1 tensor stands in when only the unit flags are cleared; the two-tensor
// form's reluPre is reserved (docs: an empty LocalTensor, or a Fixpipe Buffer one). Any other position is
// refused, naming it.
template <typename T>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre,
                                        bool isUnitFlag = false)
{
    const twin_detail::CubeOperand relu = twin_detail::Operand("reluPre", reluPre);
    twin_detail::FixPipeConfig(&relu, twin_detail::Operand("quantPre", quantPre), isUnitFlag);
}

template <typename T, bool setRelu = false>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false)
{
    static_assert(!setRelu, "SetFixPipeConfig with one tensor sets the quantPre tensor only (setRelu = false)");
    twin_detail::FixPipeConfig(nullptr, twin_detail::Operand("preData", preData), isUnitFlag);
}

}  // namespace AscendC

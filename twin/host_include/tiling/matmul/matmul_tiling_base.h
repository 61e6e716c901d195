// The Matmul host tiling API on the twin (asc-devkit include/adv_api/matmul/matmul_tiling_base.h, matmul_tiling.h,
// bmm_tiling.h; host code reaches it through "tiling/tiling_api.h", "tiling/matmul/matmul_tiling.h" /
// "bmm_tiling.h" or "lib/matmul/..."): namespace matmul_tiling with CANN's enums (DataType, TPosition, CubeFormat,
// MatrixTraverse, MatrixMadType, DequantType, ScheduleType, with their values), PlatformInfo, MatmulConfigParams,
// SysTilingTempBufSize, and the classes MatmulApiTilingBase, MatmulApiTiling (one core) and MultiCoreMatmulTiling
// with their setters, GetTiling, GetCoreNum, GetSingleShape and GetBaseM/N/K. Host code only; inline.
//
// The setters record what they are told and return what CANN's return (SetFixSplit refuses a base that is 0 or not
// a multiple of 16 (M, N) or of 32 bytes of A's type (K); SetBufferSpace a size below -1 or above the chip's).
// GetTiling computes a TCubeTiling the twin's Matmul accepts and that keeps every rule CANN's tiling keeps on A2:
// baseM/baseN multiples of 16 and baseK of 32 bytes of A's type (and of 16, the twin's fractal rule); baseM x baseK
// x dbL0A within L0A, baseN x baseK x dbL0B within L0B, baseM x baseN float32 x dbL0C within L0C (the sizes
// SetBufferSpace leaves); baseN at most 256 with a bias (A2's bias table); depthA1 = stepM * stepKa * db and depthB1
// = stepN * stepKb * db with db 1 or 2; A1 + B1 + the bias within L1 (SetBufferSpace's size, and at most the chip's
// L1 less the 256 bytes A2's tiling keeps); usedCoreNum at most SetDim's count, the cores' blocks covering M x N
// (singleCoreM/N multiples of 16 when M or N is split). Base blocks fixed with SetFixSplit are honoured exactly
// (GetTiling returns -1 when they break a budget, as CANN's does); SetSingleShape's single-core shape is kept, and
// usedCoreNum is then SetDim's count, as CANN's. iterateOrder: SetTraverse's, else CANN's rule (N first when only
// A's K is loaded whole, M first when only B's, else the order that loads less).
//
// ScheduleType::N_BUFFER_33 is the exception: on several cores GetTiling computes CANN's own split for that
// schedule, by its rules (SolveNBuffer33); on one core the twin's blocks adjusted by CANN's NBuffer33 rules.
// Otherwise the twin does NOT reproduce CANN's search (its cost model over core splits and L0/L1 factors) except
// CANN's mini-shape rule (PreProcessMiniShape, without split K: a shape whose M x N blocks of 16 are no more than the
// cores, M and N at most 512, each matrix within L0, runs on one core): where the caller leaves them free, the split
// takes the grid of at most SetDim cores of the least area + 64 x perimeter per core (then the fewest cores, then the
// most M split), the base blocks are at most 128 x 256, stepM = stepN = 1 and stepKa = stepKb the largest power of two
// up to 8 that L1 takes; so the numbers may differ from CANN's for the same calls while meeting the same constraints
// (a kernel written for CANN's particular split may not run with
// them). EnableMultiCoreSplitK splits K in equal parts of whole 32-byte blocks over the cores the M x N grid leaves;
// OUTER_PRODUCT keeps two base blocks in L0C, else halves the inner axis's block and doubles its step (CANN's
// AdjustOuterProductL0Factor). GetTiling also returns -1, with the reason on stderr, for what CANN refuses on A2
// (OUTER_PRODUCT under MDL with baseK below singleCoreK; N_BUFFER_33 with K beyond 3 base K columns without
// split K, A1 + B1 + bias beyond L1, no block fitting L0, or a fixed baseM of more than 3 rows on one core) and
// for a shape or SetDim count that is not positive and MatrixMadType::MXMODE (dav-3510's MX Matmul). Not provided:
// the EnableL1BankConflictOptimise query, the MatmulGetTmpBufSize functions. GetTiling fills
// CANN's tiling-data class optiling::TCubeTiling (tiling/matmul/matmul_tilingdata.h) or the kernel's
// AscendC::tiling::TCubeTiling.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cmath>
#include <map>
#include <string>
#include <vector>

// graph/types.h first: CANN reaches it through matmul_tilingdata.h -> register/tilingdata_base.h ->
// graph/ascend_string.h; on the twin it also takes back kernel_type.h's DT_* macros, which would otherwise turn
// DataType's enumerators below into numbers in a unit that included kernel_operator.h first.
#include "graph/types.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/matmul/matmul_tilingdata.h"
#include "tiling/platform/platform_ascendc.h"

namespace matmul_tiling {

constexpr int32_t UINT8_BYTES = 1;
constexpr int32_t INT8_BYTES = 1;
constexpr int32_t FP32_BYTES = 4;
constexpr int32_t FP16_BYTES = 2;
constexpr int32_t C0_SIZE = 16;
constexpr int32_t C0_BYTE_SIZE = 32;
constexpr int32_t BITS_PER_BYTE = 8;

enum class DataType : int32_t {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT8 = 4,
    DT_INT32 = 3,
    DT_INT64 = 9,
    DT_UINT32 = 8,
    DT_UINT64 = 10,
    DT_BOOL = 12,
    DT_DOUBLE = 11,
    DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14,
    DT_DUAL_SUB_UINT8 = 15,
    DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17,
    DT_QINT8 = 18,
    DT_QINT16 = 19,
    DT_QINT32 = 20,
    DT_QUINT8 = 21,
    DT_QUINT16 = 22,
    DT_RESOURCE = 23,
    DT_STRING_REF = 24,
    DT_DUAL = 25,
    DT_VARIANT = 26,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
    DT_INT4 = 29,
    DT_UINT1 = 30,
    DT_INT2 = 31,
    DT_UINT2 = 32,
    DT_BFLOAT16 = 33,
    DT_HIFLOAT8 = 34,
    DT_FLOAT8_E4M3FN = 35,
    DT_FLOAT8_E5M2 = 36,
    DT_FLOAT4_E2M1 = 37,
    DT_FLOAT8_E8M0 = 38,
    DT_FLOAT4_E1M2 = 39,
    DT_MAX = 40,
};

const std::map<DataType, uint32_t> DTYPE_BYTE_TAB = {
    {DataType::DT_FLOAT, 4},      {DataType::DT_FLOAT16, 2},       {DataType::DT_INT8, 1},
    {DataType::DT_INT16, 2},      {DataType::DT_UINT16, 2},        {DataType::DT_UINT8, 1},
    {DataType::DT_INT32, 4},      {DataType::DT_INT64, 8},         {DataType::DT_UINT32, 4},
    {DataType::DT_UINT64, 8},     {DataType::DT_BF16, 2},          {DataType::DT_BFLOAT16, 2},
    {DataType::DT_INT4, 1},       {DataType::DT_FLOAT4_E2M1, 1},   {DataType::DT_FLOAT4_E1M2, 1},
    {DataType::DT_HIFLOAT8, 1},   {DataType::DT_FLOAT8_E4M3FN, 1}, {DataType::DT_FLOAT8_E5M2, 1},
    {DataType::DT_FLOAT8_E8M0, 1}};

const std::map<DataType, uint32_t> DTYPE_BIT_TAB = {
    {DataType::DT_FLOAT, 32},     {DataType::DT_FLOAT16, 16},      {DataType::DT_INT8, 8},
    {DataType::DT_INT16, 16},     {DataType::DT_UINT16, 16},       {DataType::DT_UINT8, 8},
    {DataType::DT_INT32, 32},     {DataType::DT_INT64, 64},        {DataType::DT_UINT32, 32},
    {DataType::DT_UINT64, 64},    {DataType::DT_BF16, 16},         {DataType::DT_BFLOAT16, 16},
    {DataType::DT_INT4, 4},       {DataType::DT_FLOAT4_E2M1, 4},   {DataType::DT_FLOAT4_E1M2, 4},
    {DataType::DT_HIFLOAT8, 8},   {DataType::DT_FLOAT8_E4M3FN, 8}, {DataType::DT_FLOAT8_E5M2, 8},
    {DataType::DT_FLOAT8_E8M0, 8}};

enum class TPosition : int32_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    MAX,
};

enum class TilingPolicy : int32_t { FIXED_A_TSCM, FIXED_B_TSCM, FIXED_A_B_TSCM, NO_POLICY };

enum class CubeFormat : int32_t {
    ND = 0,
    NZ,
    ZN,
    ZZ,
    NN,
    ND_ALIGN,
    SCALAR,
    VECTOR,
    ROW_MAJOR = ND,
    COLUMN_MAJOR = 8,
};

enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };

enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };

enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

// The values host code stores in the tiling and the kernel reads back (CANN's numbering).
static_assert(static_cast<int32_t>(TPosition::TSCM) == 13 && static_cast<int32_t>(TPosition::VECCALC) == 11,
              "TPosition numbering as CANN's");
static_assert(static_cast<int32_t>(CubeFormat::COLUMN_MAJOR) == 8 && static_cast<int32_t>(DataType::DT_BF16) == 27,
              "CubeFormat / DataType numbering as CANN's");

struct SysTilingTempBufSize {
    int32_t ubSize = 0;
    int32_t l1Size = 0;
    int32_t l0cSize = 0;
};

struct MatTilingType {
    TPosition pos = TPosition::GM;
    CubeFormat type = CubeFormat::ND;
    DataType dataType = DataType::DT_FLOAT;
    bool isTrans = false;
    bool isDB = false;
    bool hasSetScaleType = false;
    TPosition scalePos = TPosition::GM;
    CubeFormat scaleType = CubeFormat::ND;
    bool isScaleTrans = false;
};

struct BufferPool {
    int32_t l1Size;
    int32_t l0CSize;
    int32_t ubSize;
    int32_t l0ASize;
    int32_t l0BSize;
    int32_t btSize;
    int32_t l1AlignSize;
    int32_t l0CAlignSize;
    int32_t l0AAlignSize;
    int32_t l0BAlignSize;
    int32_t ubAlignSize;
};

struct PlatformInfo {
    platform_ascendc::SocVersion socVersion;
    uint64_t l1Size = 0;
    uint64_t l0CSize = 0;
    uint64_t ubSize = 0;
    uint64_t l0ASize = 0;
    uint64_t l0BSize = 0;
};

struct MatmulConfigParams {
    int32_t mmConfigType;
    bool enableL1CacheUB;
    ScheduleType scheduleType;
    MatrixTraverse traverse;
    bool enVecND2NZ;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                       MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn),
          enableL1CacheUB(enableL1CacheUBIn),
          scheduleType(scheduleTypeIn),
          traverse(traverseIn),
          enVecND2NZ(enVecND2NZIn)
    {}
};

namespace twin_host {

// A2's sizes when no platform is given (CANN's constants for ascend910b).
constexpr int32_t kL1Size = 512 * 1024 - 256;
constexpr int32_t kL0CSize = 128 * 1024;
constexpr int32_t kL0ASize = 64 * 1024;
constexpr int32_t kL0BSize = 64 * 1024;
constexpr int32_t kBtSize = 1024;
constexpr int32_t kUbSize = 192 * 1024 - 256;
constexpr int32_t kL1Kept = 256;     // what A2's tiling leaves of L1 (512 KiB less kL1Size)
constexpr int32_t kMaxBiasN = 256;   // A2's bias table: baseN at most MAX_BIAS_N (16) x C0_SIZE with a bias
constexpr int32_t kMaxBaseM = 128;   // the twin's free base block (not CANN's search)
constexpr int32_t kMaxBaseN = 256;
constexpr int32_t kMaxStepK = 8;

inline int32_t Ceil(int64_t a, int64_t b) { return static_cast<int32_t>((a + b - 1) / b); }
inline int32_t Align(int64_t a, int64_t b) { return static_cast<int32_t>((a + b - 1) / b * b); }
inline int64_t Bytes(int64_t elements, DataType t) { return elements * DTYPE_BIT_TAB.at(t) / BITS_PER_BYTE; }
inline bool Known(DataType t) { return DTYPE_BIT_TAB.count(t) != 0; }

inline BufferPool Pool(int64_t l1, int64_t l0c, int64_t ub, int64_t l0a, int64_t l0b, int64_t bt)
{
    return BufferPool{static_cast<int32_t>(l1), static_cast<int32_t>(l0c), static_cast<int32_t>(ub),
                      static_cast<int32_t>(l0a), static_cast<int32_t>(l0b), static_cast<int32_t>(bt),
                      32, 32, 32, 32, 32};
}

inline int64_t Refuse(const char* api, const char* why)
{
    std::fprintf(stderr, "matmul_tiling %s: %s\n", api, why);
    return -1;
}

}  // namespace twin_host

class MatmulApiTilingBase {
public:
    MatmulApiTilingBase()
    {
        oriBufferPool_ = twin_host::Pool(twin_host::kL1Size, twin_host::kL0CSize, twin_host::kUbSize,
                                         twin_host::kL0ASize, twin_host::kL0BSize, twin_host::kBtSize);
        Defaults();
    }
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform)
    {
        uint64_t l1 = 0, l0c = 0, ub = 0, l0a = 0, l0b = 0;
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a);
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b);
        socVersion = ascendcPlatform.GetSocVersion();
        oriBufferPool_ = twin_host::Pool(l1, l0c, ub, l0a, l0b, twin_host::kBtSize);
        Defaults();
    }
    explicit MatmulApiTilingBase(const PlatformInfo& platform)
    {
        socVersion = platform.socVersion;
        oriBufferPool_ = twin_host::Pool(platform.l1Size, platform.l0CSize, platform.ubSize, platform.l0ASize,
                                         platform.l0BSize, twin_host::kBtSize);
        Defaults();
    }
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false)
    {
        return SetType(aType_, pos, type, dataType, isTrans);
    }
    int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false)
    {
        return SetType(bType_, pos, type, dataType, isTrans);
    }
    int32_t SetScaleAType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = false)
    {
        return SetScale(aType_, scalePos, scaleType, isScaleTrans);
    }
    int32_t SetScaleBType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = true)
    {
        return SetScale(bType_, scalePos, scaleType, isScaleTrans);
    }
    int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType)
    {
        return SetType(cType_, pos, type, dataType, false);
    }
    int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType)
    {
        return SetType(biasType_, pos, type, dataType, false);
    }
    int32_t SetDequantType(DequantType dequantType)
    {
        this->deqType = dequantType;
        return 0;
    }
    virtual int32_t SetShape(int32_t m, int32_t n, int32_t k)
    {
        singleM = m;
        singleN = n;
        singleK = k;
        if (orgM == -1 && orgN == -1 && orgKa == -1 && orgKb == -1) {
            orgM = m;
            orgN = n;
            orgKa = k;
            orgKb = k;
        }
        return 0;
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn)
    {
        return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn)
    {
        orgM = orgMIn;
        orgN = orgNIn;
        orgKa = orgKaIn;
        orgKb = orgKbIn;
        return 0;
    }
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d)
    {
        aLayoutInfoB = b, aLayoutInfoS = s, aLayoutInfoN = n, aLayoutInfoG = g, aLayoutInfoD = d;
        return 0;
    }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d)
    {
        bLayoutInfoB = b, bLayoutInfoS = s, bLayoutInfoN = n, bLayoutInfoG = g, bLayoutInfoD = d;
        return 0;
    }
    int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d)
    {
        cLayoutInfoB = b, cLayoutInfoS1 = s, cLayoutInfoN = n, cLayoutInfoG = g, cLayoutInfoS2 = d;
        return 0;
    }
    // CANN only logs what it finds odd here (sizes not positive, batches above BatchNum) and returns 0.
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k)
    {
        aLayoutInfoB = batchA, aLayoutInfoS = m, aLayoutInfoN = 1, aLayoutInfoG = 1, aLayoutInfoD = k;
        bLayoutInfoB = batchB, bLayoutInfoS = n, bLayoutInfoN = 1, bLayoutInfoG = 1, bLayoutInfoD = k;
        cLayoutInfoB = std::max(batchA, batchB), cLayoutInfoS1 = m, cLayoutInfoN = 1, cLayoutInfoG = 1;
        cLayoutInfoS2 = n;
        isBMNKBmm = true;
        return 0;
    }
    int32_t SetBatchNum(int32_t batch)
    {
        batchNum = batch;
        return 0;
    }
    int32_t EnableBias(bool isBiasIn = false)
    {
        isBias = isBiasIn;
        return 0;
    }
    int32_t SetBias(bool isBiasIn = false) { return EnableBias(isBiasIn); }
    int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1)
    {
        if (baseMIn == 0 || baseNIn == 0 || baseKIn == 0) return -1;
        if (baseMIn != -1) {
            if (baseMIn % C0_SIZE != 0) return -1;
            baseM = baseMIn;
        }
        if (baseNIn != -1) {
            if (baseNIn % C0_SIZE != 0) return -1;
            baseN = baseNIn;
        }
        if (baseKIn != -1) {
            const int32_t k0 = ReduceBlock(aType_.dataType);
            if (k0 == 0 || baseKIn % k0 != 0) return -1;
            baseK = baseKIn;
        }
        return 0;
    }
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1)
    {
        if (l1Size < -1 || l1Size > bufferPool_.l1Size || l0CSize < -1 || l0CSize > bufferPool_.l0CSize ||
            ubSize < -1 || ubSize > bufferPool_.ubSize || btSize < -1 || btSize > bufferPool_.btSize) {
            return -1;
        }
        if (l1Size != -1) bufferPool_.l1Size = l1Size - l1Size % bufferPool_.l1AlignSize;
        if (l0CSize != -1) bufferPool_.l0CSize = l0CSize - l0CSize % bufferPool_.l0CAlignSize;
        if (ubSize != -1) bufferPool_.ubSize = ubSize - ubSize % bufferPool_.ubAlignSize;
        if (btSize != -1) bufferPool_.btSize = btSize;
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse traverse)
    {
        traverse_ = traverse;
        return 0;
    }
    int32_t SetMadType(MatrixMadType madType)
    {
        madType_ = madType;
        return 0;
    }
    // CANN: the range a free base block is searched in (multiples of 16 / of 32 bytes of A's type).
    int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1, int32_t minBaseM = -1,
                          int32_t minBaseN = -1, int32_t minBaseK = -1)
    {
        const int32_t k0 = ReduceBlock(aType_.dataType);
        if (maxBaseM != -1) adjust_.maxBaseM = maxBaseM - maxBaseM % C0_SIZE;
        if (maxBaseN != -1) adjust_.maxBaseN = maxBaseN - maxBaseN % C0_SIZE;
        if (maxBaseK != -1 && k0 > 0) adjust_.maxBaseK = maxBaseK - maxBaseK % k0;
        if (minBaseM != -1) adjust_.minBaseM = twin_host::Align(minBaseM, C0_SIZE);
        if (minBaseN != -1) adjust_.minBaseN = twin_host::Align(minBaseN, C0_SIZE);
        if (minBaseK != -1 && k0 > 0) adjust_.minBaseK = twin_host::Align(minBaseK, k0);
        return 0;
    }
    int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true)
    {
        (void)a, (void)b, (void)c, (void)bias, (void)transND2NZ, (void)transNZ2ND;  // CANN: a reserved API
        return 0;
    }
    void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                               ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                               MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
    {
        mmConfigType = mmConfigTypeIn;
        enableL1CacheUB = enableL1CacheUBIn;
        scheduleType = scheduleTypeIn;
        traverse_ = traverseIn;
        enVecND2NZ = enVecND2NZIn;
    }
    void SetMatmulConfigParams(const MatmulConfigParams& configParams)
    {
        SetMatmulConfigParams(configParams.mmConfigType, configParams.enableL1CacheUB, configParams.scheduleType,
                              configParams.traverse, configParams.enVecND2NZ);
    }
    int32_t SetSparse(bool isSparseIn = false)
    {
        isSparse_ = isSparseIn;
        return 0;
    }
    int32_t GetBaseM() const { return baseM; }
    int32_t GetBaseN() const { return baseN; }
    int32_t GetBaseK() const { return baseK; }
    virtual int64_t GetTiling(optiling::TCubeTiling& tiling) = 0;
    virtual int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) = 0;

public:
    optiling::TCubeTiling tiling_;
    MatTilingType aType_;
    MatTilingType bType_;
    MatTilingType cType_;
    MatTilingType biasType_;
    bool isBias = false;
    bool isSupportL0c2Out = true;
    int32_t blockDim = 0;
    int32_t orgM = 0;
    int32_t orgN = 0;
    int32_t orgKa = 0;
    int32_t orgKb = 0;
    int32_t aLayoutInfoB = 0;
    int32_t aLayoutInfoS = 0;
    int32_t aLayoutInfoN = 0;
    int32_t aLayoutInfoG = 0;
    int32_t aLayoutInfoD = 0;
    int32_t bLayoutInfoB = 0;
    int32_t bLayoutInfoS = 0;
    int32_t bLayoutInfoN = 0;
    int32_t bLayoutInfoG = 0;
    int32_t bLayoutInfoD = 0;
    int32_t cLayoutInfoB = 0;
    int32_t cLayoutInfoS1 = 0;
    int32_t cLayoutInfoN = 0;
    int32_t cLayoutInfoG = 0;
    int32_t cLayoutInfoS2 = 0;
    int32_t batchNum = 0;
    int32_t singleM = 0;
    int32_t singleN = 0;
    int32_t singleK = 0;
    int32_t singleCoreM = 0;
    int32_t singleCoreN = 0;
    int32_t singleCoreK = 0;
    int32_t baseM = 0;
    int32_t baseN = 0;
    int32_t baseK = 0;
    struct MnmAdjust {
        int32_t maxBaseM;
        int32_t maxBaseN;
        int32_t maxBaseK;
        int32_t minBaseM;
        int32_t minBaseN;
        int32_t minBaseK;
    } adjust_;
    BufferPool oriBufferPool_;
    BufferPool bufferPool_;
    MatrixTraverse traverse_ = MatrixTraverse::FIRSTM;
    MatrixMadType madType_ = MatrixMadType::NORMAL;
    static constexpr int32_t kSparseBaseK = 64;  // SetSparse: the base K a multiple of 64 (MmadWithSparse's k)
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool isSparse_ = false;
    DequantType deqType = DequantType::SCALAR;
    bool enableSplitK_ = false;
    platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
    int32_t mmConfigType = 1;  // 0: Norm; 1: MDL
    bool enableL1CacheUB = false;
    bool enVecND2NZ = false;
    bool isBMNKBmm = false;

protected:
    virtual int64_t Compute() = 0;
    // The derived classes' GetTiling: Compute, then the result in either tiling form (-1: refused, nothing written).
    int64_t ComputeInto(AscendC::tiling::TCubeTiling& tiling)
    {
        const int64_t ret = Compute();
        if (ret != -1) optiling::twin_host::Load(tiling_, tiling);
        return ret;
    }
    int64_t ComputeInto(optiling::TCubeTiling& tiling)
    {
        AscendC::tiling::TCubeTiling t;
        const int64_t ret = ComputeInto(t);
        if (ret != -1) optiling::twin_host::Store(t, tiling);
        return ret;
    }

    static int32_t ReduceBlock(DataType t)  // elements of 32 bytes: C0 along K
    {
        return twin_host::Known(t) ? C0_BYTE_SIZE * BITS_PER_BYTE / static_cast<int32_t>(DTYPE_BIT_TAB.at(t)) : 0;
    }

    // The tiling for `blocks` cores (1: one core). Fills tiling_; 0, or -1 where it refuses.
    int64_t Solve(const char* api, int32_t blocks)
    {
        using namespace twin_host;
        const int32_t m = singleM != -1 ? singleM : orgM, n = singleN != -1 ? singleN : orgN;
        const int32_t k = singleK != -1 ? singleK : orgKa;
        if (m <= 0 || n <= 0 || k <= 0) return Refuse(api, "M, N and K (SetShape / SetOrgShape) are positive");
        if (!Known(aType_.dataType) || !Known(bType_.dataType) || !Known(cType_.dataType)) {
            return Refuse(api, "A, B and C have a data type with a size (SetAType / SetBType / SetCType)");
        }
        if (madType_ == MatrixMadType::MXMODE) return Refuse(api, "MatrixMadType::MXMODE is not on A2 (dav-2201)");
        if (blocks <= 0) return Refuse(api, "SetDim's core count is positive");
        const BufferPool& p = bufferPool_;
        // CheckSetParam / CheckBaseMN: fixed base blocks within L0A / L0B / L0C, A2's bias table.
        if (baseM != -1 && baseK != -1 && Bytes(int64_t(baseM) * baseK, aType_.dataType) > p.l0ASize) {
            return Refuse(api, "SetFixSplit's baseM x baseK fits in L0A");
        }
        if (baseN != -1 && baseK != -1 && Bytes(int64_t(baseN) * baseK, bType_.dataType) > p.l0BSize) {
            return Refuse(api, "SetFixSplit's baseN x baseK fits in L0B");
        }
        const int32_t mMin = baseM != -1 ? baseM : C0_SIZE, nMin = baseN != -1 ? baseN : C0_SIZE;
        if (int64_t(mMin) * nMin * FP32_BYTES > p.l0CSize || int64_t(mMin) * C0_BYTE_SIZE > p.l0ASize ||
            int64_t(nMin) * C0_BYTE_SIZE > p.l0BSize) {
            return Refuse(api, "SetFixSplit's baseM x baseN float32 fits in L0C (SetBufferSpace's size)");
        }
        if (isBias && baseN > kMaxBiasN) return Refuse(api, "with a bias baseN is at most 256 (A2's bias table)");

        const bool singleShape = singleCoreM != -1 || singleCoreN != -1 || singleCoreK != -1;
        // N_BUFFER_33 over several cores without SetSingleShape: CANN's own split (SolveNBuffer33).
        if (scheduleType == ScheduleType::N_BUFFER_33 && blocks > 1 && !singleShape) {
            return SolveNBuffer33(api, m, n, k, blocks);
        }

        // Cores: SetSingleShape's single-core shape, else the M x N grid of at most `blocks` cores with the least
        // cost per core, its block's area plus 64 times its perimeter (what it computes and what it loads per K
        // step), then the fewest cores, then the most M split (a core's A rows are contiguous in GM).
        int32_t sm = m, sn = n, sk = k, used = 1;
        if (singleShape) {
            sm = singleCoreM != -1 ? singleCoreM : m;
            sn = singleCoreN != -1 ? singleCoreN : n;
            sk = singleCoreK != -1 ? singleCoreK : k;
            used = blockDim;
        } else if (blocks > 1 && !enableSplitK_ && MiniShape(m, n, k, blocks, p)) {
            // CANN's PreProcessMiniShape: a shape whose A, B and C each fit in L0 and whose 16 x 16 blocks of C are
            // no more than the cores is not split (mDim = nDim = kDim = 1 for M and N up to 32 blocks of 16).
        } else if (blocks > 1) {
            int64_t best[2] = {INT64_MAX, INT64_MAX};
            for (int32_t md = std::min(blocks, Ceil(m, C0_SIZE)); md >= 1; --md) {  // equal costs: M split first
                const int32_t cm = md == 1 ? m : Align(Ceil(m, md), C0_SIZE), mr = Ceil(m, cm);
                for (int32_t nd = 1; nd <= std::min(blocks / mr, Ceil(n, C0_SIZE)); ++nd) {
                    const int32_t cn = nd == 1 ? n : Align(Ceil(n, nd), C0_SIZE), nr = Ceil(n, cn);
                    const int64_t score[2] = {int64_t(cm) * cn + 64 * (int64_t(cm) + cn), int64_t(mr) * nr};
                    if (std::lexicographical_compare(score, score + 2, best, best + 2)) {
                        std::copy(score, score + 2, best);
                        sm = cm, sn = cn, used = mr * nr;
                    }
                }
            }
            // EnableMultiCoreSplitK: K in equal parts of whole 32-byte blocks over the cores left.
            if (enableSplitK_) {
                const int32_t k0 = ReduceBlock(aType_.dataType);
                int32_t kd = std::min(blocks / used, k / k0);
                while (kd > 1 && (k % kd != 0 || (k / kd) % k0 != 0)) --kd;
                if (kd > 1) {
                    sk = k / kd;
                    used *= kd;
                }
            }
        }
        if (sm <= 0 || sn <= 0 || sk <= 0) return Refuse(api, "SetSingleShape's sizes are positive");
        if (scheduleType == ScheduleType::N_BUFFER_33 && baseM != -1 && Ceil(sm, baseM) > 3) {
            return Refuse(api, "N_BUFFER_33: Ceil(singleCoreM / baseM) is at most 3");
        }

        // Base blocks: SetFixSplit's exactly, else at most 128 x 256 within L0C (and the bias table), baseK (a
        // multiple of 32 bytes of A's type and of 16) as large as L0A and L0B take with double buffering.
        const int32_t kAlign = std::max(ReduceBlock(aType_.dataType), int32_t(C0_SIZE));
        const int64_t l1Cap = std::min<int64_t>(p.l1Size, int64_t(oriBufferPool_.l1Size) - kL1Kept);
        int32_t bm = baseM != -1 ? baseM
                                 : Clamp(Align(sm, C0_SIZE), adjust_.minBaseM, std::min(kMaxBaseM, adjust_.maxBaseM));
        int32_t bn = baseN != -1 ? baseN
                                 : Clamp(Align(sn, C0_SIZE), adjust_.minBaseN,
                                         std::min(isBias ? kMaxBiasN : kMaxBaseN, adjust_.maxBaseN));
        while (baseN == -1 && bn > C0_SIZE && int64_t(bm) * bn * FP32_BYTES > p.l0CSize) bn -= C0_SIZE;
        while (baseM == -1 && bm > C0_SIZE && int64_t(bm) * bn * FP32_BYTES > p.l0CSize) bm -= C0_SIZE;
        if (int64_t(bm) * bn * FP32_BYTES > p.l0CSize) {
            return Refuse(api, "baseM x baseN float32 fits in L0C (SetBufferSpace's size)");
        }
        int32_t maxK = adjust_.maxBaseK;  // lowered below while L1 does not take the blocks
        for (;;) {
            int32_t bk = baseK;
            int32_t dbA = 2, dbB = 2;
            if (bk == -1) {
                const int64_t room = std::min(p.l0ASize / Bytes(int64_t(bm) * 2, aType_.dataType),
                                              p.l0BSize / Bytes(int64_t(bn) * 2, bType_.dataType));
                bk = static_cast<int32_t>(std::min<int64_t>({room / kAlign * kAlign, Align(sk, kAlign),
                                                             int64_t(maxK) / kAlign * kAlign}));
                if (bk < kAlign) bk = kAlign;
                // SetSparse (CANN's AdjustSparseL0Factors): baseK aligned to 64, at least 64.
                if (isSparse_) bk = bk <= kSparseBaseK ? kSparseBaseK : bk / kSparseBaseK * kSparseBaseK;
            }
            if (Bytes(int64_t(bm) * bk * dbA, aType_.dataType) > p.l0ASize) dbA = 1;
            if (Bytes(int64_t(bn) * bk * dbB, bType_.dataType) > p.l0BSize) dbB = 1;
            if (Bytes(int64_t(bm) * bk, aType_.dataType) > p.l0ASize ||
                Bytes(int64_t(bn) * bk, bType_.dataType) > p.l0BSize) {
                return Refuse(api, "baseM x baseK fits in L0A and baseN x baseK in L0B");
            }
            // L1: A1 and B1 groups of stepK base K columns, double-buffered when they fit, and the bias.
            const int64_t bias = isBias ? int64_t(bn) * FP32_BYTES : 0;
            const int64_t group = Bytes(int64_t(bm) * bk, aType_.dataType) + Bytes(int64_t(bn) * bk, bType_.dataType);
            int32_t stepK = 1, db = 2;  // a power of two up to kMaxStepK and the K steps
            while (stepK * 2 <= std::min(Ceil(sk, bk), kMaxStepK) && db * stepK * 2 * group + bias <= l1Cap) {
                stepK *= 2;
            }
            if (db * stepK * group + bias > l1Cap) db = 1;
            if (db * stepK * group + bias > l1Cap) {
                if (baseK == -1 && bk > kAlign) {  // a smaller baseK
                    maxK = bk - kAlign;
                    continue;
                }
                if (baseK == -1 && baseN == -1 && bn > C0_SIZE) {
                    bn = std::max(int32_t(C0_SIZE), bn / 2 / C0_SIZE * C0_SIZE);
                    continue;
                }
                if (baseK == -1 && baseM == -1 && bm > C0_SIZE) {
                    bm = std::max(int32_t(C0_SIZE), bm / 2 / C0_SIZE * C0_SIZE);
                    continue;
                }
                return Refuse(api, "A1, B1 and the bias fit in L1 (SetBufferSpace's size)");
            }
            // OUTER_PRODUCT (CANN's AdjustOuterProductL0Factor): the whole singleCoreK in one base K under MDL.
            if (scheduleType == ScheduleType::OUTER_PRODUCT && bk < sk &&
                (mmConfigType == 1 || (mmConfigType == 0 && batchNum != 0))) {
                return Refuse(api, "ScheduleType::OUTER_PRODUCT with MDL: baseK covers singleCoreK");
            }
            if (scheduleType == ScheduleType::N_BUFFER_33) {
                return NBuffer33OneCore(api, m, n, sm, sn, sk, used, bm, bn, bk);
            }
            Fill(m, n, sm, sn, sk, used, bm, bn, bk, stepK, db, dbA, dbB, db * stepK * group + bias);
            return 0;
        }
    }

    // CANN's mini-shape test (MatmulTilingAlgorithm::PreProcessMiniShape, without split K), in blocks of 16 rows /
    // columns and 32 bytes of K: M x N blocks at most the cores, M x K and N x K at most L0A / 512 bytes, M x N at
    // most L0C / 1 KiB; applied where it keeps one core (M and N at most 32 blocks, MIN_MTE1_LOAD).
    bool MiniShape(int32_t m, int32_t n, int32_t k, int32_t blocks, const BufferPool& p) const
    {
        constexpr int32_t kMinMte1Load = 32;
        const int32_t m32 = twin_host::Ceil(m, C0_SIZE), n32 = twin_host::Ceil(n, C0_SIZE);
        const int32_t k32 = twin_host::Ceil(k, ReduceBlock(aType_.dataType));
        const int64_t l0ab = p.l0ASize / (C0_SIZE * C0_BYTE_SIZE), l0c = p.l0CSize / (C0_SIZE * C0_SIZE) / FP32_BYTES;
        return m32 <= kMinMte1Load && n32 <= kMinMte1Load && int64_t(m32) * n32 <= blocks &&
               int64_t(m32) * k32 <= l0ab && int64_t(n32) * k32 <= l0ab && int64_t(m32) * n32 <= l0c;
    }

private:
    // N_BUFFER_33 on several cores (SetDim above 1, no SetSingleShape): the split CANN's tiling computes for this
    // schedule on A2, by its rules (asc-devkit docs/zh/api Matmul-Tiling类 SetMatmulConfigParams, MatmulPolicy
    // NBuffer33; impl/adv_api/tiling/matmul), so that a kernel written for that split runs with it:
    //  - base blocks: 128 x 256 (256 x 128 when A and B are both transposed), SetFixSplit's baseM / baseN kept;
    //    baseK 128 bytes of A's type (SetFixSplit's baseK is not used); the blocks are not shrunk to the shape;
    //  - mDim = Ceil(M, 3 baseM); kDim = Ceil(K, 3 baseK) with EnableMultiCoreSplitK, else 1 and K at most
    //    3 baseK (refused otherwise);
    //  - nDim: of 1 .. min(N / baseN, cores / (mDim kDim)) + 1, the one whose per-core blocks of
    //    Ceil(M, mDim) x Ceil(N, nDim) (aligned to 256 bytes where the layout asks it) compute the most per byte
    //    loaded (cube cycles over A + B bytes of the full and tail base blocks, twice the bytes when an aligned
    //    split fails); within 1e-4 of that, the fewer cycles, and within 1 % of those the larger share of
    //    unused cores' bandwidth ((cores - mDim) baseM + (cores - nDim) baseN over (baseM + baseN) cores);
    //  - singleCoreM/N = M or N rounded up to 16 over mDim / nDim (aligned to 256 bytes when the split was
    //    CANN's "split MN" scenario or a format is NZ); singleCoreK = K / kDim in 32-byte blocks;
    //  - usedCoreNum = min(mDim nDim kDim, SetDim's count); when the product is above the count, singleCoreM =
    //    min(3 baseM, M) and singleCoreK = min(3 baseK, K) (CANN's rule: cores beyond the count are dropped);
    //  - stepM = Ceil(singleCoreM, baseM), stepKa = stepKb = Ceil(singleCoreK, baseK), stepN 1, no L1 double
    //    buffer: depthA1 = stepM stepKa, depthB1 = stepKb (less for a float32 B that overflows L1); A1 + B1 + bias
    //    within L1 (refused otherwise); dbL0A = dbL0B = 2, dbL0C = 1;
    //  - iterateOrder from the L1 K depths CANN's L1 estimate gives these blocks (before the NBuffer33 steps).
    int64_t SolveNBuffer33(const char* api, int32_t m, int32_t n, int32_t k, int32_t blocks)
    {
        using namespace twin_host;
        const int32_t bitsA = DTYPE_BIT_TAB.at(aType_.dataType), bitsB = DTYPE_BIT_TAB.at(bType_.dataType);
        const int32_t reduce = C0_BYTE_SIZE * BITS_PER_BYTE / bitsA;  // K elements of a 32-byte block
        const bool bothTrans = aType_.isTrans && bType_.isTrans;
        const int32_t bm = baseM != -1 ? baseM : (bothTrans ? 256 : 128);
        const int32_t bn = baseN != -1 ? baseN : (bothTrans ? 128 : 256);
        const int32_t bk = 128 * BITS_PER_BYTE / bitsA;
        constexpr int32_t kRows = 3;  // N_BUFFER_33: at most 3 x 3 base blocks of A a core
        const int32_t mDim = Ceil(m, int64_t(bm) * kRows);
        const int32_t kDim = enableSplitK_ ? Ceil(k, int64_t(bk) * kRows) : 1;
        if (!enableSplitK_ && Ceil(k, bk) > kRows) {
            const std::string why = "ScheduleType::N_BUFFER_33 without EnableMultiCoreSplitK: K is at most 3 base K "
                                    "columns (3 x baseK " + std::to_string(bk) + " = " + std::to_string(kRows * bk) +
                                    "), got K " + std::to_string(k);
            return Refuse(api, why.c_str());
        }
        const int32_t orgMv = orgM > 0 ? orgM : m, orgNv = orgN > 0 ? orgN : n;
        // A single shape aligned to `align` elements where asked, unless that empties the last core's part.
        auto split = [](bool aligned, int32_t whole, int32_t dim, int32_t align, int32_t& part) {
            part = Ceil(whole, dim);
            if (!aligned || align == 0 || dim <= 1) return true;
            const int32_t up = Align(part, align);
            if (up >= Ceil(whole, dim - 1)) return false;
            part = up;
            return true;
        };
        const int32_t alignA = 256 / bitsA * BITS_PER_BYTE, alignB = 256 / bitsB * BITS_PER_BYTE;  // 256 bytes
        struct Candidate {
            int32_t nDim;
            float cycles, intensity, band;
        };
        auto rate = [&](int32_t nDim) {
            int32_t sm = 0, sn = 0;
            const bool okA = split(aType_.isTrans && orgMv % alignA == 0, orgMv, mDim, alignA, sm);
            const bool okB = split(!bType_.isTrans && orgNv % alignB == 0, orgNv, nDim, alignB, sn);
            const int32_t ratio = okA && okB ? 1 : 2;
            auto cyc = [&](int32_t r, int32_t c) {
                return static_cast<float>(r * c * bk) / (C0_SIZE * C0_SIZE * reduce);
            };
            auto bytes = [&](int32_t r, int32_t c) {
                return 1.0f * r * bk * bitsA / BITS_PER_BYTE + 1.0f * c * bk * bitsB / BITS_PER_BYTE;
            };
            float cycles = 0, memory = 0;
            const int32_t rowBlocks[2] = {sm / bm, 1}, rows[2] = {bm, sm % bm};
            const int32_t colBlocks[2] = {sn / bn, 1}, cols[2] = {bn, sn % bn};
            for (int i = 0; i < 2; ++i) {      // full base rows, then the tail row
                for (int j = 0; j < 2; ++j) {  // full base columns, then the tail column
                    if (rowBlocks[i] == 0 || colBlocks[j] == 0 || rows[i] == 0 || cols[j] == 0) continue;
                    const int32_t count = rowBlocks[i] * colBlocks[j];
                    cycles += cyc(rows[i], cols[j]) * count;
                    memory += ratio * bytes(rows[i], cols[j]) * count;
                }
            }
            const float band = static_cast<float>((blocks - mDim) * bm + (blocks - nDim) * bn) /
                               static_cast<float>((bm + bn) * blocks);
            return Candidate{nDim, cycles, memory > 0 ? cycles / memory : 0, band};
        };
        std::vector<Candidate> cands;
        const int32_t nDimMax = std::min(n / bn, blocks / (mDim * kDim));
        for (int32_t nd = 1; nd <= nDimMax + 1; ++nd) cands.push_back(rate(nd));
        std::sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
            if (std::fabs(a.intensity - b.intensity) > 1.0e-4f) return a.intensity > b.intensity;
            if (std::fabs(a.cycles - b.cycles) < 0.01f * b.cycles) return a.band > b.band;
            return a.cycles < b.cycles;
        });
        const int32_t nDim = cands.front().nDim;

        // The single-core shape: M and N in 16-element fractals over the cores, aligned to 256 bytes in CANN's
        // "split MN" scenarios (SetShape not called, M x N against 26214 a core) or with an NZ operand.
        const int64_t mn = int64_t(orgMv) * orgNv, mnLimit = int64_t(26214) * blocks;
        const bool scenario = !enableSplitK_ && singleM == -1 && singleN == -1 &&
                              ((orgMv >= 128 && mn > mnLimit) || mn < mnLimit);
        const bool needAlign = scenario || aType_.type == CubeFormat::NZ || bType_.type == CubeFormat::NZ;
        const bool alignC = cType_.type == CubeFormat::NZ;
        int32_t sm = Ceil(m, mDim), sn = Ceil(n, nDim), sk = Ceil(k, kDim);
        const bool outputAlign = int64_t(int32_t(sn * sm)) * (2 * DTYPE_BIT_TAB.at(cType_.dataType)) >
                                 int64_t(int32_t(sn * sk * bitsA)) + int64_t(int32_t(sm * sk * bitsB));
        split((needAlign && (!bType_.isTrans || outputAlign)) || alignC, Ceil(n, C0_SIZE) * C0_SIZE, nDim, alignB, sn);
        split((needAlign && aType_.isTrans) || alignC, Ceil(m, C0_SIZE) * C0_SIZE, mDim, alignA, sm);
        if (enableSplitK_) {
            auto has = [&](int32_t bits) { return bitsA == bits || bitsB == bits; };
            const int32_t kBlock = has(32) ? 8 : has(8) ? 32 : has(4) ? 64 : 16;
            sk = Ceil(Ceil(k, reduce), kDim) * kBlock;
        }

        // iterateOrder: CANN's L1 estimate for these blocks (half of L1 over a block each of A and B, a smaller
        // share for the narrower one when both do not fit beside the bias, steps snapped to 256 / 512 bytes).
        const int32_t l1 = bufferPool_.l1Size;
        auto widthAlign = [&](DataType t, bool trans, bool isA, int32_t v) {
            const bool f32 = t == DataType::DT_FLOAT, small = DTYPE_BIT_TAB.at(t) <= 8;
            const int32_t c0 = C0_BYTE_SIZE * BITS_PER_BYTE / DTYPE_BIT_TAB.at(t);
            if (isA) return (f32 && trans) ? Align(v, C0_SIZE) : (f32 || small) ? Align(v, c0) : v;
            return (f32 || (small && !trans)) ? Align(v, c0) : v;
        };
        auto heightAlign = [&](DataType t, bool trans, bool isA, int32_t v) {
            const bool f32 = t == DataType::DT_FLOAT, small = DTYPE_BIT_TAB.at(t) <= 8;
            const int32_t c0 = C0_BYTE_SIZE * BITS_PER_BYTE / DTYPE_BIT_TAB.at(t);
            if (isA) return f32 ? Align(v, C0_SIZE) : (small && trans) ? Align(v, c0) : v;
            return (f32 && !trans) ? Align(v, C0_SIZE) : small ? Align(v, c0) : v;
        };
        int32_t depthA = (l1 / 2 / bm / bk) * BITS_PER_BYTE / bitsA;
        int32_t depthB = ((l1 + 256) / 2 / bn / bk) * BITS_PER_BYTE / bitsB;
        const int32_t bias = isBias ? bn * DTYPE_BIT_TAB.at(biasType_.dataType) / BITS_PER_BYTE : 0;
        const int32_t hA = heightAlign(aType_.dataType, aType_.isTrans, true, bm);
        const int32_t wB = widthAlign(bType_.dataType, bType_.isTrans, false, bn);
        const int32_t aBlock = hA * widthAlign(aType_.dataType, aType_.isTrans, true, bk) * bitsA / BITS_PER_BYTE;
        const int32_t bBlock = heightAlign(bType_.dataType, bType_.isTrans, false, bk) * wB * bitsB / BITS_PER_BYTE;
        if (depthA * aBlock + depthB * bBlock > l1 - bias) (hA <= wB ? depthA : depthB) /= 2;
        int32_t stepA = depthA / 2, stepB = depthB / 2;
        auto snap = [&](int32_t& step) {  // a K step of more than 256 / 512 bytes snapped to a multiple of them
            const int32_t kb = bk * bitsA / BITS_PER_BYTE;
            if (step * bk >= k) return;
            for (const int32_t unit : {512, 256}) {
                if (step * kb > unit) {
                    if ((step * kb) % unit != 0 && unit % kb == 0) {
                        while ((step * kb) % unit != 0 && step > 1) --step;
                    }
                    return;
                }
            }
        };
        snap(stepA);
        snap(stepB);
        if (stepA >= stepB && stepB != 0) {
            stepA = stepA / stepB * stepB;
        } else if (stepA != 0) {
            stepB = stepB / stepA * stepA;
        }
        int32_t order = 0;
        const bool fullA = sk <= int64_t(bk / reduce * stepA) * reduce;
        const bool fullB = sk <= int64_t(bk / reduce * stepB) * reduce;
        if (fullA && fullB) {
            const int64_t aLoad = sm + int64_t(sn) * Ceil(sm, bm), bLoad = sn + int64_t(sm) * Ceil(sn, bn);
            order = aLoad < bLoad ? 1 : 0;
        } else {
            order = fullA ? 1 : 0;
        }

        if (mDim * nDim * kDim > blocks) {  // cores beyond the count dropped
            sm = std::min(bm * kRows, m);
            sk = std::min(bk * kRows, k);
        }
        return NBuffer33Steps(api, m, n, sm, sn, sk, std::min(mDim * nDim * kDim, blocks), bm, bn, bk, 2, 2, 1,
                              order);
    }

    // N_BUFFER_33 on one core (MatmulApiTiling, SetDim(1), SetSingleShape): CANN adjusts its general search's
    // base blocks (which the twin does not reproduce; the twin's own blocks stand in for them) so that the core
    // takes at most 3 x 3 base blocks of A: baseM = Ceil(singleCoreM, 3) and baseK = Ceil(singleCoreK, 3)
    // (rounded up to 16 and to 32 bytes of A's type) where they were smaller; where a block then outgrows L0A,
    // L0B or L0C, more base rows / K columns (up to 3), then a narrower baseN; refused when none fits; more base
    // rows (up to 3) while L1 does not take the blocks. L0 double buffers where half of L0A / L0B / L0C takes the
    // block. Then the steps as on several cores.
    int64_t NBuffer33OneCore(const char* api, int32_t m, int32_t n, int32_t sm, int32_t sn, int32_t sk, int32_t used,
                             int32_t bm, int32_t bn, int32_t bk)
    {
        using namespace twin_host;
        const int32_t kAlign = std::max(ReduceBlock(aType_.dataType), int32_t(C0_SIZE));
        const BufferPool& p = bufferPool_;
        auto aBytes = [&] { return Bytes(int64_t(bm) * bk, aType_.dataType); };
        auto bBytes = [&] { return Bytes(int64_t(bn) * bk, bType_.dataType); };
        auto cBytes = [&] { return int64_t(bm) * bn * FP32_BYTES; };
        if (Ceil(sm, bm) > 3) bm = Align(Ceil(sm, 3), C0_SIZE);
        if (Ceil(sk, bk) > 3) bk = Align(Ceil(sk, 3), kAlign);
        // More base rows (when baseM is free), then more K columns, up to 3 each, while `fits` fails.
        auto moreRows = [&](const auto& fits) {
            for (int32_t b = Ceil(sm, bm); baseM == -1 && !fits() && b < 3;) bm = Align(Ceil(sm, ++b), C0_SIZE);
        };
        auto moreCols = [&](const auto& fits) {
            for (int32_t b = Ceil(sk, bk); !fits() && b < 3;) bk = Align(Ceil(sk, ++b), kAlign);
        };
        auto fitA = [&] { return aBytes() <= p.l0ASize; };
        auto fitB = [&] { return bBytes() <= p.l0BSize; };
        auto fitC = [&] { return cBytes() <= p.l0CSize; };
        moreRows(fitA);
        moreCols(fitA);
        moreCols(fitB);
        if (!fitB() && baseN == -1) bn = C0_SIZE * int32_t(p.l0BSize / Bytes(bk, bType_.dataType) / C0_SIZE);
        moreRows(fitC);
        if (!fitC() && baseN == -1) {
            bn = std::min<int32_t>(bn, C0_SIZE * int32_t(p.l0CSize / (bm * FP32_BYTES) / C0_SIZE));
        }
        if (!fitA() || !fitB() || !fitC() || bn < C0_SIZE) {
            const std::string why = "ScheduleType::N_BUFFER_33: no base block of at most 3 x 3 per core fits L0A / "
                                    "L0B / L0C (baseM " + std::to_string(bm) + ", baseN " + std::to_string(bn) +
                                    ", baseK " + std::to_string(bk) + ")";
            return Refuse(api, why.c_str());
        }
        // Where L1 does not take A's blocks, B's column and the bias, more base rows (up to 3; the twin's: CANN's
        // search starts from blocks of its own, e.g. 80 x 144 x 112 float for 160 x 160 x 320, where the twin's
        // 128 rows would not fit).
        auto l1Need = [&] {
            return Bytes(int64_t(bm) * bk * Ceil(sk, bk) * Ceil(sm, bm), aType_.dataType) +
                   Bytes(int64_t(bn) * bk * Ceil(sk, bk), bType_.dataType) +
                   (isBias ? Bytes(bn, biasType_.dataType) : 0);
        };
        for (int32_t b = Ceil(sm, bm); baseM == -1 && l1Need() > p.l1Size && b < 3;) {
            bm = Align(Ceil(sm, ++b), C0_SIZE);
        }
        return NBuffer33Steps(api, m, n, sm, sn, sk, used, bm, bn, bk, aBytes() * 2 <= p.l0ASize ? 2 : 1,
                              bBytes() * 2 <= p.l0BSize ? 2 : 1, cBytes() * 2 <= p.l0CSize ? 2 : 1, -1);
    }

    // The NBuffer33 steps: the core's A whole in L1 (stepM base rows, stepKa base K columns), B a column of
    // stepKb base blocks (stepN 1), no L1 double buffer; A1 + B1 + bias within L1, else refused. order -1: the
    // order Fill's rule gives.
    int64_t NBuffer33Steps(const char* api, int32_t m, int32_t n, int32_t sm, int32_t sn, int32_t sk, int32_t used,
                           int32_t bm, int32_t bn, int32_t bk, int32_t dbA, int32_t dbB, int32_t dbC, int32_t order)
    {
        using namespace twin_host;
        const int32_t l1 = bufferPool_.l1Size;
        const int32_t stepM = Ceil(sm, bm), stepK = Ceil(sk, bk);
        const int32_t bias = isBias ? bn * DTYPE_BIT_TAB.at(biasType_.dataType) / BITS_PER_BYTE : 0;
        const int64_t l1Used = Bytes(int64_t(bm) * bk * stepK * stepM, aType_.dataType) +
                               Bytes(int64_t(bn) * bk * stepK, bType_.dataType) + bias;
        if (l1Used > l1) {
            const std::string why = "ScheduleType::N_BUFFER_33: A1 (" + std::to_string(stepM) + " x " +
                                    std::to_string(stepK) + " base blocks) + B1 + bias = " + std::to_string(l1Used) +
                                    " bytes fit in L1 (" + std::to_string(l1) + ")";
            return Refuse(api, why.c_str());
        }
        int32_t depthB1 = stepK;
        if (bType_.dataType == DataType::DT_FLOAT && socVersion == platform_ascendc::SocVersion::ASCEND910B) {
            // A float32 B whose blocks, K aligned to 16, overflow L1 with A1: fewer B1 blocks (at least 1).
            const int32_t kN = Align(bk, C0_SIZE) * bn;
            if ((int64_t(stepK) * stepM * bk * bm + int64_t(kN) * depthB1) * FP32_BYTES > l1) {
                depthB1 = std::max(1, bn * bk * depthB1 / kN);
            }
        }
        Fill(m, n, sm, sn, sk, used, bm, bn, bk, stepK, 1, dbA, dbB, l1Used);
        tiling_.set_stepM(stepM);
        tiling_.set_depthA1(stepK * stepM);
        tiling_.set_depthB1(depthB1);
        tiling_.set_dbL0C(dbC);
        if (traverse_ == MatrixTraverse::NOSET && order != -1) tiling_.set_iterateOrder(order);
        return 0;
    }

    static int32_t Clamp(int32_t v, int32_t lo, int32_t hi) { return std::max(std::min(v, hi), std::min(lo, hi)); }

    void Defaults()
    {
        aType_.isDB = bType_.isDB = cType_.isDB = biasType_.isDB = true;
        singleM = singleN = singleK = -1;
        singleCoreM = singleCoreN = singleCoreK = -1;
        orgM = orgN = orgKa = orgKb = -1;
        baseM = baseN = baseK = -1;
        adjust_ = MnmAdjust{0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF, C0_SIZE, C0_SIZE, C0_SIZE};
        traverse_ = MatrixTraverse::NOSET;
        bufferPool_ = oriBufferPool_;
        blockDim = 1;
    }

    static int32_t SetType(MatTilingType& t, TPosition pos, CubeFormat type, DataType dataType, bool isTrans)
    {
        t.pos = pos;
        t.type = type;
        t.dataType = dataType;
        t.isTrans = isTrans;
        return 0;
    }

    static int32_t SetScale(MatTilingType& t, TPosition pos, CubeFormat type, bool isTrans)
    {
        t.hasSetScaleType = true;
        t.scalePos = pos;
        t.scaleType = type;
        t.isScaleTrans = isTrans;
        return 0;
    }

    void Fill(int32_t m, int32_t n, int32_t sm, int32_t sn, int32_t sk, int32_t used, int32_t bm, int32_t bn,
              int32_t bk, int32_t stepK, int32_t db, int32_t dbA, int32_t dbB, int64_t l1Used)
    {
        AscendC::tiling::TCubeTiling t{};
        t.usedCoreNum = used;
        t.M = orgM > 0 ? orgM : m;
        t.N = orgN > 0 ? orgN : n;
        t.Ka = orgKa > 0 ? orgKa : sk;
        t.Kb = orgKb > 0 ? orgKb : sk;
        t.singleCoreM = sm;
        t.singleCoreN = sn;
        t.singleCoreK = sk;
        t.baseM = bm;
        t.baseN = bn;
        t.baseK = bk;
        t.stepM = t.stepN = 1;
        t.stepKa = t.stepKb = stepK;
        t.depthA1 = t.depthB1 = stepK * db;
        t.isBias = isBias ? 1 : 0;
        t.transLength = 0;
        if (traverse_ != MatrixTraverse::NOSET) {
            t.iterateOrder = static_cast<int32_t>(traverse_) - 1;
        } else {  // CANN's GetIteratorOrder
            const bool fullA = int64_t(stepK) * bk >= sk, fullB = fullA;
            const int32_t mLoop = twin_host::Ceil(sm, bm), nLoop = twin_host::Ceil(sn, bn);
            const int64_t aLoad = sm + int64_t(sn) * mLoop, bLoad = sn + int64_t(sm) * nLoop;
            t.iterateOrder = !fullA && !fullB ? 0 : (fullA && !fullB) ? 1 : (!fullA && fullB) ? 0 : aLoad < bLoad;
        }
        // OUTER_PRODUCT computes two base blocks an iteration: when two do not fit in L0C, half the base block
        // along the order's inner axis, twice the step (CANN's AdjustOuterProductL0Factor).
        if (scheduleType == ScheduleType::OUTER_PRODUCT &&
            int64_t(bm) * bn * 2 * FP32_BYTES > bufferPool_.l0CSize) {
            if (t.iterateOrder == 0) {
                t.baseN = twin_host::Align(bn / 2, C0_SIZE);
                t.stepN *= 2;
            } else {
                t.baseM = twin_host::Align(bm / 2, C0_SIZE);
                t.stepM *= 2;
            }
            t.depthA1 = t.stepM * t.stepKa * db;
            t.depthB1 = t.stepN * t.stepKb * db;
        }
        t.shareMode = 0;
        t.shareL1Size = static_cast<int32_t>(l1Used);
        t.shareL0CSize = t.baseM * t.baseN * FP32_BYTES;
        t.shareUbSize = 0;
        t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
        t.depthAL1CacheUB = t.depthBL1CacheUB = 0;
        t.dbL0A = dbA;
        t.dbL0B = dbB;
        t.dbL0C = 1;
        t.ALayoutInfoB = aLayoutInfoB, t.ALayoutInfoS = aLayoutInfoS, t.ALayoutInfoN = aLayoutInfoN;
        t.ALayoutInfoG = aLayoutInfoG, t.ALayoutInfoD = aLayoutInfoD;
        t.BLayoutInfoB = bLayoutInfoB, t.BLayoutInfoS = bLayoutInfoS, t.BLayoutInfoN = bLayoutInfoN;
        t.BLayoutInfoG = bLayoutInfoG, t.BLayoutInfoD = bLayoutInfoD;
        t.CLayoutInfoB = cLayoutInfoB, t.CLayoutInfoS1 = cLayoutInfoS1, t.CLayoutInfoN = cLayoutInfoN;
        t.CLayoutInfoG = cLayoutInfoG, t.CLayoutInfoS2 = cLayoutInfoS2;
        t.BatchNum = batchNum;
        t.mxTypePara = 0;
        optiling::twin_host::Store(t, tiling_);
    }
};

// One core (asc-devkit include/adv_api/matmul/matmul_tiling.h).
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    MatmulApiTiling() {}
    explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
        : MatmulApiTilingBase(ascendcPlatform) {}
    explicit MatmulApiTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
    ~MatmulApiTiling() override = default;
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return ComputeInto(tiling); }
    int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override { return ComputeInto(tiling); }

protected:
    int64_t Compute() override { return Solve("MatmulApiTiling::GetTiling", 1); }
};

// Several cores (asc-devkit include/adv_api/matmul/bmm_tiling.h).
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    MultiCoreMatmulTiling() {}
    explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
        : MatmulApiTilingBase(ascendcPlatform) {}
    explicit MultiCoreMatmulTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
    int32_t SetDim(int32_t dim)
    {
        blockDim = dim;
        return 0;
    }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) override
    {
        singleM = m;
        singleN = n;
        singleK = k;
        if (orgM == -1 && orgN == -1 && orgKa == -1 && orgKb == -1) {
            orgM = m != -1 ? m : orgM;
            orgN = n != -1 ? n : orgN;
            orgKa = k != -1 ? k : orgKa;
            orgKb = k != -1 ? k : orgKb;
        }
        return 0;
    }
    virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1)
    {
        if (singleMIn > 0) singleCoreM = singleMIn;
        if (singleNIn > 0) singleCoreN = singleNIn;
        if (singleKIn > 0) singleCoreK = singleKIn;
        return 0;
    }
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return ComputeInto(tiling); }
    int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override { return ComputeInto(tiling); }
    int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK)
    {
        shapeM = tiling_.get_singleCoreM();
        shapeN = tiling_.get_singleCoreN();
        shapeK = tiling_.get_singleCoreK();
        return 0;
    }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim)
    {
        dim = tiling_.get_usedCoreNum();
        const int32_t sm = tiling_.get_singleCoreM(), sn = tiling_.get_singleCoreN();
        mDim = sm > 0 ? twin_host::Ceil(singleM, sm) : 0;
        nDim = sn > 0 ? twin_host::Ceil(singleN, sn) : 0;
        return 0;
    }
    void EnableMultiCoreSplitK(bool flag) { enableSplitK_ = flag; }
    void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }

protected:
    int64_t Compute() override { return Solve("MultiCoreMatmulTiling::GetTiling", blockDim); }
};

// Batch Matmul (asc-devkit include/adv_api/matmul/bmm_tiling.h BatchMatmulTiling): the tiling of one matrix of the
// batch (SetShape/SetOrgShape's M, N, K; the batch and layout fields from SetBatchInfoForNormal / SetALayout ... /
// SetBatchNum). The twin's split puts each matrix on one core (usedCoreNum 1); CANN's own search may choose
// otherwise for the same calls.
class BatchMatmulTiling : public MatmulApiTilingBase {
public:
    BatchMatmulTiling() {}
    explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
        : MatmulApiTilingBase(ascendcPlatform) {}
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim, int32_t& batchCoreM, int32_t& batchCoreN)
    {
        dim = tiling_.get_usedCoreNum();
        mDim = nDim = batchCoreM = batchCoreN = 1;
        return 0;
    }
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return ComputeInto(tiling); }
    int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override { return ComputeInto(tiling); }

protected:
    int64_t Compute() override { return Solve("BatchMatmulTiling::GetTiling", 1); }
};

}  // namespace matmul_tiling

// CumSum of the advanced math library (高阶API/数学计算/CumSum): prefix sums of a 2-D tensor of `outter` rows of
// `inner` elements, along the last axis (isLastAxis: within each row) or the first (down each column). Kernels
// include it as "lib/math/cumsum.h" (asc-devkit include/adv_api/math/cumsum.h, CumSumConfig/CumSumInfo/
// CumSumAlgorithm from cumsum_utils.h); A2's kernel_operator.h includes it.
//
// Forms (A2): CumSum<T, const CumSumConfig& config = defaultCumSumConfig>(dst, lastRow, src, sharedTmpBuffer,
// cumSumInfo) and (dst, lastRow, src, cumSumInfo) (the framework's buffer); dst, lastRow and sharedTmpBuffer are
// non-const references, as declared. defaultCumSumConfig is {isLastAxis true, isReuseSource false,
// outputLastRow true} as A2's header defines it (the struct's own default for outputLastRow is false).
//
// Numerics as A2's line-by-line algorithm (impl/adv_api/detail/math/cumsum/cumsum_common_impl.h) computes them:
// one float Add per step, so each output is the float sum of the previous output and the next input, rounded to
// float (half: the inputs cast to float, the running sums kept in float, each output cast back once). With
// outputLastRow, lastRow = the last row of dst. One V instruction reading src, writing the temporary buffer's used
// part (NaN bytes afterwards), dst and lastRow, counted as VecOp::kCumSum (outter * inner element-ops); the mask
// is left normal and full.
//
// Rules (each error names it): T half/float and config.algorithm line-by-line (compile time: CUMSUM_ALGORITHM_SKLANSKY
// is Ascend 950 only, docs); operands at VECIN/VECCALC/VECOUT, 32-byte aligned; outter > 0 and inner > 0;
// inner * sizeof(T) a multiple of 32 bytes; outter * inner within src and dst; with outputLastRow, inner within
// lastRow (A2's checks and the docs); sharedTmpBuffer holds what A2's implementation asserts (last axis: 16 rows
// of two transposes, 16 * inner * sizeof(T) * 2, plus 16 * inner * 2 for half; first axis: half outter * inner * 4,
// float 0; the framework form: the UB after the TPipe's buffers) and, where it is written, overlaps neither src
// nor dst (the twin's rule: A2 reads src while it writes the buffer).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "twin/kernel_adv_math.h"

namespace AscendC {

enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };

struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};

struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};  // 32-byte aligned
};

constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

namespace twin_detail {

// Checks the rules above and returns the temporary bytes A2's implementation writes.
uint64_t CheckCumSum(uint32_t typeSize, bool isLastAxis, bool outputLastRow, const CumSumInfo& info,
                     const MathOperand& dst, const MathOperand& lastRow, const MathOperand& src, const MathOperand& tmp,
                     bool framework);

void EvalCumSum(uint32_t typeSize, bool isLastAxis, bool outputLastRow, const CumSumInfo& info, void* dst,
                void* lastRow, const void* src);

template <typename T, const CumSumConfig& config>
inline void CumSumRun(LocalTensor<T>& dst, LocalTensor<T>& lastRow, const LocalTensor<T>& src,
                      const LocalTensor<uint8_t>* sharedTmpBuffer, const CumSumInfo& info)
{
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "CumSum on A2 supports half and float");
    static_assert(config.algorithm == CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE,
                  "CumSum on A2: CumSumConfig::algorithm CUMSUM_ALGORITHM_SKLANSKY is Ascend 950 only (docs)");
    uint8_t* tmp = nullptr;
    uint64_t tmpBytes = 0;
    TPosition tmpPos = TPosition::VECCALC;
    const bool framework = sharedTmpBuffer == nullptr;
    if (framework) {
        TPipe* pipe = GetTPipePtr();
        tmp = AdvFrameworkTmp("CumSum", pipe, pipe == nullptr ? 0 : twin_detail::TwinUbEnd(*pipe), tmpBytes);
    } else {
        tmp = twin_detail::TwinData(*sharedTmpBuffer);
        tmpBytes = sharedTmpBuffer->GetSize();
        tmpPos = twin_detail::TwinPosition(*sharedTmpBuffer);
    }
    const auto op = [](const LocalTensor<T>& t) {
        return MathOperand{twin_detail::TwinData(t), static_cast<uint64_t>(t.GetSize()) * sizeof(T), twin_detail::TwinPosition(t)};
    };
    const uint64_t used = CheckCumSum(sizeof(T), config.isLastAxis, config.outputLastRow, info, op(dst), op(lastRow),
                                      op(src), MathOperand{tmp, tmpBytes, tmpPos}, framework);
    const uint64_t elems = static_cast<uint64_t>(info.outter) * info.inner;
    {
        ascend_twin::Instr instr("CumSum", ascend_twin::Pipe::kV);
        instr.Read("srcTensor", twin_detail::TwinData(src), elems * sizeof(T));
        if (used != 0) instr.Write("sharedTmpBuffer", tmp, used);
        instr.Write("dstTensor", twin_detail::TwinData(dst), elems * sizeof(T));
        if (config.outputLastRow) {
            instr.Write("lastRowTensor", twin_detail::TwinData(lastRow), static_cast<uint64_t>(info.inner) * sizeof(T));
        }
    }
    EvalCumSum(sizeof(T), config.isLastAxis, config.outputLastRow, info, twin_detail::TwinData(dst),
               twin_detail::TwinData(lastRow), twin_detail::TwinData(src));
    if (used != 0) std::memset(tmp, 0xff, used);
    SetMaskNorm();
    ResetMask();
    ascend_twin::CountVec(ascend_twin::VecOp::kCumSum, elems, ascend_twin::CountFormRepeats(elems, sizeof(T)));
}

}  // namespace twin_detail

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo)
{
    twin_detail::CumSumRun<T, config>(dstTensor, lastRowTensor, srcTensor, &sharedTmpBuffer, cumSumInfo);
}

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              const CumSumInfo& cumSumInfo)
{
    twin_detail::CumSumRun<T, config>(dstTensor, lastRowTensor, srcTensor, nullptr, cumSumInfo);
}

}  // namespace AscendC

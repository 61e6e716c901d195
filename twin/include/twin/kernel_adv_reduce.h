// The reductions over a pattern of the advanced API (高阶API/归约操作): ReduceSum, ReduceMax, ReduceMin, ReduceProd,
// ReduceMean, ReduceAny, ReduceAll, each `template <class T, class pattern, bool isReuseSource = false>` in two forms,
// (dst, src, sharedTmpBuffer, srcShape[], srcInnerPad) and (dst, src, srcShape[], srcInnerPad) (the framework's
// buffer: the UB after the TPipe's buffers, as A2's PopStackBuffer), and the patterns of AscendC::Pattern::Reduce.
// Kernels include them as "lib/reduce/reduce.h" (asc-devkit include/adv_api/reduce/reduce.h, reduce_common.h). The
// basic API's ReduceSum/ReduceMax/ReduceMin (count and mask forms) keep their meaning: those take no pattern.
// Checked against the headers, the A2 implementations (impl/adv_api/detail/reduce/reduce_*/reduce_*_v220_impl.h,
// reduce_common_util_v220_impl.h), their API checks (impl/adv_api/detail/api_check/kernel_check/reduce/) and the docs.
//
// A2 supports the patterns AR and RA (static_assert, as A2's): srcShape = {first, last}, the rows `last` long and
// padded in UB to a 32-byte block (padLast); AR reduces each row (dst[i], i < first), RA each column (dst[j], j <
// last). Dtypes on A2 (static_assert): ReduceSum and ReduceProd float; ReduceMax, ReduceMin, ReduceMean half and
// float; ReduceAny, ReduceAll float and uint8_t (inputs 0 or 1: "源操作数srcTensor的输入数据只能为0或1"). The twin
// reduces in double and rounds once (A2 folds pairwise in T: a float sum may differ in the last bits; ReduceMean
// of half sums in half and multiplies by 1/n, within half's precision of the mean); Any/All are the max/min of the
// 0/1 inputs, as A2 computes them. With isReuseSource A2 uses src as its scratch space: src is left undefined
// (NaN bytes) after the call. The call is one V instruction reading the data columns of src, writing the temporary
// buffer's part A2 uses (left as NaN bytes) and dst, counted as its own VecOp (first * last element-ops); it leaves
// the mask normal and full, as A2.
//
// Run-time rules (the error names each): operands at VECIN/VECCALC/VECOUT, 32-byte aligned; srcShape[0] > 0 and
// srcShape[1] > 0; srcInnerPad true (A2's check: A2 reads rows padLast apart); src holds first * padLast elements,
// dst first (AR) or last (RA); sharedTmpBuffer holds GetReduceXxxMaxMinTmpSize's size (twin/reduce_tmp_size.h; the
// framework form: the UB after the TPipe's buffers, up to its last 128 bytes); dst, src and sharedTmpBuffer do not
// overlap (docs: 不支持源操作数与目的操作数地址重叠, 不支持sharedTmpBuffer与源操作数和目的操作数地址重叠).
#pragma once

#include <cstdint>
#include <type_traits>

#include "twin/kernel_adv_math.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_tpipe.h"
#include "twin/kernel_vec_repeat.h"
#include "twin/reduce_tmp_size.h"

namespace AscendC {

namespace Pattern {
namespace Reduce {
// The patterns as declared (A2's reductions take AR and RA only).
struct R {};
struct RA {};
struct AR {};
struct ARA {};
struct ARAR {};
struct ARARA {};
struct ARARAR {};
struct ARARARA {};
struct ARARARAR {};
struct ARARARARA {};
struct RAR {};
struct RARA {};
struct RARAR {};
struct RARARA {};
struct RARARAR {};
struct RARARARA {};
}  // namespace Reduce
}  // namespace Pattern

namespace twin_detail {

struct ReduceCall {
    ascend_twin::ReduceFn fn;
    uint32_t typeSize;
    bool isFloat;  // float/half data (else uint8_t)
    bool isAR;
    bool isReuseSource;
    bool framework;
    uint32_t first, last;
    bool srcInnerPad;
    MathOperand dst, src, tmp;
};

// Checks the rules above, records the instruction and computes dst.
void ReduceRun(const ReduceCall& call);

template <ascend_twin::ReduceFn fn, class T, class pattern, bool isReuseSource>
inline void ReducePatternRun(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                             const LocalTensor<uint8_t>* sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad)
{
    using ascend_twin::ReduceFn;
    static_assert(std::is_same_v<pattern, Pattern::Reduce::AR> || std::is_same_v<pattern, Pattern::Reduce::RA>,
                  "failed to check the reduce pattern, it only supports AR/RA pattern!");
    static_assert(fn != ReduceFn::kSum || std::is_same_v<T, float>, "ReduceSum on A2 supports float");
    static_assert(fn != ReduceFn::kProd || std::is_same_v<T, float>, "ReduceProd on A2 supports float");
    static_assert(fn != ReduceFn::kMax || std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "ReduceMax on A2 supports half and float");
    static_assert(fn != ReduceFn::kMin || std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "ReduceMin on A2 supports half and float");
    static_assert(fn != ReduceFn::kMean || std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "ReduceMean on A2 supports half and float");
    static_assert(fn != ReduceFn::kAny || std::is_same_v<T, float> || std::is_same_v<T, uint8_t>,
                  "ReduceAny on A2 supports float and uint8_t");
    static_assert(fn != ReduceFn::kAll || std::is_same_v<T, float> || std::is_same_v<T, uint8_t>,
                  "ReduceAll on A2 supports float and uint8_t");
    const auto op = [](const auto& t, uint32_t elemBytes) {
        return MathOperand{TwinData(t), static_cast<uint64_t>(t.GetSize()) * elemBytes, TwinPosition(t)};
    };
    ReduceCall c{fn, static_cast<uint32_t>(sizeof(T)), !std::is_same_v<T, uint8_t>,
                 std::is_same_v<pattern, Pattern::Reduce::AR>, isReuseSource, sharedTmpBuffer == nullptr,
                 srcShape[0], srcShape[1], srcInnerPad, op(dst, sizeof(T)), op(src, sizeof(T)),
                 MathOperand{nullptr, 0, TPosition::VECCALC}};
    if (sharedTmpBuffer != nullptr) {
        c.tmp = op(*sharedTmpBuffer, 1);
    } else {
        TPipe* pipe = GetTPipePtr();
        uint64_t bytes = 0;
        uint8_t* p = AdvFrameworkTmp(ascend_twin::ReduceFnName(fn), pipe, pipe == nullptr ? 0 : TwinUbEnd(*pipe), bytes);
        c.tmp = MathOperand{p, bytes, TPosition::VECCALC};
    }
    ReduceRun(c);
}

}  // namespace twin_detail

#define ASCEND_TWIN_REDUCE_PATTERN_FORMS(Name, Fn)                                                                  \
    template <class T, class pattern, bool isReuseSource = false>                                                  \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                   \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],             \
                                bool srcInnerPad)                                                                   \
    {                                                                                                               \
        twin_detail::ReducePatternRun<ascend_twin::ReduceFn::Fn, T, pattern, isReuseSource>(                       \
            dstTensor, srcTensor, &sharedTmpBuffer, srcShape, srcInnerPad);                                         \
    }                                                                                                               \
    template <class T, class pattern, bool isReuseSource = false>                                                  \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                   \
                                const uint32_t srcShape[], bool srcInnerPad)                                        \
    {                                                                                                               \
        twin_detail::ReducePatternRun<ascend_twin::ReduceFn::Fn, T, pattern, isReuseSource>(                       \
            dstTensor, srcTensor, nullptr, srcShape, srcInnerPad);                                                  \
    }

ASCEND_TWIN_REDUCE_PATTERN_FORMS(ReduceSum, kSum)
ASCEND_TWIN_REDUCE_PATTERN_FORMS(ReduceMax, kMax)
ASCEND_TWIN_REDUCE_PATTERN_FORMS(ReduceMin, kMin)
ASCEND_TWIN_REDUCE_PATTERN_FORMS(ReduceProd, kProd)
ASCEND_TWIN_REDUCE_PATTERN_FORMS(ReduceMean, kMean)
ASCEND_TWIN_REDUCE_PATTERN_FORMS(ReduceAny, kAny)
ASCEND_TWIN_REDUCE_PATTERN_FORMS(ReduceAll, kAll)

#undef ASCEND_TWIN_REDUCE_PATTERN_FORMS

}  // namespace AscendC

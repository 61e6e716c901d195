// The operator forms of LocalTensor (impl/basic_api/kernel_operator_symbol_override_impl.h): `dst = a + b`
// runs Add(dst, a, b, dst.GetSize()), likewise -, *, /, | and &, and `dst = a < b` (>, !=, ==, <=, >=) runs
// Compare(dst, a, b, mode, a.GetSize()). Each is the instruction itself, with its dtype table and rules.
#pragma once

#include <type_traits>

#include "twin/kernel_cmpsel.h"
#include "twin/kernel_tensor.h"
#include "twin/kernel_vec.h"
#include "twin/kernel_vec_more.h"

namespace AscendC {

#define ASCEND_TWIN_SYMBOL_OVERRIDE(NAME, CALL)                                                 \
    template <typename T>                                                                       \
    class NAME {                                                                                \
    public:                                                                                     \
        __aicore__ inline NAME(const LocalTensor<T>& src0, const LocalTensor<T>& src1)          \
            : src0_(src0), src1_(src1)                                                          \
        {                                                                                       \
        }                                                                                       \
        __aicore__ inline void Process(const LocalTensor<T>& dst) const { CALL; }               \
                                                                                                \
    private:                                                                                    \
        const LocalTensor<T>& src0_;                                                            \
        const LocalTensor<T>& src1_;                                                            \
    };

ASCEND_TWIN_SYMBOL_OVERRIDE(SymbolOverrideAdd, Add(dst, src0_, src1_, static_cast<int32_t>(dst.GetSize())))
ASCEND_TWIN_SYMBOL_OVERRIDE(SymbolOverrideSub, Sub(dst, src0_, src1_, static_cast<int32_t>(dst.GetSize())))
ASCEND_TWIN_SYMBOL_OVERRIDE(SymbolOverrideMul, Mul(dst, src0_, src1_, static_cast<int32_t>(dst.GetSize())))
ASCEND_TWIN_SYMBOL_OVERRIDE(SymbolOverrideDiv, Div(dst, src0_, src1_, static_cast<int32_t>(dst.GetSize())))
// And/Or count int16_t elements: a 32-bit tensor is twice as many (as the real operator passes).
ASCEND_TWIN_SYMBOL_OVERRIDE(SymbolOverrideAnd,
                            And(dst, src0_, src1_, static_cast<int32_t>(dst.GetSize() * (sizeof(T) == 4 ? 2 : 1))))
ASCEND_TWIN_SYMBOL_OVERRIDE(SymbolOverrideOr,
                            Or(dst, src0_, src1_, static_cast<int32_t>(dst.GetSize() * (sizeof(T) == 4 ? 2 : 1))))
#undef ASCEND_TWIN_SYMBOL_OVERRIDE

template <typename T>
class SymbolOverrideCompare {
public:
    __aicore__ inline SymbolOverrideCompare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode)
        : src0_(src0), src1_(src1), cmpMode_(cmpMode)
    {
    }
    template <typename U>
    __aicore__ inline void Process(const LocalTensor<U>& dst) const
    {
        Compare(dst, src0_, src1_, cmpMode_, src0_.GetSize());
    }

private:
    const LocalTensor<T> src0_;
    const LocalTensor<T> src1_;
    CMPMODE cmpMode_;
};

#define ASCEND_TWIN_TENSOR_OPERATOR(OP, NAME)                                                         \
    template <typename T>                                                                             \
    __aicore__ inline NAME<T> LocalTensor<T>::operator OP(const LocalTensor<T>& src1) const           \
    {                                                                                                 \
        return NAME<T>(*this, src1);                                                                  \
    }                                                                                                 \
    template <typename T>                                                                             \
    __aicore__ inline void LocalTensor<T>::operator=(const NAME<T>& symbolOverride)                   \
    {                                                                                                 \
        symbolOverride.Process(*this);                                                                \
    }
ASCEND_TWIN_TENSOR_OPERATOR(+, SymbolOverrideAdd)
ASCEND_TWIN_TENSOR_OPERATOR(-, SymbolOverrideSub)
ASCEND_TWIN_TENSOR_OPERATOR(*, SymbolOverrideMul)
ASCEND_TWIN_TENSOR_OPERATOR(/, SymbolOverrideDiv)
ASCEND_TWIN_TENSOR_OPERATOR(|, SymbolOverrideOr)
ASCEND_TWIN_TENSOR_OPERATOR(&, SymbolOverrideAnd)
#undef ASCEND_TWIN_TENSOR_OPERATOR

#define ASCEND_TWIN_TENSOR_COMPARE(OP, MODE)                                                          \
    template <typename T>                                                                             \
    __aicore__ inline SymbolOverrideCompare<T> LocalTensor<T>::operator OP(const LocalTensor<T>& src1) const \
    {                                                                                                 \
        return SymbolOverrideCompare<T>(*this, src1, CMPMODE::MODE);                                  \
    }
ASCEND_TWIN_TENSOR_COMPARE(<, LT)
ASCEND_TWIN_TENSOR_COMPARE(>, GT)
ASCEND_TWIN_TENSOR_COMPARE(!=, NE)
ASCEND_TWIN_TENSOR_COMPARE(==, EQ)
ASCEND_TWIN_TENSOR_COMPARE(<=, LE)
ASCEND_TWIN_TENSOR_COMPARE(>=, GE)
#undef ASCEND_TWIN_TENSOR_COMPARE

template <typename T>
__aicore__ inline void LocalTensor<T>::operator=(const SymbolOverrideCompare<float>& symbolOverride)
{
    symbolOverride.Process(*this);
}
template <typename T>
__aicore__ inline void LocalTensor<T>::operator=(const SymbolOverrideCompare<half>& symbolOverride)
{
    symbolOverride.Process(*this);
}

}  // namespace AscendC

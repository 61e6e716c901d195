// int8_t Matmul and the (de)quantisation calls (CMakeLists.txt compiles this file once per FAULT line, and once with
// FAULT=0, which must compile: int8_t A and B with int32_t or half C and an int32_t bias, SetQuantScalar and the
// GlobalTensor SetQuantVector of the half-C object; int4b_t A and B with int32_t C and bias).
// FAULT 1: Matmul on A2 with int8_t or int4b_t A and B: C is int32_t or half \(C int8_t, REQ8, is not modelled
// FAULT 2: Matmul on A2 with int8_t or int4b_t A and B: the bias is int32_t
// FAULT 11: Matmul on A2 with int8_t or int4b_t A and B: the bias is int32_t
// FAULT 3: Matmul on A2: A and B are both float, half, bfloat16_t, int8_t or int4b_t
// FAULT 9: Matmul on A2 with int4b_t A and B: the twin models C int32_t \(C half, the dequantisation, is not modelled\)
// FAULT 10: Matmul on A2: A and B are both float, half, bfloat16_t, int8_t or int4b_t
// FAULT 4: Matmul::SetQuantScalar/SetQuantVector: on A2 for int8_t A and B with half or int8_t C
// FAULT 5: Matmul::SetQuantScalar/SetQuantVector: on A2 for int8_t A and B with half or int8_t C
// FAULT 6: Matmul::SetQuantVector takes a GlobalTensor<uint64_t>
// FAULT 7: Matmul::SetQuantVector with the parameters in L1 \(LocalTensor\) is not modelled by the twin
// FAULT 8: Matmul::SetBias with int8_t or int4b_t A and B: the bias is int32_t
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename A, typename B, typename C, typename Bias>
using Mm = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, A>, MatmulType<TPosition::GM, CubeFormat::ND, B>,
                  MatmulType<TPosition::GM, CubeFormat::ND, C>, MatmulType<TPosition::GM, CubeFormat::ND, Bias>>;

void Instantiate(GlobalTensor<half>& c, GlobalTensor<int32_t>& ci, GlobalTensor<uint64_t>& q,
                 GlobalTensor<int32_t>& bias, GlobalTensor<float>& cf)
{
#if FAULT == 0
    Mm<int8_t, int8_t, half, int32_t> dequant;
    dequant.SetQuantScalar(0);
    dequant.SetQuantVector(q);
    dequant.SetBias(bias);
    dequant.IterateAll(c);
    Mm<int8_t, int8_t, int32_t, int32_t> exact;
    exact.SetBias(bias);
    exact.IterateAll(ci);
    Mm<int4b_t, int4b_t, int32_t, int32_t> int4;
    GlobalTensor<int4b_t> a4;
    int4.SetTensorA(a4);
    int4.SetTensorB(a4);
    int4.SetBias(bias);
    int4.IterateAll(ci);
#elif FAULT == 1
    Mm<int8_t, int8_t, int8_t, int32_t> requant;
#elif FAULT == 2
    Mm<int8_t, int8_t, int32_t, float> floatBias;
#elif FAULT == 3
    Mm<int8_t, half, half, int32_t> mixed;
#elif FAULT == 4
    Mm<half, half, float, float> floating;
    floating.SetQuantScalar(0);  // float C: no quantisation scenario
    floating.IterateAll(cf);
#elif FAULT == 5
    Mm<int8_t, int8_t, int32_t, int32_t> exact;
    exact.SetQuantVector(q);  // int32_t C leaves L0C as it is
#elif FAULT == 6
    Mm<int8_t, int8_t, half, int32_t> dequant;
    dequant.SetQuantVector(ci);
#elif FAULT == 7
    Mm<int8_t, int8_t, half, int32_t> dequant;
    LocalTensor<uint64_t> l1;
    dequant.SetQuantVector(l1);
#elif FAULT == 9
    Mm<int4b_t, int4b_t, half, int32_t> int4;
#elif FAULT == 10
    Mm<int4b_t, int8_t, int32_t, int32_t> mixed;
#elif FAULT == 11
    Mm<int4b_t, int4b_t, int32_t, half> int4HalfBias;
#elif FAULT == 8
    Mm<int8_t, int8_t, half, half> halfBias;
    GlobalTensor<half> hb;
    halfBias.SetBias(hb);
#endif
    (void)c; (void)ci; (void)q; (void)bias; (void)cf;
}

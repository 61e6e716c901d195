// A cube-only Matmul object with C at CO1 and GetMmDstType: the compile-time rules (CMakeLists.txt compiles this
// file once per FAULT line, and once with FAULT=0, which must compile: A2's GetMmDstType table and the CO1 object's
// Iterate(enPartialSum, LocalTensor)).
// FAULT 1: Matmul with C at CO1: C_TYPE's format is CubeFormat::NZ
// FAULT 2: Matmul with C at CO1: C_TYPE's type is GetMmDstType<A's type>::Type
// FAULT 3: Matmul with C at CO1: the blocks are taken with Iterate\(enPartialSum, LocalTensor\)
// FAULT 4: Matmul::Iterate\(enPartialSum, LocalTensor\): the tensor's type is the L0C type
// FAULT 5 error: GetMmDstType<double>[^ ]* does not name a type
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

static_assert(std::is_same_v<GetMmDstType<half>::Type, float> && std::is_same_v<GetMmDstType<float>::Type, float> &&
              std::is_same_v<GetMmDstType<bfloat16_t>::Type, float> &&
              std::is_same_v<GetMmDstType<int8_t>::Type, int32_t> &&
              std::is_same_v<GetMmDstType<int4b_t>::Type, int32_t>);

using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using Bias = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using Co1 = MatmulType<TPosition::CO1, CubeFormat::NZ, float>;

void Instantiate(GlobalTensor<float>& c, LocalTensor<float>& l0c, LocalTensor<half>& l0cHalf)
{
    Matmul<A, A, Co1, Bias> mm;
#if FAULT == 0
    while (mm.Iterate(false, l0c)) {
    }
    (void)mm.Iterate(true, l0c);
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, bfloat16_t>, MatmulType<TPosition::GM, CubeFormat::ND, bfloat16_t>,
           Co1, Bias>
        bf16;
    // C elsewhere: the tensor is not used (Iterate(enPartialSum)).
    Matmul<A, A, MatmulType<TPosition::GM, CubeFormat::ND, float>, Bias> gm;
    (void)gm.Iterate(false, l0cHalf);
#elif FAULT == 1
    Matmul<A, A, MatmulType<TPosition::CO1, CubeFormat::ND, float>, Bias> nd;
#elif FAULT == 2
    Matmul<A, A, MatmulType<TPosition::CO1, CubeFormat::NZ, half>, Bias> halfC;
#elif FAULT == 3
    mm.IterateAll(c);
#elif FAULT == 4
    (void)mm.Iterate(false, l0cHalf);
#elif FAULT == 5
    using D = GetMmDstType<double>::Type;
#endif
}

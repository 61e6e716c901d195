// MatmulCallBackFunc, SetUserDefInfo and SetSelfDefineData (CMakeLists.txt compiles this file once per FAULT line, and
// once with FAULT=0, which must compile: CopyA1 and CopyB1 callbacks in a cube-only object, SetUserDefInfo and the
// uint64_t SetSelfDefineData).
// FAULT 1: MatmulCallBackFunc's DataCopyOut \(C's move out of L0C\) is not modelled by the twin
// FAULT 2: Matmul::SetSelfDefineData on A2: only SetSelfDefineData\(const uint64_t dataPtr\)
// FAULT 3: Matmul::SetUserDefInfo is not supported with MixDualMaster
// FAULT 4: Matmul::SetSelfDefineData is not supported with MixDualMaster
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

void CopyA1(const LocalTensor<int8_t>&, const __gm__ void*, int, int, int, int, const uint64_t, const uint64_t) {}
void CopyB1(const LocalTensor<int8_t>&, const __gm__ void*, int, int, int, int, const uint64_t, const uint64_t) {}
void CopyOut(const __gm__ void*, const LocalTensor<int8_t>&, const void*, const uint64_t, const uint64_t) {}

using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr MatmulConfig kDualMaster = [] {
    MatmulConfig c = CFG_NORM;
    c.enableMixDualMaster = true;
    return c;
}();
struct UserData {
    uint64_t addr;
};

void Instantiate()
{
#if FAULT == 0
    Matmul<H, H, F, F, CFG_NORM, MatmulCallBackFunc<nullptr, CopyA1, CopyB1>> mm;
    mm.SetUserDefInfo(1);
    mm.SetSelfDefineData(uint64_t{2});
    mm.SetSelfDefineData(3);
#elif FAULT == 1
    Matmul<H, H, F, F, CFG_NORM, MatmulCallBackFunc<CopyOut, CopyA1, nullptr>> mm;
#elif FAULT == 2
    Matmul<H, H, F, F, CFG_NORM, MatmulCallBackFunc<nullptr, CopyA1, nullptr>> mm;
    mm.SetSelfDefineData(UserData{0});
#elif FAULT == 3
    Matmul<H, H, F, F, kDualMaster, MatmulCallBackFunc<nullptr, CopyA1, nullptr>> mm;
    mm.SetUserDefInfo(1);
#elif FAULT == 4
    Matmul<H, H, F, F, kDualMaster, MatmulCallBackFunc<nullptr, CopyA1, nullptr>> mm;
    mm.SetSelfDefineData(uint64_t{1});
#endif
}

// A Matmul object with a constant tiling (MM_CFG a MatmulApiStaticTiling from GetMatmulApiTiling): the compile-time
// rules (CMakeLists.txt compiles this file once per FAULT line, and once with FAULT=0, which must compile: Norm and
// MDL constant tilings whose base tiles fit L0A/L0B/L0C, and GetMatmulApiTiling's values checked below).
// FAULT 1: a constant tiling \(MatmulApiStaticTiling\): baseM \* baseK \* sizeof\(A\) \(twice with dbL0A = dbL0B = 2\) fits in L0A
// FAULT 2: a constant tiling \(MatmulApiStaticTiling\): baseN \* baseK \* sizeof\(B\) \(twice with dbL0A = dbL0B = 2\) fits in L0B
// FAULT 3: a constant tiling \(MatmulApiStaticTiling\): baseM \* baseN of the float L0C \(twice with dbL0C = 2\) fits in L0C
// FAULT 4: GetMatmulApiTiling / a constant tiling: on A2 the Matmul templates with constant tilings are Norm and MDL
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using Bias = MatmulType<TPosition::GM, CubeFormat::ND, float>;

// Full constant tiling: single 256 x 1024 x 128, base 256 x 128 x 128 (one half base tile of A fills L0A: no
// double buffering of L0A; B's fits twice).
constexpr MatmulShapeParams kShape = {256, 1024, 128, 256, 128, 128};
constexpr MatmulApiStaticTiling kNorm = GetMatmulApiTiling<A, A, C, Bias>(GetMMConfig<MatmulConfigMode::CONFIG_NORM>(kShape));
static_assert(kNorm.M == 256 && kNorm.N == 1024 && kNorm.Ka == 128 && kNorm.Kb == 128 && kNorm.singleCoreM == 256 &&
              kNorm.singleCoreN == 1024 && kNorm.singleCoreK == 128);
static_assert(kNorm.baseM == 256 && kNorm.baseN == 128 && kNorm.baseK == 128 && kNorm.isBias == 1);
static_assert(kNorm.dbL0A == 1 && kNorm.dbL0B == 2 && kNorm.dbL0C == 1 && kNorm.shareMode == 0 && kNorm.usedCoreNum == -1);
// The L1 split: K whole (one base K step), double-buffered; A1 + B1 + bias within TOTAL_L1_SIZE.
static_assert(kNorm.stepM == 1 && kNorm.stepN == 1 && kNorm.stepKa == 1 && kNorm.stepKb == 1 && kNorm.depthA1 == 2 &&
              kNorm.depthB1 == 2);
static_assert(kNorm.shareL1Size == 2 * 256 * 128 * 2 + 2 * 128 * 128 * 2 + 128 * 4 && kNorm.shareL1Size <= TOTAL_L1_SIZE);
// Partial constant tiling (base only): the rest is -1, from the runtime TCubeTiling.
constexpr MatmulApiStaticTiling kPartial =
    GetMatmulApiTiling<A, A, C, Bias>(GetMMConfig<MatmulConfigMode::CONFIG_MDL>(MatmulShapeParams{0, 0, 0, 128, 256, 64}));
static_assert(kPartial.baseM == 128 && kPartial.baseN == 256 && kPartial.baseK == 64 && kPartial.dbL0A == 2 &&
              kPartial.dbL0B == 2 && kPartial.M == -1 && kPartial.singleCoreK == -1 && kPartial.depthA1 == -1);
// A long K: the largest step that fits L1 double-buffered (4 x 64 K columns of 128 x 64 and 256 x 64 halves, twice,
// is 384 KiB; 8 would be 768 KiB).
constexpr MatmulApiStaticTiling kLongK =
    GetMatmulApiTiling<A, A, C, Bias>(GetMMConfig<MatmulConfigMode::CONFIG_MDL>(MatmulShapeParams{128, 256, 4096, 128, 256, 64}));
static_assert(kLongK.stepKa == 4 && kLongK.depthA1 == 8 && kLongK.depthB1 == 8 && kLongK.iterateOrder == 0);

constexpr MatmulApiStaticTiling Edited(int32_t baseM, int32_t baseN, int32_t baseK, int32_t db)
{
    MatmulApiStaticTiling t = kNorm;
    t.baseM = baseM;
    t.baseN = baseN;
    t.baseK = baseK;
    t.dbL0A = t.dbL0B = t.dbL0C = db;
    return t;
}
constexpr MatmulApiStaticTiling kL0aTwice = Edited(128, 128, 128, 2);  // 2 x 32 KiB of A: fits
constexpr MatmulApiStaticTiling kL0a = Edited(256, 64, 128, 2);        // 2 x 64 KiB of A
constexpr MatmulApiStaticTiling kL0b = Edited(16, 512, 64, 1);         // 512 x 64 halves of B: 64 KiB, fits once
constexpr MatmulApiStaticTiling kL0bOver = Edited(16, 528, 64, 1);     // 66 KiB of B
constexpr MatmulApiStaticTiling kL0c = Edited(128, 256, 16, 2);        // 2 x 128 KiB of float C
constexpr MatmulApiStaticTiling kSpecial = [] {
    MatmulApiStaticTiling t = kNorm;
    t.cfg = GetSpecialMDLConfig();
    return t;
}();

void Instantiate()
{
#if FAULT == 0
    Matmul<A, A, C, Bias, kNorm> norm;
    Matmul<A, A, C, Bias, kPartial> partial;
    Matmul<A, A, C, Bias, kL0aTwice> l0aTwice;
    Matmul<A, A, C, Bias, kL0b> l0b;
#elif FAULT == 1
    Matmul<A, A, C, Bias, kL0a> mm;
#elif FAULT == 2
    Matmul<A, A, C, Bias, kL0bOver> mm;
#elif FAULT == 3
    Matmul<A, A, C, Bias, kL0c> mm;
#elif FAULT == 4
    Matmul<A, A, C, Bias, kSpecial> mm;
#endif
}

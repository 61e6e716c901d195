// The Matmul's enAtomic rules on the engine both Matmul forms share (ascend_twin::CubeMatmul, which the pure-Cube
// Matmul and the MIX kernel's AIC server drive): a mode 0..3, and an atomic write only of a C the atomic unit
// takes (float, half, bfloat16_t, int32_t; not the twin's float64 build). Each planted fault beside its clean counterpart.
// The accumulation itself is checked against float64 in tests/test_twin_mix_matmul.py.
#include <string>

#include "check.h"
#include "fault_launch.h"
#include "kernel_operator.h"
#include "twin/kernel_cube.h"

namespace {

ascend_twin::CubeMatmulTypes Types(ascend_twin::CubeType c)
{
    ascend_twin::CubeMatmulTypes t{};
    const bool f64 = c == ascend_twin::CubeType::kFloat64;
    t.a = t.b = f64 ? c : ascend_twin::CubeType::kFloat16;
    t.c = c;
    t.bias = f64 ? c : ascend_twin::CubeType::kFloat32;
    t.cubeOnly = true;
    return t;
}

template <ascend_twin::CubeType c, uint8_t mode>
void SetAtomicKernel(GM_ADDR, GM_ADDR)
{
    ascend_twin::CubeMatmul mm(Types(c));
    mm.SetAtomic("Matmul::IterateAll", mode);
}

using ascend_twin::CubeType;
using fault::Broke;

}  // namespace

TEST_CASE("enAtomic: modes 0 to 3 for float, half, bfloat16_t and int32_t C; 4 and a float64 C refused")
{
    const std::string modes = "Matmul::IterateAll: enAtomic is 0 (off), 1 (AtomicAdd), 2 (AtomicMax) or 3 (AtomicMin)";
    const std::string types = "Matmul::IterateAll: an atomic write of C takes float, half, bfloat16_t or int32_t (A2's atomic types)";
    CHECK(Broke(SetAtomicKernel<CubeType::kFloat32, 4>, modes));
    CHECK(Broke(SetAtomicKernel<CubeType::kFloat32, 255>, modes));
    CHECK(Broke(SetAtomicKernel<CubeType::kFloat32, 3>, ""));
    CHECK(Broke(SetAtomicKernel<CubeType::kFloat16, 2>, ""));
    CHECK(Broke(SetAtomicKernel<CubeType::kBFloat16, 1>, ""));
    CHECK(Broke(SetAtomicKernel<CubeType::kInt32, 1>, ""));
    CHECK(Broke(SetAtomicKernel<CubeType::kFloat64, 1>, types));
    CHECK(Broke(SetAtomicKernel<CubeType::kFloat64, 0>, ""));
}

TEST_MAIN()

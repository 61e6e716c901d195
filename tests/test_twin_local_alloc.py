"""Kernels that take UB from LocalMemAllocator and order the pipes with explicit flags, as the official
kernel samples do; ascendc_assert stops the kernel like a trap on the NPU."""
import os
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "local_alloc.cpp")])


@pytest.mark.parametrize("n", [64, 640])
def test_local_mem_allocator_kernel_runs_clean(lib, n):
    x = torch.randn(n)
    y = torch.zeros(n)
    stats = lib.launch("relu_scale", 1, x=x, y=y, tiling=struct.pack("<If", n, 1.5))
    assert torch.equal(y, torch.relu(x) * 1.5)
    assert stats.total.ub_bytes_allocated == 2 * 64 * 4
    assert stats.total.vector_element_ops == {"Relu": n, "Muls": n}


def test_failed_kernel_assertion_is_a_violation(lib):
    with pytest.raises(KernelRuleViolation, match=r"ascendc_assert: broke the rule 'kernel assertions hold': "
                                                  r"'t.n % kTile == 0' is false"):
        lib.launch("relu_scale", 1, x=torch.zeros(100), y=torch.zeros(100), tiling=struct.pack("<If", 100, 1.0))


def test_allocator_past_the_ub_is_a_violation(lib):
    with pytest.raises(KernelRuleViolation, match=r"LocalMemAllocator::Alloc: broke the rule 'UB allocations fit in "
                                                  r"the UB': asking for 262144 bytes at UB offset 256"):
        lib.launch("relu_scale_too_big", 1, x=torch.zeros(64), y=torch.zeros(64), tiling=struct.pack("<If", 64, 1.0))


KERNEL_ASSERTS = """#include "kernel_operator.h"
// assert (utils/debug/asc_assert.h, through kernel_operator.h: no <cassert> here) with and without a message,
// and ASCENDC_ASSERT whose behavior logs with KERNEL_LOG (empty on the device, as here).
extern "C" __global__ __aicore__ void kernel_asserts(GM_ADDR tiling)
{
    int32_t mode = *reinterpret_cast<__gm__ int32_t*>(tiling);
    int32_t n = *(reinterpret_cast<__gm__ int32_t*>(tiling) + 1);
    if (mode == 0) {
        assert(n > 0);
    } else if (mode == 1) {
        assert(n % 8 == 0, "n %d is not a multiple of 8\\n", n);
    } else {
        ASCENDC_ASSERT(AscendC::GetBlockNum() != n, { KERNEL_LOG(KERNEL_ERROR, "block dim %d", n); });
    }
}
"""


@pytest.fixture(scope="module")
def asserts(tmp_path_factory):
    src = tmp_path_factory.mktemp("asserts") / "kernel_asserts.cpp"
    src.write_text(KERNEL_ASSERTS)
    return ascend_ext.twin.compile_kernels([str(src)])


@pytest.mark.parametrize("mode,n", [(0, 3), (1, 16), (2, 3)])
def test_kernel_asserts_that_hold_pass(asserts, mode, n):
    asserts.launch("kernel_asserts", 2, tiling=struct.pack("<ii", mode, n))


@pytest.mark.parametrize("mode,n,expr", [(0, 0, r"n > 0"), (1, 12, r"n % 8 == 0"),
                                         (2, 2, r"AscendC::GetBlockNum\(\) != n")])
def test_failed_kernel_assert_is_a_violation(asserts, mode, n, expr):
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'kernel assertions hold': '%s' is false" % expr):
        asserts.launch("kernel_asserts", 2, tiling=struct.pack("<ii", mode, n))


GLOBAL_NAMES = """#include "kernel_operator.h"
// Names kernels use unqualified or from the utility header: QuantMode_t (a type of the device compiler, global)
// and AscendC::IsSameType, AscendC::Conditional.
template <typename T>
__aicore__ inline int32_t Code()
{
    using Wide = typename AscendC::Conditional<sizeof(T) == 2, float, T>::type;  // half -> float, others kept
    return (AscendC::IsSameType<T, half>::value ? 1 : (AscendC::IsSameType<T, float>::value ? 2 : 0)) +
           10 * static_cast<int32_t>(sizeof(Wide));
}
extern "C" __global__ __aicore__ void global_names(GM_ADDR out)
{
    AscendC::FixpipeParamsV220 params;
    QuantMode_t mode = QuantMode_t::VQF322B8_PRE;
    params.quantPre = mode;
    __gm__ int32_t* o = reinterpret_cast<__gm__ int32_t*>(out);
    o[0] = Code<half>();
    o[1] = Code<float>();
    o[2] = Code<int8_t>();
    o[3] = static_cast<int32_t>(params.quantPre);
}
"""


def test_global_quant_mode_and_is_same_type(tmp_path):
    src = tmp_path / "global_names.cpp"
    src.write_text(GLOBAL_NAMES)
    lib = ascend_ext.twin.compile_kernels([str(src)])
    out = torch.full((8,), -1, dtype=torch.int32)
    lib.launch("global_names", 1, out=out)
    assert out[:4].tolist() == [41, 42, 10, 6]


def cube_alloc(lib, fault, seed=0):
    g = torch.Generator().manual_seed(seed)
    a = (torch.rand(16, 16, generator=g, dtype=torch.float64) * 2 - 1).half()
    b = (torch.rand(16, 16, generator=g, dtype=torch.float64) * 2 - 1).half()
    c = torch.zeros(16, 16)
    lib.launch("cube_alloc", 1, a=a, b=b, c=c, tiling=struct.pack("<I", fault))
    return c, a.double() @ b.double()


@pytest.mark.parametrize("seed", [0, 1])
def test_allocators_of_l1_and_l0_feed_the_cube(lib, seed):
    c, expect = cube_alloc(lib, 0, seed)
    torch.testing.assert_close(c.double(), expect, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fault,message", [
    (1, r"LocalMemAllocator::Alloc: broke the rule 'a static tensor lies inside its memory': 614400 bytes at L1 "
        r"address 0"),
    (2, r"LocalMemAllocator::Alloc: broke the rule 'a static tensor's address is 32-byte aligned': addr 16"),
])
def test_l1_allocator_planted_faults(lib, fault, message):
    with pytest.raises(KernelRuleViolation, match=message):
        cube_alloc(lib, fault)

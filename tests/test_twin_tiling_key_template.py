"""Kernels written the way open operator repositories write them: a kernel template over tiling-key
parameters (declared with the template_argument.h macros) launched through extern "C" instantiations,
AscendC::printf, ASSERT, SetSysWorkspace and DataCacheCleanAndInvalid."""
import os
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation
from ascend_ext.twin_kernels import find_entries

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
SOURCE = os.path.join(KERNELS, "tiling_key_template.cpp")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([SOURCE])


def test_template_entries_are_not_launch_entries():
    assert sorted(find_entries(SOURCE)) == ["gather_sum", "scale_double", "scale_negate"]


@pytest.mark.parametrize("kernel,factor", [("scale_double", 2.0), ("scale_negate", -1.0)])
def test_each_instantiation_runs(lib, kernel, factor, capfd):
    cores, n = 4, 64
    x = torch.randn(cores * n)
    y = torch.zeros_like(x)
    lib.launch(kernel, cores, x=x, y=y, workspace=torch.zeros(8), tiling=struct.pack("<I", n))
    assert torch.equal(y, x * factor)
    mode = 0 if factor == 2.0 else 1
    printed = capfd.readouterr().out.splitlines()
    assert sorted(printed) == [f"scale_tpl<{mode}> block {i}: n {n}" for i in range(cores)]


def test_failed_assert_is_a_violation(lib):
    with pytest.raises(KernelRuleViolation, match=r"'t.n % 8 == 0 && \"whole 32-byte blocks\"' is false"):
        lib.launch("scale_double", 1, x=torch.zeros(12), y=torch.zeros(12), workspace=torch.zeros(8),
                   tiling=struct.pack("<I", 12))


UNQUALIFIED_ASSERT = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void assert_blocks(GM_ADDR x, GM_ADDR tiling)
{
    // GetBlockNum outside AscendC, as the AddN sample writes it: the device build drops ASSERT's expression
    ASSERT(GetBlockNum() != *reinterpret_cast<__gm__ int32_t*>(tiling) && "blocks");
    (void)x;
}
"""


def test_assert_resolves_names_in_ascendc_and_checks_them(tmp_path):
    src = tmp_path / "assert_blocks.cpp"
    src.write_text(UNQUALIFIED_ASSERT)
    lib = ascend_ext.twin.compile_kernels([str(src)])
    lib.launch("assert_blocks", 2, x=torch.zeros(8), tiling=struct.pack("<i", 3))  # the passing counterpart
    with pytest.raises(KernelRuleViolation, match=r"'GetBlockNum\(\) != .* && \"blocks\"' is false"):
        lib.launch("assert_blocks", 2, x=torch.zeros(8), tiling=struct.pack("<i", 2))


def test_null_system_workspace_is_a_violation(lib):
    with pytest.raises(KernelRuleViolation, match=r"SetSysWorkspace: broke the rule 'workspace can not be nullptr'"):
        lib.launch("scale_double", 1, x=torch.zeros(8), y=torch.zeros(8), workspace=None,
                   tiling=struct.pack("<I", 8))


@pytest.mark.parametrize("cores", [1, 8])
def test_values_other_cores_stored_are_read_after_sync_all(lib, cores):
    y = torch.zeros(16 * cores + 1)  # one 64-byte line per core
    lib.launch("gather_sum", cores, y=y)
    assert y[-1].item() == cores * (cores + 1) / 2


# As ops-math declares its entries: a template over the scheduling mode and an extern "C" entry of the same name
# (for C++ an overload set, which the generated export resolves by the entry's parameters).
SHARED_NAME = """#include "kernel_operator.h"
template <uint32_t schMode>
__global__ __aicore__ void shared_name(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xGm, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, static_cast<float>(schMode + 2), n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, t, n);
}

extern "C" __global__ __aicore__ void shared_name(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    shared_name<1>(x, y, n);
}
"""


def test_an_entry_sharing_its_name_with_a_template_entry_is_launched(tmp_path):
    src = tmp_path / "shared_name.cpp"
    src.write_text(SHARED_NAME)
    x = torch.randn(64)
    expect = (x.double() * 3).float()
    lib = ascend_ext.twin.compile_kernels([str(src)])
    y = torch.zeros(64)
    lib.launch("shared_name", 1, x=x, y=y, n=64)
    assert torch.equal(y, expect)
    from ascend_ext.kernel_spec import make_spec  # the declared-op path builds the same entry
    from ascend_ext.twin_kernels import compile_spec
    y = torch.zeros(64)
    compile_spec(make_spec([str(src)], "shared_name"), out_dir=str(tmp_path / "built"))["default"].launch(
        "shared_name", 1, x=x, y=y, n=64)
    assert torch.equal(y, expect)

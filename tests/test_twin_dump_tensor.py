"""DumpTensor, DumpAccChkPoint and ShapeInfo print what the NPU's runtime prints for the dump (docs DumpTensor
examples): a header with desc, type, position and size, then the elements, by shape where one is given
("-" where the data runs out); the dump orders the pipes as A2's PIPE_ALL barrier around it does. The docs'
rules stop the launch: elements past the tensor, a misaligned or out-of-range countOff, more than 8 dims."""
import os
import random

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelCompileError, KernelRuleViolation

SOURCE = os.path.join(os.path.dirname(__file__), "kernels", "dump_tensor.cpp")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([SOURCE])


def fmt(values):
    return [f"{float(v):f}" for v in values]


def run(lib, capfd, n, fault=0):
    x = torch.randn(n) * 10
    xi = torch.randint(-2**31, 2**31 - 1, (16,), dtype=torch.int32)
    capfd.readouterr()
    lib.launch("dump_forms", 1, x=x, xi=xi, n=n, fault=fault)
    return x, xi, capfd.readouterr().out.splitlines()


def test_dumps_print_the_tensors(lib, capfd):
    n = 8 * random.randint(8, 64)
    x, xi, lines = run(lib, capfd, n)
    f = fmt(x.tolist())
    expect = [
        "DumpTensor: desc=7, addr=0x0, data_type=float32, position=UB, dump_size=16",
        "[" + ", ".join(f[:16]) + "]",
        "DumpTensor: desc=8, addr=0x0, data_type=float32, position=UB, dump_size=8",
        "[[" + ",".join(f[0:4]) + "],", "[" + ",".join(f[4:8]) + "]]",
        "DumpTensor: desc=9, addr=0x0, data_type=float32, position=UB, dump_size=8",
        "shape is [3, 4], dumpSize is 8, data is not enough.",
        "[[" + ",".join(f[0:4]) + "],", "[" + ",".join(f[4:8]) + "],", "[-,-,-,-]]",
        "DumpTensor: desc=10, addr=0x20, data_type=float32, position=UB, dump_size=4",
        "[" + ", ".join(f[8:12]) + "]",
    ]
    assert lines[:len(expect)] == expect
    gm = lines[len(expect)]
    assert gm.startswith("DumpTensor: desc=11, addr=0x") and gm.endswith("data_type=int32, position=GM, dump_size=16")
    assert lines[len(expect) + 1] == "[" + ", ".join(str(v) for v in xi.tolist()) + "]"
    assert lines[len(expect) + 2] == f"DumpTensor: desc=12, addr=0x0, data_type=float32, position=UB, dump_size={n}"
    assert lines[len(expect) + 3] == "[" + ", ".join(f) + "]"


def test_a_dump_over_30_kb_is_not_printed(lib, capfd):
    n = 8000  # 32000 bytes
    _, _, lines = run(lib, capfd, n)
    at = lines.index(f"DumpTensor: desc=12, addr=0x0, data_type=float32, position=UB, dump_size={n}")
    assert "over the 30 KB one dump may hold: not printed" in lines[at + 1]
    assert len(lines) == at + 2


@pytest.mark.parametrize("fault, rule", [
    (1, "the dumped elements lie inside the tensor"),
    (2, "the dumped address is aligned as its memory requires"),
    (3, "the offset lies inside the tensor"),
    (4, "a ShapeInfo holds at most K_MAX_SHAPE_DIM"),
    (5, "a dump's shape has no zero dimension"),
    (6, r"DumpTensor/DumpAccChkPoint print tensors at UB, L1, L0C or GM"),
])
def test_dump_rules(lib, capfd, fault, rule):
    with pytest.raises(KernelRuleViolation, match=rule):
        run(lib, capfd, 64, fault)


def test_dumps_compile_out_with_ascendc_dump_0(capfd):
    quiet = ascend_ext.twin.compile_kernels([SOURCE], defines={"ASCENDC_DUMP": "0"})
    _, _, lines = run(quiet, capfd, 64, fault=1)  # even the faulty dump is gone
    assert lines == []


def test_a_type_the_dump_does_not_know_does_not_compile(tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) {\n'
                   '    GlobalTensor<double> g; g.SetGlobalBuffer(reinterpret_cast<__gm__ double*>(x), 4);\n'
                   '    DumpTensor(g, 0, 4);\n}\n')
    with pytest.raises(KernelCompileError, match="dump tensor is not supported this data type"):
        ascend_ext.twin.compile_kernels([str(src)])

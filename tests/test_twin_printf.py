"""AscendC::printf prints what the NPU prints: each argument in an 8-byte slot (half, bfloat16_t and float
as a float, integers widened to 64 bits), the text formatted as the runtime's parser does (%% is a percent
sign, %x of a negative number shows 64 bits). Formats that parser refuses stop the launch."""
import os
import struct

import numpy as np
import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

SOURCE = os.path.join(os.path.dirname(__file__), "kernels", "printf_formats.cpp")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([SOURCE])


def tiling(h, b, f, i, u, big, fault=0):
    return struct.pack("<HHfiIQi4x", h, b, f, i, u, big, fault)


def test_arguments_print_as_on_the_npu(lib, capfd):
    rng = np.random.default_rng()
    hv = float(np.float16(rng.uniform(-100, 100)))
    bv = float(torch.tensor(rng.uniform(-100, 100)).to(torch.bfloat16))
    fv = float(np.float32(rng.uniform(-1000, 1000)))
    i = int(rng.integers(-2**31, -1))
    u = int(rng.integers(2**31, 2**32))
    big = int(rng.integers(2**40, 2**62))
    h_bits = int(np.array(hv, dtype=np.float16).view(np.uint16))
    b_bits = int(torch.tensor(bv, dtype=torch.bfloat16).view(torch.int16).item()) & 0xFFFF
    lib.launch("print_values", 1, tiling=tiling(h_bits, b_bits, fv, i, u, big))
    float_bits = struct.unpack("<i", struct.pack("<f", fv))[0] & 0xFFFFFFFF  # the slot's high half is 0
    assert capfd.readouterr().out.splitlines() == [
        "100%",
        f"half {hv:f} bf16 {bv:f} float {fv:f}",
        f"int {i} {i} {i} unsigned {u} {u} {big}",
        f"hex {u:x} {u:X} {big:x} neg {i & 0xFFFFFFFFFFFFFFFF:x}",
        "bool 1 0 name twin, 50% of cores",
        f"float bits {float_bits}",
    ]


@pytest.mark.parametrize("fault,rule,detail", [
    (1, "printf's conversions are the ones the NPU's printf parser takes", r"'%5' in \"width %5.2f\\n\""),
    (2, "printf has an argument for every conversion", r"conversion 2 \('%d'\)"),
    (3, "printf's %s takes a string and its other conversions a number or pointer", r"'%s'.* is given a number"),
    (4, "printf's %s takes a string and its other conversions a number or pointer", r"'%d'.* is given a string"),
])
def test_formats_the_parser_refuses_stop_the_launch(lib, fault, rule, detail, capfd):
    with pytest.raises(KernelRuleViolation, match=rf"AscendC::printf: broke the rule '{rule}'.*{detail}"):
        lib.launch("print_values", 1, tiling=tiling(0, 0, 1.5, 3, 4, 5, fault))
    assert capfd.readouterr().out == ""  # nothing printed: the twin stops before writing the line

"""REGISTER_TILING_FOR_TILINGKEY on the twin (tests/kernels/tiling_for_key.cpp): the struct a key's expression
registers is the one the kernel reads for that key; a key registered with two structs, a read as another struct
and an expression the docs do not allow are refused, each next to the launches that run clean."""
import os
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
N = 37


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "tiling_for_key.cpp")])


# The struct the host writes for each key, as the kernel declares them.
PACK = {"default": lambda s: struct.pack("<If", N, s), "one": lambda s: struct.pack("<fIf", 0.0, N, s),
        "range": lambda s: struct.pack("<I3If", N, 0, 0, 0, s)}


def run(lib, kernel, key, layout):
    x = torch.randn(N, dtype=torch.float64).float()
    y = torch.zeros(N)
    scale = float(torch.empty(()).uniform_(0.5, 4.0))
    lib.launch(kernel, 1, tiling_key=key, x=x, y=y, tiling=PACK[layout](scale))
    return x, y, scale


@pytest.mark.parametrize("key,layout", [(1, "one"), (11, "range"), (14, "range"), (0, "default"), (2, "default"),
                                        (16, "default")])
def test_each_key_reads_its_registered_struct(lib, key, layout):
    x, y, scale = run(lib, "scale_by_key", key, layout)
    want = (x.double() * torch.tensor(scale).float().double()).float()
    torch.testing.assert_close(y, want, rtol=1e-6, atol=0)


def test_a_key_registered_with_two_structs_is_refused(lib):
    run(lib, "register_twice", 11, "range")  # 11 % 4 != 0: only ScaleRange holds for key 11
    with pytest.raises(KernelRuleViolation, match=r"REGISTER_TILING_FOR_TILINGKEY: broke the rule 'one TilingKey is "
                                                  r"registered with one TilingData struct.*TILING_KEY_VAR = 12 is "
                                                  r"registered with ScaleRange and.*with ScaleOne"):
        run(lib, "register_twice", 12, "range")


def test_reading_a_registered_key_as_the_default_struct_is_refused(lib):
    run(lib, "reads_the_default", 3, "default")
    with pytest.raises(KernelRuleViolation, match=r"GET_TILING_DATA: broke the rule 'the tiling is read as the struct "
                                                  r"REGISTER_TILING_FOR_TILINGKEY registered.*registered with ScaleOne, "
                                                  r"the kernel reads the default struct"):
        run(lib, "reads_the_default", 1, "one")


def test_an_expression_over_other_names_is_refused(lib):
    with pytest.raises(KernelRuleViolation, match=r"EXPRESSION is a C\+\+ expression over TILING_KEY_VAR.*the name "
                                                  r"'KEY_ONE'"):
        run(lib, "bad_expression", 1, "one")

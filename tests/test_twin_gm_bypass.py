"""ReadGmByPassDCache/WriteGmByPassDCache as cross-core flags: a bypassing write releases its core's accesses, a
bypassing read of it acquires them (plain writes of the same GM by flag-ordered cores do not race), and a core
polling a flag no core raises is reported as the hang it would be on the NPU."""
import os
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

SOURCE = os.path.join(os.path.dirname(__file__), "kernels", "gm_bypass.cpp")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([SOURCE])


def chain(lib, cores, fault=0, seed=0):
    x = torch.rand(cores * 8, generator=torch.Generator().manual_seed(seed)) * 10 - 5
    out = torch.zeros(8)
    lib.launch("chain", cores, x=x, flags=torch.zeros(16 * 8, dtype=torch.int32), out=out,
               tiling=struct.pack("<I", fault))
    return x, out


@pytest.mark.parametrize("cores", [2, 4, 7])
def test_flag_ordered_cores_write_the_same_gm_in_turn(lib, cores):
    x, out = chain(lib, cores, seed=cores)
    assert torch.equal(out, x[(cores - 1) * 8:])


def test_unordered_writes_of_the_same_gm_are_a_race(lib):
    with pytest.raises(KernelRuleViolation, match=r"no two cores write the same GM bytes': core 1 and core 0 both "
                                                  r"wrote bytes \[0, 32\) of GM buffer 'out'"):
        chain(lib, 2, fault=1)


def test_polling_a_flag_no_core_raises_is_the_hang(lib):
    with pytest.raises(KernelRuleViolation, match=r"ReadGmByPassDCache polling a GM address whose 4 bytes no core "
                                                  r"changes from 0x0"):
        chain(lib, 2, fault=2)

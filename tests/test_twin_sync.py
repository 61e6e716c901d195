"""The hazard detector: every hand-off between pipes must be synchronised, flags must pair, and UB is
read only where this launch wrote it. Each planted fault is caught naming both calls, their pipes and
the UB range; its correct counterpart runs clean."""
import os
import re

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
RACE = "accesses of different pipes to the same UB bytes are ordered by synchronisation"


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "sync_faults.cpp")])


def run(lib, kernel, n=200):
    x = torch.randn(((n + 63) // 64) * 64 + 64)
    y = torch.zeros_like(x)
    lib.launch(kernel, 1, x=x, y=y, n=n)
    return x, y


@pytest.mark.parametrize("kernel", ["sync_ok", "sync_event_ids"])
@pytest.mark.parametrize("n", [1, 64, 200])
def test_synchronised_pipeline_runs_clean(lib, kernel, n):
    x, y = run(lib, kernel, n)
    assert torch.equal(y[:n], x[:n] * 2)


@pytest.mark.parametrize("kernel,pattern", [
    ("no_mte2_v_wait", r"RAW hazard: 'Add' on pipe V reads UB bytes \[0, 256\), which 'DataCopy\(GM->UB\)' on pipe "
                       r"MTE2 wrote .*SetFlag/WaitFlag<HardEvent::MTE2_V>"),
    ("no_v_mte3_wait", r"RAW hazard: 'DataCopy\(UB->GM\)' on pipe MTE3 reads UB bytes \[0, 256\), which 'Add' on "
                       r"pipe V wrote .*HardEvent::V_MTE3"),
    ("no_mte3_mte2_wait", r"WAR hazard: 'DataCopy\(GM->UB\)' on pipe MTE2 writes UB bytes \[0, 256\), which "
                          r"'DataCopy\(UB->GM\)' on pipe MTE3 read .*HardEvent::MTE3_MTE2"),
    ("copy_ins_overlapping", r"WAW hazard: 'DataCopy\(GM->UB\)' on pipe MTE2 writes UB bytes \[0, 256\), which "
                             r"'DataCopy\(GM->UB\)' on pipe MTE2 wrote .*PipeBarrier<PIPE_MTE2>"),
    ("copy_through_vecin", r"RAW hazard: 'DataCopy\(UB->GM\)' on pipe MTE3 reads .* 'DataCopy\(GM->UB\)' on pipe MTE2"),
])
def test_missing_synchronisation_is_a_race(lib, kernel, pattern):
    with pytest.raises(KernelRuleViolation) as info:
        run(lib, kernel)
    message = str(info.value)
    assert f"kernel '{kernel}', core 0, " in message and RACE in message
    assert re.search(pattern, message), message


@pytest.mark.parametrize("kernel", ["copy_ins_with_barrier", "copy_through_bind"])
def test_counterparts_of_the_races_run_clean(lib, kernel):
    x, y = run(lib, kernel, 64)
    assert torch.equal(y[:64], x[64:128] if kernel == "copy_ins_with_barrier" else x[:64])


@pytest.mark.parametrize("kernel,call,rule", [
    ("flag_set_twice", "SetFlag", "every SetFlag is matched by a WaitFlag before the same flag is set again"),
    ("flag_never_waited", "kernel end", "every SetFlag is matched by a WaitFlag before the kernel ends"),
    ("wait_without_set", "WaitFlag", "every WaitFlag waits for a SetFlag made before it"),
    ("reads_unwritten", "Add", "instructions read only UB bytes written in this launch (initcheck)"),
])
def test_flag_pairing_and_initcheck(lib, kernel, call, rule):
    with pytest.raises(KernelRuleViolation) as info:
        run(lib, kernel, 64)
    assert f"core 0, {call}: broke the rule '{rule}'" in str(info.value)


def test_initcheck_names_the_first_unwritten_byte(lib):
    with pytest.raises(KernelRuleViolation, match=r"operand 'src0' reads UB bytes \[0, 256\); byte 128 was never "
                                                  r"written in this launch"):
        run(lib, "reads_unwritten", 64)


GM_RACE = "accesses of different pipes to the same GM bytes are ordered by synchronisation"


def test_gm_round_trip_inside_a_core(lib):
    x = torch.randn(256)
    y = torch.zeros(256)
    lib.launch("gm_round_trip", 1, x=x, y=y, n=64)
    assert torch.equal(y[:64], x[:64]) and torch.equal(y[64:128], x[:64])
    lib.launch("copy_outs_with_barrier", 1, x=x, y=y, n=64)


@pytest.mark.parametrize("kernel,pattern", [
    ("gm_round_trip_no_wait", r"RAW hazard: 'DataCopy\(GM->UB\)' on pipe MTE2 reads GM bytes .*, which "
                              r"'DataCopy\(UB->GM\)' on pipe MTE3 wrote .*HardEvent::MTE3_MTE2"),
    ("copy_outs_overlapping", r"WAW hazard: 'DataCopy\(UB->GM\)' on pipe MTE3 writes GM bytes .*PipeBarrier<PIPE_MTE3>"),
])
def test_gm_hazards_inside_a_core(lib, kernel, pattern):
    with pytest.raises(KernelRuleViolation) as info:
        lib.launch(kernel, 1, x=torch.randn(256), y=torch.zeros(256), n=64)
    assert GM_RACE in str(info.value) and re.search(pattern, str(info.value)), str(info.value)

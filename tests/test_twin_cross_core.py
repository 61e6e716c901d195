"""CrossCoreSetFlag / CrossCoreWaitFlag on the twin (tests/kernels/cross_core_flags.cpp): the three A2 modes (0: all
cores of a type, 1: a block's AIVs, 2: a block's AIC and AIVs) hand data through GM between cores, ordered by the
flags; each rule of the docs as a planted fault next to its passing counterpart. The cores run on one pool thread
as well as on several (the waits suspend a core and run the others)."""
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
CHUNK = 8


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "cross_core_flags.cpp")])


def integers(n, seed):
    return torch.randint(-50, 50, (n,), generator=torch.Generator().manual_seed(seed)).float()  # exact sums


def mode0(lib, kernel, cores):
    x = integers(cores * CHUNK, cores)
    acc = torch.zeros(CHUNK)
    out = torch.zeros(CHUNK)
    lib.launch(kernel, cores, x=x, acc=acc, out=out)
    return x, out


@pytest.mark.parametrize("cores", [2, 5, 16])
def test_mode0_orders_the_atomic_sum_before_the_read(lib, cores):
    x, out = mode0(lib, "mode0_sum", cores)
    assert torch.equal(out, x.view(cores, CHUNK).sum(0))


def exchange(lib, kernel, blocks, seed=0):
    x = integers(2 * blocks * CHUNK, seed)
    ws = torch.zeros(2 * blocks * CHUNK)
    out = torch.zeros(blocks * CHUNK)
    stats = lib.launch(kernel, blocks, x=x, ws=ws, out=out)
    return x.view(blocks, 2, CHUNK), out.view(blocks, CHUNK), stats


@pytest.mark.parametrize("blocks", [1, 3])
def test_mode1_between_the_aivs_of_a_block(lib, blocks):
    x, out, stats = exchange(lib, "mode1_exchange", blocks)
    assert torch.equal(out, 2 * x[:, 0] + x[:, 1])
    assert stats.mix_type == "MIX_AIC_1_2"


@pytest.mark.parametrize("blocks", [1, 4])
def test_mode2_round_trip_through_the_aic(lib, blocks):
    x = integers(2 * blocks * CHUNK, blocks)
    ws = torch.zeros_like(x)
    out = torch.zeros_like(x)
    lib.launch("mode2_round_trip", blocks, x=x, ws=ws, out=out)
    pairs = x.view(blocks, 2, CHUNK)
    assert torch.equal(out.view(blocks, 2, CHUNK), 3 * pairs.flip(1))


def test_without_the_flags_the_reads_race(lib):
    with pytest.raises(KernelRuleViolation, match=r"core 0, DataCopy/GetValue from GM: broke the rule 'a core reads GM "
                                                  r"another core writes in the same launch only after SyncAll'.*core 0 "
                                                  r"read bytes \[0, 32\) of GM buffer 'acc', which core 1 wrote"):
        mode0(lib, "mode0_sum_without_flags", 2)
    with pytest.raises(KernelRuleViolation, match=r"AIV 1, DataCopy/GetValue from GM.*AIV 1 read bytes \[0, 32\) of GM "
                                                  r"buffer 'ws', which AIV 0 wrote in this launch with no SyncAll"):
        exchange(lib, "mode1_without_flags", 1)


def test_flag_rules(lib):
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, CrossCoreSetFlag: broke the rule 'CrossCoreSetFlag<mode, "
                                                  r"pipe> publishes the work of its pipe.*'DataCopy\(UB->GM\)' on pipe "
                                                  r"MTE3 wrote GM and CrossCoreSetFlag is on pipe V"):
        exchange(lib, "mode1_flag_on_wrong_pipe", 1)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, CrossCoreSetFlag/CrossCoreWaitFlag: broke the rule "
                                                  r"'CrossCoreSetFlag and CrossCoreWaitFlag are used in pairs.*AIV 0 "
                                                  r"returned with its counter of flag 1 at 1"):
        exchange(lib, "mode1_flag_never_waited", 1)
    with pytest.raises(KernelRuleViolation, match=r"CrossCoreSetFlag: broke the rule 'cross-core flags need a MIX "
                                                  r"kernel type.*the kernel declared KERNEL_TYPE_AIV_ONLY"):
        mode0(lib, "mode0_in_aiv_only_kernel", 2)
    with pytest.raises(KernelRuleViolation, match=r"CrossCoreSetFlag: broke the rule 'CrossCoreSetFlag's pipe is "
                                                  r"PIPE_V.*pipe = PIPE_S"):
        mode0(lib, "mode0_on_pipe_s", 2)
    with pytest.raises(KernelRuleViolation, match=r"CrossCoreSetFlag: broke the rule 'modes 1 and 2 synchronise the "
                                                  r"cores of one block.*mode 1 in a launch with KERNEL_TYPE_MIX_AIV_1_0"):
        exchange(lib, "mode1_in_vector_kernel", 1)
    with pytest.raises(KernelRuleViolation, match=r"AIC 0, CrossCoreSetFlag: broke the rule 'a flag's counter counts "
                                                  r"0\.\.15.*AIV 0's counter of flag 3 is at 15"):
        lib.launch("mode2_counter_overflow", 1, x=integers(16, 0), ws=torch.zeros(16), out=torch.zeros(16))


def test_mode_rules(lib):
    # the passing counterpart: test_mode1_between_the_aivs_of_a_block runs the same kernel with mode 1 on the AIVs
    with pytest.raises(KernelRuleViolation, match=r"AIC 0, CrossCoreSetFlag: broke the rule 'mode 1 synchronises the "
                                                  r"AIVs of a block; an AIC does not take part.*an AIC called it with "
                                                  r"modeId = 1"):
        exchange(lib, "mode1_set_by_the_aic", 1)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, CrossCoreSetFlag: broke the rule 'modeId is 0, 1 or 2 on A2 "
                                                  r"\(CrossCoreSetFlag docs: mode 4 is Ascend 950 only\)': modeId = 4"):
        exchange(lib, "mode4_on_a2", 1)


def test_waits_nobody_releases_are_reported_not_hangs(lib):
    # Core 1 never sets flag 0: the round of mode 0 never completes and every core waits.
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'every wait of a core is released by another "
                                                  r"core'.*3 core\(s\) wait with nothing left to release them \(core 0 "
                                                  r"at CrossCoreWaitFlag\(0\), whose counter is 0.*on the NPU the "
                                                  r"kernel hangs"):
        mode0(lib, "mode0_one_core_skips", 3)
    # The AIC returns without setting flag 3 the AIVs wait for.
    with pytest.raises(KernelRuleViolation, match=r"2 core\(s\) wait with nothing left to release them \(AIV 0 at "
                                                  r"CrossCoreWaitFlag\(3\).*AIV 1 at CrossCoreWaitFlag\(3\).*returned: "
                                                  r"AIC 0"):
        lib.launch("mode2_never_set", 1, x=integers(16, 0), ws=torch.zeros(16), out=torch.zeros(16))
    x, out, _ = exchange(lib, "mode1_exchange", 2)  # the pool is fine afterwards
    assert torch.equal(out, 2 * x[:, 0] + x[:, 1])


@pytest.mark.parametrize("qualifier", ["mix", "vector"])
def test_a_kernel_has_one_type(lib, qualifier):
    lib.launch(f"{qualifier}_type_agrees", 2, x=torch.zeros(8))
    with pytest.raises(KernelRuleViolation, match=r"KERNEL_TASK_TYPE_DEFAULT: broke the rule 'a kernel has one type'"):
        lib.launch(f"{qualifier}_type_disagrees", 2, x=torch.zeros(8))

"""SyncAll across the cores of a launch: cores wait for each other even when the pool has fewer threads
than the launch has cores; GM another core wrote before a SyncAll is legal to read, GM written between
the same two SyncAlls is a race; a core that returns while others wait (the NPU hangs) and a core that
fails while others wait are reported, never a hang. InitGlobalMemory and the workspace form's rules. (8 cores on one pool thread: tests/test_twin_stats.py.)"""
import os
import subprocess

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
CHUNK = 8


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "sync_all.cpp")])


def expected_exchange(x, cores):
    c = x.view(cores, CHUNK)
    return (c + c.roll(-1, 0) + c.roll(-2, 0)).reshape(-1)


def exchange(lib, kernel, cores, **extra):
    x = torch.randint(-50, 50, (cores * CHUNK,)).float()  # integers: sums are exact
    y = torch.zeros_like(x)
    ws = torch.zeros(2 * cores * CHUNK)
    stats = lib.launch(kernel, cores, x=x, y=y, ws=ws, **extra)
    return x, y, stats


@pytest.mark.parametrize("cores", [1, 2, 3, 8, 48])
def test_two_sync_alls_order_the_phases(lib, cores):
    x, y, stats = exchange(lib, "exchange", cores)
    assert torch.equal(y, expected_exchange(x, cores))
    # Per core: x twice, the neighbours' chunks and its own phase-1 chunk; ws twice and y once.
    assert stats.total.gm_bytes_read == 5 * 32 * cores
    assert stats.total.gm_bytes_written == 3 * 32 * cores


@pytest.mark.parametrize("cores", [2, 5])
def test_workspace_form_orders_the_phases(lib, cores):
    sync = torch.zeros(cores * CHUNK, dtype=torch.int32)
    x, y, _ = exchange(lib, "exchange_soft", cores, sync=sync, usedCores=0)
    assert torch.equal(y, expected_exchange(x, cores))
    assert sync.view(cores, CHUNK)[:, 0].tolist() == [2] * cores  # each core's slot counts its SyncAlls


def test_missing_sync_all_is_a_cross_core_race(lib):
    with pytest.raises(KernelRuleViolation, match=r"a core reads GM another core writes in the same launch only "
                                                  r"after SyncAll.*core 0 read bytes \[32, 64\) of GM buffer 'ws', "
                                                  r"which core 1 wrote in this launch with no SyncAll between"):
        exchange(lib, "exchange_without_first_sync", 4)


@pytest.mark.parametrize("cores", [2, 3])
def test_read_racing_a_rewrite_of_the_same_bytes_runs_clean(lib, cores):
    # Core 0 writes ws's chunk 0, SyncAll, then writes the same bytes again while core 1 reads them: the read finds
    # them whichever lands first (an AIC that writes the same C into one workspace for each of its AIVs).
    x, y, _ = exchange(lib, "rewrite_same_while_read", cores)
    assert torch.equal(y[CHUNK:2 * CHUNK], x[:CHUNK])


@pytest.mark.parametrize("kernel", ["rewrite_other_while_read", "rewrite_same_unsynced"])
def test_read_racing_a_rewrite_is_refused_unless_it_sees_the_same_bytes_either_way(lib, kernel):
    # Other bytes the second time, or the same bytes with no write ordered before the read (it may find ws's old
    # bytes): the read's result depends on timing.
    with pytest.raises(KernelRuleViolation, match=r"a core reads GM another core writes in the same launch only "
                                                  r"after SyncAll.*core 1 read bytes \[0, 32\) of GM buffer 'ws', "
                                                  r"which core 0 wrote"):
        exchange(lib, kernel, 2)


@pytest.mark.parametrize("cores", [2, 6])
def test_core_returning_while_others_wait_is_reported_not_a_hang(lib, cores):
    with pytest.raises(KernelRuleViolation) as info:
        exchange(lib, "exchange_last_core_skips", cores)
    message = str(info.value)
    assert f"core {cores - 1}, SyncAll: broke the rule 'every core reaches every SyncAll'" in message
    assert f"returned after 1 SyncAll(s) while {cores - 1} core(s)" in message and "SyncAll number 2" in message


def test_core_failing_while_others_wait_reports_its_violation(lib):
    with pytest.raises(KernelRuleViolation, match=r"core 0, DataCopy\(GM->UB\): broke the rule 'GM reads stay "
                                                  r"inside the launch's buffers'"):
        exchange(lib, "fails_while_others_wait", 4)
    x, y, _ = exchange(lib, "exchange", 4)  # the pool is fine afterwards
    assert torch.equal(y, expected_exchange(x, 4))


def test_sync_all_rules(lib):
    with pytest.raises(KernelRuleViolation, match=r"the hardware SyncAll runs in a MIX kernel"):
        exchange(lib, "sync_all_in_aiv_only_kernel", 2)
    with pytest.raises(KernelRuleViolation, match=r"a vector-only kernel calls SyncAll with isAIVOnly = true"):
        exchange(lib, "sync_all_not_aiv_only", 2)
    with pytest.raises(KernelRuleViolation, match=r"a kernel that uses SyncAll launches at most as many blocks as "
                                                  r"the NPU has cores.*blockDim 49 on Ascend910B2"):
        exchange(lib, "exchange", 49)


def test_sync_all_in_a_mix_kernel(lib):
    exchange(lib, "mix_sync_all", 2, fault=0)
    with pytest.raises(KernelRuleViolation, match=r"SyncAll<true>\(\) synchronises the AIV cores; in a MIX kernel the "
                                                  r"AIC takes part in SyncAll<false>\(\)"):
        exchange(lib, "mix_sync_all", 2, fault=1)
    with pytest.raises(KernelRuleViolation, match=r"the cores meeting at one SyncAll agree on how many cores it "
                                                  r"synchronises"):
        exchange(lib, "mix_sync_all", 2, fault=2)


def test_workspace_form_of_sync_all_in_a_mix_kernel(lib):
    lib.launch("mix_soft_sync_all", 2, sync=torch.zeros(64, dtype=torch.int32), fault=0)
    with pytest.raises(KernelRuleViolation, match=r"the twin models the workspace form of SyncAll in kernels of one "
                                                  r"core per block"):
        lib.launch("mix_soft_sync_all", 2, sync=torch.zeros(64, dtype=torch.int32), fault=1)


def test_workspace_form_rules(lib):
    dirty = torch.zeros(4 * CHUNK, dtype=torch.int32)
    dirty[2 * CHUNK] = 5
    with pytest.raises(KernelRuleViolation, match=r"core 2, SyncAll\(gmWorkspace, ubWorkspace, usedCores\): broke "
                                                  r"the rule 'SyncAll's gmWorkspace is zeroed before the first "
                                                  r"SyncAll'.*holds 5 before its SyncAll number 1"):
        exchange(lib, "exchange_soft", 4, sync=dirty, usedCores=0)
    with pytest.raises(KernelRuleViolation, match=r"SyncAll's gmWorkspace holds at least GetBlockNum\(\) \* 32 bytes"):
        exchange(lib, "exchange_soft", 4, sync=torch.zeros(3 * CHUNK, dtype=torch.int32), usedCores=0)
    with pytest.raises(KernelRuleViolation, match=r"SyncAll's usedCores is 0 \(every core\) or at most GetBlockNum"):
        exchange(lib, "exchange_soft", 4, sync=torch.zeros(4 * CHUNK, dtype=torch.int32), usedCores=5)
    with pytest.raises(KernelRuleViolation, match=r"core 2, .*only the first usedCores cores call SyncAll"):
        exchange(lib, "exchange_soft", 4, sync=torch.zeros(4 * CHUNK, dtype=torch.int32), usedCores=2)


@pytest.mark.parametrize("cores", [2, 5])
def test_workspace_zeroed_by_every_core_is_legal_even_over_stale_counts(lib, cores):
    # Every core writes the same bytes (zeros) before its first SyncAll: the documented kernel-side zeroing,
    # not a race; the stale counts of an earlier launch do not matter then.
    stale = torch.randint(1, 5, (cores * CHUNK,), dtype=torch.int32)
    x, y, _ = exchange(lib, "exchange_soft_every_core_zeroes", cores, sync=stale)
    assert torch.equal(y, expected_exchange(x, cores))
    assert stale.view(cores, CHUNK)[:, 0].tolist() == [2] * cores


@pytest.mark.parametrize("host_zeroed", [False, True])
def test_workspace_zeroed_slot_by_slot_is_a_violation(lib, host_zeroed):
    sync = torch.zeros(4 * CHUNK, dtype=torch.int32) if host_zeroed else torch.ones(4 * CHUNK, dtype=torch.int32)
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'a core that zeroes SyncAll's gmWorkspace zeroes "
                                                  r"all of it \(every core: SyncAll docs\)'.*wrote bytes \[\d+, \d+\) "
                                                  r"of the 128 bytes of slots SyncAll polls"):
        exchange(lib, "exchange_soft_own_slot_zeroed", 4, sync=sync)


def test_workspace_zeroed_by_one_core_only_is_a_violation(lib):
    with pytest.raises(KernelRuleViolation, match=r"SyncAll\(gmWorkspace, ubWorkspace, usedCores\): broke the rule "
                                                  r"'either the host zeroes SyncAll's gmWorkspace or every core "
                                                  r"zeroes all of it \(SyncAll docs\)'.*core 0 zeroed the workspace"):
        exchange(lib, "exchange_soft_core0_zeroes", 3, sync=torch.zeros(3 * CHUNK, dtype=torch.int32))


def test_init_global_memory_then_atomic_accumulation(lib):
    cores = 4
    x = torch.randint(-50, 50, (cores * CHUNK,)).float()
    y = torch.full_like(x, -7.0)
    stats = lib.launch("init_then_accumulate", cores, x=x, y=y)
    expected = torch.arange(cores).float().repeat_interleave(CHUNK) + x.view(cores, CHUNK).roll(1, 0).reshape(-1)
    assert torch.equal(y, expected)
    assert stats.total.gm_bytes_written == 2 * 32 * cores


def test_init_global_memory_after_init_buffer_is_a_violation(lib):
    with pytest.raises(KernelRuleViolation, match=r"InitGlobalMemory/Fill is called before the kernel's first "
                                                  r"InitBuffer"):
        lib.launch("init_after_init_buffer", 1, x=torch.zeros(8), y=torch.zeros(8))


def test_writes_ordered_by_sync_all_may_overlap(lib):
    x = torch.arange(16).float()
    y = torch.zeros(8)
    lib.launch("overwrite_after_sync", 2, x=x, y=y)
    assert torch.equal(y, x[8:])


# IBSet/IBWait (kernel ib_chain): the running sum of x's chunks passed from core to core.
def ib_chain(lib, cores, sync, set_event=0, wait_event=0, with_wait=1):
    x = torch.randint(-50, 50, (cores * CHUNK,)).float()  # integers: sums are exact
    ws = torch.full((cores * CHUNK,), float("nan"))
    lib.launch("ib_chain", cores, x=x, ws=ws, sync=sync, setEvent=set_event, waitEvent=wait_event,
               withWait=with_wait)
    return x, ws


def ib_workspace_bytes(cores, max_event, max_block):
    return cores * 32 * max_event + max_block * 32 + 32  # the IBSet docs' minimum


@pytest.mark.parametrize("cores,event", [(2, 0), (5, 0), (8, 1), (48, 2)])
def test_ib_set_wait_pass_a_running_sum_from_core_to_core(lib, cores, event):
    sync = torch.zeros(ib_workspace_bytes(cores, event, cores - 2) // 4, dtype=torch.int32)  # exactly the minimum
    x, ws = ib_chain(lib, cores, sync, event, event)
    expected = x.double().view(cores, CHUNK).cumsum(0).reshape(-1)
    assert torch.equal(ws.double(), expected)
    assert not sync.any()  # every IBSet's 1 was taken back to 0 by its IBWait


def test_ib_wait_left_out_is_a_cross_core_race(lib):
    with pytest.raises(KernelRuleViolation, match=r"core 1 read bytes \[0, 32\) of GM buffer 'ws', which core 0 wrote "
                                                  r"in this launch"):
        ib_chain(lib, 3, torch.zeros(3 * CHUNK, dtype=torch.int32), with_wait=0)


def test_ib_wait_nobody_sets_is_reported_as_a_hang(lib):
    with pytest.raises(KernelRuleViolation) as info:
        ib_chain(lib, 3, torch.zeros(6 * CHUNK, dtype=torch.int32), set_event=0, wait_event=1)
    message = str(info.value)
    assert "every wait of a core is released by another core" in message
    assert "core 1 at IBWait<true>(blockIdx 0, eventID 1), whose slot never holds 1" in message
    assert "on the NPU the kernel hangs" in message


def test_ib_set_wait_workspace_rules(lib):
    short = ib_workspace_bytes(4, 1, 2) // 4 - 1  # one int32 short of the minimum
    with pytest.raises(KernelRuleViolation, match=r"IBSet<true>: broke the rule 'IBSet/IBWait's gmWorkspace holds at "
                                                  r"least core count \* 32 \* eventID_max"):
        ib_chain(lib, 4, torch.zeros(short, dtype=torch.int32), 1, 1)
    dirty = torch.zeros(4 * CHUNK, dtype=torch.int32)
    dirty[CHUNK] = 1  # core 1's slot still holds a set from an earlier launch
    with pytest.raises(KernelRuleViolation, match=r"gmWorkspace is zeroed before the launch.*slot of blockIdx 1, "
                                                  r"eventID 0 \(gmWorkspace bytes \[32, 64\)\) holds 1 at its first use"):
        ib_chain(lib, 4, dirty)
    with pytest.raises(KernelRuleViolation, match=r"IBSet<true>: broke the rule 'IBSet/IBWait's eventID selects a row"):
        ib_chain(lib, 2, torch.zeros(4 * CHUNK, dtype=torch.int32), -1, -1)


ASCCHK = os.path.join(os.environ.get("ASCCHK_DIR", "/tmp/ascchk"), "check_kernel.sh")


@pytest.mark.skipif(not os.access(ASCCHK, os.X_OK), reason="the ascchk checkers (real Ascend C headers) are not built")
def test_sync_forms_compile_against_the_real_headers():
    # SyncAll's two forms, IBSet/IBWait, InitGlobalMemory as this file's kernels call them (not in CI).
    proc = subprocess.run(["bash", ASCCHK, os.path.join(KERNELS, "sync_all.cpp"), "--mode", "aiv"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

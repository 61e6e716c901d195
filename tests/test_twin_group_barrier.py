"""GroupBarrier (Arrive/Wait rounds between two groups of AIVs, through a zeroed GM workspace) and InitOutput on
the twin: the rounds order the groups' GM accesses (a wait core reading without Wait races), and the docs'
rules stop the launch (index, sizes, workspace zeroed and 512-byte aligned, the UB the barrier's messages
use); a group that never completes is reported as a hang."""
import os
import random

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

SOURCE = os.path.join(os.path.dirname(__file__), "kernels", "group_barrier.cpp")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([SOURCE])


def rounds_run(lib, arrive, wait, rounds, fault=0, ws_bytes=None, ws_fill=0):
    lines = max(arrive, wait)
    ws = torch.full(((ws_bytes or lines * 512 + 512) // 4,), ws_fill, dtype=torch.int32)
    data = torch.zeros(rounds * arrive * 8, dtype=torch.int32)
    res = torch.full((rounds * wait * 8 + 32,), -1, dtype=torch.int32)
    lib.launch("group_rounds", arrive + wait, ws=ws, data=data, res=res, arrive=arrive, wait=wait, rounds=rounds,
               fault=fault)
    return ws, data, res


@pytest.mark.parametrize("arrive, wait", [(2, 6), (3, 1), (1, 4), (4, 4)])
@pytest.mark.parametrize("rounds", [1, 2, 5])
def test_rounds_pass_each_group_the_other_s_results(lib, arrive, wait, rounds):
    ws, data, res = rounds_run(lib, arrive, wait, rounds)
    for r in range(rounds):
        values = [(r + 1) * 100 + a for a in range(arrive)]
        assert data[r * arrive * 8:(r + 1) * arrive * 8].view(arrive, 8).tolist() == [[v] * 8 for v in values]
        assert res[r * wait * 8:(r + 1) * wait * 8].tolist() == [sum(values)] * (wait * 8)
    assert res[(rounds * wait * 8 + 15) // 16 * 16].item() == max(arrive, wait) * 512  # GetWorkspaceLen
    # The counters: every member's line counted rounds * arriveSize arrivals and rounds * waitSize waits.
    lines = ws.view(-1, 128)
    for i in range(max(arrive, wait)):
        assert lines[i, 0].item() == rounds * arrive and lines[i, 16].item() == rounds * wait


@pytest.mark.parametrize("fault, kwargs, rule", [
    (1, {}, "a core reads GM another core writes in the same launch only after"),
    (2, {}, r"Arrive's arriveIndex is in \[0, arriveSize - 1\]"),
    (0, {"ws_fill": 3}, "groupWorkspace is zeroed before its first use"),
    (4, {}, "groupWorkspace is 512-byte aligned"),
    (5, {}, "arriveSizeIn and waitSizeIn are at most GetBlockNum"),
    (6, {}, "GroupBarrier keeps its messages in the last 50 \\* 32 bytes of UB"),
    (0, {"ws_bytes": 1024}, "groupWorkspace holds GetWorkspaceLen"),
    (9, {}, "GroupBarrier's arriveSizeIn and waitSizeIn are larger than 0"),
    (10, {}, r"Wait's waitIndex is in \[0, waitSize - 1\]"),
])
def test_group_barrier_rules(lib, fault, kwargs, rule):
    with pytest.raises(KernelRuleViolation, match=rule):
        rounds_run(lib, 2, 6, 1, fault=fault, **kwargs)


def test_a_missing_arrive_is_a_hang(lib):
    with pytest.raises(KernelRuleViolation, match=r"GroupBarrier::Wait\(\d\) of round 1, waiting for 2 Arrives"):
        rounds_run(lib, 2, 3, 1, fault=7)


def test_init_output_sets_each_core_s_part(lib):
    n = random.randint(1, 5000)
    value = random.uniform(-100, 100)
    out = torch.randn(4 * n + 16)
    tail = out[4 * n:].clone()
    lib.launch("init_output", 4, out=out, n=n, value=value, fault=0)
    assert torch.equal(out[:4 * n], torch.full((4 * n,), value, dtype=torch.float32))
    assert torch.equal(out[4 * n:], tail)


@pytest.mark.parametrize("fault, rule", [
    (1, "InitOutput stays inside its GlobalTensor"),
    (2, "InitOutput duplicates value in the UB after the TPipe's buffers"),
])
def test_init_output_rules(lib, fault, rule):
    with pytest.raises(KernelRuleViolation, match=rule):
        lib.launch("init_output", 1, out=torch.zeros(64), n=16, value=1.0, fault=fault)

"""Sharded data-parallel training (FSDP2, torch.distributed.fsdp.fully_shard) of a model converted with
ascend_ext.nn.convert: 2 processes on gloo with CPU tensors end where one process does on the same global
batch, and raise no warning (FSDP2 warns when a sharded module returns a view; ascend_ext.nn.Linear
returns a tensor of its own).

On NPUs the same code runs on hccl (``init_device_mesh("npu", ...)``; ``python -m ascend_ext demo --fsdp 2
--device npu``); it is not run here: this machine has no NPU.
"""
import dataclasses

import pytest
import torch

from ascend_ext.training import TrainConfig, converted_native, run_data_parallel, train
from conftest import NPU_AVAILABLE, NPU_SKIP_REASON


def test_two_sharded_processes_match_one_and_warn_nothing():
    seed = int(torch.randint(0, 2**31 - 1, ()).item())
    cfg = TrainConfig(steps=5, batch=32, width=32, depth=2, lr=1e-2, seed=seed, eval_every=10**9, eval_size=64)
    parallel = run_data_parallel(cfg, world=2, worker="fsdp_converted")

    single_model = converted_native(cfg)
    initial = {k: v.clone() for k, v in single_model.state_dict().items()}
    single = train(single_model, dataclasses.replace(cfg))

    sharded = parallel["converted"].state_dict
    assert sharded.keys() == single.state_dict.keys()
    moved = max((single.state_dict[k] - initial[k]).abs().max().item() for k in initial)
    assert moved > 1e-3, "training did not change the parameters: the comparison would prove nothing"
    for name, expected in single.state_dict.items():
        # Gradients are reduce-scattered (averaged in another order): float32 rounding only.
        torch.testing.assert_close(sharded[name], expected, rtol=1e-4, atol=1e-5, msg=lambda m: f"{name}: {m}")
    torch.testing.assert_close(torch.tensor(parallel["converted"].losses), torch.tensor(single.losses),
                               rtol=1e-4, atol=1e-5)
    assert parallel["warnings"] == []


@pytest.mark.skipif(not NPU_AVAILABLE, reason=NPU_SKIP_REASON)
def test_two_sharded_processes_on_npus_with_hccl():
    cfg = TrainConfig(steps=5, batch=32, width=32, depth=2, lr=1e-2, device="npu", eval_every=10**9, eval_size=64)
    parallel = run_data_parallel(cfg, world=2, worker="fsdp_converted")
    assert parallel["warnings"] == [] and len(parallel["converted"].losses) == 5

"""Data-parallel training with our layers: 2 processes (gloo, CPU tensors, a file:// rendezvous in a
temporary directory) end where one process does on the same global batch.

On NPUs the same code runs with hccl: `torchrun --nproc-per-node 2 ...` or `python -m ascend_ext demo
--ddp 2 --device npu` (see the README).
"""
import dataclasses
import os

import pytest
import torch

from ascend_ext.models import build_pair
from ascend_ext.training import TrainConfig, run_data_parallel, train

EXHAUSTIVE = os.environ.get("ASCEND_EXT_EXHAUSTIVE") == "1"


@pytest.mark.parametrize("optimizer", ["adam", "sgd"] if EXHAUSTIVE else ["adam"])
def test_two_processes_match_one_on_the_same_global_batch(optimizer):
    # Fresh seeds each run: initialisation and data differ from run to run.
    seed = int(torch.randint(0, 2**31 - 1, ()).item())
    cfg = TrainConfig(steps=40 if EXHAUSTIVE else 6, batch=32, width=32, depth=2, optimizer=optimizer, lr=1e-2,
                      seed=seed, eval_every=10**9, eval_size=64)
    parallel = run_data_parallel(cfg, world=2, worker="ours")

    single_model, _ = build_pair(seed, **cfg.sizes())
    initial = {k: v.clone() for k, v in single_model.state_dict().items()}
    single = train(single_model, dataclasses.replace(cfg))

    ddp_state = parallel["ours"].state_dict
    assert ddp_state.keys() == single.state_dict.keys()
    moved = max((single.state_dict[k] - initial[k]).abs().max().item() for k in initial)
    assert moved > 1e-3, "training did not change the parameters: the comparison would prove nothing"
    for name, expected in single.state_dict.items():
        # Gradients are averaged in another order than one process sums them: float32 rounding only. Adam divides
        # each step by the gradient's running magnitude, so an element whose gradient is within rounding of zero
        # can take a visibly different (still bounded by lr) step: such rare elements may leave the tight
        # tolerance (one element of 2048, in one run of about forty here), by less than one step. A wrong
        # reduction moves many elements, and the losses below.
        got = ddp_state[name]
        loose = ~torch.isclose(got, expected, rtol=1e-4, atol=1e-5)
        if optimizer != "adam" or loose.sum().item() > max(1, expected.numel() // 1000):
            torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-5, msg=lambda m: f"{name}: {m}")
        assert ((got - expected).abs()[loose] < cfg.lr).all(), f"{name}: an element moved by a whole step or more"
    torch.testing.assert_close(torch.tensor(parallel["ours"].losses), torch.tensor(single.losses),
                               rtol=1e-4, atol=1e-5)

    # Bucketing: with gradient_as_bucket_view=True every gradient our ops produce became a view into a
    # DDP bucket laid out like its parameter, and DDP never warned about mismatched strides.
    assert parallel["grad_layouts_match"]
    assert not [w for w in parallel["warnings"] if "stride" in w.lower()], parallel["warnings"]


def test_uneven_global_batch_is_refused_before_spawning():
    with pytest.raises(ValueError, match="global batch 15 does not split evenly over 2 processes"):
        run_data_parallel(TrainConfig(steps=1, batch=15), world=2, worker="ours")

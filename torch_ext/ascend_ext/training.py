"""Training the demo model: one loop for every option (AMP, data-parallel, torch.compile) and device.

``train`` runs on one process or as one rank of a process group; ``run_data_parallel`` spawns the ranks
(gloo with CPU tensors, hccl on NPUs) with a ``file://`` rendezvous in a temporary directory. The ranks
replicate the model (DDP) or shard it (FSDP2, ``torch.distributed.fsdp.fully_shard``).
"""
import contextlib
import dataclasses
import datetime
import os
import tempfile
from typing import Callable, Dict, List, Optional

import torch
import torch.distributed as dist

from .models import TeacherTask, build_pair

AMP_DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}


@dataclasses.dataclass
class TrainConfig:
    steps: int = 300
    batch: int = 128  # the global batch: data-parallel ranks each take batch / world of it
    lr: float = 3e-3
    optimizer: str = "adam"  # or "sgd"
    amp: Optional[str] = None  # None, "bf16" or "fp16" (fp16 with a GradScaler)
    compile: Optional[str] = None  # None or a torch.compile backend ("inductor", "aot_eager")
    device: str = "cpu"
    seed: int = 0
    d_in: int = 32
    width: int = 64
    depth: int = 2
    classes: int = 8
    eval_every: int = 25
    eval_size: int = 2048
    progress: bool = False  # a tqdm bar (on rank 0)

    def sizes(self) -> Dict[str, int]:
        return dict(d_in=self.d_in, width=self.width, depth=self.depth, classes=self.classes)


@dataclasses.dataclass
class TrainResult:
    losses: List[float]  # per step, of the global batch
    eval_steps: List[int]
    accuracies: List[float]  # held-out accuracy at eval_steps
    final_loss: float  # held-out
    final_accuracy: float
    state_dict: Dict[str, torch.Tensor]
    # Per twin kernel, summed over the training steps (empty off the twin): launches, gm_bytes_read,
    # gm_bytes_written, cube_macs, vector_element_ops.
    counters: Dict[str, Dict[str, int]] = dataclasses.field(default_factory=dict)


def autocast(cfg: TrainConfig):
    if cfg.amp is None:
        return contextlib.nullcontext()
    return torch.autocast(cfg.device.split(":")[0], dtype=AMP_DTYPES[cfg.amp])


def grad_scaler(cfg: TrainConfig) -> Optional[torch.amp.GradScaler]:
    """float16 needs loss scaling; bfloat16 has float32's range and does not."""
    return torch.amp.GradScaler(cfg.device.split(":")[0]) if cfg.amp == "fp16" else None


def make_optimizer(cfg: TrainConfig, params) -> torch.optim.Optimizer:
    if cfg.optimizer == "adam":
        return torch.optim.Adam(params, lr=cfg.lr)
    if cfg.optimizer == "sgd":
        return torch.optim.SGD(params, lr=cfg.lr, momentum=0.9)
    raise ValueError(f"optimizer must be 'adam' or 'sgd', got {cfg.optimizer!r}")


def evaluate(model: torch.nn.Module, task: TeacherTask, cfg: TrainConfig):
    x, y = task.batch(-1, cfg.eval_size)
    with torch.no_grad(), autocast(cfg):
        logits = model(x.to(cfg.device)).float()
    loss = torch.nn.functional.cross_entropy(logits, y.to(cfg.device)).item()
    return loss, (logits.argmax(-1).cpu() == y).float().mean().item()


def add_counters(totals: Dict[str, Dict[str, int]], launches) -> None:
    for launch in launches:
        t, c = totals.setdefault(launch.kernel, dict.fromkeys(COUNTERS, 0)), launch.total
        t["launches"] += 1
        t["gm_bytes_read"] += c.gm_bytes_read
        t["gm_bytes_written"] += c.gm_bytes_written
        t["cube_macs"] += c.cube_macs
        t["vector_element_ops"] += sum(c.vector_element_ops.values())


COUNTERS = ("launches", "gm_bytes_read", "gm_bytes_written", "cube_macs", "vector_element_ops")


def train(model: torch.nn.Module, cfg: TrainConfig, task: Optional[TeacherTask] = None,
          on_step: Optional[Callable[[int, float], None]] = None, count_launches: bool = False,
          label: str = "train") -> TrainResult:
    """Trains ``model`` (already on ``cfg.device``; wrapped in DDP when a process group is up) for
    ``cfg.steps`` steps of ``cfg.batch`` samples. ``on_step(step, loss)`` is called after every step;
    ``count_launches`` sums the twin's counters of every training step per kernel; ``label`` names the
    progress bar."""
    from . import twin

    task = task or TeacherTask(cfg.d_in, cfg.classes)
    rank, world = (dist.get_rank(), dist.get_world_size()) if dist.is_initialized() else (0, 1)
    if cfg.batch % world:
        raise ValueError(f"the global batch {cfg.batch} does not split evenly over {world} processes")
    module = model.module if isinstance(model, torch.nn.parallel.DistributedDataParallel) else model
    step_model = torch.compile(model, backend=cfg.compile, fullgraph=world == 1) if cfg.compile else model
    opt = make_optimizer(cfg, model.parameters())
    scaler = grad_scaler(cfg)
    losses, eval_steps, accuracies, counters = [], [], [], {}
    count_launches = count_launches and cfg.device == "cpu"
    bar = None
    if cfg.progress and rank == 0:
        from tqdm import tqdm

        bar = tqdm(total=cfg.steps, desc=label, unit="step", leave=True, dynamic_ncols=True)
    for step in range(cfg.steps):
        recording = twin.record() if count_launches else contextlib.nullcontext()
        with recording as rec:
            loss = _step(step_model, opt, scaler, task, cfg, step, rank, world)
        if count_launches:
            add_counters(counters, rec.launches)
        reported = loss.detach()
        if world > 1:  # the global batch's loss, as a single process would see it
            dist.all_reduce(reported)
            reported = reported / world
        losses.append(reported.item())
        if on_step is not None:
            on_step(step, losses[-1])
        if bar is not None:
            bar.update()
            bar.set_postfix(loss=f"{losses[-1]:.3f}", refresh=False)
        if (step + 1) % cfg.eval_every == 0 or step + 1 == cfg.steps:
            eval_steps.append(step + 1)
            accuracies.append(evaluate(module, task, cfg)[1])
    if bar is not None:
        bar.close()
    final_loss, final_accuracy = evaluate(module, task, cfg)
    state = {k: _full(v).detach().cpu().clone() for k, v in module.state_dict().items()}
    return TrainResult(losses, eval_steps, accuracies, final_loss, final_accuracy, state, counters)


def _full(t: torch.Tensor) -> torch.Tensor:
    """A parameter as one tensor: FSDP2 holds each rank's shard as a DTensor (gathering is collective, so
    every rank calls this)."""
    from torch.distributed.tensor import DTensor

    return t.full_tensor() if isinstance(t, DTensor) else t


def _step(model, opt, scaler, task: TeacherTask, cfg: TrainConfig, step: int, rank: int, world: int) -> torch.Tensor:
    x, y = task.batch(step, cfg.batch)
    x, y = x.chunk(world)[rank].to(cfg.device), y.chunk(world)[rank].to(cfg.device)
    opt.zero_grad(set_to_none=True)
    with autocast(cfg):
        loss = torch.nn.functional.cross_entropy(model(x).float(), y)
    if scaler is not None:
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    else:
        loss.backward()
        opt.step()
    return loss


# ---- data-parallel ------------------------------------------------------------------------------------


def _backend(device: str) -> str:
    return "hccl" if device.startswith("npu") else "gloo"


def _rank_main(rank: int, world: int, init_file: str, cfg: TrainConfig, out_path: str, worker: str) -> None:
    os.environ.setdefault("ASCEND_TWIN_THREADS", "1")  # ranks share the machine's cores
    torch.set_num_threads(1)
    device = cfg.device
    if device.startswith("npu"):
        import torch_npu  # noqa: F401

        torch.npu.set_device(rank)
        device = f"npu:{rank}"
    cfg = dataclasses.replace(cfg, device=device)
    dist.init_process_group(_backend(device), init_method=f"file://{init_file}", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=120))
    try:
        results = WORKERS[worker](cfg, rank)
        if rank == 0:
            torch.save(results, out_path)
    finally:
        dist.destroy_process_group()
    _exit_without_finalizing()


def _exit_without_finalizing() -> None:
    """Ends a rank that finished cleanly without finalizing its interpreter. Gloo's worker threads outlive
    ``destroy_process_group`` (ProcessGroupGloo has no shutdown) and drop each finished collective a moment
    after its waiter has returned; when that collective held the last reference to a tensor Python had
    released, the drop takes the GIL. A thread that asks for the GIL while the interpreter finalizes is ended
    by CPython, which the C++ runtime turns into an abort ("terminate called without an active exception",
    seen in about 1 of 15 FSDP2 runs on the rank that exits first). The results are written and the streams
    flushed before the process ends; a rank that failed raises instead, so spawn reports its traceback."""
    import sys

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


def fully_shard_model(model: torch.nn.Module, device: str) -> torch.nn.Module:
    """FSDP2 over every rank of the process group: each child that holds parameters is a unit of its own
    (gathered for its forward and backward, then freed), the root takes the rest. The model is sharded in
    place (``fully_shard`` changes its class) and returned."""
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import fully_shard

    mesh = init_device_mesh(device.split(":")[0], (dist.get_world_size(),))
    for child in model.children():
        if next(child.parameters(), None) is not None:
            fully_shard(child, mesh=mesh)
    return fully_shard(model, mesh=mesh)


def _parallel(model: torch.nn.Module, cfg: TrainConfig, how: str) -> torch.nn.Module:
    from torch.nn.parallel import DistributedDataParallel as DDP

    model = model.to(cfg.device)
    return fully_shard_model(model, cfg.device) if how == "fsdp" else DDP(model, device_ids=None)


def _train_pair(cfg: TrainConfig, rank: int, how: str = "ddp") -> Dict[str, TrainResult]:
    """Ours and native from one initialisation, each wrapped in DDP or sharded with FSDP2."""
    results = {}
    for name, model in zip(("ours", "native"), build_pair(cfg.seed, **cfg.sizes())):
        results[name] = train(_parallel(model, cfg, how), cfg, count_launches=name == "ours" and rank == 0,
                              label=name)
    return results


def converted_native(cfg: TrainConfig) -> torch.nn.Module:
    """The native model with its Linears converted to ascend_ext's (``ascend_ext.nn.convert``)."""
    from . import nn as ext_nn

    _, native = build_pair(cfg.seed, **cfg.sizes())
    return ext_nn.convert(native, strict=True)


def _train_fsdp_converted(cfg: TrainConfig, rank: int) -> Dict[str, object]:
    """A converted native model sharded with FSDP2; also reports every warning raised (FSDP2 warns when a
    sharded module returns a view)."""
    import warnings

    model = _parallel(converted_native(cfg), cfg, "fsdp")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = train(model, cfg)
    return {"converted": result, "warnings": [f"{w.category.__name__}: {w.message}" for w in caught]}


def _train_ours(cfg: TrainConfig, rank: int) -> Dict[str, object]:
    """Ours alone, with gradients as views into DDP's buckets; also reports every warning raised (DDP
    warns when a gradient's strides differ from its bucket view's) and whether each gradient still has
    its parameter's strides."""
    import warnings

    from torch.nn.parallel import DistributedDataParallel as DDP

    ours, _ = build_pair(cfg.seed, **cfg.sizes())
    ddp = DDP(ours.to(cfg.device), gradient_as_bucket_view=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = train(ddp, cfg)
    layouts_match = all(p.grad is not None and p.grad.stride() == p.stride() for p in ours.parameters())
    return {"ours": result, "warnings": [str(w.message) for w in caught], "grad_layouts_match": layouts_match}


WORKERS = {"pair": _train_pair, "ours": _train_ours,
           "fsdp_pair": lambda cfg, rank: _train_pair(cfg, rank, "fsdp"), "fsdp_converted": _train_fsdp_converted}


def run_data_parallel(cfg: TrainConfig, world: int = 2, worker: str = "pair") -> Dict[str, object]:
    """Spawns ``world`` processes that train as one data-parallel job (``worker``: "pair", ours and native
    with DDP; "fsdp_pair", the same sharded with FSDP2; "ours", "fsdp_converted": the tests' probes);
    returns rank 0's results."""
    import torch.multiprocessing as mp

    if world < 1 or cfg.batch % world:
        raise ValueError(f"the global batch {cfg.batch} does not split evenly over {world} processes")
    with tempfile.TemporaryDirectory(prefix="ascend_ext_ddp_") as tmp:
        out_path = os.path.join(tmp, "results.pt")
        mp.spawn(_rank_main, args=(world, os.path.join(tmp, "rendezvous"), cfg, out_path, worker), nprocs=world,
                 join=True)
        return torch.load(out_path, weights_only=False)

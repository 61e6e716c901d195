"""The op contract, checked for every op in op_db.OP_DB by the checks of ascend_ext.testing — the same
checks ascend_ext.testing.check_op runs on a user's op: numerics against float64, opcheck, gradients
(backward, double backward, forward-mode AD, torch.func), vmap in one launch, torch.compile (static,
dynamic, unbacked sizes), torch.export, TorchScript, the profiler and fake tensors.

Each check is generic; what differs between ops lives in the op's entry. A check that does not apply to
an op (no layer, no float64 build, ...) is skipped with its reason.
"""
import pytest

import ascend_ext.testing as at
from op_db import OP_DB


@pytest.mark.parametrize("entry", OP_DB, ids=lambda e: e.name)
@pytest.mark.parametrize("check", list(at.CHECKS))
def test_conformance(entry, check):
    try:
        at.check(entry, check)
    except at.NotApplicable as exc:
        pytest.skip(f"{entry.name}: {exc}")


def test_every_builtin_op_is_declared_and_in_the_database():
    import torch

    from ascend_ext.ops import declarations

    registered = {n.split("::")[1].split(".")[0] for n in torch._C._dispatch_get_all_op_names()
                  if n.startswith("ascend_ext::")}
    declared = {schema.split("::")[1].split("(")[0].split(".")[0]
                for d in declarations() for schema in getattr(d, "schemas", (f"{d.qualname}(",))}
    assert registered == declared, f"registered but not declared: {sorted(registered - declared)}; declared but " \
                                   f"not registered: {sorted(declared - registered)}"
    # In the database: every op whose declaration gives samples; the in-place overload packet and the backward
    # are checked through vector_add (test_vector_add.py) and dispersion_correction (its gradients).
    covered = {e.name for e in OP_DB} | {"vector_add_", "dispersion_correction_backward"}
    assert registered <= covered, f"ops without a conformance entry: {sorted(registered - covered)}"

"""examples/custom_op, the worked example of a user's own op (an RMSNorm in Ascend C, declared with
ascend_ext.library): its conformance check and a short training next to torch.nn.RMSNorm, as CI runs them;
the tiling's UB limit against the twin's; planted faults in copies of the kernel that the check must catch."""
import importlib.util
import os
import re
import shutil
import sys

import pytest
import torch

import ascend_ext.testing as at

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "examples", "custom_op")
sys.path.insert(0, os.path.abspath(EXAMPLE))
import rms_norm  # noqa: E402  the example's declarations (torch.ops.my_ops.*)


def load(name, folder=EXAMPLE, as_name=None):
    spec = importlib.util.spec_from_file_location(as_name or f"custom_op_{name}", os.path.join(folder, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check, train = load("check"), load("train")


def test_the_example_passes_check_op():
    reports = check.check(verbose=False)
    for op, report in reports.items():
        failed_or_missing = {k: v for k, v in report.items() if v != "ok" and not v.startswith("n/a")}
        assert not failed_or_missing, (op, failed_or_missing)
    forward, backward = reports["rms_norm"], reports["rms_norm_backward"]
    for name in ("matches_float64_reference", "float64_on_the_twin", "gradcheck_and_gradgradcheck",
                 "forward_ad_matches_the_reference_jvp", "torch_func_grad_and_hessian", "vmap_matches_a_loop",
                 "compile_fullgraph_inductor", "compile_with_dynamic_shapes", "export_round_trip",
                 "layer_scripts_and_survives_save_load"):
        assert forward[name] == "ok", (name, forward[name])
    for name in ("matches_float64_reference", "float64_on_the_twin", "gradcheck_and_gradgradcheck",
                 "forward_ad_matches_the_reference_jvp", "opcheck"):
        assert backward[name] == "ok", (name, backward[name])


def test_the_example_trains_like_torch_rmsnorm():
    ours, reference = train.compare(steps=25)
    assert ours[-1] < 0.2 * ours[0], ours  # it learns
    for step, (a, b) in enumerate(zip(ours, reference)):
        assert abs(a - b) <= 1e-5 * abs(b) + 1e-6, f"step {step + 1}: {a} vs torch.nn.RMSNorm {b}"


def test_many_rows_run_on_every_core_in_groups():
    x, gamma = torch.randn(1000, 40), torch.randn(40)
    y, rstd = rms_norm.rms_norm(x, gamma)
    stats = rms_norm.rms_norm.last_launch_stats()
    assert stats.block_dim == 48 and all(c.gm_bytes_written > 0 for c in stats.cores)
    ref_y, ref_rstd = check.reference(x.double(), gamma.double())
    torch.testing.assert_close(y.double(), ref_y, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(rstd.double(), ref_rstd, rtol=1e-6, atol=0)
    grad_y, grad_rstd = torch.randn_like(x), torch.randn_like(rstd)
    grad_x, parts = rms_norm.rms_norm_backward(grad_y, grad_rstd, x, gamma, rstd)
    assert parts.shape == (rms_norm.GROUPS, 40) and rms_norm.rms_norm_backward.last_launch_stats().block_dim == 48
    ref_x, ref_parts = check.backward_reference(grad_y.double(), grad_rstd.double(), x.double(), gamma.double(),
                                                rstd.double())
    torch.testing.assert_close(grad_x.double(), ref_x, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(parts.double(), ref_parts, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64], ids=str)
@pytest.mark.parametrize("backward", [False, True], ids=["forward", "backward"])
def test_the_longest_row_the_tiling_accepts_fills_ub_and_one_block_more_is_refused(dtype, backward):
    """The tiling's UB arithmetic is the kernel's: the longest row it accepts allocates what it predicts, no
    more than the platform's UB (the twin would refuse more); a row one 32-byte block longer is refused."""
    op = rms_norm.rms_norm_backward if backward else rms_norm.rms_norm
    acc = torch.promote_types(dtype, torch.float32)

    def call(d):
        x, gamma = torch.randn(3, d).to(dtype), torch.randn(d).to(dtype)
        if backward:
            return op(torch.randn(3, d).to(dtype), torch.randn(3, dtype=acc), x, gamma, torch.rand(3, dtype=acc) + 0.5)
        return op(x, gamma)

    with pytest.raises(ValueError, match=r"rows of 100000 .* do not fit in the UB of Ascend910B2; .* at most \d+") as e:
        call(100000)
    longest = int(re.search(r"at most (\d+)", str(e.value)).group(1))
    call(longest)
    platform = ascend_ext_platform()
    block = 32 // torch.empty(0, dtype=dtype).element_size()
    predicted = rms_norm._ub_bytes(backward, 1, longest, 32 // block, 8 if dtype == torch.float64 else 4)
    assert op.last_launch_stats().total.ub_bytes_allocated == predicted
    assert predicted <= platform.ub_bytes - platform.ub_api_reserved_bytes
    with pytest.raises(ValueError, match=rf"rows of {longest + block} .* at most {longest} elements"):
        call(longest + block)


def ascend_ext_platform():
    import ascend_ext.library as al

    return al.Platform.named("Ascend910B2")


def test_bad_calls_are_clear_errors():
    x = torch.randn(4, 16)
    with pytest.raises(ValueError, match=r"my_ops::rms_norm: gamma has shape \(15,\); expected \(16,\), the last "
                                         r"dimension of x \(4, 16\)"):
        rms_norm.rms_norm(x, torch.randn(15))
    with pytest.raises(ValueError, match=r"my_ops::rms_norm: gamma has shape \(15,\)"):
        rms_norm.rms_norm(x.to("meta"), torch.randn(15, device="meta"))  # fake tensors too
    with pytest.raises(TypeError, match=r"argument 'gamma' has dtype torch.float16; it must have the dtype of 'x'"):
        rms_norm.rms_norm(x, torch.randn(16).half())
    with pytest.raises(TypeError, match=r"argument 'x' has dtype torch.int32; the kernel is built for float32, "
                                        r"float16, bfloat16, float64"):
        rms_norm.rms_norm(x.int(), torch.randn(16).int())
    with pytest.raises(ValueError, match=r"argument 'x' has rank 0 .* needs rank at least 1"):
        rms_norm.rms_norm(torch.tensor(1.0), torch.randn(1))
    with pytest.raises(ValueError, match=r"my_ops::rms_norm: x \(4, 0\) has rows of 0 elements"):
        rms_norm.rms_norm(torch.randn(4, 0), torch.randn(0))
    with pytest.raises(TypeError, match=r"argument 'rstd' has dtype torch.float16; it must have dtype torch.float32"):
        h = x.half()
        rms_norm.rms_norm_backward(h, torch.randn(4), h, torch.randn(16).half(), torch.rand(4).half())
    y, rstd = rms_norm.rms_norm(torch.randn(0, 8), torch.randn(8))  # no rows: empty results, no error
    assert y.shape == (0, 8) and rstd.shape == (0,)


# ---- planted faults: copies of the example with one line of the kernel changed ----------------------------------

FAULTS = {
    # the row sums skip a tail of fewer than 8 elements: rows of 13 are wrong
    "tail-dropped": ("ReduceSum(sums[i], sq[i * pitch_], tmp, cols);",
                     "ReduceSum(sums[i], sq[i * pitch_], tmp, cols / 8 * 8);",
                     ["matches_float64_reference"], r"matches_float64_reference: AssertionError: rms_norm tail \("),
    # the backward forgets rstd's own gradient: gradcheck of (y, rstd) must see it
    "grad-rstd-ignored": ("(sums.GetValue(i) + grstd.GetValue(i) * rstd.GetValue(i))", "(sums.GetValue(i))",
                          ["gradcheck_and_gradgradcheck"],
                          "gradcheck_and_gradgradcheck: GradcheckError: Jacobian mismatch for output 1 with respect to "
                          "input 0"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_check_op_catches_a_planted_fault_in_the_kernel(fault, tmp_path):
    old, new, checks, failing = FAULTS[fault]
    for name in ("rms_norm.cpp", "rms_norm_tiling.h", "rms_norm.py"):
        shutil.copy(os.path.join(EXAMPLE, name), tmp_path / name)
    kernel = (tmp_path / "rms_norm.cpp").read_text()
    assert kernel.count(old) == 1
    (tmp_path / "rms_norm.cpp").write_text(kernel.replace(old, new))
    ns = f"my_ops_{fault.replace('-', '_')}"
    decl = (tmp_path / "rms_norm.py").read_text().replace("my_ops::", f"{ns}::").replace("torch.ops.my_ops.",
                                                                                         f"torch.ops.{ns}.")
    (tmp_path / "rms_norm.py").write_text(re.sub(r"(?m)^DTYPES = .*$", 'DTYPES = ("float32", "float64")', decl))
    faulty = load("rms_norm", str(tmp_path), as_name=f"custom_op_{ns}")
    skip = [n for n in at.CHECKS if n not in checks]
    with pytest.raises(AssertionError, match=failing):
        at.check_op(faulty.rms_norm, check.samples, check.reference, dtypes=(torch.float32,), skip=skip)
    # the passing counterpart: the example's own kernel passes the same checks
    at.check_op(rms_norm.rms_norm, check.samples, check.reference, dtypes=(torch.float32,), skip=skip)

"""`python -m ascend_ext demo`: trains, reports and plots with tiny arguments; bad arguments are one clear
line and exit status 2."""
import os
import re
import subprocess
import sys
import tomllib

import pytest

from conftest import NPU_AVAILABLE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TINY = ["--steps", "8", "--batch", "16", "--width", "16", "--depth", "1", "--no-progress"]


def run_demo(*args, cwd=None):
    env = dict(os.environ, TORCH_DEVICE_BACKEND_AUTOLOAD="0")
    return subprocess.run([sys.executable, "-m", "ascend_ext", "demo", *args], capture_output=True, text=True,
                          env=env, timeout=300, cwd=cwd)


def report_value(out, label):
    """(ours, native) of a report row such as `held-out accuracy   78.9 %   78.9 %`."""
    line = next(l for l in out.splitlines() if l.strip().startswith(label))
    return [float(v) for v in re.findall(r"\d+\.\d+", line[len(label) + 2:])][:2]


def check_png(path):
    import matplotlib.image

    image = matplotlib.image.imread(path)
    assert image.ndim == 3 and image.shape[0] > 300 and image.shape[1] > 600
    assert image[..., :3].std() > 0.05  # not a blank canvas


@pytest.mark.skipif(NPU_AVAILABLE, reason="describes the CPU twin's report")
def test_report_and_plot(tmp_path):
    plot = tmp_path / "curves.png"
    proc = run_demo(*TINY, "--plot", str(plot))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "on cpu (the CPU twin of Ascend910B2); float32, eager" in out
    ours, native = report_value(out, "held-out loss")
    assert abs(ours - native) < 1e-3 * native  # the same model from one initialisation, float32 rounding apart
    assert 0 <= report_value(out, "held-out accuracy")[0] <= 100
    assert re.search(r"largest parameter difference after training, ours vs native: \d\.\d\de-0[5-9]|: 0\.00e\+00", out)
    for op in ("vector_add", "matmul"):
        assert re.search(rf"\[ ok \] {op} \(float32\): max \|error\| vs float64 = ", out), out
    # One training step of the model launches 3 matmuls per Linear but 2 for the first (no input gradient).
    launches = {m[0]: int(m[1].replace(",", "")) for m in re.findall(r"^  (matmul_cube|vector_add)\s+([\d,]+)", out, re.M)}
    assert launches == {"matmul_cube": 8 * (2 + 3 * 3), "vector_add": 8 * 1}, out
    assert f"loss curves: {plot}" in out
    check_png(plot)


def test_amp_and_compile_options(tmp_path):
    proc = run_demo(*TINY, "--amp", "fp16", "--compile", "aot_eager", "--plot", str(tmp_path / "p.png"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "AMP fp16, torch.compile(aot_eager)" in proc.stdout
    assert re.search(r"\[ ok \] matmul \(float16\)", proc.stdout)


@pytest.mark.parametrize("option,label", [("--ddp", "DDP"), ("--fsdp", "FSDP2")])
def test_data_parallel_options(tmp_path, option, label):
    proc = run_demo(*TINY, option, "2", "--plot", str(tmp_path / "p.png"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{label} x2" in proc.stdout and f"training wall time (both, {label})" in proc.stdout
    ours, native = report_value(proc.stdout, "held-out loss")
    assert abs(ours - native) < 1e-3 * native
    assert "Warning" not in proc.stderr, proc.stderr  # FSDP2 warns of modules that return views; ours do not
    check_png(tmp_path / "p.png")


# ---- the plot, read as a person reads it -------------------------------------------------------------


def fake_result(losses, eval_steps, accuracies):
    from ascend_ext.training import TrainResult

    return TrainResult(losses, eval_steps, accuracies, losses[-1], accuracies[-1], {})


def test_smoothing_is_bias_corrected_and_short_for_short_runs():
    from ascend_ext.demo import smooth, smoothing_span

    assert [smoothing_span(n) for n in (8, 60, 200, 300, 5000)] == [1, 3, 10, 10, 10]
    assert smooth([2.0, 5.0], 1) == [2.0, 5.0]
    losses = [3.0 - 0.02 * i for i in range(60)]  # a falling loss
    smoothed = smooth(losses, 3)
    assert smoothed[0] == losses[0]  # starts at the data, not pulled toward it from zero or the first loss
    constant = smooth([1.7] * 20, 10)
    assert max(abs(v - 1.7) for v in constant) < 1e-12  # no bias at any step
    # On a straight line the smoothed point lags by the weighted mean age of the points averaged,
    # sum(k b^k) / sum(b^k) over k < n with b = 1 - 1/span: at most span - 1 = 2 steps here (the old fixed
    # span of 10, uncorrected, lagged a 60-step run by about 9 and started at the first loss).
    b = 2.0 / 3.0
    for n in range(1, 61):
        expected = sum(k * b**k for k in range(n)) / sum(b**k for k in range(n))
        assert (smoothed[n - 1] - losses[n - 1]) / 0.02 == pytest.approx(expected, abs=1e-9)
        assert expected < 2.0


def test_plot_shows_equal_curves_apart_and_honest_axes():
    from ascend_ext.demo import make_figure
    from ascend_ext.training import TrainConfig

    import matplotlib.pyplot as plt

    cfg = TrainConfig(steps=60, eval_every=5)
    losses = [2.0 * 0.98 ** i + 0.01 * (i % 3) for i in range(60)]
    accuracies = [0.60, 0.62, 0.61] + [0.63] * 9
    steps = list(range(5, 61, 5))
    results = {name: fake_result(losses, steps, accuracies) for name in ("ours", "native")}
    results["native"].losses = [v + (1e-6 if i == 30 else 0.0) for i, v in enumerate(losses)]
    fig = make_figure(cfg, results)
    ax_loss, ax_diff, ax_acc = fig.axes
    # The difference panel shows the one step where the two differ, at its scale.
    (diff_line,) = ax_diff.get_lines()[:1]
    ys = list(diff_line.get_ydata())
    assert ys[30] == pytest.approx(-1e-6) and sum(abs(y) for y in ys) == pytest.approx(1e-6)
    assert ax_diff.get_ylim() == pytest.approx((-1.2e-6, 1.2e-6))
    # Accuracy on its whole range, with the chance level; the noise of a few points is not magnified.
    assert ax_acc.get_ylim() == (0, 100)
    assert any(line.get_label().startswith("chance (12.5 %)") for line in ax_acc.get_lines())
    # The two loss curves are both drawn and told apart (colour and dash).
    labelled = [line for line in ax_loss.get_lines() if not line.get_label().startswith("_")]
    assert len(labelled) == 2 and labelled[0].get_color() != labelled[1].get_color()
    assert labelled[0].get_linestyle() != labelled[1].get_linestyle()
    assert list(labelled[0].get_ydata())[0] == pytest.approx(losses[0])
    plt.close(fig)


@pytest.mark.parametrize("args,message", [
    (["--steps", "0"], "--steps must be at least 1, got 0"),
    (["--ddp", "0"], "--ddp must be at least 1, got 0"),
    (["--batch", "15", "--ddp", "2"], "--batch 15 does not split evenly over --ddp 2 processes"),
    (["--batch", "15", "--fsdp", "2"], "--batch 15 does not split evenly over --fsdp 2 processes"),
    (["--ddp", "2", "--fsdp", "2"], "--ddp 2 and --fsdp 2: choose one way to train data-parallel"),
    (["--compile", "no_such_backend"], "--compile no_such_backend: not a torch.compile backend; known: "),
    (["--plot", "/no/such/dir/p.png"], "--plot /no/such/dir/p.png: directory /no/such/dir does not exist"),
    (["--lr", "-1"], "--lr must be positive, got -1.0"),
    (["--amp", "fp8"], "argument --amp: invalid choice: 'fp8'"),
    pytest.param(["--device", "npu"], "--device npu: no NPU here",
                 marks=pytest.mark.skipif(NPU_AVAILABLE, reason="there is an NPU here")),
])
def test_bad_arguments_are_one_clear_line(args, message, capsys):
    from ascend_ext.__main__ import main

    with pytest.raises(SystemExit) as exit_info:  # what the command line does, without a new process
        main(["demo", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]  # argparse's own errors come after its usage text
    assert last.startswith("ascend-ext demo: error: ") and message in last, err


def test_console_script_is_the_same_command():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        scripts = tomllib.load(f)["project"]["scripts"]
    assert scripts == {"ascend-ext": "ascend_ext.__main__:main"}
    proc = subprocess.run([sys.executable, "-c", "import sys; from ascend_ext.__main__ import main; sys.exit(main())",
                           "demo", "--steps", "-3"], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, TORCH_DEVICE_BACKEND_AUTOLOAD="0"))
    assert proc.returncode == 2 and "ascend-ext demo: error: --steps must be at least 1, got -3" in proc.stderr
    assert "Traceback" not in proc.stderr

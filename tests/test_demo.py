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


def test_data_parallel_option(tmp_path):
    proc = run_demo(*TINY, "--ddp", "2", "--plot", str(tmp_path / "p.png"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "DDP x2" in proc.stdout and "training wall time (both, DDP)" in proc.stdout
    ours, native = report_value(proc.stdout, "held-out loss")
    assert abs(ours - native) < 1e-3 * native
    check_png(tmp_path / "p.png")


@pytest.mark.parametrize("args,message", [
    (["--steps", "0"], "--steps must be at least 1, got 0"),
    (["--ddp", "0"], "--ddp must be at least 1, got 0"),
    (["--batch", "15", "--ddp", "2"], "--batch 15 does not split evenly over --ddp 2 processes"),
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

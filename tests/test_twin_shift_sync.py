"""tests/kernels/shift_sync.cpp (ShiftLeft's count and mask-continuous forms, ShiftRight's mask-bit form with
roundEn, TQueSync) runs on the twin against references computed independently in Python integers, and compiles
against the real Ascend C headers where the ascchk checkers are built (not in CI)."""
import os
import subprocess

import pytest
import torch

import ascend_ext

KERNEL = os.path.join(os.path.dirname(__file__), "kernels", "shift_sync.cpp")
ASCCHK = os.path.join(os.environ.get("ASCCHK_DIR", "/tmp/ascchk"), "check_kernel.sh")


def left(a: int, s: int) -> int:
    """int32 a << s keeping the sign bit (the docs' arithmetic left shift): the low 31 bits doubled s times."""
    low = a % 2**31
    for _ in range(s):
        low = low * 2 % 2**31
    return low - 2**31 if a < 0 else low


def right_rounded(a: int, s: int) -> int:
    return a // 2**s + (a // 2**(s - 1)) % 2


def test_shifts_and_tquesync_on_the_twin():
    lib = ascend_ext.twin.compile_kernels([KERNEL])
    x = torch.randint(-2**31, 2**31 - 1, (192,), dtype=torch.int32)
    y = torch.zeros(192, dtype=torch.int32)
    lib.launch("shift_sync", 1, x=x, y=y)
    xs, ys = x.tolist(), y.tolist()
    want = [left(v, 3) for v in xs[:64]]
    want += [left(v, 30) if i < 40 else v for i, v in enumerate(xs[64:128])]
    want += [right_rounded(v, 4) for v in xs[128:]]
    assert ys == want


@pytest.mark.parametrize("shift,fault", [(33, True), (32, False)])
def test_a_shift_past_the_width_is_refused(tmp_path, shift, fault):
    src = tmp_path / f"shift_{shift}.cpp"
    with open(KERNEL) as f:
        src.write_text(f.read().replace("ShiftLeft(b, a, 3, 64);", f"ShiftLeft(b, a, {shift}, 64);"))
    lib = ascend_ext.twin.compile_kernels([str(src)])
    x, y = torch.full((192,), -5, dtype=torch.int32), torch.zeros(192, dtype=torch.int32)
    if fault:
        with pytest.raises(ascend_ext.twin.KernelRuleViolation,
                           match=r"ShiftLeft: broke the rule 'scalarValue is within \[0, 16\] .* \[0, 32\]"):
            lib.launch("shift_sync", 1, x=x, y=y)
    else:
        lib.launch("shift_sync", 1, x=x, y=y)
        assert y[:64].tolist() == [-2**31] * 64  # by the full width: the sign bit alone


@pytest.mark.skipif(not os.access(ASCCHK, os.X_OK), reason="the ascchk checkers (real Ascend C headers) are not built")
def test_the_kernel_compiles_against_the_real_headers():
    proc = subprocess.run(["bash", ASCCHK, KERNEL, "--mode", "aiv"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

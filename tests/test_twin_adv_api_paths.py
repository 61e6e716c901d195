"""The advanced API at asc-devkit's current paths (adv_api/<family>/<name>.h) as well as at the older lib/ ones:
the forwarding headers match twin/adv_api_paths.txt, the list matches asc-devkit's include/adv_api tree for the
headers the twin implements (where the asc-devkit mirror is present; not in CI), every forwarding header
compiles, a kernel including one runs (and compiles against the real headers where the ascchk checkers are
built), and a kernel including an adv_api/ header the twin does not implement
fails with an error naming the header as not implemented in the twin."""
import os
import subprocess
import sys

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelCompileError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "scripts", "gen_adv_api_paths.py")
ASCCHK = os.path.join(os.environ.get("ASCCHK_DIR", "/tmp/ascchk"), "check_kernel.sh")
DEVKIT = os.environ.get("ASC_DEVKIT_GIT_DIR", "/work/.mirror/cannmirror+asc-devkit/repo")
SDK = os.path.join(os.path.dirname(ascend_ext.__file__), "twin_sdk")


def listed():
    rows = []
    with open(os.path.join(ROOT, "twin", "adv_api_paths.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                rows.append(tuple(line.split()))
    return rows


def test_forwarding_headers_match_the_list():
    proc = subprocess.run([sys.executable, GEN, "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    rows = listed()
    assert len(rows) >= 90 and ("include", "math/asin.h", "math/asin.h") in rows
    assert ("include", "matmul/matmul_intf.h", "matmul_intf.h") in rows
    for side, _, lib in rows:
        assert os.path.isfile(os.path.join(ROOT, "twin", side, "lib", lib)), lib


@pytest.mark.skipif(not os.path.isdir(DEVKIT), reason="the asc-devkit mirror (its include/adv_api tree) is absent")
def test_the_list_matches_asc_devkit_for_the_implemented_headers():
    proc = subprocess.run([sys.executable, GEN, "--check", "--devkit", DEVKIT], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_a_stale_list_is_reported(tmp_path, monkeypatch):
    # The checker fails when a forwarding header is missing: the list names one the tree does not have.
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import gen_adv_api_paths as gen
    bad = tmp_path / "adv_api_paths.txt"
    with open(gen.LIST) as f:
        bad.write_text(f.read() + "include math/not_a_header.h math/asin.h\n")
    monkeypatch.setattr(gen, "LIST", str(bad))
    assert gen.main(["--check"]) == 1
    monkeypatch.setattr(gen, "LIST", os.path.join(ROOT, "twin", "adv_api_paths.txt"))
    assert gen.main(["--check"]) == 0


@pytest.mark.parametrize("side", ["include", "host_include"])
def test_every_forwarding_header_compiles(tmp_path, side):
    src = tmp_path / f"all_{side}.cpp"
    head = '#include "kernel_operator.h"\n' if side == "include" else ""
    src.write_text(head + "".join(f'#include "adv_api/{adv}"\n' for s, adv, _ in listed() if s == side))
    flags = ["-I", os.path.join(SDK, "include")] if side == "include" else [
        "-I", os.path.join(SDK, "host_include"), "-I", os.path.join(SDK, "include")]
    proc = subprocess.run([os.environ.get("CXX", "g++"), "-std=c++17", "-fsyntax-only", *flags, str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


KERNEL = '''#include "kernel_operator.h"
#include "adv_api/math/{name}.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void adv_path(GM_ADDR x, GM_ADDR y)
{{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, 256 * sizeof(float));
    pipe.InitBuffer(by, 256 * sizeof(float));
    LocalTensor<float> a = bx.Get<float>(), b = by.Get<float>();
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    DataCopy(a, xg, 256);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Asin(b, a, 256);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yg, b, 256);
}}
'''


def test_a_kernel_including_the_current_path_runs(tmp_path):
    src = tmp_path / "adv_path.cpp"
    src.write_text(KERNEL.format(name="asin"))
    lib = ascend_ext.twin.compile_kernels([str(src)])
    x = torch.rand(256) * 2 - 1
    y = torch.zeros(256)
    lib.launch("adv_path", 1, x=x, y=y)
    torch.testing.assert_close(y.double(), torch.asin(x.double()), rtol=1e-4, atol=1e-5)


def test_an_adv_api_header_the_twin_lacks_is_named_not_implemented(tmp_path):
    src = tmp_path / "adv_missing.cpp"
    src.write_text(KERNEL.format(name="digamma"))  # asc-devkit has adv_api/math/digamma.h; the twin does not
    with pytest.raises(KernelCompileError, match=r"adv_api/math/digamma\.h: .*not implemented in the twin"):
        ascend_ext.twin.compile_kernels([str(src)])


@pytest.mark.skipif(not os.access(ASCCHK, os.X_OK), reason="the ascchk checkers (real Ascend C headers) are not built")
def test_the_current_path_kernel_compiles_against_the_real_headers(tmp_path):
    src = tmp_path / "adv_path.cpp"
    src.write_text(KERNEL.format(name="asin"))
    proc = subprocess.run(["bash", ASCCHK, str(src), "--mode", "aiv"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

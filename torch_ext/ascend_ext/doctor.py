"""`python -m ascend_ext doctor`: what this machine has of the NPU path, and the exact fix for each gap.

Checks, in the order a call travels: the CPU twin (always there) and a self-check of every op on it
(a small input against float64), the CANN toolkit, torch_npu, whether ascend_ext was built with its
NPU adapter, the installed op package and the aclnn entry points of every op; then which backend the
ops run on here. It never imports torch_npu into this process (that can fail hard without CANN); it asks a
child process instead.

Exit status, for CI: 0 when the CPU twin works (and, with `--require npu`, the whole NPU path is ready),
1 otherwise.
"""
import ctypes
import importlib.metadata
import importlib.util
import os
import subprocess
import sys
from typing import List, Optional

import torch

from ._native import library

OK, MISSING, PROBLEM, INFO = "ok", "missing", "problem", "info"
CANN_DEFAULT_HOMES = ["/usr/local/Ascend/ascend-toolkit/latest", os.path.expanduser("~/Ascend/ascend-toolkit/latest")]


class Report:
    def __init__(self) -> None:
        self.lines: List[str] = []
        self.problems = 0  # of the NPU path
        self.twin_ok = False

    def add(self, status: str, what: str, fix: Optional[str] = None) -> None:
        self.lines.append(f"[{status:^7}] {what}")
        if fix:
            self.lines.append(f"          fix: {fix}")
        if status in (MISSING, PROBLEM):
            self.problems += 1


def aclnn_names() -> List[str]:
    """aclnn<OpType> of every OpType of the op package: the built-in ops whose declarations give aclnn=."""
    from .ops import declarations

    return ["aclnn" + d.interface.op_type for d in declarations() if d.interface is not None]


def check_twin(report: Report) -> None:
    import ascend_ext

    try:
        out = ascend_ext.vector_add(torch.ones(5), torch.ones(5))
        platform = ascend_ext.twin.get_platform()
    except Exception as exc:  # e.g. ASCEND_EXT_TWIN_PLATFORM names no known profile
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        fix = ("unset ASCEND_EXT_TWIN_PLATFORM or set it to a known profile"
               if "ASCEND_EXT_TWIN_PLATFORM" in str(exc) else "reinstall: bash scripts/bootstrap.sh")
        report.add(PROBLEM, f"CPU twin cannot run the kernels: {first}", fix)
        return
    if torch.equal(out, torch.full((5,), 2.0)):
        report.add(OK, f"CPU twin runs the kernels ({platform} profile, ascend_ext {ascend_ext.__version__}, "
                       f"torch {torch.__version__})")
        report.twin_ok = True
    else:
        report.add(PROBLEM, "CPU twin returned a wrong vector_add result", "reinstall: bash scripts/bootstrap.sh")


def check_ops(report: Report) -> None:
    """One line per op: run on the twin on a small input, compared with float64."""
    from .selfcheck import check_all

    for result in check_all((torch.float32, torch.bfloat16)):
        if result.ok:
            report.add(OK, f"self-check {result.line()}")
        else:
            report.add(PROBLEM, f"self-check {result.line()}", "reinstall: bash scripts/bootstrap.sh; if it persists, "
                                                               "report it with the output of this command")
            report.twin_ok = False


def active_backend(npu_ready: bool) -> str:
    from . import twin

    cpu = f"CPU tensors run on the CPU twin ({twin.get_platform()} profile)"
    if npu_ready:
        return f"npu tensors run on the NPU (PrivateUse1 -> aclnn through the op package); {cpu}"
    return f"the CPU twin ({twin.get_platform()} profile): every op runs its Ascend C kernel on CPU tensors"


def check_cann(report: Report) -> Optional[str]:
    for var in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_CANN_PACKAGE_PATH"):
        path = os.environ.get(var)
        if path:
            if os.path.isdir(path):
                report.add(OK, f"CANN toolkit: {var}={path}")
                return path
            report.add(PROBLEM, f"{var}={path} is not a directory", "source the set_env.sh of an installed CANN")
            return None
    present = [p for p in CANN_DEFAULT_HOMES if os.path.isdir(p)]
    if present:
        report.add(PROBLEM, f"CANN is installed at {present[0]} but not set up in this shell",
                   f"source {present[0]}/set_env.sh")
    else:
        report.add(MISSING, "CANN toolkit: none found (ASCEND_HOME_PATH unset, nothing in the default locations)",
                   "on an Ascend machine install the CANN toolkit, then `source <install>/set_env.sh`; "
                   "without an NPU, the CPU twin is all there is and all you need for tests")
    return None


def check_torch_npu(report: Report) -> bool:
    if importlib.util.find_spec("torch_npu") is None:
        report.add(MISSING, "torch_npu: not installed",
                   f"pip install torch-npu=={torch.__version__.split('+')[0]} (needs CANN to import)")
        return False
    version = importlib.metadata.version("torch-npu")
    code = "import torch, torch_npu; print(torch.npu.is_available(), torch.npu.device_count())"
    env = dict(os.environ)
    env.pop("TORCH_DEVICE_BACKEND_AUTOLOAD", None)
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    except subprocess.TimeoutExpired:
        report.add(PROBLEM, f"torch_npu {version}: importing it did not finish in 120 s")
        return False
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
        fix = ("source the CANN set_env.sh before starting Python" if "lib" in last and ".so" in last
               else "check that torch-npu matches torch and CANN")
        report.add(PROBLEM, f"torch_npu {version} is installed but does not import: {last}", fix)
        return False
    available, count = proc.stdout.split()
    if available != "True":
        report.add(PROBLEM, f"torch_npu {version} imports, but torch.npu.is_available() is False",
                   "check the NPU driver (npu-smi info) and ASCEND_RT_VISIBLE_DEVICES")
        return False
    report.add(OK, f"torch_npu {version}: {count} NPU(s) visible")
    return True


def check_adapter(report: Report, torch_npu_ok: bool) -> None:
    if library().ascend_ext_built_with_npu():
        report.add(OK, "ascend_ext._C includes the NPU (PrivateUse1) adapter")
    elif torch_npu_ok:
        report.add(MISSING, "ascend_ext._C was built without the NPU adapter although torch_npu works here",
                   "rebuild in this environment: pip install --no-build-isolation .")
    else:
        report.add(INFO, "ascend_ext._C is the CPU build (torch_npu did not import when it was built)")


def check_op_package(report: Report) -> None:
    library().ascend_ext_op_package_candidates.restype = ctypes.c_char_p
    candidates = [c for c in library().ascend_ext_op_package_candidates().decode().splitlines() if c]
    found = [c for c in candidates if os.path.isfile(c)]
    install_fix = ("on a CANN machine: bash scripts/build_op_package.sh; build/op_package/custom_opp_*.run "
                   "--install-path=$HOME/ascend_ext_opp; source $HOME/ascend_ext_opp/vendors/ascend_ext/bin/"
                   "set_env.bash (sets ASCEND_CUSTOM_OPP_PATH)")
    if not found:
        report.add(MISSING, f"ascend_ext op package (libcust_opapi.so): looked in {describe_search(candidates)}",
                   install_fix)
        return
    path = found[0]
    if not under_vendor_path(path):
        report.add(PROBLEM, f"op package library {path} (from ASCEND_EXT_OPAPI_LIB) is not under an entry of "
                            "ASCEND_CUSTOM_OPP_PATH or under $ASCEND_OPP_PATH/vendors: its aclnn functions find "
                            "the kernel binaries and the tiling library through those vendor paths, so calls "
                            "would fail",
                   "source <install>/vendors/ascend_ext/bin/set_env.bash of the same installation")
    try:
        lib = ctypes.CDLL(path)
    except OSError as exc:
        report.add(PROBLEM, f"op package at {path} does not load: {exc}", "source the CANN set_env.sh first")
        return
    missing = [name for fn in aclnn_names() for name in (fn + "GetWorkspaceSize", fn) if not hasattr(lib, name)]
    if missing:
        report.add(PROBLEM, f"op package at {path} lacks {', '.join(missing)} (built from an older ascend_ext)",
                   install_fix)
    else:
        report.add(OK, f"op package at {path} exports {', '.join(aclnn_names())}")


def describe_search(candidates: List[str]) -> str:
    """Where the loader looked, and why nowhere else (the environment as it is, not as it should be)."""
    notes = []
    custom = os.environ.get("ASCEND_CUSTOM_OPP_PATH")
    if custom is None:
        notes.append("ASCEND_CUSTOM_OPP_PATH is unset")
    elif not any(entry.rstrip("/").endswith("/ascend_ext") for entry in custom.split(":")):
        notes.append(f"ASCEND_CUSTOM_OPP_PATH={custom} has no ascend_ext entry")
    if os.environ.get("ASCEND_OPP_PATH") is None:
        notes.append("ASCEND_OPP_PATH is unset")
    looked = ", ".join(candidates) if candidates else "nowhere"
    return looked + (f" ({'; '.join(notes)})" if notes else "")


def under_vendor_path(path: str) -> bool:
    """True when `path` lies in an installed vendor directory the CANN runtime searches."""
    real = os.path.realpath(path)
    roots = [e for e in os.environ.get("ASCEND_CUSTOM_OPP_PATH", "").split(":") if e]
    if os.environ.get("ASCEND_OPP_PATH"):
        roots.append(os.path.join(os.environ["ASCEND_OPP_PATH"], "vendors"))
    return any(real.startswith(os.path.realpath(root).rstrip("/") + "/") for root in roots)


def main(require: Optional[str] = None) -> int:
    report = Report()
    check_twin(report)
    if report.twin_ok:
        check_ops(report)
    check_cann(report)
    torch_npu_ok = check_torch_npu(report)
    check_adapter(report, torch_npu_ok)
    check_op_package(report)
    print("ascend_ext doctor\n" + "\n".join(report.lines))
    if not report.twin_ok:
        print("\nThe CPU twin does not work here (see above).")
        return 1
    print(f"\nActive backend: {active_backend(report.problems == 0)}")
    if report.problems:
        print(f"\nThe NPU path is not usable here ({report.problems} item(s) above). The CPU twin works regardless: "
              "every op runs on CPU tensors through the same kernels and tiling.")
        return 1 if require == "npu" else 0
    print("\nThe NPU path is ready.")
    return 0

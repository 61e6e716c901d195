"""What a kernel translation unit sees on the twin: the device build's target macros (A2), and no
std::string, std::vector or other heap containers through the twin's headers or the kernels' own headers
in op_kernel/ (device code has no heap; a kernel that used them would compile here and fail on the
NPU). Checked on the g++ include trace of every kernel the project builds for the twin and of the test
kernels compiled the way ascend_ext.twin.compile_kernels compiles a user's."""
import glob
import os
import subprocess
import sys

import pytest

import ascend_ext

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "cmake"))
from builtin_ops import read  # noqa: E402  (the built-in ops' declarations, as the build reads them)

# libstdc++ headers that define heap containers (the public headers <string>, <vector>, ... include them).
FORBIDDEN = ("bits/basic_string.h", "bits/stl_vector.h", "bits/stl_list.h", "bits/stl_deque.h", "bits/stl_map.h",
             "bits/stl_set.h", "bits/hashtable.h")


def included_headers(source, include_dirs, defines=()):
    """The headers g++ opens for `source` compiled as the twin compiles a kernel unit."""
    cmd = [os.environ.get("CXX", "g++"), "-std=c++17", "-E", "-H", "-o", os.devnull,
           "-include", "twin/kernel_target.h", *[f"-I{d}" for d in include_dirs], *[f"-D{d}" for d in defines], source]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [line.split(" ", 1)[1] for line in proc.stderr.splitlines() if line.startswith(".") and " " in line]


def heap_headers(headers):
    return sorted({h for h in headers if h.endswith(FORBIDDEN)})


SDK_INCLUDE = os.path.join(os.path.dirname(ascend_ext.__file__), "twin_sdk", "include")


@pytest.mark.parametrize("op", read(ROOT), ids=lambda op: op.kernel_entry)
def test_op_kernels_see_no_heap_containers(op):
    variant = op.variants()[0]  # the includes do not depend on the dtype
    # Only the shipped twin on the include path: a kernel finds its own headers next to it in op_kernel/,
    # as the op package's online compilation does (nothing of op_host/ is shipped there).
    headers = included_headers(os.path.join(ROOT, op.kernel_source), [SDK_INCLUDE],
                               [f"{macro}={ctype}" for macro, ctype in variant.macros])
    assert any(h.endswith("kernel_operator.h") for h in headers)
    assert not [h for h in headers if os.sep + "op_host" + os.sep in os.path.abspath(h)], op.kernel_source
    assert heap_headers(headers) == [], op.kernel_source


def test_every_kernel_header_of_the_sdk_is_free_of_heap_containers(tmp_path):
    # What a user's kernel can include from the shipped twin: every header outside twin/ (their internals).
    public = sorted(os.path.relpath(p, SDK_INCLUDE) for p in glob.glob(os.path.join(SDK_INCLUDE, "**", "*.h"),
                                                                       recursive=True)
                    if not os.path.relpath(p, SDK_INCLUDE).startswith("twin" + os.sep))
    assert "kernel_operator.h" in public and os.path.join("lib", "matmul_intf.h") in public
    src = tmp_path / "all.cpp"
    src.write_text("".join(f'#include "{h}"\n' for h in public))
    headers = included_headers(str(src), [SDK_INCLUDE])
    assert len([h for h in headers if h.startswith(SDK_INCLUDE)]) > len(public)
    assert heap_headers(headers) == []


def test_the_check_finds_a_container(tmp_path):
    # The planted counterpart: a kernel that includes <vector> (or gets it from a header) is caught.
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n#include <vector>\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) { std::vector<int> v; (void)x; }\n')
    assert "bits/stl_vector.h" in " ".join(heap_headers(included_headers(str(src), [SDK_INCLUDE])))


def test_kernels_see_the_a2_target_macros(tmp_path):
    # A kernel selecting its A2 code with the device build's macros compiles and runs that code.
    src = tmp_path / "arch.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   "#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220 && __NPU_ARCH__ == 2201\n"
                   "constexpr int32_t kArch = 220;\n#else\nconstexpr int32_t kArch = -1;\n#endif\n"
                   'extern "C" __global__ __aicore__ void arch(GM_ADDR out)\n{\n'
                   "    AscendC::GlobalTensor<int32_t> g;\n    g.SetGlobalBuffer((__gm__ int32_t*)out, 8);\n"
                   "    g.SetValue(0, kArch);\n}\n")
    import torch
    out = torch.zeros(8, dtype=torch.int32)
    ascend_ext.twin.compile_kernels([str(src)]).launch("arch", 1, out=out)
    assert out[0].item() == 220

"""What a kernel may include: only headers in op_kernel/ (its tiling struct, shared helpers) besides the
Ascend C API. The op package ships op_kernel/ alone for online compilation (asc-devkit guide,
使用标准C++语法定义Tiling结构体), so a kernel reaching into op_host/ builds here through -I op_host and fails
there. cmake/builtin_ops.py, which every twin build of the kernels runs, refuses such a kernel."""
import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "cmake"))
from builtin_ops import generate_twin, read  # noqa: E402


def project_copy(tmp_path):
    """op_kernel/, op_host/ and the op declarations of the project under tmp_path, as a root the generator
    accepts."""
    for d in ("op_kernel", "op_host", os.path.join("torch_ext", "ascend_ext", "ops")):
        shutil.copytree(os.path.join(ROOT, d), tmp_path / d)
    return tmp_path


def test_the_project_kernels_include_only_op_kernel_headers(tmp_path):
    paths = generate_twin(ROOT, str(tmp_path / "out"))
    assert len(paths) == sum(len(op.variants()) for op in read(ROOT))
    text = open(next(p for p in paths if p.endswith("vector_add_float32.cpp"))).read()
    assert '#include "op_kernel/vector_add_tiling_data.h"' in text  # reached by its path, no -I op_kernel


@pytest.mark.parametrize("include", ['"vector_add_tiling.h"', '"../op_host/vector_add_tiling.h"'])
def test_a_kernel_including_an_op_host_header_is_refused(tmp_path, include):
    root = project_copy(tmp_path)
    kernel = root / "op_kernel" / "vector_add.cpp"
    kernel.write_text(kernel.read_text().replace('"vector_add_tiling_data.h"', include))
    with pytest.raises(ValueError, match=r"op_kernel/vector_add.cpp:\d+: includes .*vector_add_tiling.h.* outside "
                                         r"op_kernel/; the op package ships only op_kernel/"):
        generate_twin(str(root), str(tmp_path / "out"))


def test_an_op_host_header_reached_through_an_op_kernel_header_is_refused(tmp_path):
    root = project_copy(tmp_path)
    helper = root / "op_kernel" / "dispersion_correction_row_sum.h"
    helper.write_text(helper.read_text().replace('#include "kernel_operator.h"',
                                                 '#include "kernel_operator.h"\n#include "platform_info.h"'))
    with pytest.raises(ValueError, match=r"op_kernel/dispersion_correction_row_sum.h:\d+: includes \"platform_info.h\""):
        generate_twin(str(root), str(tmp_path / "out"))

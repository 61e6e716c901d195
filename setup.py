"""Builds ascend_ext._C: the op registrations, the tiling code and the kernels compiled for the CPU twin.

With torch_npu importable the extension is built with its NpuExtension and the PrivateUse1 (NPU)
implementations are compiled in as well.
"""
import glob
import os
import shutil
import sys

from setuptools import setup
from torch.utils import cpp_extension

ROOT = os.path.dirname(os.path.abspath(__file__))


def sources(*patterns):
    return sorted(os.path.relpath(p, ROOT) for pattern in patterns for p in glob.glob(os.path.join(ROOT, pattern)))


def torch_npu_extension():
    """NpuExtension when torch_npu imports (CANN present), else None: the CPU-only build."""
    if os.environ.get("ASCEND_EXT_NO_NPU") == "1":
        return None
    try:
        import torch_npu  # noqa: F401  needs CANN's runtime libraries
        from torch_npu.utils.cpp_extension import NpuExtension
    except Exception:  # absent, or installed on a machine without CANN
        return None
    return NpuExtension


def stage_twin_sdk():
    """Copies the twin's headers and runtime into the package, so ascend_ext.twin.compile_kernels can
    build a user's kernel file against them on any machine the wheel is installed on."""
    sdk = os.path.join(ROOT, "torch_ext", "ascend_ext", "twin_sdk")
    shutil.rmtree(sdk, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "twin", "include"), os.path.join(sdk, "include"))
    shutil.copytree(os.path.join(ROOT, "twin", "src"), os.path.join(sdk, "src"))
    shutil.copy(os.path.join(ROOT, "op_host", "platform_info.h"), os.path.join(sdk, "include"))


def twin_kernel_variants():
    """The per-dtype twin builds of the kernels in op_kernel/twin_variants.txt (the generator CMake runs too)."""
    sys.path.insert(0, os.path.join(ROOT, "cmake"))
    from gen_twin_variants import generate

    return [os.path.relpath(p, ROOT) for p in generate(ROOT, os.path.join(ROOT, "build", "twin_variants"))]


stage_twin_sdk()

cpu_sources = sources("torch_ext/csrc/*.cpp", "torch_ext/csrc/ops/*.cpp", "twin/src/*.cpp") + twin_kernel_variants()
include_dirs = [os.path.join(ROOT, d) for d in ("torch_ext/csrc", "twin/include", "op_host", ".")]
cxx_flags = ["-O2", "-fvisibility=hidden"]

NpuExtension = torch_npu_extension()
if NpuExtension is not None:
    extension = NpuExtension(
        "ascend_ext._C",
        cpu_sources + sources("torch_ext/csrc/npu/*.cpp"),
        include_dirs=include_dirs,
        define_macros=[("ASCEND_EXT_WITH_TORCH_NPU", "1")],
        libraries=["dl"],
        extra_compile_args=cxx_flags,
    )
else:
    extension = cpp_extension.CppExtension(
        "ascend_ext._C", cpu_sources, include_dirs=include_dirs, extra_compile_args=cxx_flags
    )

setup(
    name="ascend_ext",
    version="0.1.0",
    packages=["ascend_ext"],
    package_data={"ascend_ext": ["twin_sdk/include/*.h", "twin_sdk/include/twin/*.h", "twin_sdk/src/*.cpp", "twin_sdk/src/*.h"]},
    package_dir={"ascend_ext": "torch_ext/ascend_ext"},
    ext_modules=[extension],
    cmdclass={"build_ext": cpp_extension.BuildExtension.with_options(use_ninja=True)},
    python_requires=">=3.10",
)

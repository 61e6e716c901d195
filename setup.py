"""Builds ascend_ext._C: the op registrations, the tiling code and the kernels compiled for the CPU twin.

With torch_npu importable the extension is built with its NpuExtension and the PrivateUse1 (NPU)
implementations are compiled in as well.
"""
import glob
import importlib.util
import os
import shutil
import sys
import warnings

from setuptools import setup
from torch.utils import cpp_extension

ROOT = os.path.dirname(os.path.abspath(__file__))


def sources(*patterns):
    return sorted(os.path.relpath(p, ROOT) for pattern in patterns for p in glob.glob(os.path.join(ROOT, pattern)))


def torch_npu_extension():
    """NpuExtension when torch_npu imports (CANN present), else None: the CPU-only build.

    ASCEND_EXT_NO_NPU=1 forces the CPU-only build; ASCEND_EXT_REQUIRE_NPU=1 makes a missing or failing
    torch_npu an error instead of a CPU-only build (for NPU machines and their CI).
    """
    if os.environ.get("ASCEND_EXT_NO_NPU") == "1":
        return None
    require = os.environ.get("ASCEND_EXT_REQUIRE_NPU") == "1"
    if importlib.util.find_spec("torch_npu") is None:
        if require:
            sys.exit("ascend_ext: ASCEND_EXT_REQUIRE_NPU=1 but torch_npu is not installed in this Python "
                     "(pip install torch-npu matching torch, on a machine with CANN)")
        return None
    try:
        import torch_npu  # noqa: F401  needs CANN's runtime libraries
        from torch_npu.utils.cpp_extension import NpuExtension
    except Exception as exc:  # installed, but CANN is missing or not set up in this shell
        message = (f"ascend_ext: torch_npu is installed but does not import ({type(exc).__name__}: {exc}); "
                   "building WITHOUT the NPU adapter. Source CANN's set_env.sh before building to get it; "
                   "set ASCEND_EXT_REQUIRE_NPU=1 to make this an error.")
        if require:
            sys.exit(message.replace("building WITHOUT the NPU adapter", "ASCEND_EXT_REQUIRE_NPU=1 stops the build"))
        warnings.warn(message, stacklevel=1)
        print("WARNING: " + message, file=sys.stderr)
        return None
    return NpuExtension


def stage_twin_sdk():
    """Copies the twin's headers (kernel side: include/, host tiling side: host_include/) and runtime into the
    package, so ascend_ext.twin.compile_kernels can build a user's kernel file against them on any machine
    the wheel is installed on."""
    sdk = os.path.join(ROOT, "torch_ext", "ascend_ext", "twin_sdk")
    shutil.rmtree(sdk, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "twin", "include"), os.path.join(sdk, "include"))
    shutil.copytree(os.path.join(ROOT, "twin", "host_include"), os.path.join(sdk, "host_include"))
    shutil.copytree(os.path.join(ROOT, "twin", "src"), os.path.join(sdk, "src"))


def functorch_header_deps():
    """torch's functorch headers (used by the C++ vmap rules) include nlohmann/json.hpp, which the torch
    wheel does not ship; the nlohmann-json package provides it."""
    import nlohmann_json

    return [os.path.join(os.path.dirname(nlohmann_json.__file__), "include")]


GENERATED = os.path.join(ROOT, "build", "generated")


def generated_sources():
    """What the build generates from the built-in ops' declarations (cmake/builtin_ops.py, which CMake runs
    too): the native ops' per-dtype twin builds of their kernels, their schemas, the plan registry and the
    NPU adapter's typed aclnn calls (build/generated/include/ascend_ext_generated/)."""
    sys.path.insert(0, os.path.join(ROOT, "cmake"))
    from builtin_ops import generate_torch

    return [os.path.relpath(p, ROOT) for p in generate_torch(ROOT, GENERATED)]


def stage_builtin_sources():
    """Copies what the built-in declarations name at run time into the package (ascend_ext/builtin_sources/):
    the kernels and their headers (a declared op builds its kernel for the twin at its first call), the
    host tiling headers (C++ tilings, al.CppTiling) and the twin's platform and dtype headers they include."""
    staged = os.path.join(ROOT, "torch_ext", "ascend_ext", "builtin_sources")
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "op_kernel"), os.path.join(staged, "op_kernel"))
    shutil.copytree(os.path.join(ROOT, "op_host"), os.path.join(staged, "op_host"),
                    ignore=shutil.ignore_patterns("*.cpp"))  # the CANN glue is built by the op package only
    os.makedirs(os.path.join(staged, "twin", "include", "twin"))
    for header in ("platform.h", "dtype.h"):
        shutil.copy(os.path.join(ROOT, "twin", "include", "twin", header),
                    os.path.join(staged, "twin", "include", "twin", header))


NpuExtension = torch_npu_extension()
stage_twin_sdk()
stage_builtin_sources()

cpu_sources = sources("torch_ext/csrc/*.cpp", "torch_ext/csrc/ops/*.cpp", "twin/src/*.cpp") + generated_sources()
include_dirs = [os.path.join(ROOT, d) for d in ("torch_ext/csrc", "twin/include", "op_host", "op_kernel", ".")]
include_dirs.append(os.path.join(GENERATED, "include"))
include_dirs += functorch_header_deps()
# -O3: the twin's element loops (vector instructions, Cast, DataCopy fills) vectorise only from -O3 on
# (g++ 12's -O2 cost model declines every loop that needs an epilogue or an aliasing check).
cxx_flags = ["-O3", "-fvisibility=hidden"]

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

class BuildExtension(cpp_extension.BuildExtension):
    """torch's BuildExtension without the interpreter's ``-g``: debug information more than doubles the compile
    time of the units that include torch's autograd and dispatcher headers (and the size of what links them).
    ASCEND_EXT_DEBUG_INFO=1 keeps it."""

    def build_extensions(self):
        if os.environ.get("ASCEND_EXT_DEBUG_INFO") != "1":
            for name in ("compiler_so", "compiler_cxx", "linker_so"):
                command = getattr(self.compiler, name, None)
                if command:
                    self.compiler.set_executable(name, [a for a in command if a not in ("-g", "-g3")])
        super().build_extensions()


setup(
    packages=["ascend_ext", "ascend_ext.ops", "ascend_ext.bench"],
    package_data={
        "ascend_ext.bench": ["kernels/*.cpp", "kernels/*.h"],  # the declared-op benchmark's kernel
        "ascend_ext": [
            "twin_sdk/include/*.h",
            "twin_sdk/include/twin/*.h",
            "twin_sdk/include/lib/*.h",
            "twin_sdk/include/lib/*/*.h",  # lib/pad/broadcast.h
            "twin_sdk/include/adv_api/*/*.h",  # the same at asc-devkit's current paths (adv_api/math/asin.h)
            "twin_sdk/host_include/*.h",  # securec.h (memcpy_s, for register/tilingdata_base.h and host code)
            "twin_sdk/host_include/*/*.h",  # host tiling API: graph/tensor.h, platform/soc_spec.h
            "twin_sdk/host_include/*/*/*.h",  # tiling/pad/broadcast_tiling.h, tiling/platform/platform_ascendc.h
            "twin_sdk/include/kernel_tiling/*.h",
            "twin_sdk/include/std/*.h",  # AscendC::Std's headers at their CANN paths (std/algorithm.h, ...)
            "twin_sdk/include/ascendc/host_api/tiling/*.h",
            "twin_sdk/src/*.cpp",
            "twin_sdk/src/*.h",
            "builtin_sources/op_kernel/*",  # what the built-in declarations name (stage_builtin_sources)
            "builtin_sources/op_host/*.h",
            "builtin_sources/twin/include/twin/*.h",
        ]
    },
    package_dir={"ascend_ext": "torch_ext/ascend_ext", "ascend_ext.bench": "benchmarks"},
    ext_modules=[extension],
    cmdclass={"build_ext": BuildExtension.with_options(use_ninja=True)},
)

"""Compiles the NPU build of the extension against the torch-npu wheel's headers and links it against
libtorch_npu with every undefined symbol forbidden: proof that the PrivateUse1 adapter (and the launcher of
users' kernel-launch libraries, npu/kernel_launch.cpp) compiles and uses only symbols that torch and torch_npu
export. It cannot be loaded here (torch_npu needs CANN at run time). Then compiles the shim that
ascend_ext.npu_kernels generates around CANN's aclrtlaunch_ functions for the test kernels against the wheel's
acl/acl_base.h (check_user_kernel_shims).

Run with a Python that has torch and torch-npu installed (scripts/check_npu_adapter.sh sets one up).
"""
import concurrent.futures
import glob
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import types

from torch.utils import cpp_extension

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "npu_check")


def torch_npu_dir() -> str:
    spec = importlib.util.find_spec("torch_npu")  # located, never imported: importing needs CANN
    if spec is None or not spec.submodule_search_locations:
        sys.exit("check_npu_adapter: torch_npu is not installed in this Python")
    return list(spec.submodule_search_locations)[0]


def generated_sources() -> list:
    """What the build generates from the op declarations (the native ops' twin builds, the schemas, the plan
    registry, the typed aclnn calls), as setup.py generates it; returns the C++ sources."""
    sys.path.insert(0, os.path.join(ROOT, "cmake"))
    from builtin_ops import generate_torch  # noqa: PLC0415

    return generate_torch(ROOT, os.path.join(OUT, "generated"))


FLAG = "ASCEND_EXT_WITH_TORCH_NPU"


def cpu_only_sources() -> list:
    """torch_ext sources that the flag does not change (no header uses it either): the CPU build's objects
    of these link here as they are."""
    sources = glob.glob(os.path.join(ROOT, "torch_ext/csrc/*.cpp")) + glob.glob(os.path.join(ROOT, "torch_ext/csrc/ops/*.cpp"))
    headers = glob.glob(os.path.join(ROOT, "torch_ext/csrc/**/*.h"), recursive=True)
    if any(FLAG in open(h).read() for h in headers):
        return []
    return [s for s in sources if FLAG not in open(s).read()]


def prebuilt_objects() -> tuple:
    """(objects, the sources they stand for). The twin runtime, the kernel variants and the torch_ext
    sources the flag does not touch are built the same way here and in the CPU extension: the objects of
    that build (scripts/bootstrap.sh ran it) link here as they are, after its ninja file brought them up to
    date. Empty when that build is absent: then everything is compiled."""
    temp = glob.glob(os.path.join(ROOT, "build", "temp.*", "build.ninja"))
    ninja = shutil.which("ninja") or os.path.join(ROOT, ".venv", "bin", "ninja")
    if len(temp) != 1 or not os.path.exists(ninja):
        return [], []
    temp_dir = os.path.dirname(temp[0])
    sources = glob.glob(os.path.join(ROOT, "twin/src/*.cpp")) + cpu_only_sources()
    objects = [os.path.join(temp_dir, os.path.relpath(s, ROOT))[:-4] + ".o" for s in sources]
    variants = os.path.join(ROOT, "build", "generated", "twin_variants")  # setup.py's generated kernel builds
    objects += [os.path.join(temp_dir, os.path.relpath(p, ROOT))[:-4] + ".o"
                for p in glob.glob(os.path.join(variants, "*.cpp"))]
    proc = subprocess.run([ninja, "-C", temp_dir, *objects], capture_output=True, text=True)
    return (objects, sources) if proc.returncode == 0 else ([], [])


def _python_binding_unit(obj: str) -> bool:
    """Whether an object comes from a source that calls the Python C API (module.cpp and the binding units)."""
    name = os.path.basename(obj)
    for src in glob.glob(os.path.join(ROOT, "torch_ext/csrc/**/*.cpp"), recursive=True):
        stem = os.path.relpath(src, ROOT).replace("/", "_")
        if name in (stem + ".o", os.path.basename(src)[:-4] + ".o"):
            text = open(src).read()
            return "<Python.h>" in text or "pybind" in text
    return False


def main() -> None:
    npu = torch_npu_dir()
    prebuilt, covered = prebuilt_objects()
    sources = sorted(
        set(glob.glob(os.path.join(ROOT, "torch_ext/csrc/*.cpp"))
            + glob.glob(os.path.join(ROOT, "torch_ext/csrc/ops/*.cpp"))
            + glob.glob(os.path.join(ROOT, "torch_ext/csrc/npu/*.cpp"))
            + ([] if prebuilt else glob.glob(os.path.join(ROOT, "twin/src/*.cpp")))
            + [s for s in generated_sources() if not prebuilt or "twin_variants" not in s]
            + glob.glob(os.path.join(ROOT, "tests/npu/*.cpp")))  # uses of the op_api helper by other op shapes
        - set(covered)
    )
    includes = cpp_extension.include_paths() + [
        os.path.join(npu, "include"),
        sysconfig.get_paths()["include"],
        *(os.path.join(ROOT, d) for d in ("torch_ext/csrc", "twin/include", "op_host", "op_kernel", ".")),
        os.path.join(OUT, "generated", "include"),
    ]
    import nlohmann_json  # noqa: PLC0415  (torch's functorch headers include nlohmann/json.hpp)

    includes.append(os.path.join(os.path.dirname(nlohmann_json.__file__), "include"))
    import torch  # noqa: PLC0415  (torch itself imports without CANN)

    abi = int(torch._C._GLIBCXX_USE_CXX11_ABI)  # the ABI torch (and so the torch-npu wheel) was built with
    flags = ["-std=c++20", "-fPIC", "-O0", "-Wall", "-Werror=return-type", "-DASCEND_EXT_WITH_TORCH_NPU=1",
             f"-D_GLIBCXX_USE_CXX11_ABI={abi}", *(f"-I{d}" for d in includes)]
    os.makedirs(OUT, exist_ok=True)

    def compile_one(src: str) -> str:
        obj = os.path.join(OUT, os.path.relpath(src, ROOT).replace("/", "_") + ".o")
        proc = subprocess.run(["g++", *flags, "-c", src, "-o", obj], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"compiling {os.path.relpath(src, ROOT)} against torch_npu failed:\n{proc.stderr}")
        return obj

    with concurrent.futures.ThreadPoolExecutor(max_workers=int(os.environ.get("MAX_JOBS", 0)) or os.cpu_count() or 2) as pool:
        objects = list(pool.map(compile_one, sources))
    print(f"compiled {len(objects)} translation units with ASCEND_EXT_WITH_TORCH_NPU"
          + (f"; linking {len(prebuilt)} objects of the CPU build the flag does not change" if prebuilt else ""))
    objects += prebuilt

    # The Python binding units' Python symbols come from the interpreter at load time: they are resolved
    # against libpython where the interpreter has one (then every unit is linked), else those units are left
    # out; everything else must resolve in torch or torch_npu. --allow-shlib-undefined: libtorch_npu's own
    # CANN dependencies are absent here.
    python_lib = []
    if sysconfig.get_config_var("Py_ENABLE_SHARED"):
        python_lib = [f"-L{sysconfig.get_config_var('LIBDIR')}",
                      f"-l:{sysconfig.get_config_var('LDLIBRARY')}"]
        link_objects = list(objects)
    else:
        link_objects = [o for o in objects if not _python_binding_unit(o)]
    torch_lib = os.path.join(os.path.dirname(cpp_extension.__file__), "..", "lib")
    cmd = ["g++", "-shared", "-o", os.path.join(OUT, "ascend_ext_npu_check.so"), *link_objects,
           f"-L{os.path.join(npu, 'lib')}", f"-L{torch_lib}", "-ltorch_npu", "-lc10", "-ltorch", "-ltorch_cpu",
           "-ltorch_python", *python_lib, "-Wl,--no-undefined", "-Wl,--allow-shlib-undefined", "-ldl", "-pthread"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"linking the NPU build failed (a symbol torch/torch_npu do not export?):\n{proc.stderr}")
    print("linked against libtorch_npu with no undefined symbols: the NPU adapter uses only exported symbols")


def check_user_kernel_shims() -> None:
    """The shim ascend_ext.npu_kernels generates for the test kernels (tests/kernels/npu_user: scalars, GM tiling
    and workspace in two variants; a struct by value) compiles against the wheel's acl/acl_base.h and leaves
    only the aclrtlaunch_ functions to the kernel library. CANN writes those functions' headers during its
    device build; here they are written as its generator writes them (npu_kernels.aclrtlaunch_declaration,
    which tests/test_cann_cmake.py compares with the real generator where the asc-devkit mirror exists)."""
    package = types.ModuleType("ascend_ext")  # the pure-Python modules, without the extension this venv lacks
    package.__path__ = [os.path.join(ROOT, "torch_ext", "ascend_ext")]
    sys.modules["ascend_ext"] = package
    from ascend_ext import npu_kernels  # noqa: PLC0415
    from ascend_ext.kernel_spec import KernelVariant, make_spec  # noqa: PLC0415

    kernels = os.path.join(ROOT, "tests", "kernels", "npu_user")
    floats = (KernelVariant("float32", (("DTYPE_X", "float"),)), KernelVariant("float16", (("DTYPE_X", "half"),)))
    acl_include = os.path.join(torch_npu_dir(), "include")
    with tempfile.TemporaryDirectory() as tmp:
        for entry in ("user_axpy", "user_axpy_by_value"):
            spec = make_spec([os.path.join(kernels, f"{entry}.cpp")], entry, variants=floats)
            project = npu_kernels.generate_project(spec, "Ascend910B2", os.path.join(tmp, entry))
            headers = os.path.join(project, "aclrtlaunch")
            os.makedirs(headers)
            for v in spec.variants:
                with open(os.path.join(headers, f"aclrtlaunch_{v.symbol(entry)}.h"), "w") as f:
                    f.write('#pragma once\n#include "acl/acl_base.h"\n'
                            f"{npu_kernels.aclrtlaunch_declaration(spec, v.key)};\n")
            obj = os.path.join(project, "shim.o")
            proc = subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", "-fPIC", "-c",
                                   os.path.join(project, "shim.cpp"), "-o", obj, f"-I{headers}", f"-I{acl_include}"],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                sys.exit(f"the generated shim of {entry} does not compile against acl/acl_base.h:\n{proc.stderr}")
            undefined = subprocess.run(["nm", "-u", obj], capture_output=True, text=True, check=True).stdout.split()
            expected = sorted(f"aclrtlaunch_{v.symbol(entry)}" for v in spec.variants)
            if sorted(u for u in undefined if u != "U") != expected:
                sys.exit(f"the generated shim of {entry} needs {undefined}, expected only {expected}")
    print("the generated kernel-launch shims compile against the wheel's acl/acl_base.h")


if __name__ == "__main__":
    main()
    check_user_kernel_shims()

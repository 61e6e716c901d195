"""The CANN branch of our CMake, configured without CANN.

The first two tests need nothing. The last one configures `cmake/cann_op_package.cmake` against CANN's real
Ascend C CMake modules (asc-devkit `cmake/asc/`, taken from a bare git mirror) in a stand-in CANN tree:
`include/` is the ascchk host checker's real header tree, `lib64/` holds empty stand-ins of the three
libraries the op_build step links, and `tools/opbuild/op_build` (closed source) is a stub that writes the
files the package CMake reads. Everything else runs for real, including `npu_op_code_gen`'s
`compile_ascendc_all_ops_so.py`, which compiles `op_host/*.cpp` with the system g++ exactly as CANN would.
It is skipped where the mirror or the ascchk build is missing (not in CI).

The user-kernel tests (ascend_ext.npu_kernels) configure the generated kernel-launch project against the same
modules (ascendc.cmake, legacy_modules/: ascendc_library in kernel-launch mode) with a stand-in of the closed
libascendc_runtime.a, and run CANN's own open generator of the aclrtlaunch_<kernel> functions
(legacy_modules/util/extract_host_stub.py) on the generated variant sources, preprocessed by g++ with the
spellings bisheng's preprocessing gives the Ascend C keywords (asc-devkit impl/utils/sys_macros.h and
kernel_utils_macros.h: __aicore__ -> [aicore], __gm__ -> __attribute__((cce_global)), KERNEL_TASK_TYPE_DEFAULT
under __CHECK_FEATURE_AT_PRECOMPILE). The generated shim then compiles against the generated headers and the
real acl/acl_base.h (hicann/runtime mirror), and the generated device wrappers against the real Ascend C
headers (ascchk). Only bisheng's own compile and the NPU launch are left to a machine with CANN.
"""
import os
import shutil
import subprocess
import sys
import tarfile
import io
import json
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIRRORS = os.environ.get("ASC_MIRRORS", "/work/.mirror")
DEVKIT = os.path.join(MIRRORS, "cannmirror+asc-devkit", "repo")
ASCCHK_INCLUDE = os.path.join(os.environ.get("ASCCHK_DIR", "/tmp/ascchk"), "host", "include")

OP_BUILD_STUB = r"""#!/usr/bin/env bash
# Stand-in for CANN's closed op_build: records its arguments and writes what the package CMake reads.
set -e
lib=$1; out=$2; units=${3#--compute_unit=}
echo "$@" > "$out/op_build.args"
[ -f "$lib" ] || { echo "op_build stub: $lib was not built" >&2; exit 1; }
echo '// generated aclnn API' > "$out/aclnn_vector_add.cpp"
echo '// generated op proto' > "$out/op_proto.cc"
IFS=';' read -ra socs <<< "$units"
for soc in "${socs[@]}"; do printf '[VectorAdd]\nopFile.value=vector_add\n' > "$out/aic-$soc-ops-info.ini"; done
"""


def cmake_exe():
    found = shutil.which("cmake") or os.path.join(os.path.dirname(sys.executable), "cmake")
    if not os.path.exists(found):
        pytest.skip("cmake is not installed")
    return found


def configure(build_dir, env_overrides, source=ROOT):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASCEND_")}
    env.update(env_overrides)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return subprocess.run([cmake_exe(), "-S", source, "-B", str(build_dir), "-G", "Ninja",
                           "-DASCEND_PYTHON_EXECUTABLE=" + sys.executable],
                          capture_output=True, text=True, env=env, timeout=600)


def test_package_path_without_home_path_is_a_clear_error(tmp_path):
    proc = configure(tmp_path / "build", {"ASCEND_CANN_PACKAGE_PATH": str(tmp_path)})
    assert proc.returncode != 0
    assert "ASCEND_CANN_PACKAGE_PATH is set but ASCEND_HOME_PATH is not" in proc.stderr


def test_home_path_without_the_ascend_c_cmake_modules_is_a_clear_error(tmp_path):
    proc = configure(tmp_path / "build", {"ASCEND_HOME_PATH": str(tmp_path)})
    assert proc.returncode != 0
    assert "has no compiler/tikcpp/ascendc_kernel_cmake" in proc.stderr


def stand_in_cann(root):
    """A CANN tree with the real Ascend C CMake modules and headers and stubs for the closed parts."""
    modules = root / "compiler" / "tikcpp" / "ascendc_kernel_cmake"
    modules.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", DEVKIT, "archive", "HEAD", "cmake/asc"], capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        for member in tar.getmembers():
            parts = member.name.split("/", 2)
            if len(parts) == 3:
                member.name = parts[2]
                tar.extract(member, modules)
    (root / "include").symlink_to(ASCCHK_INCLUDE)
    (root / "lib64").mkdir()
    for lib in ("exe_graph", "register", "tiling_api"):
        subprocess.run(["gcc", "-x", "c", "-shared", "-fPIC", "-o", str(root / "lib64" / f"lib{lib}.so"), "-"],
                       input="", text=True, check=True)
    # The kernel-launch modules unpack CANN's runtime archive at configure time (extract_static_library.py).
    runtime_object = root / "lib64" / "ascendc_runtime_stand_in.o"
    subprocess.run(["gcc", "-x", "c", "-c", "-fPIC", "-o", str(runtime_object), "-"],
                   input="int ascend_ext_stand_in_runtime;\n", text=True, check=True)
    subprocess.run(["ar", "rcs", str(root / "lib64" / "libascendc_runtime.a"), str(runtime_object)], check=True)
    runtime_object.unlink()
    op_build = root / "tools" / "opbuild" / "op_build"
    op_build.parent.mkdir(parents=True)
    op_build.write_text(OP_BUILD_STUB)
    op_build.chmod(0o755)
    return root


@pytest.mark.skipif(not (os.path.isdir(DEVKIT) and os.path.isdir(ASCCHK_INCLUDE)),
                    reason="needs a bare git mirror of asc-devkit ($ASC_MIRRORS) and the ascchk host headers "
                           "(bash ../shared/tools/ascchk/build.sh); not in CI")
def test_op_package_configures_against_the_real_ascend_c_cmake_modules(tmp_path):
    cann = stand_in_cann(tmp_path / "cann")
    build = tmp_path / "build"
    proc = configure(build, {"ASCEND_HOME_PATH": str(cann)})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]

    autogen = build / "autogen"
    # npu_op_code_gen compiled op_host/*.cpp (at -std=c++11 plus our COMPILE_OPTIONS) and ran op_build
    # for both SoCs, which it takes from ASCEND_COMPUTE_UNIT itself.
    assert (autogen / "libascend_all_ops.so").is_file()
    assert "-std=c++17" in (autogen / "ascendc_all_ops.make").read_text()
    assert (autogen / "op_build.args").read_text().split()[-1] == "--compute_unit=ascend910b;ascend910_93"

    ninja = (build / "build.ninja").read_text()
    assert "-std=gnu++17" in ninja and "++20" not in ninja  # the CANN targets are C++17
    assert "_GLIBCXX_USE_CXX11_ABI=0" in ninja
    for target in ("cust_optiling", "cust_opapi", "cust_op_proto"):
        assert f"CMakeFiles/{target}.dir" in ninja, target


# ---- a user's kernel through the kernel-launch path (ascend_ext.npu_kernels) -----------------------------------

NEEDS_DEVKIT = pytest.mark.skipif(not (os.path.isdir(DEVKIT) and os.path.isdir(ASCCHK_INCLUDE)),
                                  reason="needs a bare git mirror of asc-devkit ($ASC_MIRRORS) and the ascchk host "
                                         "headers (bash ../shared/tools/ascchk/build.sh); not in CI")
USER_KERNELS = os.path.join(ROOT, "tests", "kernels", "npu_user")
RUNTIME = os.path.join(MIRRORS, "hicann+runtime", "repo")
CHECK_KERNEL = os.path.join(os.environ.get("ASCCHK_DIR", "/tmp/ascchk"), "check_kernel.sh")

# What bisheng's preprocessing makes of the Ascend C keywords (see the module docstring).
PREPROCESS_KEYWORDS = """\
#pragma once
#include <cstdint>
#define __aicore__ [aicore]
#define __gm__ __attribute__((cce_global))
#define __global__ __attribute__((cce_kernel))
#define GM_ADDR __gm__ uint8_t*
#define KERNEL_TASK_TYPE_DEFAULT(value) auto __enable_feature_for_compile_default = value
"""

MIX_KERNEL = """\
#include "kernel_operator.h"
struct MixArgs {
    uint32_t m;
};
extern "C" __global__ __aicore__ void user_mix(GM_ADDR a, GM_ADDR c, uint64_t k, MixArgs args, GM_ADDR workspace)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    (void)a; (void)c; (void)k; (void)args; (void)workspace;
}
"""


def user_specs(tmp_path):
    from ascend_ext.kernel_spec import KernelVariant, make_spec

    floats = (KernelVariant("float32", (("DTYPE_X", "float"),)), KernelVariant("float16", (("DTYPE_X", "half"),)))
    (tmp_path / "mix").mkdir()
    (tmp_path / "mix" / "user_mix.cpp").write_text(MIX_KERNEL)
    return [make_spec([os.path.join(USER_KERNELS, "user_axpy.cpp")], "user_axpy", variants=floats),
            make_spec([os.path.join(USER_KERNELS, "user_axpy_by_value.cpp")], "user_axpy_by_value", variants=floats),
            make_spec([str(tmp_path / "mix" / "user_mix.cpp")], "user_mix")]


@NEEDS_DEVKIT
def test_kernel_launch_project_configures_against_the_real_ascend_c_cmake_modules(tmp_path):
    from ascend_ext import npu_kernels

    cann = stand_in_cann(tmp_path / "cann")
    spec = user_specs(tmp_path)[0]
    project = npu_kernels.generate_project(spec, "Ascend910B2", str(tmp_path / "project"))
    build = tmp_path / "build"
    proc = configure(build, {"ASCEND_HOME_PATH": str(cann)}, source=project)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]
    ninja = (build / "build.ninja").read_text()
    variants = ";".join(os.path.join(project, "variants", f"user_axpy__{k}.cpp") for k in ("float32", "float16"))
    assert f"-DSOURCES={variants}" in ninja  # both variants, one ascendc_library
    assert "-DDEFINITIONS=HAVE_WORKSPACE;HAVE_TILING" in ninja
    assert f"-DINCLUDES={USER_KERNELS}" in ninja
    for mode in ("c220", "c220_aic", "c220_aiv"):  # Ascend910B2: the split vector/cube build of dav-c220
        assert f"-DBUILD_MODE={mode} " in ninja or f"-DBUILD_MODE={mode}\n" in ninja, mode
    # The shim: compiled against the directory of the generated aclrtlaunch_ headers, linked with the static
    # kernel library and CANN's runtime libraries, every symbol resolved at link time.
    assert f"-I{build}/include/ascend_ext_kernels" in ninja
    link = ninja[ninja.index("build lib/libuser_axpy_npu.so:"):]
    link = link[:link.index("\n\n")]
    assert re.search(r"LINK_FLAGS = .*-Wl,--no-undefined", link), link
    assert "lib/libascend_ext_kernels.a" in link and "-lascendcl" in link and "-lruntime" in link

    # A SoC the modules do not know is their configure error.
    bad = npu_kernels.generate_project(spec, "Ascend999", str(tmp_path / "bad"))
    proc = configure(tmp_path / "bad_build", {"ASCEND_HOME_PATH": str(cann)}, source=bad)
    assert proc.returncode != 0
    assert "SOC_VERSION Ascend999 does not support" in proc.stderr


def run_launch_generator(tmp_path, specs):
    """CANN's extract_host_stub.py (the device build's step that writes the aclrtlaunch_ functions, their headers
    and the device wrappers) on the generated variants of `specs`, preprocessed by g++. Returns (headers, wrappers)."""
    from ascend_ext import npu_kernels

    keywords = tmp_path / "keywords"
    keywords.mkdir()
    (keywords / "kernel_operator.h").write_text(PREPROCESS_KEYWORDS)
    util = tmp_path / "util"
    util.mkdir()
    archive = subprocess.run(["git", "-C", DEVKIT, "archive", "HEAD", "cmake/asc/legacy_modules/util"],
                             capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        for member in tar.getmembers():
            member.name = member.name.split("/", 4)[-1]
            tar.extract(member, util)
    commands, preprocessed = [], []
    for spec in specs:
        project = npu_kernels.generate_project(spec, "Ascend910B2", str(tmp_path / spec.entry))
        includes = sorted({os.path.dirname(s) for s in spec.sources} | set(spec.include_dirs))
        for v in spec.variants:
            source = os.path.join(project, "variants", f"{v.symbol(spec.entry)}.cpp")
            out = str(tmp_path / f"{v.symbol(spec.entry)}.cpp.o")
            cmd = ["g++", "-E", "-std=c++17", "-D__CHECK_FEATURE_AT_PRECOMPILE", "-I", str(keywords),
                   *(f"-I{d}" for d in includes), source, "-o", out]
            subprocess.run(cmd, check=True)
            commands.append({"directory": str(tmp_path), "command": " ".join(cmd), "file": source})
            preprocessed.append(out)
    (tmp_path / "compile_commands.json").write_text(json.dumps(commands))
    headers, wrappers = tmp_path / "headers", tmp_path / "wrappers"
    proc = subprocess.run([sys.executable, "extract_host_stub.py", *preprocessed, "--dynamic-mode", "-d", str(wrappers),
                           "-hd", str(headers), "--aiv-o", *preprocessed, "--aic-o", *preprocessed,
                           "--build-mode", "c220", "--compile-commands", str(tmp_path / "compile_commands.json"),
                           "--generate-definition", "--run-mode", "npu"],
                          cwd=util, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return headers, wrappers


@NEEDS_DEVKIT
def test_shim_matches_the_launch_functions_cann_generates(tmp_path):
    from ascend_ext import npu_kernels

    specs = user_specs(tmp_path)
    headers, wrappers = run_launch_generator(tmp_path, specs)
    # The generated signatures: GM addresses as void*, scalars by value, a struct by address, no FFTS address for
    # the mixed kernel (the generated function finds it itself).
    decl = {name: (headers / f"aclrtlaunch_{name}.h").read_text().split('extern "C" ')[1].split(";")[0]
            for name in ("user_axpy__float16", "user_axpy_by_value__float32", "user_mix__default")}
    assert decl["user_axpy__float16"] == ("uint32_t aclrtlaunch_user_axpy__float16(uint32_t numBlocks, aclrtStream "
                                          "stream, void* x, void* y, void* z, float alpha, void* workspace, "
                                          "void* tiling)")
    assert decl["user_axpy_by_value__float32"].endswith("float alpha, UserAxpyTiling* tiling)")
    assert decl["user_mix__default"] == ("uint32_t aclrtlaunch_user_mix__default(uint32_t numBlocks, aclrtStream "
                                         "stream, void* a, void* c, uint64_t k, MixArgs* args, void* workspace)")
    # The kernel types the toolchain took from KERNEL_TASK_TYPE_DEFAULT, as the generator recorded them.
    assert "K_TYPE_AIV" in (wrappers / "auto_gen_user_axpy__float32.cpp").read_text()
    assert "_mix_aic" in (wrappers / "auto_gen_user_mix__default.cpp").read_text()
    assert [s.kernel_type for s in specs] == ["aiv", "aiv", "mix"]
    # ... and as npu_kernels.aclrtlaunch_declaration (the stand-in scripts/check_npu_adapter.py compiles against).
    for spec in specs:
        for v in spec.variants:
            text = (headers / f"aclrtlaunch_{v.symbol(spec.entry)}.h").read_text()
            assert npu_kernels.aclrtlaunch_declaration(spec, v.key) + ";" in text

    # The shim compiles against those headers and the real acl/acl_base.h, leaving exactly the generated
    # functions to the kernel library.
    if not os.path.isdir(RUNTIME):
        pytest.skip("the shim compile needs a mirror of hicann/runtime (acl/acl_base.h)")
    acl = tmp_path / "acl"
    archive = subprocess.run(["git", "-C", RUNTIME, "archive", "HEAD", "include/external"], capture_output=True,
                             check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(acl)
    for spec in specs:
        shim = tmp_path / spec.entry / "shim.cpp"
        obj = tmp_path / f"{spec.entry}_shim.o"
        proc = subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", "-c", str(shim), "-o", str(obj),
                               "-I", str(headers), "-I", str(acl / "include" / "external")],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-4000:]
        undefined = subprocess.run(["nm", "-u", str(obj)], capture_output=True, text=True, check=True).stdout.split()
        assert sorted(u for u in undefined if u != "U") == sorted(
            f"aclrtlaunch_{v.symbol(spec.entry)}" for v in spec.variants)
        defined = subprocess.run(["nm", "-g", "--defined-only", str(obj)], capture_output=True, text=True,
                                 check=True).stdout
        for v in spec.variants:
            assert f" T {npu_kernels.launch_symbol(spec, v.key)}\n" in defined


@NEEDS_DEVKIT
@pytest.mark.skipif(not os.path.exists(CHECK_KERNEL), reason="needs the ascchk kernel checker")
def test_cann_device_wrappers_compile_against_the_real_headers(tmp_path):
    """The wrapper CANN generates around each variant (entry renamed <entry>_origin, called at global scope with
    the entry's parameter types) finds the namespaced entry and its struct: syntax-checked against the real
    Ascend C headers in their CPU-debug configuration (ascchk), with [aicore] spelled __aicore__ for g++."""
    specs = user_specs(tmp_path)
    _, wrappers = run_launch_generator(tmp_path, specs[:2])
    for name, defines in (("user_axpy__float16", ["-DHAVE_WORKSPACE", "-DHAVE_TILING"]),
                          ("user_axpy_by_value__float32", [])):
        text = (wrappers / f"auto_gen_{name}.cpp").read_text()
        assert f"{name}_origin(" in text
        checked = tmp_path / f"{name}_wrapper.cpp"
        checked.write_text(text.replace("[aicore]", "__aicore__"))
        proc = subprocess.run(["bash", CHECK_KERNEL, str(checked), USER_KERNELS, *defines],
                              capture_output=True, text=True, env={**os.environ, "CHECK_DTYPE": "half"})
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

#!/usr/bin/env bash
# Syntax-checks the CANN sources of the op package against the real public Ascend C / CANN headers with
# the ascchk checkers (see ../shared/tools/ascchk/README.md), with the options our CMake passes:
#   op_kernel/*.cpp  check_kernel.sh for DTYPE float, half and bfloat16_t, with -I op_kernel only (as
#                    npu_op_kernel_options in cmake/cann_op_package.cmake: the package ships op_kernel/ for
#                    online compilation, so a kernel that reaches into op_host/ fails here)
#   tests/kernels/npu_user/*.cpp  the kernel-launch tests' user kernels, for float and half
#   examples/custom_op/*.cpp  the same dtypes, DTYPE_RSTD float, -I the example's folder
#   op_host/*.cpp    check_host.sh, all four compiles the package build makes of it: opdef, tiling and
#                    proto with -I op_host and the generated ports headers at the project's
#                    CMAKE_CXX_STANDARD (CMakeLists.txt), and opbuild with the COMPILE_OPTIONS of npu_op_code_gen
#                    (cmake/cann_op_package.cmake)
# The checkers are built from fetched mirrors of the CANN repositories, so this is not part of CI.
# Exit status: 0 all pass, 1 a check failed, 2 the checkers are not built.
# Env: ASCCHK_DIR (default /tmp/ascchk), ASCEND_EXT_KERNEL_DTYPES (default "float half bfloat16_t").
set -uo pipefail
cd "$(dirname "$0")/.."

ASCCHK_DIR=${ASCCHK_DIR:-/tmp/ascchk}
KERNEL_CHECK="$ASCCHK_DIR/check_kernel.sh"
HOST_CHECK="$ASCCHK_DIR/check_host.sh"
DTYPES=${ASCEND_EXT_KERNEL_DTYPES:-float half bfloat16_t}

missing=()
[ -x "$KERNEL_CHECK" ] || missing+=("$KERNEL_CHECK")
[ -x "$HOST_CHECK" ] || missing+=("$HOST_CHECK")
if [ ${#missing[@]} -gt 0 ]; then
    echo "check_cann_sources: the ascchk checkers are not built (missing: ${missing[*]})." >&2
    echo "  Build them from bare git mirrors of the CANN repositories (asc-devkit, asc-tools, metadef, ge," >&2
    echo "  runtime, libboundscheck; see ../shared/tools/ascchk/README.md):" >&2
    echo "    ASC_MIRRORS=/path/to/mirrors bash ../shared/tools/ascchk/build.sh" >&2
    echo "  or point ASCCHK_DIR at an existing build. Nothing was checked." >&2
    exit 2
fi

failed=0
passed=0
run() {
    local out
    if out=$("$@" 2>&1); then
        passed=$((passed + 1))
        printf '%s\n' "$out" | grep -E '^PASS' || true
    else
        failed=$((failed + 1))
        printf '%s\n' "$out"
    fi
}

for kernel in op_kernel/*.cpp; do
    for dtype in $DTYPES; do
        echo "== $kernel (DTYPE $dtype)"
        CHECK_DTYPE=$dtype run "$KERNEL_CHECK" "$kernel" "$(dirname "$kernel")"
    done
done

# The user kernels of the kernel-launch tests (tests/kernels/npu_user), for the dtypes of their variants.
for kernel in tests/kernels/npu_user/*.cpp; do
    for dtype in float half; do
        echo "== $kernel (DTYPE $dtype)"
        CHECK_DTYPE=$dtype run "$KERNEL_CHECK" "$kernel" "$(dirname "$kernel")"
    done
done

# The worked example's kernels (examples/custom_op, built in kernel-launch mode): their statistics type
# DTYPE_RSTD is float for every dtype (ascend_ext.library.promoted("x", "float32")).
for kernel in examples/custom_op/*.cpp; do
    for dtype in $DTYPES; do
        echo "== $kernel (DTYPE $dtype, DTYPE_RSTD float)"
        CHECK_DTYPE=$dtype CHECK_DTYPE_RSTD=float run "$KERNEL_CHECK" "$kernel" "$(dirname "$kernel")"
    done
done

# The ports headers the package build generates from the op declarations (cmake/cann_op_package.cmake runs
# cmake/builtin_ops.py at configure time), generated here into a temporary folder.
GENERATED=$(mktemp -d "${TMPDIR:-/tmp}/ascend_ext_generated.XXXXXX")
trap 'rm -rf "$GENERATED"' EXIT
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" cmake/builtin_ops.py . "$GENERATED" cann > /dev/null; then
    echo "check_cann_sources: generating the ports headers from the declarations failed" >&2
    exit 1
fi

# The options the package build uses, read from the CMake files so that this check follows them.
OPBUILD_OPTIONS=$(sed -n '/npu_op_code_gen(/,/)/s/^ *COMPILE_OPTIONS //p' cmake/cann_op_package.cmake)
OPBUILD_OPTIONS=${OPBUILD_OPTIONS//'${ASCEND_EXT_GENERATED_DIR}'/$GENERATED}
CXX_STD=$(sed -n 's/^set(CMAKE_CXX_STANDARD \([0-9]*\))$/\1/p' CMakeLists.txt)
if [ -z "$CXX_STD" ]; then
    echo "check_cann_sources: cannot read CMAKE_CXX_STANDARD from CMakeLists.txt" >&2
    exit 1
fi
for host in op_host/*.cpp; do
    echo "== $host (gnu++$CXX_STD; npu_op_code_gen COMPILE_OPTIONS: ${OPBUILD_OPTIONS:-none})"
    run "$HOST_CHECK" "$host" op_host "$GENERATED" --std "gnu++$CXX_STD" --opbuild-options "$OPBUILD_OPTIONS"
done

echo "check_cann_sources: $passed check(s) passed, $failed failed"
[ "$failed" -eq 0 ]

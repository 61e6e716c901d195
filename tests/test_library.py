"""ascend_ext.library: a user's Ascend C kernel, in a folder outside the package, declared once and checked
by the whole conformance suite (ascend_ext.testing.check_op); the declaration's and the call's errors."""
import ctypes
import os
import re
import shutil
import struct

import pytest
import torch

import ascend_ext
import ascend_ext.library as al
import ascend_ext.testing as at

KERNELS = os.path.join(os.path.dirname(__file__), os.pardir, "benchmarks", "kernels")


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory):
    """The test kernels (out = alpha * x + y, the benchmark's; widen.cpp, two entries with a float32 statistic)
    and the tiling header, copied to a folder of their own."""
    d = tmp_path_factory.mktemp("user_kernel")
    for name in ("axpy.cpp", "axpy_tiling.h"):
        shutil.copy(os.path.join(KERNELS, name), d / name)
    shutil.copy(os.path.join(os.path.dirname(__file__), "kernels", "user_op", "widen.cpp"), d / "widen.cpp")
    return d


_COUNTER = [0]


def fresh_name(prefix="axpy"):
    _COUNTER[0] += 1
    return f"{prefix}{_COUNTER[0]}"


def declare(kernel_dir, name=None, **overrides):
    """The test op as a user declares it; `overrides` replace parts of the declaration."""
    AxpyTiling = al.c_struct(str(kernel_dir / "axpy_tiling.h"), "AxpyTiling")

    def tiling(x, y, alpha, *, platform):
        n = x.numel()
        elem = x.element_size()
        tile = 2048
        cores = max(1, min(platform.vector_cores, -(-n // tile)))
        per_core = -(-n // cores)
        per_core = -(-per_core // (32 // elem)) * (32 // elem)  # whole 32-byte blocks per core
        return al.Tiling(block_dim=cores, data=AxpyTiling(total=n, perCore=per_core, tile=tile))

    def setup_context(ctx, inputs, output):
        ctx.alpha = inputs[2]

    def backward(ctx, grad):
        return grad * ctx.alpha, grad, None

    def jvp(ctx, tx, ty, _talpha):
        return tx * ctx.alpha + ty

    def vmap(info, in_dims, x, y, alpha):
        xd, yd = in_dims[0], in_dims[1]
        size = info.batch_size
        x = x.movedim(xd, 0) if xd is not None else x.expand(size, *x.shape)
        y = y.movedim(yd, 0) if yd is not None else y.expand(size, *y.shape)
        return op.op(x, y, alpha), 0

    decl = dict(
        kernel=al.Kernel(str(kernel_dir / "axpy.cpp"), entry="axpy"),
        dtypes={"x": ("float32", "float16", "float64"), "y": "x"},
        outputs={"out": al.like("x")},
        tiling=tiling, setup_context=setup_context, backward=backward, jvp=jvp, vmap=vmap,
        tiling_struct=AxpyTiling,
    )
    decl.update(overrides)
    name = name or fresh_name()
    op = al.op(f"ae_test::{name}(Tensor x, Tensor y, float alpha=1.0) -> Tensor out", **decl)
    return op


@pytest.fixture(scope="module")
def axpy(kernel_dir):
    return declare(kernel_dir)


def reference(x, y, alpha=1.0):
    return alpha * x.double() + y.double()


def samples(dtype):
    r = lambda *s: torch.randn(*s, dtype=torch.float64).to(dtype)  # noqa: E731
    return [
        at.Sample((r(37), r(37)), {}, "tail"),
        at.Sample((r(5, 8), r(5, 8), 0.5), {}, "alpha"),
        at.Sample((r(4096 + 13), r(4096 + 13), -2.0), {}, "multi-core"),
        at.Sample((r(1), r(1)), {}, "one"),
        at.Sample((r(9, 7).t(), r(7, 9)), {}, "non-contiguous"),
    ]


def test_the_op_is_a_torch_op_on_cpu(axpy):
    x, y = torch.randn(1000), torch.randn(1000)
    out = getattr(torch.ops.ae_test, axpy.name)(x, y, 0.25)
    torch.testing.assert_close(out.double(), reference(x, y, 0.25), rtol=1e-6, atol=1e-6)
    stats = axpy.last_launch_stats()
    assert stats.block_dim == 1 and stats.total.gm_bytes_read == 8000 and stats.total.gm_bytes_written == 4000


def test_check_op_runs_the_whole_suite(axpy):
    report = at.check_op(axpy, samples, reference, tolerances={
        torch.float64: dict(rtol=1e-12, atol=1e-12), torch.float32: dict(rtol=2e-6, atol=2e-6),
        torch.float16: dict(rtol=2e-3, atol=4e-3)})
    applied = {k for k, v in report.items() if v == "ok"}
    for name in ("matches_float64_reference", "opcheck", "gradcheck_and_gradgradcheck",
                 "forward_ad_matches_the_reference_jvp", "vmap_matches_a_loop", "compile_fullgraph_aot_eager",
                 "compile_fullgraph_inductor", "export_round_trip", "runs_on_the_twin", "float64_on_the_twin"):
        assert name in applied, f"{name}: {report[name]}"


def test_check_op_fails_a_wrong_kernel(kernel_dir):
    """A reference that disagrees with the kernel: check_op must say so (a test that can fail)."""
    op = declare(kernel_dir)
    with pytest.raises(AssertionError, match="matches_float64_reference"):
        at.check_op(op, samples, lambda x, y, alpha=1.0: alpha * x.double() - y.double(),
                    dtypes=(torch.float32,), skip=[n for n in at.CHECKS if n != "matches_float64_reference"])


def test_record_sees_declared_ops_and_builtin_ops(axpy):
    x = torch.randn(64)
    with ascend_ext.twin.record() as rec:
        axpy(x, x)
        ascend_ext.vector_add(x, x)
    kernels = sorted(launch.kernel for launch in rec.launches)
    assert kernels == ["axpy", "vector_add"], kernels


def test_autocast_policy(kernel_dir):
    op = declare(kernel_dir, autocast=torch.float32)
    x, y = torch.randn(33, dtype=torch.float16), torch.randn(33, dtype=torch.float16)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = op(x, y)
    assert out.dtype == torch.float32
    torch.testing.assert_close(out.double(), reference(x, y), rtol=1e-6, atol=1e-6)


def test_prebuilt_library_is_loaded_without_compiling(kernel_dir, tmp_path, monkeypatch):
    op = declare(kernel_dir)
    written = op.prebuild(str(tmp_path), targets=("twin",))
    assert len(written) == 4 and all(os.path.exists(p) for p in written)  # three variants and the runtime
    again = declare(kernel_dir)
    monkeypatch.setenv("ASCEND_EXT_KERNEL_PATH", str(tmp_path))
    monkeypatch.setattr(ascend_ext.twin_kernels, "_compile_all", lambda *a, **k: pytest.fail("compiled again"))
    x = torch.randn(50)
    torch.testing.assert_close(again(x, x, 2.0), 3 * x)
    assert sorted(lib.path for lib in again._twin_libraries().values()) == sorted(written[:3])


# ---- lib.launch: a GM argument read with another element size ----------------------------------------------


def test_launch_refuses_a_tensor_of_another_element_size(kernel_dir):
    lib = ascend_ext.twin.compile_kernels([os.path.join(os.path.dirname(__file__), "kernels", "by_value.cpp")])
    x = torch.randn(16, dtype=torch.float64)
    y = torch.empty(16, dtype=torch.float32)
    with pytest.raises(ascend_ext.twin.KernelRuleViolation,
                       match=r"GM argument 'x' holds 8-byte elements.*GlobalTensor<float> \(4-byte"):
        lib.launch("scale_scalars", 1, x=x, y=y, n=16, alpha=2.0)
    x32 = torch.randn(16)
    lib.launch("scale_scalars", 1, x=x32, y=y, n=16, alpha=2.0)  # the passing counterpart
    torch.testing.assert_close(y, 2 * x32)
    lib.launch("scale_scalars", 1, x=x32.numpy().tobytes(), y=y, n=16, alpha=3.0)  # untyped bytes: no rule
    torch.testing.assert_close(y, 3 * x32)


# ---- the errors: each names the op, the argument and what was expected ------------------------------------


def bad_declarations(kernel_dir):
    k = al.Kernel(str(kernel_dir / "axpy.cpp"), entry="axpy")
    ok = lambda *a, **kw: al.Tiling(1, b"")  # noqa: E731
    base = dict(kernel=k, dtypes={"x": ("float32",), "y": "x"}, outputs={"out": al.like("x")}, tiling=ok)

    def with_(**kw):
        d = dict(base)
        d.update(kw)
        return d

    schema = "(Tensor x, Tensor y, float alpha=1.0) -> Tensor out"
    return [
        ("unknown entry", schema, with_(kernel=al.Kernel(str(kernel_dir / "axpy.cpp"), entry="axpby")),
         r"no entry point of that name .* entries found: axpy"),
        ("missing source", schema, with_(kernel=al.Kernel(str(kernel_dir / "nope.cpp"))), r"nope.cpp does not exist"),
        ("schema/kernel parameter mismatch", "(Tensor a, Tensor y, float alpha=1.0) -> Tensor out", with_(
            dtypes={"a": ("float32",), "y": "a"}, outputs={"out": al.like("a")}),
         r"kernel parameter 'x' of axpy\(.*matches no argument"),
        ("tensor to no kernel parameter", "(Tensor x, Tensor y, Tensor z, float alpha=1.0) -> Tensor out",
         with_(dtypes={"x": ("float32",), "y": "x", "z": "x"}), r"'z' is passed to no parameter of the kernel"),
        ("dtype not declared", schema, with_(dtypes={"x": ("float32",)}), r"tensor argument 'y' has no dtypes"),
        ("unknown dtype", schema, with_(dtypes={"x": ("float33",), "y": "x"}), r"unknown dtype 'float33'"),
        ("number passed as GM", "(Tensor x, Tensor y, Tensor alpha) -> Tensor out",
         with_(dtypes={"x": ("float32",), "y": "x", "alpha": "x"}),
         r"kernel parameter 'alpha' is 'float', but 'alpha' is a tensor"),
        ("outputs count", schema.replace("-> Tensor out", "-> (Tensor out, Tensor o2)"), base,
         r"returns 2 tensor\(s\), outputs declares 1"),
        ("mutable argument", "(Tensor(a!) x, Tensor y, float alpha=1.0) -> Tensor out", base,
         r"argument 'x' is mutable"),
        ("reserved namespace", None, base, r"namespace 'aten' is reserved"),
        ("bad autocast", schema, with_(autocast="higher"), r"autocast must be None"),
        ("output names", schema, with_(outputs={"y2": al.like("x")}), r"use the same names"),
    ]


def test_bad_declarations_are_clear_errors(kernel_dir):
    cases = bad_declarations(kernel_dir)
    assert len(cases) >= 12
    for what, schema, decl, pattern in cases:
        qual = f"ae_test::{fresh_name('bad')}{schema}" if schema else f"aten::{fresh_name('bad')}(Tensor x) -> Tensor"
        with pytest.raises(al.DeclarationError, match=pattern):
            al.op(qual, **decl)


def test_bad_calls_are_clear_errors(kernel_dir, axpy):
    x = torch.randn(40)
    call = axpy.op
    with pytest.raises(TypeError, match=rf"{axpy.qualname}: argument 'x' has dtype torch.bfloat16; the kernel is "
                                        r"built for float32, float16, float64"):
        call(x.bfloat16(), x.bfloat16())
    with pytest.raises(TypeError, match=r"argument 'y' has dtype torch.float16; it must have the dtype of 'x'"):
        call(x, x.half())
    with pytest.raises(ValueError, match=r"argument 'y' is on meta, but 'x' is on cpu"):
        call(x, x.to("meta"))
    # the tiling's result against the platform and the kernel
    for block_dim, pattern in ((0, r"block_dim=0; the aiv kernel runs on 1 to 48 cores"),
                               (49, r"block_dim=49; the aiv kernel runs on 1 to 48 cores")):
        op = declare(kernel_dir, tiling=lambda x, y, alpha, b=block_dim: al.Tiling(b, bytes(16)))
        with pytest.raises(ValueError, match=pattern):
            op(x, x)
    op = declare(kernel_dir, tiling=lambda x, y, alpha: al.Tiling(1, bytes(12)), tiling_struct=None)
    with pytest.raises(ValueError, match=r"returned 12 bytes of tiling data; the kernel reads its tiling struct of 16"):
        op(x, x)
    op = declare(kernel_dir, tiling=lambda x, y, alpha: (1, bytes(16)))
    with pytest.raises(TypeError, match=r"the tiling function returned tuple; expected .*Tiling"):
        op(x, x)


def test_contiguity_rank_and_alignment_rules(kernel_dir):
    strict = declare(kernel_dir, dtypes={"x": al.TensorArg(("float32",), rank=(1, 2), contiguous="require", align=32),
                                         "y": "x"})
    x = torch.randn(8, 6)
    with pytest.raises(ValueError, match=r"argument 'x' is not contiguous .* pass x.contiguous\(\)"):
        strict(x.t(), x)
    with pytest.raises(ValueError, match=r"argument 'x' has rank 3 .* needs rank between 1 and 2"):
        strict(torch.randn(2, 2, 2), torch.randn(2, 2, 2))
    open_ended = declare(kernel_dir, dtypes={"x": al.TensorArg(("float32",), rank=(2, None)), "y": "x"})
    with pytest.raises(ValueError, match=r"argument 'x' has rank 1 \(shape \(8,\)\); the kernel needs rank at "
                                         r"least 2$"):
        open_ended(torch.randn(8), torch.randn(8))
    torch.testing.assert_close(open_ended(x[None], x[None]), 2 * x[None])  # rank 3 runs
    flat = torch.randn(100)
    with pytest.raises(ValueError, match=r"argument 'x' starts at an address that is not a multiple of 32 bytes"):
        strict(flat[1:41], flat[50:90])
    torch.testing.assert_close(strict(flat[8:48], flat[56:96]), flat[8:48] + flat[56:96])  # aligned views run


def test_kernel_compile_error_shows_the_first_error_line(tmp_path):
    src = tmp_path / "broken.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR out, GM_ADDR tiling)\n'
                   '{ AscendC::LocalTensor<DTYPE_X> t; t.NoSuchMethod(); }\n')
    op = al.op(f"ae_test::{fresh_name('broken')}(Tensor x) -> Tensor out",
               kernel=al.Kernel(str(src), entry="broken"), dtypes={"x": ("float32",)}, outputs={"out": al.like("x")},
               tiling=lambda x: al.Tiling(1, b""))
    with pytest.raises(al.KernelCompileError) as info:
        op(torch.randn(4))
    first = str(info.value).splitlines()[0]
    assert "broken.cpp:3" in first and "NoSuchMethod" in first, first


def test_workspace_too_small_is_named(tmp_path):
    src = tmp_path / "ws.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   'extern "C" __global__ __aicore__ void ws(GM_ADDR x, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)\n'
                   '{ GlobalTensor<float> w; w.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace), 64);\n'
                   '  w.SetValue(63, 1.0f); }\n')
    op = al.op(f"ae_test::{fresh_name('ws')}(Tensor x) -> Tensor out",
               kernel=al.Kernel(str(src), entry="ws"), dtypes={"x": ("float32",)}, outputs={"out": al.like("x")},
               tiling=lambda x: al.Tiling(1, b"", workspace=128))
    with pytest.raises(al.KernelRuleViolation, match=r"beyond the workspace its tiling asked for \(128 bytes\)"):
        op(torch.randn(4))


def test_c_struct_reads_the_kernel_header(kernel_dir, tmp_path):
    AxpyTiling = al.c_struct(str(kernel_dir / "axpy_tiling.h"), "AxpyTiling")
    assert ctypes.sizeof(AxpyTiling) == 16 and [f for f, _ in AxpyTiling._fields_] == ["total", "perCore", "tile"]
    header = tmp_path / "h.h"
    header.write_text("struct In { uint16_t a; uint64_t b[2]; };\n"
                      "struct T { uint8_t k; In in; float f[3] = {0}; static constexpr int kX = 3; };\n")
    T = al.c_struct(str(header), "T")
    assert ctypes.sizeof(T) == 48 and T.f.offset == 32 and T.k.offset == 0 and T.__dict__['in'].offset == 8
    header.write_text("struct U { std::vector<int> v; };\n")
    with pytest.raises(al.DeclarationError, match=r"field type 'std::vector<int>'|cannot read the field"):
        al.c_struct(str(header), "U")
    with pytest.raises(al.DeclarationError, match=r"no struct 'V'"):
        al.c_struct(str(header), "V")


def test_kernels_compile_with_the_device_build_name_lookup(tmp_path):
    """Each variant is compiled as the device compiles the source, nothing wrapped around it: a kernel class
    named like an AscendC function is ambiguous under `using namespace AscendC`, here as there."""
    body = ('#include "kernel_operator.h"\nusing namespace AscendC;\nnamespace {{ template <typename T> class {cls} '
            '{{ public: __aicore__ inline void Run() {{}} }}; }}\nextern "C" __global__ __aicore__ void lookup('
            'GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {{ {cls}<DTYPE_X> k; k.Run(); }}\n')
    for cls, ok in (("Axpy", False), ("AxpyKernel", True)):
        src = tmp_path / f"lookup_{cls}.cpp"
        src.write_text(body.format(cls=cls))
        op = al.op(f"ae_test::{fresh_name('lookup')}(Tensor x) -> Tensor out", kernel=al.Kernel(str(src), entry="lookup"),
                   dtypes={"x": ("float32",)}, outputs={"out": al.like("x")}, tiling=lambda x: al.Tiling(1, b""))
        if ok:
            op(torch.randn(4))
        else:
            with pytest.raises(al.KernelCompileError, match=r"reference to 'Axpy' is ambiguous|reference to ‘Axpy’ is ambiguous"):
                op(torch.randn(4))


def test_more_declaration_and_call_errors(kernel_dir, tmp_path):
    op = declare(kernel_dir)
    with pytest.raises(al.DeclarationError, match=r"cannot define it"):
        declare(kernel_dir, name=op.name)  # the name is taken
    x = torch.randn(16)
    wrong_class = declare(kernel_dir, tiling=lambda x, y, alpha: al.Tiling(1, bytes(16)))
    with pytest.raises(TypeError, match=r"returned bytes data; the op declares tiling_struct=AxpyTiling"):
        wrong_class(x, x)
    # a struct read from a header that differs from the kernel's: the build's static_asserts say which field
    header = tmp_path / "other_tiling.h"
    header.write_text("struct AxpyTiling { uint64_t total; uint32_t tile; uint32_t perCore; };\n")
    other = al.c_struct(str(header), "AxpyTiling")
    moved = declare(kernel_dir, tiling_struct=other,
                    tiling=lambda x, y, alpha: al.Tiling(1, other(total=x.numel(), tile=2048, perCore=2048)))
    with pytest.raises(al.KernelCompileError, match=r"field perCore of the tiling struct AxpyTiling is elsewhere"):
        moved(x, x)
    # differentiation without formulas, and a backward of the wrong arity
    plain = declare(kernel_dir, setup_context=None, backward=None, jvp=None, vmap=None)
    assert plain(x, x).requires_grad is False
    xg = x.clone().requires_grad_()
    with pytest.raises(RuntimeError, match=r"does not require grad|no backward"):
        plain(xg, x).sum().backward()
    short = declare(kernel_dir, backward=lambda ctx, g: (g, g))
    with pytest.raises(RuntimeError, match=r"backward returned 2 value\(s\); it must return one gradient \(or None\) "
                                           r"per argument of the schema: x, y, alpha"):
        short(xg, x).sum().backward()
    nojvp = declare(kernel_dir, jvp=None)
    with pytest.raises(RuntimeError, match=r"no jvp was declared"):
        torch.func.jvp(lambda a: nojvp(a, x), (x,), (torch.ones_like(x),))


def test_prebuilt_package_imports_and_runs_without_a_compiler(tmp_path):
    """`python -m ascend_ext build` on a user's package, then a fresh process whose compiler is missing (CXX
    names no program, PATH has no g++) imports the package and runs the op from the prebuilt kernels."""
    import subprocess
    import sys

    pkg = tmp_path / "userpkg"
    pkg.mkdir()
    for name in ("axpy.cpp", "axpy_tiling.h"):
        shutil.copy(os.path.join(KERNELS, name), pkg / name)
    (pkg / "__init__.py").write_text(
        "import ascend_ext.library as al\n"
        "T = al.c_struct('axpy_tiling.h', 'AxpyTiling')\n"
        "def tiling(x, y, alpha):\n"
        "    return al.Tiling(1, T(total=x.numel(), perCore=x.numel(), tile=64))\n"
        "axpy = al.op('userpkg::axpy(Tensor x, Tensor y, float alpha=1.0) -> Tensor out',\n"
        "             kernel=al.Kernel('axpy.cpp'), dtypes={'x': ('float32',), 'y': 'x'},\n"
        "             outputs={'out': al.like('x')}, tiling=tiling, tiling_struct=T)\n")
    env = dict(os.environ, TORCH_DEVICE_BACKEND_AUTOLOAD="0", ASCEND_EXT_CACHE=str(tmp_path / "cache"))
    build = subprocess.run([sys.executable, "-m", "ascend_ext", "build", str(pkg), "--targets", "twin"],
                           capture_output=True, text=True, env=env, timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    assert (pkg / "_ascend_kernels" / "axpy").is_dir()
    run = ("import torch, sys; sys.path.insert(0, %r); import userpkg\n"
           "x = torch.arange(100.); y = torch.ones(100)\n"
           "out = torch.ops.userpkg.axpy(x, y, 2.0)\n"
           "assert torch.equal(out, 2 * x + 1), out\nprint('ok')\n") % str(tmp_path)
    env_run = dict(env, CXX="/nonexistent/g++", PATH="/usr/bin/does-not-exist",
                   ASCEND_EXT_CACHE=str(tmp_path / "empty-cache"))
    result = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, env=env_run, timeout=300)
    assert result.returncode == 0 and "ok" in result.stdout, result.stdout + result.stderr
    # the counterpart: without the prebuilt kernels the same process needs the compiler, and says so
    shutil.rmtree(pkg / "_ascend_kernels")
    result = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, env=env_run, timeout=300)
    assert result.returncode != 0 and re.search(r"the C\+\+ compiler '/nonexistent/g\+\+' was not found|needs clang\+\+", result.stderr), \
        result.stderr[-2000:]
# ---- promoted dtypes, two entry points in one source, jvp formulas on primals ---------------------------------


def declare_widen(kernel_dir, entry="scale_widen", **overrides):
    """out = x * s (scale_widen) or x + s (shift_widen) where s and out have promoted('x', 'float32')."""
    def tiling(x, s):
        return al.Tiling(1, struct.pack("<II", x.numel(), 0))

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    def backward(ctx, grad):
        x, s = ctx.saved_tensors
        if entry == "shift_widen":
            return grad.to(x.dtype), grad
        return (grad * s).to(x.dtype), grad * x.to(s.dtype)

    def jvp(ctx, tx, ts):  # nonlinear for scale_widen: it needs the primals
        x, s = ctx.saved_tensors
        if entry == "shift_widen":
            return tx.to(s.dtype) + ts
        return tx.to(s.dtype) * s + x.to(s.dtype) * ts

    decl = dict(kernel=al.Kernel(str(kernel_dir / "widen.cpp"), entry=entry),
                dtypes={"x": ("float16", "bfloat16", "float32", "float64"), "s": al.promoted("x", "float32")},
                outputs={"out": al.Out(shape="x", dtype=al.promoted("x", "float32"))},
                tiling=tiling, setup_context=setup_context, backward=backward, jvp=jvp)
    decl.update(overrides)
    return al.op(f"ae_test::{fresh_name(entry)}(Tensor x, Tensor s) -> Tensor out", **decl)


def test_promoted_dtype_of_an_argument_and_an_output(kernel_dir):
    op = declare_widen(kernel_dir)
    macros = {v.key: dict(v.defines) for v in op.kernel_spec.variants}
    assert macros["float16"] == {"DTYPE_X": "half", "DTYPE_S": "float", "DTYPE_OUT": "float"}
    assert macros["float64"] == {"DTYPE_X": "double", "DTYPE_S": "double", "DTYPE_OUT": "double"}
    for dtype, acc in ((torch.float16, torch.float32), (torch.bfloat16, torch.float32),
                       (torch.float32, torch.float32), (torch.float64, torch.float64)):
        x, s = torch.randn(37).to(dtype), torch.randn(37, dtype=acc)
        out = op(x, s)
        assert out.dtype == acc and op.op(x.to("meta"), s.to("meta")).dtype == acc
        torch.testing.assert_close(out.double(), x.double() * s.double(), rtol=1e-6, atol=1e-6)
    with pytest.raises(TypeError, match=r"argument 's' has dtype torch.float16; it must have dtype torch.float32, "
                                        r"torch.promote_types of 'x' \(torch.float16\), float32"):
        op(torch.randn(8).half(), torch.randn(8).half())
    with pytest.raises(al.DeclarationError, match=r"argument 's': promoted\(\) names 'y', which is neither"):
        declare_widen(kernel_dir, dtypes={"x": ("float32",), "s": al.promoted("x", "y")})
    with pytest.raises(al.DeclarationError, match=r"output 'out': promoted\(\) needs at least one"):
        declare_widen(kernel_dir, outputs={"out": al.Out(shape="x", dtype=al.promoted())})


def test_two_entry_points_of_one_source_each_build_every_variant(kernel_dir):
    scale, shift = declare_widen(kernel_dir), declare_widen(kernel_dir, entry="shift_widen")
    for dtype in (torch.float16, torch.float32, torch.float64):
        x = torch.randn(20).to(dtype)
        s = torch.randn(20, dtype=torch.promote_types(dtype, torch.float32))
        torch.testing.assert_close(scale(x, s).double(), x.double() * s.double(), rtol=1e-6, atol=1e-6)
        torch.testing.assert_close(shift(x, s).double(), x.double() + s.double(), rtol=1e-6, atol=1e-6)


def test_float64_builds_are_twin_only_and_refused_on_the_npu(kernel_dir, monkeypatch):
    op = declare_widen(kernel_dir)
    assert op.kernel_spec.other_entries() == ["shift_widen"]
    assert {v.key: v.twin_only for v in op.kernel_spec.variants} == {
        "float16": False, "bfloat16": False, "float32": False, "float64": True}
    # the NPU implementation, past its device check (no NPU here): a float64 call is refused before any build
    x = torch.randn(4, dtype=torch.float64)
    monkeypatch.setattr(op, "_checked", lambda values, device_type: (values, (torch.float64,)))
    with pytest.raises(TypeError, match=r"the kernel's float64 build runs on the CPU twin only .* on the NPU pass "
                                        r"float32, float16 or bfloat16"):
        op._npu_impl(x, x)
    monkeypatch.setattr(op, "_checked", lambda values, device_type: (values, (torch.float32,)))
    with pytest.raises(Exception) as info:  # the passing counterpart goes on to the NPU launch path
        op._npu_impl(x.float(), x.float())
    assert "CPU twin only" not in str(info.value)


def test_jvp_formula_gets_the_primals_without_their_tangents(kernel_dir):
    """A jvp formula that uses the saved inputs (a nonlinear op) gives the tangent of the product rule; it
    failed while the formula saw the dual tensors ('a forward grad that itself has a forward gradient')."""
    op = declare_widen(kernel_dir)
    x, s, tx, ts = (torch.randn(12, dtype=torch.float64) for _ in range(4))
    out, tangent = torch.func.jvp(op, (x, s), (tx, ts))
    torch.testing.assert_close(out, x * s)
    torch.testing.assert_close(tangent, tx * s + x * ts)
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        dual = op(fwAD.make_dual(x, tx), s)  # s without a tangent: zeros
        torch.testing.assert_close(fwAD.unpack_dual(dual).tangent, tx * s)
    shift = declare_widen(kernel_dir, entry="shift_widen")  # the linear counterpart, which never used primals
    torch.testing.assert_close(torch.func.jvp(shift, (x, s), (tx, ts))[1], tx + ts)


def test_check_op_on_promoted_outputs(kernel_dir):
    def samples(dtype):
        acc = torch.promote_types(dtype, torch.float32)
        return [at.Sample((torch.randn(5, 7).to(dtype), torch.randn(5, 7, dtype=acc)), {}, "sample")]

    report = at.check_op(declare_widen(kernel_dir), samples, lambda x, s: x * s,
                         skip=("compile_fullgraph_inductor", "export_round_trip"))
    for name in ("matches_float64_reference", "float64_on_the_twin", "forward_ad_matches_the_reference_jvp",
                 "jacfwd_equals_jacrev_and_the_reference", "torch_func_grad_and_hessian",
                 "gradcheck_and_gradgradcheck"):
        assert report[name] == "ok", f"{name}: {report[name]}"


def test_check_op_catches_a_result_of_another_dtype_than_declared():
    """Meta says float32 for float16 x; a CPU kernel returning float16 is named by check_op (a test that can
    fail), one returning float32 passes."""
    def declare(cpu):
        name = fresh_name("dtype_rule")
        lib = torch.library.Library("ae_test", "FRAGMENT")
        lib.define(f"{name}(Tensor x) -> Tensor")
        lib.impl(name, cpu, "CPU")
        lib.impl(name, lambda x: torch.empty_like(x, dtype=torch.float32), "Meta")
        _KEEP.append(lib)
        return getattr(torch.ops.ae_test, name).default

    def run(op):
        return at.check_op(op, lambda dtype: [at.Sample((torch.randn(4).to(dtype),), {}, "s")], lambda x: 2 * x,
                           dtypes=(torch.float16,), skip=[n for n in at.CHECKS if n != "matches_float64_reference"])

    with pytest.raises(AssertionError, match=r"result dtype torch.float16, the op declares torch.float32"):
        run(declare(lambda x: x * 2))
    assert run(declare(lambda x: x.float() * 2))["matches_float64_reference"] == "ok"


_KEEP = []  # torch.library.Library objects of the tests above, kept alive


FOURTH_OP = os.path.join(os.path.dirname(__file__), "fourth_op")


@pytest.fixture(scope="module")
def cpp_tiling_dir(tmp_path_factory):
    """A user's op whose tiling is C++ (al.CppTiling): the scale_shift kernel, its struct and its tiling header
    (tests/fourth_op), copied into a folder of their own with the layout they include each other by, plus
    tilings that refuse, throw or do not exist."""
    d = tmp_path_factory.mktemp("cpp_tiling")
    for rel in ("op_kernel/scale_shift.cpp", "op_kernel/scale_shift_tiling_data.h", "op_host/scale_shift_tiling.h"):
        os.makedirs(d / os.path.dirname(rel), exist_ok=True)
        shutil.copy(os.path.join(FOURTH_OP, rel), d / rel)
    (d / "op_host" / "picky_tiling.h").write_text(
        '#pragma once\n#include <stdexcept>\n#include "scale_shift_tiling.h"\n'
        "namespace user {\n"
        "inline ascend_ext::TilingDecision Picky(const ascend_ext::TilingArgs& args, "
        "const ascend_ext::PlatformInfo& platform, ScaleShiftTilingData& t) {\n"
        '    if (args.attrs[0].real < 0) return {0, 0, 0, "a must not be negative"};\n'
        '    if (args.attrs[1].real > 1e30) throw std::runtime_error("b is out of range");\n'
        "    return ascend_ext::ScaleShiftTiling(args, platform, t);\n"
        "}\n}  // namespace user\n")
    return d


def declare_cpp_tiled(d, function="ascend_ext::ScaleShiftTiling", header="op_host/scale_shift_tiling.h"):
    return al.op(f"ae_test::{fresh_name('scale_shift')}(Tensor x, float a, float b) -> Tensor y",
                 kernel=al.Kernel(str(d / "op_kernel" / "scale_shift.cpp"), entry="scale_shift"),
                 dtypes={"x": ("float32", "float16")}, outputs={"y": al.like("x")},
                 tiling=al.CppTiling(str(d / header), function))


def test_cpp_tiling_tiles_a_user_op(cpp_tiling_dir):
    op = declare_cpp_tiled(cpp_tiling_dir)
    for dtype, eps in ((torch.float32, 2.0 ** -23), (torch.float16, 2.0 ** -10)):
        for shape in ((7,), (3, 1000), (48 * 2048 + 5,)):  # one core, a tail, every core
            x = torch.randn(shape, dtype=torch.float64).to(dtype)
            a, b = float(torch.randn(())), float(torch.randn(()))
            with ascend_ext.twin.record() as rec:
                y = op(x, a, b)
            a_k, b_k = (float(torch.tensor(v, dtype=dtype)) for v in (a, b))  # a and b as the kernel holds them
            ref = x.double() * a_k + b_k
            # two roundings in the kernel's dtype (x * a, then + b): each at most eps/2 of what it rounds
            bound = eps * ((x.double() * a_k).abs() + ref.abs()) + 1e-30
            assert ((y.double() - ref).abs() <= bound).all(), (shape, dtype, (y.double() - ref).abs().max())
            # the block dim is the C++ function's: more than one core once the input is over 8 KiB
            cores = rec.launches[-1]["block_dim"] if isinstance(rec.launches[-1], dict) else rec.launches[-1].block_dim
            assert (cores > 1) == (x.numel() * x.element_size() > 8192), (shape, dtype, cores)


def test_cpp_tiling_errors_name_the_op(cpp_tiling_dir):
    picky = declare_cpp_tiled(cpp_tiling_dir, "user::Picky", "op_host/picky_tiling.h")
    x = torch.randn(100)
    torch.testing.assert_close(picky(x, 2.0, 1.0), x * 2.0 + 1.0)
    with pytest.raises(ValueError, match=r"ae_test::scale_shift\d+: a must not be negative"):
        picky(x, -1.0, 0.0)
    with pytest.raises(RuntimeError, match=r"ae_test::scale_shift\d+: the C\+\+ tiling user::Picky threw: b is out of range"):
        picky(x, 1.0, 1e31)
    with pytest.raises(al.DeclarationError, match=r"op ae_test::scale_shift\d+: CppTiling: header .*no_such_tiling.h does not exist"):
        declare_cpp_tiled(cpp_tiling_dir, header="op_host/no_such_tiling.h")
    with pytest.raises(al.DeclarationError, match="'ScaleShift Tiling' is not a C\\+\\+ function name"):
        declare_cpp_tiled(cpp_tiling_dir, function="ScaleShift Tiling")
    with pytest.raises(ascend_ext.twin.KernelCompileError, match=r"error: .NoSuchTiling. is not a member of .ascend_ext."):
        missing = declare_cpp_tiled(cpp_tiling_dir, function="ascend_ext::NoSuchTiling")
        missing(x, 1.0, 0.0)

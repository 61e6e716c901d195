"""KernelLibrary.launch: kernels found by name, arguments checked against the entry's own signature,
scalars and structs passed by value."""
import ctypes
import os
import struct

import pytest
import torch

import ascend_ext

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "by_value.cpp")])


class ScaleArgs(ctypes.Structure):
    _fields_ = [("n", ctypes.c_uint32), ("alpha", ctypes.c_float)]


def test_entries_are_read_from_the_source(lib):
    assert lib.entries == {"scale_scalars": ["x", "y", "n", "alpha"], "scale_struct": ["x", "y", "args"]}


@pytest.mark.parametrize("n", [1, 13, 64])
def test_scalars_by_value(lib, n):
    x = torch.randn(n)
    y = torch.zeros(n)
    stats = lib.launch("scale_scalars", 1, x=x, y=y, n=n, alpha=-2.5)
    assert torch.equal(y, x * -2.5)
    assert stats.total.vector_element_ops == {"Muls": n}


def test_struct_by_value(lib):
    x = torch.randn(10)
    y = torch.zeros(10)
    lib.launch("scale_struct", 1, x=x, y=y, args=ScaleArgs(10, 3.0))
    assert torch.equal(y, x * 3.0)
    y.zero_()
    lib.launch("scale_struct", 1, x=x, y=y, args=struct.pack("<If", 10, 0.5))
    assert torch.equal(y, x * 0.5)


def test_unknown_kernel_is_named(lib):
    with pytest.raises(ValueError, match=r"no kernel 'scale' in .*; its kernels: scale_scalars, scale_struct"):
        lib.launch("scale", 1, x=torch.zeros(1))


def test_wrong_number_of_arguments_is_refused_before_the_launch(lib):
    with pytest.raises(TypeError, match=r"the kernel takes \(x, y, n, alpha\), got \(x, y, n\)"):
        lib.launch("scale_scalars", 1, x=torch.zeros(8), y=torch.zeros(8), n=8)


def test_misnamed_argument_is_refused(lib):
    with pytest.raises(TypeError, match=r"takes \(x, y, n, alpha\), got \(x, y, count, alpha\)"):
        lib.launch("scale_scalars", 1, x=torch.zeros(8), y=torch.zeros(8), count=8, alpha=1.0)


@pytest.mark.parametrize("kernel,args,message", [
    ("scale_scalars", dict(n=2.0, alpha=1.0), "argument 'n' is an integer parameter, got float"),
    ("scale_scalars", dict(n=-1, alpha=1.0), "argument 'n': -1 does not fit the parameter's 4 bytes"),
    ("scale_scalars", dict(n=8, alpha="1"), "argument 'alpha' is a floating-point parameter, got str"),
    ("scale_struct", dict(args=b"\0" * 4), "is a struct of 8 bytes passed by value; .* got 4 bytes"),
])
def test_by_value_arguments_are_checked(lib, kernel, args, message):
    with pytest.raises((TypeError, ValueError), match=message):
        lib.launch(kernel, 1, x=torch.zeros(8), y=torch.zeros(8), **args)


def test_library_keeps_its_own_statistics(lib):
    with lib.record() as rec:
        lib.launch("scale_scalars", 1, x=torch.ones(8), y=torch.zeros(8), n=8, alpha=1.0)
        lib.launch("scale_scalars", 1, x=torch.ones(16), y=torch.zeros(16), n=16, alpha=1.0)
    assert [r.total.gm_bytes_written for r in rec.launches] == [32, 64]
    assert lib.last_launch_stats().total.gm_bytes_read == 64


def test_parameters_may_be_named_like_the_launch_arguments(tmp_path):
    src = tmp_path / "named_self.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void copy_first(GM_ADDR self, GM_ADDR kernel, uint32_t block_dim)\n'
        '{\n'
        '    AscendC::GlobalTensor<float> a, b;\n'
        '    a.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(self), block_dim);\n'
        '    b.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(kernel), block_dim);\n'
        '    AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::SINGLE_CACHE_LINE,\n'
        '                                      AscendC::DcciDst::CACHELINE_OUT>(a);  // GetValue docs\n'
        '    b.SetValue(0, a.GetValue(0));\n'
        '}\n')
    lib = ascend_ext.twin.compile_kernels([str(src)])
    out = torch.zeros(2)
    lib.launch("copy_first", 1, self=torch.tensor([7.0, 8.0]), kernel=out, block_dim=2)
    assert out.tolist() == [7.0, 0.0]


def test_block_dim_by_keyword_or_missing(lib):
    x, y = torch.randn(8), torch.zeros(8)
    lib.launch("scale_scalars", block_dim=1, x=x, y=y, n=8, alpha=2.0)
    assert torch.equal(y, x * 2.0)
    with pytest.raises(TypeError, match="give block_dim"):
        lib.launch("scale_scalars", x=x, y=y, n=8, alpha=2.0)

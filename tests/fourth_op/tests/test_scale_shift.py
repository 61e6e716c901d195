"""scale_shift's own tests (its conformance entry comes from its declaration: tests/op_db.py): how its C++
tiling spreads the elements over the cores of each platform, and what it refuses."""
import pytest
import torch

import ascend_ext

OP = torch.ops.ascend_ext.scale_shift


@pytest.mark.parametrize("platform, cores", [("Ascend910B2", 48), ("Ascend910B3", 40)])
def test_a_large_input_runs_on_every_vector_core(platform, cores):
    previous = ascend_ext.twin.get_platform()
    ascend_ext.twin.set_platform(platform)
    try:
        x = torch.randn(cores * 4096 + 7)
        with ascend_ext.twin.record() as rec:
            y = OP(x, 1.5, -2.0)
    finally:
        ascend_ext.twin.set_platform(previous)
    torch.testing.assert_close(y.double(), x.double() * 1.5 - 2.0, rtol=2e-6, atol=1e-6)
    (launch,) = rec.launches
    assert launch.block_dim == cores
    assert launch.total.gm_bytes_read == x.numel() * 4 and launch.total.gm_bytes_written == x.numel() * 4


def test_a_small_input_stays_on_one_core():
    with ascend_ext.twin.record() as rec:
        OP(torch.randn(100), 2.0, 1.0)
    assert rec.launches[0].block_dim == 1


def test_a_dtype_the_kernel_is_not_built_for_is_refused():
    with pytest.raises(TypeError, match=r"ascend_ext::scale_shift: argument 'x' has dtype torch.bfloat16; the "
                                        r"kernel is built for float32, float16, float64"):
        OP(torch.ones(4, dtype=torch.bfloat16), 1.0, 0.0)

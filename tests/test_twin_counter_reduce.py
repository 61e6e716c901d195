"""Reductions in counter mode: the count set with SetVectorMask decides the repeats; repeatTime is
ignored, even 0."""
import os

import torch

import ascend_ext

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")


def test_counter_mode_row_sum_ignores_repeat_time():
    lib = ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "counter_mode_reduce.cpp")])
    x = torch.randint(-8, 8, (1024,)).float()  # integers: the sum is exact in any order
    y = torch.full((8,), 7.0)
    lib.launch("row_sum_counter", 1, x=x, y=y)
    assert y[0].item() == x.sum().item()
    assert torch.equal(y[1:], torch.zeros(7))

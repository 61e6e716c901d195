"""The VectorAdd tiling's decisions, pinned: a change to the plan must show up in review."""
import expecttest
import torch

import ascend_ext

SIZES = [0, 1, 31, 32, 4095, 4096 * 48 + 7, 2**24, 2**31 + 5]
FIELDS = ["block_dim", "former_num", "former_length", "tail_length", "tile_length", "ub_bytes"]


def table(op, dtype, platform="Ascend910B2"):
    rows = [f"{'n':>12} " + " ".join(f"{f:>13}" for f in FIELDS)]
    for n in SIZES:
        plan = ascend_ext.twin.plan(op, [n], dtype, platform)
        rows.append(f"{n:>12} " + " ".join(f"{plan[f]:>13}" for f in FIELDS))
    return "\n".join(rows)


class TestVectorAddPlans(expecttest.TestCase):
    def test_float32(self):
        self.assertExpectedInline(table("vector_add", torch.float32), """\
           n     block_dim    former_num former_length   tail_length   tile_length      ub_bytes
           0             0             0             0             0             0             0
           1             1             0            16             8            64          1536
          31             1             0            40            32            64          1536
          32             1             0            40            32            64          1536
        4095             2             0          2056          2048          2048         49152
      196615            48             1          4104          4096          4160         99840
    16777216            48            32        349528        349520          7808        187392
  2147483653            48            17      44739248      44739240          7808        187392""")

    def test_bfloat16(self):
        self.assertExpectedInline(table("vector_add", torch.bfloat16), """\
           n     block_dim    former_num former_length   tail_length   tile_length      ub_bytes
           0             0             0             0             0             0             0
           1             1             0            32            16            64          1280
          31             1             0            48            32            64          1280
          32             1             0            48            32            64          1280
        4095             1             0          4112          4096          4096         81920
      196615            48             1          4112          4096          4160         83200
    16777216            48            16        349536        349520          9408        188160
  2147483653            48            33      44739248      44739232          9408        188160""")

    def test_float16_on_910b3(self):
        self.assertExpectedInline(table("vector_add", torch.float16, "Ascend910B3"), """\
           n     block_dim    former_num former_length   tail_length   tile_length      ub_bytes
           0             0             0             0             0             0             0
           1             1             0            32            16            64           768
          31             1             0            48            32            64           768
          32             1             0            48            32            64           768
        4095             1             0          4112          4096          4096         49152
      196615            40             9          4928          4912          4928         59136
    16777216            40            16        419440        419424         15680        188160
  2147483653            40             9      53687104      53687088         15680        188160""")


def test_plan_rejects_unknown_op_and_platform():
    import pytest

    with pytest.raises(ValueError, match="no tiling plan for op 'conv'"):
        ascend_ext.twin.plan("conv", [4])
    with pytest.raises(ValueError, match="unknown platform 'Ascend950'"):
        ascend_ext.twin.plan("vector_add", [4], platform="Ascend950")

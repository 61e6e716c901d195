"""The tilings' decisions, pinned: a change to a plan must show up in review.

vector_add shapes are [n] (two operands of n elements) or [rows, d] (rows x d plus a broadcast row of d
elements); matmul shapes are [m, n, k] or [m, n, k, trans_a, trans_b, has_bias].
"""
import expecttest
import torch

import ascend_ext

VECTOR_ADD_SHAPES = [[0], [1], [31], [4095], [4096 * 48 + 7], [2**24], [2**31 + 5],
          [3, 7], [10000, 7], [1 << 20, 128], [48, 4096], [3, 100000], [1, 3_000_000]]
VECTOR_ADD_FIELDS = ["block_dim", "row_groups", "col_groups", "rows_former", "cols_former", "tile_rows", "tile_cols",
          "ub_bytes", "bcast_elems_read"]


def table(op, shapes, fields, dtype, platform="Ascend910B2", flags=()):
    """One row per shape: the plan's fields, in columns."""
    rows = [f"{'shape':>16} " + " ".join(f"{f.replace('_', ' ')[:11]:>11}" for f in fields)]
    for shape in shapes:
        plan = ascend_ext.twin.plan(op, [*shape, *flags], dtype, platform)
        rows.append(f"{'x'.join(map(str, shape)):>16} " + " ".join(f"{plan[f]:>11}" for f in fields))
    return "\n".join(rows)


def vector_add_table(dtype, platform="Ascend910B2"):
    return table("vector_add", VECTOR_ADD_SHAPES, VECTOR_ADD_FIELDS, dtype, platform)


class TestVectorAddPlans(expecttest.TestCase):
    def test_float32(self):
        self.assertExpectedInline(vector_add_table(torch.float32), """\
           shape   block dim  row groups  col groups rows former cols former   tile rows   tile cols    ub bytes bcast elems
               0           0           0           0           0           0           0           0           0           0
               1           1           1           1           1           8           1          64        1280           1
              31           1           1           1           1          32           1          64        1280          31
            4095           2           1           2           1        2048           1        2048       40960        4095
          196615          48           1          48           1        4104           1        4160       83200      196615
        16777216          48           1          48           1      349528           1        7808      156160    16777216
      2147483653          48           1          48           1    44739248           1        7808      156160  2147483653
             3x7           1           1           1           3           7           3           7         512           7
         10000x7          35          35           1         286           7         286           7       45792         245
     1048576x128          48          48           1       21846         128          61         128      156672        6144
         48x4096          48          24           2           2        2048           1        2048       40960       98304
        3x100000          48           1          48           3        2088           1        2112       42240      100000
       1x3000000          48           1          48           1       62504           1        7808      156160     3000000""")

    def test_bfloat16(self):
        self.assertExpectedInline(vector_add_table(torch.bfloat16), """\
           shape   block dim  row groups  col groups rows former cols former   tile rows   tile cols    ub bytes bcast elems
               0           0           0           0           0           0           0           0           0           0
               1           1           1           1           1          16           1          64        1152           1
              31           1           1           1           1          32           1          64        1152          31
            4095           1           1           1           1        4096           1        4096       73728        4095
          196615          48           1          48           1        4112           1        4160       74880      196615
        16777216          48           1          48           1      349536           1       10432      187776    16777216
      2147483653          48           1          48           1    44739248           1       10432      187776  2147483653
             3x7           1           1           1           3           7           3           7         800           7
         10000x7          18          18           1         556           7         556           7      142368         126
     1048576x128          48          48           1       21846         128          81         128      166144        6144
         48x4096          48          48           1           1        4096           1        4096       73728      196608
        3x100000          25           1          25           3        4000           1        4032       72576      100000
       1x3000000          48           1          48           1       62512           1       10432      187776     3000000""")

    def test_float16_on_910b3(self):
        self.assertExpectedInline(vector_add_table(torch.float16, "Ascend910B3"), """\
           shape   block dim  row groups  col groups rows former cols former   tile rows   tile cols    ub bytes bcast elems
               0           0           0           0           0           0           0           0           0           0
               1           1           1           1           1          16           1          64         640           1
              31           1           1           1           1          32           1          64         640          31
            4095           1           1           1           1        4096           1        4096       40960        4095
          196615          40           1          40           1        4928           1        4928       49280      196615
        16777216          40           1          40           1      419440           1       15680      156800    16777216
      2147483653          40           1          40           1    53687104           1       15680      156800  2147483653
             3x7           1           1           1           3           7           3           7         512           7
         10000x7          18          18           1         556           7         556           7       88992         126
     1048576x128          40          40           1       26215         128         122         128      156416        5120
         48x4096          40          40           1           2        4096           2        4096       90112      163840
        3x100000          25           1          25           3        4000           1        4032       40320      100000
       1x3000000          40           1          40           1       75008           1       15680      156800     3000000""")


MATMUL_SHAPES = [(1, 1, 1), (17, 33, 65), (128, 128, 128), (1000, 1000, 1000), (4096, 4096, 4096),
                 (1, 4096, 4096), (4096, 1, 4096), (8, 8, 100000)]
MATMUL_FIELDS = ["block_dim", "m_core_num", "n_core_num", "single_core_m", "single_core_n", "base_m", "base_n",
                 "base_k", "step_ka", "depth_a1", "iterate_order", "max_core_macs"]


def matmul_table(dtype, flags=(0, 0, 0)):
    return table("matmul", MATMUL_SHAPES, MATMUL_FIELDS, dtype, flags=flags)


class TestMatmulPlans(expecttest.TestCase):
    def test_float16(self):
        self.assertExpectedInline(matmul_table(torch.float16), """\
           shape   block dim  m core num  n core num single core single core      base m      base n      base k     step ka    depth a1 iterate ord max core ma
           1x1x1           1           1           1           1           1          16          16          16           1           2           1           1
        17x33x65           1           1           1          17          33          32          48          80           1           2           1       36465
     128x128x128           1           1           1         128         128         128         128         128           1           2           1     2097152
  1000x1000x1000          24           3           8         336         128         128         128         128           3           6           1    43008000
  4096x4096x4096          24           3           8        1376         512         128         256          64           5          10           1  2885681152
     1x4096x4096           8           1           8           1         512          16         256          64          64          64           1     2097152
     4096x1x4096           8           8           1         512           1         128          16         128           5          10           1     2097152
      8x8x100000           1           1           1           8           8          16          16        1024           3           6           1     6400000""")

    def test_float32_transposed_with_bias(self):
        self.assertExpectedInline(matmul_table(torch.float32, (1, 1, 1)), """\
           shape   block dim  m core num  n core num single core single core      base m      base n      base k     step ka    depth a1 iterate ord max core ma
           1x1x1           1           1           1           1           1          16          16          16           1           2           1           1
        17x33x65           1           1           1          17          33          32          48          80           1           2           1       36465
     128x128x128           1           1           1         128         128         128         128          64           2           4           1     2097152
  1000x1000x1000          24           3           8         336         128         128         128          64           3           6           1    43008000
  4096x4096x4096          24           3           8        1376         512         128         256          32           5          10           1  2885681152
     1x4096x4096           8           1           8           1         512          16         256          32         128         128           1     2097152
     4096x1x4096           8           8           1         512           1         128          16          64           3           6           1     2097152
      8x8x100000           1           1           1           8           8          16          16         512           3           6           1     6400000""")

"""ascend_ext on the CPU twin: run the VectorAdd Ascend C kernel, check it, and show what each core did."""
import argparse

import torch

import ascend_ext


def show_vector_add(n: int, dtype: torch.dtype) -> None:
    x = torch.randn(n, dtype=torch.float64).to(dtype)
    y = torch.randn(n, dtype=torch.float64).to(dtype)
    z = ascend_ext.vector_add(x, y)
    stats = ascend_ext.twin.last_launch_stats()
    plan = ascend_ext.twin.plan("vector_add", [n], dtype)
    err = (z.double() - (x.double() + y.double())).abs().max().item()
    print(f"\nvector_add  n={n:,}  dtype={str(dtype).replace('torch.', '')}  platform={stats.platform}")
    print(f"  result check: max |z - (x + y)| vs float64 = {err:.3g}   equal to torch.add: {torch.equal(z, x + y)}")
    cores = f"{plan['block_dim']} core" + ("s" if plan["block_dim"] != 1 else "")
    print(f"  plan: {cores}, tile {plan['tile_rows']}x{plan['tile_cols']} elements, {plan['ub_bytes']:,} B of UB per core")
    total = stats.total
    print(f"  GM read {total.gm_bytes_read:,} B ({total.gm_bytes_read / n:g} B/element), "
          f"written {total.gm_bytes_written:,} B, DataCopy calls {total.data_copy_calls}, "
          f"vector ops {total.vector_element_ops}")
    print("  core  GM read B   GM write B  DataCopy  UB bytes")
    shown = stats.cores if len(stats.cores) <= 6 else stats.cores[:3] + stats.cores[-2:]
    for i, c in enumerate(shown):
        idx = i if i < 3 or len(stats.cores) <= 6 else len(stats.cores) - (len(shown) - i)
        if i == 3 and len(stats.cores) > 6:
            print("   ...")
        print(f"  {idx:>4} {c.gm_bytes_read:>11,} {c.gm_bytes_written:>12,} {c.data_copy_calls:>9} "
              f"{c.ub_bytes_allocated:>9,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 4096 * 48 + 7, 1 << 22])
    args = parser.parse_args()
    print(f"torch {torch.__version__}, ascend_ext {ascend_ext.__version__}; kernels run on the CPU twin of "
          f"{ascend_ext.twin.get_platform()}")
    for n in args.sizes:
        show_vector_add(n, torch.float32)
    show_vector_add(args.sizes[-1], torch.bfloat16)


if __name__ == "__main__":
    main()

"""sgl-project/sgl-kernel-npu: the Ascend C kernels of SGLang's NPU backend (csrc/)."""
from typing import List

import torch

from .common import Case, Kernel, rand
from .lora import sgemmv_expand_case, sgemmv_shrink_case

REPO = "sgl-project/sgl-kernel-npu"

def helloworld_case(kdir: str, gen: torch.Generator) -> Case:
    # op_host: 8 cores; the kernel adds two half tensors in 8 tiles of a double-buffered queue per core.
    n = 8 * 2048
    x, y = rand(gen, n, -4, 4, torch.float16), rand(gen, n, -4, 4, torch.float16)
    return Case(8, {"x": x, "y": y, "z": torch.zeros(n, dtype=torch.float16), "totalLength": n},
                {"z": x.double() + y.double()}, rtol=1e-3, atol=1e-3)


def apply_token_bitmask_case(kdir: str, gen: torch.Generator) -> List[Case]:
    """logits[r, i] = -inf where bit i of the row's bitmask is 0 (the host pads the vocabulary to 256 and the
    bitmask to its words with zeros); tileLength from the UB as the host computes it, coreNum 8."""
    cases = []
    for rows, vocab in ((5, 5000), (11, 32000)):
        padded = (vocab + 255) // 256 * 256
        words = (padded + 31) // 32
        logits = torch.zeros(rows, padded, dtype=torch.float16)
        logits[:, :vocab] = rand(gen, (rows, vocab), -8, 8, torch.float16)
        bitmask = torch.zeros(rows, words, dtype=torch.int32)
        bitmask[:, :(vocab + 31) // 32] = torch.randint(-2**31, 2**31 - 1, (rows, (vocab + 31) // 32), generator=gen,
                                                         dtype=torch.int32)
        bitmask[0, :] = -1  # a row with nothing masked (the kernel skips all-ones words)
        bits = ((bitmask.long().unsqueeze(-1) >> torch.arange(32)) & 1).view(rows, -1)[:, :padded]
        expect = logits.double().masked_fill(bits == 0, float("-inf"))
        blocks = min(rows, 8)
        per_unit = 2 * (2 * 256 * 2 + (256 // 32) * 4)
        tile = min((192 * 1024 - 16384) // per_unit * 256, padded)
        cases.append(Case(blocks, {"logits": logits, "bitmask": bitmask, "numRows": rows, "vocabSize": padded,
                                   "logitsStride": padded, "bitmaskStride": words, "baseRows": rows // blocks,
                                   "extraCores": rows % blocks, "tileLength": tile, "blockDim": blocks,
                                   "dtypeSize": 2}, {"logits": expect}, label=f"{rows} x {vocab}"))
    return cases


def causal_conv1d_update_case(kdir: str, gen: torch.Generator) -> List[Case]:
    """Mamba's causal_conv1d_update: per sequence, each new token t sees the window (state, x_t): y_t =
    silu(sum_k window[k] * w[k] + bias), then the state shifts by one and takes x_t. Half data, float math."""
    import struct
    cases = []
    for batch, seq, dim, width, indices in ((6, 1, 256, 4, True), (3, 2, 128, 3, False)):
        state_len = width - 1
        slots = batch + 2
        x = rand(gen, (batch, seq, dim), -1, 1, torch.float16)
        w = rand(gen, (width, dim), -1, 1, torch.float16)
        bias = rand(gen, dim, -0.5, 0.5, torch.float16)
        state = rand(gen, (slots if indices else batch, state_len, dim), -1, 1, torch.float16)
        idx = torch.randperm(slots, generator=gen)[:batch].to(torch.int32)
        if indices:
            idx[1] = -1  # the pad slot: the sequence is skipped
        new_state = state.double().clone()
        y = torch.zeros(batch, seq, dim, dtype=torch.float64)
        for b in range(batch):
            s = int(idx[b]) if indices else b
            if s == -1:
                continue
            window = new_state[s].clone()
            for t in range(seq):
                full = torch.cat([window, x[b, t].double().unsqueeze(0)])
                acc = (full * w.double()).sum(0) + bias.double()
                y[b, t] = acc / (1 + torch.exp(-acc))
                window = full[1:]
            new_state[s] = window
        cores = min(batch, 8)
        tiling = struct.pack("<14q", cores, batch // cores, batch - batch // cores * (cores - 1), batch, seq, dim,
                             width, state_len, int(indices), 1, 0, 0, 1, -1)
        y_out = torch.zeros(batch, seq, dim, dtype=torch.float16)
        if indices:
            y_out[1] = 0
        cases.append(Case(cores, {"x": x, "weight": w, "conv_state": state.clone(),
                                  "conv_state_indices": idx if indices else None, "bias": bias,
                                  "num_accepted_tokens": None, "query_start_loc": None, "y": y_out,
                                  "workspace": None, "tiling": tiling},
                          {"y": y, "conv_state": new_state}, rtol=4e-3, atol=4e-3,
                          label=f"batch {batch} seq {seq} width {width}{' indices' if indices else ''}"))
    return cases


def assign_cache_case(kdir: str, gen: torch.Generator) -> List[Case]:
    """SGLang's assign_req_to_token_pool: dst[b, dstStart[b]:dstEnd[b]] = src[srcStart[b]:srcEnd[b]] for each
    row b (the op's own test, tests/python/sgl_kernel_npu/test_inplace_assign_cache.py: 48 rows, start offsets uniform in [0, L - gap - 1), src the flat out_cache_loc of twice the
    rows, srcStart/srcEnd its cumulative lengths). Rows go to the cores in turn; each row's copy-back waits
    (IBWait) for the previous row's (IBSet). Host tiling: the tiling struct of op_host/tiling_data.h, the sync
    workspace blockDim * 64 + 32 zeroed bytes, the UB size of A2, coreNum 8."""
    import struct
    cases = []
    rows = 48  # the test's 96 requests, half of them assigned
    for dtype, length, gap in ((torch.int8, 1024, 1), (torch.int16, 1024, 2), (torch.int32, 1024, 2),
                               (torch.int64, 1024, 1), (torch.int32, 100000, 50000)):
        start = torch.randint(0, length - gap - 1, (rows,), generator=gen, dtype=torch.int64)
        end = start + gap
        dst = torch.randint(32, (rows, length), generator=gen, dtype=dtype)
        src = torch.randint(32, (2 * rows * gap,), generator=gen, dtype=dtype)
        src_end = torch.cumsum(end - start, 0)
        src_start = src_end - (end - start)
        expect = dst.clone()
        for b in range(rows):
            expect[b, int(start[b]):int(end[b])] = src[int(src_start[b]):int(src_end[b])]
        cores = 8
        workspace = cores * 32 + cores * 32 + 32
        tiling = struct.pack("<5I", rows, length, dtype.itemsize, workspace, 192 * 1024)
        cases.append(Case(cores, {"dstPtr": dst, "srcPtr": src, "dstStartIdxPtr": start, "dstEndIdxPtr": end,
                                  "srcStartIdxPtr": src_start, "srcEndIdxPtr": src_end,
                                  "sync": torch.zeros(workspace // 4, dtype=torch.int32), "tilingPtr": tiling},
                          {"dstPtr": expect.double()}, rtol=0, atol=0,
                          label=f"{str(dtype)[6:]} {rows} x {length}, gap {gap}"))
    return cases


KERNELS: List[Kernel] = [
    Kernel("sgl_alloc_extend", REPO, "csrc/alloc_extend/op_kernel/alloc_extend_kernel.cpp", "alloc_extend",
           "paged KV allocation, scalar loops", None),
    Kernel("sgl_apply_token_bitmask", REPO, "csrc/apply_token_bitmask/op_kernel/apply_token_bitmask.cpp",
           "apply_token_bitmask_fp16", "11 scalars by value, UB -> UB DataCopy, scalar SetValue of -inf",
           apply_token_bitmask_case),
    Kernel("sgl_assign_cache", REPO, "csrc/assign_cache_op/op_kernel/assign_cache_op.cpp", "assign_cache_op",
           "IBSet/IBWait between cores, scalar GetValue/SetValue copies", assign_cache_case),
    Kernel("sgl_cache_loc_assign", REPO, "csrc/cache_location_assign/op_kernel/cache_loc_assign_kernel.cpp",
           "cache_loc_assign", "ASCEND_IS_AIV, GetTPipePtr", None),
    Kernel("sgl_causal_conv1d_update", REPO, "csrc/causal_conv1d_update/op_kernel/causal_conv1d_update.cpp",
           "causal_conv1d_update_half", "kernel_operator_intf.h, MulAddDst, GetTPipePtr()->FetchEventID, "
           "DataCopyPad, Cast, Exp/Div (SiLU), in-place state update", causal_conv1d_update_case),
    Kernel("sgl_tri_inv", REPO, "csrc/tri_inv/op_kernel/tri_inv_kernel.cpp", "tri_inv_col_sweep_fp32",
           "ASCEND_IS_AIV", None),
    Kernel("sgl_sgemmv_shrink", REPO, "csrc/lora/op_kernel/sgemmv_shrink_kernel.cpp", "sgemmv_shrink_half",
           "macro-declared entry, 15 parameters, per-adapter ranks and half scales", sgemmv_shrink_case),
    Kernel("sgl_sgemmv_expand", REPO, "csrc/lora/op_kernel/sgemmv_expand_kernel.cpp", "sgemmv_expand_half",
           "macro-declared entry, 16 parameters, slices over cores", sgemmv_expand_case),
    Kernel("sgl_helloworld", REPO, "csrc/helloworld/op_kernel/kernel_helloworld.cpp", "helloworld",
           "Add (half), a scalar by value", helloworld_case),
]

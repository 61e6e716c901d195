"""sgl-project/sgl-kernel-npu: the Ascend C kernels of SGLang's NPU backend (csrc/)."""
from typing import List

import torch

from .common import CORE_NUM, Case, Kernel, rand
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


def alloc_extend_case(kdir: str, gen: torch.Generator) -> List[Case]:
    """SGLang's paged KV-slot allocation: request i extends from prefix_lens[i] to seq_lens[i] tokens. Token t
    of it lies in the prefix's last, partly filled page (t < ceil(pre / P) * P) and takes slot last_loc[i] + 1 +
    (t - pre), or in its k-th new page (k = t // P - ceil(pre / P)), which is the next unused entry of
    free_pages in request order, and takes slot page * P + t % P. out_indices lists the slots of all requests'
    new tokens in order; values[0] is the number of new pages (written by the kernel only when the last request
    ends in a partial new page). Host tiling (op_host/alloc_extend_tiling.cpp):
    blockDim min(coreNum, batch); the struct of alloc_extend_tiling.h. Cases: the op's own test shapes
    (tests/python/.../test_alloc_extend_slot.py: prefill of 7 and 300 tokens, a decode step, a verify step,
    a cached prefill, 19 requests) and random batches over more cores than requests and fewer."""
    import struct

    def case(pre, seq, page, label):
        pre, seq = torch.tensor(pre, dtype=torch.int64), torch.tensor(seq, dtype=torch.int64)
        batch = len(pre)
        first_new = (pre + page - 1) // page  # index of the first page a request's new tokens may open
        new_pages = int(((seq + page - 1) // page - first_new).sum())
        free_pages = torch.randperm(4 * new_pages + 64, generator=gen)[:new_pages + 8] + 1
        last_loc = torch.where(pre > 0, torch.randint(1, 1000, (batch,), generator=gen) * page + (pre - 1) % page,
                               torch.full((batch,), -1))
        slots, used = [], 0
        for i in range(batch):
            p, s = int(pre[i]), int(seq[i])
            edge = int(first_new[i]) * page
            for t in range(p, s):
                if t < edge:
                    slots.append(int(last_loc[i]) + 1 + (t - p))
                else:
                    slots.append(int(free_pages[used + t // page - edge // page]) * page + t % page)
            used += (s + page - 1) // page - edge // page
        # The kernel writes values[0] only where the last request ends in a partial new page (its third part);
        # the op's own test does not check values at all. Checked where written, else left as it was.
        last = batch - 1
        written = int(seq[last]) % page and int(seq[last]) > int(first_new[last]) * page
        blocks = min(CORE_NUM, batch)
        tiling = struct.pack("<3iq", batch, page, blocks, len(slots))
        return Case(blocks, {"pre_lens_in": pre, "seq_lens_in": seq, "last_loc_in": last_loc,
                             "free_pages_in": free_pages, "out_indices_in": torch.full((len(slots),), -7),
                             "values_in": torch.zeros(4, dtype=torch.int64), "workspace_in": None,
                             "tiling_gm_in": tiling},
                    {"out_indices_in": torch.tensor(slots, dtype=torch.int64),
                     "values_in": torch.tensor([used if written else 0, 0, 0, 0], dtype=torch.int64)},
                    rtol=0, atol=0, label=label)

    cases = [case([0], [7], 128, "prefill 7"), case([0], [300], 128, "prefill 300"),
             case([7], [9], 128, "verify"), case([100], [400], 128, "cached prefill"),
             case([0] * 19, torch.randint(129, 2000, (19,), generator=gen).tolist(), 128, "19 prefills")]
    for batch, page in ((5, 16), (12, 128)):
        pre = torch.randint(0, 600, (batch,), generator=gen)
        seq = pre + torch.randint(1, 400, (batch,), generator=gen)
        seq[-1] = (pre[-1] + page - 1) // page * page + page + 1 + int(torch.randint(page - 1, (1,), generator=gen))
        cases.append(case(pre.tolist(), seq.tolist(), page, f"{batch} random, page {page}"))
    return cases


def cache_loc_assign_case(kdir: str, gen: torch.Generator) -> List[Case]:
    """SGLang's assign of new cache locations to the requests' token rows (mode ASSIGN_TO_POOL): row b writes
    out_cache_loc[c_b : c_b + len_b] into tokenPool[req[b], start[b] : end[b]], c_b the lengths of the rows
    before it summed. Host tiling (op_host/cache_loc_assign.cpp): blockDim coreNum (8), rows split evenly
    with the first batch % 8 cores taking one more, buffers aligned to 32 bytes; key 1 for int32 request
    indices, 2 for int64. The op's own test (tests/python/.../test_cache_assign.py): 300 rows, distinct
    requests, lengths 1..2; its pool of 2000 x 16384 is scaled to 400 x 1024. The kernel declares
    out_cache_loc as batch * MAX_STEP (16) elements, reads all of them and copies 16 tokens back whatever a
    row's length (the rest unchanged); it also copies its index and offset inputs in whole 32-byte blocks. The
    first cases give it that much, with batch sizes whole blocks of indices, and keep the windows inside the
    rows; the last is the op's test as written (300 rows, out_cache_loc of the summed lengths)."""
    import struct
    cases = []
    pool, row_size, step = 400, 1024, 16
    for batch, idx_dtype, padded in ((304, torch.int64, True), (304, torch.int32, True), (8, torch.int64, True),
                                     (300, torch.int32, False)):
        token_pool = torch.arange(row_size, dtype=torch.int32).repeat(pool, 1)
        req = torch.randperm(pool, generator=gen)[:batch].to(idx_dtype)
        start = torch.randint(0, row_size - (step if padded else 2), (batch,), generator=gen)
        end = start + torch.randint(1, 3, (batch,), generator=gen)
        lengths = end - start
        total = int(lengths.sum())
        out_cache_loc = torch.randint(0, 10000, (batch * step if padded else total,), generator=gen,
                                      dtype=torch.int32)
        expect = token_pool.clone()
        at = 0
        for b in range(batch):
            expect[int(req[b]), int(start[b]):int(end[b])] = out_cache_loc[at:at + int(lengths[b])]
            at += int(lengths[b])
        cores = CORE_NUM
        def align(n, size):
            return (n * size + 31) // 32 * 32 // size
        idx_count = align(batch, idx_dtype.itemsize)
        tiling = struct.pack("<16Q", 1 if idx_dtype == torch.int32 else 2, cores, pool, batch, batch // cores,
                             batch % cores, row_size, idx_count, idx_count * idx_dtype.itemsize, align(step, 4),
                             align(step, 4) * 4, align(batch, 8), align(batch, 8) * 8, batch * step,
                             align(batch * step, 4), align(batch * step, 4) * 4)
        cases.append(Case(cores, {"reqPoolIndices": req, "tokenPool": token_pool, "startOffset": start,
                                  "endOffset": end, "outCacheLoc": out_cache_loc, "tilingGM": tiling,
                                  "assignMode": 0},
                          {"tokenPool": expect}, rtol=0, atol=0,
                          label=f"{batch} rows, {str(idx_dtype)[6:]} indices"
                                + ("" if padded else ", out_cache_loc as the op's test sizes it")))
    return cases


def tri_inv_case(kdir: str, gen: torch.Generator) -> List[Case]:
    """The inverse of unit lower-triangular float matrices, one per core (blockDim = batch), as the op's tests
    build them (tests/python/.../test_triangular_inverse.py): random entries in [0, 1) below the diagonal,
    or all ones; sizes 16..128. Reference: float64 triangular solve against the identity. Host tiling
    (op_host/tri_inv.cpp): {num_blocks, num_elems, matrix_size}, uint32."""
    import struct
    cases = []
    for batch, n, ones in ((4, 16, False), (40, 16, False), (2, 32, False), (4, 64, False), (2, 128, True),
                           (2, 64, True)):
        a = torch.ones(batch, n, n) if ones else rand(gen, (batch, n, n), 0, 1)
        a = torch.tril(a, -1) + torch.eye(n)
        inv = torch.linalg.solve_triangular(a.double(), torch.eye(n, dtype=torch.float64).expand(batch, n, n),
                                            upper=False, unitriangular=True)
        scale = float(inv.abs().max())
        cases.append(Case(batch, {"vec_in": a.reshape(-1).clone(), "vec_out": torch.zeros(batch * n * n),
                                  "tiling_gm": struct.pack("<3I", batch, batch * n * n, n) + bytes(20)},
                          {"vec_out": inv.reshape(-1)}, rtol=1e-4, atol=1e-6 * scale,
                          label=f"{batch} x {n}x{n} {'ones' if ones else 'random'}"))
    return cases


KERNELS: List[Kernel] = [
    Kernel("sgl_alloc_extend", REPO, "csrc/alloc_extend/op_kernel/alloc_extend_kernel.cpp", "alloc_extend",
           "paged KV allocation, scalar loops, unqualified scalar min, InitBuffer per task",
           alloc_extend_case),
    Kernel("sgl_apply_token_bitmask", REPO, "csrc/apply_token_bitmask/op_kernel/apply_token_bitmask.cpp",
           "apply_token_bitmask_fp16", "11 scalars by value, UB -> UB DataCopy, scalar SetValue of -inf",
           apply_token_bitmask_case),
    Kernel("sgl_assign_cache", REPO, "csrc/assign_cache_op/op_kernel/assign_cache_op.cpp", "assign_cache_op",
           "IBSet/IBWait between cores, scalar GetValue/SetValue copies", assign_cache_case),
    Kernel("sgl_cache_loc_assign", REPO, "csrc/cache_location_assign/op_kernel/cache_loc_assign_kernel.cpp",
           "cache_loc_assign", "ASCEND_IS_AIV, GetTPipePtr, Cast int64 -> int32, LocalTensor - LocalTensor",
           cache_loc_assign_case),
    Kernel("sgl_causal_conv1d_update", REPO, "csrc/causal_conv1d_update/op_kernel/causal_conv1d_update.cpp",
           "causal_conv1d_update_half", "kernel_operator_intf.h, MulAddDst, GetTPipePtr()->FetchEventID, "
           "DataCopyPad, Cast, Exp/Div (SiLU), in-place state update", causal_conv1d_update_case),
    Kernel("sgl_tri_inv", REPO, "csrc/tri_inv/op_kernel/tri_inv_kernel.cpp", "tri_inv_col_sweep_fp32",
           "ASCEND_IS_AIV, Axpy per column (column sweep), scalar SetValue/GetValue", tri_inv_case),
    Kernel("sgl_sgemmv_shrink", REPO, "csrc/lora/op_kernel/sgemmv_shrink_kernel.cpp", "sgemmv_shrink_half",
           "macro-declared entry, 15 parameters, per-adapter ranks and half scales", sgemmv_shrink_case),
    Kernel("sgl_sgemmv_expand", REPO, "csrc/lora/op_kernel/sgemmv_expand_kernel.cpp", "sgemmv_expand_half",
           "macro-declared entry, 16 parameters, slices over cores", sgemmv_expand_case),
    Kernel("sgl_helloworld", REPO, "csrc/helloworld/op_kernel/kernel_helloworld.cpp", "helloworld",
           "Add (half), a scalar by value", helloworld_case),
]

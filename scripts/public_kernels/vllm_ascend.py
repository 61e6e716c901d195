"""vllm-project/vllm-ascend: the Ascend C kernels of vLLM's Ascend backend (csrc/)."""
import os
import struct
from typing import List

import torch

from .common import (CORE_NUM, Case, Kernel, header_struct, host_tiling, list_expect, list_tensor, pack_struct, rand,
                     read_tiling_def)
from .lora import expand_cases, shrink_cases

REPO = "vllm-project/vllm-ascend"


def store_kv_block_cases(kdir: str, gen: torch.Generator) -> List[Case]:
    """store_kv_block: group g copies groupLen[g] consecutive tokens from key row groupKeyIdx[g] to cache row
    groupKeyCacheIdx[g] (a group lies inside one cache block); groups with a length <= 0 or a negative index are
    skipped. Host tiling (op_host/store_kv_block_tiling.cpp): tokenSize = heads * headSize, blockTableSize =
    the block size, corePerNum/coreTail = groups / % coreNum, blockDim = coreNum, key 1/2/4 by dtype size."""
    cases = []
    for dtype, key in ((torch.uint8, 1), (torch.float16, 2), (torch.int32, 4)):
        heads, head_size, block, num_blocks, tokens = 2, 24, 16, 6, 40
        token_size = heads * head_size
        if dtype.is_floating_point:
            k = rand(gen, (tokens, heads, head_size), -2, 2, dtype)
            cache = rand(gen, (num_blocks, block, heads, head_size), -2, 2, dtype)
        else:
            hi = 256 if dtype == torch.uint8 else 2**31 - 1
            lo = 0 if dtype == torch.uint8 else -2**31
            k = torch.randint(lo, hi, (tokens, heads, head_size), generator=gen, dtype=dtype)
            cache = torch.randint(lo, hi, (num_blocks, block, heads, head_size), generator=gen, dtype=dtype)
        # the tokens, in runs that fit a block, to the slots of a shuffled block table
        lens, key_idx, cache_idx, t = [], [], [], 0
        order = torch.randperm(num_blocks, generator=gen).tolist()
        for b in order:
            if t >= tokens:
                break
            off = 0
            while off < block and t < tokens:
                n = min(int(torch.randint(1, 9, (1,), generator=gen)), block - off, tokens - t)
                lens.append(n); key_idx.append(t); cache_idx.append(b * block + off)
                t += n; off += n + int(torch.randint(0, 2, (1,), generator=gen))
        lens += [0, -1]; key_idx += [3, 0]; cache_idx += [5, 7]  # skipped groups
        expect = cache.reshape(num_blocks * block, token_size).clone()
        flat = k.reshape(tokens, token_size)
        for n, ki, ci in zip(lens, key_idx, cache_idx):
            if n > 0:
                expect[ci:ci + n] = flat[ki:ki + n]
        groups = len(lens)
        tiling = header_struct(kdir, "store_kv_block.h", "StoreKVBlockTilingData", {
            "blockTableSize": block, "typeByte": k.element_size(), "tokenSize": token_size,
            "corePerNum": groups // CORE_NUM, "coreTail": groups % CORE_NUM, "numTokens": tokens,
            "numCache": num_blocks * block, "groupInfoLen": groups})
        i32 = lambda v: torch.tensor(v, dtype=torch.int32)
        cases.append(Case(CORE_NUM, {"keyIn": k, "keyCacheIn": cache, "groupLen": i32(lens),
                                     "groupKeyIdx": i32(key_idx), "groupKeyCacheIdx": i32(cache_idx),
                                     "workspace": None, "tiling": tiling},
                          {"keyCacheIn": expect.reshape(cache.shape)}, rtol=0, atol=0,
                          label=f"{str(dtype).split('.')[-1]} {groups} groups", tiling_key=key))
    return cases


TRANSPOSE_KV = "csrc/moe/transpose_kv_cache_by_block"


def transpose_kv_case(kdir: str, gen: torch.Generator) -> List[Case]:
    """transpose_kv_cache_by_block: for every listed block of every layer's K and V cache (two tensor lists),
    in place, [splitNum, blockSize, headNum / splitNum, headDim] -> [blockSize, headNum, headDim]. Host tiling
    (op_host/transpose_kv_cache_by_block_tiling.cpp), the full-load branch (key 0: a block fits UB):
    useCoreNum = min(AIV cores, layers * blocks), blockPerCore / tailCoreNum = rounds / % useCoreNum."""
    _, fields = read_tiling_def(os.path.join(kdir, "..", "op_host", "transpose_kv_cache_by_block_tiling.h"))
    cases = []
    for layers, num_blocks, block, heads, dim, split, ids in ((3, 7, 16, 8, 64, 2, [5, 1, 3]),
                                                              (2, 5, 128, 4, 128, 4, [0, 4, 2, 3])):
        assert block * heads * dim * 2 <= 192 * 1024
        k = [rand(gen, (num_blocks, block, heads, dim), -2, 2, torch.float16) for _ in range(layers)]
        v = [rand(gen, (num_blocks, block, heads, dim), -2, 2, torch.float16) for _ in range(layers)]

        def transposed(t):
            out = t.clone()
            for b in ids:
                out[b] = t[b].reshape(split, block, heads // split, dim).transpose(0, 1).reshape(block, heads, dim)
            return out
        rounds = layers * len(ids)
        cores = min(CORE_NUM, rounds)
        tiling = pack_struct(fields, {"blockSize": block, "headNum": heads, "headDim": dim, "splitNum": split,
                                      "layerNum": layers, "useCoreNum": cores, "blockPerCore": rounds // cores,
                                      "tailCoreNum": rounds % cores, "calBlockNum": len(ids), "blockSizePerTime": block,
                                      "blockSizePerTimeTail": 0, "blockSizeSplitNum": 1})
        k_list, v_list = list_tensor(k), list_tensor(v)
        cases.append(Case(cores, {"KCache": k_list, "VCache": v_list,
                                  "blockIDs": torch.tensor(ids, dtype=torch.int64), "workspace": None, "tiling": tiling},
                          {"KCache": list_expect(k_list, [transposed(t) for t in k]),
                           "VCache": list_expect(v_list, [transposed(t) for t in v])},
                          label=f"{layers} layers, blocks {ids}, {block}x{heads}x{dim} split {split}"))
    return cases


def add_example_case(gen: torch.Generator, dtype) -> Case:
    """The op generator's add template: z = x + y, host tiling totalLength = numel, tileNum = 8, blockDim 8."""
    n = 8 * 8 * 2 * 200  # 4-D [2, 4, 20, 80]: blockLength 3200, tileLength 200
    if dtype.is_floating_point:
        x, y = rand(gen, n, -3, 3, dtype), rand(gen, n, -3, 3, dtype)
        expect = x.double() + y.double()
    else:
        x = torch.randint(-2**30, 2**30, (n,), generator=gen, dtype=dtype)
        y = torch.randint(-2**30, 2**30, (n,), generator=gen, dtype=dtype)
        expect = x + y
    tiling = struct.pack("@qq", n, 8)
    return Case(8, {"x": x, "y": y, "z": torch.zeros(n, dtype=dtype), "workspace": None, "tiling": tiling},
                {"z": expect}, atol=1e-6)


KERNELS: List[Kernel] = [
    Kernel("vllm_bgmv_shrink", REPO, "csrc/kernels/bgmv_shrink.cpp", "bgmv_shrink_half",
           "macro-declared entries, scalars by value, <<<>>> launcher, Cast/Mul/ReduceSum<float> (ADL), SetValue",
           shrink_cases("bgmv", torch.float16)),
    Kernel("vllm_bgmv_expand", REPO, "csrc/kernels/bgmv_expand.cpp", "bgmv_expand_bfloat16_t",
           "macro-declared entries, 12 parameters, BlockReduceSum/PairReduceSum, Cast bf16, DataCopyPad",
           expand_cases("bgmv", torch.bfloat16)),
    Kernel("vllm_sgmv_shrink", REPO, "csrc/kernels/sgmv_shrink.cpp", "sgmv_shrink_bfloat16_t",
           "macro-declared entries, 12 parameters, per-sequence LoRA index", shrink_cases("sgmv", torch.bfloat16)),
    Kernel("vllm_sgmv_expand", REPO, "csrc/kernels/sgmv_expand.cpp", "sgmv_expand_half",
           "macro-declared entries, 14 parameters", expand_cases("sgmv", torch.float16)),
    Kernel("vllm_store_kv_block", REPO, "csrc/attention/store_kv_block/op_kernel/store_kv_block.cpp", "store_kv_block",
           "tiling keys 1/2/4 (uint8/half/int32), GlobalTensor::GetValue, DataCopyPad in bytes, SetFlag/WaitFlag",
           lambda kdir, gen: store_kv_block_cases(kdir, gen)),
    Kernel("vllm_transpose_kv_cache", REPO, f"{TRANSPOSE_KV}/op_kernel/transpose_kv_cache_by_block.cpp",
           "transpose_kv_cache_by_block", "tensor lists (GetTensorAddr), DataCopyParams dst strides, TQueBind, in place",
           transpose_kv_case, build=lambda repo: "#define DTYPE_KCACHE half\n" + host_tiling(
               f"{TRANSPOSE_KV}/op_host/transpose_kv_cache_by_block_tiling.h")(repo)),
    Kernel("vllm_add_example_f32", REPO, "csrc/scripts/opgen/template/add/op_kernel/add_example.cpp", "add_example",
           "templated entry (ASCENDC_TPL_ARGS_DECL), GET_TILING_DATA_WITH_STRUCT, double-buffered queues",
           lambda kdir, gen: add_example_case(gen, torch.float32), template="0"),
    Kernel("vllm_add_example_i32", REPO, "csrc/scripts/opgen/template/add/op_kernel/add_example.cpp", "add_example",
           "the same, int32", lambda kdir, gen: add_example_case(gen, torch.int32), template="1"),
]

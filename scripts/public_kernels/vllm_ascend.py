"""vllm-project/vllm-ascend: the Ascend C kernels of vLLM's Ascend backend (csrc/)."""
from typing import List

import torch

from .common import Case, Kernel, rand
from .lora import expand_cases, shrink_cases

REPO = "vllm-project/vllm-ascend"

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
           "tiling keys", None),
    Kernel("vllm_transpose_kv_cache", REPO,
           "csrc/moe/transpose_kv_cache_by_block/op_kernel/transpose_kv_cache_by_block.cpp",
           "transpose_kv_cache_by_block", "", None),
    Kernel("vllm_scatter_nd_update", REPO, "csrc/moe/scatter_nd_update_v2/op_kernel/scatter_nd_update_v2.cpp",
           "scatter_nd_update_v2", "", None),
    Kernel("vllm_copy_expand_eagle", REPO,
           "csrc/moe/copy_and_expand_eagle_inputs/op_kernel/copy_and_expand_eagle_inputs.cpp",
           "copy_and_expand_eagle_inputs", "", None),
    Kernel("vllm_hc_post", REPO, "csrc/moe/hc_post/op_kernel/hc_post.cpp", "hc_post", "", None),
    Kernel("vllm_add_example", REPO, "csrc/scripts/opgen/template/add/op_kernel/add_example.cpp", "add_example",
           "", None, template="0"),
]

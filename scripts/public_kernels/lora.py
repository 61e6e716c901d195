"""The LoRA kernels of vLLM's and SGLang's Ascend backends (punica-style BGMV/SGMV shrink and expand): the
float64 references and the launches their host launchers make (blockDim = ceil(batch / numTokensPerCore))."""
from typing import List

import torch

from .common import Case, rand

TOL = {torch.float16: (2e-3, 2e-3), torch.bfloat16: (1.6e-2, 1.6e-2)}


def _tokens(gen, batch, num_loras):
    """A LoRA index per token (-1: no adapter), and the same grouped into sequences (seqLen, loraIndices)."""
    seq_len = torch.tensor([3, 1, 5, 2, 4, 1][:max(1, batch)], dtype=torch.int64)
    seq_len = seq_len[torch.cumsum(seq_len, 0) <= batch]
    seq_len = torch.cat([seq_len, torch.tensor([batch - int(seq_len.sum())])]) if int(seq_len.sum()) < batch else seq_len
    seq_lora = torch.randint(-1, num_loras, (len(seq_len),), generator=gen, dtype=torch.int64)
    seq_lora[0] = 0  # at least one sequence with an adapter
    per_token = torch.repeat_interleave(seq_lora, seq_len)
    return per_token, seq_len, seq_lora


def shrink_cases(kind: str, dtype, index_dtype=torch.int64) -> callable:
    """bgmv_shrink / sgmv_shrink: y[b, :rank] = scale * W[lora(b)] @ x[b] (float32 y), skipped rows untouched."""
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        for batch, hidden, rank, per_core in ((7, 4096, 16, 2), (5, 12000, 8, 1)):  # 12000 > the 11776 tile
            num_loras = 3
            x = rand(gen, (batch, hidden), -1, 1, dtype)
            w = rand(gen, (num_loras, rank, hidden), -0.1, 0.1, dtype)
            scale = 0.5
            per_token, seq_len, seq_lora = _tokens(gen, batch, num_loras)
            y0 = rand(gen, (batch, rank))
            expect = y0.double().clone()
            for b in range(batch):
                if per_token[b] >= 0:
                    expect[b] = scale * (w[per_token[b]].double() @ x[b].double())
            blocks = (batch + per_core - 1) // per_core
            if kind == "bgmv":
                args = {"x": x, "weight": w, "indices": per_token.to(index_dtype), "indicesSize": batch}
            else:
                args = {"x": x, "weight": w, "loraIndices": seq_lora.to(index_dtype), "loraIndicesSize": len(seq_lora),
                        "seqLen": seq_len.to(index_dtype), "seqLenSize": len(seq_len)}
            args.update({"y": y0.clone(), "batchSize": batch, "numTokensPerCore": per_core, "inputHiddenDim": hidden,
                         "maxLoRARank": rank, "scale": scale})
            cases.append(Case(blocks, args, {"y": expect}, rtol=2e-4, atol=2e-4,
                              label=f"batch {batch} hidden {hidden} rank {rank}"))
        return cases
    return make


def expand_cases(kind: str, dtype, index_dtype=torch.int64) -> callable:
    """bgmv_expand / sgmv_expand: yOut[b, off:off+H] = yIn[b, off:off+H] + W[lora(b)] @ x[b] (x float32,
    W [loras, H, rank]); the rest of yOut and skipped rows untouched."""
    def make(kdir: str, gen: torch.Generator) -> List[Case]:
        cases = []
        for batch, hidden, rank, offset, full, per_core in ((6, 4096, 16, 0, 4096, 2), (5, 8192, 32, 4096, 12288, 1),
                                                            (4, 4160, 8, 64, 4224, 1)):
            num_loras = 3
            x = rand(gen, (batch, rank), -1, 1)
            w = rand(gen, (num_loras, hidden, rank), -0.5, 0.5, dtype)
            y_in = rand(gen, (batch, full), -1, 1, dtype)
            per_token, seq_len, seq_lora = _tokens(gen, batch, num_loras)
            y_out = rand(gen, (batch, full), -1, 1, dtype)
            expect = y_out.double().clone()
            for b in range(batch):
                if per_token[b] >= 0:
                    expect[b, offset:offset + hidden] = (y_in[b, offset:offset + hidden].double() +
                                                         w[per_token[b]].double() @ x[b].double())
            blocks = (batch + per_core - 1) // per_core
            if kind == "bgmv":
                args = {"x": x, "weight": w, "indices": per_token.to(index_dtype), "indicesSize": batch}
            else:
                args = {"x": x, "weight": w, "loraIndices": seq_lora.to(index_dtype), "loraIndicesSize": len(seq_lora),
                        "seqLen": seq_len.to(index_dtype), "seqLenSize": len(seq_len)}
            args.update({"yIn": y_in, "yOut": y_out.clone(), "batchSize": batch, "numTokensPerCore": per_core,
                         "maxLoRARank": rank, "outputHiddenDim": hidden, "sliceOffset": offset,
                         "outputFullDim": full})
            rtol, atol = TOL[dtype]
            cases.append(Case(blocks, args, {"yOut": expect}, rtol=rtol, atol=atol,
                              label=f"batch {batch} H {hidden} rank {rank} offset {offset}"))
        return cases
    return make


def sgemmv_shrink_case(kdir: str, gen: torch.Generator) -> List[Case]:
    """SGLang's sgemmv_shrink: per-adapter ranks and (half) scales; y[b, :rank(lora)] = scale(lora) * W @ x."""
    dtype = torch.float16
    batch, hidden, max_rank, per_core, num_loras = 7, 4096, 32, 2, 3
    ranks = torch.tensor([32, 16, 8], dtype=torch.int32)
    scales = torch.tensor([0.5, 2.0, 1.0], dtype=torch.float16)
    x = rand(gen, (batch, hidden), -1, 1, dtype)
    w = rand(gen, (num_loras, max_rank, hidden), -0.1, 0.1, dtype)
    per_token, seq_len, seq_lora = _tokens(gen, batch, num_loras)
    y0 = rand(gen, (batch, max_rank))
    expect = y0.double().clone()
    for b in range(batch):
        lora = int(per_token[b])
        if lora >= 0:
            r = int(ranks[lora])
            expect[b, :r] = float(scales[lora]) * (w[lora, :r].double() @ x[b].double())
    return Case((batch + per_core - 1) // per_core,
                {"x": x, "weight": w, "loraIndices": seq_lora.to(torch.int32), "loraIndicesSize": len(seq_lora),
                 "seqLen": seq_len.to(torch.int32), "seqLenSize": len(seq_len), "loraRanks": ranks,
                 "loraRanksSize": num_loras, "loraScales": scales, "loraScalesSize": num_loras, "y": y0.clone(),
                 "batchSize": batch, "numTokensPerCore": per_core, "inputHiddenDim": hidden, "maxLoRARank": max_rank},
                {"y": expect}, rtol=2e-4, atol=2e-4)


def sgemmv_expand_case(kdir: str, gen: torch.Generator) -> List[Case]:
    """SGLang's sgemmv_expand: slices of yOut, each from its part of x (rank(lora) columns per slice) and the
    weight rows of the slice (W [loras, outputFullDim, maxRank], the first rank(lora) columns)."""
    dtype = torch.float16
    batch, max_rank, per_core, num_loras = 5, 16, 1, 3
    offsets = torch.tensor([0, 4096, 8192, 12288], dtype=torch.int32)
    slices, full = len(offsets) - 1, int(offsets[-1])
    ranks = torch.tensor([16, 8, 16], dtype=torch.int32)
    x = rand(gen, (batch, slices * max_rank), -1, 1)
    w = rand(gen, (num_loras, full, max_rank), -0.5, 0.5, dtype)
    y_in = rand(gen, (batch, full), -1, 1, dtype)
    y_out = rand(gen, (batch, full), -1, 1, dtype)
    per_token, seq_len, seq_lora = _tokens(gen, batch, num_loras)
    expect = y_out.double().clone()
    for b in range(batch):
        lora = int(per_token[b])
        if lora < 0:
            continue
        r = int(ranks[lora])
        for s in range(slices):
            lo, hi = int(offsets[s]), int(offsets[s + 1])
            xs = x[b, r * s:r * s + r].double()
            expect[b, lo:hi] = y_in[b, lo:hi].double() + w[lora, lo:hi, :r].double() @ xs
    rtol, atol = TOL[dtype]
    return Case((batch * slices + per_core - 1) // per_core,
                {"x": x, "weight": w, "loraIndices": seq_lora.to(torch.int32), "loraIndicesSize": len(seq_lora),
                 "seqLen": seq_len.to(torch.int32), "seqLenSize": len(seq_len), "loraRanks": ranks,
                 "loraRanksSize": num_loras, "sliceOffsets": offsets, "sliceOffsetsSize": len(offsets), "yIn": y_in,
                 "yOut": y_out.clone(), "batchSize": batch, "numTokensPerCore": per_core, "maxLoRARank": max_rank,
                 "outputFullDim": full},
                {"yOut": expect}, rtol=rtol, atol=atol)

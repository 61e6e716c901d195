"""Small models shaped like Hugging Face's GPT-2 and BERT, written here so that the tests need no
transformers: the same module tree (names, classes, which layer owns which parameter) and the same
forward as those architectures, at tiny sizes with random weights. ``Conv1D`` is shaped like Hugging
Face's: ``x @ weight + bias`` with ``weight`` stored ``[in, out]`` (``nx`` x ``nf``)."""
import math

import torch
from torch import nn


class Conv1D(nn.Module):
    """Hugging Face's Conv1D layout and forward: weight [nx, nf], bias [nf], ``addmm`` on the flattened
    input."""

    def __init__(self, nf: int, nx: int):
        super().__init__()
        self.nf, self.nx = nf, nx
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)
        nn.init.normal_(self.bias, std=0.02)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)


class GPT2Attention(nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.heads = heads
        self.c_attn = Conv1D(3 * d, d)
        self.c_proj = Conv1D(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.c_attn(x).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(d // self.heads)
        causal = torch.ones(t, t, dtype=torch.bool).tril()
        scores = scores.masked_fill(~causal, torch.finfo(scores.dtype).min)
        out = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, t, d)
        return self.c_proj(out)


class GPT2MLP(nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.c_fc = Conv1D(4 * d, d)
        self.c_proj = Conv1D(d, 4 * d)
        self.act = nn.GELU(approximate="tanh")

    def forward(self, x):
        return self.c_proj(self.act(self.c_fc(x)))


class GPT2Block(nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = GPT2Attention(d, heads)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = GPT2MLP(d)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT2LMHead(nn.Module):
    """GPT2LMHeadModel's tree: transformer.{wte, wpe, h.N, ln_f} and lm_head (tied to wte)."""

    def __init__(self, vocab: int = 50, positions: int = 16, d: int = 32, layers: int = 2, heads: int = 4):
        super().__init__()
        self.transformer = nn.Module()
        self.transformer.wte = nn.Embedding(vocab, d)
        self.transformer.wpe = nn.Embedding(positions, d)
        self.transformer.h = nn.ModuleList(GPT2Block(d, heads) for _ in range(layers))
        self.transformer.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.transformer.wte.weight

    def forward(self, ids):
        x = self.transformer.wte(ids) + self.transformer.wpe(torch.arange(ids.shape[1]))
        for block in self.transformer.h:
            x = block(x)
        return self.lm_head(self.transformer.ln_f(x))


class BertSelfAttention(nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.heads = heads
        self.query, self.key, self.value = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = (lin(x).view(b, t, self.heads, d // self.heads).transpose(1, 2)
                   for lin in (self.query, self.key, self.value))
        probs = ((q @ k.transpose(-1, -2)) / math.sqrt(d // self.heads)).softmax(-1)
        return (probs @ v).transpose(1, 2).reshape(b, t, d)


class BertSelfOutput(nn.Module):
    def __init__(self, d_in: int, d: int):
        super().__init__()
        self.dense = nn.Linear(d_in, d)
        self.LayerNorm = nn.LayerNorm(d)

    def forward(self, hidden, residual):
        return self.LayerNorm(self.dense(hidden) + residual)


class BertLayer(nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.attention = nn.Module()
        self.attention.self = BertSelfAttention(d, heads)
        self.attention.output = BertSelfOutput(d, d)
        self.intermediate = nn.Module()
        self.intermediate.dense = nn.Linear(d, 4 * d)
        self.output = BertSelfOutput(4 * d, d)

    def forward(self, x):
        a = self.attention.output(self.attention.self(x), x)
        return self.output(nn.functional.gelu(self.intermediate.dense(a)), a)


class BertModel(nn.Module):
    """BertModel's tree: embeddings.{word, position, token_type}_embeddings + LayerNorm, encoder.layer.N,
    pooler.dense."""

    def __init__(self, vocab: int = 50, positions: int = 16, d: int = 32, layers: int = 2, heads: int = 4):
        super().__init__()
        self.embeddings = nn.Module()
        self.embeddings.word_embeddings = nn.Embedding(vocab, d)
        self.embeddings.position_embeddings = nn.Embedding(positions, d)
        self.embeddings.token_type_embeddings = nn.Embedding(2, d)
        self.embeddings.LayerNorm = nn.LayerNorm(d)
        self.encoder = nn.Module()
        self.encoder.layer = nn.ModuleList(BertLayer(d, heads) for _ in range(layers))
        self.pooler = nn.Module()
        self.pooler.dense = nn.Linear(d, d)

    def forward(self, ids):
        e = self.embeddings
        x = e.word_embeddings(ids) + e.position_embeddings(torch.arange(ids.shape[1])) \
            + e.token_type_embeddings(torch.zeros_like(ids))
        x = e.LayerNorm(x)
        for layer in self.encoder.layer:
            x = layer(x)
        return x, torch.tanh(self.pooler.dense(x[:, 0]))

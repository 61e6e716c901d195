"""A small model with the RMSNorm layer of rms_norm.py, trained next to the same model with
torch.nn.RMSNorm (same initial weights, same batches): the two loss curves side by side.

    python train.py                      # 40 steps in float32 on CPU (the CPU twin runs the kernels)
    python train.py --steps 100 --dtype bfloat16

The task: predict the next token of sequences whose every token follows from the one before by a fixed
random permutation; a model of embeddings, two residual MLP blocks with pre-norms and a normed head.
"""
import argparse
import time

import torch
from torch import nn

from rms_norm import RMSNorm


class Block(nn.Module):
    def __init__(self, norm, dim):
        super().__init__()
        self.norm = norm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class TinyLM(nn.Module):
    def __init__(self, norm, vocab=32, dim=64, blocks=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.Sequential(*(Block(norm, dim) for _ in range(blocks)))
        self.norm = norm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.head(self.norm(self.blocks(self.embed(tokens))))


def batches(steps, vocab=32, batch=32, seq=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    rule = torch.randperm(vocab, generator=g)
    for _ in range(steps):
        tokens = torch.empty(batch, seq + 1, dtype=torch.long)
        tokens[:, 0] = torch.randint(vocab, (batch,), generator=g)
        for i in range(seq):
            tokens[:, i + 1] = rule[tokens[:, i]]
        yield tokens[:, :-1], tokens[:, 1:]


def train(model, data, lr=3e-3):
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    losses = []
    for inputs, targets in data:
        logits = model(inputs)
        loss = nn.functional.cross_entropy(logits.float().flatten(0, 1), targets.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def compare(steps=40, dtype=torch.float32, seed=0, eps=1e-6):
    """Losses of the model with our RMSNorm and with torch.nn.RMSNorm, from the same weights and batches."""
    torch.manual_seed(seed)
    ours = TinyLM(lambda d: RMSNorm(d, eps=eps)).to(dtype)
    reference = TinyLM(lambda d: nn.RMSNorm(d, eps=eps)).to(dtype)
    reference.load_state_dict(ours.state_dict())  # the same names: weight of each norm
    data = list(batches(steps, seed=seed))
    return train(ours, data), train(reference, data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--dtype", default="float32", choices=("float32", "bfloat16", "float16"))
    args = parser.parse_args()
    start = time.perf_counter()
    ours, reference = compare(args.steps, getattr(torch, args.dtype))
    print(f"step  loss (my_ops::rms_norm)  loss (torch.nn.RMSNorm)  difference")
    for i, (a, b) in enumerate(zip(ours, reference)):
        if i < 5 or i % 10 == 9 or i == len(ours) - 1:
            print(f"{i + 1:4d}  {a:22.6f}  {b:23.6f}  {a - b:+.2e}")
    print(f"{args.dtype}: loss {ours[0]:.3f} -> {ours[-1]:.3f} (torch.nn.RMSNorm: {reference[0]:.3f} -> "
          f"{reference[-1]:.3f}), largest difference {max(abs(a - b) for a, b in zip(ours, reference)):.2e}; "
          f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()

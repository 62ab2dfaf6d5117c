"""A 12-layer GPT-style model from plain torch modules, written out op by op.

LayerNorm, GELU and attention are spelled out (one Python op per step, one loop
iteration per head), as many hand-written GPTs do, so that Dynamo's graph has one node
per step: the size of graph a real model gives the explorer to draw.
"""

from __future__ import annotations

import math

import torch
from torch import nn


class LayerNorm(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(-1, keepdim=True)
        centred = x - mean
        var = (centred * centred).mean(-1, keepdim=True)
        return centred * torch.rsqrt(var + 1e-5) * self.weight + self.bias


def gelu(x: torch.Tensor) -> torch.Tensor:
    inner = math.sqrt(2 / math.pi) * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1 + torch.tanh(inner))


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        seq = x.shape[1]
        q, k, v = self.qkv(x).split(x.shape[-1], dim=-1)
        mask = torch.ones(seq, seq, dtype=torch.bool).tril()
        outs = []
        for h in range(self.heads):
            part = slice(h * self.head_dim, (h + 1) * self.head_dim)
            scores = q[..., part] @ k[..., part].transpose(-2, -1) / math.sqrt(self.head_dim)
            scores = scores.masked_fill(~mask, float("-inf"))
            weights = torch.exp(scores - scores.amax(-1, keepdim=True))
            weights = weights / weights.sum(-1, keepdim=True)
            outs.append(weights @ v[..., part])
        return self.proj(torch.cat(outs, dim=-1))


class Block(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.ln_1, self.attn = LayerNorm(dim), Attention(dim, heads)
        self.ln_2, self.up, self.down = (
            LayerNorm(dim),
            nn.Linear(dim, 4 * dim),
            nn.Linear(4 * dim, dim),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x))
        return x + self.down(gelu(self.up(self.ln_2(x))))


class GPT(nn.Module):
    def __init__(
        self, layers: int = 12, dim: int = 128, heads: int = 16, vocab: int = 256, context: int = 32
    ):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(context, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.ln_f, self.head = LayerNorm(dim), nn.Linear(dim, vocab, bias=False)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))

"""A Hugging Face GPT-2 (random init from a small config, no download) called at two
sequence lengths: the second call recompiles with a symbolic length (dynamic shapes)."""
import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)
config = GPT2Config(n_layer=1, n_embd=32, n_head=2, vocab_size=100, n_positions=32)
model = GPT2LMHeadModel(config).eval()
compiled = torch.compile(model)
with torch.no_grad():
    for length in (8, 12):
        compiled(input_ids=torch.randint(0, 100, (2, length)))

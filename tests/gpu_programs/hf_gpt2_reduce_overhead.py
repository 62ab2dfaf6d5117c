"""Hugging Face GPT-2 (2 layers, random init from a config, no download) under
reduce-overhead, called at two sequence lengths: the second compile is dynamic-shape."""
import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)
config = GPT2Config(n_layer=2, n_embd=128, n_head=4, vocab_size=1000, n_positions=128)
model = GPT2LMHeadModel(config).cuda().eval()
compiled = torch.compile(model, mode="reduce-overhead")
with torch.no_grad():
    for length in (32, 48, 48):
        ids = torch.randint(0, 1000, (2, length), device="cuda")
        for _ in range(3):
            compiled(input_ids=ids)
torch.cuda.synchronize()

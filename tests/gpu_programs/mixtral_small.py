"""HF Mixtral (top-2 MoE) from a small config, compiled forward on CUDA: its experts call
``torch.ops.transformers.grouped_mm_fallback``, an op transformers registers at import."""
import torch
from transformers import MixtralConfig, MixtralForCausalLM

torch.manual_seed(0)
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
config = MixtralConfig(vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, num_local_experts=4,
                       num_experts_per_tok=2, max_position_embeddings=64)
model = MixtralForCausalLM(config).to(DEVICE).eval()
ids = torch.randint(0, 128, (2, 16), device=DEVICE)
with torch.no_grad():
    torch.compile(model)(ids)

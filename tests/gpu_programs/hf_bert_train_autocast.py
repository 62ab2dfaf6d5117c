"""A Hugging Face BERT training step (random init from a config, no download) under bf16
autocast, two steps: dropout makes Inductor draw RNG seeds in the wrapper."""
import torch
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)
config = BertConfig(num_hidden_layers=2, hidden_size=128, num_attention_heads=4,
                    intermediate_size=256, vocab_size=1000, max_position_embeddings=128,
                    num_labels=3)
model = BertForSequenceClassification(config).cuda().train()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
step_model = torch.compile(model)
ids = torch.randint(0, 1000, (4, 32), device="cuda")
labels = torch.randint(0, 3, (4,), device="cuda")
for _ in range(2):
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = step_model(input_ids=ids, labels=labels).loss
    loss.backward()
    opt.step()
    opt.zero_grad()
torch.cuda.synchronize()

"""A Hugging Face BERT training step (random init from a small config, no download) under
CPU autocast: dropout makes Inductor draw RNG seeds in the wrapper (``aten.randint``)."""
import torch
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)
config = BertConfig(num_hidden_layers=1, hidden_size=32, num_attention_heads=2,
                    intermediate_size=64, vocab_size=100, max_position_embeddings=16,
                    num_labels=3, problem_type="single_label_classification")
model = BertForSequenceClassification(config).train()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
step_model = torch.compile(model)
ids = torch.randint(0, 100, (2, 8))
labels = torch.randint(0, 3, (2,))
with torch.autocast("cpu", dtype=torch.bfloat16):
    loss = step_model(input_ids=ids, labels=labels).loss
loss.backward()
opt.step()

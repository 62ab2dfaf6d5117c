"""The workloads capture_overhead.py compiles: each case's model, inputs and the function
to time (compile + first call, + backward where it trains), built before any timer starts."""

from __future__ import annotations

# "transformer-slowpath" is the same encoder layer with the native MHA / encoder-layer fast
# path disabled. In eval + no_grad "transformer" takes that fast path, which Dynamo records
# as one aten._transformer_encoder_layer_fwd call and Inductor emits as a single extern
# call: no generated kernels, no C++ compile. The slow path is the one with real codegen.
CASES = ("mlp", "transformer", "transformer-slowpath")
STRICT_CASES = ("mlp6", "transformer", "transformer-slowpath", "encoder-train")


def build(case: str):
    """Model, inputs and the function to time; all built before the timer starts."""
    import torch
    from torch import nn
    from torch.nn import functional as F

    torch.manual_seed(0)
    if case in ("mlp", "mlp6"):
        hidden = 2 if case == "mlp" else 5  # Linear+ReLU pairs before the output Linear
        layers = [m for _ in range(hidden) for m in (nn.Linear(256, 256), nn.ReLU())]
        model = nn.Sequential(*layers, nn.Linear(256, 10)).train()
        x = torch.randn(32, 256)
        y = torch.randint(0, 10, (32,))

        def loss_fn(x, y):
            return F.cross_entropy(model(x), y)

        def run():
            compiled = torch.compile(loss_fn)
            loss = compiled(x, y)
            loss.backward()
            return loss

        return run

    if case in ("transformer", "transformer-slowpath"):
        if case == "transformer-slowpath":
            torch.backends.mha.set_fastpath_enabled(False)
        model = nn.TransformerEncoderLayer(d_model=128, nhead=4, batch_first=True).eval()
        x = torch.randn(32, 32, 128)

        def run():
            with torch.no_grad():
                compiled = torch.compile(model)
                return compiled(x)

        return run

    if case == "encoder-train":  # the workload: an encoder training step, backward too
        layer = nn.TransformerEncoderLayer(d_model=128, nhead=4, batch_first=True)
        model = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False).train()
        x = torch.randn(16, 32, 128)

        def run():
            compiled = torch.compile(model)
            loss = compiled(x).square().mean()
            loss.backward()
            return loss

        return run

    raise ValueError(case)

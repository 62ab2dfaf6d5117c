"""max-autotune-no-cudagraphs on a matmul + relu: a Triton template kernel with an epilogue."""
import torch

f = torch.compile(lambda a, b: (a @ b).relu(), mode="max-autotune-no-cudagraphs")
a, b = torch.randn(512, 512, device="cuda"), torch.randn(512, 512, device="cuda")
torch.testing.assert_close(f(a, b), (a @ b).relu(), atol=1e-2, rtol=1e-2)

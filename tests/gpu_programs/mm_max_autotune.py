"""max-autotune-no-cudagraphs on a matmul + relu: a Triton template kernel with an epilogue.

Autotuning picks whichever choice is fastest, and cuBLAS often wins a 512x512 matmul (it
did on an H100 under load): Triton is the only GEMM backend here, so a template is chosen.
"""
import torch
import torch._inductor.config

torch._inductor.config.max_autotune_gemm_backends = "TRITON"
f = torch.compile(lambda a, b: (a @ b).relu(), mode="max-autotune-no-cudagraphs")
a, b = torch.randn(512, 512, device="cuda"), torch.randn(512, 512, device="cuda")
torch.testing.assert_close(f(a, b), (a @ b).relu(), atol=1e-2, rtol=1e-2)

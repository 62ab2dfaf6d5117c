"""A program's own torch.library.custom_op between two fused kernels (the workbench must
register it again in each reproducer: nothing the reproducer can import defines it)."""
import torch

SCALE = 2.0


@torch.library.custom_op("tcx_program::scaled_tanh", mutates_args=())
def scaled_tanh(x: torch.Tensor) -> torch.Tensor:
    return torch.tanh(x) * SCALE


@scaled_tanh.register_fake
def _(x):
    return torch.empty_like(x)


def f(x):
    return scaled_tanh(x.sin() + 1).cos() * x


fn = torch.compile(f)
fn(torch.randn(64, 32))

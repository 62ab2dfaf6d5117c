"""A backend that raises mid-compile: the compile fails and the script exits non-zero."""
import torch


class BackendCrash(RuntimeError):
    pass


def broken_backend(gm, example_inputs):
    raise BackendCrash("this backend cannot compile " + str(len(gm.graph.nodes)) + " nodes")


def f(x):
    return x.cos() * 2


torch.compile(f, backend=broken_backend)(torch.randn(4))

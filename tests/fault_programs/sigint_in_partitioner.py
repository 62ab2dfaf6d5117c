"""SIGINT arrives while AOTAutograd partitions the joint graph: Ctrl-C in the middle of a
compile. The script dies with KeyboardInterrupt."""
import os
import signal

import torch
from functorch.compile import make_boxed_func, min_cut_rematerialization_partition
from torch._dynamo.backends.common import aot_autograd


def interrupted_partition(joint, joint_inputs, **kwargs):
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(1000):  # the signal is handled at the next bytecode boundary
        pass
    return min_cut_rematerialization_partition(joint, joint_inputs, **kwargs)


def boxed(gm, example_inputs):
    return make_boxed_func(gm)


backend = aot_autograd(fw_compiler=boxed, bw_compiler=boxed, partition_fn=interrupted_partition)
x = torch.randn(8, requires_grad=True)
torch.compile(lambda t: (t.exp() * 2).sum(), backend=backend)(x).backward()

"""The kernel workbench: take one kernel out of a compilation, run it, change it, time it.

``Document.kernel(name)`` / ``Exploration.kernel(name)`` return a :class:`Kernel`; its
``reproducer()`` is a standalone program built from the output code Inductor generated.
"""

from .kernel import AmbiguousKernel, Kernel, all_kernels, find_kernel
from .wrapper import WorkbenchError

__all__ = ["AmbiguousKernel", "Kernel", "WorkbenchError", "all_kernels", "find_kernel"]

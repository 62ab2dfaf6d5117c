"""tcexplore: see what torch.compile did to your code."""

__version__ = "0.1.0"

from .capture import CaptureSession, capture  # noqa: E402
from .document import Document, DocumentError, load  # noqa: E402

__all__ = ["capture", "CaptureSession", "Document", "DocumentError", "load", "__version__"]

"""tcexplore: see what torch.compile did to your code."""

__version__ = "0.1.0"

from .capture import CaptureSession, capture  # noqa: E402
from .document import Document, DocumentError, load  # noqa: E402
from .exploration import Exploration  # noqa: E402
from .measure.compare import Comparison, compare  # noqa: E402
from .measure.explore import explore  # noqa: E402

__all__ = ["capture", "CaptureSession", "Comparison", "compare", "Document", "DocumentError", "Exploration", "explore",
           "load", "__version__"]

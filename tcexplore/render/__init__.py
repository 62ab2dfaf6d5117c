"""Views of a tcexplore document (HTML report)."""

"""The package version (a module of its own, so that any module can name it without
importing the package, which wires in everything above the document)."""

__version__ = "0.1.0"

"""The notebook front: ``%%tcompile`` (see ``tcexplore.notebook.magic``) and ``ComparePanel``."""

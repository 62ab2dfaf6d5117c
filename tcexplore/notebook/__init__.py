"""The notebook front: ``%%tcompile`` (see ``tcexplore.magic``) and ``ComparePanel``."""

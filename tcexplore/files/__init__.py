"""Files: documents read within stated limits and written whole or not at all.

``inflate`` (a ``.json.gz`` or a notebook output's packed compiles, inflated within a
bound), ``without_gc`` (big plain-data trees built with the cyclic collector off) and
``output`` (reports and documents written atomically; an unwritable path said in one line).
At the bottom of the layers: they import nothing of tcexplore.
"""

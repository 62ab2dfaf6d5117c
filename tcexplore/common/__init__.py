"""What every stage shares, at the bottom of the layers: ``formatting`` (one spelling of a
number, a duration, a size, in every view) and ``contained`` (a failure costs only itself:
what could not be read, counted and kept for the document's ``unread`` section).
"""

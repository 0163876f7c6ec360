"""The storage core: reads and (carefully) writes every Daycare storage type.

Nothing in this package may import Qt or ``daycare_gui.ui``; a test enforces it.
"""

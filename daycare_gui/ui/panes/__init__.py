"""One widget per navigation section. See :mod:`daycare_gui.ui.panes.registry`."""

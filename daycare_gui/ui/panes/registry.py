"""Every navigation section in one place: id, title, where its pane lives.

Panes are imported lazily, the first time they are shown, so start-up only pays for what is seen.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class PaneSpec:
    id: str
    title: str
    module: str  # under daycare_gui.ui.panes
    cls: str
    in_nav: bool = True
    icon: str = ""  # a freedesktop theme icon name, with a fallback in the view
    arg: object = None  # handed to the pane as ``ctx.arg`` (a generic pane's collection id, say)
    group: str = ""  # shown under a collapsed group node in the navigation ("History")
    shows: str = ""  # what it shows (``stores.records.SECTION_SHOWS``): how the navigation counts it


def pane_class(spec: PaneSpec):
    """The pane class, or a placeholder when its module is not there (keeps the window usable)."""
    try:
        module = importlib.import_module(f"daycare_gui.ui.panes.{spec.module}")
        return getattr(module, spec.cls)
    except (ImportError, AttributeError):
        from daycare_gui.ui.panes.placeholder import placeholder_for

        return placeholder_for(spec)

"""Which store the window opens when started without a PATH: the last one, if it is still there, else the
first kind's usual store. Decided in one place for the window (``MainWindow.open_initial``) and for the
command line, which begins that store's slow part (a PGlite copy: ``registry.head_start``) before Qt's
widgets and the window load, as it does for a PATH it is given (#35). Imports only Qt's core: the command
line asks it before anything of the window is loaded.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from daycare_gui.stores.common.locations import is_url

ORG = "daycare-gui"
APP = "daycare-gui"


def app_settings() -> QSettings:
    """The window's settings, also before the application exists (``QSettings()`` finds the same file once
    ``make_application`` has named the organisation and the application)."""
    return QSettings(ORG, APP)


def initial_store(settings: QSettings) -> str | None:
    """The store a window started without PATH opens (None: the welcome page)."""
    last = settings.value("last_path")
    if last and (is_url(str(last)) or Path(str(last)).exists()):  # (a server: libpq finds its password)
        return str(last)
    from daycare_gui.stores.registry import default_location

    root = default_location()
    return str(root) if root is not None else None

"""The window's settings file is the user's alone: it names every store they opened (server URLs too).

QSettings keeps an existing file's mode when it rewrites it, so the file is made 0600 before Qt first writes
it, and its folder 0700 when it is the application's own (``~/.config/daycare-gui``); ones an earlier version
left open to others are tightened. On a platform whose native settings are not a file (the Windows
registry) there is nothing to do."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings

from daycare_gui.stores.common.private_files import make_private_file, make_private_folders


def private_settings(settings: QSettings) -> None:
    if os.name != "posix" or not settings.fileName():
        return
    path = Path(settings.fileName())
    org = QCoreApplication.organizationName()
    ours = [path.parent] if org and path.parent.name == org else []  # never ~/.config itself
    try:
        make_private_folders(path.parent, ours=ours)
        make_private_file(path)
    except OSError:
        pass  # a settings folder we cannot write: Qt says so itself (settings.status()), the window still opens

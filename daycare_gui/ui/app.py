"""QApplication set-up and ``run_app`` (the ``daycare-gui [PATH] | --demo`` entry point)."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from daycare_gui import __version__

ORG = "daycare-gui"
APP = "daycare-gui"


def resources_dir() -> Path:
    """``resources/`` of a source checkout or an editable install; PyInstaller bundles put it in _MEIPASS."""
    bundled = getattr(sys, "_MEIPASS", None)
    if bundled:
        return Path(bundled) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def app_icon() -> QIcon:
    icons = resources_dir() / "icons"
    icon = QIcon()
    for size in (16, 32, 48, 64, 128, 256):
        png = icons / f"daycare-gui-{size}.png"
        if png.exists():
            icon.addFile(str(png))
    svg = icons / "daycare-gui.svg"
    if svg.exists():
        icon.addFile(str(svg))
    return icon


def make_application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    QCoreApplication.setOrganizationName(ORG)
    QCoreApplication.setApplicationName(APP)
    QCoreApplication.setApplicationVersion(__version__)
    app.setWindowIcon(app_icon())
    app.setDesktopFileName("daycare-gui")
    style = resources_dir() / "styles" / "app.qss"
    if style.exists():
        app.setStyleSheet(style.read_text(encoding="utf-8"))
    return app


def run_app(path: str | None = None, demo: bool = False) -> int:
    app = make_application()
    from daycare_gui.ui.main_window import MainWindow

    window = MainWindow(QSettings())
    window.show()
    window.open_initial(path, demo)
    return app.exec()

"""Render ``resources/icons/daycare-gui.svg`` to the PNG sizes the window and the .desktop file use.

Run after editing the SVG, then commit the PNGs:

    QT_QPA_PLATFORM=offscreen python packaging/render_icons.py

Qt's own SVG renderer is used so the PNGs match what the app draws from the SVG at other sizes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"
SVG = ICONS / "daycare-gui.svg"
SIZES = (16, 32, 48, 64, 128, 256)  # daycare_gui.ui.app.app_icon() loads exactly these


def render(renderer: QSvgRenderer, size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image


def main() -> int:
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"cannot read {SVG}", file=sys.stderr)
        return 1
    for size in SIZES:
        out = ICONS / f"daycare-gui-{size}.png"
        if not render(renderer, size).save(str(out), "PNG"):
            print(f"cannot write {out}", file=sys.stderr)
            return 1
        print(out.relative_to(ICONS.parents[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

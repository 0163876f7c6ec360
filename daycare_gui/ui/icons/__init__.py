"""The navigation's icons: drawn for this application (README.md here), shipped inside the package, and
recoloured from the palette so they read on a light and on a dark background alike.

Each SVG is drawn in black on a 16×16 grid under the freedesktop name the section asks for
(``PaneSpec.icon``); a name without a drawing gets the list icon, so a store kind's own section never shows
a blank. The desktop's icon theme is not asked: it may lack the names, or draw them in another style.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QGuiApplication, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer

FALLBACK = "view-list-details"
INK = "#000000"  # the colour the drawings are made in, replaced by the palette's
SIZES = (16, 20, 24, 32, 48)


def available() -> tuple[str, ...]:
    """The names that have a drawing."""
    folder = resources.files(__name__)
    return tuple(sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".svg")))


@lru_cache(maxsize=64)
def _svg(name: str) -> str:
    folder = resources.files(__name__)
    path = folder / f"{name}.svg"
    if not path.is_file():
        path = folder / f"{FALLBACK}.svg"
    return path.read_text(encoding="utf-8")


def _pixmap(svg: str, colour: str, size: int, ratio: float) -> QPixmap:
    renderer = QSvgRenderer(QByteArray(svg.replace(INK, colour).encode("utf-8")))
    pixels = max(1, round(size * ratio))
    pixmap = QPixmap(pixels, pixels)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, pixels, pixels))
    painter.end()
    pixmap.setDevicePixelRatio(ratio)
    return pixmap


@lru_cache(maxsize=256)
def _icon(name: str, normal: str, selected: str, disabled: str, ratio: float) -> QIcon:
    svg = _svg(name)
    icon = QIcon()
    for size in SIZES:
        for mode, colour in ((QIcon.Mode.Normal, normal), (QIcon.Mode.Active, normal),
                             (QIcon.Mode.Selected, selected), (QIcon.Mode.Disabled, disabled)):
            icon.addPixmap(_pixmap(svg, colour, size, ratio), mode)
    return icon


def nav_icon(name: str, palette: QPalette | None = None) -> QIcon:
    """The icon drawn for ``name`` in ``palette``'s text colours (the application's palette by default):
    Text normally, HighlightedText on a selected row, the disabled Text colour when disabled."""
    if palette is None:
        palette = QGuiApplication.palette()
    R, G = QPalette.ColorRole, QPalette.ColorGroup
    app = QGuiApplication.instance()
    ratio = app.devicePixelRatio() if app is not None else 1.0
    return _icon(name or FALLBACK, palette.color(G.Active, R.Text).name(),
                 palette.color(G.Active, R.HighlightedText).name(), palette.color(G.Disabled, R.Text).name(),
                 float(ratio))

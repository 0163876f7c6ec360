"""The navigation's icons: drawn for this application (README.md here), shipped inside the package, and
recoloured from the palette so they read on a light and on a dark background alike.

Each SVG is drawn in black on a 16×16 grid under the freedesktop name the section asks for
(``PaneSpec.icon``); a name without a drawing gets the list icon, so a store kind's own section never shows
a blank. The desktop's icon theme is not asked: it may lack the names, or draw them in another style.
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from importlib import resources

from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QIconEngine, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer

FALLBACK = "view-list-details"
INK = "#000000"  # the colour the drawings are made in: only where it is, and how much, is kept


def available() -> tuple[str, ...]:
    """The names that have a drawing."""
    folder = resources.files(__name__)
    return tuple(sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".svg")))


@lru_cache(maxsize=1)
def _folder():
    """Where the drawings are, looked up once: each lookup through importlib.resources cost ~0.3 ms, paid
    for every icon of the navigation before the window could show."""
    return resources.files(__name__)


@lru_cache(maxsize=64)
def _svg(name: str) -> str:
    folder = _folder()
    path = folder / f"{name}.svg"
    if not path.is_file():
        path = folder / f"{FALLBACK}.svg"
    return path.read_text(encoding="utf-8")


class _TintedSvg(QIconEngine):
    """Draws one SVG in the colour of each icon mode, at exactly the size asked for, when first asked.

    Rendering every size and mode up front (a QIcon of pixmaps) cost ~6 ms an icon, ~0.1 s for the
    navigation before the window could show; a row only ever needs one or two of those pixmaps.

    The drawing is rendered once per size, in its own ink, and each mode's colour is that image tinted
    (its alpha kept, its colour replaced: ~0.05 ms). Rendering the SVG again for each colour cost 1-3 ms
    an icon, paid in the paint where a navigation row first turned selected or back: both rows of the
    first page a user opened (see :func:`warm_up`)."""

    def __init__(self, svg: str, colours: dict) -> None:
        super().__init__()
        self._svg = svg
        self._colours = colours  # QIcon.Mode -> "#rrggbb"
        self._renderer: QSvgRenderer | None = None
        self._inked: dict[int, QPixmap] = {}  # pixels -> the drawing in its own ink, at that size
        self._pixmaps: dict = {}
        self._clones: list = []  # Qt owns what clone() returns; keep the Python side alive with it
        _engines.add(self)

    def _drawing(self, pixels: int) -> QPixmap:
        """The SVG rendered at ``pixels`` in the ink it is drawn in (once per size)."""
        image = self._inked.get(pixels)
        if image is None:
            global svg_renders
            if self._renderer is None:
                self._renderer = QSvgRenderer(QByteArray(self._svg.encode("utf-8")))
            image = QPixmap(pixels, pixels)
            image.fill(Qt.GlobalColor.transparent)
            painter = QPainter(image)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            self._renderer.render(painter, QRectF(0, 0, pixels, pixels))
            painter.end()
            svg_renders += 1
            self._inked[pixels] = image
        return image

    def scaledPixmap(self, size: QSize, mode, state, scale: float) -> QPixmap:  # noqa: N802 (Qt override)
        scale = scale or 1.0
        return self._pixmap_at(max(1, round(max(size.width(), size.height()) * scale)), mode, scale)

    def _pixmap_at(self, pixels: int, mode, scale: float) -> QPixmap:
        key = (pixels, mode, scale)
        pixmap = self._pixmaps.get(key)
        if pixmap is None:
            colour = self._colours.get(mode, self._colours[QIcon.Mode.Normal])
            pixmap = QPixmap(self._drawing(pixels))  # (a copy: painted on below, the drawing stays)
            painter = QPainter(pixmap)
            painter.setCompositionMode(_SOURCE_IN)  # the colour wherever the drawing has ink, as much as it has
            # (a rectangle drawn, not fillRect: PySide's first fillRect makes QGradient's Python types and
            # enums while choosing the overload, ~4 ms of the navigation's first paint)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(colour))
            painter.drawRect(pixmap.rect())
            painter.end()
            pixmap.setDevicePixelRatio(scale)
            self._pixmaps[key] = pixmap
            global pixmaps_made
            pixmaps_made += 1
        return pixmap

    def warm_up(self) -> None:
        """Every mode's pixmap at each size drawn so far (see :func:`warm_up`)."""
        for pixels, scale in {(pixels, scale) for pixels, _mode, scale in self._pixmaps}:
            for mode in self._colours:
                self._pixmap_at(pixels, mode, scale)

    def pixmap(self, size: QSize, mode, state) -> QPixmap:
        return self.scaledPixmap(size, mode, state, 1.0)

    def paint(self, painter: QPainter, rect: QRect, mode, state) -> None:
        device = painter.device()
        scale = device.devicePixelRatioF() if device is not None else 1.0
        painter.drawPixmap(rect, self.scaledPixmap(rect.size(), mode, state, scale))

    def clone(self) -> QIconEngine:
        twin = _TintedSvg(self._svg, self._colours)
        self._clones.append(twin)
        return twin


_SOURCE_IN = QPainter.CompositionMode.CompositionMode_SourceIn
_engines: weakref.WeakSet[_TintedSvg] = weakref.WeakSet()  # every icon made, while it lives
svg_renders = 0  # SVG drawings rendered (tests prove the tinting with it)
pixmaps_made = 0  # pixmaps made for a mode and size (tests prove the warm-up with it)


def warm_up() -> None:
    """Make, in idle time, the pixmap of every mode of every icon at the sizes it was shown at: a row of the
    navigation turning selected (or back) then paints a pixmap made already. The first tint also sets up
    Qt's compositing, a few ms once."""
    for engine in list(_engines):
        engine.warm_up()


@lru_cache(maxsize=256)
def _icon(name: str, normal: str, selected: str, disabled: str) -> QIcon:
    return QIcon(_TintedSvg(_svg(name), {QIcon.Mode.Normal: normal, QIcon.Mode.Active: normal,
                                         QIcon.Mode.Selected: selected, QIcon.Mode.Disabled: disabled}))


def nav_icon(name: str, palette: QPalette | None = None) -> QIcon:
    """The icon drawn for ``name`` in ``palette``'s text colours (the application's palette by default):
    Text normally, HighlightedText on a selected row, the disabled Text colour when disabled."""
    if palette is None:
        palette = QGuiApplication.palette()
    R, G = QPalette.ColorRole, QPalette.ColorGroup
    return _icon(name or FALLBACK, palette.color(G.Active, R.Text).name(),
                 palette.color(G.Active, R.HighlightedText).name(), palette.color(G.Disabled, R.Text).name())

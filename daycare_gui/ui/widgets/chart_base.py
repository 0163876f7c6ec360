"""What every painted chart shares: a title, a sentence instead of the chart, palette colours, hover tips.

The charts are drawn with QPainter (QtGui) rather than QtCharts: two or three simple charts did not justify
PySide6-Addons (~440 MB installed). Colours come from the palette through ``theme.colours``, so a chart
reads in a light and in a dark theme and follows a switch between them; series hues are moved towards the
text colour until they reach 3:1 contrast on the background (WCAG's minimum for graphical objects).
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QToolTip, QWidget

from daycare_gui.ui.theme import Colours, colours, mix, readable

LOADING_TEXT = "Loading…"
PAD = 8
GRAPHICS_CONTRAST = 3.0  # WCAG 2.1 non-text contrast
# One hue per series, told apart by colour-blind readers too (Tableau 10's first six).
SERIES_HUES = ("#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759", "#76b7b2")


@lru_cache(maxsize=8)
def series_colours(background: str, text: str) -> tuple[str, ...]:
    """The series hues, each readable as a line or a bar on ``background``."""
    return tuple(readable(hue, background, text, GRAPHICS_CONTRAST) for hue in SERIES_HUES)


class PaintedChart(QWidget):
    """A titled chart painted on the palette's Base colour, or one sentence when there is nothing to draw.

    Subclasses implement ``is_empty``, ``_clear`` and ``_paint`` (and ``_tip_at`` for hover details)."""

    def __init__(self, title: str, empty_text: str, parent=None) -> None:
        super().__init__(parent)
        self.title = title
        self.empty_text = empty_text
        # Until the store's answer arrives nothing is known: "no history" would be a claim, not a fact.
        self._message: str | None = LOADING_TEXT
        self.setMouseTracking(True)
        self._set_height(False)

    def is_empty(self) -> bool:
        raise NotImplementedError

    def _clear(self) -> None:
        raise NotImplementedError

    def _paint(self, p: QPainter, area: QRectF, c: Colours) -> None:
        raise NotImplementedError

    def _tip_at(self, pos: QPointF) -> str | None:
        return None

    @property
    def message(self) -> str:
        """The sentence shown instead of a chart (loading, nothing to draw, could not count), or ''."""
        if self._message is not None:
            return self._message
        return self.empty_text if self.is_empty() else ""

    def show_message(self, text: str) -> None:
        """A sentence instead of the chart (e.g. why it could not be counted)."""
        self._clear()
        self._message = text
        self.setToolTip("")
        self._set_height(False)

    def _data_arrived(self) -> None:
        self._message = None
        self._set_height(not self.is_empty())

    def _set_height(self, has_data: bool) -> None:
        # A sentence needs no chart-sized hole.
        self.setMinimumHeight(260 if has_data else 40)
        self.setMaximumHeight(16777215 if has_data else 60)
        self.updateGeometry()
        self.update()

    # -- colours -------------------------------------------------------------------------------------
    def colours(self) -> Colours:
        return colours(self.palette())

    def series_colours(self) -> tuple[str, ...]:
        c = self.colours()
        return series_colours(c.base, c.text)

    def grid_colour(self) -> str:
        c = self.colours()
        return mix(c.base, c.text, 0.18)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self.update()  # every paint reads the palette: drawing again is enough

    # -- painting ------------------------------------------------------------------------------------
    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt override)
        c = self.colours()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(c.base))
        p.setPen(QColor(c.text))
        if self.message:
            p.drawText(self.rect().adjusted(PAD, 0, -PAD, 0),
                       Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.message)
            return
        bold = QFont(self.font())
        bold.setBold(True)
        p.setFont(bold)
        title_h = QFontMetrics(bold).height()
        p.drawText(QRectF(0, PAD / 2, self.width(), title_h), Qt.AlignmentFlag.AlignHCenter, self.title)
        p.setFont(self.font())
        self._paint(p, QRectF(PAD, PAD + title_h + PAD / 2, self.width() - 2 * PAD,
                              self.height() - 2 * PAD - title_h - PAD / 2), c)

    def _grid_pen(self) -> QPen:
        return QPen(QColor(self.grid_colour()), 1)

    def event(self, e) -> bool:
        if e.type() == QEvent.Type.ToolTip:
            tip = None if self.message else self._tip_at(QPointF(e.pos()))
            if tip or self.toolTip():
                QToolTip.showText(e.globalPos(), tip or self.toolTip(), self)
            else:
                QToolTip.hideText()
            return True
        return super().event(e)


def draw_legend(p: QPainter, fm: QFontMetrics, row: QRectF, text: str, entries: list[tuple[str, str]]) -> None:
    """Coloured squares and their names, centred on ``row``."""
    box = fm.height() * 0.7
    widths = [box + 4 + fm.horizontalAdvance(t) + 16 for t, _c in entries]
    x = row.left() + max(0.0, (row.width() - sum(widths)) / 2)
    for (title, colour), w in zip(entries, widths):
        p.fillRect(QRectF(x, row.center().y() - box / 2, box, box), QColor(colour))
        p.setPen(QColor(text))
        p.drawText(QRectF(x + box + 4, row.top(), w - box - 4, row.height()),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)
        x += w

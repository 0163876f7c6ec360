"""Scroll bars drawn from cached images.

Qt's Fusion style (the default on Linux without a desktop theme) fills a scroll bar's groove, and a slider
as long as the bar, with a gradient every time it paints: 0.9 ms for a 690-pixel groove and 4-5 ms for a
bar with nothing to scroll (its slider fills the groove), measured offscreen and under Xvfb alike. The
record list, the conversation and every table repaint their bars whenever their content moves, so opening
a session paid ~12 ms for its two bars and each scroll step ~1.5 ms.

This style draws the groove and the slider once per size, state and palette into an image and copies it
after that; the arrows and page areas (cheap) are drawn by Fusion as before. The pixels are Fusion's own
to within a level of rounding (tested). It is installed over Fusion only (:func:`install`): other styles
draw their bars in their own order and brushes, and are not slow.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory, QStyleOptionSlider

_SCROLL_BAR = QStyle.ComplexControl.CC_ScrollBar
_GROOVE = QStyle.SubControl.SC_ScrollBarGroove
_SLIDER = QStyle.SubControl.SC_ScrollBarSlider
_TRANSPARENT = Qt.GlobalColor.transparent


class CachedScrollBarStyle(QProxyStyle):
    CACHE = 48  # images kept (a few bars' grooves and sliders, in each state they are seen in)
    SLIDER_MARGIN = 2  # pixels around the slider copied with it (its outline; Fusion draws one beyond it)

    def __init__(self, base: QStyle | None = None) -> None:
        super().__init__(base)
        self._images: OrderedDict[tuple, QPixmap] = OrderedDict()
        self.images_drawn = 0  # tests prove the cache with it

    def drawComplexControl(self, control, option, painter, widget=None) -> None:  # noqa: N802
        if control != _SCROLL_BAR or not isinstance(option, QStyleOptionSlider) or painter is None:
            super().drawComplexControl(control, option, painter, widget)
            return
        # The groove under everything, then the slider, then the arrows and page areas: the order
        # Fusion draws them in (an arrow's edge covers the slider's outline when it touches an end).
        parts = option.subControls
        if parts & _GROOVE:
            self._blit(painter, option, widget, _GROOVE, option.rect)
        if parts & _SLIDER:
            slider = self.subControlRect(_SCROLL_BAR, option, _SLIDER, widget)
            if slider.isValid():  # with its outline, which styles draw a pixel beyond the slider
                m = self.SLIDER_MARGIN
                self._blit(painter, option, widget, _SLIDER, slider.adjusted(-m, -m, m, m).intersected(option.rect),
                           slider.topLeft())
        rest = QStyleOptionSlider(option)
        rest.subControls &= ~(_GROOVE | _SLIDER)
        if rest.subControls:
            super().drawComplexControl(control, rest, painter, widget)

    def _blit(self, painter: QPainter, option: QStyleOptionSlider, widget, part, area: QRect,
              anchor=None) -> None:
        """Copy ``part`` (the groove, or the slider and its margin: ``area``) from its image, drawing it
        first if new. ``anchor``: the slider's own top-left corner.

        The image depends on what the style draws it from: the part's size, the bar's state and
        orientation, whether that part is hovered or pressed, the palette and the pixel ratio. The
        slider's position is not in it: the slider is drawn at the bar's origin and copied where it is."""
        ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
        # (where the area starts against the slider: near an end of the bar its margin is cut off)
        edge = (area.left() - anchor.x(), area.top() - anchor.y()) if anchor is not None else None
        key = (part, area.width(), area.height(), edge, int(option.state.value), option.orientation,
               int((option.activeSubControls & part).value), option.palette.cacheKey(), ratio,
               option.direction, option.rect.width() if part == _SLIDER else 0,
               option.rect.height() if part == _SLIDER else 0)
        image = self._images.get(key)
        if image is None:
            image = self._images[key] = self._render(option, widget, part, area, ratio)
            if len(self._images) > self.CACHE:
                self._images.popitem(last=False)
        else:
            self._images.move_to_end(key)
        painter.drawPixmap(area.topLeft(), image)

    def _render(self, option: QStyleOptionSlider, widget, part, area: QRect, ratio: float) -> QPixmap:
        one = QStyleOptionSlider(option)
        one.subControls = part
        image = QPixmap(max(1, round(area.width() * ratio)), max(1, round(area.height() * ratio)))
        image.setDevicePixelRatio(ratio)
        image.fill(_TRANSPARENT)
        p = QPainter(image)
        # The styles place the slider from the bar's size and values alone: move the painter instead, so
        # that ``area`` lands at the image's origin.
        p.translate(-area.left(), -area.top())
        super().drawComplexControl(_SCROLL_BAR, one, p, widget)
        p.end()
        self.images_drawn += 1
        return image


def install(app: QApplication) -> bool:
    """Draw the application's scroll bars from cached images when its style is Fusion. Call before any
    widget exists (a new application style resets the palette). True when installed (or already so)."""
    style = app.style()
    if isinstance(style, CachedScrollBarStyle):
        return True
    if style is None or style.name().lower() != "fusion":
        return False
    app.setStyle(CachedScrollBarStyle(QStyleFactory.create("fusion")))
    return True

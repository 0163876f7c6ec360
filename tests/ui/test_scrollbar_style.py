"""Scroll bars drawn from cached images look exactly like Fusion's own, and repainting one (scrolling,
or the window painting again) draws no new image."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollBar, QStyleFactory

from daycare_gui.ui.scrollbar_style import CachedScrollBarStyle, install

VERTICAL, HORIZONTAL = Qt.Orientation.Vertical, Qt.Orientation.Horizontal


def _bar(style, orientation, maximum: int, page: int, value: int, enabled: bool = True) -> QScrollBar:
    bar = QScrollBar(orientation)
    bar.setStyle(style)
    bar.setRange(0, maximum)
    bar.setPageStep(page)
    bar.setValue(value)
    bar.setEnabled(enabled)
    bar.resize(*((14, 400) if orientation == VERTICAL else (400, 14)))
    return bar


def _largest_difference(a, b) -> int:
    assert a.size() == b.size()
    worst = 0
    for y in range(a.height()):
        for x in range(a.width()):
            p, q = a.pixelColor(x, y), b.pixelColor(x, y)
            worst = max(worst, abs(p.red() - q.red()), abs(p.green() - q.green()), abs(p.blue() - q.blue()),
                        abs(p.alpha() - q.alpha()))
    return worst


@pytest.mark.parametrize("orientation", [VERTICAL, HORIZONTAL])
@pytest.mark.parametrize("maximum, page, value", [
    (0, 10, 0),  # nothing to scroll: the slider fills the groove (the slowest bar to draw)
    (1000, 30, 0), (1000, 30, 500), (1000, 30, 1000),  # the slider at the start, middle, end
    (5, 100, 3), (100_000, 20, 77_777),  # a long slider; a huge range
])
@pytest.mark.parametrize("enabled", [True, False])
def test_a_cached_bar_looks_like_fusions_own(qapp, orientation, maximum, page, value, enabled):
    fusion = QStyleFactory.create("fusion")
    cached = CachedScrollBarStyle(QStyleFactory.create("fusion"))
    expected = _bar(fusion, orientation, maximum, page, value, enabled).grab().toImage()
    first = _bar(cached, orientation, maximum, page, value, enabled).grab().toImage()
    again = _bar(cached, orientation, maximum, page, value, enabled).grab().toImage()  # from the images
    # the same pixels, to within a level of rounding where a semi-transparent line is drawn over an image
    assert _largest_difference(expected, first) <= 2
    assert again == first


def test_scrolling_and_repainting_draw_no_new_image(qapp):
    style = CachedScrollBarStyle(QStyleFactory.create("fusion"))
    bar = _bar(style, VERTICAL, 10_000, 40, 0)
    bar.grab()
    drawn = style.images_drawn
    assert drawn == 2  # the groove and the slider
    for value in range(0, 10_000, 250):  # the slider moves; its size does not
        bar.setValue(value)
        bar.grab()
    assert style.images_drawn == drawn
    bar.setRange(0, 0)  # nothing to scroll: a new (full-length) slider
    bar.grab()
    assert style.images_drawn == drawn + 1


def test_the_application_draws_its_bars_this_way(qapp):
    from daycare_gui.ui.app import make_application

    app = make_application()
    # offscreen (as here and in CI) Qt's default style is Fusion, which the application wraps once
    assert isinstance(app.style(), CachedScrollBarStyle)
    style = app.style()
    assert install(app) and app.style() is style

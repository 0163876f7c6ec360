"""The application's style sheet rules (resources/styles/app.qss plus the palette's banner and tone colours)
reach the widgets that use them, and follow a light/dark switch, without a style sheet on the whole
application (which makes every widget of the window slower to create)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel

from daycare_gui.ui.theme import colours, dark_palette, set_tone


@pytest.fixture
def restore_palette(qapp):
    before = QPalette(qapp.palette())
    yield
    qapp.setPalette(before)


def _foreground(label: QLabel) -> str:
    label.ensurePolished()
    return label.palette().color(label.foregroundRole()).name()


def test_rules_reach_the_widgets_that_use_them_and_follow_the_palette(qtbot, qapp, window, restore_palette):
    assert qapp.styleSheet() == ""
    window.nav.ensurePolished()
    assert window.nav.font().pixelSize() == 13  # app.qss: the navigation's font size
    window.detail.heading.ensurePolished()
    assert window.detail.heading.font().pixelSize() == 13

    label = QLabel("Cannot run")
    qtbot.addWidget(label)
    set_tone(label, "error")
    assert _foreground(label) == colours().window_error

    window.banner.show_message("The store changed on disk.", kind="warning")
    window.banner.resize(400, 40)
    light_tint = window.banner.grab().toImage().pixelColor(5, 20)
    assert light_tint.name() == colours().banners["warning"][0]

    qapp.setPalette(dark_palette())  # the desktop went dark: tints and tones are worked out again
    qtbot.waitUntil(lambda: _foreground(label) == colours().window_error, timeout=5000)
    assert colours().dark
    dark_tint = window.banner.grab().toImage().pixelColor(5, 20)
    assert dark_tint.name() == colours().banners["warning"][0] and dark_tint.lightness() < light_tint.lightness()

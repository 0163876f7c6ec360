"""Emoji draw with a colour emoji font (fonts-noto-color-emoji on Debian), not as empty boxes."""

from __future__ import annotations

import logging

import pytest
from PySide6.QtGui import QColor, QFont, QFontDatabase, QImage, QPainter

from daycare_gui.ui import fonts


def _coloured_pixels(text: str, font: QFont) -> int:
    image = QImage(160, 48, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(font)
    painter.setPen(QColor("black"))
    painter.drawText(8, 36, text)
    painter.end()
    return sum(1 for x in range(0, 160, 2) for y in range(0, 48, 2)
               if max(abs((c := image.pixelColor(x, y)).red() - c.green()), abs(c.green() - c.blue())) > 40)


def test_emoji_draw_in_colour_in_the_application_font(qapp):
    from daycare_gui.ui.app import make_application

    make_application()
    assert fonts.DEBIAN_PACKAGE == "fonts-noto-color-emoji"  # what README and .ci/run install
    assert QFontDatabase.applicationEmojiFontFamilies()  # named, so any widget's font falls back to it
    assert _coloured_pixels("\U0001F600 \u2705", QFont()) > 20  # black text pen: colour only from emoji glyphs


def test_the_installed_emoji_fonts_are_named_for_every_family(qapp, monkeypatch):
    monkeypatch.setattr(QFontDatabase, "families", staticmethod(lambda *a: ["DejaVu Sans", "Noto Color Emoji"]))
    set_to = []
    monkeypatch.setattr(QFontDatabase, "setApplicationEmojiFontFamilies", staticmethod(set_to.append))
    assert fonts.install_emoji_fallback(("Some Family",)) == ["Noto Color Emoji"]
    assert set_to == [["Noto Color Emoji"]]
    # No substitutes where Qt has the emoji API: a substitute also stands in for an alias family that is
    # not installed, and then the whole window drew its digits and spaces from the emoji font.
    assert "noto color emoji" not in [f.lower() for f in QFont.substitutes("Some Family")]


@pytest.fixture
def substitutes_restored():
    """The older-Qt path gives the default families the emoji font as a substitute, process-wide: put them
    back, or every later test draws digits and spaces from the emoji font (the 1024×700 Inbox test found
    its columns wider after this one)."""
    families = {QFont().family(), "Sans Serif", "monospace", "Older Family"}
    before = {family: QFont.substitutes(family) for family in families}
    yield
    for family, subs in before.items():
        QFont.removeSubstitutions(family)
        if subs:
            QFont.insertSubstitutions(family, subs)


def test_an_older_qt_gets_the_emoji_font_as_a_substitute(qapp, monkeypatch, substitutes_restored):
    monkeypatch.setattr(QFontDatabase, "families", staticmethod(lambda *a: ["DejaVu Sans", "Noto Color Emoji"]))
    monkeypatch.delattr(QFontDatabase, "setApplicationEmojiFontFamilies", raising=False)
    assert fonts.install_emoji_fallback(("Older Family",)) == ["Noto Color Emoji"]
    assert "noto color emoji" in [f.lower() for f in QFont.substitutes("Older Family")]


def test_without_an_emoji_font_the_log_names_the_package(qapp, monkeypatch, caplog):
    monkeypatch.setattr(QFontDatabase, "families", staticmethod(lambda *a: ["DejaVu Sans"]))
    with caplog.at_level(logging.WARNING, logger="daycare_gui.ui.fonts"):
        assert fonts.install_emoji_fallback() == []
    assert "fonts-noto-color-emoji" in caplog.text

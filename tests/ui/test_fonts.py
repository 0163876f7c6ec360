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


MIXED = "部署完成了吗？ 🚀 한국어 かな done 42"


def _runs_of(document):
    """(family, text, glyph indexes) of every glyph run the document was laid out with."""
    out = []
    block = document.begin()
    while block.isValid():
        document.documentLayout().blockBoundingRect(block)  # laid out now, painted or not
        layout = block.layout()
        for run in layout.glyphRuns(0, block.length()):  # (the defaults return nothing in PySide6)
            raw = run.rawFont()
            out.append((raw, list(run.glyphIndexes())))
        block = block.next()
    return out


def _check_glyphs(document, text: str) -> set[str]:
    """Every character of ``text`` comes out of some run whose font has it; no run draws .notdef (glyph 0,
    the empty box). Returns the fonts used."""
    runs = _runs_of(document)
    assert runs and all(0 not in glyphs for _, glyphs in runs), [(r.familyName(), g) for r, g in runs]
    families = {raw.familyName() for raw, _ in runs}
    for ch in {c for c in text if not c.isspace()}:
        assert any(raw.supportsCharacter(ord(ch)) for raw, _ in runs), (ch, families)
    return families


def test_a_conversation_in_chinese_korean_japanese_and_emoji_draws_every_glyph(qtbot, window, monkeypatch,
                                                                              tmp_path):
    import json

    from daycare_gui.stores import registry
    from tests.stores.plugin import install_chatlog_entry_point
    from tests.ui.conftest import open_and_wait

    install_chatlog_entry_point(monkeypatch, tmp_path)
    from chatlog_kind import write_chatlog

    store = write_chatlog(tmp_path / "store")
    (store / "intl").mkdir()
    (store / "intl" / "s1.jsonl").write_text(json.dumps({"role": "user", "text": MIXED, "at": 1767225600000},
                                                        ensure_ascii=False) + "\n", encoding="utf-8")
    try:
        open_and_wait(qtbot, window, store)
        window.show_section("conversations")
        pane = window.pane("conversations")
        qtbot.waitUntil(lambda: pane.threads.model.rowCount() == 3, timeout=5000)
        pane.open_item("intl")
        qtbot.waitUntil(lambda: "部署完成了吗" in pane.shown_text(), timeout=5000)
        document = pane.conversation.conversation.document()
        families = _check_glyphs(document, MIXED)
        assert set(fonts.CJK_FAMILIES) & families, families  # the CJK glyphs from a CJK font
        assert set(fonts.EMOJI_FAMILIES) & families, families  # the rocket from the emoji font
    finally:
        registry.unregister("chatlog")


def test_the_application_font_falls_back_to_an_installed_cjk_font(qapp):
    from PySide6.QtGui import QTextDocument

    from daycare_gui.ui.app import make_application

    make_application()
    assert fonts.CJK_DEBIAN_PACKAGE == "fonts-wqy-microhei"  # what README and .ci/run install
    found = fonts.install_cjk_fallback()
    assert found
    document = QTextDocument(MIXED)
    document.setTextWidth(600)
    families = _check_glyphs(document, MIXED)
    assert found[0] in families  # the preferred installed CJK font, not whatever the system picks


def test_without_a_cjk_font_the_log_names_the_package(qapp, monkeypatch, caplog):
    monkeypatch.setattr(QFontDatabase, "families", staticmethod(lambda *a: ["DejaVu Sans"]))
    with caplog.at_level(logging.WARNING, logger="daycare_gui.ui.fonts"):
        assert fonts.install_cjk_fallback() == []
    assert "fonts-wqy-microhei" in caplog.text

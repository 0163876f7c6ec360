"""Issue 15, "look right": the desktop switches between light and dark while the window is open, and every
page follows at once — the conversation view and an editor are measured after the switch, not only when the
window was opened in a dark palette."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QTextEdit

from daycare_gui.ui.theme import contrast, dark_palette
from tests.ui.conftest import open_and_wait
from tests.ui.test_dark_palette import AA, text_on_background, unreadable
from tests.ui.test_history_pane import _rlm_session


@pytest.fixture
def restore_palette(qapp):
    before = QPalette(qapp.palette())
    yield
    qapp.setPalette(before)


def _dark(colour) -> bool:
    return contrast(colour, "#000000") < 4.0


def _runs(view):
    return text_on_background(view.document(), view.palette().color(QPalette.ColorRole.Base))


def test_the_conversation_follows_a_switch_to_dark_and_back(qtbot, qapp, window, demo_store, restore_palette):
    agent_id, session_id, _ = _rlm_session(demo_store)
    open_and_wait(qtbot, window, demo_store)
    window.show_section("history", (agent_id, session_id, None))
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: "Groceries" in pane.conversation.toPlainText(), timeout=5000)
    assert not any(_dark(bg) for _, _, bg in _runs(pane.conversation))

    qapp.setPalette(dark_palette())  # the desktop went dark while the conversation was open
    qtbot.waitUntil(lambda: all(_dark(bg) for _, _, bg in _runs(pane.conversation)), timeout=5000)
    runs = _runs(pane.conversation)
    assert len({bg for _, _, bg in runs}) >= 4  # the message kinds are still told apart
    assert unreadable(runs) == []
    # the record list beside it is painted from the palette too
    image = pane.list.viewport().grab().toImage()
    assert image.pixelColor(2, pane.list.rowHeight(0) // 2).lightness() < 80

    qapp.setPalette(QPalette(qapp.style().standardPalette()))  # and light again
    qtbot.waitUntil(lambda: not any(_dark(bg) for _, _, bg in _runs(pane.conversation)), timeout=5000)
    assert unreadable(_runs(pane.conversation)) == []


def test_an_open_editor_follows_a_switch_to_dark(qtbot, qapp, window, demo_store, restore_palette):
    from daycare_gui.ui.editors.window import open_file_editor

    open_and_wait(qtbot, window, demo_store)
    editor_window = open_file_editor(demo_store / "cron" / "daily-digest" / "TASK.md", store=window.store,
                                     parent=window)
    qtbot.addWidget(editor_window)
    editor_window.show()
    editor = editor_window.editor
    schedule = editor.widgets["schedule"]
    schedule.edit.setText("0 7 * *")
    schedule.update_info("0 7 * *")  # an error under the field, coloured from the palette

    qapp.setPalette(dark_palette())
    qtbot.waitUntil(lambda: _dark(editor.palette().color(QPalette.ColorRole.Window)), timeout=5000)
    window_colour = editor.palette().color(QPalette.ColorRole.Window)
    for label in (schedule.words, schedule.runs, editor.status):
        label.ensurePolished()
        fg = label.palette().color(label.foregroundRole())
        assert contrast(fg, window_colour) >= AA, (label.text(), fg.name(), window_colour.name())
    # "Daycare reads the database row, not this file" is coloured inside the header's rich text
    def header_reads() -> bool:
        found = re.findall(r"color:\s*(#[0-9a-fA-F]{6})", editor.header.text())
        return bool(found) and all(contrast(c, window_colour) >= AA for c in found)

    qtbot.waitUntil(header_reads, timeout=5000)
    # every text field of the form is dark with light text: no white islands
    fields = editor.findChildren(QLineEdit) + editor.findChildren(QPlainTextEdit) + editor.findChildren(QTextEdit)
    assert fields
    for field in fields:
        if not field.isVisible():
            continue
        bg = field.palette().color(QPalette.ColorRole.Base)
        assert _dark(bg), type(field).__name__
        assert contrast(field.palette().color(QPalette.ColorRole.Text), bg) >= AA
    editor_window.close()


def test_a_desktop_that_only_reports_its_colour_scheme_still_turns_the_window_dark(qtbot, qapp, window,
                                                                                    restore_palette):
    from PySide6.QtCore import Qt

    from daycare_gui.ui.theme import is_dark

    hints = qapp.styleHints()
    assert not is_dark(qapp.palette())
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)  # the platform said "dark" but kept a light palette
    assert is_dark(qapp.palette())
    nav = window.nav.viewport().grab().toImage()
    assert nav.pixelColor(nav.width() - 3, nav.height() - 3).lightness() < 80
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert not is_dark(qapp.palette())

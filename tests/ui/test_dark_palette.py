"""Issue 18 #6: with a dark palette every page must stay readable — no fixed light background under the
palette's light text. Contrast is measured as WCAG defines it (relative luminance), on what is drawn."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QBrush, QPalette, QTextCursor
from PySide6.QtWidgets import QApplication

from daycare_gui.ui.theme import contrast, dark_palette
from tests.ui.conftest import open_and_wait
from tests.ui.test_history_pane import _rlm_session

AA = 4.5


@pytest.fixture
def dark(qapp):
    """The whole application in a dark palette, as a dark desktop theme would set it; restored afterwards."""
    before = QPalette(qapp.palette())
    qapp.setPalette(dark_palette())
    yield qapp.palette()
    qapp.setPalette(before)


def _colour(brush: QBrush):
    return brush.color() if brush.style() != brush.style().NoBrush else None


def text_on_background(document, base) -> list[tuple[str, str, str]]:
    """(text, foreground, background) of every non-blank run of text in a QTextDocument, the background
    being the nearest of the block's, its table cell's and its table's, else the view's base colour."""
    out = []
    block = document.begin()
    while block.isValid():
        cursor = QTextCursor(block)
        background = _colour(block.blockFormat().background())
        table = cursor.currentTable()
        if background is None and table is not None:
            cell = table.cellAt(cursor)
            background = _colour(cell.format().background()) or _colour(table.format().background())
        background = background or base
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            text = fragment.text().strip().replace("\u2028", " ")
            if text:
                fmt = fragment.charFormat()
                foreground = _colour(fmt.foreground()) or document_text_colour(fmt)
                out.append((text, foreground.name(), background.name()))
            it += 1
        block = block.next()
    return out


def document_text_colour(fmt):
    """Text without a colour of its own is drawn in the palette's Text colour (anchors in Link)."""
    palette = QApplication.palette()
    role = QPalette.ColorRole.Link if fmt.isAnchor() else QPalette.ColorRole.Text
    return palette.color(role)


def unreadable(runs) -> list[str]:
    return [f"{text[:40]!r}: {fg} on {bg} = {contrast(fg, bg):.2f}" for text, fg, bg in runs if contrast(fg, bg) < AA]


def test_the_conversation_reads_in_a_dark_palette(qtbot, window, demo_store, dark):
    from daycare_gui.ui.widgets.message_view import call_id_of_run_url

    agent_id, session_id, _snapshot = _rlm_session(demo_store)
    open_and_wait(qtbot, window, demo_store)
    window.show_section("history", (agent_id, session_id, None))
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: "Groceries" in pane.conversation.toPlainText(), timeout=5000)
    for link in re.findall(r'href="run:([^"]+)"', pane.conversation.toHtml()):  # open every run: its code and
        pane.view.toggle_run(call_id_of_run_url(link))  # steps are drawn too
    base = pane.conversation.palette().color(QPalette.ColorRole.Base)
    assert contrast(base, dark.color(QPalette.ColorRole.Base)) == 1.0  # the view took the dark palette
    runs = text_on_background(pane.conversation.document(), base)
    shown = " ".join(text for text, _, _ in runs)
    for part in ("ssistant", "→ run_python", "run_python result", "Python start", "Rewritten:", "raw",
                 "📎", "import csv"):  # messages, a tool call and result, a run, a rewrite, links, a file, code
        assert part in shown
    backgrounds = {bg for _, _, bg in runs}
    assert len(backgrounds) >= 4  # the message kinds are still told apart by their tint
    assert all(contrast(bg, "#000000") < 4.0 for bg in backgrounds), "a light background in a dark palette"
    assert unreadable(runs) == []

    # the record list beside it: time, kind badge and summary, painted by its delegate
    image = pane.list.viewport().grab().toImage()
    row_height = pane.list.rowHeight(0)
    assert image.pixelColor(2, row_height // 2).lightness() < 80  # the list's background is dark too


def test_markdown_detail_and_editors_read_in_a_dark_palette(qtbot, window, demo_store, dark):
    from daycare_gui.ui.editors.window import open_file_editor

    open_and_wait(qtbot, window, demo_store)
    window.show_section("skills")
    skills = window.panes["skills"]
    qtbot.waitUntil(lambda: skills.list.records.proxy.rowCount() > 0, timeout=5000)
    skills.list.table.selectRow(0)
    viewer = skills.preview
    qtbot.waitUntil(lambda: viewer.toPlainText().strip() != "", timeout=5000)
    base = viewer.palette().color(QPalette.ColorRole.Base)
    assert unreadable(text_on_background(viewer.document(), base)) == []
    detail = window.detail.text
    assert unreadable(text_on_background(detail.document(), detail.palette().color(QPalette.ColorRole.Base))) == []

    # an editor: the note under the schedule, an error under a field, the changed-on-disk banner
    editor_window = open_file_editor(demo_store / "cron" / "daily-digest" / "TASK.md", store=window.store,
                                     parent=window)
    qtbot.addWidget(editor_window)
    editor_window.show()
    editor = editor_window.editor
    schedule = editor.widgets["schedule"]
    schedule.edit.setText("0 7 * *")
    schedule.update_info("0 7 * *")  # an invalid schedule: the words turn into an error
    window_colour = editor.palette().color(QPalette.ColorRole.Window)
    assert "cannot run" in schedule.words.text()
    for label in (schedule.words, schedule.runs, editor.status):
        label.ensurePolished()
        fg = label.palette().color(label.foregroundRole())
        assert contrast(fg, window_colour) >= AA, (label.text(), fg.name(), window_colour.name())
    # "Daycare reads the database row, not this file" is coloured inside the header's rich text
    header_colours = re.findall(r"color:\s*(#[0-9a-fA-F]{6})", editor.header.text())
    assert header_colours and all(contrast(c, window_colour) >= AA for c in header_colours)
    editor.disk_banner.show()
    editor.disk_banner.ensurePolished()
    banner_bg = editor.disk_banner.grab().toImage().pixelColor(3, 3)
    assert contrast(editor.disk_label.palette().color(editor.disk_label.foregroundRole()), banner_bg) >= AA
    editor_window.close()


def test_charts_follow_the_palette(qtbot, window, demo_store, dark):
    open_and_wait(qtbot, window, demo_store)
    pane = window.panes["overview"]
    qtbot.waitUntil(lambda: not pane.activity_chart.is_empty() and not pane.tokens_chart.is_empty(), timeout=10000)
    for chart in (pane.activity_chart, pane.tokens_chart):
        chart.resize(700, 300)
        image = chart.grab().toImage()
        background = image.pixelColor(2, 2)  # what is painted, not what was asked for
        assert contrast(background, "#000000") < 4.0  # dark, not a light chart
        drawn = {image.pixelColor(x, y).name() for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)}
        text = chart.colours().text
        assert text in drawn and contrast(text, background) >= AA  # title, axes and legend
        hues = chart.series_colours()[:1]  # (the shared overview's charts each draw one series per day)
        for hue in hues:  # bars and lines stand out from the background (WCAG non-text contrast)
            assert hue in drawn and contrast(hue, background) >= 3.0, hue

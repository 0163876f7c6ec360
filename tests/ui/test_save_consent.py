"""The "Write anyway?" question of the shared pages says every reason the write was refused for, and no
reason that does not apply: one Yes skips them all.

Found by QA: with Linggen running, saving an agent whose frontmatter was broken asked only about the running
program; after one Yes the file was written and the user never heard that Linggen would skip it. And a
broken frontmatter alone was asked about as if a program were running.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from daycare_gui.ui.widgets.plain_text import text_of
from tests.stores.linggen.builder import standard_home
from tests.ui.conftest import open_and_wait

BROKEN = "---\nname: [unclosed\n---\nYou are Ling.\n"


@pytest.fixture
def home(tmp_path):
    return standard_home(tmp_path / "home")


def _save_broken_agent(qtbot, window, root, monkeypatch, answer):
    """Edit agent ``ling`` into broken frontmatter, press Save, answer the question; what it said."""
    asked = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: (asked.append(a[2]), answer)[1])
    # closing the window with the edits kept asks about them: drop them then
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    open_and_wait(qtbot, window, root)
    window.show_section("documents")
    pane = window.pane("documents")
    qtbot.waitUntil(lambda: any(d.title == "ling" for d in pane.list.records.visible_records()), timeout=5000)
    pane.list.select_key(next(d.id for d in pane.list.records.visible_records() if d.title == "ling"))
    qtbot.waitUntil(lambda: pane.ref is not None and pane.ref.title == "ling", timeout=5000)
    pane.edit_button.click()
    pane.editor.setPlainText(BROKEN)
    pane.save_button.click()
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=5000)
    return pane, asked[0]


def test_running_linggen_and_broken_frontmatter_are_both_asked_before_writing(qtbot, window, home, monkeypatch):
    home.pid()  # this test process stands in for a live daemon
    path = home.root / "agents" / "ling.md"
    before = path.read_bytes()
    pane, question = _save_broken_agent(qtbot, window, home.root, monkeypatch, QMessageBox.StandardButton.No)
    assert "Linggen is running" in question
    assert "Linggen would skip this file" in question and "line 3" in question
    assert path.read_bytes() == before and text_of(pane.editor) == BROKEN  # No: nothing written, edits kept


def test_yes_writes_what_the_question_named(qtbot, window, home, monkeypatch):
    home.pid()
    path = home.root / "agents" / "ling.md"
    _save_broken_agent(qtbot, window, home.root, monkeypatch, QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(lambda: path.read_bytes() == BROKEN.encode(), timeout=5000)


def test_broken_frontmatter_alone_does_not_speak_of_a_running_program(qtbot, window, home, monkeypatch):
    path = home.root / "agents" / "ling.md"
    before = path.read_bytes()
    _pane, question = _save_broken_agent(qtbot, window, home.root, monkeypatch, QMessageBox.StandardButton.No)
    assert "Linggen would skip this file" in question
    assert "running" not in question
    assert path.read_bytes() == before

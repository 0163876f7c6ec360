"""Text edited in the window is written back as the file had it: each line's own line ending (a file
may mix CRLF and LF), the byte-order mark, and no-break spaces, which Qt's plain text would turn into
spaces. A document opened and left as it was reads as unchanged."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QPlainTextEdit

from daycare_gui.ui.panes.generic.documents import LoadedText
from daycare_gui.ui.widgets.plain_text import text_of

MIXED = b"---\r\nname: ling\r\n---\n\nYou are Ling.\r\nLine two\n"


@pytest.mark.parametrize("data", [
    MIXED,
    b"\xef\xbb\xbfBOM first\r\nthen CRLF\r\n",
    "no\u00a0break space, and « guillemets » spaced\u00a0!\n".encode(),
    b"old mac\rlines\rhere",
    "a line\u2028separator and a\u2029paragraph one\n".encode(),
    b"",
    b"no final line ending",
])
def test_a_document_shown_in_an_editor_and_left_alone_is_unchanged(qapp, data):
    loaded = LoadedText(data)
    editor = QPlainTextEdit()
    editor.setPlainText(loaded.text)
    assert text_of(editor) == loaded.text  # (Save stays off: nothing reads as changed)
    assert loaded.encode(text_of(editor)) == data


def test_an_edited_line_keeps_its_ending_and_the_others_keep_theirs():
    loaded = LoadedText(MIXED)
    assert "\r" not in loaded.text
    changed = loaded.text.replace("You are Ling.", "You are Ling, the helper.")
    assert loaded.encode(changed) == MIXED.replace(b"You are Ling.", b"You are Ling, the helper.")


def test_lines_added_or_removed_leave_the_other_lines_endings_alone():
    loaded = LoadedText(MIXED)
    added = loaded.text.replace("You are Ling.\n", "You are Ling.\nA new line.\n")
    # the new line takes the file's most common ending (three CRLF, three LF: the first used, CRLF)
    assert loaded.encode(added) == MIXED.replace(b"You are Ling.\r\n", b"You are Ling.\r\nA new line.\r\n")
    removed = loaded.text.replace("name: ling\n", "")
    assert loaded.encode(removed) == MIXED.replace(b"name: ling\r\n", b"")


def test_no_break_spaces_survive_an_edit_elsewhere(qapp):
    data = "Prix\u00a0: 12\u00a0€\nsecond line\n".encode()
    loaded = LoadedText(data)
    editor = QPlainTextEdit()
    editor.setPlainText(loaded.text)
    editor.appendPlainText("added")
    assert loaded.encode(text_of(editor)) == data + b"\nadded"  # (appended after the final line feed)
    assert "\u00a0" not in editor.toPlainText()  # what Qt's plain text would have written


def test_text_that_is_not_utf8_is_never_edited():
    assert LoadedText(b"caf\xe9\n").text is None


# -- every document of a store, through the shared documents page (#33) ---------------------------------


def _variant(data: bytes) -> bytes:
    """The document with a byte-order mark, CRLF line endings and a last line holding a no-break space."""
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    body = body.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if body and not body.endswith(b"\r\n"):
        body += b"\r\n"
    return b"\xef\xbb\xbf" + body + "tail\u00a0line\r\n".encode()


def _every_document_keeps_its_bytes(qtbot, window, root, section, monkeypatch, *, opened=False):
    """Every editable file document of ``section`` (``opened``: the store is open in ``window`` already)."""
    from PySide6.QtWidgets import QMessageBox

    from tests.conftest import snapshot_tree
    from tests.ui.test_people_panes import open_at

    refused = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: refused.append(a[2]) or QMessageBox.StandardButton.No)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: refused.append(a[2]) or QMessageBox.StandardButton.Cancel)
    if opened:
        window.show_section(section)
        pane = window.panes[section]
    else:
        pane = open_at(qtbot, window, root, section)
    qtbot.waitUntil(lambda: pane.list.records.model.rowCount() > 0, timeout=10000)
    docs = [d for d in pane.list.records.model.records() if d.editable and not d.secret and d.path is not None]
    assert docs
    for doc in docs:
        doc.path.write_bytes(_variant(doc.path.read_bytes()))
    bad = next(doc for doc in docs)
    for doc in docs:
        data = doc.path.read_bytes()
        pane.list.select_key(doc.id)
        qtbot.waitUntil(lambda d=doc, b=data: pane.ref is not None and pane.ref.id == d.id and pane.loaded is not None
                        and pane.loaded.data == b, timeout=10000)
        before = snapshot_tree(root)
        pane.edit_button.click()
        assert not pane.save_button.isEnabled()  # opened and left alone: nothing to save, nothing written
        pane.revert_button.click()
        qtbot.waitUntil(lambda: pane.stack.currentWidget() is pane.preview, timeout=10000)
        assert snapshot_tree(root) == before
        pane.edit_button.click()
        pane.editor.setPlainText(pane.loaded.text.replace("tail\u00a0line", "tail\u00a0line, edited"))
        pane.save_button.click()
        qtbot.waitUntil(lambda d=doc, b=data: d.path.read_bytes() != b or bool(refused), timeout=10000)
        assert not refused, refused
        qtbot.waitUntil(lambda: pane.stack.currentWidget() is pane.preview, timeout=10000)  # saved, shown again
        assert doc.path.read_bytes() == data.replace("tail\u00a0line".encode(), "tail\u00a0line, edited".encode())
    bad.path.write_bytes(b"caf\xe9\r\n")  # not UTF-8: shown, never edited
    pane.list.select_key(next(d.id for d in docs if d.id != bad.id) if len(docs) > 1 else bad.id)
    pane.list.select_key(bad.id)
    pane._load(bad)
    qtbot.waitUntil(lambda: pane.loaded is not None and pane.loaded.data == b"caf\xe9\r\n", timeout=10000)
    assert not pane.edit_button.isEnabled()


def test_every_memory_entity_of_the_sqlite_demo_keeps_its_bytes(qtbot, window, demo_store, tmp_path, monkeypatch):
    import shutil

    root = tmp_path / "daycare"
    shutil.copytree(demo_store, root)
    _every_document_keeps_its_bytes(qtbot, window, root, "memory", monkeypatch)


def test_every_cianaparrot_document_keeps_its_bytes(qtbot, window, tmp_path, monkeypatch):
    from daycare_gui.stores.cianaparrot.demo import write_demo

    _every_document_keeps_its_bytes(qtbot, window, write_demo(tmp_path / "ciana"), "documents", monkeypatch)

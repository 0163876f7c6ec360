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

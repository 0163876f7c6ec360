"""A top-level window around one editor; the same file or row opens only once."""

from __future__ import annotations

import os
from collections.abc import Callable

import shiboken6
from PySide6.QtWidgets import QMainWindow, QWidget

from .document_editor import DocumentEditor
from .sources import source_note_for_file

_open: dict[str, EditorWindow] = {}


class EditorWindow(QMainWindow):
    def __init__(self, editor: QWidget, key: str, parent=None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.key = key
        self.setCentralWidget(editor)
        editor.title_changed.connect(self._retitle)
        self._retitle(editor.title())
        self.resize(820, 760)

    def _retitle(self, title: str) -> None:
        self.setWindowTitle(f"{title} — Daycare editor")

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        if not self.editor.maybe_close():
            event.ignore()
            return
        _open.pop(self.key, None)
        event.accept()


def make_file_editor(path, *, store=None, parent=None, source_note: str | None = None, ref=None) -> QWidget:
    """The editor of a file of ``store`` (the store the window opened: its Documents give the form and
    say whether writing now is risky); ``ref`` when the file is one of its documents.
    ``source_note``: what the header says of the file (which copy the system reads), when the caller
    knows it already (the shared tasks page, from a task's copies); else worked out from ``store``."""
    note = source_note if source_note is not None else source_note_for_file(store, path)
    return DocumentEditor(path, store=store, ref=ref, source_note=note, parent=parent)


def _show(key: str, build: Callable[[], QWidget], parent) -> EditorWindow:
    window = _open.get(key)
    if window is not None and not shiboken6.isValid(window):  # deleted without a close event
        window = None
    if window is None:
        window = EditorWindow(build(), key, parent)
        _open[key] = window
    window.show()
    window.raise_()
    window.activateWindow()
    return window


def open_file_editor(path, *, store=None, parent=None, on_saved: Callable[[str], None] | None = None,
                     source_note: str | None = None, ref=None) -> EditorWindow:
    """Open (or bring forward) the editor for a file of the store."""
    key = os.path.realpath(path)

    def build() -> QWidget:
        editor = make_file_editor(path, store=store, source_note=source_note, ref=ref)
        if on_saved is not None:
            editor.saved.connect(on_saved)
        return editor

    return _show(key, build, parent)

"""Documents of any kind: Markdown shown rendered, edited as text, saved atomically with a conflict check.

The text is saved exactly as typed, with the file's own line endings and byte-order mark put back, so
a document opened and saved unchanged stays byte-identical.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.core.edit.line_breaks import EditorText
from daycare_gui.stores import api
from daycare_gui.stores.records import DocRef
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList
from daycare_gui.ui.panes.generic.edit_form import save_with_consent
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, set_markdown
from daycare_gui.ui.widgets.plain_text import text_of

COLUMNS = [
    Column("Document", lambda d: d.title, tooltip=lambda d: str(d.path or "")),
    Column("Group", lambda d: d.group),
    Column("Editable", lambda d: "yes" if d.editable else "no", tooltip=lambda d: d.readonly_reason),
]
BOM = b"\xef\xbb\xbf"


class LoadedText:
    """A document's bytes split into what the editor shows and what must be put back on save: the
    byte-order mark and each line's own line ending (a file may mix CRLF and LF; core.edit.line_breaks)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.sha256 = hashlib.sha256(data).hexdigest()
        body = data[3:] if data.startswith(BOM) else data
        self.bom = data.startswith(BOM)
        self.text: str | None = None  # not UTF-8: shown, never edited
        self._lines: EditorText | None = None
        try:
            decoded = body.decode("utf-8")
        except UnicodeDecodeError:
            return
        self._lines = EditorText(decoded)
        self.text = self._lines.shown

    def encode(self, text: str) -> bytes:
        """``text`` (line feeds only, as an editor gives it) as the file's bytes: lines kept from the file
        keep their own line ending, a line edited keeps its old one, and new lines take the file's most
        common one (on a tie, its first); unchanged text is the file's bytes exactly."""
        if text == self.text or self._lines is None:
            return self.data
        return (BOM if self.bom else b"") + self._lines.restore(text).encode("utf-8")


class DocumentsPane(Pane):
    pane_id = "documents"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.cap: api.Documents = ctx.opened.capability(api.Documents)
        layout = QVBoxLayout(self)
        self.list = RecordList("Documents", COLUMNS, key=lambda d: d.id)
        self.filter_box = self.list.filter_box
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        self.note = QLabel("")
        self.edit_button = QPushButton("Edit")
        self.save_button = QPushButton("Save")
        self.revert_button = QPushButton("Revert")
        self.save_button.setShortcut("Ctrl+S")
        bar.addWidget(self.note, 1)
        for b in (self.edit_button, self.save_button, self.revert_button):
            b.setEnabled(False)
            bar.addWidget(b)
        self.stack = QStackedWidget()
        self.preview = SafeTextBrowser()
        self.editor = QPlainTextEdit()
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.stack.addWidget(self.preview)
        self.stack.addWidget(self.editor)
        rl.addLayout(bar)
        rl.addWidget(self.stack, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(right)
        split.setSizes([420, 680])
        layout.addWidget(split)
        self.list.table.selectionModel().currentRowChanged.connect(self._selected)
        self.edit_button.clicked.connect(self._start_edit)
        self.save_button.clicked.connect(self._save)
        self.revert_button.clicked.connect(self._revert)
        self.editor.textChanged.connect(self._changed)
        self.ref: DocRef | None = None
        self.loaded: LoadedText | None = None

    def load(self) -> None:
        cap = self.cap
        self.ctx.worker.submit("generic-documents", cap.documents, on_result=self._arrived)

    def link_target(self, _view=None) -> tuple[str, str] | None:
        doc = self.list.current()
        return ("doc", doc.id) if doc is not None else None

    def open_item(self, target) -> None:
        """``target``: the key of a listed item (quick open, a deep link); kept until the list arrives."""
        if not self.list.select_key(target):
            self._pending = target

    def _arrived(self, docs) -> None:
        self.list.set_records(docs)
        target, self._pending = getattr(self, "_pending", None), None
        if target is not None:
            self.list.select_key(target)
        self.list.caption.setText(f"<b>Documents</b> ({len(docs):,})")
        self.ctx.set_count("documents", len(docs))

    def _selected(self, current, previous) -> None:
        ref = self.list.records.record_at(current)
        if ref is None or (self.ref is not None and ref.id == self.ref.id):
            return
        if self.is_dirty() and not self._may_leave(previous):
            return
        self.ctx.show_detail(DetailItem(ref.title, (("Path", str(ref.path or "")), ("Group", ref.group),
                                                    ("Editable", "yes" if ref.editable else ref.readonly_reason))))
        self._load(ref)

    def _load(self, ref: DocRef) -> None:
        cap = self.cap
        self.ctx.worker.submit("generic-document", lambda: LoadedText(cap.read(ref)),
                               on_result=lambda loaded, r=ref: self._show(r, loaded),
                               on_error=lambda m: self.note.setText(f"Could not read: {m}"))

    def _may_leave(self, previous) -> bool:
        """Another document was chosen while this one has unsaved edits: Save (and stay), Discard (and go)
        or Cancel (stay)."""
        answer = QMessageBox.question(
            self, "Unsaved changes", f"{self.ref.title} has unsaved changes.",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Discard:
            return True
        selection = self.list.table.selectionModel()  # back to the document being edited, quietly
        selection.blockSignals(True)
        selection.setCurrentIndex(previous, selection.SelectionFlag.ClearAndSelect | selection.SelectionFlag.Rows)
        selection.blockSignals(False)
        self.list.table.viewport().update()
        if answer == QMessageBox.StandardButton.Save:
            self._save()
        return False

    def is_dirty(self) -> bool:
        """Editing, with text that differs from what was loaded."""
        return (self.stack.currentWidget() is self.editor and self.loaded is not None
                and text_of(self.editor) != self.loaded.text)

    def unsaved_work(self) -> str | None:
        return self.ref.title if self.is_dirty() and self.ref is not None else None

    def _revert(self) -> None:
        """Drop the edits and show the document as it is on disk now (another program may have changed it)."""
        if self.ref is not None:
            self._load(self.ref)

    def _show(self, ref: DocRef | None, loaded: LoadedText | None) -> None:
        if ref is None or loaded is None:
            return
        self.ref, self.loaded = ref, loaded
        self.stack.setCurrentWidget(self.preview)
        set_markdown(self.preview, loaded.text if loaded.text is not None else "*(not UTF-8 text)*")
        can_edit = ref.editable and loaded.text is not None
        self.note.setText(str(ref.path or "") if can_edit else (ref.readonly_reason or "read-only"))
        self.edit_button.setEnabled(can_edit)
        self.save_button.setEnabled(False)
        self.revert_button.setEnabled(False)

    def _start_edit(self) -> None:
        if self.loaded is None or self.loaded.text is None:
            return
        self.editor.blockSignals(True)
        self.editor.setPlainText(self.loaded.text)
        self.editor.blockSignals(False)
        self.stack.setCurrentWidget(self.editor)
        self.editor.setFocus()
        self.revert_button.setEnabled(True)

    def _changed(self) -> None:
        dirty = self.loaded is not None and text_of(self.editor) != self.loaded.text
        self.save_button.setEnabled(dirty)

    def _save(self) -> None:
        if self.ref is None or self.loaded is None:
            return
        ref, loaded, cap = self.ref, self.loaded, self.cap
        data = loaded.encode(text_of(self.editor))

        def write(force: bool):
            cap.save(ref, data, loaded.sha256, force=force)
            return LoadedText(cap.read(ref))

        save_with_consent(self, self.ctx.worker, "generic-document-save", write,
                          lambda fresh, r=ref: (self._show(r, fresh), self.note.setText(f"Saved {r.path}")),
                          on_conflict=lambda _message: self._conflict(ref, data))

    def _conflict(self, ref: DocRef, mine: bytes) -> None:
        """The document changed on disk since it was loaded: read it as it is now, then let the user
        reload it (dropping the edits), see the difference, or write theirs over exactly that version."""
        cap = self.cap

        def disk():
            try:
                return cap.read(ref)
            except (OSError, ValueError):
                return None

        self.ctx.worker.submit("generic-document", disk, on_result=lambda now: self._ask_conflict(ref, mine, now))

    def _ask_conflict(self, ref: DocRef, mine: bytes, disk: bytes | None) -> None:
        if self.ref is None or ref.id != self.ref.id:
            return  # another document was opened meanwhile
        from daycare_gui.ui.editors.conflict import ConflictDialog  # (the editors load only when needed)

        dialog = ConflictDialog(Path(str(ref.path or ref.title)), disk, mine, self)
        dialog.exec()
        if dialog.choice == "reload":
            self._load(ref)
        elif dialog.choice == "overwrite":
            seen = hashlib.sha256(disk).hexdigest() if disk is not None else None
            cap = self.cap

            def write(force: bool):  # over the version the user saw, and only that one
                cap.save(ref, mine, seen, force=force)
                return LoadedText(cap.read(ref))

            save_with_consent(self, self.ctx.worker, "generic-document-save", write,
                              lambda fresh, r=ref: (self._show(r, fresh), self.note.setText(f"Saved {r.path}")),
                              on_conflict=lambda _message: self._conflict(ref, mine))

    def editing_text(self) -> str:
        return text_of(self.editor)

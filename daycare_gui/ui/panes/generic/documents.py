"""Documents of any kind: Markdown shown rendered, edited as text, saved atomically with a conflict check.

The text is saved exactly as typed, with the file's own line endings and byte-order mark put back, so
a document opened and saved unchanged stays byte-identical. Where the store offers more (#33): a form
over the document's fields (each value spliced in by the store), a masked outline instead of the text of
a secret document (settings, credentials), earlier versions with a diff, and a flag on rows the system
ignores. A section may show one shelf of the documents (``ctx.arg`` = (section id, group[, caption])).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
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

from daycare_gui.stores import api
from daycare_gui.stores.common.edit.line_breaks import EditorText
from daycare_gui.stores.records import DocRef
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList
from daycare_gui.ui.panes.generic.document_parts import OutlineView, body_of, version_diff
from daycare_gui.ui.panes.generic.edit_form import EditDialog, save_with_consent
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, set_markdown
from daycare_gui.ui.widgets.plain_text import text_of

COLUMNS = [
    Column("Document", lambda d: d.title, tooltip=lambda d: str(d.path or "")),
    Column("Source", lambda d: d.source),
    Column("Group", lambda d: d.group),
    Column("Editable", lambda d: "yes" if d.editable else "no", tooltip=lambda d: d.readonly_reason),
    Column("Note", lambda d: d.flag or ("a copy of " + d.derived_from if d.derived_from else ""),
           tooltip=lambda d: d.flag),
]


def _state(ref: DocRef) -> str | None:
    return "ignored" if ref.flag else ("disabled" if ref.derived_from else None)


def _in_shelf(ref: DocRef, group: str | None) -> bool:
    return api.in_shelf(ref.group, group)  # as the navigation counts a shelf (Documents.count_of)


def documents_section_for(specs, ref: DocRef) -> str | None:
    """The section whose documents page lists ``ref`` (``specs``: the store's sections): the shelf holding
    its group, else the page of every document."""
    everything = None
    for spec in specs:
        if spec.module != "generic.documents":
            continue
        if isinstance(spec.arg, tuple):
            if _in_shelf(ref, spec.arg[1]):
                return spec.id
        elif everything is None:
            everything = spec.id
    return everything


class Opened:
    """What the page holds of the selected document, read on the worker: its text (never for a secret
    one), its outline, its fields with their values, its earlier versions."""

    def __init__(self, cap: api.Documents, ref: DocRef) -> None:
        self.loaded = None if ref.secret else LoadedText(cap.read(ref))
        self.outline = cap.outline(ref) if ref.secret else []
        self.fields = tuple(cap.fields(ref))
        self.versions = cap.versions(ref) if not ref.secret else []
        self.deletable = cap.deletable(ref)
BOM = b"\xef\xbb\xbf"


class LoadedText:
    """A document's bytes split into what the editor shows and what must be put back on save: the
    byte-order mark and each line's own line ending (a file may mix CRLF and LF; core.edit.line_breaks)."""

    def __init__(self, data: bytes) -> None:
        import hashlib  # (not with the Agents page, which imports this module: ui/preload.py brings it in)

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
        shelf = ctx.arg if isinstance(ctx.arg, tuple) else None
        self.pane_id, self.shelf = (shelf[0], shelf[1]) if shelf else ("documents", None)
        self.caption = (shelf[2] if len(shelf) > 2 else self.shelf) if shelf else "Documents"  # (as the navigation names it)
        layout = QVBoxLayout(self)
        self.list = RecordList(self.caption, COLUMNS, key=lambda d: d.id, state=_state)
        self.filter_box = self.list.filter_box
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.versions_box = QComboBox()
        self.versions_box.setToolTip("An earlier version, shown as what changed from it to the document now")
        self.versions_box.hide()
        self.new_button = QPushButton(f"New {self.shelf.rstrip('s').lower()}…" if self.shelf else "New…")
        self.new_button.setToolTip("Make a new document here from the system's template")
        self.new_button.hide()
        self.delete_button = QPushButton("Delete…")
        self.delete_button.setToolTip("Move the document aside; Deleted Items restores it")
        self.delete_button.hide()
        self.fields_button = QPushButton("Edit fields…")
        self.value_button = QPushButton("Edit value…")
        self.edit_button = QPushButton("Edit")
        self.save_button = QPushButton("Save")
        self.revert_button = QPushButton("Revert")
        self.save_button.setShortcut("Ctrl+S")
        bar.addStretch(1)  # the note has a line of its own above: a long path never squeezes the buttons
        bar.addWidget(self.versions_box)
        bar.addWidget(self.new_button)
        bar.addWidget(self.delete_button)
        for b in (self.fields_button, self.value_button, self.edit_button, self.save_button, self.revert_button):
            b.setEnabled(False)
            bar.addWidget(b)
        self.value_button.hide()
        self.stack = QStackedWidget()
        self.preview = SafeTextBrowser()
        self.preview.setPlaceholderText("Select a document to read it here.")
        self.editor = QPlainTextEdit()
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.outline = OutlineView()
        self.stack.addWidget(self.preview)
        self.stack.addWidget(self.editor)
        self.stack.addWidget(self.outline)
        rl.addWidget(self.note)
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
        self.fields_button.clicked.connect(self._edit_fields)
        self.new_button.clicked.connect(self._new)
        self.delete_button.clicked.connect(self._delete)
        self.creatable: tuple = ()
        self.value_button.clicked.connect(self._edit_value)
        self.versions_box.activated.connect(self._version_chosen)
        self.outline.tree.currentItemChanged.connect(self._outline_selected)
        self.ref: DocRef | None = None
        self.loaded: LoadedText | None = None
        self.opened: Opened | None = None

    def load(self) -> None:
        cap, shelf = self.cap, self.shelf
        def listed():
            return [d for d in cap.documents() if _in_shelf(d, shelf)], tuple(cap.creatable(shelf or ""))

        self.ctx.worker.submit(f"generic-documents-{self.pane_id}", listed, on_result=self._listed)

    def _listed(self, answer) -> None:
        docs, self.creatable = answer
        self.new_button.setVisible(bool(self.creatable))
        self._arrived(docs)

    def link_target(self, _view=None) -> tuple[str, str] | None:
        doc = self.list.current()
        return ("doc", doc.id) if doc is not None else None

    def _key_of(self, target) -> str | None:
        """A listed document's id from ``target``: its id, its path or its title (deep links of Daycare's
        own pages named skills and memory entities by path)."""
        records = self.list.records.model.records()
        for match in (lambda d: d.id == target, lambda d: str(d.path or "") == str(target),
                      lambda d: d.title == target):
            found = next((d for d in records if match(d)), None)
            if found is not None:
                return found.id
        return None

    def open_item(self, target) -> None:
        """``target``: the key of a listed item (quick open, a deep link); kept until the list arrives."""
        key = self._key_of(target)
        if key is None or not self.list.select_key(key):
            self._pending = target

    def _arrived(self, docs) -> None:
        self.list.set_records(docs)
        target, self._pending = getattr(self, "_pending", None), None
        if target is not None:
            key = self._key_of(target)
            if key is not None:
                self.list.select_key(key)
        counted = sum(1 for d in docs if not d.derived_from)
        flagged = sum(1 for d in docs if d.flag)
        more = f", {flagged:,} flagged" if flagged else ""
        self.list.caption.setText(f"<b>{self.caption}</b> ({counted:,}{more})")
        self.ctx.set_count(self.pane_id, counted)

    def _selected(self, current, previous) -> None:
        ref = self.list.records.record_at(current)
        if ref is None or (self.ref is not None and ref.id == self.ref.id):
            return
        if self.is_dirty() and not self._may_leave(previous):
            return
        facts = (("Path", str(ref.path or "")), ("Group", ref.group), ("Source", ref.source),
                 ("Flag", ref.flag), ("Copy of", ref.derived_from),
                 ("Editable", "yes" if ref.editable else ref.readonly_reason))
        self.ctx.show_detail(DetailItem(ref.title, tuple((k, v) for k, v in facts if v) + tuple(ref.meta)))
        self._load(ref)

    def _load(self, ref: DocRef) -> None:
        cap = self.cap
        self.ctx.worker.submit("generic-document", lambda: Opened(cap, ref),
                               on_result=lambda opened, r=ref: self._show(r, opened),
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

    def _show(self, ref: DocRef | None, opened) -> None:
        if ref is None or opened is None:
            return
        self.ref, self.opened, self.loaded = ref, opened, opened.loaded
        self.delete_button.setVisible(opened.deletable or bool(self.creatable))
        self.delete_button.setEnabled(opened.deletable)
        self.save_button.setEnabled(False)
        self.revert_button.setEnabled(False)
        self.fields_button.setEnabled(bool(opened.fields) and ref.editable and not ref.secret)
        self.fields_button.setVisible(not ref.secret)
        self.value_button.setVisible(ref.secret)
        self.value_button.setEnabled(False)
        self.versions_box.clear()
        if opened.versions:
            self.versions_box.addItem(f"Earlier versions ({len(opened.versions)})", None)
            for v in opened.versions:
                self.versions_box.addItem(f"{v.title}" + (f" — {v.note}" if v.note else ""), v.id)
        self.versions_box.setVisible(bool(opened.versions))
        if ref.secret:  # its text is never read into the window: the store's masked outline instead
            self.outline.set_rows(opened.outline)
            self.stack.setCurrentWidget(self.outline)
            self.note.setText(ref.readonly_reason or "values masked")
            self.edit_button.setEnabled(False)
            return
        loaded = opened.loaded
        self.stack.setCurrentWidget(self.preview)
        if loaded.text is None:
            set_markdown(self.preview, "*(not UTF-8 text)*")
        elif ref.format == "markdown":
            set_markdown(self.preview, body_of(loaded.text) if ref.frontmatter else loaded.text)
        else:
            self.preview.setPlainText(loaded.text)
        can_edit = ref.editable and loaded.text is not None
        self.note.setText(str(ref.path or "") if can_edit else (ref.readonly_reason or "read-only"))
        self.edit_button.setEnabled(can_edit)

    # -- fields, outline values and versions ------------------------------------------------------------
    def _edit_fields(self) -> None:
        """The document's fields in a form; only what the user changed is written, each value spliced in."""
        if self.ref is None or self.opened is None or not self.opened.fields:
            return
        if self.is_dirty():  # one edit at a time: the form would write over the text being edited
            self.note.setText("Save or revert the text first, then edit its fields.")
            return
        fields = tuple(f for f, _v in self.opened.fields)
        values = {f.name: v for f, v in self.opened.fields}
        dialog = EditDialog(f"Edit {self.ref.title}", fields, values, self)
        if dialog.exec() and dialog.changes():
            self._write_fields(self.ref, dialog.changes(), self.loaded.sha256 if self.loaded else None)

    def _outline_selected(self, current, _previous) -> None:
        row = self.outline.current_row()
        names = {f.name for f, _v in (self.opened.fields if self.opened else ())}
        self.value_button.setEnabled(row is not None and row.key in names)
        if row is not None:
            self.ctx.show_detail(DetailItem(f"{self.ref.title if self.ref else ''}: {row.key}",
                                            (("Key", row.key), ("Value", str(row.values[1]) if len(row.values) > 1
                                                                 else "")), row.raw))

    def _edit_value(self) -> None:
        """One value of a secret document's outline (a setting), checked by the store before it is written."""
        row = self.outline.current_row()
        if self.ref is None or self.opened is None or row is None:
            return
        found = next(((f, v) for f, v in self.opened.fields if f.name == row.key), None)
        if found is None:
            return
        dialog = EditDialog(f"Edit {row.key}", (found[0],), {found[0].name: found[1]}, self)
        if dialog.exec() and dialog.changes():
            self._write_fields(self.ref, dialog.changes(), None)  # (the window never held these bytes)

    def _write_fields(self, ref: DocRef, changes: dict, sha256: str | None) -> None:
        cap = self.cap

        def write(force: bool):
            cap.update_fields(ref, changes, sha256, force=force)
            return Opened(cap, ref)

        save_with_consent(self, self.ctx.worker, "generic-document-save", write,
                          lambda fresh, r=ref: (self._show(r, fresh), self.note.setText(f"Saved {r.path}")))

    # -- New… and Delete… (the store says what it can make and delete; Deleted Items restores) ----------
    def _refresh_store(self) -> None:
        """A new or deleted document changes what the store lists: the window reads it again."""
        refresh = getattr(self.window(), "refresh", None)
        if refresh is not None:
            refresh()
        else:
            self.load()

    def _new(self) -> None:
        if not self.creatable:
            return
        defaults = {f.name: f.default for f in self.creatable}
        dialog = EditDialog(self.new_button.text().rstrip("…"), self.creatable, defaults, self)
        if not dialog.exec():
            return
        values, cap, shelf = {**defaults, **dialog.changes()}, self.cap, self.shelf or ""
        save_with_consent(self, self.ctx.worker, "generic-document-save",
                          lambda force: cap.create(shelf, values, force=force),
                          lambda path: (self.note.setText(f"Created {path}"), self._refresh_store()))

    def confirm_delete(self, ref: DocRef) -> bool:
        """Asked before a delete (tests answer it)."""
        answer = QMessageBox.question(self, "Delete", f"Move {ref.title} ({ref.path}) aside?\n\nDeleted Items "
                                      "restores it.", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def _delete(self) -> None:
        ref, cap = self.ref, self.cap
        if ref is None or self.opened is None or not self.opened.deletable or not self.confirm_delete(ref):
            return
        save_with_consent(self, self.ctx.worker, "generic-document-save", lambda force: cap.delete(ref, force=force),
                          lambda said: (self.note.setText(said), self._refresh_store()))

    def _version_chosen(self, index: int) -> None:
        vid = self.versions_box.itemData(index)
        if self.ref is None or vid is None or self.loaded is None:
            return
        cap, ref, now = self.cap, self.ref, self.loaded.data
        title = self.versions_box.itemText(index).split(" — ")[0]
        self.ctx.worker.submit("generic-document-version", lambda: version_diff(cap.read_version(ref, vid), now, title),
                               on_result=lambda md: (self.stack.setCurrentWidget(self.preview),
                                                     set_markdown(self.preview, md)))

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
            return Opened(cap, ref)

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
            import hashlib

            seen = hashlib.sha256(disk).hexdigest() if disk is not None else None
            cap = self.cap

            def write(force: bool):  # over the version the user saw, and only that one
                cap.save(ref, mine, seen, force=force)
                return Opened(cap, ref)

            save_with_consent(self, self.ctx.worker, "generic-document-save", write,
                              lambda fresh, r=ref: (self._show(r, fresh), self.note.setText(f"Saved {r.path}")),
                              on_conflict=lambda _message: self._conflict(ref, mine))

    def editing_text(self) -> str:
        return text_of(self.editor)

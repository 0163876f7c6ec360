"""What every file editor does: load, raw text, preview, undo/redo, dirty marker, safe save, file watching.

Subclasses add the form (``_build_form`` / ``_refresh_form``) and say what the preview shows. All edits,
from the form or the raw text, go through :meth:`FileEditorBase.edit`: the change is applied to a fresh
document parsed from the current bytes and pushed as one undo command holding both byte strings, so the
form, the raw text and the preview are always rebuilt from the same bytes.

What the form shows is the store's choice: the editor asks the opened store's ``Documents`` for the
file's :class:`~daycare_gui.stores.api.DocumentForm` (a cron task's schedule, an app's permission rules)
and renders its field specs; with no store, or a store that knows nothing of the file, the form is the
body alone. Saving goes through the store's ``Documents.save``, for a file it lists and for any other file
of it (a task's TASK.md, named by a ``file:`` ref): the kind checks (its engine running, a link out of its
folders), keeps the old bytes and writes atomically, conflict-checked. A refusal is asked once, in the
kind's words, before insisting; the editor never names a kind. Only a file opened with no store (nothing to
ask) is saved by the shared atomic save itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QTextCursor, QUndoStack
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.stores.api import DocumentForm, Documents, WriteConflict, WriteRefused
from daycare_gui.stores.common.edit.atomic import ConflictError, load_for_edit, save_atomic, sha256_of
from daycare_gui.stores.common.edit.document import FrontmatterDocument
from daycare_gui.stores.common.edit.errors import DocumentError, InvalidValue
from daycare_gui.stores.common.regular_files import read_regular
from daycare_gui.stores.records import DocRef
from daycare_gui.ui.theme import follow_palette, set_tone, take_app_style
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, markdown_html
from daycare_gui.ui.widgets.plain_text import text_of

from .conflict import ConflictDialog, DiffDialog, unified_diff
from .engine_prompt import ask_write_refused
from .fields import ERROR_TONE, message_label, monospace_editor, set_text_if_different, show_message
from .sources import painted
from .undo import SnapshotCommand

FORM_TAB, RAW_TAB, PREVIEW_TAB = 0, 1, 2


class FileEditorBase(QWidget):
    dirty_changed = Signal(bool)
    title_changed = Signal(str)
    saved = Signal(str)  # path

    def __init__(self, path, *, store=None, ref: DocRef | None = None, form: DocumentForm | None = None,
                 source_note: str | None = None, parent=None) -> None:
        super().__init__(parent)
        self.path = Path(path)
        self.source_note = source_note
        self.store = store  # the store the window opened: it chooses the form and is asked before a save
        self.documents = store.capability(Documents) if store is not None and hasattr(store, "capability") else None
        # (a file the Documents section does not list, a task's TASK.md, is named by its path)
        self.ref = ref if ref is not None else DocRef(f"file:{self.path}", self.path.name, self.path)
        self.spec = form if form is not None else self._form_of_store()
        self.kind_label = self.spec.label
        self._loaded = load_for_edit(self.path)
        self._current = self._loaded.data
        self.doc = FrontmatterDocument.parse(self._current)
        self._updating = False
        self._was_dirty = False
        self.undo_stack = QUndoStack(self)
        self._build_ui()
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._disk_event)
        self._watcher.directoryChanged.connect(self._disk_event)
        self._disk_timer = QTimer(self)
        self._disk_timer.setSingleShot(True)
        self._disk_timer.setInterval(150)
        self._disk_timer.timeout.connect(self.check_disk)
        self._watch()
        self._refresh_all()
        if self.doc.error is not None:
            self._show_error_in_raw()

    # --- building ----------------------------------------------------------------------------------

    def _build_ui(self) -> None:
        layout = QVBoxLayout(self)
        self.header = QLabel(self._header_text())
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.header)
        follow_palette(self, lambda: self.header.setText(self._header_text()))

        self.disk_banner = QFrame()
        self.disk_banner.setObjectName("banner")
        self.disk_banner.setProperty("kind", "warning")  # tinted from the palette by the app's rules
        take_app_style(self.disk_banner)
        banner_row = QHBoxLayout(self.disk_banner)
        self.disk_label = QLabel()
        self.disk_label.setWordWrap(True)
        self.reload_button = QPushButton("Reload")
        self.diff_button = QPushButton("Show diff")
        banner_row.addWidget(self.disk_label, 1)
        banner_row.addWidget(self.reload_button)
        banner_row.addWidget(self.diff_button)
        self.reload_button.clicked.connect(self.reload_from_disk)
        self.diff_button.clicked.connect(self.show_disk_diff)
        self.disk_banner.hide()
        layout.addWidget(self.disk_banner)

        self.problem = message_label()
        layout.addWidget(self.problem)

        self.tabs = QTabWidget()
        self.form = self._build_form()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        self.tabs.addTab(scroll, "&Form")
        self.raw = monospace_editor()
        self.raw.setTabChangesFocus(False)
        self.raw.setAccessibleName("Raw text")
        self.raw.textChanged.connect(self._raw_edited)
        self.tabs.addTab(self.raw, "&Raw text")
        self.preview = SafeTextBrowser()
        self.tabs.addTab(self.preview, "&Preview")
        layout.addWidget(self.tabs, 1)

        buttons = QHBoxLayout()
        self.undo_button = QPushButton("Undo")
        self.redo_button = QPushButton("Redo")
        self.revert_button = QPushButton("Revert")
        self.save_button = QPushButton("Save")
        self.status = QLabel()
        set_tone(self.status, "note")
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.redo_button)
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.revert_button)
        buttons.addWidget(self.save_button)
        layout.addLayout(buttons)
        self.undo_button.clicked.connect(self.undo_stack.undo)
        self.redo_button.clicked.connect(self.undo_stack.redo)
        self.undo_stack.canUndoChanged.connect(self.undo_button.setEnabled)
        self.undo_stack.canRedoChanged.connect(self.redo_button.setEnabled)
        self.undo_button.setEnabled(False)
        self.redo_button.setEnabled(False)
        self.revert_button.clicked.connect(self.revert)
        self.save_button.clicked.connect(self.save)

        shortcut = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for text, keys, slot in (
            ("Save", QKeySequence.StandardKey.Save, self.save),
            ("Undo", QKeySequence.StandardKey.Undo, self.undo_stack.undo),
            ("Redo", QKeySequence.StandardKey.Redo, self.undo_stack.redo),
        ):
            action = QAction(text, self)
            action.setShortcut(keys)
            action.setShortcutContext(shortcut)
            action.triggered.connect(slot)
            self.addAction(action)

    def _header_text(self) -> str:
        text = f"<b>{self.kind_label}</b> — edits the file <code>{self.path}</code>"
        if self.source_note:
            text += f"<br>{painted(self.source_note, self.palette())}"
        return text

    def _form_of_store(self) -> DocumentForm:
        if self.documents is not None:
            try:
                return self.documents.form(self.ref)
            except Exception:  # a store that cannot tell still lets the file be edited as text
                pass
        return DocumentForm()

    def _build_form(self) -> QWidget:
        return QWidget()

    def _refresh_form(self) -> None:
        """Put the document's values into the form widgets (signals are ignored meanwhile)."""

    def _preview_markdown(self) -> str:
        return self.doc.body

    # --- state -------------------------------------------------------------------------------------

    @property
    def current_bytes(self) -> bytes:
        return self._current

    def is_dirty(self) -> bool:
        return self._current != self._loaded.data

    def display_name(self) -> str:
        return f"{self.path.parent.name}/{self.path.name}"

    def title(self) -> str:
        return self.display_name() + ("*" if self.is_dirty() else "")

    def edit(self, label: str, merge_key: str | None, change: Callable[[bytes], bytes]) -> str | None:
        """Apply ``change`` (bytes in, bytes out: the form's edits) to the current bytes; push the result
        as an undo command. Returns why it was refused."""
        try:
            after = change(self._typing_base(merge_key))
        except (InvalidValue, DocumentError, ValueError, IndexError) as exc:
            return str(exc)
        if after != self._current:
            self.undo_stack.push(SnapshotCommand(self._apply, self._current, after, label, merge_key))
        return None

    def edit_text(self, label: str, merge_key: str | None, mutate: Callable[[FrontmatterDocument], None]) -> str | None:
        """:meth:`edit` for the raw text and the body, which the editor changes itself, spliced by
        the kind-neutral frontmatter document."""

        def change(data: bytes) -> bytes:
            doc = FrontmatterDocument.parse(data)
            mutate(doc)
            return doc.to_bytes()

        return self.edit(label, merge_key, change)

    def _typing_base(self, merge_key: str | None) -> bytes:
        """The bytes a field edit starts from: before the current run of typing in that field, if any.

        Applying each keystroke to the previous keystroke's result would let a passing state (a trailing
        space needs quotes) leave its mark on the final text; starting from before the typing does not.
        """
        count = self.undo_stack.count()
        if merge_key and count and self.undo_stack.index() == count and self.undo_stack.cleanIndex() != count:
            top = self.undo_stack.command(count - 1)
            if isinstance(top, SnapshotCommand) and top.merge_key == merge_key and top.after == self._current:
                return top.before
        return self._current

    def _apply(self, data: bytes) -> None:
        self._current = data
        self.doc = FrontmatterDocument.parse(data)
        self._refresh_all()

    def _raw_display(self) -> str:
        return self.doc.shown_text

    def _refresh_all(self) -> None:
        self._updating = True
        try:
            set_text_if_different(self.raw, self._raw_display())
            # Raw text can be edited unless the bytes are not UTF-8 (shown lossily, so editing would lose bytes).
            editable_text = self.doc.editable or (self.doc.error is not None and "not valid UTF-8" not in self.doc.error.message)
            self.raw.setReadOnly(not editable_text)
            if self.doc.error is not None:
                where = f"line {self.doc.error.line}: " if self.doc.error.line is not None else ""
                show_message(self.problem, f"The form is off: {where}{self.doc.error.message}. "
                             "Fix it in the Raw text tab; nothing in the file is lost.", ERROR_TONE)
                self.form.setEnabled(False)
            else:
                show_message(self.problem, None)
                self.form.setEnabled(True)
                self._refresh_form()
            self.preview.setHtml(markdown_html(self._preview_markdown()))
            self.save_button.setEnabled(editable_text)
        finally:
            self._updating = False
        self._update_title()

    def _update_title(self) -> None:
        dirty = self.is_dirty()
        self.setWindowTitle(self.title())
        self.setWindowModified(dirty)
        self.title_changed.emit(self.title())
        if dirty != self._was_dirty:
            self._was_dirty = dirty
            self.dirty_changed.emit(dirty)

    def _show_error_in_raw(self) -> None:
        self.tabs.setCurrentIndex(RAW_TAB)
        line = self.doc.error.line if self.doc.error is not None else None
        if line:
            block = self.raw.document().findBlockByLineNumber(line - 1)
            cursor = QTextCursor(block)
            self.raw.setTextCursor(cursor)

    def _raw_edited(self) -> None:
        if self._updating:
            return
        text = text_of(self.raw)
        if text == self._raw_display():
            return
        # (each line the user left keeps its own line ending, header included; see core.edit.line_breaks)
        problem = self.edit_text("Edit raw text", "raw", lambda doc: doc.set_shown_text(text))
        if problem:
            show_message(self.problem, problem)

    # --- saving ------------------------------------------------------------------------------------

    def confirm_refused(self, reason: str) -> bool:
        """Ask whether to insist on a save the store's kind refused (tests replace this)."""
        return ask_write_refused(self, reason)

    def save(self, *, force: bool = False) -> bool:
        """Write the file if it changed; refuses to overwrite an outside change unless the user says so."""
        if not self.is_dirty() and not force:
            self.status.setText("Nothing to save")
            return True
        if not self.ref.editable:  # (no question: no answer could make it writable)
            self.status.setText("Not saved: " + (self.ref.readonly_reason or f"{self.ref.title} cannot be edited"))
            return False
        if self.documents is not None:  # the kind's save says itself what makes writing risky: asked once
            return self._write_document(self._loaded.sha256, insist=False)
        return self._write(force=force)

    def _write(self, *, force: bool) -> bool:
        """A file opened with no store: the shared atomic save, conflict-checked unless ``force``."""
        try:
            self._loaded = save_atomic(self.path, self._current, expected_sha256=self._loaded.sha256, force=force)
        except ConflictError as exc:
            return self._resolve_conflict(exc)
        except OSError as exc:
            QMessageBox.critical(self, "Cannot save", f"{self.path} could not be written: {exc}")
            return False
        return self._saved(f"Saved {self.path.name}")

    def _write_document(self, expected_sha256: str | None, *, insist: bool) -> bool:
        """Save through the kind's ``Documents.save`` over the bytes whose hash is ``expected_sha256``.
        ``insist``: the user already said yes to the kind's refusal (the same save, after a conflict)."""
        try:
            backup = self.documents.save(self.ref, self._current, expected_sha256, force=insist)
        except WriteRefused as exc:
            if insist or not self.confirm_refused(str(exc)):
                self.status.setText("Not saved: " + str(exc).split("\n", 1)[0])
                return False
            return self._write_document(expected_sha256, insist=True)
        except WriteConflict:
            try:
                now = read_regular(self.path)
            except FileNotFoundError:
                now = None
            except OSError as exc:
                QMessageBox.critical(self, "Cannot save", f"{self.path} changed on disk and cannot be read: {exc}")
                return False
            choice = self.ask_conflict(ConflictError(self.path, now))
            if choice == "overwrite":  # over the version the user saw, and only that one
                return self._write_document(sha256_of(now) if now is not None else None, insist=insist)
            if choice == "reload":
                self.reload_from_disk()
            else:
                self.status.setText("Not saved: the file changed on disk")
            return False
        except OSError as exc:
            QMessageBox.critical(self, "Cannot save", f"{self.path} could not be written: {exc}")
            return False
        self._loaded = replace(self._loaded, data=self._current, sha256=sha256_of(self._current))
        # (the backup's folder named short on the button row; its whole path in the tooltip)
        kept = f"; the old text is kept in {Path(backup).parent.name}" if backup is not None else ""
        self.status.setToolTip(str(backup) if backup is not None else "")
        return self._saved(f"Saved {self.path.name}{kept}")

    def _saved(self, status: str) -> bool:
        self.undo_stack.setClean()
        self.disk_banner.hide()
        self._watch()
        self.status.setText(status)
        self._update_title()
        self.saved.emit(str(self.path))
        return True

    def ask_conflict(self, exc: ConflictError) -> str:
        """"reload", "overwrite" or "cancel" (tests replace this to answer without a dialog)."""
        dialog = ConflictDialog(self.path, exc.current, self._current, self)
        dialog.exec()
        return dialog.choice

    def _resolve_conflict(self, exc: ConflictError) -> bool:
        choice = self.ask_conflict(exc)
        if choice == "overwrite":
            return self._write(force=True)
        if choice == "reload":
            self.reload_from_disk()
        else:
            self.status.setText("Not saved: the file changed on disk")
        return False

    def revert(self) -> None:
        """Back to the file as loaded (an undoable step)."""
        if self.is_dirty():
            self.undo_stack.push(SnapshotCommand(self._apply, self._current, self._loaded.data, "Revert"))

    def reload_from_disk(self) -> None:
        try:
            self._loaded = load_for_edit(self.path)
        except FileNotFoundError:
            QMessageBox.warning(self, "File deleted", f"{self.path} no longer exists; Save writes it again.")
            return
        self.undo_stack.clear()
        self.disk_banner.hide()
        self._apply(self._loaded.data)
        self._watch()
        self.status.setText("Reloaded from disk")

    def show_disk_diff(self) -> None:
        try:
            disk = read_regular(self.path)
        except FileNotFoundError:
            disk = None
        except OSError as exc:  # (a named pipe swapped in is refused at once, not waited on)
            self.status.setText(f"Cannot read {self.path.name} from disk: {exc.strerror or exc}")
            return
        DiffDialog(f"{self.path.name}: disk vs. yours", unified_diff(disk, self._current, self.path.name), self).exec()

    def ask_unsaved(self) -> str:
        """"save", "discard" or "cancel"."""
        answer = QMessageBox.question(
            self, "Unsaved changes", f"{self.display_name()} has unsaved changes.",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        return {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}.get(answer, "cancel")

    def maybe_close(self) -> bool:
        """True when the editor may close: nothing unsaved, or the user saved or discarded it."""
        if not self.is_dirty():
            return True
        choice = self.ask_unsaved()
        if choice == "save":
            return self.save()
        return choice == "discard"

    # --- watching ----------------------------------------------------------------------------------

    def _watch(self) -> None:
        # An atomic save elsewhere replaces the file: the watch on the old inode is gone, so add it again.
        if self.path.exists() and str(self.path) not in self._watcher.files():
            self._watcher.addPath(str(self.path))
        if self.path.parent.is_dir() and str(self.path.parent) not in self._watcher.directories():
            self._watcher.addPath(str(self.path.parent))

    def _disk_event(self, _path: str) -> None:
        self._disk_timer.start()

    def check_disk(self) -> None:
        """Compare the file with what was loaded: reload a clean editor; warn a dirty one."""
        self._watch()
        try:
            data = read_regular(self.path)
        except FileNotFoundError:
            data = None
        except OSError:
            return
        if data is not None and sha256_of(data) == self._loaded.sha256:
            return
        if data is None:
            self.disk_label.setText(f"{self.path.name} was deleted on disk. Save writes your version back.")
            self.reload_button.hide()
            self.disk_banner.show()
            return
        self.reload_button.show()
        if not self.is_dirty():
            self.reload_from_disk()
            self.status.setText("Reloaded: the file changed on disk")
            return
        self.disk_label.setText(f"{self.path.name} changed on disk. Reload discards your changes; "
                                "saving will ask before overwriting the other version.")
        self.disk_banner.show()

"""The tasks page's writes: Edit row, Edit file, New…, Delete… and Trash… (TasksPane's part that writes)."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from daycare_gui.stores import api
from daycare_gui.stores.records import JumpEntry, TaskCopy, TaskItem
from daycare_gui.ui.editors.engine_prompt import ask_write_while_engine_runs
from daycare_gui.ui.panes.generic.edit_form import EditDialog, save_with_consent
from daycare_gui.ui.panes.generic.task_dialogs import NewTaskDialog, with_consent
from daycare_gui.ui.theme import colours
from daycare_gui.ui.widgets.markdown_view import escape


class TaskWrites:
    """Edit row, Edit file, New…, Delete… and Trash… for the selected task, each through the ``Tasks``
    capability. Mixed into :class:`~daycare_gui.ui.panes.generic.tasks.TasksPane`, whose ``list``, ``cap``,
    ``ctx``, ``groups``, ``reader``, ``load``, ``_pending`` and the selected task's copies (``_fields_copy``,
    ``_text_copy``) it uses."""

    def confirm_engine_running(self, reason: str, verb: str) -> bool:
        """Ask before writing while the system's engine runs (tests replace this)."""
        return ask_write_while_engine_runs(self, reason, verb)

    def _written(self, *_args) -> None:
        self.load()

    def edit(self):
        s = self.list.current()
        if s is None:
            return None
        task, cap = s.task, self.cap
        fields = cap.editable(task)
        if not fields:
            return None
        copy = self._fields_copy(task)
        title = f"Edit {copy.where}: {task.title}" if copy is not None else f"Edit {task.title}"
        dialog = EditDialog(title, fields, cap.form_values(task), self)
        self.edit_dialog = dialog  # (tests fill it in)
        if not dialog.exec() or not dialog.changes():
            return dialog
        changes = dialog.changes()
        save_with_consent(self, self.ctx.worker, "generic-task-save",
                          lambda force: cap.update(task, changes, force=force), self._written)
        return dialog

    def source_note(self, task: TaskItem, copy: TaskCopy) -> str:
        """What the file editor's header says: whether the system reads this file, or which copy instead."""
        warn = f"color:{colours().window_warning}"
        reader = escape(self.reader)
        if copy.read:
            return f"{reader} reads <b>this file</b>: {escape(copy.reason)}."
        other = next((c for c in task.copies if c.read), None)
        if other is None:
            return f"<span style='{warn}'>{reader} ignores this file</span>: {escape(copy.reason)}."
        return (f"<span style='{warn}'>{reader} reads the <b>{escape(other.where)}</b> {escape(other.ref)}, not this "
                f"file</span>: {escape(other.reason)}. Edit the row to change what runs.")

    def edit_file(self):
        """The task's file in the document editor (its own window, owned by the main window), or the
        task's document on the Documents page."""
        from pathlib import Path

        from daycare_gui.ui.editors.window import open_file_editor  # (the editors load only when needed)

        s = self.list.current()
        copy = self._text_copy(s.task) if s is not None else None
        if copy is None:
            if s is not None and s.task.document is not None:  # the kind's own Documents page edits it
                return self._open_document(s.task.document)
            return None
        return open_file_editor(Path(copy.ref), store=getattr(self.ctx, "store", None), parent=self.window(),
                                on_saved=lambda _path: self._read_again(), source_note=self.source_note(s.task, copy))

    def _open_document(self, doc):
        """A task that is a document of the store's Documents page (a Linggen mission.md): edited there,
        where the kind's own save asks first while its system runs."""
        from daycare_gui.ui.panes.generic import route_for

        section, target = route_for(self.ctx.opened, JumpEntry("doc", doc.id, doc.title))
        if section:
            self.ctx.navigate(section, target)
        return section or None

    def _read_again(self) -> None:
        """After a save in the file editor: the whole store is read again (as after any save of a file
        the store's index keeps), so this page and the others show what was written."""
        refresh = getattr(self.window(), "refresh", None)
        if callable(refresh):
            refresh()
        else:
            self.load()

    def _own(self, write):
        """Run a write of this page's own on the GUI thread: the store watcher takes it for no outside change."""
        watcher = getattr(self.window(), "watcher", None)
        own = hasattr(watcher, "own_write_started")
        if own:
            watcher.own_write_started()
        try:
            return write()
        finally:
            if own:
                watcher.own_write_done()

    def ask_new(self, kind: str):
        cap = self.cap
        warning = cap.create_warning(kind)
        if warning and not self.confirm_ignored(warning):
            return None
        title = self.groups.get(kind, "task")
        noun = title[:-1].lower() if title.endswith("s") else title.lower()
        dialog = NewTaskDialog(f"New {noun}", kind, cap.create_fields(kind),
                               lambda values: self._own(lambda: with_consent(
                                   lambda force: cap.create(kind, values, force=force),
                                   lambda reason: self.confirm_engine_running(reason, "Create"))),
                               self, note=f"{self.reader} will ignore this task: {warning.splitlines()[0]}"
                               if warning else None)
        if not dialog.exec() or dialog.created is None:
            return None
        self._pending = dialog.created.id
        self.load()
        return dialog.created

    def confirm_ignored(self, warning: str) -> bool:
        """Ask before making a task the system will not read (tests replace this)."""
        box = QMessageBox(QMessageBox.Icon.Warning, f"{self.reader} will ignore a new task file",
                          f"{warning}\n\nCreate the file anyway?", parent=self)
        anyway = box.addButton("Create file anyway", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setEscapeButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is anyway

    def confirm_delete(self, task: TaskItem) -> bool:
        answer = QMessageBox.question(
            self, "Delete", self.cap.delete_note(task) or f"Delete {task.title}?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def delete(self, confirm=None) -> str | None:
        """Move the selected task to the trash; returns the restore token (None: nothing deleted)."""
        s = self.list.current()
        if s is None or self.cap.delete_reason(s.task) is not None:
            return None
        task, cap = s.task, self.cap
        if not (confirm or self.confirm_delete)(task):
            return None
        try:
            token = self._own(lambda: with_consent(lambda force: cap.delete(task, force=force),
                                                   lambda reason: self.confirm_engine_running(reason, "Delete")))
        except api.WritePartial as exc:  # whole in the trash, part of the original still there: both shown
            QMessageBox.warning(self, "Partly deleted", str(exc))
            self.load()
            return exc.token
        except api.WriteRefused:
            return None
        except (ValueError, OSError) as exc:
            QMessageBox.warning(self, "Not deleted", str(exc))
            return None
        self.load()
        return token

    def show_trash(self) -> None:
        """The store's one list of deleted items (the window's Storage → Deleted Items), over this page."""
        from daycare_gui.ui.dialogs.trash import TrashDialog

        trash = self.ctx.opened.capability(api.Trash)
        if trash is None:
            return
        dialog = TrashDialog(trash, self, on_restored=self.load,
                             ask=lambda reason: self.confirm_engine_running(reason, "Restore"), own=self._own)
        dialog.exec()

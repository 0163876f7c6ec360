"""Scheduled tasks of any kind: the schedule in words in the task's timezone, the next runs, and the task's
copies — where it is stored ("Stored as") and which copy the system reads, and why — so an edit to a copy
the system no longer reads is not mistaken for a change.

One page per group when the section names one (``ctx.arg``: Daycare's "cron" and "heartbeat"), else every
group with a chooser. Edit row edits the fields of the copy that has them (a database row, or the kind's
one form); Edit file opens a file copy in the shared document editor (form, raw text, preview: saved byte
for byte); New…, Delete… and Trash… make, delete and restore tasks where the kind offers it. Everything
else is read and written through the ``Tasks`` capability.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.stores import api
from daycare_gui.stores.common.task_times import TaskTimes, task_times
from daycare_gui.stores.records import JumpEntry, TaskCopy, TaskItem
from daycare_gui.ui.editors.engine_prompt import ask_write_while_engine_runs
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList, detail_of, when
from daycare_gui.ui.panes.generic.edit_form import EditDialog, save_with_consent
from daycare_gui.ui.panes.generic.task_dialogs import NewTaskDialog, with_consent
from daycare_gui.ui.theme import colours, follow_palette
from daycare_gui.ui.widgets.flow_layout import FlowLayout
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape, markdown_html


@dataclass(frozen=True)
class ShownTask:
    """A task with its times worked out once (on the worker), not on every repaint."""

    task: TaskItem
    times: TaskTimes

    @property
    def id(self) -> str:
        return self.task.id


def shown(task: TaskItem) -> ShownTask:
    return ShownTask(task, task_times(task))


def _stored_as(task: TaskItem) -> str:
    return " + ".join(c.where for c in task.copies)


def _reads(task: TaskItem) -> str:
    if not task.copies:
        return ""
    read = [c.where for c in task.copies if c.read]
    return " + ".join(read) if read else f"nothing ({_stored_as(task)} ignored)"


def _words(s: ShownTask) -> str:
    text = s.times.error and f"invalid: {s.times.error}" or s.times.words
    return text if s.task.enabled else f"disabled ({text})"


def _next(s: ShownTask):
    first = s.times.overdue or (s.times.next_runs[0] if s.times.next_runs else None)
    return int(first.timestamp() * 1000) if first is not None and s.task.enabled else None


def _state(s: ShownTask) -> str | None:
    if s.task.ignored:
        return "ignored"
    if s.task.problem or s.times.error:
        return "error"
    return None if s.task.enabled else "disabled"


def columns(reader: str) -> list[Column]:
    # what a task does, whether it runs and when (in words, then the expression) first, so a narrow list
    # still shows them; the copies next; columns no task fills are hidden once the list is read
    return [
        Column("Task", lambda s: s.task.title, tooltip=lambda s: s.task.id),
        Column("Type", lambda s: s.task.schedule_kind),
        Column("Enabled", lambda s: "yes" if s.task.enabled else "no"),
        Column("In words", _words, tooltip=_words),
        Column("Schedule", lambda s: s.task.schedule, tooltip=lambda s: s.task.timezone or "local time"),
        Column("Next run", _next, display=when),
        Column(f"{reader} reads", lambda s: _reads(s.task),
               tooltip=lambda s: next((c.reason for c in s.task.copies if c.read), "")),
        Column("Stored as", lambda s: _stored_as(s.task)),
        Column("Agent", lambda s: s.task.agent or s.task.agent_id, tooltip=lambda s: s.task.agent_id),
        Column("User", lambda s: s.task.user or s.task.user_id, tooltip=lambda s: s.task.user_id),
        Column("Last run", lambda s: s.task.last_run_at, display=when),
        Column("Id", lambda s: s.task.id),
    ]


# Hidden when no listed task fills them (a kind without copies, agents or owners)
_OPTIONAL = {"Type": lambda s: False, "Next run": lambda s: _next(s) is not None,
             "Stored as": lambda s: bool(s.task.copies), "Agent": lambda s: bool(s.task.agent or s.task.agent_id),
             "User": lambda s: bool(s.task.user or s.task.user_id), "Schedule": lambda s: bool(s.task.schedule)}


def copies_html(task: TaskItem, reader: str) -> str:
    if not task.copies:
        return ""
    read = [c for c in task.copies if c.read]
    stored = " and ".join(f"a {c.where}" for c in task.copies) + (" only" if len(task.copies) == 1 else "")
    reads = read[0].where if read else "nothing (it is ignored)"
    why = (read[0] if read else task.copies[0]).reason
    return f"<p>Stored as {escape(stored)}. {escape(reader)} reads: <b>{escape(reads)}</b> — {escape(why)}.</p>"


def task_html(task: TaskItem, reader: str = "The system", times: TaskTimes | None = None, *,
              copies: bool = True) -> str:
    """The task as the page's viewer shows it (``copies=False``: its copies are said above it already)."""
    times = times or task_times(task)
    parts = [f"<h3>{escape(task.title)}</h3>", copies_html(task, reader) if copies else ""]
    c = colours()
    if times.error:
        parts.append(f"<p style='color:{c.error}'>Schedule problem: {escape(times.error)}. "
                     f"{escape(reader)} would never run it.</p>")
    else:
        schedule = f" <code>{escape(task.schedule)}</code>" if task.schedule else ""
        parts.append(f"<p><b>{escape(times.words)}</b>{schedule}</p>")
    if task.ignored:
        parts.append(f"<p>{escape(reader)} reads none of its copies: it never runs.</p>")
    elif not task.enabled:
        parts.append(f"<p><b>Disabled</b>: {escape(reader)} does not run this task, so there are no next runs.</p>")
    else:
        if times.overdue is not None:
            since = ("It has never run" if task.last_run_at is None else
                     f"<b>Overdue</b> since {times.overdue:%Y-%m-%d %H:%M %Z}")
            parts.append(f"<p>{since}: it runs as soon as the system next checks its tasks (if it is running)."
                         "</p>")
        if times.next_runs:
            parts.append(f"<p>{'Then' if times.overdue is not None else 'Next runs'}:</p><ul>" + "".join(
                f"<li>{t:%a %Y-%m-%d %H:%M %Z}</li>" for t in times.next_runs) + "</ul>")
    if task.body:
        parts.append("<hr/>" + markdown_html(task.body))
    return "".join(parts)


class TasksPane(Pane):
    pane_id = "tasks"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.cap: api.Tasks = ctx.opened.capability(api.Tasks)
        self.groups = dict(self.cap.groups())
        self.group = ctx.arg if isinstance(ctx.arg, str) else None  # one group's page, or every group
        self.section = self.group or "tasks"
        self.caption = self.groups.get(self.group, "Scheduled tasks")
        self.reader = self.cap.reader
        layout = QVBoxLayout(self)
        self.columns = columns(self.reader)
        self.list = RecordList(self.caption, self.columns, key=lambda s: s.id, state=_state)
        self.filter_box = self.list.filter_box
        self.records, self.table = self.list.records, self.list.table
        self.group_box = None
        if self.group is None and len(self.groups) > 1:
            self.group_box = QComboBox()
            self.group_box.setAccessibleName("Group")
            self.group_box.addItem("Every group", "")
            for kind, title in self.groups.items():
                self.group_box.addItem(title, kind)
            self.group_box.currentIndexChanged.connect(lambda _i: self._show_list())
            self.list.layout().insertWidget(1, self.group_box)
        self.where_label = QLabel()  # which copy the system reads: said above the buttons too
        self.where_label.setWordWrap(True)
        self.where_label.setTextFormat(Qt.TextFormat.RichText)
        self.view = SafeTextBrowser()
        self.view.setObjectName("taskView")
        self._shown: ShownTask | None = None
        self._all: list[ShownTask] = []
        self._pending = None
        follow_palette(self.view, self._repaint)
        self.buttons = FlowLayout()  # wraps in a narrow window instead of squeezing the list beside it
        self.edit_button = QPushButton("Edit row")
        self.edit_button.setToolTip("Edit the task's fields (its database row, where it has one)")
        self.file_button = QPushButton("Edit file")
        self.file_button.setToolTip("Edit the task's file as text")
        self.new_button = QPushButton(self._new_label())
        self.delete_button = QPushButton("Delete…")
        self.delete_button.setToolTip("Move the task to the store's trash (it can be restored)")
        self.trash_button = QPushButton("Trash…")
        self.trash_button.setToolTip("The store's deleted items (tasks and all else deleted here), ready to restore")
        kinds = self._new_kinds()
        if self.group is None and len(kinds) > 1:
            menu = QMenu(self.new_button)
            for kind in kinds:
                menu.addAction(f"{self.groups.get(kind, kind)}…", lambda k=kind: self.ask_new(k))
            self.new_button.setMenu(menu)
        else:
            self.new_button.clicked.connect(lambda: self.ask_new(kinds[0]) if kinds else None)
        for b in (self.edit_button, self.file_button, self.new_button, self.delete_button, self.trash_button):
            self.buttons.addWidget(b)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.where_label)
        rl.addLayout(self.buttons)
        # (shown only once the layout gave them a parent: a parentless button made visible is a window)
        self.new_button.setVisible(bool(kinds))
        deletes = type(self.cap).delete is not api.Tasks.delete
        self.trash_button.setVisible(deletes and self.ctx.opened.capability(api.Trash) is not None)
        self.delete_button.setVisible(deletes)
        rl.addWidget(self.view, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(right)
        # the list first: the words of a schedule run to ~50 characters ("At 08:30 AM, on day 4 of the month,
        # only in March") and were cut at 1400×900 beside an even split; the viewer's text wraps
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([720, 380])
        layout.addWidget(split, 1)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the store's own order until a header is clicked
        self.table.selectionModel().currentRowChanged.connect(self._selected)
        self.table.doubleClicked.connect(lambda _i: self.activate())
        self.edit_button.clicked.connect(self.edit)
        self.file_button.clicked.connect(self.edit_file)
        self.delete_button.clicked.connect(lambda: self.delete())
        self.trash_button.clicked.connect(self.show_trash)
        self._update_buttons(None)

    # -- reading ---------------------------------------------------------------------------------------
    def _new_kinds(self) -> list[str]:
        kinds = [self.group] if self.group else list(self.groups)
        return [k for k in kinds if self.cap.create_fields(k)]

    def _new_label(self) -> str:
        if self.group:
            title = self.groups.get(self.group, "task")
            return f"New {title[:-1].lower() if title.endswith('s') else title.lower()}…"
        return "New task…"

    def load(self) -> None:
        cap = self.cap
        self.ctx.worker.submit("generic-tasks", lambda: [shown(t) for t in cap.tasks()], on_result=self._arrived)

    def store_changed(self) -> bool:
        """Tasks are rows (and files): read them again; the list keeps its selection by key."""
        self.load()
        return True

    def current_record(self) -> ShownTask | None:
        return self.list.current()

    def link_target(self, _view=None) -> tuple[str, str] | None:
        s = self.list.current()
        return ("task", s.id) if s is not None else None

    def open_item(self, target) -> None:
        """``target``: the key of a listed task (quick open, a deep link); kept until the list arrives."""
        if not self.list.select_key(target):
            self._pending = target

    def _arrived(self, tasks: list[ShownTask]) -> None:
        self._all = tasks
        self._show_list()
        target, self._pending = self._pending, None
        if target is not None:
            self.list.select_key(target)

    def _show_list(self) -> None:
        group = self.group or (self.group_box.currentData() if self.group_box is not None else "")
        listed = [s for s in self._all if not group or s.task.schedule_kind == group]
        keep = self.list.current()
        self.list.set_records(listed)
        if keep is not None:
            self.list.select_key(keep.id)
        for i, column in enumerate(self.columns):
            test = _OPTIONAL.get(column.title)
            if column.title == "Type":
                self.table.setColumnHidden(i, bool(group) or len({s.task.schedule_kind for s in listed}) < 2)
            elif column.title == f"{self.reader} reads":
                self.table.setColumnHidden(i, not any(s.task.copies for s in listed))
            elif test is not None:
                self.table.setColumnHidden(i, not any(test(s) for s in listed))
        if not any(s.task.copies for s in self._all):
            self.edit_button.setText("Edit…")  # the kind keeps one copy: its fields are the task
        self.list.caption.setText(f"<b>{escape(self.caption)}</b> ({len(listed):,})")
        self.ctx.set_count(self.section, len(listed))
        if self.list.current() is None:
            self._update_buttons(None)

    def _selected(self, current, _previous) -> None:
        s = self.records.record_at(current)
        self._update_buttons(s)
        if s is None:
            return
        self._shown = s
        self._repaint()
        self.ctx.show_detail(self.describe(s))

    def _repaint(self) -> None:
        s = self._shown
        if s is None:
            return
        self.view.setHtml(task_html(s.task, self.reader, s.times, copies=False))
        self.where_label.setText(copies_html(s.task, self.reader))
        self.where_label.setVisible(bool(s.task.copies))

    def describe(self, s: ShownTask):
        task, times = s.task, s.times
        runs = "\n".join(f"{t:%a %Y-%m-%d %H:%M %Z}" for t in times.next_runs)
        fields = [("Id", task.id), ("Type", task.schedule_kind), ("Schedule", task.schedule),
                  ("In words", _words(s)),
                  ("Next runs", runs or ("none: the task is disabled" if not task.enabled else
                                         "none: it cannot be run" if times.error else "")),
                  ("Timezone", task.timezone or "local"), ("Enabled", "yes" if task.enabled else "no")]
        if task.agent_id:
            fields.append(("Agent", f"{task.agent} ({task.agent_id})" if task.agent else task.agent_id))
        if task.user_id:
            fields.append(("User", f"{task.user} ({task.user_id})" if task.user else task.user_id))
        fields += [("Last run", when(task.last_run_at)), ("Source", task.source)]
        fields += [(f"Copy: {c.where}", f"{c.ref} — {'read' if c.read else 'not read'}") for c in task.copies]
        if not task.schedule:  # (a heartbeat, a webhook: no schedule of its own, so no runs to list)
            fields = [(k, v) for k, v in fields if k not in ("Schedule", "Next runs", "Timezone")]
        return detail_of(f"{self.groups.get(task.schedule_kind, 'Task')}: {task.title}", task,
                         fields=tuple(fields), markdown=task.body or None)

    def shown_text(self) -> str:
        return self.view.toPlainText()

    def activate(self) -> None:
        """Enter or a double click: the task's agent, where it names one."""
        s = self.list.current()
        if s is None or not s.task.agent_id:
            return
        from daycare_gui.ui.panes.generic import route_for

        section, target = route_for(self.ctx.opened, JumpEntry("agent", s.task.agent_id, s.task.agent))
        if section:
            self.ctx.navigate(section, target)

    # -- what the selection offers ---------------------------------------------------------------------
    def _fields_copy(self, task: TaskItem) -> TaskCopy | None:
        return next((c for c in task.copies if c.fields), None)

    def _text_copy(self, task: TaskItem) -> TaskCopy | None:
        return next((c for c in task.copies if c.file), None)

    def _update_buttons(self, s: ShownTask | None) -> None:
        task = s.task if s is not None else None
        row = task is not None and bool(self.cap.editable(task))
        self.edit_button.setEnabled(row)
        self.file_button.setEnabled(task is not None and (self._text_copy(task) is not None
                                                          or task.document is not None))
        self.file_button.setVisible(any(s.task.copies or s.task.document for s in self._all))
        self.delete_button.setEnabled(task is not None and self.cap.delete_reason(task) is None)
        if task is not None:
            self.delete_button.setToolTip(self.cap.delete_reason(task) or
                                          "Move the task to the store's trash (it can be restored)")

    # -- writing ---------------------------------------------------------------------------------------
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

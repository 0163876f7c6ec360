"""Scheduled tasks of any kind: the schedule in words in the task's timezone, the next runs, editing."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QSplitter, QVBoxLayout

from daycare_gui.stores import api
from daycare_gui.stores.common.task_times import task_times
from daycare_gui.stores.records import TaskItem
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList, detail_of, when
from daycare_gui.ui.panes.generic.edit_form import EditDialog, save_with_consent
from daycare_gui.ui.theme import colours, follow_palette
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape, markdown_html


def _times(task: TaskItem):
    return task_times(task)


COLUMNS = [
    Column("Task", lambda t: t.title, tooltip=lambda t: t.id),
    Column("Type", lambda t: t.schedule_kind),
    Column("Enabled", lambda t: "yes" if t.enabled else "no"),
    Column("Schedule", lambda t: _times(t).error or _times(t).words, tooltip=lambda t: t.schedule),
    Column("Last run", lambda t: t.last_run_at, display=when),
]


def task_html(task: TaskItem) -> str:
    times = task_times(task)
    parts = [f"<h3>{escape(task.title)}</h3>"]
    if times.error:
        parts.append(f"<p style='color:{colours().error}'>Schedule problem: {escape(times.error)}</p>")
    else:
        parts.append(f"<p><b>{escape(times.words)}</b></p>")
    if not task.enabled:
        parts.append("<p>Disabled: it does not run.</p>")
    else:
        if times.overdue is not None:
            since = ("It has never run" if task.last_run_at is None else
                     f"<b>Overdue</b> since {times.overdue:%Y-%m-%d %H:%M %Z}")
            parts.append(f"<p>{since}: it runs as soon as the system next checks its tasks (if it is running)."
                         "</p>")
        if times.next_runs:
            parts.append(f"<p>{'Then' if times.overdue is not None else 'Next runs'}:</p><ul>" + "".join(
                f"<li>{t:%Y-%m-%d %H:%M %Z}</li>" for t in times.next_runs) + "</ul>")
    if task.body:
        parts.append("<hr/>" + markdown_html(task.body))
    return "".join(parts)


class TasksPane(Pane):
    pane_id = "tasks"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.cap: api.Tasks = ctx.opened.capability(api.Tasks)
        layout = QVBoxLayout(self)
        self.list = RecordList("Scheduled tasks", COLUMNS, key=lambda t: t.id,
                               state=lambda t: "error" if t.problem or _times(t).error else
                               (None if t.enabled else "dead"))
        self.filter_box = self.list.filter_box
        self.view = SafeTextBrowser()
        self.view.setObjectName("taskView")
        self._shown = None
        follow_palette(self.view, lambda: self._shown is not None and self.view.setHtml(task_html(self._shown)))
        bar = QHBoxLayout()
        self.edit_button = QPushButton("Edit…")
        self.edit_button.setEnabled(False)
        bar.addStretch(1)
        bar.addWidget(self.edit_button)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(self.view)
        split.setSizes([620, 480])
        layout.addLayout(bar)
        layout.addWidget(split, 1)
        self.list.table.selectionModel().currentRowChanged.connect(self._selected)
        self.edit_button.clicked.connect(self._edit)

    def load(self) -> None:
        cap = self.cap
        self.ctx.worker.submit("generic-tasks", cap.tasks, on_result=self._arrived)

    def link_target(self, _view=None) -> tuple[str, str] | None:
        task = self.list.current()
        return ("task", task.id) if task is not None else None

    def open_item(self, target) -> None:
        """``target``: the key of a listed item (quick open, a deep link); kept until the list arrives."""
        if not self.list.select_key(target):
            self._pending = target

    def _arrived(self, tasks) -> None:
        self.list.set_records(tasks)
        target, self._pending = getattr(self, "_pending", None), None
        if target is not None:
            self.list.select_key(target)
        self.list.caption.setText(f"<b>Scheduled tasks</b> ({len(tasks):,})")
        self.ctx.set_count("tasks", len(tasks))

    def _selected(self, current, _previous) -> None:
        task = self.list.records.record_at(current)
        if task is None:
            return
        self._shown = task
        self.view.setHtml(task_html(task))
        self.ctx.show_detail(detail_of(task.title, task, fields=(
            ("Id", task.id), ("Type", task.schedule_kind), ("Schedule", task.schedule),
            ("Timezone", task.timezone or "local"), ("Enabled", "yes" if task.enabled else "no"),
            ("Source", task.source))))
        self.edit_button.setEnabled(bool(self.cap.editable(task)))

    def shown_text(self) -> str:
        return self.view.toPlainText()

    def _edit(self) -> None:
        task = self.list.current()
        if task is None:
            return
        dialog = EditDialog(f"Edit {task.title}", self.cap.editable(task), self.cap.form_values(task), self)
        if not dialog.exec() or not dialog.changes():
            return
        cap, changes = self.cap, dialog.changes()
        save_with_consent(self, self.ctx.worker, "generic-task-save",
                          lambda force: cap.update(task, changes, force=force), lambda _t: self.load())

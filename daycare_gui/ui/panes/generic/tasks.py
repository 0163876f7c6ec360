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

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.stores import api
from daycare_gui.stores.records import JumpEntry, TaskCopy, TaskItem
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList, detail_of, when
from daycare_gui.ui.panes.generic.task_display import (
    OPTIONAL_COLUMNS,
    ShownTask,
    columns,
    copies_html,
    schedule_words,
    shown,
    task_html,
    task_state,
)
from daycare_gui.ui.panes.generic.task_writes import TaskWrites
from daycare_gui.ui.theme import follow_palette
from daycare_gui.ui.widgets.flow_layout import FlowLayout
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape


class TasksPane(TaskWrites, Pane):
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
        self.list = RecordList(self.caption, self.columns, key=lambda s: s.id, state=task_state)
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
        self.view.setPlaceholderText("Select a task to read it here.")  # (one line: Qt does not wrap it)
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
            test = OPTIONAL_COLUMNS.get(column.title)
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
                  ("In words", schedule_words(s)),
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

"""Cron and heartbeat tasks: each task's file and/or row, which copy Daycare reads, and its code.

Before 20260220_import_tasks Daycare read ``cron/<id>/TASK.md`` and ``heartbeat/*.md``; after it, only the
database rows. The list says for every task where it is stored and which copy counts, so an edit to a
file Daycare no longer reads is not mistaken for a change.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton

from daycare_gui.core.display import labelled
from daycare_gui.core.queries.names import load_names
from daycare_gui.core.schedule_info import ScheduleInfo, schedule_info
from daycare_gui.core.task_overview import TaskEntry, cron_entries, heartbeat_entries
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.editors.pane_actions import EditActions
from daycare_gui.ui.formats import date_time_of
from daycare_gui.ui.models.columns import Column, fmt_time
from daycare_gui.ui.theme import colours
from daycare_gui.ui.widgets.browse_pane import BrowsePane
from daycare_gui.ui.widgets.flow_layout import FlowLayout
from daycare_gui.ui.widgets.markdown_view import escape


@dataclass(frozen=True)
class TaskItem:
    """A task with its schedule worked out once (in the worker), not on every repaint."""

    entry: TaskEntry
    schedule: ScheduleInfo | None
    agent_name: str | None = None
    user_name: str | None = None

    @property
    def id(self) -> str:
        return self.entry.id


def _names(store, entries: list[TaskEntry]) -> tuple[dict[str, str], dict[str, str]]:
    """Agent and user names for the ids the tasks mention (runs in the worker with the fetch)."""
    names = load_names(store, (e.get("agent_id") for e in entries))
    return names.agents, names.users


def _yes(value) -> str:
    return "yes" if value else "no"


def _aliases(entry: TaskEntry) -> str:
    return ", ".join(f"{field} ← {key}" for field, key in entry.aliases.items() if key != field) or ""


def _state(item: TaskItem) -> str | None:
    if item.entry.reads == "nothing":
        return "ignored"
    if item.schedule is not None and not item.schedule.valid:
        return "error"
    if item.schedule is not None and not item.schedule.enabled:
        return "disabled"
    return None


def _where(entry: TaskEntry) -> str:
    stored = {"both": "a file and a database row", "file": "a file only", "row": "a database row only"}[entry.presence]
    return f"Stored as {stored}. Daycare reads: {entry.reads_label} — {entry.reason}."


def _runs(info: ScheduleInfo) -> list[str]:
    return [date_time_of(r, weekday=True) for r in info.next_runs]


def schedule_html(info: ScheduleInfo | None) -> str:
    if info is None:
        return ""
    c = colours()  # the label sits on the window background
    if not info.valid:
        return (f"<b>Schedule</b> <code>{escape(info.expr)}</code> — "
                f"<span style='color:{c.window_error}'>invalid: {escape(info.error or '')}</span>. "
                "Daycare would never run it.")
    head = f"<b>Schedule</b> <code>{escape(info.expr)}</code> — {escape(info.words)}"
    if not info.enabled:
        return (head + f"<br><span style='color:{c.window_warning}'><b>Disabled</b></span>: Daycare does not "
                "run this task, so there are no next runs.")
    runs = "".join(f"<li>{escape(r)}</li>" for r in _runs(info))
    return head + f"<br>Next {len(info.next_runs)} runs:<ul style='margin:0'>{runs}</ul>"


def _in_words(item: TaskItem) -> str:
    return item.schedule.summary() if item.schedule else ""


class _TasksPane(BrowsePane):
    noun = "task"
    kind = "cron"
    link_kind = "task"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.where_label = QLabel()
        self.where_label.setWordWrap(True)
        self.schedule_label = QLabel()
        self.schedule_label.setWordWrap(True)
        self.schedule_label.setTextFormat(Qt.TextFormat.RichText)
        buttons = FlowLayout()
        self.code_button = QPushButton("Task code")
        self.memory_button = QPushButton("MEMORY.md")
        self.memory_button.setToolTip("The task's own notes beside TASK.md (Daycare does not import them)")
        self.code_button.clicked.connect(self._show_code)
        self.memory_button.clicked.connect(self._show_memory)
        for b in (self.code_button, self.memory_button):
            buttons.addWidget(b)
        self.head.addWidget(self.where_label)
        self.head.addWidget(self.schedule_label)
        self.head.addLayout(buttons)
        self._set_buttons(None)
        self.edit_actions = EditActions(self, self.kind)  # Edit file / Edit row / New… / Delete…

    def store_changed(self) -> bool:
        """Tasks are database rows (and files): read them again and update the changed rows in place."""
        self.load()
        return True

    def state(self, item: TaskItem) -> str | None:
        return _state(item)

    def _set_buttons(self, item: TaskItem | None) -> None:
        self.code_button.setEnabled(item is not None)
        self.memory_button.setEnabled(item is not None and item.entry.memory_path is not None)

    def present(self, item: TaskItem) -> None:
        entry = item.entry
        self.where_label.setText(_where(entry))
        self.schedule_label.setText(schedule_html(item.schedule))
        self.schedule_label.setVisible(item.schedule is not None)
        self._set_buttons(item)
        self._show_code()

    def _show_code(self) -> None:
        item = self.current_record()
        if item is None:
            return
        entry = item.entry
        code = entry.get("code") or ""
        note = f"Code from the {entry.reads_label if entry.reads != 'nothing' else 'file'}"
        if "code" in entry.differs:
            note += " — the other copy's code differs"
        self.viewer.show_markdown(entry.name, code or "*(no code)*", note, entry.path)

    def _show_memory(self) -> None:
        item = self.current_record()
        if item is not None and item.entry.memory_path:
            self.show_document(item.entry.memory_path, "MEMORY.md")

    def common_fields(self, entry: TaskEntry) -> list[tuple[str, str]]:
        return [("Id", entry.id), ("Stored as", entry.presence), ("Daycare reads", entry.reads_label),
                ("Why", entry.reason)]

    def tail_fields(self, entry: TaskEntry) -> list[tuple[str, str]]:
        fields = [("Last run", fmt_time(entry.get("last_run_at"))), ("File", entry.path or "")]
        if entry.row is not None:
            fields.append(("Row", f"{'tasks_cron' if entry.kind == 'cron' else 'tasks_heartbeat'} id {entry.row.id}"))
        if entry.file is not None:
            fields.append(("Importer", f"would skip: {entry.skip_reason}" if entry.skip_reason else "would import"))
        if entry.differs:
            fields.append(("File and row differ in", ", ".join(entry.differs)))
        return fields

    def raw_of(self, entry: TaskEntry) -> dict:
        return {"file": entry.file.to_dict() if entry.file is not None else None,
                "row": dict(entry.row.raw) if entry.row is not None else None}


class CronTasksPane(_TasksPane):
    pane_id = "cron"
    title = "Cron tasks"
    filter_placeholder = "Filter cron tasks by name, id, schedule, agent (Ctrl+F)"
    hint = "Enter opens the task's agent; grey-yellow rows are files Daycare ignores"
    # cron-descriptor's words run to ~50 characters ("At 08:30 AM, on day 4 of the month, only in March"):
    # held at the usual cap and behind the expression they were cut at 1400×900, so they get their own
    # width and more of the page than the viewer, whose code and schedule wrap.
    column_caps = {"In words": 480}
    list_share = (3, 2)
    columns = [
        # what a task does, whether it runs and when (in words, then the expression) first, so a narrow
        # list still shows them
        Column("Name", lambda t: t.entry.name, tooltip=lambda t: t.entry.reason),
        Column("Enabled", lambda t: _yes(t.entry.get("enabled", True))),
        Column("In words", _in_words, tooltip=_in_words),  # the tooltip: the whole text where the cell is cut
        Column("Schedule", lambda t: t.entry.get("schedule") or ""),
        Column("Daycare reads", lambda t: t.entry.reads_label),
        Column("Stored as", lambda t: t.entry.presence),
        Column("Once", lambda t: "yes" if t.entry.get("delete_after_run") else ""),
        Column("Agent", lambda t: t.agent_name or t.entry.get("agent_id") or "",
               tooltip=lambda t: t.entry.get("agent_id") or ""),
        Column("User", lambda t: t.user_name or t.entry.get("user_id") or "",
               tooltip=lambda t: t.entry.get("user_id") or ""),
        Column("Last run", lambda t: t.entry.get("last_run_at"), fmt_time),
        Column("Id", lambda t: t.entry.id),
    ]

    def fetch(self, store) -> list[TaskItem]:
        now = _dt.datetime.now().astimezone()
        entries = cron_entries(store)
        agents, users = _names(store, entries)
        return [TaskItem(e, schedule_info(e.get("schedule"), now=now, enabled=bool(e.get("enabled", True))),
                         agents.get(e.get("agent_id")), users.get(e.get("user_id"))) for e in entries]

    def describe(self, item: TaskItem) -> DetailItem:
        e, info = item.entry, item.schedule
        fields = self.common_fields(e) + [
            ("Name", e.get("name") or ""), ("Description", e.get("description") or ""),
            ("Schedule", e.get("schedule") or ""),
            ("In words", info.words if info.valid else f"invalid: {info.error}"),
            ("Next runs", "\n".join(_runs(info)) or info.runs_note()),
            ("Enabled", _yes(e.get("enabled", True))), ("Delete after run", _yes(e.get("delete_after_run"))),
            ("Agent", labelled(item.agent_name, e.get("agent_id"))),
            ("User", labelled(item.user_name, e.get("user_id"))),
            ("Task uid", e.get("task_uid") or ""), ("Legacy keys in file", _aliases(e)),
        ] + self.tail_fields(e)
        return DetailItem(f"Cron task {e.name}", tuple(fields), self.raw_of(e), markdown=e.get("code") or "")

    def activate(self, item: TaskItem) -> None:
        agent = item.entry.get("agent_id")
        if agent:
            self.ctx.navigate("agents", agent)
        else:
            super().activate(item)


class HeartbeatTasksPane(_TasksPane):
    pane_id = "heartbeat"
    title = "Heartbeat tasks"
    kind = "heartbeat"
    filter_placeholder = "Filter heartbeat tasks by title or id (Ctrl+F)"
    columns = [
        Column("Title", lambda t: t.entry.name, tooltip=lambda t: t.entry.reason),
        Column("Stored as", lambda t: t.entry.presence),
        Column("Daycare reads", lambda t: t.entry.reads_label),
        Column("User", lambda t: t.user_name or t.entry.get("user_id") or "",
               tooltip=lambda t: t.entry.get("user_id") or ""),
        Column("Last run", lambda t: t.entry.get("last_run_at"), fmt_time),
        Column("Id", lambda t: t.entry.id),
    ]

    def fetch(self, store) -> list[TaskItem]:
        entries = heartbeat_entries(store)
        _agents, users = _names(store, entries)
        return [TaskItem(e, None, None, users.get(e.get("user_id"))) for e in entries]

    def describe(self, item: TaskItem) -> DetailItem:
        e = item.entry
        fields = self.common_fields(e) + [("Title", e.name), ("User", labelled(item.user_name, e.get("user_id")))]
        if e.file is not None:
            fields.append(("Title taken from", e.file.title_source))
        fields += self.tail_fields(e)
        return DetailItem(f"Heartbeat task {e.name}", tuple(fields), self.raw_of(e), markdown=e.get("code") or "")

"""How the tasks page shows a task: its list's columns and the viewer's text (schedule, next runs, copies)."""

from __future__ import annotations

from dataclasses import dataclass

from daycare_gui.stores.common.task_times import TaskTimes, task_times
from daycare_gui.stores.records import TaskItem
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.generic.common import when
from daycare_gui.ui.theme import colours
from daycare_gui.ui.widgets.markdown_view import escape, markdown_html


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


def schedule_words(s: ShownTask) -> str:
    text = s.times.error and f"invalid: {s.times.error}" or s.times.words
    return text if s.task.enabled else f"disabled ({text})"


def _next(s: ShownTask):
    first = s.times.overdue or (s.times.next_runs[0] if s.times.next_runs else None)
    return int(first.timestamp() * 1000) if first is not None and s.task.enabled else None


def task_state(s: ShownTask) -> str | None:
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
        Column("In words", schedule_words, tooltip=schedule_words),
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
OPTIONAL_COLUMNS = {"Type": lambda s: False, "Next run": lambda s: _next(s) is not None,
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

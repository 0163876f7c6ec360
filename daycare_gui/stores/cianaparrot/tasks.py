"""Scheduled tasks (``scheduled_tasks.json``): listed with their next run, edited faithfully.

Next runs follow the bot's scheduler (``scheduler``): a task that never ran is due at the next poll; a
cron task runs at the next match after its last run (in the offset last_run is written with: UTC, as the
bot writes it); an interval task ``value`` seconds after its last run; a ``once`` task at its time (a naive
time is UTC) and never again once it ran. A task the bot cannot use is either skipped by it or makes its
every poll fail, which stops all tasks: the latter is said on every task and listed as a problem of the
file (``files.read_tasks``). Edits splice only the changed
values' text, refuse while the bot runs (its scheduler rewrites this file every time a task fires), back up
first, and refuse if the task changed since it was read.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from croniter import croniter

from daycare_gui.stores.api import EditableField, Tasks, WriteConflict, WriteRefused
from daycare_gui.stores.cianaparrot import json_splice
from daycare_gui.stores.cianaparrot.bot_json import (
    BOM,
    BOM_REASON,
    as_text,
    bom_refusal,
    repeat_refusal,
    same_values,
    spelled,
    task_id,
    task_repeat_problem,
    task_repeats,
)
from daycare_gui.stores.cianaparrot.decode import masked
from daycare_gui.stores.cianaparrot.files import iso_ms, task_state
from daycare_gui.stores.cianaparrot.safe_write import current_bytes, replace_file
from daycare_gui.stores.cianaparrot.scheduler import blocked_note, judge, named
from daycare_gui.stores.common.edit.atomic import sha256_of
from daycare_gui.stores.records import TaskItem

TYPES = ("cron", "interval", "once")
FIELDS = (
    EditableField("prompt", "Prompt", "markdown", help="What the agent is asked when the task fires"),
    EditableField("type", "Type", "choice", TYPES),
    EditableField("value", "Schedule", "text", help="cron: 5 fields (UTC); interval: seconds; once: ISO time"),
    EditableField("active", "Active", "bool", default=True),  # (a task without "active" runs)
    EditableField("model_tier", "Model tier", "text", help="empty: the default tier"),
)


def next_run(task: dict, now_ms: int | None = None) -> tuple[int | None, str | None]:
    """(when, problem) as the bot's scheduler would judge it (see ``scheduler``)."""
    verdict = judge(task, now_ms)
    return verdict.when, verdict.problem


def validate(kind: Any, value: Any) -> str | None:
    if kind not in TYPES:
        return f"type must be one of {', '.join(TYPES)}"
    if kind == "cron" and not (isinstance(value, str) and croniter.is_valid(value)):
        return f"{spelled(value)} is not a valid cron expression"
    if kind == "interval":
        try:
            if int(value) <= 0:
                return "an interval must be a positive number of seconds"
        except (TypeError, ValueError, OverflowError):
            return f"{spelled(value)} is not a whole number of seconds"
    if kind == "once" and iso_ms(value) is None:
        return f"{spelled(value)} is not an ISO date and time"
    return None


class CianaTasks(Tasks):
    reader = "CianaParrot"

    def __init__(self, store) -> None:
        self.store = store

    def groups(self) -> tuple[tuple[str, str], ...]:
        # the three kinds of schedule the bot's scheduler runs: the tasks page can show one at a time
        return (("cron", "Cron"), ("interval", "Every few minutes"), ("once", "Once"))

    def tasks(self) -> list[TaskItem]:
        path = self.store.layout.tasks_file
        ids = Counter(task_id(task) for task in self.store.tasks or ())
        out = []
        verdicts = [judge(task) for task in self.store.tasks or ()]
        # A task the bot's scheduler fails on stops every other one: said on each, beside its own times
        stallers = [(named(task, i), v.stalls) for i, (task, v) in enumerate(zip(self.store.tasks or (), verdicts))
                    if v.stalls]
        for _i, (task, verdict) in enumerate(zip(self.store.tasks or (), verdicts)):
            when, problem = verdict.when, verdict.problem
            if stallers and not verdict.stalls and when is not None:  # (not one that never runs anyway)
                blocked = blocked_note(stallers)
                problem = f"{problem}; {blocked}" if problem else blocked
            tid = task_id(task)
            if ids[tid] > 1:
                shared = f"the id {tid} is shared by {ids[tid]} tasks: an edit cannot tell them apart"
                problem = f"{problem}; {shared}" if problem else shared
            if self.store.tasks_bom:
                unread = f"scheduled_tasks.json {BOM_REASON}: the scheduler fails, so this task never runs"
                problem = f"{problem}; {unread}" if problem else unread
            if repeated := self.store.task_repeats.get(tid):
                twice = task_repeat_problem(repeated)
                problem = f"{problem}; {twice}" if problem else twice
            thread = self.store.threads.get(f"scheduler_{tid}")
            meta = [("state", task_state(task)), ("channel", as_text(task.get("channel", ""))),
                    ("chat", as_text(task.get("chat_id", ""))), ("created", as_text(task.get("created_at", "")))]
            if task.get("model_tier"):
                meta.append(("model tier", as_text(task["model_tier"])))
            meta.append(("thread", f"scheduler_{tid}" + (f" ({thread.checkpoints} checkpoints)" if thread else
                                                          " (no run recorded)")))
            prompt = as_text(task.get("prompt", ""))
            out.append(TaskItem(
                id=tid, title=" ".join(prompt.split())[:80] or tid, schedule_kind=as_text(task.get("type", "")),
                schedule=as_text(task.get("value", "")), timezone="UTC", enabled=bool(task.get("active", True)),
                last_run_at=iso_ms(task.get("last_run")), next_run_at=when, source=str(path), body=prompt,
                meta=tuple(meta), raw=masked(task), problem=problem,
            ))
        return out

    def editable(self, task: TaskItem) -> tuple[EditableField, ...]:
        return FIELDS if self.store.tasks_ok and self.store.layout.tasks_file else ()

    def form_values(self, task: TaskItem) -> dict[str, Any]:
        # NaN and the infinities as the file spells them, not as Python's str() does (nan, inf): left as
        # shown, the form writes nothing, so the file keeps its bytes
        raw = task.raw if isinstance(task.raw, dict) else {}
        return {f.name: _as_spelled(raw.get(f.name)) for f in self.editable(task)}

    def update(self, task: TaskItem, changes: dict[str, Any], *, force: bool = False) -> TaskItem:
        path = self.store.layout.tasks_file
        unknown = set(changes) - {f.name for f in FIELDS}
        if unknown:
            raise WriteRefused(f"these fields cannot be edited: {', '.join(sorted(unknown))}")
        data = current_bytes(path) if path is not None else None  # (a folder in its place is refused)
        if data is None:
            raise WriteRefused("there is no scheduled_tasks.json to edit")
        blocked = self.store.writes_blocked()
        if blocked and not force:
            raise WriteRefused(f"{blocked}; its scheduler rewrites scheduled_tasks.json whenever a task fires. "
                               "Stop the bot first, or insist to write anyway")
        if data.startswith(BOM):  # the splicer would say "unexpected character at 0"
            raise WriteRefused(bom_refusal("scheduled_tasks.json"))
        try:
            text = data.decode("utf-8")
            root = json_splice.parse(text)
        except (UnicodeDecodeError, json_splice.SpliceError) as exc:
            raise WriteRefused(f"scheduled_tasks.json cannot be read ({exc}); fix it by hand first") from exc
        if root.kind != "array":
            raise WriteRefused("scheduled_tasks.json is not a list of tasks")
        import json

        current = json.loads(text)
        found = [i for i, t in enumerate(current) if isinstance(t, dict) and task_id(t) == task.id]
        if not found:
            raise WriteConflict(f"task {task.id} is no longer in scheduled_tasks.json; nothing was written")
        if len(found) > 1:  # checked first: comparing with the first of them would call the others "changed"
            raise WriteRefused(f"the id {task.id} is shared by {len(found)} tasks in scheduled_tasks.json, "
                               "so the edit cannot tell which one to change; nothing was written. Give each "
                               "its own id by hand first")
        index = found[0]
        if not same_values(masked(current[index]), task.raw):  # (NaN, read twice, is unequal to itself)
            raise WriteConflict(f"task {task.id} changed since it was read; nothing was written")
        merged = {**current[index], **changes}
        if "prompt" in changes and not (isinstance(changes["prompt"], str) and changes["prompt"].strip()):
            raise WriteRefused("the prompt cannot be empty")
        if "active" in changes and not isinstance(changes["active"], bool):
            raise WriteRefused("active must be true or false")
        if {"type", "value"} & set(changes):
            error = validate(merged.get("type"), merged.get("value"))
            if error:
                raise WriteRefused(error)
        if merged.get("type") == "once" and merged.get("active") and merged.get("last_run") and (
            {"active", "type", "value"} & set(changes)
        ):
            raise WriteRefused("a once task that already ran never runs again (the scheduler skips it when "
                               "last_run is set); schedule a new task instead")
        try:
            text = _splice(text, root.items[index], index, current[index], merged, changes)
        except json_splice.RepeatedKey as exc:
            raise WriteRefused(repeat_refusal(f"task {task.id} in scheduled_tasks.json", exc)) from exc
        replace_file(path, text.encode("utf-8"), sha256_of(data), blocked=blocked, force=True,
                     data_dir=self.store.layout.data_dir, root=self.store.layout.root,
                              within=(self.store.layout.workspace,))
        self.store.tasks = json.loads(text)
        self.store.task_repeats = task_repeats(text)
        return next(t for t in self.tasks() if t.id == task.id)


def _as_spelled(value: Any) -> Any:
    return as_text(value) if isinstance(value, float) and not math.isfinite(value) else value


def _splice(text: str, obj, index: int, task: dict, merged: dict, changes: dict[str, Any]) -> str:
    """``text`` with the task at ``index`` (its node ``obj``, its values ``task``) given ``changes``."""
    for key, value in changes.items():
        if key == "model_tier" and (value is None or value == ""):
            text = json_splice.remove_member(text, obj, key)
        elif key == "value" and isinstance(task.get("value"), (int, float)) and merged["type"] == "interval":
            text = json_splice.set_member(text, obj, key, int(value))
        else:
            if key == "value":
                value = str(value)
            if task.get(key) == value and key in task:
                continue
            text = json_splice.set_member(text, obj, key, value)
        obj = json_splice.parse(text).items[index]
    return text

"""Daycare's cron and heartbeat tasks (SQLite and legacy generations) through the shared ``Tasks`` capability.

A task may be kept twice: its file (``cron/<id>/TASK.md``, ``heartbeat/<id>.md``) and its imported row
(``tasks_cron``/``tasks_heartbeat``). :mod:`daycare_gui.stores.daycare.sqlite.task_overview` pairs them and says which one
Daycare reads; here each becomes a :class:`TaskItem` with both copies, the row edited through its fields
(one transaction, conflict-checked); the file is opened by the shared document editor. New tasks are files made
from Daycare's templates; a delete moves the file into the store's trash, whence ``restore`` brings it back.
Every write is refused while Daycare's engine runs on the store, unless the user insists (``force``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from daycare_gui.stores import api
from daycare_gui.stores.records import TaskCopy, TaskItem

TABLES = {"cron": "tasks_cron", "heartbeat": "tasks_heartbeat"}
_LABELS = {"name": "Name", "schedule": "Schedule (cron)", "enabled": "Enabled", "delete_after_run": "Delete after run",
           "agent_id": "Agent id", "user_id": "User id", "description": "Description", "code": "Code (body)",
           "title": "Title"}
_PRESENCE = {"both": "a file and a database row", "file": "a file only", "row": "a database row only"}


def _yes(value) -> str:
    return "yes" if value else "no"


class DaycareTasks(api.Tasks):
    """Over a :class:`daycare_gui.stores.daycare.sqlite.store.Store` (``core``); the legacy generation has no rows."""

    reader = "Daycare"

    def __init__(self, core) -> None:
        self.core = core

    # -- reading ---------------------------------------------------------------------------------------
    def groups(self) -> tuple[tuple[str, str], ...]:
        return (("cron", "Cron tasks"), ("heartbeat", "Heartbeat tasks"))

    def tasks(self) -> list[TaskItem]:
        from daycare_gui.stores.daycare.sqlite.queries.names import load_names
        from daycare_gui.stores.daycare.sqlite.task_overview import cron_entries, heartbeat_entries

        entries = cron_entries(self.core) + heartbeat_entries(self.core)
        names = load_names(self.core, (e.get("agent_id") for e in entries))
        return [self._item(e, names) for e in entries]

    def count(self) -> int | None:
        return len(self.tasks())

    def _item(self, e, names) -> TaskItem:
        agent_id, user_id = e.get("agent_id") or "", e.get("user_id") or ""
        copies = []
        if e.file is not None:
            read = e.reads == "file"
            copies.append(TaskCopy("file", e.path or "", read, e.reason if read else f"not read: {e.reason}",
                                   file=self._inside(e.path)))
        if e.row is not None:
            read = e.reads == "row"
            copies.append(TaskCopy("database row", f"{TABLES[e.kind]} id {e.row.id}", read,
                                   e.reason if read else f"not read: {e.reason}", fields=self.core.db is not None))
        meta = [("Stored as", _PRESENCE[e.presence]), (f"{self.reader} reads", e.reads_label), ("Why", e.reason)]
        if e.kind == "cron":
            meta += [("Description", e.get("description") or ""), ("Delete after run", _yes(e.get("delete_after_run"))),
                     ("Task uid", e.get("task_uid") or "")]
            aliases = ", ".join(f"{f} ← {k}" for f, k in e.aliases.items() if k != f)
            if aliases:
                meta.append(("Legacy keys in file", aliases))
        elif e.file is not None:
            meta.append(("Title taken from", e.file.title_source))
        if e.kind == "heartbeat" and e.get("last_run_at") is not None:
            meta.append(("Last run time", "stamped on every heartbeat after each batch of any user, ran or not: "
                                          "Automations lists the batches and which heartbeats each ran"))
        if e.memory_path:
            meta.append(("MEMORY.md", e.memory_path))
        if e.file is not None:
            meta.append(("Importer", f"would skip: {e.skip_reason}" if e.skip_reason else "would import"))
        if e.differs:
            meta.append(("File and row differ in", ", ".join(e.differs)))
        return TaskItem(
            id=e.id, title=e.name, schedule_kind=e.kind,
            schedule=(e.get("schedule") or "") if e.kind == "cron" else "",
            enabled=bool(e.get("enabled", True)), last_run_at=e.get("last_run_at"),
            source=e.path or TABLES[e.kind], body=e.get("code") or "", meta=tuple(meta),
            raw={"file": e.file.to_dict() if e.file is not None else None,
                 "row": dict(e.row.raw) if e.row is not None else None},
            copies=tuple(copies), agent_id=agent_id, agent=names.agents.get(agent_id, ""),
            user_id=user_id, user=names.users.get(user_id, ""))

    def _inside(self, path) -> bool:
        return bool(path) and self.core.paths.contains(Path(path)) and Path(path).is_file()

    def _refreshed(self, task: TaskItem) -> TaskItem:
        self._forget()
        return next((t for t in self.tasks() if t.schedule_kind == task.schedule_kind and t.id == task.id), task)

    def _forget(self) -> None:
        """After a write of ours: the next read scans the files again and sees the database's new rows."""
        self.core.forget_files()
        follow = getattr(self.core.db, "follow_live", None)
        if follow is not None:
            follow()

    def _engine(self, where) -> str | None:
        from daycare_gui.stores.daycare.edit.engine_guard import engine_running_reason

        return engine_running_reason(file=where, paths=self.core.paths)

    # -- the row's fields ------------------------------------------------------------------------------
    def _row(self, task: TaskItem) -> dict | None:
        raw = task.raw if isinstance(task.raw, dict) else {}
        return raw.get("row") if self.core.db is not None else None

    def editable(self, task: TaskItem) -> tuple[api.EditableField, ...]:
        from daycare_gui.stores.daycare.edit.rows import BOOLEAN_COLUMNS, EDITABLE_COLUMNS

        row = self._row(task)
        if row is None or task.schedule_kind not in TABLES:
            return ()
        out = []
        for column in EDITABLE_COLUMNS[TABLES[task.schedule_kind]]:
            if column not in row and not (column == "code" and "prompt" in row):
                continue
            kind = ("bool" if column in BOOLEAN_COLUMNS else "markdown" if column == "code"
                    else "schedule" if column == "schedule" else "text")
            out.append(api.EditableField(column, _LABELS.get(column, column), kind))
        return tuple(out)

    def form_values(self, task: TaskItem) -> dict[str, Any]:
        row = self._row(task) or {}
        out = {}
        for f in self.editable(task):
            value = row.get(f.name)
            out[f.name] = bool(value) if f.kind == "bool" else ("" if value is None else value)
        return out

    def update(self, task: TaskItem, changes: dict[str, Any], *, force: bool = False) -> TaskItem:
        from daycare_gui.stores.common.edit.errors import InvalidValue
        from daycare_gui.stores.daycare.edit.rows import (
            EngineRunning,
            RowChanged,
            RowEditError,
            load_row,
            write_row,
        )

        row = self._row(task)
        if row is None:
            raise api.WriteRefused(f"{task.title} has no database row to edit")
        table = TABLES[task.schedule_kind]
        try:
            loaded = load_row(self.core.paths.db_path, table, task.id)
        except RowEditError as exc:
            raise api.WriteConflict(f"{exc}; nothing was written") from exc
        changed = [c for c in loaded.editable if c in row and loaded.get(c) != row.get(c)]
        if changed:
            raise api.WriteConflict(f"{table} row {task.id!r} changed since it was listed ({', '.join(changed)}); "
                                    "nothing was written")
        try:
            write_row(self.core.paths, loaded, changes, force=force)
        except EngineRunning as exc:
            raise api.WriteRefused(str(exc)) from exc
        except RowChanged as exc:
            raise api.WriteConflict(str(exc)) from exc
        except (InvalidValue, RowEditError) as exc:
            raise ValueError(str(exc)) from exc
        return self._refreshed(task)

    # -- new tasks -------------------------------------------------------------------------------------
    def create_fields(self, kind: str) -> tuple[api.EditableField, ...]:
        if kind == "cron":
            return (api.EditableField("name", "Name"),
                    api.EditableField("schedule", "Schedule (cron)", default="0 9 * * *"))
        if kind == "heartbeat":
            return (api.EditableField("title", "Title"),)
        return ()

    def create_warning(self, kind: str) -> str | None:
        ignored = self.core.task_files_ignored()
        if not ignored or kind not in TABLES:
            return None
        what = "cron task" if kind == "cron" else "heartbeat task"
        return (f"On this store Daycare reads its tasks from the database, not from task files: {ignored}.\n\n"
                f"A new {what} file would never run: Daycare ignores it. This application cannot create task "
                "rows (it edits existing ones with Edit row).")

    def create(self, kind: str, values: dict[str, Any], *, force: bool = False) -> TaskItem:
        from daycare_gui.stores.common.edit.errors import InvalidValue
        from daycare_gui.stores.daycare.edit import create

        if kind not in TABLES:
            raise api.WriteRefused(f"no {kind} tasks can be made here")
        where = self.core.paths.legacy_dir
        if not force:
            reason = self._engine(where)
            if reason:
                raise api.WriteRefused(reason)
        try:
            if kind == "cron":
                path = create.create_cron_task(self.core.paths, values.get("name") or "",
                                               values.get("schedule") or "")
            else:
                path = create.create_heartbeat(self.core.paths, values.get("title") or "")
        except FileExistsError as exc:
            raise api.WriteConflict(str(exc)) from exc
        except (InvalidValue, OSError) as exc:
            raise ValueError(str(exc)) from exc
        self._forget()
        made = next((t for t in self.tasks() if any(c.ref == str(path) for c in t.copies)), None)
        return made or TaskItem(id=path.stem, title=path.stem, schedule_kind=kind, source=str(path))

    # -- delete and restore ----------------------------------------------------------------------------
    def _file(self, task: TaskItem) -> TaskCopy | None:
        return next((c for c in task.copies if c.where == "file" and self._inside(c.ref)), None)

    def _target(self, task: TaskItem) -> Path | None:
        copy = self._file(task)
        if copy is None:
            return None
        # A cron task is a folder (TASK.md, MEMORY.md, files/); a heartbeat task is one file.
        return Path(copy.ref) if task.schedule_kind == "heartbeat" else Path(copy.ref).parent

    def delete_reason(self, task: TaskItem) -> str | None:
        if self._target(task) is not None:
            return None
        return "only a task's file can be deleted here, and this task has none"

    def delete_note(self, task: TaskItem) -> str:
        target = self._target(task)
        note = (f"Move {target} to the trash?\n\nIt is kept in {self.core.paths.data_dir}/.daycare-gui-trash and "
                "can be restored from Deleted Items (Trash…).")
        if any(c.where == "database row" for c in task.copies):
            note += "\n\nIts database row stays: Daycare goes on running the task from the row."
        return note

    def delete(self, task: TaskItem, *, force: bool = False) -> str:
        from daycare_gui.stores.common.edit.trash import TrashError, TrashIncomplete, move_to_trash

        target = self._target(task)
        if target is None:
            raise ValueError(self.delete_reason(task) or "nothing to delete")
        if not force:
            reason = self._engine(target)
            if reason:
                raise api.WriteRefused(reason)
        try:
            entry = move_to_trash(self.core.paths, target)
        except TrashIncomplete as exc:  # whole in the trash, part of the original still there
            self._forget()
            raise api.WritePartial(str(exc), str(exc.entry.folder)) from exc
        except TrashError as exc:
            raise ValueError(str(exc)) from exc
        self._forget()
        return str(entry.folder)


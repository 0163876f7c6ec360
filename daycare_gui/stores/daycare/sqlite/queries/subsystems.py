"""Rows of the smaller subsystem tables (channels, signals, processes, expose, system prompts) for display.

One shape, :class:`RowSet`, serves every read-only subsystem pane whether the rows come from ``daycare.db`` or,
for a store without a database, from the legacy files Daycare used before (``core/files/subsystems.py``).
Values are display-safe: JSON columns are parsed, and columns in ``SENSITIVE_COLUMNS`` are masked here, so a
view never holds a process's environment or an endpoint's password hash. The text filter runs in SQL and
never searches masked columns (a filter must not become a way to guess a secret).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.records.json_values import Unparsed, parse_json_text
from daycare_gui.stores.daycare.sqlite.queries.columns import TableColumns
from daycare_gui.stores.daycare.sqlite.queries.names import Names, names_for_rows
from daycare_gui.stores.daycare.sqlite.queries.tables import JSON_COLUMNS, SENSITIVE_COLUMNS, page_rows
from daycare_gui.stores.masking import MASK, mask_secrets

DEFAULT_LIMIT = 5000

# ``core.files`` is imported inside the functions below, which run on the DB worker: importing it here would
# let the GUI thread (importing a pane) and the worker (``store.files()``) import the same package at the same
# time, which CPython's import locks do not always survive (KeyError: 'daycare_gui.stores.daycare.files').


@dataclass(frozen=True)
class ShownRow:
    """One row ready to show: ``values`` keyed by column (JSON parsed, secrets masked)."""

    source: str  # "daycare.db#channels" or the file the row came from
    key: Any  # rowid for a table, a path (and index) for a file
    values: dict
    problems: tuple[str, ...] = ()

    @property
    def id(self):  # what the list models use as the row's key
        return self.key


@dataclass(frozen=True)
class RowSet:
    source: str  # "database" | "files" | "none"
    table: str
    columns: tuple[str, ...]
    rows: tuple[ShownRow, ...]
    total: int  # rows matching the filter (may exceed len(rows) when truncated)
    note: str = ""  # what the user should know about where these rows come from
    problems: tuple[str, ...] = field(default=())
    names: Names = field(default_factory=Names)  # display names of the user and agent ids in the rows

    @property
    def truncated(self) -> bool:
        return self.total > len(self.rows)


# -- masking and parsing ------------------------------------------------------------------------------------


def _mask_sensitive(table: str, column: str, value: Any) -> Any:
    if isinstance(value, Unparsed):
        return MASK if value.raw else value.raw
    if value is None:
        return None
    # Every string in a process env may be a credential; endpoint auth keeps its shape with the hash masked.
    return mask_secrets(value, all_strings=(table, column) == ("processes", "env"))


def shown_db_row(table: str, rowid: int, values: dict) -> ShownRow:
    """JSON columns show the stored JSON (parsed, keys as Daycare wrote them); the typed parsers only decide
    whether a value is one Daycare can read, and their complaints become the row's problems."""
    parsers = JSON_COLUMNS.get(table, {})
    out: dict = {}
    problems: list[str] = []
    for column, value in values.items():
        sensitive = (table, column) in SENSITIVE_COLUMNS
        if column in parsers:
            typed = parsers[column](value)
            if isinstance(typed, Unparsed) and value is not None:
                problems.append(f"{table} row {rowid}: {column} {typed.reason}")
            stored = parse_json_text(value, allow_null=True)
            if sensitive:
                out[column] = _mask_sensitive(table, column, stored)
            else:
                out[column] = stored.raw if isinstance(stored, Unparsed) else stored
        elif sensitive:
            out[column] = MASK if value not in (None, "") else value
        else:
            out[column] = value
    return ShownRow(f"daycare.db#{table}", rowid, out, tuple(problems))


# -- database tables ---------------------------------------------------------------------------------------


def _searchable(table: str, columns: list[str]) -> list[str]:
    return [c for c in columns if (table, c) not in SENSITIVE_COLUMNS]


def db_rows(db: ReadOnlyDatabase, table: str, *, text: str = "", where: dict | None = None,
            order_by: str | None = None, limit: int = DEFAULT_LIMIT, after_rowid: int | None = None,
            cols: TableColumns | None = None) -> RowSet:
    """Rows of ``table`` matching ``text`` (case-insensitive, any non-secret column) and ``where`` (equality).

    ``after_rowid`` pages by key through a table in rowid order: the rows after the last one held, without
    counting the matches again (``total`` is then 0; the first page told it)."""
    cols = cols or TableColumns(db)
    if not cols.has_table(table):
        return RowSet("none", table, (), (), 0, f"this database has no {table} table")
    columns = cols.of(table)
    clauses, params = [], {"n": limit}
    for i, (column, value) in enumerate((where or {}).items()):
        if column not in columns:
            raise ValueError(f"{table} has no column {column!r}")
        clauses.append(f'"{column}" = :w{i}')
        params[f"w{i}"] = value
    if text.strip():
        searched = " OR ".join(f'instr(lower(CAST("{c}" AS TEXT)), :t) > 0' for c in _searchable(table, columns))
        clauses.append(f"({searched})")
        params["t"] = text.strip().lower()
    where_sql = f" WHERE {' AND '.join(clauses)}" if clauses else ""
    order = f'"{order_by}", rowid' if order_by in columns else "rowid"
    quoted = ", ".join(f'"{c}"' for c in columns)
    if after_rowid is not None:
        if order != "rowid":
            raise ValueError("paging by rowid needs rowid order")
        total = 0
        params["after"] = int(after_rowid)
        where_sql += (" AND " if where_sql else " WHERE ") + "rowid > :after"
    else:
        total = int(db.scalar(f'SELECT count(*) FROM "{table}"{where_sql}', params) or 0)
    rows = db.rows(f'SELECT rowid, {quoted} FROM "{table}"{where_sql} ORDER BY {order} LIMIT :n', params)
    shown = tuple(shown_db_row(table, r[0], dict(zip(columns, r[1:]))) for r in rows)
    problems = tuple(p for row in shown for p in row.problems)
    return RowSet("database", table, tuple(columns), shown, total, "", problems)


def _named(store, rowset: RowSet) -> RowSet:
    return replace(rowset, names=names_for_rows(store, rowset.rows)) if rowset.rows else rowset


# -- legacy files (a store without a database) -----------------------------------------------------------------


def _matches(row: ShownRow, text: str) -> bool:
    needle = text.strip().lower()
    return not needle or needle in json.dumps(row.values, ensure_ascii=False, default=str).lower()


def _file_rowset(table: str, columns: tuple[str, ...], rows: list[ShownRow], text: str, limit: int,
                 note: str) -> RowSet:
    kept = [r for r in rows if _matches(r, text)]
    return RowSet("files", table, columns, tuple(kept[:limit]), len(kept), note)


def _legacy_channels(inventory) -> tuple[tuple[str, ...], list[ShownRow]]:
    columns = ("id", "name", "leader", "members", "messages", "created_at", "updated_at", "folder")
    rows = [ShownRow(c.path, c.folder, {"id": c.id, "name": c.name, "leader": c.leader, "members": len(c.members),
                                        "messages": c.history.records if c.history else 0,
                                        "created_at": c.created_at, "updated_at": c.updated_at,
                                        "folder": c.folder, "raw": c.raw},
                     (f"Daycare's import skips it: {c.skip_reason}",) if c.skip_reason else ())
            for c in inventory.items("channels")]
    return columns, rows


def _legacy_delayed(inventory) -> tuple[tuple[str, ...], list[ShownRow]]:
    columns = ("id", "type", "deliver_at", "source", "data", "repeat_key", "created_at", "updated_at")
    rows = [ShownRow(d.path, (d.path, d.index), {"id": d.id, "type": d.type, "deliver_at": d.deliver_at,
                                                 "source": d.source, "data": d.data, "repeat_key": d.repeat_key,
                                                 "created_at": d.created_at, "updated_at": d.updated_at})
            for d in inventory.items("delayed_signals")]
    return columns, rows


def _legacy_processes(inventory) -> tuple[tuple[str, ...], list[ShownRow]]:
    columns = ("id", "name", "command", "cwd", "status", "desired_state", "pid", "keep_alive", "importable", "folder")
    rows = []
    for p in inventory.items("processes"):
        values = {"id": p.id, "name": p.name, "command": p.command, "cwd": p.cwd, "status": p.status,
                  "desired_state": p.desired_state, "pid": p.pid, "keep_alive": p.keep_alive,
                  "importable": p.importable, "folder": p.folder, "raw": p.raw}  # raw is masked by the reader
        rows.append(ShownRow(p.path, p.folder, values,
                             (f"Daycare's import skips it: {p.skip_reason}",) if p.skip_reason else ()))
    return columns, rows


def _legacy_expose(inventory) -> tuple[tuple[str, ...], list[ShownRow]]:
    columns = ("id", "provider", "domain", "mode", "target", "auth", "created_at", "updated_at")
    rows = [ShownRow(e.path, e.path, {"id": e.id, "provider": e.provider, "domain": e.domain, "mode": e.mode,
                                      "target": e.target, "auth": e.auth, "created_at": e.created_at,
                                      "updated_at": e.updated_at},
                     (f"Daycare's import skips it: {e.skip_reason}",) if e.skip_reason else ())
            for e in inventory.items("expose_endpoints")]
    return columns, rows


def _legacy_events(store, limit: int) -> tuple[tuple[str, ...], list[ShownRow]]:
    from daycare_gui.stores.daycare.files.subsystems import iter_signal_events, signal_event_files

    columns = ("id", "type", "source", "user_id", "data", "created_at", "line")
    rows: list[ShownRow] = []
    for path in signal_event_files(store.paths):
        for ev in iter_signal_events(path, None, root=store.paths):
            rows.append(ShownRow(str(path), (str(path), ev.line), {
                "id": ev.id, "type": ev.type, "source": ev.source, "user_id": ev.user_id, "data": ev.data,
                "created_at": ev.created_at, "line": ev.line}))
            if len(rows) >= limit * 4:  # a filter narrows in Python: keep reading a bounded amount
                return columns, rows
    return columns, rows


_LEGACY = {
    "channels": lambda store, limit: _legacy_channels(store.files()),
    "signals_delayed": lambda store, limit: _legacy_delayed(store.files()),
    "signals_events": _legacy_events,
    "processes": lambda store, limit: _legacy_processes(store.files()),
    "expose_endpoints": lambda store, limit: _legacy_expose(store.files()),
}


def subsystem_rows(store, table: str, *, text: str = "", limit: int = DEFAULT_LIMIT,
                   after_rowid: int | None = None) -> RowSet:
    """Rows of ``table`` from the database (a page after ``after_rowid``, see :func:`db_rows`), or from the
    legacy files when the store has no database (all of them up to ``limit``: files are not paged); the
    user and agent ids in them come with their display names (:class:`Names`)."""
    if store.db is not None:
        return _named(store, db_rows(store.db, table, text=text, limit=limit, after_rowid=after_rowid,
                                     cols=store.cols))
    if after_rowid is not None:
        return RowSet("files", table, (), (), 0)
    reader = _LEGACY.get(table)
    if reader is None:
        return RowSet("none", table, (), (), 0, "this store has no database, and these were never kept in files")
    columns, rows = reader(store, limit)
    return _file_rowset(table, columns, rows, text, limit,
                        "No database: showing the legacy files Daycare kept before it used SQLite")


# -- channels: members and messages of one channel ------------------------------------------------------------


@dataclass(frozen=True)
class ChannelContents:
    members: RowSet
    messages: RowSet


def channel_contents(store, channel: ShownRow, *, limit: int = DEFAULT_LIMIT) -> ChannelContents:
    """Members and messages of a channel row returned by :func:`subsystem_rows` (database or files)."""
    if channel.source.startswith("daycare.db#"):
        channel_id = channel.values.get("id")
        members = db_rows(store.db, "channel_members", where={"channel_id": channel_id}, order_by="joined_at",
                          limit=limit, cols=store.cols)
        messages = db_rows(store.db, "channel_messages", where={"channel_id": channel_id}, order_by="created_at",
                           limit=limit, cols=store.cols)
        return ChannelContents(_named(store, members), _named(store, messages))
    from daycare_gui.stores.daycare.files.subsystems import iter_channel_messages

    folder = Path(str(channel.values.get("folder", "")))
    raw = channel.values.get("raw") or {}
    member_cols = ("agent_id", "username", "joined_at")
    member_rows = []
    for i, m in enumerate(raw.get("members") if isinstance(raw.get("members"), list) else []):
        if isinstance(m, dict):
            member_rows.append(ShownRow(channel.source, (channel.source, i),
                                        {"agent_id": m.get("agentId"), "username": m.get("username"),
                                         "joined_at": m.get("joinedAt")}))
    message_cols = ("id", "sender_username", "text", "mentions", "created_at", "line")
    message_rows = []
    history = folder / "history.jsonl"
    if history.is_file():
        for msg in iter_channel_messages(history, None, root=store.paths):
            message_rows.append(ShownRow(str(history), (str(history), msg.line), {
                "id": msg.id, "sender_username": msg.sender_username, "text": msg.text,
                "mentions": list(msg.mentions), "created_at": msg.created_at, "line": msg.line}))
            if len(message_rows) >= limit:
                break
    note = "from the channel's legacy files"
    return ChannelContents(
        RowSet("files", "channel_members", member_cols, tuple(member_rows), len(member_rows), note),
        RowSet("files", "channel_messages", message_cols, tuple(message_rows), len(message_rows), note))


# -- Storage's table browser ------------------------------------------------------------------------------------


def page_shown_rows(db: ReadOnlyDatabase, table: str, *, after_rowid: int | None = None, limit: int = 500,
                    cols: TableColumns | None = None) -> list[ShownRow]:
    """One page of any table by rowid, display-safe (``page_rows`` with JSON parsed and secrets masked)."""
    return [shown_db_row(table, r.rowid, r.values)
            for r in page_rows(db, table, after_rowid=after_rowid, limit=limit, cols=cols)]

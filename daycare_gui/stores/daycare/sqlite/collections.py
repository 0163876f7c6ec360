"""Daycare's lists (inbox, channels, signals, processes, expose, system prompts, apps) as shared Collections.

The rows come from the queries the Daycare-only panes used (``core.queries.inbox``/``inbox_overview``,
``core.queries.subsystems``) and from the apps' files; filters run in SQL and the list is keyed (rowids,
inbox ids), so a table of 100,000 rows gives its keys at once and only the rows shown are read. Values
that may be secrets (a process's environment, an endpoint's auth) are masked by those queries before they
get here, and the text filter never searches them.
"""

from __future__ import annotations

import json
import time
from typing import Any

from daycare_gui.stores.api import (
    Collections,
    Listing,
    StoreAction,
    WriteConflict,
    WriteRefused,
    row_matches,
)
from daycare_gui.stores.daycare.sqlite.app_rows import (
    APP_COLUMNS,
    app_actions,
    app_row,
    create_app,
    new_app_fields,
    run_app_action,
)
from daycare_gui.stores.records import Collection, FilterSpec, Link, Query, Row

# id → (title, table, columns when the store has no database (legacy files), key column for a link)
TABLE_LISTS: dict[str, tuple[str, str]] = {
    "channels": ("Channels", "channels"),
    "signals": ("Signal events", "signals_events"),
    "subscriptions": ("Signal subscriptions", "signals_subscriptions"),
    "delayed": ("Delayed signals", "signals_delayed"),
    "processes": ("Processes", "processes"),
    "expose": ("Expose endpoints", "expose_endpoints"),
    "system_prompts": ("System prompts", "system_prompts"),
}
DETAILS: dict[str, tuple[str, str, str]] = {  # child id → (title, table, order column)
    "channel_messages": ("Messages", "channel_messages", "created_at"),
    "channel_members": ("Members", "channel_members", "joined_at"),
}
INBOX_COLUMNS = ("Posted", "Age", "State", "Kind", "Agent", "Summary")
# Column orders the legacy files give (no database: the columns the old files hold)
LEGACY_COLUMNS = {
    "channels": ("id", "name", "leader", "members", "messages", "created_at", "updated_at", "folder"),
    "delayed": ("id", "type", "deliver_at", "source", "data", "repeat_key", "created_at", "updated_at"),
    "signals": ("id", "type", "source", "user_id", "data", "created_at", "line"),
    "processes": ("id", "name", "command", "cwd", "status", "desired_state", "pid", "keep_alive", "importable",
                  "folder"),
    "expose": ("id", "provider", "domain", "mode", "target", "auth", "created_at", "updated_at"),
    "channel_members": ("agent_id", "username", "joined_at"),
    "channel_messages": ("id", "sender_username", "text", "mentions", "created_at", "line"),
}


def fmt_age(ms: int) -> str:
    """An age in words a person reads at a glance: "9d", "3h 5m", "42s"."""
    s = max(0, int(ms) // 1000)
    for unit, size, sub, sub_size in (("d", 86400, "h", 3600), ("h", 3600, "m", 60), ("m", 60, "s", 1)):
        if s >= size:
            rest = (s % size) // sub_size
            return f"{s // size}{unit} {rest}{sub}" if rest else f"{s // size}{unit}"
    return f"{s}s"


def _cell(value: Any) -> Any:
    """A parsed JSON value as one line of compact JSON; everything else as stored."""
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return value


class DaycareLists(Collections, Listing):
    """The lists of a Daycare store opened through ``core.store.Store`` (SQLite, or legacy files)."""

    # "now" for ages and stuck flags: a class attribute so tests can pin it to a store's own time
    clock = staticmethod(lambda: int(time.time() * 1000))

    def __init__(self, core) -> None:
        self.core = core
        self._columns: dict[str, tuple[str, ...]] = {}

    # -- which lists --------------------------------------------------------------------------------------
    def _table_of(self, cid: str) -> str | None:
        if cid in TABLE_LISTS:
            return TABLE_LISTS[cid][1]
        if cid in DETAILS:
            return DETAILS[cid][1]
        return None

    def columns_of(self, cid: str) -> tuple[str, ...]:
        if cid == "inbox":
            return INBOX_COLUMNS
        if cid == "apps":
            return APP_COLUMNS
        if cid not in self._columns:
            table, db = self._table_of(cid), self.core.db
            if db is not None:
                self._columns[cid] = tuple(self.core.cols.of(table)) if self.core.has_table(table) else ()
            else:
                self._columns[cid] = LEGACY_COLUMNS.get(cid, ())
        return self._columns[cid]

    def collections(self) -> list[Collection]:
        db = self.core.db
        out = []
        if db is not None and self.core.has_table("inbox"):
            out.append(Collection("inbox", "Inbox", INBOX_COLUMNS, icon="mail-message"))
        for cid, (title, table) in TABLE_LISTS.items():
            if (db is not None and self.core.has_table(table)) or (db is None and cid in LEGACY_COLUMNS):
                details = tuple(DETAILS) if cid == "channels" else ()
                out.append(Collection(cid, title, self.columns_of(cid), details=details,
                                      group="Signals" if table.startswith("signals_") else ""))
        if out and any(c.id == "channels" for c in out):
            for cid, (title, _table, _order) in DETAILS.items():
                out.append(Collection(cid, title, self.columns_of(cid), detail=True))
        out.append(Collection("apps", "Apps", APP_COLUMNS, icon="applications-other"))
        return out

    def list_columns(self, list_id: str) -> tuple[str, ...]:
        return self.columns_of(list_id)

    # -- filters and totals -----------------------------------------------------------------------------
    def filters(self, list_id: str) -> tuple[FilterSpec, ...]:
        if list_id != "inbox":
            return ()
        from daycare_gui.stores.daycare.sqlite.queries.inbox import STUCK_AFTER_MS
        from daycare_gui.stores.daycare.sqlite.queries.inbox_overview import inbox_agents

        agents = inbox_agents(self.core.db, self.clock(), cols=self.core.cols)
        return (FilterSpec("agent", "Agent", "choice", tuple((a.agent_id, a.label) for a in agents)),
                FilterSpec("stuck", f"Stuck only (waiting longer than {STUCK_AFTER_MS // 60000} minutes)", "flag"))

    def totals(self, list_id: str, query: Query) -> dict[str, int]:
        if list_id == "inbox":
            from daycare_gui.stores.daycare.sqlite.queries.inbox import inbox_totals

            items, stuck = inbox_totals(self.core.db, self.clock(), self._inbox_filter(query), cols=self.core.cols)
            return {"items": items, "stuck": stuck}
        return super().totals(list_id, query) if self.core.db is None or list_id == "apps" else {}

    def _inbox_filter(self, query: Query):
        from daycare_gui.stores.daycare.sqlite.queries.inbox import InboxFilter

        return InboxFilter(query.choice("agent") or None, query.text, "stuck" in query.flags)

    # -- keys and rows ------------------------------------------------------------------------------------
    def keys(self, list_id: str, query: Query) -> list[str]:
        db = self.core.db
        if db is None and list_id in DETAILS:
            return [r.key for r in self._legacy_details(list_id, query.parent)
                    if row_matches(r, Query(text=query.text))]
        if list_id == "apps" or db is None:
            return super().keys(list_id, query)
        if list_id == "inbox":
            where, params = self._inbox_filter(query).where(self.clock(), self.core.cols)
            return [r[0] for r in db.rows(f"SELECT id FROM inbox{where} ORDER BY posted_at, id", params)]
        table = self._table_of(list_id)
        if table is None or not self.core.has_table(table):
            return []
        where, params = self._where(list_id, table, query)
        order = "rowid"
        if list_id in DETAILS and DETAILS[list_id][2] in self.columns_of(list_id):
            order = f'"{DETAILS[list_id][2]}", rowid'
        return [str(r[0]) for r in db.rows(f'SELECT rowid FROM "{table}"{where} ORDER BY {order}', params)]

    def _where(self, list_id: str, table: str, query: Query) -> tuple[str, dict]:
        from daycare_gui.stores.daycare.sqlite.queries.tables import SENSITIVE_COLUMNS

        clauses, params = [], {}
        if list_id in DETAILS:  # a channel's members or messages: the parent is the channel's rowid
            clauses.append("channel_id = (SELECT id FROM channels WHERE rowid = :p)")
            params["p"] = int(query.parent) if str(query.parent or "").isdigit() else -1
        needle = query.text.strip().lower()
        if needle:  # never in a masked column: a filter must not become a way to guess a secret
            searched = [c for c in self.columns_of(list_id) if (table, c) not in SENSITIVE_COLUMNS]
            clauses.append("(" + " OR ".join(f'instr(lower(CAST("{c}" AS TEXT)), :t) > 0' for c in searched) + ")")
            params["t"] = needle
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params

    def fetch(self, list_id: str, keys: list[str]) -> list[Row]:
        db = self.core.db
        if db is None and list_id in DETAILS:
            parents = {k.split("|", 1)[0] for k in keys}
            rows = {r.key: r for p in parents for r in self._legacy_details(list_id, p)}
            return [rows[k] for k in keys if k in rows]
        if list_id == "apps" or db is None:
            return super().fetch(list_id, keys)
        if list_id == "inbox":
            return self._inbox_rows(keys)
        from daycare_gui.stores.daycare.sqlite.queries.names import names_for_rows
        from daycare_gui.stores.daycare.sqlite.queries.subsystems import shown_db_row

        table = self._table_of(list_id)
        columns = self.columns_of(list_id)
        if table is None or not columns or not keys:
            return []
        rowids = [int(k) for k in keys if str(k).isdigit()]
        marks = ", ".join(f":k{i}" for i in range(len(rowids)))
        quoted = ", ".join(f'"{c}"' for c in columns)
        found = db.rows(f'SELECT rowid, {quoted} FROM "{table}" WHERE rowid IN ({marks})',
                        {f"k{i}": k for i, k in enumerate(rowids)})
        shown = {str(r[0]): shown_db_row(table, r[0], dict(zip(columns, r[1:]))) for r in found}
        names = names_for_rows(self.core, list(shown.values()))
        return [self._row(list_id, shown[k], names) for k in keys if k in shown]

    def _row(self, list_id: str, shown, names) -> Row:
        values = []
        for column in self.columns_of(list_id):
            value = shown.values.get(column)
            label = names.of_column(column, value) if names is not None else None
            values.append(label or _cell(value))
        prompt = shown.values.get("prompt") if list_id == "system_prompts" else None
        return Row(str(shown.key), tuple(values), raw={**shown.values, "read from": shown.source},
                   markdown=prompt if isinstance(prompt, str) else None,
                   problem="; ".join(shown.problems) or None)

    def _inbox_rows(self, keys: list[str]) -> list[Row]:
        from daycare_gui.stores.daycare.records.json_values import parse_json_text
        from daycare_gui.stores.daycare.records.subsystems import InboxItem
        from daycare_gui.stores.daycare.sqlite.queries.inbox import STUCK_AFTER_MS
        from daycare_gui.stores.daycare.sqlite.queries.inbox_overview import _agent_names

        if not keys:
            return []
        marks = ", ".join(f":k{i}" for i in range(len(keys)))
        rows = self.core.db.rows(f"SELECT id, agent_id, posted_at, type, data FROM inbox WHERE id IN ({marks})",
                                 {f"k{i}": k for i, k in enumerate(keys)})
        items = {r[0]: InboxItem(r[0], r[1], r[2], r[3], parse_json_text(r[4])) for r in rows}
        names = _agent_names(self.core.db, sorted({i.agent_id for i in items.values()}), self.core.cols)
        now, out = self.clock(), []
        for key in keys:
            item = items.get(key)
            if item is None:
                continue
            stuck = item.posted_at < now - STUCK_AFTER_MS
            agent = names.get(item.agent_id) or f"{item.agent_id} (no such agent)"
            raw = item.payload if isinstance(item.payload, dict) else {"data": item.payload}
            out.append(Row(item.id, (item.posted_at, fmt_age(now - item.posted_at), "stuck" if stuck else "waiting",
                                     item.type, agent, item.summary()),
                           raw=raw, flag="stuck" if stuck else "",
                           links=(Link("thread", item.agent_id, f"Open agent {agent}"),)))
        return out

    # -- the defaults' whole lists: apps, and every list of a store without a database ---------------------
    def list_rows(self, list_id: str) -> list[Row]:
        if list_id == "apps":
            from daycare_gui.stores.daycare.sqlite.queries.names import load_names

            names = load_names(self.core)
            return [app_row(app, names) for app in self.core.files().items("apps")]
        if self.core.db is not None:
            return []
        return self._legacy_rows(list_id)

    def _legacy_rows(self, list_id: str) -> list[Row]:
        from daycare_gui.stores.daycare.sqlite.queries.subsystems import subsystem_rows

        if list_id in DETAILS:
            return []  # asked through details_rows with the channel's key
        table = self._table_of(list_id)
        if table is None:
            return []
        rowset = subsystem_rows(self.core, table)
        return [Row(str(r.key), tuple(_cell(r.values.get(c)) for c in self.columns_of(list_id)),
                    raw={k: v for k, v in r.values.items() if k != "raw"} | {"read from": r.source},
                    problem="; ".join(r.problems) or None) for r in rowset.rows] if rowset.source == "files" else []

    def _legacy_details(self, list_id: str, parent: str | None) -> list[Row]:
        """A legacy channel's members or messages, read from its folder (the channel's key)."""
        from daycare_gui.stores.daycare.sqlite.queries.subsystems import channel_contents, subsystem_rows

        channel = next((r for r in subsystem_rows(self.core, "channels").rows if str(r.key) == str(parent)), None)
        if channel is None:
            return []
        contents = channel_contents(self.core, channel)
        rowset = contents.messages if list_id == "channel_messages" else contents.members
        return [Row(f"{parent}|{r.key}", tuple(_cell(r.values.get(c)) for c in self.columns_of(list_id)),
                    raw=dict(r.values) | {"read from": r.source}) for r in rowset.rows]

    # -- the base Collections, through the keys --------------------------------------------------------
    def size(self, collection_id: str) -> int:
        return len(self.keys(collection_id, Query()))

    def rows(self, collection_id: str, offset: int, limit: int) -> list[Row]:
        keys = self.keys(collection_id, Query())[max(0, offset): max(0, offset) + limit]
        return self.fetch(collection_id, keys)

    def row(self, collection_id: str, key: str) -> Row | None:
        found = self.fetch(collection_id, [key])
        return found[0] if found else None

    # -- Revoke grant… ------------------------------------------------------------------------------------
    def row_actions(self, collection_id: str, row: Row) -> tuple[StoreAction, ...]:
        return app_actions(self.core.paths, row) if collection_id == "apps" else ()

    def run_row_action(self, collection_id: str, row: Row, action_id: str, *, force: bool = False) -> str:
        if collection_id != "apps":
            raise WriteRefused("this row has no such action")
        return run_app_action(self.core.paths, row, action_id, force=force)

    # -- New app… ------------------------------------------------------------------------------------------
    def create_fields(self, collection_id: str) -> tuple:
        return new_app_fields(self.core.paths) if collection_id == "apps" else ()

    def create(self, collection_id: str, values: dict, *, force: bool = False) -> str:
        if collection_id != "apps":
            raise WriteRefused("this list takes no new rows")
        return create_app(self.core.paths, values, force=force)


__all__ = ["DaycareLists", "WriteConflict", "fmt_age"]

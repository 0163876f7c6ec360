"""Any table, paged by rowid, with its JSON columns parsed — for the smaller subsystem tables
(signals, channels, expose, processes, system prompts, tasks) and the Storage pane's table browser."""

from __future__ import annotations

from dataclasses import dataclass

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.records.agents import (
    parse_descriptor,
    parse_permissions,
    parse_stats,
    parse_tokens,
)
from daycare_gui.stores.daycare.records.json_values import Unparsed, parse_json_text
from daycare_gui.stores.daycare.records.subsystems import (
    parse_expose_target,
    parse_signal_source,
    parse_string_list,
)
from daycare_gui.stores.daycare.sqlite.queries.columns import TableColumns

# table → column → parser. Columns not listed are plain values.
JSON_COLUMNS = {
    "agents": {"descriptor": parse_descriptor, "permissions": parse_permissions, "tokens": parse_tokens,
               "stats": parse_stats},
    "session_history": {"data": parse_json_text},
    "inbox": {"data": parse_json_text},
    "signals_events": {"source": parse_signal_source, "data": lambda r: parse_json_text(r, allow_null=True)},
    "signals_delayed": {"source": parse_signal_source, "data": lambda r: parse_json_text(r, allow_null=True)},
    "channel_messages": {"mentions": parse_string_list},
    "expose_endpoints": {"target": parse_expose_target, "auth": lambda r: parse_json_text(r, allow_null=True)},
    "processes": {"env": parse_json_text, "package_managers": parse_string_list,
                  "allowed_domains": parse_string_list, "permissions": parse_permissions,
                  "owner": lambda r: parse_json_text(r, allow_null=True)},
}

# Values never shown unmasked (a process env may carry credentials; endpoint auth holds a hash).
SENSITIVE_COLUMNS = {("processes", "env"), ("expose_endpoints", "auth")}


@dataclass(frozen=True)
class TableRow:
    table: str
    rowid: int
    values: dict  # column → stored value
    parsed: dict  # JSON column → parsed value or Unparsed

    def problems(self) -> list[str]:
        return [f"{self.table} row {self.rowid}: {col} {v.reason}" for col, v in self.parsed.items()
                if isinstance(v, Unparsed)]


def _has_rowid(db: ReadOnlyDatabase, table: str) -> bool:
    sql = db.scalar("SELECT sql FROM sqlite_master WHERE type='table' AND name=:t", {"t": table}) or ""
    return "WITHOUT ROWID" not in sql.upper()


def page_rows(db: ReadOnlyDatabase, table: str, *, after_rowid: int | None = None, limit: int = 500,
              cols: TableColumns | None = None) -> list[TableRow]:
    cols = cols or TableColumns(db)
    if not cols.has_table(table):
        return []
    names = cols.of(table)
    quoted = ", ".join(f'"{c}"' for c in names)
    if _has_rowid(db, table):
        rows = db.rows(f'SELECT rowid, {quoted} FROM "{table}" WHERE rowid > :a ORDER BY rowid LIMIT :n',
                       {"a": -1 if after_rowid is None else after_rowid, "n": limit})
    else:
        offset = 0 if after_rowid is None else after_rowid + 1
        rows = [(offset + i, *r) for i, r in enumerate(db.rows(f'SELECT {quoted} FROM "{table}" LIMIT :n OFFSET :o',
                                                                {"n": limit, "o": offset}))]
    parsers = JSON_COLUMNS.get(table, {})
    out = []
    for r in rows:
        values = dict(zip(names, r[1:]))
        parsed = {c: parsers[c](values[c]) for c in parsers if c in values}
        out.append(TableRow(table, r[0], values, parsed))
    return out

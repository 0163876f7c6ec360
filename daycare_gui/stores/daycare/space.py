"""Daycare's space, for every generation: tables (SQLite ``dbstat``, PostgreSQL/PGlite
``pg_total_relation_size``), agents by the bytes of their sessions' history, and the folders beside the
store (agents' snapshots, skills, users' files, apps …).

Daycare never deletes history, sessions or signals, and its versioned rows only grow, so the advice says
what holds the bytes; no prune is offered: what may go is Daycare's to decide.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.common.space import (
    human,
    per_day,
    pg_tables,
    sqlite_file,
    sqlite_tables,
    subfolder_lines,
)
from daycare_gui.stores.records import SpaceLine, SpaceReport

HOLDERS = 50  # agents listed, largest first

# size(expr) is the byte length of the history record's JSON in each engine.
_AGENTS = """
SELECT s.agent_id, COUNT(DISTINCT h.session_id), COUNT(*), SUM({size}), MIN(h.at), MAX(h.at)
FROM session_history h JOIN sessions s ON s.id = h.session_id
GROUP BY s.agent_id ORDER BY 4 DESC LIMIT {limit}
"""


def _agents(fetch, size: str) -> list[SpaceLine]:
    out = []
    for agent, sessions, records, total, first, last in fetch(_AGENTS.format(size=size, limit=HOLDERS)):
        total = int(total or 0)
        first, last = (int(v) if isinstance(v, (int, float)) else None for v in (first, last))
        out.append(SpaceLine(str(agent), total, "agent", int(records),
                             f"{records:,} history records in {sessions:,} sessions", per_day(total, first, last)))
    return out


def _advise(report: SpaceReport) -> None:
    history = next((t for t in report.tables if t.name == "session_history"), None)
    if history is not None and report.total and history.bytes > report.total / 3:
        report.advice.append(f"session_history holds {human(history.bytes)} of {human(report.total)}: Daycare keeps "
                             "every record of every session; only Daycare's own tools should remove any.")
    if report.holders:
        top = report.holders[0]
        report.advice.append(f"Agent {top.name} holds {human(top.bytes)} of history ({top.detail}).")
    if report.free:
        report.advice.append(f"{human(report.free)} of free pages: a VACUUM with Daycare stopped would give them back.")
    agents = next((f for f in report.folders if f.name == "agents/"), None)
    if agents is not None and agents.bytes:
        report.advice.append(f"The agents/ folder takes {human(agents.bytes)} in {agents.count:,} files (snapshots of "
                             "Python runs among them); Daycare removes none of them.")


def sqlite_space(db, db_path: Path, root: Path | None, progress=None) -> SpaceReport:
    """``db``: the store's read-only SQLite reader (``fetch(sql)``)."""
    report = SpaceReport(holders_title="Agents")
    if progress:
        progress("measuring tables")
    report.tables, report.method = sqlite_tables(db.fetch)
    pages, report.free, report.wal = sqlite_file(db.fetch, db_path)
    report.total = pages + report.wal
    if {"session_history", "sessions"} <= set(db.tables()):
        if progress:
            progress("measuring agents")
        report.holders = _agents(db.fetch, "length(h.data)")
    report.folders = subfolder_lines(root)
    _advise(report)
    return report


def pg_space(db, data_dir: Path | None, database_folder: Path | None = None, progress=None) -> SpaceReport:
    """``db``: the store's PgDatabase (``rows(sql)``); ``data_dir``: the folder beside it, if any, and
    ``database_folder`` the PGlite folder in it (measured by the server, not again as a folder)."""
    report = SpaceReport(holders_title="Agents", method="pg_total_relation_size")
    if progress:
        progress("measuring tables")
    report.tables, report.total = pg_tables(db.rows)
    if {"session_history", "sessions"} <= set(db.tables()):
        if progress:
            progress("measuring agents")
        report.holders = _agents(db.rows, "pg_column_size(h.data)")
    report.folders = subfolder_lines(data_dir, skip=(database_folder.name,) if database_folder else ())
    _advise(report)
    return report

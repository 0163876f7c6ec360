"""Daycare's space, for every generation: tables (SQLite ``dbstat``, PostgreSQL/PGlite
``pg_total_relation_size``), agents by the bytes of their sessions' history, and the folders beside the
store (agents' snapshots, skills, users' files, apps …).

Daycare never deletes history, sessions or signals, and its versioned rows only grow, so the advice says
what holds the bytes; no prune is offered: what may go is Daycare's to decide.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.common import space_cache
from daycare_gui.stores.common.space import (
    per_day,
    pg_tables,
    sqlite_file,
    sqlite_tables,
    subfolder_lines,
)
from daycare_gui.stores.common.wording import byte_size
from daycare_gui.stores.records import SpaceLine, SpaceReport

HOLDERS = 50  # agents listed, largest first
SESSION_CHUNK = 1000  # sessions measured per statement: progress and Cancel between them

# size(expr) is the byte length of the history record's JSON in each engine.
_AGENTS = """
SELECT s.agent_id, COUNT(DISTINCT h.session_id), COUNT(*), SUM({size}), MIN(h.at), MAX(h.at)
FROM session_history h JOIN sessions s ON s.id = h.session_id
GROUP BY s.agent_id ORDER BY 4 DESC LIMIT {limit}
"""


def _agents(fetch, size: str) -> list[SpaceLine]:
    out = []
    for agent, sessions, records, total, first, last in fetch(_AGENTS.format(size=size, limit=HOLDERS)):
        out.append(_agent_line(agent, sessions, records, total, first, last))
    return out


def _agent_line(agent, sessions, records, total, first, last) -> SpaceLine:
    total = int(total or 0)
    first, last = (int(v) if isinstance(v, (int, float)) else None for v in (first, last))
    return SpaceLine(str(agent), total, "agent", int(records),
                     f"{records:,} history records in {sessions:,} sessions", per_day(total, first, last))


def _sqlite_agents(db, progress=None) -> list[SpaceLine]:
    """The same figures as ``_AGENTS``, read session by session through the history's session index (a range
    of ``SESSION_CHUNK`` sessions a statement, so progress is told and Cancel heard between them) and summed
    per agent here: one pass in the index's order, no join or sort of a million rows."""
    owner = dict(db.fetch("SELECT id, agent_id FROM sessions ORDER BY id"))
    ids = list(owner)  # (in SQLite's order, the one its range comparisons below use)
    agents: dict[str, list] = {}
    for start in range(0, len(ids), SESSION_CHUNK):
        if progress:
            progress(f"measuring agents: {start * 100 // max(len(ids), 1)}%")
        last = ids[min(start + SESSION_CHUNK, len(ids)) - 1]
        for session, records, size, first, at in db.fetch(
                "SELECT session_id, COUNT(*), SUM(length(data)), MIN(at), MAX(at) FROM session_history "
                "WHERE session_id >= :a AND session_id <= :b GROUP BY session_id", {"a": ids[start], "b": last}):
            agent = owner.get(session)
            if agent is None:  # (a session id outside the table's: the join left it out too)
                continue
            acc = agents.get(agent)
            if acc is None:
                agents[agent] = [1, records, size or 0, first, at]
                continue
            acc[0] += 1
            acc[1] += records
            acc[2] += size or 0
            acc[3] = first if acc[3] is None or (first is not None and first < acc[3]) else acc[3]
            acc[4] = at if acc[4] is None or (at is not None and at > acc[4]) else acc[4]
    ranked = sorted(agents.items(), key=lambda kv: (-kv[1][2], kv[0]))[:HOLDERS]
    return [_agent_line(agent, *acc) for agent, acc in ranked]


def _advise(report: SpaceReport) -> None:
    history = next((t for t in report.tables if t.name == "session_history"), None)
    if history is not None and report.total and history.bytes > report.total / 3:
        report.advice.append(f"session_history holds {byte_size(history.bytes)} of {byte_size(report.total)}: Daycare keeps "
                             "every record of every session; only Daycare's own tools should remove any.")
    if report.holders:
        top = report.holders[0]
        report.advice.append(f"Agent {top.name} holds {byte_size(top.bytes)} of history ({top.detail}).")
    if report.free:
        report.advice.append(f"{byte_size(report.free)} of free pages: a VACUUM with Daycare stopped would give them back.")
    agents = next((f for f in report.folders if f.name == "agents/"), None)
    if agents is not None and agents.bytes:
        report.advice.append(f"The agents/ folder takes {byte_size(agents.bytes)} in {agents.count:,} files (snapshots of "
                             "Python runs among them); Daycare removes none of them.")


def sqlite_space(db, db_path: Path, root: Path | None, progress=None, *, quick: bool = False,
                 cache_folder: Path | None = None) -> SpaceReport:
    """``db``: the store's read-only SQLite reader (``fetch(sql)``). What the database holds (tables, free
    pages, the log, agents) is kept per store fingerprint (``space_cache``) and reused while nothing was
    committed; folders are walked each time. ``quick``: the agents only if kept, else ``holders_pending``."""
    kept, fingerprint = space_cache.load(Path(db_path), cache_folder)
    report = SpaceReport(holders_title="Agents")
    tables = space_cache.lines_from_json(kept.get("tables", None) or [])
    if kept.get("method") and tables is not None and "total" in kept:
        report.tables, report.method = tables, kept["method"]
        report.total, report.free, report.wal = kept["total"], kept["free"], kept["wal"]
    else:
        if progress:
            progress("measuring tables")
        report.tables, report.method = sqlite_tables(db.fetch)
        pages, report.free, report.wal = sqlite_file(db.fetch, db_path)
        report.total = pages + report.wal
        space_cache.save(Path(db_path), fingerprint, {"tables": space_cache.lines_to_json(report.tables),
                                                 "method": report.method, "total": report.total,
                                                 "free": report.free, "wal": report.wal}, cache_folder)
    if {"session_history", "sessions"} <= set(db.tables()):
        holders = space_cache.lines_from_json(kept["agents"]) if isinstance(kept.get("agents"), list) else None
        if holders is not None:
            report.holders = holders
        elif quick:
            report.holders_pending = True
        else:
            if progress:
                progress("measuring agents")
            report.holders = _sqlite_agents(db, progress)
            space_cache.save(Path(db_path), fingerprint, {"agents": space_cache.lines_to_json(report.holders)},
                             cache_folder)
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

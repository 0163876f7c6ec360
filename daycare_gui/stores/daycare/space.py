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
    folder_size,
    per_day,
    pg_tables,
    sqlite_file,
    sqlite_tables,
    subfolder_lines,
)
from daycare_gui.stores.common.wording import byte_size
from daycare_gui.stores.records import SpaceLine, SpaceReport
from daycare_gui.stores.records.activity import whole_ms

HOLDERS = 50  # agents listed, largest first
SESSION_CHUNK = 1000  # sessions measured per statement: progress and Cancel between them
HISTORY_CHUNK = 100_000  # history record ids measured per statement on PostgreSQL/PGlite

# A record's time as SQLite's MIN and MAX should see it: a number, or none. (SQLite keeps what it is given: a
# time stored as text sorts above every number, so one such record was a session's "last" time.)
_SQLITE_TIME = "CASE WHEN typeof(at) IN ('integer', 'real') THEN at END"


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
                     f"{records:,} history record{'' if records == 1 else 's'} in {sessions:,} "
                     f"session{'' if sessions == 1 else 's'}", per_day(total, first, last))


def _sqlite_agents(db, progress=None) -> list[SpaceLine]:
    """The same figures as ``_AGENTS``, read session by session through the history's session index (a range
    of ``SESSION_CHUNK`` sessions a statement, so progress is told and Cancel heard between them) and summed
    per agent here: one pass in the index's order, no join or sort of a million rows."""
    owner = dict(db.fetch("SELECT id, agent_id FROM sessions ORDER BY id"))
    ids = list(owner)  # (in SQLite's order, the one its range comparisons below use)
    sessions: dict = {}
    for start in range(0, len(ids), SESSION_CHUNK):
        if progress:
            progress(f"measuring agents: {start * 100 // max(len(ids), 1)}%")
        last = ids[min(start + SESSION_CHUNK, len(ids)) - 1]
        _add_sessions(sessions, db.fetch(
            f"SELECT session_id, COUNT(*), SUM(length(data)), MIN({_SQLITE_TIME}), MAX({_SQLITE_TIME}) FROM session_history "
            "WHERE session_id >= :a AND session_id <= :b GROUP BY session_id", {"a": ids[start], "b": last}))
    return _by_agent(sessions, owner)


def _pg_agents(db, progress=None) -> list[SpaceLine]:
    """``_AGENTS`` on PostgreSQL/PGlite, in ranges of ``HISTORY_CHUNK`` record ids through the primary key
    (Daycare's schema has no index on the history's session id, so a range of sessions would read the whole
    table each time): one pass over the history in steps, progress told and Cancel heard between them, each
    step's per-session sums merged here and summed per agent at the end. A history whose ids are not
    integers is measured in the one statement instead."""
    [(low, high)] = db.rows("SELECT MIN(id), MAX(id) FROM session_history")
    if low is None:
        return []
    if not isinstance(low, int) or not isinstance(high, int):
        return _agents(db.rows, "pg_column_size(h.data)")
    sessions: dict = {}
    span = high - low + 1
    for start in range(low, high + 1, HISTORY_CHUNK):
        if progress:
            progress(f"measuring agents: {(start - low) * 100 // span}%")
        _add_sessions(sessions, db.rows(
            "SELECT session_id, COUNT(*), SUM(pg_column_size(data)), MIN(at), MAX(at) FROM session_history "
            "WHERE id >= :a AND id < :b GROUP BY session_id", {"a": start, "b": start + HISTORY_CHUNK}))
    owner = dict(db.rows("SELECT id, agent_id FROM sessions"))
    return _by_agent(sessions, owner)


def _add_sessions(sessions: dict, rows) -> None:
    """Merge rows of (session, records, bytes, first at, last at) into ``sessions`` (on PostgreSQL a
    session may come in more than one step). A time that is not a number counts as none."""
    for session, records, size, first, at in rows:
        first, at = whole_ms(first), whole_ms(at)
        acc = sessions.get(session)
        if acc is None:
            sessions[session] = [int(records), int(size or 0), first, at]
            continue
        acc[0] += int(records)
        acc[1] += int(size or 0)
        acc[2] = first if acc[2] is None or (first is not None and first < acc[2]) else acc[2]
        acc[3] = at if acc[3] is None or (at is not None and at > acc[3]) else acc[3]


def _by_agent(sessions: dict, owner: dict) -> list[SpaceLine]:
    """Per agent (the ``HOLDERS`` largest): its sessions, records, bytes, first and last record time."""
    agents: dict[str, list] = {}
    for session, (records, size, first, at) in sessions.items():
        agent = owner.get(session)
        if agent is None:  # (a session id outside the table's: the join left it out too)
            continue
        acc = agents.get(agent)
        if acc is None:
            agents[agent] = [1, records, size, first, at]
            continue
        acc[0] += 1
        acc[1] += records
        acc[2] += size
        acc[3] = first if acc[3] is None or (first is not None and first < acc[3]) else acc[3]
        acc[4] = at if acc[4] is None or (at is not None and at > acc[4]) else acc[4]
    ranked = sorted(agents.items(), key=lambda kv: (-kv[1][2], kv[0]))[:HOLDERS]
    return [_agent_line(agent, *acc) for agent, acc in ranked]


WAL_ADVICE = 16 << 20  # a write-ahead log this large is worth a sentence


def _advise(report: SpaceReport, *, postgres: bool = False) -> None:
    """What to do about the largest holders and what it costs, one sentence each (Daycare itself never
    deletes history, so for most of it the honest advice is where the growth is, and who may remove it)."""
    history = next((t for t in report.tables if t.name == "session_history"), None)
    if history is not None and report.total and history.bytes > report.total / 3:
        report.advice.append(f"session_history holds {byte_size(history.bytes)} of {byte_size(report.total)}: Daycare keeps "
                             "every record of every session and never removes one; removing rows from outside would "
                             "cost the sessions they belong to, so leave it to Daycare's own tools and plan for it "
                             "to keep growing.")
    if report.holders:
        top = report.holders[0]
        growth = f", growing about {byte_size(top.per_day)} a day" if top.per_day else ""
        report.advice.append(f"Agent {top.name} holds {byte_size(top.bytes)} of history ({top.detail}){growth}, the "
                             "most of any agent: it is where the store grows.")
    if report.free:
        report.advice.append(f"A VACUUM with Daycare stopped gives back the {byte_size(report.free)} of free pages; it "
                             f"rewrites the whole file, which needs about {byte_size(report.total - report.free)} of "
                             "free disk while it runs.")
    if report.wal and report.wal >= WAL_ADVICE:
        report.advice.append(
            f"The write-ahead log takes {byte_size(report.wal)}: "
            + ("PostgreSQL removes or recycles its segments after its checkpoints and keeps some for reuse; never "
               "delete files in pg_wal by hand: it costs the database." if postgres else
               "SQLite folds it back into the database at a checkpoint; stopping Daycare cleanly gives it back, "
               "at no cost."))
    agents = next((f for f in report.folders if f.name == "agents/"), None)
    if agents is not None and agents.bytes:
        report.advice.append(f"The agents/ folder takes {byte_size(agents.bytes)} in {agents.count:,} files (snapshots of "
                             "Python runs among them); Daycare removes none of them, and daycare-gui leaves them "
                             "to Daycare.")


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
        if _agents_kept_or_measured(report, kept, quick, progress, lambda: _sqlite_agents(db, progress)):
            space_cache.save(Path(db_path), fingerprint, {"agents": space_cache.lines_to_json(report.holders)},
                             cache_folder)
    report.folders = subfolder_lines(root)
    _advise(report)
    return report


def _agents_kept_or_measured(report: SpaceReport, kept: dict, quick: bool, progress, measure) -> bool:
    """``report.holders`` from what was kept for this fingerprint, else marked pending (a quick report) or
    measured now by ``measure()``; True when measured now (the caller keeps them)."""
    holders = space_cache.lines_from_json(kept["agents"]) if isinstance(kept.get("agents"), list) else None
    if holders is not None:
        report.holders = holders
        return False
    if quick:
        report.holders_pending = True
        return False
    if progress:
        progress("measuring agents")
    report.holders = measure()
    return True


def pg_space(db, data_dir: Path | None, database_folder: Path | None = None, progress=None, *,
             quick: bool = False, keep: bool = True, cache_folder: Path | None = None) -> SpaceReport:
    """``db``: the store's PgDatabase (``rows(sql)``); ``data_dir``: the folder beside it, if any, and
    ``database_folder`` the PGlite folder in it (measured by the server, not again as a folder).

    The tables take a fraction of a second (the server's own counters); the agents read the whole history
    (seconds on a million records in PGlite). On a PGlite store they are kept by the fingerprint of its
    folder (``space_cache``: the stat of every file, no file read), which is what the store read from: while
    the folder is as it was, so are they. ``keep``: False while Daycare's engine writes the folder (what a
    running engine changed may be missing from the copy that was read). A server's are measured each
    time: nothing on this machine tells that it changed. ``quick``: the agents only if kept, else
    ``holders_pending``."""
    report = SpaceReport(holders_title="Agents", method="pg_total_relation_size")
    if progress:
        progress("measuring tables")
    report.tables, report.total = pg_tables(db.rows)
    if {"session_history", "sessions"} <= set(db.tables()):
        kept, fingerprint = ({}, None) if database_folder is None else space_cache.load(
            database_folder, cache_folder, tree=True)
        measured = _agents_kept_or_measured(report, kept, quick, progress, lambda: _pg_agents(db, progress))
        if measured and fingerprint is not None and keep:
            space_cache.save(database_folder, fingerprint,
                             {"agents": space_cache.lines_to_json(report.holders)}, cache_folder)
    report.wal = _pg_wal(db, database_folder)
    report.folders = subfolder_lines(data_dir, skip=(database_folder.name,) if database_folder else ())
    _advise(report, postgres=True)
    return report


def _pg_wal(db, database_folder: Path | None) -> int | None:
    """The write-ahead log's bytes: a PGlite folder's ``pg_wal`` (the user's folder, not the copy read), or
    the server's ``pg_ls_waldir()`` where the role may call it (None where it may not)."""
    if database_folder is not None:
        size, _files, _complete = folder_size(database_folder / "pg_wal")
        return size
    try:
        [(size,)] = db.rows("SELECT COALESCE(SUM(size), 0) FROM pg_ls_waldir()")
    except Exception:  # noqa: BLE001 — permission denied for a role without pg_monitor
        return None
    return int(size)

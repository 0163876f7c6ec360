"""Daycare's legacy generation (agents' ``history.jsonl``, no database) feeding the shared search index.

Records are cut into sessions exactly as the window shows them (``core.files.legacy_agents``): a session's id
is ``<agent id>#<n>`` and a record's id its line in the history file, so a hit opens the conversation at it.
The searchable text is extracted by the same SQL as for a database (``sqlite/record_text.BODY_SQL``), run over
each batch in a private in-memory database. Agents are fed least recently updated first, so "newest first"
lists the most recently active agents' records first (a legacy store has no global record order).

Legacy stores are history: the fingerprint is the size and modification time of every history file, so
any change rebuilds the index rather than patching it (the check of the last message would miss an edit).
"""

from __future__ import annotations

import json
import os
import sqlite3
from itertools import islice
from pathlib import Path

from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.daycare.former_index import former_index_file
from daycare_gui.stores.daycare.records.history import LEGACY_MARKERS
from daycare_gui.stores.daycare.search_documents import daycare_documents

# (imported with the capabilities, on the GUI thread before a store opens: never first on a worker)
from daycare_gui.stores.daycare.sqlite.record_text import BODY_SQL
from daycare_gui.stores.daycare.sqlite.search import RECORD_TYPE, record_facets, role_of
from daycare_gui.stores.records import Message, SessionRef

BATCH = 2000
_SCRATCH = """
CREATE TABLE session_history (id INTEGER PRIMARY KEY, session_id TEXT, type TEXT, at INTEGER, data TEXT);
"""
LINE_BITS = 32  # a record's rowid in the scratch table: its agent's ordinal, then its line in the file
LINE_MASK = (1 << LINE_BITS) - 1


def ordered_agents(inventory) -> list:
    """Legacy agents with a history, least recently updated first (rowids then grow with recency)."""
    agents = [a for a in inventory.items("legacy_agents") if a.history_path]
    return sorted(agents, key=lambda a: (a.updated_at or 0, a.id))


def legacy_agents(inventory) -> dict:
    """Agent id → Agent record of a legacy store (for facets and the results' headings)."""
    from daycare_gui.stores.daycare.sqlite.queries.legacy_history import legacy_agents_as_records

    return legacy_agents_as_records(inventory)["agents"]


def history_records(agent, ordinal: int, paths):
    """(rowid, session id, type, at, data JSON) of every record of one agent, streamed."""
    from daycare_gui.stores.daycare.files.legacy_agents import iter_history

    sessions = [s for s in agent.sessions if s.first_line is not None]
    current = 0
    for line, obj in iter_history(agent.history_path, root=paths):
        kind = obj.get("type")
        if not isinstance(kind, str) or kind in LEGACY_MARKERS:
            continue
        while current < len(sessions) - 1 and line > sessions[current].last_line:
            current += 1
        if not sessions or not sessions[current].first_line <= line <= sessions[current].last_line:
            continue  # a record the session split did not keep (never the case for a well-formed file)
        at = obj.get("at") if isinstance(obj.get("at"), int) and not isinstance(obj.get("at"), bool) else None
        data = {k: v for k, v in obj.items() if k not in ("type", "at")}
        yield ((ordinal << LINE_BITS) | line, f"{agent.id}#{sessions[current].index + 1}", kind, at,
               json.dumps(data, ensure_ascii=False))


def _cursor(ordinal: int, line: int) -> str:
    return f"{ordinal:08d}:{line:010d}"


class DaycareLegacySearch(SearchSource):
    def __init__(self, core) -> None:
        self.core = core  # core.store.Store without a database
        self._agents = None

    def identity(self) -> str:
        return f"daycare-legacy:{Path(self.core.paths.agents_dir).resolve()}"

    def location(self) -> str:
        return str(Path(self.core.paths.agents_dir).resolve())

    def former_index_files(self, cache_dir: Path) -> tuple[Path, ...]:
        return (former_index_file(cache_dir, self.core.paths.agents_dir),)

    def _inventory(self):
        return self.core.files()

    def _ordered(self) -> list:
        return ordered_agents(self._inventory())

    def agents(self) -> dict:
        if self._agents is None:
            self._agents = legacy_agents(self._inventory())
        return self._agents

    def messages(self, after: str | None):
        start = tuple(int(p) for p in after.split(":")) if after else (0, -1)
        scratch = sqlite3.connect(":memory:")
        scratch.executescript(_SCRATCH)
        extract = f"SELECT h.id, h.session_id, h.type, h.at, {BODY_SQL} FROM session_history AS h ORDER BY h.id"
        try:
            for ordinal, agent in enumerate(self._ordered(), start=1):
                if ordinal < start[0]:
                    continue
                records = history_records(agent, ordinal, self.core.paths)
                while True:
                    chunk = list(islice(records, BATCH))
                    if not chunk:
                        break
                    pending = [r for r in chunk if (ordinal, r[0] & LINE_MASK) > start]
                    if not pending:
                        continue
                    scratch.execute("DELETE FROM session_history")
                    scratch.executemany("INSERT INTO session_history VALUES (?, ?, ?, ?, ?)", pending)
                    for rowid, session_id, kind, at, body in scratch.execute(extract).fetchall():
                        line = rowid & LINE_MASK
                        yield _cursor(ordinal, line), SessionRef(agent.id, session_id), Message(
                            str(line), role_of(kind or ""), body or "", at, kind or "")
        finally:
            scratch.close()

    def tags(self, ref: SessionRef, message: Message):
        return ((RECORD_TYPE, message.kind),)

    def facets(self):
        return record_facets(None, False, {})

    def facet_threads(self, name: str, value: str) -> frozenset[str] | None:
        if name == "user":
            return frozenset()  # legacy agents belong to no user yet (the import creates the users)
        if name not in ("agent_kind", "lifecycle"):
            return None
        return frozenset(a.id for a in self.agents().values()
                         if (a.type if name == "agent_kind" else a.lifecycle) == value)

    def fingerprint(self, cursor: str) -> str | None:
        out = []
        for agent in self._ordered():
            try:
                st = os.stat(agent.history_path)
                out.append([agent.id, st.st_size, st.st_mtime_ns])
            except OSError:
                out.append([agent.id, None, None])
        return json.dumps(out)

    def documents(self):
        return daycare_documents(self.core)

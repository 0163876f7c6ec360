"""Daycare's SQLite generation feeding the shared search index (``SearchSource``).

Each record's searchable text is extracted in SQL by the expression Daycare's own index used
(:data:`daycare_gui.stores.daycare.sqlite.record_text.BODY_SQL`: message text, tool calls and results, rlm code and output),
so the big ``rlm_tool_call`` snapshot never leaves the database file and the index finds what it found.
The record type is a tagged facet; agent kind, lifecycle and user are facets of the agent, asked of the
database when searching (a lifecycle changes after the record was indexed). The fingerprint (the count of
records up to the cursor and eight sampled rows) lets the index notice a history rewritten in the middle.
Documents: skills, memory entities, agents' prompt files and the keys of settings.json and auth.json
(:mod:`daycare_gui.stores.daycare.search_documents`).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.daycare.records.agents import DESCRIPTOR_KINDS
from daycare_gui.stores.daycare.records.history import HISTORY_KINDS

# (imported with the capabilities, on the GUI thread before a store opens: never first on a worker)
from daycare_gui.stores.daycare.sqlite.queries.agents import AgentFilter, distinct_values
from daycare_gui.stores.daycare.sqlite.queries.names import user_names
from daycare_gui.stores.daycare.sqlite.record_text import BODY_SQL, VALID_GUARD, fingerprint
from daycare_gui.stores.records import FilterSpec, Message, SessionRef, SqliteFeed

BATCH = 5000
# (facet name, label, agents' column) of the facets kept on agents
AGENT_FACETS = (("agent_kind", "All agent kinds", "type"), ("lifecycle", "Any lifecycle", "lifecycle"),
                ("user", "All users", "user_id"))
RECORD_TYPE = "record_type"
LIFECYCLES = ("active", "sleeping", "dead")
_ROLE = {
    "user_message": "user", "assistant_message": "assistant", "tool_result": "tool", "note": "note",
    "assistant_rewrite": "assistant", "start": "event", "reset": "event",
}


def role_of(record_type: str) -> str:
    """The neutral role of a Daycare record type (as the conversation view draws it)."""
    return _ROLE.get(record_type, "tool" if record_type.startswith("rlm_") else "event")


def _select(guarded: bool) -> str:
    body = BODY_SQL if guarded else BODY_SQL.replace(VALID_GUARD, "")
    return (f"SELECT h.id, h.session_id, s.agent_id, h.type, h.at, {body} FROM session_history AS h "
            "LEFT JOIN sessions AS s ON s.id = h.session_id WHERE h.id > :after ORDER BY h.id LIMIT :n")


def _role_sql(column: str) -> str:
    cases = " ".join(f"WHEN '{t}' THEN '{r}'" for t, r in _ROLE.items())
    return f"CASE {column} {cases} ELSE CASE WHEN {column} LIKE 'rlm\\_%' ESCAPE '\\' THEN 'tool' ELSE 'event' END END"


def feed_sql(guarded: bool) -> str:
    """The feed's rows (``SqliteFeed.rows_sql``): what :meth:`DaycareSqliteSearch.messages` yields, in SQL."""
    body = BODY_SQL if guarded else BODY_SQL.replace(VALID_GUARD, "")
    return (f"SELECT h.id AS cursor, s.agent_id AS thread_id, h.session_id AS session_id, "
            f"CAST(h.id AS TEXT) AS message_id, {_role_sql('h.type')} AS role, h.type AS kind, h.at AS at, "
            f"{body} AS body FROM feed.session_history AS h LEFT JOIN feed.sessions AS s ON s.id = h.session_id "
            "WHERE h.id > :after AND h.id <= :last ORDER BY h.id")


NEXT_SQL = "SELECT max(id) FROM (SELECT id FROM feed.session_history WHERE id > :after ORDER BY id LIMIT :n)"


def record_facets(db, has_users: bool, user_names: dict[str, str]) -> tuple[FilterSpec, ...]:
    """Agent kind, lifecycle, user (when agents have owners) and record type, as Daycare's search offered."""
    out = [FilterSpec("agent_kind", "All agent kinds", "choice", tuple((k, k) for k in DESCRIPTOR_KINDS)),
           FilterSpec("lifecycle", "Any lifecycle", "choice", tuple((v, v) for v in LIFECYCLES))]
    if has_users and db is not None:
        users = distinct_values(db, "user_id")
        out.append(FilterSpec("user", "All users", "choice", tuple((u, user_names.get(u, u)) for u in users)))
    out.append(FilterSpec(RECORD_TYPE, "All record types", "choice", tuple((t, t) for t in HISTORY_KINDS)))
    return tuple(out)


class DaycareSqliteSearch(SearchSource):
    def __init__(self, core) -> None:
        self.core = core  # core.store.Store, with a database

    @property
    def db(self):
        return self.core.db

    def identity(self) -> str:
        return f"daycare-sqlite:{Path(self.core.paths.db_path).resolve()}"

    def location(self) -> str:
        return str(Path(self.core.paths.db_path).resolve())

    def former_index_files(self, cache_dir: Path) -> tuple[Path, ...]:
        """Daycare's former index of this database (``former_index``, keyed on its path and file identity)."""
        # (imported here, not with the store's capabilities: DaycareKind.idle_modules, after the first page)
        from daycare_gui.stores.daycare.former_index import former_index_file, recorded_store

        db_path = Path(self.core.paths.db_path).resolve()
        old = former_index_file(cache_dir, db_path)
        if old.exists() and recorded_store(old) not in (None, str(db_path)):
            return ()  # (cannot happen for a key of this path; never removes another store's index)
        return (old,)

    def messages(self, after: str | None):
        last = int(after) if after else -1
        fast, guarded = _select(False), _select(True)
        while True:
            params = {"after": last, "n": BATCH}
            try:
                rows = self.db.rows(fast, params)
            except sqlite3.OperationalError as exc:  # a malformed payload: this batch again, checked
                if "malformed JSON" not in str(exc):
                    raise
                rows = self.db.rows(guarded, params)
            if not rows:
                return
            for id_, session_id, agent_id, type_, at, body in rows:
                kind = type_ or ""
                at = at if isinstance(at, int) and not isinstance(at, bool) else None
                yield str(id_), SessionRef(agent_id or "", session_id or ""), Message(
                    str(id_), role_of(kind), body or "", at, kind)
            last = rows[-1][0]

    def sqlite_feed(self) -> SqliteFeed | None:
        """The records copied into the index inside SQLite, as Daycare's own index did (five times faster
        than decoding each into Python: ``bench/run.py``'s index build)."""
        uri = getattr(self.db, "uri", None)
        return SqliteFeed(uri, feed_sql(False), NEXT_SQL, feed_sql(True)) if uri else None

    def tags(self, ref: SessionRef, message: Message) -> tuple[tuple[str, str], ...]:
        return ((RECORD_TYPE, message.kind),)

    def facets(self):
        has_users = "user_id" in self.db.columns("agents")
        return record_facets(self.db, has_users, user_names(self.core) if has_users else {})

    def facet_threads(self, name: str, value: str) -> frozenset[str] | None:
        if name not in ("agent_kind", "lifecycle", "user"):
            return None
        if name == "user" and "user_id" not in self.db.columns("agents"):
            return frozenset()  # an older schema without owners: no agent belongs to the user asked for
        flt = AgentFilter(kinds=(value,) if name == "agent_kind" else (),
                          lifecycles=(value,) if name == "lifecycle" else (),
                          user_id=value if name == "user" else None)
        where, params = flt.where()
        return frozenset(str(r[0]) for r in self.db.rows(f"SELECT id FROM agents{where}", params))

    def fingerprint(self, cursor: str) -> str | None:
        try:
            last = int(cursor)
        except ValueError:
            return None
        have = int(self.db.scalar("SELECT count(*) FROM session_history WHERE id <= :l", {"l": last}) or 0)
        first = int(self.db.scalar("SELECT min(id) FROM session_history") or 0)
        return json.dumps([have, fingerprint(self.db, first, last)])

    def documents(self):
        from daycare_gui.stores.daycare.search_documents import daycare_documents

        return daycare_documents(self.core)

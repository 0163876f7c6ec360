"""The capabilities an AgentStack store offers the shared panes, and its ``inspect`` report.

* Collections: memory (by namespace, by agent, versions, tags, relationships), sessions, the task tree,
  consensus checkpoints, review loops, agents, resource metrics and exhaustion events, deliverables,
  projects, plugins, users. ``AgentStackCollections.search(query, limit)`` searches memory through the
  store's own FTS5 index (also :func:`search_memory`).
* Tables: every table paged (FTS5 shadow tables hidden; password hashes never read; blobs summarised).
* Actions: the FTS5 integrity check (read-only).
* Charts: sessions, tasks and memory changes per day.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from daycare_gui.stores.agentstack import agents, memory, projects, work
from daycare_gui.stores.agentstack import values as v
from daycare_gui.stores.agentstack.database import DatabaseError
from daycare_gui.stores.agentstack.schema import MASKED, NEVER_SHOWN
from daycare_gui.stores.agentstack.search import FAILED_MEANS, SEARCH_COLUMNS, integrity_check, search_memory
from daycare_gui.stores.agentstack.spec import Spec
from daycare_gui.stores.api import (
    Actions,
    Automations,
    Charts,
    Collections,
    EditableField,
    StoreAction,
    Tables,
    WriteRefused,
    raw_of,
)
from daycare_gui.stores.common.secrets import MASK
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.records import Collection, DayCount, Link, Row, TableRef

SPEC_TYPES: tuple[type[Spec], ...] = (*memory.SPECS, *work.SPECS, *agents.SPECS, *projects.SPECS)


class AgentStackCollections(Collections):
    """AgentStack's own lists. Besides the contract: :meth:`search` (memory full-text search)."""

    def __init__(self, store) -> None:
        self.store = store
        self.specs: dict[str, Spec] = {}
        for spec_type in SPEC_TYPES:
            spec = spec_type(store)
            if spec.available():
                self.specs[spec.id] = spec

    def collections(self) -> list[Collection]:
        return [s.collection() for s in self.specs.values()]

    def _spec(self, collection_id: str) -> Spec | None:
        return self.specs.get(collection_id)

    def size(self, collection_id: str) -> int:
        spec = self._spec(collection_id)
        return self._safe(spec.size, 0) if spec else 0

    def items(self, collection_id: str) -> int | None:
        spec = self._spec(collection_id)
        return self._safe(spec.items, None) if spec else None

    def rows(self, collection_id: str, offset: int, limit: int) -> list[Row]:
        spec = self._spec(collection_id)
        return self._safe(lambda: spec.rows(offset, limit), []) if spec else []

    def row(self, collection_id: str, key: str) -> Row | None:
        spec = self._spec(collection_id)
        return self._safe(lambda: spec.row(key), None) if spec else None

    def editable(self, collection_id: str, row: Row) -> tuple[EditableField, ...]:
        spec = self._spec(collection_id)
        return spec.editable(row) if spec else ()

    def update(self, collection_id: str, row: Row, changes: dict[str, Any], *, force: bool = False) -> Row:
        spec = self._spec(collection_id)
        if spec is None:
            raise WriteRefused(f"no list {collection_id!r} in this store")
        return spec.update(row, changes, force=force)

    def search(self, query: str, limit: int = 20, *, namespace: str | None = None) -> list[Row]:
        """Memory entries matching ``query`` (FTS5 syntax, or plain words), best BM25 first. Columns are
        :data:`SEARCH_COLUMNS`; each row's key is a key of the "memory" collection."""
        return search_memory(self.store, query, limit, namespace=namespace)

    # Both memory lists (by namespace, by agent) hold the rows memory_fts indexes.
    SEARCHABLE = ("memory", "memory-agents")

    def search_columns(self, collection_id: str) -> tuple[str, ...]:
        if collection_id in self.SEARCHABLE and collection_id in self.specs and "memory_fts" in self.store.virtual:
            return SEARCH_COLUMNS
        return ()

    def search_rows(self, collection_id: str, query: str, limit: int = 200) -> list[Row]:
        if not self.search_columns(collection_id):
            return []
        rows = self.search(query, limit)
        if collection_id == "memory":
            return rows
        return [replace(r, links=(Link("row", (collection_id, r.key), "entry"),)) if r.key else r
                for r in rows]  # (a row without a key is no hit: why search failed, or a warning)

    def count(self) -> int | None:
        return len(self.specs)

    def _safe(self, call, fallback):
        try:
            return call()
        except DatabaseError as exc:  # a damaged page: say so, keep the window going
            self.store.problems.add(self.store.path, f"could not read: {exc}")
            return fallback


class AgentStackTables(Tables):
    def __init__(self, store) -> None:
        self.store = store

    def tables(self) -> list[TableRef]:
        counts = self.store.counts()
        shadow = self.store.shadow_counts()
        listed = [TableRef(t, counts.get(t), columns=tuple(self.columns(t))) for t in sorted(self.store.columns)]
        return listed + [TableRef(t, shadow.get(t), hidden=True) for t in self.store.shadows]

    def _known(self, table: str) -> bool:
        return table in self.store.columns or table in self.store.shadows

    def columns(self, table: str) -> list[str]:
        if not self._known(table):
            return []
        if table in self.store.shadows:
            return [r[1] for r in self.store.db.rows(f'PRAGMA table_info("{table}")')]
        return [c for c in self.store.columns[table] if (table, c) not in NEVER_SHOWN]

    def rows(self, table: str, offset: int, limit: int) -> list[tuple]:
        cols = self.columns(table)
        if not cols:
            return []
        select = ", ".join(f'"{c}"' for c in cols)
        try:
            found = self.store.db.rows(f'SELECT {select} FROM "{table}" LIMIT ? OFFSET ?',
                                       (max(0, int(limit)), max(0, int(offset))))
        except DatabaseError as exc:
            self.store.problems.add(self.store.path, f"table {table} could not be read: {exc}")
            return []
        return [tuple(self._cell(table, c, val) for c, val in zip(cols, r)) for r in found]

    @staticmethod
    def _cell(table: str, column: str, value: Any) -> Any:
        if (table, column) in MASKED:
            return MASK if value else value
        if column == "embedding" and isinstance(value, (bytes, bytearray)):
            text, _facts, problem = v.embedding_facts(value)
            return f"<embedding: {problem or text}>"
        if isinstance(value, str) and value[:1] in "{[" and column not in ("content", "input", "output"):
            return v.shown_json(value)
        return raw_of(value)


CHECK_ID = "fts-integrity-check"


class AgentStackActions(Actions):
    def __init__(self, store) -> None:
        self.store = store

    def actions(self) -> list[StoreAction]:
        if "memory_fts" not in self.store.virtual:
            return []
        return [StoreAction(CHECK_ID, "Check the memory search index",
                            "Runs FTS5's integrity-check on memory_fts against the memory table, on a temporary "
                            "copy: read-only. If it fails: " + FAILED_MEANS)]

    def run(self, action_id: str, *, force: bool = False) -> str:
        if action_id != CHECK_ID:
            return f"no action {action_id!r}"
        passed, message = integrity_check(self.store)
        if passed is not None:  # remembered: every search says so until a check passes
            self.store.fts_out_of_step = passed is False
        if passed is False:
            self.store.problems.add(self.store.path, "memory_fts does not match memory: run the index rebuild "
                                                     "(see the index check)")
        return message


class AgentStackCharts(Charts):
    # AgentStack keeps no conversations: its activity is these three tables' rows, by their times.
    activity_what = "sessions, tasks and memory changes"
    activity_none = "No sessions, tasks or memory changes recorded."

    def __init__(self, store) -> None:
        self.store = store

    def activity_per_day(self) -> list[DayCount]:
        out: list[DayCount] = []
        for table, column, series in (("sessions", "started_at", "sessions"), ("tasks", "created_at", "tasks"),
                                      ("memory", "updated_at", "memory changes")):
            if not self.store.has(table, column):
                continue
            sql = (f"SELECT date({column} / 1000, 'unixepoch') AS d, count(*) FROM {table} "
                   f"WHERE typeof({column}) = 'integer' GROUP BY d ORDER BY d")
            out += [DayCount(d, series, float(n)) for d, n in self.store.db.rows(sql) if d]
        return out


def offer_capabilities(store) -> None:
    store.offer(Tables, AgentStackTables(store))
    store.offer(Collections, AgentStackCollections(store))
    store.offer(Actions, AgentStackActions(store))
    store.offer(Charts, AgentStackCharts(store))
    if store.has("tasks", "agent_type"):  # its task queue: the one automated work AgentStack records
        from daycare_gui.stores.agentstack.automations import AgentStackAutomations

        store.offer(Automations, AgentStackAutomations(store))
    from daycare_gui.stores.agentstack.usage import AgentStackUsage, offers_usage

    if offers_usage(store) and store.has("agent_resource_metrics", "updated_at"):
        from daycare_gui.stores.api import Usage

        store.offer(Usage, AgentStackUsage(store))  # its one token total per agent, unpriced (#37)
    from daycare_gui.stores.agentstack.space import AgentStackStorage
    from daycare_gui.stores.api import Storage

    store.offer(Storage, AgentStackStorage(store))  # space only: no migrations
    _startup_checks(store)


def forget_caches(store) -> None:
    found = store.capability(Collections)
    if isinstance(found, AgentStackCollections):
        for spec in found.specs.values():
            spec.forget()


def _startup_checks(store) -> None:
    """Problems worth seeing without browsing: the default admin, an index SQLite cannot read."""
    if store.has("users", "username") and store.has("users", "email"):
        for (uid,) in store.db.rows("SELECT id FROM users WHERE username = ? AND email = ?", agents.DEFAULT_ADMIN):
            store.note_problem("users", str(uid), agents.DEFAULT_ADMIN_WARNING, "warning")
    if store.fts_error:
        store.problems.add(store.path, f"the memory search index cannot be read here: {store.fts_error}")


def kind_report(store) -> dict:
    gen = store.generation
    out: dict[str, Any] = {
        "database": store.title,
        "found_via": store.located.via,
        "config": None,
        "schema": gen.to_dict(),
        "fts": _fts_facts(store),
        "memory": _memory_facts(store) if store.has("memory") else None,
        "security": _security(store),
        "writes_blocked": store.writes_blocked(),
        "collections": {c.id: c.title for c in store.capability(Collections).collections()},
    }
    if store.located.config is not None:
        from daycare_gui.stores.common.secrets import mask_url

        out["config"] = {"path": mask_url(str(store.located.config)),
                         "memory_path": mask_url(store.located.memory_path or "")}
    out["notes"] = list(store.summary().notes)
    return out


def _fts_facts(store) -> dict:
    triggers = sorted(n for n, sql in store.triggers.items() if "memory_fts" in sql)
    facts = {"present": "memory_fts" in store.virtual, "readable": store.fts_ready, "sync_triggers": triggers,
             "shadow_tables": store.shadow_counts()}
    if store.fts_error:
        facts["error"] = store.fts_error
    return facts


def _memory_facts(store) -> dict:
    db = store.db
    namespaces = db.rows("SELECT namespace LIKE 'session:%', count(DISTINCT namespace) FROM memory GROUP BY 1")
    by_kind = {bool(k): n for k, n in namespaces}
    facts: dict[str, Any] = {"namespaces": by_kind.get(False, 0) + by_kind.get(True, 0),
                             "session_namespaces": by_kind.get(True, 0)}
    if store.has("memory", "agent_id"):
        facts["agents"] = db.scalar("SELECT count(DISTINCT agent_id) FROM memory")
    if store.has("memory", "embedding"):
        dims = db.rows("SELECT length(embedding) / 4, count(*) FROM memory WHERE typeof(embedding) = 'blob' "
                       "AND length(embedding) > 0 AND length(embedding) % 4 = 0 GROUP BY 1 ORDER BY 1")
        damaged = db.scalar("SELECT count(*) FROM memory WHERE embedding IS NOT NULL AND (typeof(embedding) != 'blob' "
                            "OR length(embedding) = 0 OR length(embedding) % 4 != 0)")
        facts["embeddings"] = {"count": sum(n for _, n in dims) + (damaged or 0),
                               "dimensions": {str(d): n for d, n in dims}, "damaged": damaged or 0}
        if damaged:
            what = "is not a whole float32 array" if damaged == 1 else "are not whole float32 arrays"
            store.note_problem("memory", "embeddings", f"{count(damaged, 'embedding')} {what} (damaged)")
        if len(dims) > 1:
            store.note_problem("memory", "embeddings", "embeddings have different dimensions ("
                               + ", ".join(str(d) for d, _ in dims) + "): vector search compares only equal ones",
                               "warning")
    return facts


def _security(store) -> dict:
    if not store.has("users"):
        return {"users": 0, "default_admin": False}
    default = bool(store.db.scalar("SELECT count(*) FROM users WHERE username = ? AND email = ?",
                                   agents.DEFAULT_ADMIN)) if store.has("users", "email") else False
    return {"users": store.db.scalar("SELECT count(*) FROM users"), "default_admin": default}

"""AgentStack as a store kind: probing a path, opening its database read-only, what inspect reports."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from daycare_gui.stores.agentstack import locks
from daycare_gui.stores.agentstack.database import Database, DatabaseError, wal_has_data
from daycare_gui.stores.agentstack.locate import Located, check_file, locate
from daycare_gui.stores.agentstack.schema import DB_NAMES, Generation, infer_generation, is_shadow
from daycare_gui.stores.api import Candidate, NotRecognised, OpenedStore, StoreKind, StorePath
from daycare_gui.stores.common.regular_files import missing_or_what
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.records import StoreSummary

EMPTY = "empty (0 bytes)"
NOT_WRITTEN = "AgentStack has not written to it yet (it creates its tables when it opens the database)"


class AgentStackKind(StoreKind):
    name = "agentstack"
    title = "AgentStack"
    open_modules = ("daycare_gui.stores.agentstack.capabilities", "daycare_gui.stores.agentstack.edits")

    def probe(self, path: StorePath) -> Candidate:
        try:
            return self._probe(path)
        except Exception as exc:  # a probe never raises: an odd path is a "no" with the reason
            return Candidate(self.name, 0.0, f"could not look: {type(exc).__name__}: {exc}")

    def _probe(self, path: StorePath) -> Candidate:
        loc = locate(path)
        if loc.db is None:
            if loc.config is not None:
                return Candidate(self.name, 0.2, f"an AgentStack config ({loc.config.name}), but "
                                                 f"{loc.memory_path} {missing_or_what(loc.memory_path)}")
            return Candidate(self.name, 0.0, "; ".join(loc.notes) or "no AgentStack database")
        check = check_file(loc.db)
        named = loc.db.name in DB_NAMES
        where = {"file": "", "folder": "", "data folder": " in data/", "config": f" named by {loc.config.name}"
                 if loc.config else "", "parent config": f" named by {loc.config}" if loc.config else ""}
        found = f"{loc.db.name}{where.get(loc.via, '')}"
        if not check.is_sqlite:
            if check.empty:  # 0 bytes is neither SQLite nor not: say what it is
                return Candidate(self.name, 0.4 if named else 0.0,
                                 f"{found} is {EMPTY}" + (f": {NOT_WRITTEN}" if named else ""))
            return Candidate(self.name, 0.0, f"{found}: {check.error or 'not a SQLite database'}")
        if "memory" in check.tables and check.agentstack_tables >= 3:
            confidence = 1.0 if named or loc.via == "config" else 0.9
            if loc.via == "parent config":
                confidence = 0.7  # a config in a folder above may belong to a project around this folder
            return Candidate(self.name, confidence, f"an AgentStack database ({found})")
        if named and wal_has_data(loc.db):
            return Candidate(self.name, 0.6, f"{found} is named like AgentStack's; its tables may still be in "
                                             "the write-ahead log")
        if named:
            return Candidate(self.name, 0.3, f"{found} is named like AgentStack's but lacks its tables")
        return Candidate(self.name, 0.0, f"{found} is SQLite without AgentStack's memory tables")

    def open(self, path: StorePath, *, live: bool = True) -> OpenedStore:
        loc = locate(path)
        if loc.db is None:
            raise NotRecognised(f"{mask_url(os.fspath(path))}: " + ("; ".join(loc.notes) or "no AgentStack database"))
        check = check_file(loc.db)
        if not check.is_sqlite and not check.empty:
            raise NotRecognised(f"{loc.db}: {check.error or 'not a SQLite database'}")
        try:
            db = Database(loc.db, live=live)
        except DatabaseError as exc:
            raise NotRecognised(str(exc)) from exc
        try:
            store = AgentStackStore(loc, db)
        except DatabaseError as exc:
            db.close()
            raise NotRecognised(str(exc)) from exc
        if "memory" not in store.columns:
            store.close()
            if check.empty and not store.columns:  # (a 0-byte file with tables in its -wal is not empty)
                raise NotRecognised(f"{loc.db} is {EMPTY}: {NOT_WRITTEN}")
            raise NotRecognised(f"{loc.db} has no memory table: not an AgentStack database")
        return store


class AgentStackStore(OpenedStore):
    kind = "agentstack"

    def __init__(self, located: Located, db: Database) -> None:
        super().__init__(mask_url(str(located.db)))
        self.located = located
        self.db = db
        self.path: Path = located.db
        self._reported: set[tuple] = set()
        self._lock = threading.Lock()
        self._counts: dict[str, int] | None = None
        self.fts_out_of_step = False  # the integrity check failed in this session (searches warn)
        self._read_schema()
        for problem in located.problems:
            self.problems.add(located.config or self.path, problem)
        # (imported on open, not with the kind: every kind is imported to probe each path)
        from daycare_gui.stores.agentstack.capabilities import offer_capabilities

        offer_capabilities(self)
        from daycare_gui.stores.common.leftovers import report_and_clean

        # Edits are single transactions (SQLite rolls a killed one back itself); what a kill can leave is a
        # save's temporary file beside the database and our own private snapshot copies (removed here).
        report_and_clean(self.problems, [self.path.parent], snapshots=True)

    # -- schema -------------------------------------------------------------------------------------
    def _read_schema(self) -> None:
        master = self.db.rows("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger')")
        tables = [(n, s or "") for t, n, s in master if t == "table" and not n.startswith("sqlite_")]
        self.triggers = {n: s or "" for t, n, s in master if t == "trigger"}
        self.virtual = {n for n, s in tables if s.upper().lstrip().startswith("CREATE VIRTUAL TABLE")}
        self.shadows = sorted(n for n, _ in tables if is_shadow(n, self.virtual))
        self.columns: dict[str, list[str]] = {}
        self.fts_error: str | None = None
        for name, _sql in tables:
            if name in self.shadows:
                continue
            try:
                self.columns[name] = [r[1] for r in self.db.rows(f'PRAGMA table_info("{_q(name)}")')]
            except DatabaseError as exc:  # a virtual table whose module this SQLite lacks
                self.columns[name] = []
                if name in self.virtual:
                    self.fts_error = str(exc)
                self.problems.add(self.path, f"table {name} cannot be read: {exc}")
        self.generation: Generation = infer_generation(self.columns, self.virtual)

    def has(self, table: str, column: str | None = None) -> bool:
        cols = self.columns.get(table)
        return cols is not None and (column is None or column in cols)

    def col(self, table: str, column: str, alias: str | None = None, prefix: str = "") -> str:
        """``prefix.column`` when the table has it, else ``NULL`` (old generations lack columns)."""
        name = alias or column
        return f"{prefix}{column} AS {name}" if self.has(table, column) else f"NULL AS {name}"

    @property
    def fts_ready(self) -> bool:
        return "memory_fts" in self.virtual and self.fts_error is None

    def note_problem(self, table: str, key: str, message: str, severity: str = "error") -> None:
        """Record a problem once per (table, row, message) however often the row is paged in."""
        marker = (table, key, message)
        with self._lock:
            if marker in self._reported:
                return
            self._reported.add(marker)
        self.problems.add(self.path, f"{table} {key}: {message}", severity=severity)

    def changed(self) -> None:
        """After a write: cached counts are stale."""
        self._counts = None
        from daycare_gui.stores.agentstack.capabilities import forget_caches

        forget_caches(self)

    # -- the contract -------------------------------------------------------------------------------
    def summary(self) -> StoreSummary:
        holders = self._holders()
        notes = [*self.located.notes, *self.generation.notes]
        if self.db.note:
            notes.append(self.db.note)
        if self.path.name == "agentstack.db":
            notes.append("agentstack.db is the name AgentStack used before its 2026-01-24 rename to aistack")
        counts = self.counts()
        facts = [("Database", self.title), ("Found", self.located.via)]
        if self.located.config is not None:
            facts.append(("Config", mask_url(str(self.located.config))))
        for table, label in (("memory", "Memory entries"), ("sessions", "Sessions"), ("tasks", "Tasks")):
            if table in counts:
                facts.append((label, f"{counts[table]:,}"))
        return StoreSummary(
            kind=self.kind,
            generation=self.generation.name,
            title=self.title,
            engine_running=bool(holders),
            engine_detail=", ".join(str(h) for h in holders or ()) + (" has the database open" if holders else ""),
            open_mode=self.db.mode,
            notes=tuple(notes),
            facts=tuple(facts),
        )

    def counts(self) -> dict[str, int]:
        if self._counts is None:
            counts = {}
            for table in sorted(self.columns):
                try:
                    counts[table] = int(self.db.scalar(f'SELECT count(*) FROM "{_q(table)}"') or 0)
                except DatabaseError as exc:
                    self.note_problem(table, "(count)", f"cannot be counted: {exc}")
            self._counts = counts
        return dict(self._counts)

    def shadow_counts(self) -> dict[str, int]:
        out = {}
        for table in self.shadows:
            try:
                out[table] = int(self.db.scalar(f'SELECT count(*) FROM "{_q(table)}"') or 0)
            except DatabaseError:
                pass
        return out

    def report(self, **_options) -> dict:
        from daycare_gui.stores.agentstack.capabilities import kind_report

        return kind_report(self)

    def _holders(self) -> list[locks.Holder] | None:
        found = locks.holders(self.path)
        if found is None:  # no /proc/locks: fcntl needs our own connections closed while it looks
            with self.db.quiet():
                found = locks.holders(self.path, use_proc=False)
        return found

    def writes_blocked(self) -> str | None:
        holders = self._holders()
        if holders:
            who = ", ".join(str(h) for h in holders)
            return (f"{who} has {self.path.name} open (AgentStack running?); a change now may be overwritten "
                    "by what it holds in memory")
        return None

    def watch_paths(self) -> tuple[Path, ...]:
        # The database beside its -wal (AgentStack commits into the WAL) and their folder: a WAL that appears
        # after a checkpoint removed it is seen there.
        paths = [self.path, Path(str(self.path) + "-wal"), self.path.parent]
        if self.located.config is not None:
            paths.append(self.located.config)
        return tuple(paths)

    def close(self) -> None:
        self.db.close()


def _q(name: str) -> str:
    return name.replace('"', '""')


KIND = AgentStackKind()

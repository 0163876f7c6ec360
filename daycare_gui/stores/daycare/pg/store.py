"""Today's Daycare store (PGlite or PostgreSQL) as an opened store: capabilities over its schema.

Versioned tables show their current rows (``valid_to IS NULL``); every version of them is one click
away in a "… versions" list that says what changed. Secrets (process environments, auth tokens, the
app-auth password column) are masked (pg.shown_rows) before they leave the store.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores import api
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.daycare.pg import copy_index
from daycare_gui.stores.daycare.pg.catalog import VERSIONED, migration_state
from daycare_gui.stores.daycare.pg.database import PgDatabase, PgError
from daycare_gui.stores.daycare.pg.history_keys import history_keys as history_keys_of
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import StoreSummary


class DaycarePgStore(api.OpenedStore):
    kind = "daycare"

    def __init__(self, db: PgDatabase, *, generation: str, title: str, paths=None, server=None,
                 engine=None, problems: ProblemLog | None = None, notes: tuple[str, ...] = (),
                 copy_state=None) -> None:
        super().__init__(mask_url(title), problems)
        self.db = db
        self.generation = generation  # "pglite" | "postgres"
        self.paths = paths  # DaycarePaths when opened from a folder or settings.json
        self.server = server  # the PgliteServer serving our private copy
        self.engine = engine  # core.engine.EngineStatus, when there is a folder to look at
        self.notes = notes
        self.copy_state = copy_state  # pg.history_keys.CopyState: the copy is the store at a known fingerprint
        if generation == "pglite":
            try:
                db.read_catalog()  # its tables and columns in one statement (a copy's schema never changes)
            except PgError:
                pass  # (asked of information_schema below, which says what is wrong)
        self._tables = set(db.tables())
        # The schema's columns, read now in the open (one information_schema query, 50 to 300 ms on PGlite)
        # rather than by whichever first answer needs them: the window's agent list asks at once anyway,
        # and an agent's session list asked first after the open then sends only its own two queries.
        # A schema that cannot be read (a catalog file gone from a damaged store) is not read here: the first
        # answer that needs it says so, as "cannot read this store", instead of the open failing with it.
        try:
            db.columns("agents")
        except PgError:
            pass
        self._counts: dict[str, int] | None = None
        self._file_counts: dict[str, int] | None = None
        self._files = None  # datadir.documents.DataDirDocuments, made on first use
        self._lists = None  # datadir.collections.DataDirLists, made on first use
        from daycare_gui.stores.daycare.pg.before_pglite import open_earlier_history

        self.earlier = open_earlier_history(paths, self.problems)  # the old daycare.db beside it, read-only
        from daycare_gui.stores.daycare.pg.capabilities import offer_pg_capabilities

        offer_pg_capabilities(self)

    def data_dir_documents(self):
        """Skills and agents' prompt files beside the store (None when opened from a server URL alone)."""
        if self.paths is None:
            return None
        if self._files is None:
            from daycare_gui.stores.daycare.datadir.documents import DataDirDocuments

            self._files = DataDirDocuments(self.paths, self.problems, self._engine_blocked, Path.home())
        return self._files

    def data_dir_lists(self):
        """Settings, auth, users' secrets, processes, apps and databases beside the store (None: no folder)."""
        if self.paths is None:
            return None
        if self._lists is None:
            from daycare_gui.stores.daycare.datadir.collections import DataDirLists

            self._lists = DataDirLists(self, self.problems)
        return self._lists

    def _engine_blocked(self) -> str | None:
        """Files are Daycare's, not the database's: only a running engine stands in a file save's way."""
        self.refresh_engine()
        if self.engine is not None and self.engine.running:
            return f"Daycare's engine is running ({self.engine.detail}); it may overwrite or miss this change"
        return None

    # -- facts ----------------------------------------------------------------------------------------
    def has(self, table: str) -> bool:
        return table in self._tables

    def current(self, table: str) -> str:
        """A WHERE clause selecting the current version of a versioned table ('' otherwise)."""
        return " WHERE valid_to IS NULL" if table in VERSIONED and "valid_to" in self.db.columns(table) else ""

    def migrations(self):
        rows = self.db.rows("SELECT name FROM _migrations ORDER BY applied_at, name") if self.has("_migrations") else []
        return migration_state([r[0] for r in rows])

    def summary(self) -> StoreSummary:
        running = bool(self.engine and self.engine.running)
        m = self.migrations()
        storage = "PGlite (embedded PostgreSQL) store" if self.generation == "pglite" else "PostgreSQL database"
        facts = (("Storage", storage),  # (as a SQLite store's Overview says "SQLite database (daycare.db)")
                 ("Migrations", f"{len(m.applied)} applied, {len(m.pending)} pending, {len(m.unknown)} unknown"))
        if self.server is not None:
            facts += (("Read from", "a private copy (deleted when the store closes)"),)
        if self.earlier is not None:
            old = self.earlier.counts()
            facts += ((self.earlier.heading, f"{count(old.get('agents', 0), 'agent')}, "
                       f"{count(old.get('session_history', 0), 'record')} in {self.earlier.path.name}, read-only"),)
        return StoreSummary(kind=self.kind, generation=self.generation, title=self.title,
                            engine_running=running, engine_detail=self.engine.detail if self.engine else "",
                            open_mode="read-only copy" if self.server is not None else "read-only transactions",
                            notes=self.notes, facts=facts)

    def counts(self) -> dict[str, int]:
        if self._counts is None:
            # A PGlite copy's history is counted from every session's record ids, read once (or kept from the
            # last open of the store as it is): a count(*) was a second scan of the whole history beside the
            # one the automations' summary needs (3 s each on a million records).
            keys = history_keys_of(self)
            tables = sorted(self._tables)
            counted = self._count_tables([t for t in tables if not (t == "session_history" and keys is not None)])
            out = {}
            for table in tables:
                if table == "session_history" and keys is not None:
                    try:
                        out[table] = keys.total()
                    except PgError as exc:
                        self.problems.add(self.title, f"cannot count {table}: {exc}")
                elif table in counted:
                    out[table] = counted[table]
            self._counts = out
        return {**self._counts, **self.file_counts()}

    def _count_tables(self, tables: list[str]) -> dict[str, int]:
        """Every table's rows. A PGlite copy counts them in one statement: each round trip to the sidecar
        costs ~10 ms, and 35 of them took 0.1 to 0.4 s of each ``inspect``. A server counts them one by one,
        each under the statement timeout of its own, as does a copy whose statement failed (a damaged
        file): the problem names the table."""
        if tables and self.generation == "pglite":
            try:
                row = self.db.rows("SELECT " + ", ".join(f"(SELECT count(*) FROM {_quoted(t)})" for t in tables))[0]
                return {t: int(n or 0) for t, n in zip(tables, row)}
            except PgError:
                pass
        out = {}
        for table in tables:
            try:
                out[table] = int(self.db.scalar(f"SELECT count(*) FROM {_quoted(table)}") or 0)
            except PgError as exc:
                self.problems.add(self.title, f"cannot count {table}: {exc}")
        return out

    def file_counts(self) -> dict[str, int]:
        """The files Daycare keeps beside its database, counted under ``files.`` as a SQLite store counts its
        own (the Overview's "Other items" in both generations): a few small folders, read once."""
        if self._file_counts is None:
            lists = self.data_dir_lists()
            if lists is None:
                self._file_counts = {}
            else:
                from daycare_gui.stores.daycare.datadir.collections import data_dir_counts

                found = data_dir_counts(self.data_dir_documents(), lists)
                skills = found.pop("skills")
                flat = {"skills": sum(skills.values()), "settings": 1 if lists.entries("settings") else 0, **found}
                self._file_counts = {f"files.{name}": n for name, n in flat.items() if n}
        return dict(self._file_counts)

    def report(self, **_options) -> dict:
        keys = history_keys_of(self)
        if keys is not None and self.has("session_history"):
            # inspect counts the history and tells the task agents' runs: one pass that groups nothing gives
            # both, where every session's ids took 3 to 5 times as long (a store kept or scanned has them)
            from daycare_gui.stores.daycare.pg.history_total import task_sessions

            try:
                keys.read_total_and(task_sessions(self.db, self._tables))
            except PgError:
                pass  # (the count and the runs read every session's ids instead, and say what fails)
        m = self.migrations()
        out = {
            "path": self.title,
            "kind": self.kind,
            "generation": self.generation,
            "notes": list(self.notes),
        }
        if self.paths is not None:
            out["paths"] = self.paths.to_dict()
        out["engine_running"] = bool(self.engine and self.engine.running)
        if self.engine is not None:
            out["engine"] = self.engine.to_dict()
        out["open_mode"] = "read-only copy" if self.server is not None else "read-only transactions"
        out["migrations"] = m.to_dict()
        out["counts"] = self.counts()
        if self.paths is not None:  # the files Daycare keeps beside its database (no values: counts only)
            from daycare_gui.stores.daycare.datadir.collections import data_dir_counts

            out["data_dir"] = data_dir_counts(self.data_dir_documents(), self.data_dir_lists())
        if self.earlier is not None:  # the old daycare.db Daycare never imported: its counts and last date
            out["before_pglite"] = self.earlier.report()
        if m.unknown:
            self.problems.add(self.title, f"{count(len(m.unknown), 'migration')} this version does not know "
                              f"({', '.join(m.unknown)}): a newer Daycare wrote this store; nothing will be written",
                              severity="warning")
        out["problems"] = [p.to_dict() for p in self.problems]
        return out

    def refresh_engine(self) -> None:
        """Look again whether Daycare's engine runs (it may have started or stopped since the open)."""
        if self.paths is not None:
            from daycare_gui.stores.daycare.engine import engine_status

            self.engine = engine_status(self.paths)

    def writes_blocked(self) -> str | None:
        if self.engine is not None and self.engine.running:
            return (f"Daycare's engine is running ({self.engine.detail}); it may overwrite or be confused by "
                    "changes")
        if self.migrations().unknown:
            return "a newer Daycare wrote this store (unknown migrations)"
        return None

    def sections(self):
        """Daycare's sections as its SQLite generation names and orders them, then what only today's has."""
        from daycare_gui.stores.daycare.sections import today_sections

        lists = self.capability(api.Collections)
        return today_sections(lists.collections() if lists is not None else [])

    def route(self, entry):
        from daycare_gui.stores.daycare.sections import route

        return route(entry, today=True)

    def engine_state(self) -> tuple[str, str]:
        if self.engine is None:  # a server without a data directory: its engine cannot be seen from here
            return super().engine_state()
        return ("running" if self.engine.running else "stopped"), self.engine.detail

    def watch_paths(self) -> tuple[Path, ...]:
        if self.paths is None or self.generation != "pglite":
            return ()  # a server: nothing on this machine to watch
        from daycare_gui.stores.daycare.watch import pglite_watch_paths

        return pglite_watch_paths(self.paths)

    def reload(self) -> None:
        """Serve a fresh private copy (after an edit was swapped into the user's folder)."""
        if self.server is None:
            return
        from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer

        fresh = PgliteServer(self.server.original, self.server.runtime)
        if copy_index.INDEX_COPY:
            try:
                copy_index.index_copy(fresh.url, None)
            except BaseException:
                fresh.close(kill=True)
                raise
        old_server, old_db = self.server, self.db
        if (keys := self.__dict__.get("_history_keys")) is not None:
            keys.stop()  # (the old copy's scan: the fresh copy gets keys of its own)
        self.server, self.db = fresh, PgDatabase(fresh.url)
        self.copy_state = None  # our own edit changed the folder: its keys are read from the fresh copy
        self._counts = self._file_counts = None
        old_db.close()
        old_server.close()

    def close(self) -> None:
        keys = self.__dict__.get("_history_keys")  # (pg.history_keys: a background scan ends after its slice)
        if keys is not None:
            keys.stop()
        try:
            if self.copy_state is not None:
                self.copy_state.wait_kept()
            self.db.close()
            if self.earlier is not None:
                self.earlier.close()
        finally:  # the PGlite process and its private copy go whatever the connection did on its way out
            if self.server is not None:
                server, self.server = self.server, None
                server.close()


def _quoted(table: str) -> str:
    """A table's name as an SQL identifier (the catalog's names are the store's: quoted, quotes doubled)."""
    return '"' + table.replace('"', '""') + '"'

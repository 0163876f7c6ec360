"""Probing and opening Daycare stores through the core's path resolution and detection."""

from __future__ import annotations

import os
from pathlib import Path

from daycare_gui.stores.api import Candidate, NotRecognised, OpenedStore, StoreKind, StorePath
from daycare_gui.stores.records import KeptTarget, StoreSummary

# How sure each detected generation makes us. A folder with only Daycare-named subfolders (cron/,
# agents/ without descriptor.json) may be another system's; a lone settings.json is weak evidence.
_CONFIDENCE = {"sqlite": 1.0, "pglite": 1.0, "legacy-files": 0.9, "empty": 0.3}


class DaycareKind(StoreKind):
    name = "daycare"
    title = "Daycare"
    probe_modules = ("daycare_gui.stores.daycare.detect", "daycare_gui.stores.daycare.paths", "daycare_gui.stores.daycare.pg.open")
    # (core.report: the shared Overview's counts ask it on the background worker)
    open_modules = (*probe_modules, "daycare_gui.stores.daycare.sqlite.store", "daycare_gui.stores.common.leftovers",
                    "daycare_gui.stores.daycare.capabilities", "daycare_gui.stores.daycare.directory",
                    "daycare_gui.stores.daycare.sections", "daycare_gui.stores.daycare.sqlite.queries.inbox",
                    "daycare_gui.stores.daycare.sqlite.tasks",
                    "daycare_gui.stores.daycare.sqlite.automations",
                    "daycare_gui.stores.daycare.report", "daycare_gui.stores.daycare.sqlite.documents",
                    "daycare_gui.stores.daycare.datadir.files",
                    # the conversations' keyed pages, and what their session heading reads
                    "daycare_gui.stores.daycare.sqlite.conversations", "daycare_gui.stores.daycare.sqlite.queries.agents",
                    "daycare_gui.stores.daycare.sqlite.collections")
    file_readers = (  # imported in idle time after the first page of a database store
        *(f"daycare_gui.stores.daycare.files.{m}" for m in (
            "tasks", "legacy_agents", "subsystems", "apps", "skills", "plugins", "homes", "config_files",
            "collections")),
        "daycare_gui.stores.common.files.read", "daycare_gui.stores.common.files.jsonl",
        "daycare_gui.stores.common.files.frontmatter")
    # What a folder without a database (legacy-files, empty) reads through, before its open (its first page
    # is read from its files); a database store never does, and importing the legacy adapters cost its start
    # ~15 ms (see open_modules_for).
    # What a PGlite or PostgreSQL store's open and capabilities import (on the worker), named per path by
    # open_modules_for: a SQLite store never needs them (with hashlib, ~5 ms of its start; #35). (socket: the
    # window no longer imports it at start, and the database driver would otherwise import it first on the worker.)
    pg_modules = ("daycare_gui.stores.daycare.pg.automations", "socket")
    legacy_modules = (*(f"daycare_gui.stores.daycare.legacy.{m}" for m in ("tasks", "collections", "conversations", "search")),
                      *file_readers, "daycare_gui.stores.daycare.sqlite.queries.subsystems")
    idle_modules = (
        *file_readers,
        "daycare_gui.stores.daycare.sqlite.queries.tasks", "daycare_gui.stores.daycare.sqlite.queries.overview",
        "daycare_gui.stores.daycare.sqlite.counts",
        "daycare_gui.stores.daycare.sqlite.queries.legacy_history",  # (Jump To's entries of legacy folders)
        "daycare_gui.stores.daycare.sqlite.task_overview",  # (the tasks' next runs)
        # The search index's documents and Daycare's former index: only the Search page and Jump To's list read
        # them, after start-up's imports; ~5 ms of each open before (#35).
        "daycare_gui.stores.daycare.former_index", "daycare_gui.stores.daycare.search_documents")

    def default_location(self) -> Path | None:
        from daycare_gui.stores.daycare.paths import default_root

        return default_root()  # $DAYCARE_ROOT_DIR or ~/.daycare, as Daycare resolves it

    def kept_target(self, path: StorePath) -> KeptTarget | None:
        """A PGlite store (reading it costs a copy and Node): what a repeated search or inspect needs."""
        from daycare_gui.stores.daycare.engine import engine_status
        from daycare_gui.stores.daycare.pg.kept_roots import pglite_target

        target = pglite_target(path)
        if target is None:
            return None
        return KeptTarget(target.store, target.roots, target.paths.to_dict(),
                          lambda: engine_status(target.paths).to_dict(),
                          fingerprinted_again=(target.paths.pglite_path,))

    def head_start(self, path: StorePath) -> bool:
        """A PGlite store: its copy and PGlite's start begin now (pg.head_start), as the window starts."""
        from daycare_gui.stores.daycare.pg import head_start

        return head_start.start(path)

    def upgrader(self, path: StorePath):
        from daycare_gui.stores.daycare.upgrader import DaycareUpgrader

        return DaycareUpgrader.at(path)

    def file_editor(self, path: StorePath):
        from daycare_gui.stores.daycare.edit.file_editor import DaycareFileEditor

        return DaycareFileEditor.for_file(path) if isinstance(path, (str, os.PathLike)) else None

    def _pg_open_modules(self) -> tuple[str, ...]:
        """All the PostgreSQL generation's open imports (pg.open.OPEN_MODULES) but its database driver, which a
        thread of its own imports meanwhile (pg.database.import_driver_beside)."""
        from daycare_gui.stores.daycare.pg.open import OPEN_MODULES

        return (*self.pg_modules, *OPEN_MODULES)

    def open_modules_for(self, path: StorePath) -> tuple[str, ...]:
        """The PostgreSQL generation's readers only for a PGlite folder, a server or a folder whose settings
        name one; the legacy adapters only for a folder without a database (when unsure, both: importing
        more is only slower, a worker importing first is a bug). As ``open`` decides."""
        from daycare_gui.stores.daycare.detect import detect
        from daycare_gui.stores.daycare.paths import resolve_paths
        from daycare_gui.stores.daycare.pg.open import is_pglite_folder, is_server_url, settings_url

        text = os.fspath(path)
        try:
            given = Path(text).expanduser()
            if is_server_url(text) or is_pglite_folder(given):
                return self._pg_open_modules()
            paths = resolve_paths(given)
            generation = "pglite" if settings_url(paths) else detect(paths).generation
            if generation == "pglite":
                return self._pg_open_modules()
            if generation == "sqlite":
                return ()
        except Exception:  # noqa: BLE001 - the open says what is wrong with the path
            return (*self.legacy_modules, *self._pg_open_modules())
        return self.legacy_modules

    def probe(self, path: StorePath) -> Candidate:
        from daycare_gui.stores.daycare.detect import detect
        from daycare_gui.stores.daycare.paths import NotADaycareDirectory, resolve_paths
        from daycare_gui.stores.daycare.pg.open import is_pglite_folder, is_server_url

        text = os.fspath(path)
        if is_server_url(text):
            return Candidate(self.name, 0.9, "a PostgreSQL server URL (today's Daycare can keep its store there)")
        if "://" in text:
            return Candidate(self.name, 0.0, "a URL that is not postgres:// or postgresql://")
        given = Path(text).expanduser()
        if is_pglite_folder(given):
            return Candidate(self.name, 1.0, "a Daycare PGlite folder")
        if given.is_file() and given.suffix.lower() == ".json" and given.name != "settings.json":
            return Candidate(self.name, 0.0, f"{given.name} is not Daycare's settings.json")
        try:
            detection = detect(resolve_paths(given))
        except NotADaycareDirectory as exc:
            return Candidate(self.name, 0.0, _short(str(exc)))
        except OSError as exc:
            return Candidate(self.name, 0.0, f"cannot read it ({exc.strerror or exc})")
        confidence = _CONFIDENCE.get(detection.generation, 0.5)
        if detection.generation == "legacy-files" and not detection.legacy_agents:
            confidence = 0.4  # folders named like Daycare's, but no agent descriptor
        if given.is_file() and given.suffix == ".db" and given.name != "daycare.db":
            # dbPath may name any file, but other systems keep SQLite files too (aistack.db, ...):
            # let a kind that recognises the file itself win.
            confidence = min(confidence, 0.5)
            return Candidate(self.name, confidence, f"a SQLite file not named daycare.db ({detection.generation})")
        return Candidate(self.name, confidence, f"a Daycare store ({detection.generation})")

    def open(self, path: StorePath, *, live: bool = True) -> OpenedStore:
        from daycare_gui.stores.daycare.detect import detect
        from daycare_gui.stores.daycare.paths import NotADaycareDirectory, resolve_paths
        from daycare_gui.stores.daycare.pg import open as pg
        from daycare_gui.stores.daycare.sqlite.store import open_store

        text = os.fspath(path)
        if pg.is_server_url(text):
            return pg.open_server(text)
        given = Path(text).expanduser()
        try:
            if pg.is_pglite_folder(given):
                return pg.open_pglite(pg.paths_for_pglite_folder(given.resolve()))
            paths = resolve_paths(given)
            url = pg.settings_url(paths)
            if url:  # engine.db.url: Daycare keeps its store on that server
                return pg.open_server(url, paths)
            if detect(paths).generation == "pglite":
                return pg.open_pglite(paths)
            core = open_store(path, live=live)
        except NotADaycareDirectory as exc:
            raise NotRecognised(str(exc)) from exc
        return DaycareStore(core)


def _short(message: str) -> str:
    # "…/x is not a Daycare data directory: no settings.json, …" → drop the path, the caller shows it.
    head, sep, tail = message.partition(" is not a Daycare")
    return f"not a Daycare{tail}" if sep else message


class DaycareStore(OpenedStore):
    """An opened Daycare store. ``core`` is the Daycare ``Store`` its own panes and writers use."""

    kind = "daycare"

    def __init__(self, core) -> None:
        super().__init__(str(core.title), core.problems)
        self.core = core
        self._report: dict | None = None
        from daycare_gui.stores.daycare.capabilities import offer_capabilities

        offer_capabilities(self)

    def summary(self) -> StoreSummary:
        from daycare_gui.stores.daycare.sqlite.queries.overview import GENERATION_EXPLANATION, GENERATION_TEXT

        c = self.core
        explained = GENERATION_EXPLANATION.get(c.generation)  # a store that is not plain SQLite says why
        return StoreSummary(
            kind=self.kind,
            generation=c.generation,
            title=self.title,
            engine_running=c.engine.running,
            engine_detail=c.engine.detail,
            open_mode=c.db.mode.name if c.db is not None else "",
            notes=tuple(c.detection.notes) + ((explained,) if explained else ()),
            facts=(("Storage", GENERATION_TEXT.get(c.generation, c.generation)),
                   ("Migrations", c.migrations.generation_label)),
        )

    def scan(self, progress=None, cancelled=None) -> None:
        self.core.files()  # reads every file collection once; what does not read joins the problem log

    def counts(self) -> dict[str, int]:
        return dict(self.report()["counts"])

    def report(self, *, home_skills: bool = False, **_options) -> dict:
        from daycare_gui.stores.daycare.report import report_of

        if self._report is None or home_skills:
            self._report = report_of(self.core, include_home_skills=home_skills)
        return self._report

    def writes_blocked(self) -> str | None:
        if self.core.engine.running:
            return f"Daycare's engine is running ({self.core.engine.detail}); it may overwrite changes"
        return None

    @property
    def paths(self):
        """Where Daycare keeps each file of this store (``DaycarePaths``), as a PGlite store's ``paths``:
        the file editors read it to keep a write inside the store and to ask about a running engine."""
        return self.core.paths

    def sections(self):
        from daycare_gui.stores.daycare.sections import SECTIONS

        return SECTIONS  # the ids Daycare's deep links have always named, each shown by a shared pane

    def route(self, entry):
        from daycare_gui.stores.daycare.sections import route

        return route(entry, legacy=self.core.db is None)

    def engine_state(self) -> tuple[str, str]:
        engine = self.core.engine  # Daycare's pid file and socket tell for sure
        return ("running" if engine.running else "stopped"), engine.detail

    def watch_paths(self) -> tuple[Path, ...]:
        from daycare_gui.stores.daycare.watch import sqlite_watch_paths

        return sqlite_watch_paths(self.core.paths)

    def follow_live(self) -> None:
        db = self.core.db
        if db is not None:
            db.follow_live()

    def interrupt(self) -> None:
        self.core.close()  # closing the database interrupts the query running on it

    def close(self) -> None:
        self.core.close()


KIND = DaycareKind()

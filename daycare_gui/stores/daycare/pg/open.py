"""Opening today's Daycare: a ``postgres://`` URL, a settings.json naming one, or a PGlite folder."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.daycare.detect import is_pglite_folder  # (the kinds and search ask pg for it)
from daycare_gui.stores.daycare.pg import copy_index
from daycare_gui.stores.problems import ProblemLog

URL_SCHEMES = ("postgres://", "postgresql://", "postgresql+psycopg://")


def is_server_url(text: str) -> bool:
    return text.strip().lower().startswith(URL_SCHEMES)


def settings_url(paths) -> str | None:
    engine = paths.settings.get("engine") if isinstance(paths.settings, dict) else None
    db = engine.get("db") if isinstance(engine, dict) else None
    url = db.get("url") if isinstance(db, dict) else None
    return url if isinstance(url, str) and is_server_url(url) else None


def sqlalchemy_url(url: str) -> str:
    """psycopg 3 through SQLAlchemy; libpq finds a missing password in PGPASSWORD or ~/.pgpass itself."""
    scheme, _, rest = url.strip().partition("://")
    return f"postgresql+psycopg://{rest}"


def paths_for_pglite_folder(folder: Path):
    """Daycare's paths when the user named the ``.pglite`` folder itself."""
    from daycare_gui.stores.daycare.paths import resolve_paths

    paths = resolve_paths(folder.parent)
    return paths if paths.pglite_path == folder else dataclasses.replace(paths, pglite_path=folder)


def open_server(url: str, paths=None, problems: ProblemLog | None = None):
    from daycare_gui.stores.daycare.pg.database import PgDatabase
    from daycare_gui.stores.daycare.pg.store import DaycarePgStore

    engine = _engine(paths)
    db = PgDatabase(url.strip())  # libpq reads the URL as given (hosts, ports, options: see make_engine)
    problems = problems if problems is not None else ProblemLog()
    if paths is not None:
        _report_leftovers(problems, paths.root)
    return DaycarePgStore(db, generation="postgres", title=mask_url(url), paths=paths, engine=engine,
                          problems=problems)


def open_pglite(paths, problems: ProblemLog | None = None, progress=None, cancelled=None):
    """Copy the folder, start PGlite on the copy, connect. ``progress``/``cancelled`` default to the
    listener of :func:`daycare_gui.stores.common.opening.reporting` (the window's progress dialog, the
    command line's stderr); a cancel stops the npm install, the copy or the start, and removes the copy."""
    from daycare_gui.stores.api import CannotOpen
    from daycare_gui.stores.common import opening
    from daycare_gui.stores.daycare.pg import head_starts as head_start
    from daycare_gui.stores.daycare.pg.database import PgDatabase
    from daycare_gui.stores.daycare.pg.pglite_check import check_pglite_folder
    from daycare_gui.stores.daycare.pg.runtime import find_runtime, install
    from daycare_gui.stores.daycare.pg.store import DaycarePgStore

    listener = opening.current()
    progress = progress or listener.progress
    cancelled = cancelled or listener.cancelled
    if not is_pglite_folder(paths.pglite_path):
        raise CannotOpen(f"{paths.pglite_path} is not a PGlite data folder (no PG_VERSION or global/ inside); "
                         "Daycare has not initialised it, or it is damaged")
    check_pglite_folder(paths.pglite_path)  # a damaged file named in a sentence, not PGlite's trap
    # PGlite's files are checked against the pin (a hash of its 21 MB: 0.1 to 0.6 s) on a thread of their own
    # while the store's folder is looked at here; an install, if one is needed, waits for the answer. A head
    # start (pg.head_start) has checked them already: its server's are taken.
    trusted = None if head_start.begun(paths.pglite_path) else _Beside(find_runtime)
    engine = _engine(paths)
    problems = problems if problems is not None else ProblemLog()
    _report_leftovers(problems, paths.root, paths.pglite_path.parent, read_copies=True)
    notes = []
    if engine is not None and engine.running:
        head_start.discard_all()  # (a copy begun while the engine runs is not one to read, even once it stops)
        engine = _engine_decision(paths, engine, listener.while_running, progress, cancelled)
    if engine is not None and engine.running:
        notes.append("Daycare's engine is running: this is a copy taken now and may be a moment behind; "
                     "edits are refused unless you insist")
    _import_meanwhile()

    def meanwhile() -> None:  # (while PostgreSQL starts in Node: this thread would only wait)
        _import_store_modules()
        if listener.meanwhile is not None:
            try:
                listener.meanwhile()
            except Exception:  # (what it prepared fails again, and is said, where it is used)
                pass

    def trusted_runtime():  # (asked by the server once Node has started: the check runs meanwhile)
        return (trusted.result() if trusted is not None else find_runtime()) or install(progress, cancelled)

    # The copy and PGlite's start, begun when the window started (pg.head_start), or made now.
    if trusted is None:  # begun: while it copies and starts, this thread prepares as it would meanwhile
        meanwhile()
    begun = head_start.take(paths.pglite_path, cancelled, progress) if trusted is None else None
    if cancelled():
        if begun is not None:
            begun[0].close(kill=True)
        raise opening.OpenCancelled("cancelled while copying the store")
    server, state = begun or serve_copy(paths.pglite_path, trusted_runtime, progress, cancelled, meanwhile)
    runtime = server.runtime
    notes.append(f"PGlite {runtime.pglite_version} from {runtime.source} reads a private copy of "
                 f"{paths.pglite_path}; the folder itself is never opened")
    for rel, why in server.skipped:
        problems.add(paths.pglite_path / rel, why)
    try:
        if copy_index.INDEX_COPY:
            copy_index.index_copy(server.url, progress)
        if progress:
            progress(0, 0, "Reading the store…")
        db = PgDatabase(server.url)
        try:
            store = DaycarePgStore(db, generation="pglite", title=str(paths.pglite_path), paths=paths,
                                   server=server, engine=engine, problems=problems, notes=tuple(notes),
                                   copy_state=state)
        except BaseException:
            db.close()
            raise
    except BaseException:
        server.close(kill=True)
        raise
    if cancelled():
        store.close()
        raise opening.OpenCancelled("cancelled while reading the store")
    return store


def serve_copy(folder: Path, runtime, progress, cancelled, while_starting=None):
    """A private copy of ``folder`` served by PGlite, and the CopyState saying whether the copy is the store
    as it was at one fingerprint (pg.history_keys: the ids an earlier open kept load meanwhile). ``runtime``:
    a PgliteRuntime, or a call returning one once trusted (PgliteServer starts Node before it);
    ``while_starting``: see PgliteServer."""
    from daycare_gui.stores.daycare.pg.history_keys import after_copy, before_copy
    from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer

    states = []

    def fingerprint_before() -> None:  # (once Node is started: it loads meanwhile; before the copy, as it must be)
        states.append(before_copy(folder, _fingerprint(folder, handed=True)))

    server = PgliteServer(folder, runtime, progress=progress, cancelled=cancelled, before_copy=fingerprint_before,
                          while_starting=while_starting)
    return server, after_copy(states[0], _fingerprint(folder))


class _Beside:
    """``fn()`` on a thread of its own; ``result()`` waits for it and returns or raises what it did."""

    def __init__(self, fn) -> None:
        import threading

        self._out: tuple[bool, object] | None = None

        def run() -> None:
            try:
                self._out = (True, fn())
            except BaseException as exc:  # raised again where the answer is needed
                self._out = (False, exc)

        self._thread = threading.Thread(target=run, name="pglite-runtime", daemon=True)
        self._thread.start()

    def result(self):
        self._thread.join()
        ok, value = self._out
        if not ok:
            raise value
        return value


def _fingerprint(folder: Path, *, handed: bool = False):
    """The ``.pglite`` folder's stat-only fingerprint (a stat of each file, no content read), taken before and
    after the copy: the same twice, the copy is the store as it was then (see history_keys.CopyState). Before
    it, the one a command took of the store's folders a moment earlier (``inspect``, ``search``: KeptTarget)
    is used, if there is one: an earlier fingerprint still holds the store as it was before the copy."""
    from daycare_gui.stores.common.tree_fingerprint import fingerprint, handed_over

    return (handed_over(folder) if handed else None) or fingerprint([folder])


def _import_meanwhile() -> None:
    """Import the database driver (psycopg: up to a second or more on a busy machine) on a thread of its
    own while the copy waits on the disk and PGlite starts in its process, instead of after them (see
    pg.database.import_driver_beside: whoever uses it waits for that thread first)."""
    from daycare_gui.stores.daycare.pg.database import import_driver_beside

    import_driver_beside()


# What the store and its capabilities import as they are made and first asked (0.1 s and more), imported
# while PostgreSQL starts in Node instead of after: on the thread that opens, which would only wait then.
STORE_MODULES = ("daycare_gui.stores.daycare.pg.store", "daycare_gui.stores.daycare.pg.capabilities",
                 "daycare_gui.stores.daycare.pg.usage", "daycare_gui.stores.daycare.pg.automations",
                 "daycare_gui.stores.daycare.pg.directory", "daycare_gui.stores.daycare.pg.history_total",
                 "daycare_gui.stores.daycare.datadir.documents", "daycare_gui.stores.daycare.datadir.collections",
                 "daycare_gui.stores.daycare.datadir.files", "daycare_gui.stores.daycare.datadir.config_docs",
                 "yaml")  # (the data folder's front matter)

# Everything an open of this generation imports, for the window's GUI thread to import before a worker
# opens (ui/store_opener.py: a worker never imports a module first; tests/ui/test_startup_imports.py checks
# it). All but the database driver, which a thread of its own imports meanwhile (pg.database).
OPEN_MODULES = ("subprocess", "secrets", "hmac", "difflib", "locale", "concurrent.futures.thread", "platformdirs",
                *(f"daycare_gui.stores.common.{m}" for m in ("ram_folders", "tree_fingerprint")),
                *(f"daycare_gui.stores.daycare.pg.{m}" for m in (
                    "runtime", "pglite_check", "folder_copy", "pglite_copy", "head_starts", "before_pglite",
                    "history_keys", "catalog", "database", "activity", "collections", "conversations", "documents",
                    "lists", "on_store", "search_source", "shown_rows", "storage", "tables", "threads", "users")),
                *(f"daycare_gui.stores.daycare.datadir.{m}" for m in ("config", "runtime_files", "skill_versions")),
                *STORE_MODULES)


def _import_store_modules() -> None:
    import importlib

    for name in STORE_MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # (fails again, and is said, where it is used)
            pass


ENGINE_POLL_S = 1.0
def _engine_decision(paths, engine, policy: str, progress, cancelled):
    """Daycare writes the folder while its engine runs: ask first, wait until it stops, or copy now."""
    import time

    from daycare_gui.stores.common import opening

    if policy == opening.ASK:
        raise opening.EngineRunning(f"Daycare's engine is running on {paths.pglite_path} ({engine.detail})")
    if policy != opening.WAIT:
        return engine
    while engine.running:
        if progress:
            progress(0, 0, f"Waiting for Daycare's engine to stop ({engine.detail})…")
        deadline = time.monotonic() + ENGINE_POLL_S
        while time.monotonic() < deadline:
            if cancelled():
                raise opening.OpenCancelled("cancelled while waiting for Daycare's engine to stop")
            time.sleep(0.05)
        engine = _engine(paths)
    return engine


def _report_leftovers(problems: ProblemLog, *folders, read_copies: bool = False) -> None:
    """Leftovers of interrupted writes become problems; read copies of killed instances are removed now
    (opening a PGlite store is the operation that makes them)."""
    from daycare_gui.stores.common import leftovers

    found, seen = [], set()
    for folder in folders:
        for lo in leftovers.in_tree(folder):
            if lo.path not in seen:
                seen.add(lo.path)
                found.append(lo)
    removed = []
    if read_copies:
        # Copies of instances still running are in use (this one's, another window's, of any store): not
        # leftovers, and not this store's to mention; those of killed instances are removed and said so.
        copies = leftovers.read_copies(gone_only=True)
        removed = leftovers.clean(copies)
        found.extend(copies)
    leftovers.report(problems, found, removed)


def _engine(paths):
    if paths is None:
        return None
    from daycare_gui.stores.daycare.engine import engine_status

    return engine_status(paths)


def given_path(path) -> str:
    return os.fspath(path)

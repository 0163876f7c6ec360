"""The Store facade: what the window and the CLI talk to.

``open_store(PATH)`` resolves paths, detects the generation, checks the engine and opens the database
read-only. Everything else is fetched on demand through the query modules, so opening is cheap whatever
the size of the store. Bad input is collected in ``store.problems``; nothing here raises on bad data.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common import opening
from daycare_gui.stores.common.sqlite_ro import DatabaseError, ReadOnlyDatabase
from daycare_gui.stores.daycare.detect import Detection, detect
from daycare_gui.stores.daycare.engine import EngineStatus, engine_status
from daycare_gui.stores.daycare.paths import DaycarePaths, NotADaycareDirectory, resolve_paths
from daycare_gui.stores.daycare.sqlite.migration_state import MigrationState, migration_state
from daycare_gui.stores.daycare.sqlite.queries.columns import TableColumns
from daycare_gui.stores.daycare.sqlite.queries.tables import JSON_COLUMNS
from daycare_gui.stores.problems import Problem, ProblemLog

__all__ = ["Store", "open_store", "NotADaycareDirectory", "TaskSource"]

IMPORT_TASKS = "20260220_import_tasks"  # the migration after which Daycare reads task rows, never files
PGLITE_TASKS = "Daycare keeps its tasks in the PGlite database (daycare.pglite/) and no longer reads task files"


@dataclass(frozen=True)
class TaskSource:
    """Where one cron/heartbeat task lives and which copy Daycare reads."""

    kind: str  # "cron" | "heartbeat"
    id: str
    file_path: Path | None
    has_row: bool
    reads: str  # "row" | "file"
    reason: str
    db_path: Path | None = None

    @property
    def table(self) -> str:
        return "tasks_cron" if self.kind == "cron" else "tasks_heartbeat"


class Store:
    def __init__(self, paths: DaycarePaths, detection: Detection, engine: EngineStatus,
                 db: ReadOnlyDatabase | None, problems: ProblemLog) -> None:
        self.paths = paths
        self.detection = detection
        self.engine = engine
        self.db = db
        self.problems = problems
        self.cols = TableColumns(db) if db is not None else None
        self.migrations: MigrationState = migration_state(db)
        self._files = None
        self._json_checked: list[Problem] | None = None
        # Both workers may ask for the inventory at once (counts and a pane); scan once, add problems once.
        self._once = threading.Lock()

    # -- identity --------------------------------------------------------------------------------
    @property
    def generation(self) -> str:
        return self.detection.generation

    @property
    def read_only(self) -> bool:
        return True  # writing goes through the core writers, each opening its own connection on request

    @property
    def title(self) -> str:
        return str(self.paths.root)

    def has_table(self, table: str) -> bool:
        return self.cols is not None and self.cols.has_table(table)

    # -- counts ----------------------------------------------------------------------------------
    def table_counts(self) -> dict[str, int]:
        if self.db is None:
            return {}
        out = {}
        for table in self.db.tables():
            try:
                out[table] = self.db.count(table)
            except DatabaseError as exc:
                self.problems.add(self.paths.db_path, f"cannot count {table}: {exc}")
        return out

    def files(self, *, include_home_skills: bool = False):
        """The file inventory (cron/heartbeat/apps/skills/memory/knowledge/legacy/...), scanned once."""
        with self._once:
            if self._files is None:
                from daycare_gui.stores.daycare.files.collections import scan_files

                self._files = scan_files(self.paths, include_home_skills=include_home_skills)
                self.problems.extend(self._files.problems)
            return self._files

    def forget_files(self) -> None:
        """Scan the files again on the next ``files()`` (after the window's own write of a task file)."""
        with self._once:
            self._files = None

    def check_json_columns(self, limit_per_column: int = 20) -> list[Problem]:
        """Report stored JSON values that do not parse, found in SQL without loading the tables.

        Runs once per opened store; later calls return the first answer (and add nothing twice)."""
        with self._once:
            if self._json_checked is None:
                self._json_checked = self._find_bad_json(limit_per_column)
                self.problems.extend(self._json_checked)
            return self._json_checked

    def _find_bad_json(self, limit_per_column: int) -> list[Problem]:
        found: list[Problem] = []
        if self.db is None:
            return found
        for table, parsers in JSON_COLUMNS.items():
            if not self.has_table(table):
                continue
            for column in parsers:
                if column not in self.cols.of(table):
                    continue
                try:
                    rows = self.db.rows(
                        f'SELECT rowid FROM "{table}" WHERE "{column}" IS NOT NULL AND NOT json_valid("{column}") '
                        "LIMIT :n", {"n": limit_per_column})
                except DatabaseError as exc:
                    found.append(Problem(str(self.paths.db_path), None, f"cannot check {table}.{column}: {exc}"))
                    continue
                for (rowid,) in rows:
                    found.append(Problem(f"{self.paths.db_path}#{table}", rowid,
                                         f"{table}.{column} of row {rowid} is not valid JSON"))
        return found

    # -- which copy Daycare reads ------------------------------------------------------------------
    def task_files_ignored(self) -> str | None:
        """Why Daycare reads no task file on this store (its tasks live in the database), or None when it
        reads them: before the import migration ran, or on a store of legacy files only."""
        if self.generation == "pglite":
            return PGLITE_TASKS
        if IMPORT_TASKS in self.migrations.applied_names:
            return ("Daycare imported its task files into the database once (migration 20260220_import_tasks) "
                    "and since then reads only the database rows")
        return None

    def task_sources(self) -> list[TaskSource]:
        """Pair cron/heartbeat files with imported rows and say which one Daycare reads."""
        from daycare_gui.stores.daycare.sqlite.queries.tasks import list_cron_rows, list_heartbeat_rows

        imported = IMPORT_TASKS in self.migrations.applied_names
        inv = self.files()
        rows = {
            "cron": {r.id for r in list_cron_rows(self.db, self.cols)} if self.db else set(),
            "heartbeat": {r.id for r in list_heartbeat_rows(self.db, self.cols)} if self.db else set(),
        }
        files = {
            "cron": {t.id: t.path for t in inv.items("cron_tasks")},
            "heartbeat": {t.id: t.path for t in inv.items("heartbeat_tasks")},
        }
        out = []
        for kind in ("cron", "heartbeat"):
            for task_id in sorted(set(rows[kind]) | set(files[kind])):
                has_row = task_id in rows[kind]
                path = files[kind].get(task_id)
                if self.generation == "pglite":
                    reads, reason = "row", PGLITE_TASKS
                elif imported:
                    reads, reason = "row", (
                        "Daycare imported task files once (20260220_import_tasks) and now reads the database row"
                        if has_row else "this file was not imported (skipped or added later); Daycare ignores it")
                else:
                    reads, reason = "file", "tasks have not been imported into the database yet; Daycare reads the file"
                out.append(TaskSource(kind, task_id, path, has_row, reads, reason, self.paths.db_path))
        return out

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open_store(path: str | os.PathLike | None = None, *, live: bool = True) -> Store:
    """Open a Daycare store read-only. Raises NotADaycareDirectory (with a clear message) only when the
    path is not Daycare's at all; every other difficulty becomes a problem on the store."""
    paths = resolve_paths(path)
    problems = ProblemLog()
    problems.extend(paths.problems)
    detection = detect(paths)
    engine = engine_status(paths)
    db = None
    if detection.has_sqlite and detection.generation == "sqlite":
        try:
            db = ReadOnlyDatabase(paths.db_path, live=live, writer="the Daycare engine")
            if db.mode.note:
                problems.add(paths.db_path, db.mode.note, severity="warning")
        except DatabaseError as exc:
            problems.add(paths.db_path, str(exc))
    for note in detection.notes:
        problems.add(paths.root, note, severity="warning")
    # The walk of the store's folders (~70 on the 1M-record demo: 10-15 ms before the window could show the
    # store, more on a cold disk) waits until the first page is shown; a command still lists them at once.
    opening.later(lambda: _report_leftovers(problems, paths))
    return Store(paths, detection, engine, db, problems)


def _report_leftovers(problems: ProblemLog, paths: DaycarePaths) -> None:
    """Copies left by killed upgrades and saves, in the store and beside its database."""
    from daycare_gui.stores.common import leftovers

    found = leftovers.in_tree(paths.root) if paths.root.is_dir() else []
    seen = {lo.path for lo in found}
    db_dir = paths.db_path.parent
    if db_dir != paths.root and not _is_under(db_dir, paths.root):
        found += [lo for lo in leftovers.in_folder(db_dir) if lo.path not in seen]
    leftovers.report(problems, found)


def _is_under(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


def task_source_of(file: str | os.PathLike) -> TaskSource | None:
    """Which copy Daycare reads for a cron ``TASK.md`` or a heartbeat file, judged from the store around it.

    The store is the folder holding ``cron/`` or ``heartbeat/`` (where Daycare's import looks, beside the
    database). None when the file is not a task file of a Daycare store. Opens nothing for writing.
    """
    path = Path(os.path.abspath(file))
    if path.name == "TASK.md" and path.parent.parent.name == "cron":
        kind, root = "cron", path.parent.parent.parent
    elif path.suffix.lower() == ".md" and path.parent.name == "heartbeat":
        kind, root = "heartbeat", path.parent.parent
    else:
        return None
    try:
        store = open_store(root)
    except NotADaycareDirectory:
        return None
    with store:
        real = os.path.realpath(path)
        for source in store.task_sources():
            if source.kind == kind and source.file_path is not None and os.path.realpath(source.file_path) == real:
                return source
    return None


def now_ms() -> int:
    return int(time.time() * 1000)

"""Tell which generation of Daycare storage a folder holds.

Generations overlap on disk (imports never delete legacy files; the PGlite code ignores an old
``daycare.db``), so detection reports everything it sees and picks the one Daycare would use now:
PGlite, else SQLite, else legacy files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.regular_files import open_regular
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.daycare.paths import DB_NAME, PGLITE_SUFFIX, DaycarePaths, NotADaycareDirectory

SQLITE_MAGIC = b"SQLite format 3\x00"

# Folders and files whose presence says "Daycare wrote here".
# Generations kept in a database; the others ("legacy-files", "empty") are read from files by legacy/.
DATABASE_GENERATIONS = ("sqlite", "pglite")
_LEGACY_FOLDERS = ("agents", "cron", "heartbeat", "signals", "channels", "expose", "processes")


@dataclass(frozen=True)
class Detection:
    generation: str  # "pglite" | "sqlite" | "legacy-files" | "empty"
    has_sqlite: bool
    has_pglite: bool
    sqlite_wal_mode: bool
    legacy_folders: tuple[str, ...]
    legacy_agents: int
    notes: tuple[str, ...] = field(default=())

    @property
    def kind(self) -> str:
        return "daycare"


def _sqlite_header(path: Path) -> bytes | None:
    try:
        with open_regular(path) as fh:
            return fh.read(100)
    except OSError:
        return None


def _holds_postgres_files(path: Path) -> bool:
    return path.is_dir() and (path / "PG_VERSION").is_file() and (path / "global").is_dir()


def is_pglite_folder(path: Path) -> bool:
    """A PostgreSQL data directory as PGlite writes it; any other folder is not a PGlite store. Daycare never
    keeps PGlite at ``daycare.db`` (it swaps the extension for ``.pglite``), so such files there are damage."""
    return path.name != DB_NAME and _holds_postgres_files(path)


def database_folder_note(db_path: Path) -> str | None:
    """Why ``db_path`` cannot be Daycare's SQLite database when it is a folder: that is damage, and
    PGlite never lives there (Daycare puts it at the path with ``.pglite`` as its extension)."""
    if db_path.suffix == PGLITE_SUFFIX or not db_path.is_dir():
        return None
    note = f"{db_path} is a folder, not a database file"
    if _holds_postgres_files(db_path):
        note += f" (it holds PostgreSQL files, but Daycare reads its PGlite store from {db_path.with_suffix(PGLITE_SUFFIX)})"
    return note


def _count_legacy_agents(agents_dir: Path) -> int:
    try:
        return sum(1 for d in agents_dir.iterdir() if d.is_dir() and (d / "descriptor.json").exists())
    except OSError:
        return 0


def detect(paths: DaycarePaths) -> Detection:
    """Raise :class:`NotADaycareDirectory` when nothing Daycare writes is there."""
    notes: list[str] = []
    has_pglite = paths.pglite_path.is_dir()
    has_sqlite = False
    wal_mode = False
    if paths.db_path.is_file():
        header = _sqlite_header(paths.db_path)
        if header is None:
            notes.append(f"{paths.db_path} cannot be read")
        elif header.startswith(SQLITE_MAGIC):
            has_sqlite = True
            wal_mode = len(header) >= 20 and header[18] == 2 and header[19] == 2
        elif len(header) == 0:
            notes.append(f"{paths.db_path} is an empty file (a database Daycare never initialised)")
        else:
            notes.append(f"{paths.db_path} is not a SQLite database")
    elif (folder := database_folder_note(paths.db_path)) is not None:
        notes.append(folder)

    legacy = tuple(
        name for name in _LEGACY_FOLDERS if any((base / name).is_dir() for base in (*paths.legacy_dirs,))
    )
    legacy_agents = _count_legacy_agents(paths.agents_dir)
    others = [
        p
        for p in (paths.settings_path, paths.auth_path, paths.pid_path, *paths.users_dirs, paths.plugins_dir)
        if p.exists()
    ]

    if has_pglite:
        generation = "pglite"
        notes.append(
            f"{paths.pglite_path} is a PGlite (embedded PostgreSQL) store, the kind newer Daycare versions keep; "
            "daycare-gui reads a copy of it, never the folder itself"
        )
        if has_sqlite:
            notes.append(f"{paths.db_path} beside it is an older SQLite store that Daycare no longer reads")
    elif has_sqlite:
        generation = "sqlite"
    elif legacy_agents or legacy:
        generation = "legacy-files"
    elif others or paths.db_path.exists():
        generation = "empty"
        if not paths.db_path.is_dir():  # a folder in the database's place is damage, said above; not "no database yet"
            notes.append("a Daycare folder without agents or a database yet")
    else:
        raise NotADaycareDirectory(
            f"{paths.root} is not a Daycare data directory: no settings.json, daycare.db, daycare.pglite/ "
            "or legacy agents/ folder"
        )
    if generation in ("sqlite", "pglite") and legacy_agents:
        notes.append(f"{count(legacy_agents, 'legacy agent folder')} remain in {paths.agents_dir} (imports never delete them)")
    return Detection(generation, has_sqlite, has_pglite, wal_mode, legacy, legacy_agents, tuple(notes))

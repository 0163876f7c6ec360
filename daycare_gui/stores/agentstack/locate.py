"""Finding AgentStack's database from whatever path the user gives, the way AgentStack itself does.

AgentStack reads ``aistack.config.json`` (``agentstack.config.json`` before the 2026-01-24 rename) from its
working directory or the nearest folder above, replaces ``${VAR}`` in string values with the environment
variable (empty when unset), and opens ``memory.path`` (default ``./data/aistack.db``) relative to its
*working directory*. So for a folder D we look, in order, at: the config's path resolved against D (where
AgentStack run from D would look), against the config's own folder, then ``D/aistack.db``,
``D/data/aistack.db`` and the same for ``agentstack.db``. Only stats and small reads: probing is cheap.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.agentstack.schema import CONFIG_NAMES, DB_NAMES, SIGNATURE
from daycare_gui.stores.common.regular_files import missing_or_what, open_regular, read_regular

SQLITE_MAGIC = b"SQLite format 3\x00"
MAX_CONFIG_BYTES = 1 << 20
DEFAULT_MEMORY_PATH = "./data/aistack.db"
_VAR = re.compile(r"\$\{([^}]+)\}")


@dataclass
class Located:
    db: Path | None  # the database, or None when none was found
    via: str  # "file", "folder", "data folder", "config", "parent config"
    config: Path | None = None
    memory_path: str | None = None  # memory.path after ${VAR} expansion
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # the config could not be read, ...


def expand_vars(value: str, env: dict[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    return _VAR.sub(lambda m: env.get(m.group(1), ""), value)


def read_config(path: Path) -> tuple[dict | None, str | None]:
    """The config as JSON (or None) and why it could not be read."""
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            return None, f"{path.name} is larger than 1 MiB; not read"
        data = json.loads(read_regular(path).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        return None, f"{path.name} could not be read as JSON ({type(exc).__name__}: {exc})"
    if not isinstance(data, dict):
        return None, f"{path.name} is not a JSON object"
    return data, None


def memory_path_of(config: dict) -> str:
    memory = config.get("memory")
    value = memory.get("path") if isinstance(memory, dict) else None
    return expand_vars(value) if isinstance(value, str) and value else DEFAULT_MEMORY_PATH


def find_config(start: Path) -> Path | None:
    """The nearest config in ``start`` or a folder above it."""
    folder = start
    while True:
        for name in CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file():
                return candidate
        if folder.parent == folder:
            return None
        folder = folder.parent


def locate(path: str | os.PathLike) -> Located:
    given = Path(os.fspath(path)).expanduser()
    if given.is_file():
        if given.name in CONFIG_NAMES:
            return _via_config(given, cwd=given.parent, via="config")
        return Located(given, "file")
    if not given.is_dir():
        return Located(None, "missing", notes=[f"{given} {missing_or_what(given)}"])
    config = find_config(given)
    if config is not None:
        found = _via_config(config, cwd=given, via="config" if config.parent == given else "parent config")
        if found.db is not None:
            return found
    for name in DB_NAMES:
        for folder, via in ((given, "folder"), (given / "data", "data folder")):
            if (folder / name).is_file():
                loc = Located(folder / name, via)
                if config is not None:
                    loc.config = config
                    loc.notes.append(f"{config} names a database that does not exist; "
                                     f"using {folder / name} instead")
                return loc
    if config is not None:
        return found
    return Located(None, "folder", notes=[f"no {' or '.join(DB_NAMES)} here, in data/, "
                                          f"or through an {CONFIG_NAMES[0]} here or above"])


def _via_config(config: Path, *, cwd: Path, via: str) -> Located:
    data, problem = read_config(config)
    memory_path = memory_path_of(data) if data is not None else DEFAULT_MEMORY_PATH
    loc = Located(None, via, config=config, memory_path=memory_path)
    if problem:
        loc.problems.append(problem)
    target = Path(memory_path).expanduser()
    tried = [target] if target.is_absolute() else [cwd / target, config.parent / target]
    for candidate in dict.fromkeys(tried):
        if candidate.is_file():
            loc.db = candidate
            if candidate != tried[0]:
                loc.notes.append(f"{memory_path} resolved against the config's folder; AgentStack resolves it "
                                 "against its working directory, which may hold another database")
            return loc
    loc.notes.append(f"{config.name} names {memory_path}, which does not exist")
    return loc


@dataclass(frozen=True)
class FileCheck:
    is_sqlite: bool
    tables: frozenset[str] = frozenset()
    empty: bool = False
    error: str | None = None

    @property
    def agentstack_tables(self) -> int:
        return sum(1 for t in SIGNATURE if t in self.tables)


def check_file(db: Path) -> FileCheck:
    """Is ``db`` SQLite, and which tables does it list? Reads the header and the schema only, immutably."""
    try:
        with open_regular(db) as fh:
            head = fh.read(16)
    except OSError as exc:
        return FileCheck(False, error=f"cannot read it ({exc.strerror or exc})")
    if not head:
        return FileCheck(False, empty=True)
    if head != SQLITE_MAGIC:
        return FileCheck(False, error="not a SQLite database")
    from daycare_gui.stores.agentstack.database import connect_readonly, uri_of

    try:
        conn = connect_readonly(uri_of(db, mode="ro", immutable="1"))
        try:
            names = frozenset(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'"))
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return FileCheck(True, error=f"its schema cannot be read ({exc})")
    return FileCheck(True, names)

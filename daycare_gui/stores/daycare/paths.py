"""Resolve a user-given PATH into the locations Daycare would use.

Follows seed 000 (Config Path Wiring) as corrected by ``reference/daycare-as-built.md``: the settings file
lives in the root, ``configDir`` is its folder, ``dataDir``/``dbPath`` come from ``settings.engine``, users
live under ``configDir/users`` at 808af509 and under ``dataDir/users`` later (we look in both), and the
import migrations read legacy folders from the directory that holds the database.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.regular_files import read_regular
from daycare_gui.stores.masking import mask_url_credentials
from daycare_gui.stores.problems import Problem

SETTINGS_NAME = "settings.json"
DB_NAME = "daycare.db"
PGLITE_SUFFIX = ".pglite"


class NotADaycareDirectory(Exception):
    """Raised when PATH holds nothing Daycare writes."""


def default_root() -> Path:
    """``$DAYCARE_ROOT_DIR`` when set and non-blank, else ``~/.daycare`` (as Daycare resolves it)."""
    env = os.environ.get("DAYCARE_ROOT_DIR", "").strip()
    if env:
        return Path(env).expanduser().resolve()
    return Path.home() / ".daycare"


@dataclass(frozen=True)
class DaycarePaths:
    root: Path
    settings_path: Path
    config_dir: Path
    data_dir: Path
    db_path: Path
    pglite_path: Path
    agents_dir: Path
    users_dirs: tuple[Path, ...]
    auth_path: Path
    socket_path: Path
    pid_path: Path
    workspace_dir: Path
    plugins_dir: Path
    # Folders where legacy files (cron/, heartbeat/, signals/, channels/, expose/, processes/) may live:
    # the folder of the database first (what Daycare's imports read), then configDir and dataDir.
    legacy_dirs: tuple[Path, ...]
    settings: dict = field(default_factory=dict, compare=False, repr=False)
    problems: tuple[Problem, ...] = field(default=(), compare=False, repr=False)

    @property
    def legacy_dir(self) -> Path:
        """The folder Daycare's import migrations read legacy files from."""
        return self.legacy_dirs[0]

    def to_dict(self) -> dict:
        out = {
            "root": str(self.root),
            "settings": str(self.settings_path),
            "config_dir": str(self.config_dir),
            "data_dir": str(self.data_dir),
            "db": str(self.db_path),
            "pglite": str(self.pglite_path),
            "agents_dir": str(self.agents_dir),
            "users_dirs": [str(p) for p in self.users_dirs],
            "auth": str(self.auth_path),
            "socket": str(self.socket_path),
            "pid_file": str(self.pid_path),
            "workspace_dir": str(self.workspace_dir),
            "plugins_dir": str(self.plugins_dir),
            "legacy_dirs": [str(p) for p in self.legacy_dirs],
        }
        # A path setting may hold a URL with a password in it; nothing here may print one.
        return {k: [mask_url_credentials(x) for x in v] if isinstance(v, list) else mask_url_credentials(v)
                for k, v in out.items()}

    def contains(self, path: Path) -> bool:
        """True when ``path`` (after resolving symlinks) stays inside one of the store's folders."""
        try:
            real = Path(os.path.realpath(path))
        except OSError:
            return False
        roots = {self.root, self.config_dir, self.data_dir, self.workspace_dir, *self.users_dirs, *self.legacy_dirs}
        for base in roots:
            base_real = Path(os.path.realpath(base))
            if real == base_real or base_real in real.parents:
                return True
        return False


def _unique(paths) -> tuple[Path, ...]:
    seen: list[Path] = []
    for p in paths:
        if p not in seen:
            seen.append(p)
    return tuple(seen)


def _load_settings(path: Path) -> tuple[dict, list[Problem]]:
    if not path.is_file():
        return {}, []
    try:
        raw = read_regular(path)
    except OSError as exc:
        return {}, [Problem(str(path), None, f"cannot read settings: {exc.strerror or exc}")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return {}, [Problem(str(path), None, f"settings are not UTF-8 (byte {exc.start}); using defaults")]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return {}, [Problem(str(path), exc.lineno, f"settings are not valid JSON ({exc.msg}); using defaults")]
    if not isinstance(data, dict):
        return {}, [Problem(str(path), None, "settings must be a JSON object; using defaults")]
    return data, []


def _engine_setting(settings: dict, *keys: str):
    node = settings.get("engine")
    for key in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node if isinstance(node, str) and node.strip() else None


def _resolve_setting_path(value: str, config_dir: Path, what: str, problems: list[Problem], settings_path: Path):
    p = Path(value).expanduser()
    if p.is_absolute():
        return p
    # Daycare resolves these against its working directory, which we cannot know; the settings folder is
    # the best guess, and the user should know we guessed.
    problems.append(
        Problem(
            str(settings_path),
            None,
            f"engine.{what} is relative ({value!r}); Daycare resolves it against its working directory, "
            f"shown here against {config_dir}",
            "warning",
        )
    )
    return (config_dir / p).resolve()


def resolve_paths(path: str | os.PathLike | None = None) -> DaycarePaths:
    """Turn a root, a data dir or a settings file into resolved Daycare locations.

    Never writes anything. Raises :class:`NotADaycareDirectory` only when ``path`` does not exist;
    deciding whether a directory *looks like* Daycare is :mod:`daycare_gui.stores.daycare.detect`'s job.
    """
    given = Path(path).expanduser() if path is not None else default_root()
    given = Path(os.path.abspath(given))
    if not given.exists():
        raise NotADaycareDirectory(f"{given} does not exist")
    given_pglite = None
    if given.is_dir() and given.suffix == PGLITE_SUFFIX:
        # The PGlite folder itself (Daycare's db path with a .pglite extension): its folder is the data dir.
        given_pglite, given = given, given.parent
    if given.is_dir() and given.name == DB_NAME:
        # A damaged store whose daycare.db became a folder: look at the store around it, so detection can
        # say what is wrong instead of calling the folder "not a Daycare data directory".
        settings_path, root = given.parent / SETTINGS_NAME, given.parent
    elif given.is_file():
        if given.suffix.lower() == ".json":
            settings_path, root = given, given.parent
        elif given.suffix == ".db" or given.name == DB_NAME:
            # A database file given directly: treat its folder as the data dir.
            settings_path, root = given.parent / SETTINGS_NAME, given.parent
        else:
            raise NotADaycareDirectory(f"{given} is a file, not a Daycare folder or settings.json")
    else:
        root = given
        settings_path = given / SETTINGS_NAME

    settings, problems = _load_settings(settings_path)
    config_dir = settings_path.parent

    data_value = _engine_setting(settings, "dataDir")
    data_dir = _resolve_setting_path(data_value, config_dir, "dataDir", problems, settings_path) if data_value else root
    db_value = _engine_setting(settings, "dbPath") or _engine_setting(settings, "db", "path")
    if given.suffix == ".db" and given != root:  # a database named directly (or the folder in its place)
        db_path = given
    elif db_value:
        db_path = _resolve_setting_path(db_value, config_dir, "dbPath", problems, settings_path)
    else:
        db_path = data_dir / DB_NAME
    pglite_path = db_path if db_path.suffix == PGLITE_SUFFIX else db_path.with_suffix(PGLITE_SUFFIX)
    if given_pglite is not None:
        pglite_path = given_pglite

    socket_value = _engine_setting(settings, "socketPath")
    socket_path = Path(socket_value).expanduser() if socket_value else root / "daycare.sock"

    assistant = settings.get("assistant") if isinstance(settings.get("assistant"), dict) else {}
    ws_value = assistant.get("workspaceDir") if isinstance(assistant.get("workspaceDir"), str) else None
    if ws_value and ws_value.strip():
        ws = Path(ws_value).expanduser()
        workspace_dir = ws if ws.is_absolute() else (config_dir / ws).resolve()
    else:
        workspace_dir = config_dir / "workspace"

    return DaycarePaths(
        root=root,
        settings_path=settings_path,
        config_dir=config_dir,
        data_dir=data_dir,
        db_path=db_path,
        pglite_path=pglite_path,
        agents_dir=data_dir / "agents",
        users_dirs=_unique([config_dir / "users", data_dir / "users"]),
        auth_path=data_dir / "auth.json",
        socket_path=socket_path,
        pid_path=config_dir / "engine.pid",
        workspace_dir=workspace_dir,
        plugins_dir=data_dir / "plugins",
        legacy_dirs=_unique([db_path.parent, config_dir, data_dir]),
        settings=settings,
        problems=tuple(problems),
    )

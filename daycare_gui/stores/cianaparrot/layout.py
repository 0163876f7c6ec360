"""Where a CianaParrot deployment keeps things, from a folder, its config.yaml, its data dir or a lone db.

Paths in ``config.yaml`` (deep-merged with ``config.local.yaml``, as the bot does) are relative to the bot's
working directory, which is the folder holding the config; their ``${VAR}`` are filled in as the bot does
(``config_env``). A path that does not exist on this machine (``/app/data`` inside the container) falls back
to the default beside the config, and a note says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from daycare_gui.stores.cianaparrot.config_env import BotEnvironment
from daycare_gui.stores.common.files.yaml_guard import too_deep
from daycare_gui.stores.common.regular_files import missing_or_what, read_regular

DB_NAME = "checkpoints.db"
DATA_MARKERS = ("checkpoints.db", "session_counters.json", "scheduled_tasks.json", "cc_user_states.json")
WORKSPACE_DOCS = ("IDENTITY.md", "AGENT.md", "MEMORY.md")


@dataclass
class Layout:
    root: Path | None  # the bot's working directory; None for a lone database
    data_dir: Path | None
    workspace: Path | None
    db: Path | None
    tasks_file: Path | None
    cc_states_file: Path | None
    config_files: tuple[Path, ...] = ()
    notes: list[str] = field(default_factory=list)
    problems: list[tuple[Path, str, str]] = field(default_factory=list)  # (path, message, severity)
    config_sections: tuple[str, ...] = ()  # top-level keys of the merged configuration

    @property
    def counters_file(self) -> Path | None:
        return self.data_dir / "session_counters.json" if self.data_dir else None

    def session_dirs(self) -> list[tuple[str, Path]]:
        """(origin, folder): the current ``workspace/sessions`` first, then the older ``data/sessions``."""
        out = []
        if self.workspace is not None:
            out.append(("workspace/sessions", self.workspace / "sessions"))
        if self.data_dir is not None:
            out.append(("data/sessions", self.data_dir / "sessions"))
        return out

    def to_dict(self) -> dict:
        def s(p: Path | None) -> str | None:
            return str(p) if p is not None else None

        return {"root": s(self.root), "data_dir": s(self.data_dir), "workspace": s(self.workspace),
                "database": s(self.db), "counters": s(self.counters_file),
                "tasks": s(self.tasks_file), "cc_states": s(self.cc_states_file),
                "config": [str(p) for p in self.config_files],
                "session_logs": [str(p) for _, p in self.session_dirs()]}


def _deep_merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        out[key] = _deep_merge(out[key], value) if isinstance(out.get(key), dict) and isinstance(value, dict) else value
    return out


def read_config(root: Path) -> tuple[dict, tuple[Path, ...], list[tuple[Path, str, str]]]:
    config: dict = {}
    files, problems = [], []
    for name in ("config.yaml", "config.local.yaml"):
        path = root / name
        if not path.is_file():
            continue
        files.append(path)
        import yaml  # here, not above: probing a folder without a config must not load PyYAML

        # libyaml when present: the pure-Python scanner takes seconds on deeply nested flow collections;
        # both loaders build plain data only (no Python objects)
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        try:
            text = read_regular(path).decode("utf-8")
            if reason := too_deep(text):  # libyaml would take minutes, then crash the process
                problems.append((path, f"cannot read the configuration (YAML {reason}); defaults used",
                                 "warning"))
                continue
            loaded = yaml.load(text, Loader=loader) or {}
        except (OSError, UnicodeDecodeError, ValueError, RecursionError, yaml.YAMLError) as exc:
            why = str(exc).splitlines()[0]
            problems.append((path, f"cannot read the configuration ({why}); defaults used", "warning"))
            continue
        if not isinstance(loaded, dict):
            problems.append((path, "the configuration is not a mapping; defaults used", "warning"))
            continue
        config = _deep_merge(config, loaded)
    return config, tuple(files), problems


def _get(config: dict, *keys: str) -> Any:
    for key in keys:
        if not isinstance(config, dict):
            return None
        config = config.get(key)
    return config


def _place(root: Path, configured: Any, default: str, what: str, notes: list[str], env: BotEnvironment) -> Path:
    fallback = root / default
    if not isinstance(configured, str) or not configured.strip():
        return fallback
    # ${VAR} only, as the bot's loader does (not $VAR, not ~), each use noted with where its value came from
    text, said = env.expand(configured.strip(), what)
    notes.extend(said)
    path = Path(text)
    path = path if path.is_absolute() else root / path
    if not path.exists() and fallback.exists() and path != fallback:
        here = f" ({path} here)" if text != configured.strip() else ""
        notes.append(f"{what} is configured as {configured}{here}, which does not exist here; using {fallback}")
        return fallback
    return path


def _folder(path: Path, what: str, problems: list) -> Path | None:
    """PATH unless it names a file. Looking inside a file for the folder's contents would only report each
    of them missing, which hides the one mistake to fix (the bot cannot start with it either)."""
    if path.exists() and not path.is_dir():
        problems.append((path, f"{what} names a file, not a folder: {path}", "error"))
        return None
    return path


def deployment(root: Path) -> Layout:
    config, files, problems = read_config(root)
    notes: list[str] = []
    env = BotEnvironment(root)
    data = _folder(_place(root, _get(config, "agent", "data_dir"), "data", "agent.data_dir", notes, env),
                   "agent.data_dir", problems)
    workspace = _folder(_place(root, _get(config, "agent", "workspace"), "workspace", "agent.workspace",
                               notes, env), "agent.workspace", problems)
    tasks = _place(root, _get(config, "scheduler", "data_file"), "data/scheduled_tasks.json",
                   "scheduler.data_file", notes, env)
    cc = _place(root, _get(config, "claude_code", "state_file"), "data/cc_user_states.json",
                "claude_code.state_file", notes, env)
    return Layout(root, data, workspace if workspace and workspace.is_dir() else None,
                  data / DB_NAME if data else None, tasks, cc, files, notes, problems,
                  tuple(str(k) for k in config))


def lone_database(db: Path) -> Layout:
    return Layout(None, None, None, db, None, None, notes=["a checkpoints database alone: no chats' files, "
                                                          "tasks or workspace"])


def _is_data_dir(p: Path) -> bool:
    return any((p / m).exists() for m in DATA_MARKERS) or (p / "sessions").is_dir()


def _looks_like_root(p: Path) -> bool:
    return (p / "config.yaml").is_file() or ((p / "data").is_dir() and (p / "workspace").is_dir())


def resolve(path: Path) -> tuple[Layout | None, str, float]:
    """The layout PATH points at, why, and how sure we are (0 when it is not CianaParrot's)."""
    if path.is_file():
        if path.name in ("config.yaml", "config.local.yaml"):
            return _judge(path.parent)
        if path.parent.name == "data" and _looks_like_root(path.parent.parent) and path.name == DB_NAME:
            layout, reason, conf = _judge(path.parent.parent)
            if layout is not None and layout.db == path:
                return layout, reason, conf
        return lone_database(path), "a database file", -1.0  # the caller checks its tables
    if not path.is_dir():
        return None, ("no such file or folder" if not os.path.lexists(path) else f"{path} {missing_or_what(path)}"), 0.0
    if _looks_like_root(path):
        return _judge(path)
    if _is_data_dir(path):
        if _looks_like_root(path.parent):
            return _judge(path.parent)
        layout = Layout(None, path, None, path / DB_NAME, path / "scheduled_tasks.json",
                        path / "cc_user_states.json", notes=["a data folder without its workspace"])
        found = [m for m in DATA_MARKERS if (path / m).exists()]
        sure = 0.9 if {"session_counters.json", "checkpoints.db"} <= set(found) else 0.5
        return layout, f"a CianaParrot data folder ({', '.join(found) or 'sessions/'})", sure
    return None, "no config.yaml, no data/ and workspace/, no checkpoints.db", 0.0


def _judge(root: Path) -> tuple[Layout, str, float]:
    layout = deployment(root)
    bot_keys = [k for k in ("agent", "scheduler", "claude_code", "channels") if k in layout.config_sections]
    data_found = [m for m in DATA_MARKERS if layout.data_dir and (layout.data_dir / m).exists()]
    docs = [d for d in WORKSPACE_DOCS if layout.workspace and (layout.workspace / d).exists()]
    # A configured folder that is a file: said in every answer, since it is why the files are not found.
    misplaced = "; ".join(message for _path, message, severity in layout.problems if severity == "error")
    if ("agent" in bot_keys and ("scheduler" in bot_keys or "claude_code" in bot_keys)) or data_found or (
        docs and (misplaced or (layout.data_dir and layout.data_dir.is_dir()))
    ):
        why = ", ".join(filter(None, [
            f"config.yaml ({', '.join(bot_keys)})" if bot_keys else "",
            f"data/ ({', '.join(data_found)})" if data_found else "",
            f"workspace/ ({', '.join(docs)})" if docs else "",
            misplaced,
        ]))
        return layout, f"a CianaParrot deployment: {why}", 1.0
    if layout.data_dir and layout.data_dir.is_dir() and layout.workspace is not None:
        return layout, "data/ and workspace/ folders, but none of CianaParrot's files in them", 0.4
    if misplaced:
        return layout, f"config.yaml without CianaParrot's sections, and {misplaced}", 0.0
    return layout, "config.yaml without CianaParrot's sections, and no data/ with its files", 0.0

"""Where things are in a Linggen home, and how sure a folder is one (cheap: stats and small listings).

Two layouts exist. The per-project one (seed 002) keeps sessions, runs and missions under
``projects/<encoded path>/``; the later flat one keeps ``sessions/<id>/`` and ``missions/<id>/mission.md``
at the top of the home. After an upgrade both sit side by side, and the newer Linggen no longer reads the
per-project sessions: both are shown here, each marked with its layout.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

# Files whose presence makes the folder a Linggen home for certain.
_CONFIG_NAMES = ("linggen-agent.runtime.toml", "linggen-agent.toml", "linggen.runtime.toml", "linggen.toml")
_LOG_PREFIXES = ("linggen-agent.", "linggen.")
_SAMPLE = 50  # sub-folders looked at while probing, at most


@dataclass(frozen=True)
class HomePaths:
    root: Path

    @property
    def projects(self) -> Path:
        return self.root / "projects"

    @property
    def sessions(self) -> Path:
        return self.root / "sessions"

    @property
    def missions(self) -> Path:
        return self.root / "missions"

    @property
    def agents(self) -> Path:
        return self.root / "agents"

    @property
    def skills(self) -> Path:
        return self.root / "skills"

    @property
    def plans(self) -> Path:
        return self.root / "plans"

    @property
    def config(self) -> Path:
        return self.root / "config"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def credentials(self) -> Path:
        return self.root / "credentials.json"

    @property
    def pid(self) -> Path:
        return self.root / "ling.pid"


def encode_project_path(path: str) -> str:
    """Linggen's folder name for a project path: every ``/`` becomes ``-`` (lossy: never decoded)."""
    return path.replace("/", "-")


def env_home() -> Path | None:
    value = os.environ.get("LINGGEN_HOME", "")
    return Path(value).expanduser() if value else None


def default_home() -> Path:
    return env_home() or Path.home() / ".linggen"


@dataclass(frozen=True)
class Evidence:
    """What probing saw. ``strong`` facts make a folder a Linggen home on their own."""

    strong: tuple[str, ...]
    weak: tuple[str, ...]
    per_project: bool
    flat: bool


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except OSError:
        return False


def _exists(p: Path) -> bool:
    try:
        return p.exists()
    except OSError:
        return False


def _subdirs(p: Path, limit: int = _SAMPLE) -> list[Path]:
    out: list[Path] = []
    try:
        with os.scandir(p) as it:
            for entry in it:
                if len(out) >= limit:
                    break
                try:
                    if entry.is_dir() and not entry.name.startswith("."):
                        out.append(Path(entry.path))
                except OSError:
                    continue
    except OSError:
        return []
    return out


def _names(p: Path, limit: int = _SAMPLE) -> list[str]:
    try:
        with os.scandir(p) as it:
            out = []
            for entry in it:
                if len(out) >= limit:
                    break
                out.append(entry.name)
            return out
    except OSError:
        return []


def gather_evidence(root: Path) -> Evidence:
    strong: list[str] = []
    weak: list[str] = []
    home = HomePaths(root)
    per_project = flat = False
    for project in _subdirs(home.projects):
        if _exists(project / "project.json"):
            strong.append("projects/<folder>/project.json")
            break
    for project in _subdirs(home.projects):
        if _is_dir(project / "sessions") or _is_dir(project / "runs") or _is_dir(project / "missions"):
            per_project = True
            if _any_session(project / "sessions"):
                strong.append("projects/<folder>/sessions/<id>/session.yaml")
            break
    if _any_session(home.sessions):
        strong.append("sessions/<id>/session.yaml")
        flat = True
    for mission in _subdirs(home.missions):
        if _exists(mission / "mission.md"):
            strong.append("missions/<id>/mission.md")
            flat = True
            break
    if any(n in _CONFIG_NAMES for n in _names(home.config)):
        strong.append("config/linggen*.toml")
    if any(n.startswith(_LOG_PREFIXES) for n in _names(home.logs)):
        strong.append("logs/linggen*")
    if _exists(home.pid):
        weak.append("ling.pid")
    if _exists(home.credentials):
        weak.append("credentials.json")
    for name in ("agents", "skills", "plans"):
        if _is_dir(root / name):
            weak.append(f"{name}/")
    return Evidence(tuple(dict.fromkeys(strong)), tuple(weak), per_project, flat)


def _any_session(sessions: Path) -> bool:
    return any(_exists(s / "session.yaml") or _exists(s / "messages.jsonl") for s in _subdirs(sessions, 20))


def named_as_home(root: Path) -> bool:
    """The folder is ``~/.linggen`` or ``$LINGGEN_HOME`` (or any folder named ``.linggen``)."""
    if root.name == ".linggen":
        return True
    env = env_home()
    try:
        return env is not None and env.resolve() == root.resolve()
    except OSError:
        return False


def is_workspace_dir(root: Path) -> bool:
    """A repository's ``.linggen/`` (permissions and workspace tasks), not a home."""
    names = set(_names(root))
    return bool(names) and names <= {"permissions.json", "workspace"}

"""Paths the kind reads that are the wrong kind of thing: a folder where the bot keeps a file (its tasks,
counters, Claude Code states, checkpoints database, the workspace's Markdown) or a file where it keeps a
folder (session logs, skills).

Each is said once, naming the setting it comes from and what the bot does with it. Unsaid, a folder in a
file's place came out as "cannot read (disk I/O error)" or a traceback on saving, and a file in a folder's
place as an empty list. (``agent.data_dir`` and ``agent.workspace`` naming a file are said by the layout.)
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.cianaparrot.files import SCHEDULER_FAILS
from daycare_gui.stores.cianaparrot.layout import WORKSPACE_DOCS, Layout


def _expected_files(L: Layout) -> list[tuple[Path | None, str, str]]:
    """(path, what names it, what follows) for each file the kind reads."""
    out = [
        (L.tasks_file, "scheduler.data_file names", SCHEDULER_FAILS),
        (L.cc_states_file, "claude_code.state_file names",
         "the bot can neither read nor save its Claude Code states there, and none are listed"),
        (L.counters_file, "session_counters.json in agent.data_dir is",
         "the bot can neither read nor save its session counters there, and none are listed"),
        (L.db, "checkpoints.db in agent.data_dir is",
         "the bot cannot open its checkpoints there, and no conversation is read from it"),
    ]
    if L.workspace is not None:
        out += [(L.workspace / name, f"{name} in agent.workspace is", "it is not listed among the documents")
                for name in WORKSPACE_DOCS]
    return out


def _expected_folders(L: Layout) -> list[tuple[Path, str, str]]:
    out = [(folder, f"{origin} is", "no session logs are read from it") for origin, folder in L.session_dirs()]
    if L.workspace is not None:
        out.append((L.workspace / "skills", "skills in agent.workspace is", "no skills are listed from it"))
    if L.root is not None:
        out.append((L.root / "skills", "skills beside the config is", "no skills are listed from it"))
    return out


def _kind_of(path: Path) -> str | None:
    """What is at ``path``: "folder", "file", or None when nothing is, or it cannot be looked at (a folder on the way we
    may not enter: that is said where the path is read, not guessed here)."""
    try:
        return "folder" if path.is_dir() else "file" if path.exists() else None
    except OSError:
        return None


def wrong_kind(L: Layout) -> dict[Path, str]:
    """path → the problem to list, for each path the kind reads that is a folder where a file belongs or a
    file where a folder belongs. (A missing path is not wrong: the bot has not written it yet.)"""
    out: dict[Path, str] = {}
    for path, what, then in _expected_files(L):
        if path is not None and _kind_of(path) == "folder":
            out.setdefault(path, f"{what} a folder, not a file: {path} — {then}")
    for path, what, then in _expected_folders(L):
        if _kind_of(path) == "file":
            out.setdefault(path, f"{what} a file, not a folder: {path} — {then}")
    return out

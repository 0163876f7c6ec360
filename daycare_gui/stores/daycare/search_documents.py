"""The documents a Daycare SQLite or legacy store's search covers, each keyed as its quick open lists it.

Skills and memory entities (from the file inventory the Skills and Memory sections show), agents' prompt
files (``SYSTEM.md``, ``INFERENCE.md``, ``compaction_<date>.md``) and the *keys* of settings.json and
auth.json: their values are never read into the index (they hold credentials). Each file is read bounded,
as a regular file inside the data directory; one that cannot be read is left out.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from daycare_gui.stores.daycare.datadir.agent_files import find_agent_files
from daycare_gui.stores.daycare.datadir.reading import read_capped

# (imported with the Directory, on the GUI thread before a store opens: never first on a worker)
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import JumpEntry, SearchDocument

SETTINGS_KEY = "settings:settings.json"
AUTH_KEY = "settings:auth.json"


def _text(path: Path, folder: Path) -> str | None:
    data = read_capped(Path(path), Path(folder))
    return None if data is None else data.decode("utf-8", "replace")


def key_paths(value, prefix: str = "") -> Iterator[str]:
    """Every key of a JSON document as a dotted path (``engine.dataDir``, ``providers[].id``); no value."""
    if isinstance(value, dict):
        for k, v in value.items():
            path = f"{prefix}.{k}" if prefix else str(k)
            yield path
            yield from key_paths(v, path)
    elif isinstance(value, list):
        seen: set[str] = set()
        for v in value:
            for p in key_paths(v, f"{prefix}[]"):
                if p not in seen:
                    seen.add(p)
                    yield p


def _settings_files(paths) -> list[tuple[str, str, Path]]:
    return [(SETTINGS_KEY, "settings.json", Path(paths.settings_path)),
            (AUTH_KEY, "auth.json", Path(paths.data_dir) / "auth.json")]


def prompt_files(paths):
    """Agents' prompt files (``datadir.agent_files``), or none when the agents folder cannot be listed."""
    return find_agent_files(Path(paths.agents_dir), ProblemLog())


def jump_entries(core) -> Iterator[JumpEntry]:
    """Quick-open entries for what Daycare's Directory did not list before: prompt files and settings."""
    for doc in prompt_files(core.paths):
        agent = doc.ref.id.split(":", 1)[1].split("/", 1)[0]
        yield JumpEntry("doc", doc.ref.id, f"{doc.ref.title} — agent {agent}", f"prompt file · {doc.ref.path}",
                        ("agent_files", doc.ref.id))
    for key, name, path in _settings_files(core.paths):
        if path.is_file():
            yield JumpEntry("doc", key, name, f"settings · {path}", ("settings", None))


def daycare_documents(core) -> Iterator[SearchDocument]:
    paths = core.paths
    inventory = core.files()
    for skill in inventory.items("skills"):
        text = _text(Path(skill.path), Path(skill.root) if skill.root else Path(skill.path).parent)
        if text is not None:
            yield SearchDocument(skill.path, skill.name or skill.id, "Skills", f"{skill.source} skill · {skill.path}",
                                 text)
    for entity in inventory.items("memory_entities"):
        text = _text(Path(entity.path), Path(entity.path).parent)
        if text is not None:
            yield SearchDocument(entity.path, entity.name or entity.entity, "Memory", f"memory · {entity.path}", text)
    for doc in prompt_files(paths):
        text = _text(doc.ref.path, doc.folder)
        if text is not None:
            yield SearchDocument(doc.ref.id, doc.ref.title, "Agents' prompt files", f"{doc.ref.group} · {doc.ref.path}",
                                 text)
    for key, name, path in _settings_files(paths):
        if not path.is_file():
            continue
        text = _text(path, path.parent)
        try:
            parsed = json.loads(text) if text is not None else None
        except ValueError:
            parsed = None
        if parsed is None:
            continue
        keys = "\n".join(key_paths(parsed))  # the keys only: values (tokens, keys) never reach the index
        yield SearchDocument(key, name, "Settings", f"settings · {path}", keys)

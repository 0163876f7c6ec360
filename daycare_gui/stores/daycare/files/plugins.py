"""Plugin data folders (``<dataDir>/plugins/<instanceId>/``): memory, database and upgrade plugins.

A folder's kind comes from ``settings.plugins`` (instanceId → pluginId) when listed, else from what it
holds (``INDEX.md`` → memory, ``db.md``/``db.pglite/`` → database, ``restart-pending.json`` → upgrade).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.files.base import Loaded, RecordMixin, as_int, as_str, loaded, split_known
from daycare_gui.stores.common.files.frontmatter import read_markdown
from daycare_gui.stores.common.files.jsonfile import read_json
from daycare_gui.stores.common.files.read import Root, list_dir, read_text, subdirs
from daycare_gui.stores.daycare.files.config_files import plugin_ids
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.problems import Problem

_INDEX_ITEM = re.compile(r"^\s*-\s*([a-z]+)\s*$")
_RECORD_HEADING = re.compile(r"^##\s+(.+)$", re.MULTILINE)
_NOT_ENTITIES = {"index.md", "db.md"}


@dataclass(frozen=True)
class PluginFolder(RecordMixin):
    instance_id: str
    path: str
    plugin_id: str | None  # from settings, when listed there
    kinds: tuple[str, ...]  # "memory", "database", "upgrade" as detected


@dataclass(frozen=True)
class MemoryRecord(RecordMixin):
    title: str
    body: str


@dataclass(frozen=True)
class MemoryEntity(RecordMixin):
    instance_id: str
    entity: str  # file base name
    path: str
    name: str | None
    description: str | None
    prefix: str  # text before the first ``## `` record (often "# <entity>")
    records: tuple[MemoryRecord, ...]
    listed_in_index: bool
    raw: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class DatabaseDoc(RecordMixin):
    instance_id: str
    path: str | None  # db.md
    schema: str | None  # between <!-- schema:start --> and <!-- schema:end -->
    changes: str | None  # between <!-- changes:start --> and <!-- changes:end -->
    pglite_dir: str | None  # db.pglite/ when present (its files are never opened here)


@dataclass(frozen=True)
class RestartPending(RecordMixin):
    instance_id: str
    path: str
    descriptor: dict | None
    context: dict | None
    requested_at_ms: int | None
    requester_pid: int | None
    previous_version: str | None
    raw: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


def plugin_folders(paths: DaycarePaths) -> Loaded[PluginFolder]:
    ids = plugin_ids(paths)
    dirs, problems = subdirs(paths.plugins_dir, root=paths)
    items = []
    for d in dirs:
        names = {e.name.lower() for e in list_dir(d.path, root=paths)[0]}
        kinds = []
        if "index.md" in names or ids.get(d.name) == "memory":
            kinds.append("memory")
        if "db.md" in names or "db.pglite" in names or ids.get(d.name) == "database":
            kinds.append("database")
        if "restart-pending.json" in names or ids.get(d.name) == "upgrade":
            kinds.append("upgrade")
        items.append(PluginFolder(d.name, str(d.path), ids.get(d.name), tuple(kinds)))
    return loaded(items, problems)


def parse_records(body: str) -> tuple[str, tuple[MemoryRecord, ...]]:
    """Split an entity body into prefix and ``## <record>`` sections, as the memory plugin's parseRecords."""
    matches = list(_RECORD_HEADING.finditer(body))
    if not matches:
        return body.rstrip(), ()
    prefix = body[: matches[0].start()].rstrip()
    records = []
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(body)
        text = re.sub(r"^\s*\n", "", body[m.end() : end], count=1).rstrip()
        records.append(MemoryRecord(m.group(1).strip(), text))
    return prefix, tuple(records)


def read_memory(folder: Path, instance_id: str, *, root: Root = None) -> Loaded[MemoryEntity]:
    problems: list[Problem] = []
    index_text, more = read_text(folder / "INDEX.md", root=root)
    problems.extend(more)
    indexed = []
    for line in (index_text or "").splitlines():
        m = _INDEX_ITEM.match(line)
        if m and m.group(1) not in indexed:
            indexed.append(m.group(1))
    entries, more = list_dir(folder, root=root)
    problems.extend(more)
    items = []
    on_disk = set()
    for e in entries:
        if not e.is_file or not e.name.endswith(".md") or e.name.lower() in _NOT_ENTITIES:
            continue
        entity = e.name[:-3]
        on_disk.add(entity)
        doc, more = read_markdown(e.path, root=root)
        problems.extend(more)
        if doc is None:
            continue
        prefix, records = parse_records(doc.body)
        listed = entity in indexed
        if not listed:
            problems.append(
                Problem(
                    str(e.path),
                    None,
                    "memory entity not listed in INDEX.md; the plugin ignores it",
                    "warning",
                )
            )
        items.append(
            MemoryEntity(
                instance_id,
                entity,
                str(e.path),
                as_str(doc.meta.get("name")),
                as_str(doc.meta.get("description")),
                prefix,
                records,
                listed,
                dict(doc.meta),
                split_known(doc.meta, {"name", "description"}),
            )
        )
    for entity in indexed:
        if entity not in on_disk:
            problems.append(
                Problem(
                    str(folder / "INDEX.md"),
                    None,
                    f"INDEX.md lists {entity!r} but {entity}.md is missing",
                    "warning",
                )
            )
    return loaded(items, problems)


def _between(text: str, name: str) -> str | None:
    m = re.search(rf"<!--\s*{name}:start\s*-->(.*?)<!--\s*{name}:end\s*-->", text, re.DOTALL)
    return m.group(1).strip("\n") if m else None


def read_database_doc(
    folder: Path, instance_id: str, *, root: Root = None
) -> tuple[DatabaseDoc, list[Problem]]:
    path = folder / "db.md"
    text, problems = read_text(path, root=root)
    pglite = folder / "db.pglite"
    schema = _between(text, "schema") if text is not None else None
    if text is not None and schema is None:
        problems.append(
            Problem(str(path), None, "no <!-- schema:start --> … <!-- schema:end --> section", "warning")
        )
    doc = DatabaseDoc(
        instance_id,
        str(path) if text is not None else None,
        schema,
        _between(text, "changes") if text is not None else None,
        str(pglite) if pglite.is_dir() else None,
    )
    return doc, problems


def read_restart_pending(
    folder: Path, instance_id: str, *, root: Root = None
) -> tuple[RestartPending | None, list[Problem]]:
    path = folder / "restart-pending.json"
    data, problems = read_json(path, root=root, expect=dict)
    if data is None:
        return None, problems
    return RestartPending(
        instance_id,
        str(path),
        data.get("descriptor") if isinstance(data.get("descriptor"), dict) else None,
        data.get("context") if isinstance(data.get("context"), dict) else None,
        as_int(data.get("requestedAtMs")),
        as_int(data.get("requesterPid")),
        as_str(data.get("previousVersion")),
        data,
        split_known(data, {"descriptor", "context", "requestedAtMs", "requesterPid", "previousVersion"}),
    ), problems


@dataclass(frozen=True)
class PluginData:
    folders: tuple[PluginFolder, ...]
    memory_entities: tuple[MemoryEntity, ...]
    database_docs: tuple[DatabaseDoc, ...]
    restart_pending: tuple[RestartPending, ...]
    problems: tuple[Problem, ...]


def read_plugins(paths: DaycarePaths) -> PluginData:
    folders, problems = plugin_folders(paths)
    problems = list(problems)
    memory, dbs, pending = [], [], []
    for f in folders:
        folder = Path(f.path)
        if "memory" in f.kinds:
            items, more = read_memory(folder, f.instance_id, root=paths)
            memory.extend(items)
            problems.extend(more)
        if "database" in f.kinds and (
            os.path.lexists(folder / "db.md") or os.path.lexists(folder / "db.pglite")
        ):
            doc, more = read_database_doc(folder, f.instance_id, root=paths)
            dbs.append(doc)
            problems.extend(more)
        if "upgrade" in f.kinds:
            rp, more = read_restart_pending(folder, f.instance_id, root=paths)
            problems.extend(more)
            if rp is not None:
                pending.append(rp)
    return PluginData(folders, tuple(memory), tuple(dbs), tuple(pending), tuple(problems))

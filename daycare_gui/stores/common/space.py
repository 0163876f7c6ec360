"""Measuring where a store's bytes go, read-only, for every kind: a kind names its tables and folders,
this module measures them.

SQLite: each table's and index's pages from the ``dbstat`` virtual table where the library has it
compiled in (Python's usually does); else only the file's page counts, and the report says so. Free pages
(``freelist_count``) are space a VACUUM gives back; the ``-wal`` beside the file is counted on its own.
PostgreSQL and PGlite: ``pg_total_relation_size`` (a table with its indexes and TOAST) and
``pg_relation_size`` for each index. Folders: the regular files under them, never following links.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from daycare_gui.stores.common.wording import byte_size
from daycare_gui.stores.records import SpaceLine

Fetch = Callable[[str], list[tuple]]  # runs one SQL statement, returns its rows
MAX_FILES = 200_000  # a folder walk stops here rather than take minutes; the line says so


def sqlite_tables(fetch: Fetch) -> tuple[list[SpaceLine], str]:
    """Every table and index with the bytes of its pages, largest first, and the method ("dbstat", or
    "page counts" when dbstat is not compiled in: then no line per table).

    ``dbstat`` is summed on its own and the schema read apart: joined to ``sqlite_master`` in one statement,
    SQLite scans the schema once per page (seconds on a big store instead of the one pass over the pages)."""
    try:
        rows = fetch("SELECT name, SUM(pgsize), COUNT(*) FROM dbstat GROUP BY name")
    except Exception:  # noqa: BLE001 — "no such table: dbstat" in a library built without it
        return [], "page counts"
    schema = {name: (kind, table) for name, kind, table in fetch("SELECT name, type, tbl_name FROM sqlite_master")}
    lines = []
    for name, size, pages in rows:
        kind, table = schema.get(name, ("table", name))
        lines.append(SpaceLine(name, int(size or 0), "index" if kind == "index" else "table", None,
                               f"{pages:,} page{'' if pages == 1 else 's'}" + (f", index on {table}" if kind == "index"
                                                                               else "")))
    lines.sort(key=lambda line: (-line.bytes, line.name))
    return lines, "dbstat"


def sqlite_file(fetch: Fetch, db: Path | None) -> tuple[int, int, int]:
    """(bytes of the file's pages, bytes of its free pages, bytes of the -wal beside it)."""
    page_size = int(fetch("PRAGMA page_size")[0][0])
    pages = int(fetch("PRAGMA page_count")[0][0])
    free = int(fetch("PRAGMA freelist_count")[0][0])
    wal = 0
    if db is not None:
        try:
            wal = Path(str(db) + "-wal").stat().st_size
        except OSError:
            wal = 0
    return pages * page_size, free * page_size, wal


PG_RELATIONS = """
SELECT c.relname, c.relkind, pg_total_relation_size(c.oid), pg_relation_size(c.oid), t.relname,
       CAST(c.reltuples AS bigint)
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_index i ON i.indexrelid = c.oid
LEFT JOIN pg_class t ON t.oid = i.indrelid
WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'm', 'i')
"""


def pg_tables(fetch: Fetch) -> tuple[list[SpaceLine], int]:
    """Tables (with their indexes and TOAST: ``pg_total_relation_size``) and indexes (``pg_relation_size``,
    counted in their table's line too), largest first; and the database's size."""
    lines = []
    for name, kind, total, own, table, tuples in fetch(PG_RELATIONS):
        if kind == "i":
            lines.append(SpaceLine(name, int(own), "index", None, f"index on {table} (in its size)"))
        else:
            lines.append(SpaceLine(name, int(total), "table", int(tuples) if tuples and tuples > 0 else None,
                                   f"own pages {byte_size(own)}, indexes and TOAST {byte_size(int(total) - int(own))}"))
    lines.sort(key=lambda line: (-line.bytes, line.name))
    size = fetch("SELECT pg_database_size(current_database())")[0][0]
    return lines, int(size)


def folder_size(folder: Path) -> tuple[int, int, bool]:
    """(bytes, files, complete) of the regular files under ``folder``; links are not followed."""
    total = files = 0
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    total += entry.stat(follow_symlinks=False).st_size
                    files += 1
            except OSError:
                continue
            if files >= MAX_FILES:
                return total, files, False
    return total, files, True


def folder_lines(folders: Iterable[tuple[str, Path | None]]) -> list[SpaceLine]:
    """One line per named folder that exists, largest first."""
    out = []
    for label, folder in folders:
        if folder is None or not folder.is_dir() or folder.is_symlink():
            continue
        size, files, complete = folder_size(folder)
        out.append(SpaceLine(label, size, "folder", files, str(folder) + ("" if complete else
                                                                         f" (counted up to {MAX_FILES} files)")))
    out.sort(key=lambda line: (-line.bytes, line.name))
    return out


def per_day(size: int, first_ms: int | None, last_ms: int | None) -> float | None:
    """Bytes per day between two times (None when they are missing or less than an hour apart)."""
    if first_ms is None or last_ms is None or last_ms - first_ms < 3_600_000:
        return None
    return size / ((last_ms - first_ms) / 86_400_000)


def subfolder_lines(root: Path | None, *, skip: Iterable[str] = ()) -> list[SpaceLine]:
    """One line per folder directly inside ``root`` (its own files are not counted), largest first."""
    if root is None or not root.is_dir():
        return []
    try:
        names = sorted(e.name for e in os.scandir(root) if e.is_dir(follow_symlinks=False) and e.name not in set(skip))
    except OSError:
        return []
    return folder_lines((name + "/", root / name) for name in names)


def named_holders(report, conversations):
    """``report`` (a ``SpaceReport``, or None) with its agents and threads named as every other page names them
    (``conversations``: the store's ``api.Conversations``, or None), the id kept in the detail. A store whose
    names cannot be read keeps its ids."""
    if report is None or conversations is None or not any(h.kind in ("agent", "thread") for h in report.holders):
        return report
    try:
        titles = {t.id: t.title for t in conversations.threads()}
    except Exception:  # names are a courtesy: the ids stand in
        return report
    def named(line: SpaceLine) -> SpaceLine:
        title = titles.get(line.name) if line.kind in ("agent", "thread") else None
        if not title or title == line.name:
            return line
        return replace(line, name=title, detail="; ".join(x for x in (line.detail, f"id {line.name}") if x))

    return replace(report, holders=[named(h) for h in report.holders])

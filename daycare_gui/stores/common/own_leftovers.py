"""This application's own leftovers, beside a store and in its cache: found by a dry run, removed by the
same rule, each one checked again just before it goes.

What counts, and why it may go:

* backups this application made before it replaced a file (``.daycare-gui-backups/<name>.<time>[.n].bak``,
  a prune's ``….prune.bak``) beyond the newest ``keep`` of each file: the newest stay to undo from;
* PGlite backups (``.daycare-gui-backup-<ms>-<name>`` beside the folder) beyond the newest ``keep``;
* working copies and temporary files of writers that were killed (:mod:`.leftovers`: only those whose
  process is gone, never one of a writer still running);
* search indexes whose store is gone (:mod:`.index_prune`'s rule: the recorded store no longer exists, or
  an index that records none and was untouched for a month);
* what commands kept about stores that are gone (:mod:`.kept`).

Nothing of a store's own is ever named: only files whose names this application gives, in folders it
made. A file that is a symbolic link is never followed nor removed.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common import index_prune, kept, leftovers
from daycare_gui.stores.common.backups import BACKUP_DIR
from daycare_gui.stores.common.wording import byte_size
from daycare_gui.stores.records import PruneDone, PrunePreview, SpaceLine

KEEP_BACKUPS = 3  # the newest backups of each file kept by default (as a PGlite edit keeps its own)
_BACKUP_RE = re.compile(r"^(?P<name>.+)\.(?P<stamp>\d{8}-\d{6})(?:\.(?P<n>\d+))?(?P<prune>\.prune)?\.bak$")

BACKUP = "backup"
WORKING = "working copy"
INDEX = "search index"
KEPT = "kept answers"
_PLURAL = {BACKUP: "backups", WORKING: "working copies", INDEX: "search indexes", KEPT: "kept answers"}


@dataclass(frozen=True)
class OwnLeftover:
    path: Path
    what: str  # BACKUP | WORKING | INDEX | KEPT
    bytes: int
    detail: str  # why it may go, in a few words


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def _ours(folder: Path) -> bool:
    """A real folder of this user's (never a link: a store could point its backups folder anywhere)."""
    try:
        st = folder.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and (not hasattr(os, "getuid") or st.st_uid == os.getuid())


def surplus_backups(folder: Path, keep: int) -> list[OwnLeftover]:
    """The backups in ``folder`` (a ``.daycare-gui-backups`` folder) beyond the newest ``keep`` of each file."""
    if not _ours(folder):
        return []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    groups: dict[tuple[str, bool], list[tuple[str, int, str]]] = {}
    for name in names:
        if (m := _BACKUP_RE.match(name)) and _regular(folder / name):
            groups.setdefault((m["name"], bool(m["prune"])), []).append((m["stamp"], int(m["n"] or 0), name))
    out = []
    for (original, pruned), group in sorted(groups.items()):
        group.sort()
        for _stamp, _n, name in group[:max(0, len(group) - keep)]:
            what = "prune backup" if pruned else "backup"
            out.append(OwnLeftover(folder / name, BACKUP, leftovers.size_on_disk(folder / name),
                                   f"{what} of {original}, older than the newest {keep}"))
    return out


def caches() -> dict:
    """The user's cache folders this application fills: the shared search's indexes and the kept answers."""
    from daycare_gui.stores.common.fts import default_dir
    from daycare_gui.stores.common.search_index import SUBDIR

    return {"index_folder": default_dir() / SUBDIR, "kept_folder": kept.kept_dir()}


def find(folders, *, keep: int = KEEP_BACKUPS, index_folder: Path | None = None,
         kept_folder: Path | None = None) -> list[OwnLeftover]:
    """Every leftover of ours in ``folders`` (the store's: where its backups and working copies go; each one's
    ``.daycare-gui-backups`` is looked into too), and, when given, in the search indexes' folder and the
    kept answers' folder. Largest first. Never raises: what cannot be read is not listed."""
    found: dict[Path, OwnLeftover] = {}
    for folder in dict.fromkeys(Path(f) for f in folders if f is not None):
        for item in surplus_backups(folder / BACKUP_DIR, keep):
            found.setdefault(item.path, item)
        for lo in leftovers.in_folder(folder, backups_kept=keep):
            if lo.what == leftovers.PGLITE_BACKUP:
                found.setdefault(lo.path, OwnLeftover(lo.path, BACKUP, lo.size,
                                                      f"PGlite backup, older than the newest {keep}"))
            elif lo.removable:
                found.setdefault(lo.path, OwnLeftover(lo.path, WORKING, lo.size,
                                                      f"{lo.what} of process {lo.pid}, which is gone"))
    if index_folder is not None:
        for index in index_prune.orphan_indexes(index_folder):
            size = sum(leftovers.size_on_disk(Path(f"{index}{s}")) for s in ("", "-wal", "-shm", "-journal"))
            found.setdefault(index, OwnLeftover(index, INDEX, size, "search index of a store that is gone"))
    if kept_folder is not None:
        for entry, store in kept.orphans(kept_folder):
            found.setdefault(entry, OwnLeftover(entry, KEPT, leftovers.size_on_disk(entry),
                                                f"kept for {store}, which is gone" if store else
                                                "kept for a store nobody can name"))
    return sorted(found.values(), key=lambda x: (-x.bytes, str(x.path)))


def remove(items, *, folders, keep: int = KEEP_BACKUPS, index_folder: Path | None = None,
           kept_folder: Path | None = None) -> list[OwnLeftover]:
    """Remove those of ``items`` (a dry run's) that the same rule still names now (a backup made since, a
    writer started since, a store back in place keep theirs); returns those removed."""
    now = {x.path: x for x in find(folders, keep=keep, index_folder=index_folder, kept_folder=kept_folder)}
    removed = []
    for item in items:
        current = now.get(item.path)
        if current is None or current.what != item.what:
            continue
        if _remove(current, folders, keep):
            removed.append(current)
    return removed


def _remove(item: OwnLeftover, folders, keep: int) -> bool:
    if item.what == INDEX:
        return index_prune.remove_index(item.path)
    if item.what == KEPT:
        return kept.remove_entry(item.path)
    if item.what == WORKING or item.path.name.startswith(".daycare-gui-backup-"):
        for lo in leftovers.in_folder(item.path.parent, backups_kept=keep):
            if lo.path == item.path:
                return leftovers.remove(lo)  # (re-checks the writer's pid just before)
        return False
    try:
        if not _regular(item.path):
            return False
        item.path.unlink()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


def preview(storage, keep_backups: int = KEEP_BACKUPS) -> PrunePreview:
    """The dry run for one store (its ``api.Storage``, which names the folders): what would go, one line per
    file, largest first, and how many bytes. Writes nothing."""
    found = find(storage.own_folders(), keep=keep_backups, **caches())
    return PrunePreview(total(found), 0, tuple(_line(x) for x in found), summary(found, dry_run=True),
                        ("kept: the newest backups of each file, working copies of writers still running, "
                         "indexes and answers of stores that exist",))


def remove_for(storage, keep_backups: int = KEEP_BACKUPS, asked: PrunePreview | None = None) -> PruneDone:
    """Remove what ``asked`` (a dry run's; made now when None) named, where the same rule still names it
    now; the summary says what went and how many bytes came back."""
    folders, where = storage.own_folders(), caches()
    if asked is None:
        items = find(folders, keep=keep_backups, **where)
    else:
        items = [OwnLeftover(Path(x.name), x.kind, x.bytes, x.detail) for x in asked.dropped]
    gone = remove(items, folders=folders, keep=keep_backups, **where)
    return PruneDone(total(items), total(items) - total(gone),
                     summary=summary(gone, dry_run=False, asked=len(items)))


def _line(item: OwnLeftover) -> SpaceLine:
    return SpaceLine(str(item.path), item.bytes, item.what, None, item.detail)


def total(items) -> int:
    return sum(x.bytes for x in items)


def summary(items, *, dry_run: bool, asked: int | None = None) -> str:
    """One sentence: how many of each, and the bytes."""
    if not items:
        if dry_run:
            return "Nothing of daycare-gui's own to remove."
        return "Nothing was removed." if not asked else f"None of the {asked} could be removed (in use, or changed since)."
    counts: dict[str, int] = {}
    for x in items:
        counts[x.what] = counts.get(x.what, 0) + 1
    what = ", ".join(f"{counts[name]} {name if counts[name] == 1 else plural}" for name, plural in _PLURAL.items()
                     if name in counts)
    size = byte_size(total(items))
    if dry_run:
        return f"Would remove {what}: {size} given back."
    text = f"Removed {what}: {size} given back."
    if asked is not None and asked > len(items):
        text += f" {asked - len(items)} stayed (in use, or changed since the dry run)."
    return text

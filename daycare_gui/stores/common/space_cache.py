"""What a store's space measurement found, kept per store and reused while the store has not changed.

Measuring a big SQLite store reads every page (``dbstat``) and, for the bytes per thread/agent, every row of
its history: seconds on a million records. The measured parts (tables, free pages, the log, holders) are kept
as the ``space`` record of :mod:`.kept` (the repeated commands' private records: 0700 folders, 0600 files,
written atomically, keyed by the database's real path, removed when the store is gone), with the database's
fingerprint (:func:`file_fingerprint`; for a PGlite folder, every file's stat), so a changed store — any
commit, a checkpoint, a file swapped in — is measured again. Folder sizes are never kept: a folder changes without the database changing, and walking
them is quick.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

from daycare_gui.stores.common import kept, tree_fingerprint
from daycare_gui.stores.common.tree_fingerprint import Fingerprint
from daycare_gui.stores.records import SpaceLine

NAME = "space-v1"  # the record's name among a store's kept records (a new layout: a new name)
_LOCK = threading.Lock()  # the quick part and the whole are measured on two workers: one merge at a time


def file_fingerprint(db_path: Path) -> list:
    """What any commit to a SQLite database changes, read without opening it: for the file and its ``-wal``
    and ``-journal``, the identity (device, inode), size, mtime in ns and header (the file change counter at
    byte 24 of the database, the WAL's salts in its first 32 bytes: a commit within one clock tick still
    changes them). None for a file that is not there."""
    out: list = []
    for suffix, head in (("", 100), ("-wal", 32), ("-journal", 28)):
        path = Path(f"{db_path}{suffix}")
        try:
            st = os.stat(path)
            with path.open("rb") as fh:
                header = fh.read(head).hex()
        except FileNotFoundError:
            out.append(None)
            continue
        except OSError as exc:  # unreadable: its stat (if any) still tells a change
            out.append([exc.errno])
            continue
        out.append([st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, header])
    return out


def _fingerprint(db_path: Path) -> Fingerprint:
    state = json.dumps(file_fingerprint(db_path)).encode()
    return Fingerprint(hashlib.sha256(state).hexdigest())  # (headers read: nothing is racy)


def load(db_path: Path, folder: Path | None = None, *, tree: bool = False) -> tuple[dict, Fingerprint | None]:
    """The parts kept for this database as it is now ({} when none: never kept, changed since, damaged), and
    the fingerprint to keep new parts under. ``tree``: ``db_path`` is a database's folder (PGlite), whose
    fingerprint is every file's stat (:mod:`.tree_fingerprint`); None, and nothing kept, when it holds too
    many files to tell cheaply."""
    fp = tree_fingerprint.fingerprint([db_path]) if tree else _fingerprint(db_path)
    if fp is None:
        return {}, None
    return kept.load(kept.real_path(db_path), NAME, fp, folder) or {}, fp


def save(db_path: Path, fp: Fingerprint, parts: dict, folder: Path | None = None) -> None:
    """Keep ``parts`` (JSON values: names and sizes, nothing secret) for this database at ``fp``, merged with
    what is kept at the same fingerprint. A cache that cannot be written is skipped: the next open measures
    again."""
    store = kept.real_path(db_path)
    with _LOCK:
        merged = {**(kept.load(store, NAME, fp, folder) or {}), **parts}
        kept.save(store, NAME, fp, merged, folder)


def lines_to_json(lines: list[SpaceLine]) -> list[list]:
    return [[x.name, x.bytes, x.kind, x.count, x.detail, x.per_day] for x in lines]


def lines_from_json(rows) -> list[SpaceLine] | None:
    """The lines back; None when what was kept does not read as lines (then it is measured again)."""
    try:
        return [SpaceLine(str(n), int(b), str(k), None if c is None else int(c), str(d),
                          None if p is None else float(p)) for n, b, k, c, d, p in rows]
    except (TypeError, ValueError):
        return None

"""What a store's space measurement found, kept per store and reused while the store has not changed.

Measuring a big SQLite store reads every page (``dbstat``) and, for the bytes per thread/agent, every row of
its history: seconds on a million records. The measured parts (tables, free pages, the log, holders) are kept
in ``<user cache>/daycare-gui/space/<key>.json`` — ``key`` a hash of the store's identity (its resolved path),
the file recording that identity and the store's fingerprint, so a changed store (any commit, a checkpoint, a
file swapped in) is measured again. The rules are the search indexes': folders 0700, files 0600 (the names of
agents and threads are the user's), written atomically, a damaged or foreign file ignored and replaced. Folder
sizes are never kept: a folder changes without the database changing, and walking them is quick.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

from daycare_gui.stores.common.private_files import PRIVATE_FILE, make_private_folders
from daycare_gui.stores.records import SpaceLine

VERSION = 1
SUBDIR = "space"
SIDECARS = ("-wal", "-journal")  # what a commit changes beside the file (-shm is written by readers too)


def cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("daycare-gui")) / SUBDIR


def file_fingerprint(db_path: Path) -> list:
    """What any commit to a SQLite database changes, read without opening it: for the file and its ``-wal``
    and ``-journal``, the identity (device, inode), size, mtime in ns and header (the file change counter at
    byte 24 of the database, the WAL's salts in its first 32 bytes). None for a file that is not there."""
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


def _file(identity: str, folder: Path | None) -> Path:
    key = hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return Path(folder or cache_dir()) / f"{key}.json"


def load(identity: str, fingerprint, folder: Path | None = None) -> dict:
    """The parts kept for this store at this fingerprint ({} when none: never kept, changed since, damaged)."""
    try:
        with _file(identity, folder).open(encoding="utf-8") as fh:
            kept = json.load(fh)
    except (OSError, ValueError):
        return {}
    if (not isinstance(kept, dict) or kept.get("version") != VERSION or kept.get("identity") != identity
            or kept.get("fingerprint") != json.loads(json.dumps(fingerprint)) or not isinstance(kept.get("parts"), dict)):
        return {}
    return kept["parts"]


def save(identity: str, fingerprint, parts: dict, folder: Path | None = None) -> None:
    """Keep ``parts`` (JSON values) for this store at this fingerprint, merged with what is kept for the same
    fingerprint. A cache that cannot be written is skipped: the next open measures again."""
    path = _file(identity, folder)
    merged = {**load(identity, fingerprint, folder), **parts}
    body = json.dumps({"version": VERSION, "identity": identity, "fingerprint": fingerprint, "parts": merged})
    # (a name of its own per thread: the window measures the quick part and the whole on two workers)
    pending = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        make_private_folders(path.parent, ours=() if folder else (path.parent.parent, path.parent))
        fd = os.open(pending, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), PRIVATE_FILE)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(body)
        os.replace(pending, path)
    except OSError:
        try:
            pending.unlink()
        except OSError:
            pass


def lines_to_json(lines: list[SpaceLine]) -> list[list]:
    return [[x.name, x.bytes, x.kind, x.count, x.detail, x.per_day] for x in lines]


def lines_from_json(rows) -> list[SpaceLine] | None:
    """The lines back; None when what was kept does not read as lines (then it is measured again)."""
    try:
        return [SpaceLine(str(n), int(b), str(k), None if c is None else int(c), str(d),
                          None if p is None else float(p)) for n, b, k, c, d, p in rows]
    except (TypeError, ValueError):
        return None

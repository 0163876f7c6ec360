"""What a command keeps between runs about a store it read, so that asking again answers without reading it
again: private, keyed by the store's real path and its fingerprint, and gone when the store goes.

Layout, in the user's cache folder (``<cache>/daycare-gui/kept``)::

    kept/<key>/store          the store's real path (what pruning checks)
    kept/<key>/<name>.json    {"version", "store", "fingerprint", "racy", "data"}: one command's answer

``key`` hashes the store's real path. Folders are 0700 and files 0600 from their first byte, each written
to a temporary file beside it and renamed into place. Nothing here masks: a caller keeps only what it
would print (masked already). A record is used only when its version, store and fingerprint are this
store's now (:mod:`.tree_fingerprint`); one that cannot be read or parsed is no record (the command reads
the store and writes it again). :func:`prune_kept` removes the records of stores that are gone.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

from daycare_gui.stores.common.private_files import PRIVATE_FILE, make_private_folders, tighten
from daycare_gui.stores.common.processes import process_exists
from daycare_gui.stores.common.tree_fingerprint import Fingerprint

VERSION = 1  # bump when what a record holds changes: older records are not used
MAX_BYTES = 64 << 20  # a record larger than this is not read (it is none of ours)
STORE_FILE = "store"
_TEMP_RE = re.compile(r"^\..+\.(?P<pid>\d+)-[A-Za-z0-9_]+\.tmp$")


def kept_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("daycare-gui")) / "kept"


def store_key(real_path: str) -> str:
    return hashlib.sha256(real_path.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def real_path(path) -> str:
    return os.path.realpath(os.fspath(path))


def record_path(store: str, name: str, folder: Path | None = None) -> Path:
    return (folder or kept_dir()) / store_key(store) / f"{name}.json"


def load(store: str, name: str, fp: Fingerprint, folder: Path | None = None) -> dict | None:
    """The data kept for ``store`` (its real path) under ``name`` when it was recorded at fingerprint ``fp``;
    None otherwise (none, another fingerprint, another version, damaged)."""
    record = _read(record_path(store, name, folder))
    if not isinstance(record, dict) or record.get("version") != VERSION or record.get("store") != store:
        return None
    racy = record.get("racy")
    if not isinstance(racy, dict) or not all(isinstance(v, str) for v in racy.values()):
        return None
    if not isinstance(record.get("fingerprint"), str) or not fp.matches(record["fingerprint"], racy):
        return None
    data = record.get("data")
    if not isinstance(data, dict):
        return None
    if racy and not fp.racy:  # the files racy when it was recorded have settled: stat is enough from now on
        save(store, name, fp, data, folder)
    return data


def save(store: str, name: str, fp: Fingerprint, data: dict, folder: Path | None = None) -> bool:
    """Keep ``data`` (JSON-able, masked) for ``store`` at fingerprint ``fp``. Never raises: a cache that
    cannot be written only means the next run reads the store again."""
    racy = fp.racy_hashes()
    if racy is None:
        return False
    base = folder or kept_dir()
    target = record_path(store, name, base)
    record = {"version": VERSION, "store": store, "fingerprint": fp.digest, "racy": racy, "data": data}
    try:
        make_private_folders(target.parent, ours=(base, target.parent) if folder is None else (target.parent,))
        _write(target.parent / STORE_FILE, store.encode("utf-8", "surrogateescape"))
        _write(target, _json_chunks(record))
    except (OSError, ValueError, TypeError):
        return False
    return True


def forget(store: str, folder: Path | None = None) -> None:
    """Remove everything kept for ``store``."""
    _remove((folder or kept_dir()) / store_key(store))


def orphans(folder: Path | None = None) -> list[tuple[Path, str | None]]:
    """What :func:`prune_kept` would remove, as (entry folder, its store or None when it names none)."""
    base = folder or kept_dir()
    try:
        entries = list(os.scandir(base))
    except OSError:
        return []
    out: list[tuple[Path, str | None]] = []
    for entry in entries:
        if not entry.is_dir(follow_symlinks=False):
            continue
        store = _read_store(Path(entry.path) / STORE_FILE)
        if store is None or entry.name != store_key(store):
            if _abandoned(Path(entry.path)):
                out.append((Path(entry.path), None))
        elif not os.path.lexists(store):
            out.append((Path(entry.path), store))
    return out


def remove_entry(entry: Path) -> bool:
    """Remove one store's kept folder (one :func:`orphans` named); whether it is gone."""
    _remove(entry)
    return not os.path.lexists(entry)


def prune_kept(folder: Path | None = None) -> list[str]:
    """Remove what is kept for stores that are gone (their real path no longer exists), records nobody can
    attribute to a store, and temporary files of writers that died; returns the stores (or folders)
    forgotten. Reads one short file per store. Never raises."""
    base = folder or kept_dir()
    removed = []
    try:
        entries = list(os.scandir(base))
    except OSError:
        return removed
    for entry in entries:
        if not entry.is_dir(follow_symlinks=False):
            continue
        store = _read_store(Path(entry.path) / STORE_FILE)
        if store is None or entry.name != store_key(store):
            if _abandoned(Path(entry.path)):
                _remove(Path(entry.path))
                removed.append(entry.path)
            continue
        if not os.path.lexists(store):
            _remove(Path(entry.path))
            removed.append(store)
            continue
        for name in _names(Path(entry.path)):
            if (m := _TEMP_RE.match(name)) and process_exists(int(m["pid"])) is False:
                try:
                    os.unlink(Path(entry.path) / name)
                except OSError:
                    pass
    return removed


def _abandoned(path: Path) -> bool:
    """A folder without a readable store file: one whose writer died before writing it (its temporary file's
    pid is gone), or damaged. One being written right now (a live pid) is left alone."""
    for name in _names(path):
        if (m := _TEMP_RE.match(name)) and process_exists(int(m["pid"])) is not False:
            return False
    return True


def _names(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def _read_store(path: Path) -> str | None:
    raw = _read_bytes(path, 1 << 16)
    return raw.decode("utf-8", "surrogateescape") if raw else None


def _read(path: Path):
    raw = _read_bytes(path, MAX_BYTES)
    if raw is None:
        return None
    try:
        return json.loads(raw.decode("utf-8", "surrogateescape"))
    except (ValueError, RecursionError):
        return None


def _read_bytes(path: Path, limit: int) -> bytes | None:
    """The file's bytes, if it is a regular file of this user's no larger than ``limit`` (never a link)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _json_chunks(record: dict):
    """``record`` as JSON bytes, a part at a time: a large record (PGlite's history ids, 11 MB on the 1M demo)
    is never held again whole as one text and its bytes beside the data it is made of."""
    parts: list[str] = []
    size = 0
    for part in json.JSONEncoder(ensure_ascii=False).iterencode(record):
        parts.append(part)
        size += len(part)
        if size >= 1 << 20:
            yield "".join(parts).encode("utf-8", "surrogateescape")
            parts, size = [], 0
    yield "".join(parts).encode("utf-8", "surrogateescape")


def _write(target: Path, payload) -> None:
    """``payload`` (bytes, or bytes a part at a time) at ``target``, whole or not at all: a 0600 temporary file
    beside it, synced, renamed."""
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            for part in [payload] if isinstance(payload, bytes) else payload:
                f.write(part)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    tighten(target, PRIVATE_FILE)


def _remove(path: Path) -> None:
    try:
        if path.is_symlink() or not path.is_dir():
            path.unlink()
        else:
            shutil.rmtree(path)
    except OSError:
        pass


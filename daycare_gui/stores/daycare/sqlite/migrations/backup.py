"""Consistent copies of a Daycare database, taken without writing to it."""

from __future__ import annotations

import os
import sqlite3
import stat
from datetime import datetime, timezone
from pathlib import Path


def side_file(db_path: Path, suffix: str) -> Path:
    """``daycare.db-wal``, ``daycare.db-journal``, … beside ``db_path``."""
    return db_path.with_name(db_path.name + suffix)


def hot_journal(db_path: Path) -> Path | None:
    """The rollback journal beside ``db_path`` when SQLite would roll it back on the next read-write open.

    SQLite's own test (``hasHotJournal``): the journal is not empty and its first byte is not zero (a
    committed ``PERSIST`` journal has its header zeroed). Such a journal means a writer was killed in the
    middle of a transaction, or is writing right now: the database file may hold half of that transaction.
    A journal that cannot be read counts as hot: nothing may be read past it.
    """
    journal = side_file(db_path, "-journal")
    try:
        with journal.open("rb") as fh:
            first = fh.read(1)
    except FileNotFoundError:
        return None
    except OSError:
        return journal
    return journal if first not in (b"", b"\x00") else None


def open_readonly(db_path: Path) -> sqlite3.Connection:
    """Read a database without writing anything next to it where possible.

    Without a ``-wal`` or ``-journal`` file all committed data is in the main file, so ``immutable=1`` reads
    it and creates nothing. With a ``-wal`` file, ``mode=ro`` is needed to see the WAL's committed frames.
    With a ``-journal`` file, ``mode=ro`` takes SQLite's locks and honours the journal: ``immutable=1`` would
    ignore it and read the half-written pages of an interrupted transaction, where ``mode=ro`` fails
    (``SQLITE_READONLY_ROLLBACK``) rather than show them.
    """
    db_path = Path(db_path).resolve()  # a link: SQLite keeps -wal and -journal beside its target
    beside = (side_file(db_path, suffix).exists() for suffix in ("-wal", "-journal"))
    flag = "mode=ro" if any(beside) else "immutable=1"
    return sqlite3.connect(f"{db_path.as_uri()}?{flag}", uri=True, isolation_level=None)


def fingerprint(db_path: Path) -> tuple:
    """What any commit to the database changes, read without opening it: for the file, its ``-wal`` and its
    ``-journal``, identity (device, inode), size, mtime in ns and header (the database's first 100 bytes hold
    the file change counter at offset 24, the WAL's first 32 its salts, which a WAL restart renews).

    A commit in rollback mode rewrites the file (new counter, new mtime); in WAL mode it appends to the
    ``-wal`` (new size) or restarts it (new salts); a checkpoint rewrites the file. ``-shm`` is left out:
    readers write to it too. ``None`` stands for a file that does not exist."""
    out: list = []
    for path, head in ((db_path, 100), (side_file(db_path, "-wal"), 32), (side_file(db_path, "-journal"), 28)):
        try:
            st = os.stat(path)
        except FileNotFoundError:
            out.append(None)
            continue
        try:
            with path.open("rb") as fh:
                header = fh.read(head)
        except OSError as exc:  # a folder, an unreadable file: its stat still tells a change
            header = exc.errno
        out.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, header))
    return tuple(out)


def copy_database(db_path: Path, dest: Path) -> Path:
    """Online-backup ``db_path`` (including committed WAL content) into a new file ``dest``.

    ``dest`` is created readable by its owner only (SQLite gives its ``-wal``/``-shm`` the same mode): the
    copy of a private database is never more open than it while it is written. :func:`match_file` then
    gives it the original's mode and owner."""
    os.close(os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))  # FileExistsError if it is there
    src = open_readonly(db_path)
    try:
        dst = sqlite3.connect(str(dest))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    return dest


def match_file(path: Path, like: os.stat_result, shown_as: Path | None = None) -> str | None:
    """Give ``path`` the mode, owner and group of ``like`` (the file it copies or replaces).

    Only root may give a file to another user; others keep the group where they may. Returns what could
    not be kept, for the user to hear about (naming the file ``shown_as``: where it is going to be)."""
    if hasattr(os, "chown"):
        st = os.stat(path)
        if (st.st_uid, st.st_gid) != (like.st_uid, like.st_gid):
            try:
                os.chown(path, like.st_uid, like.st_gid)
            except OSError:
                try:
                    os.chown(path, -1, like.st_gid)
                except OSError:
                    pass
    os.chmod(path, stat.S_IMODE(like.st_mode))
    st = os.stat(path)
    if (st.st_uid, st.st_gid) != (like.st_uid, like.st_gid):
        shown = shown_as or path
        return (f"{shown.name} is now owned by user {st.st_uid}, group {st.st_gid}; the file it replaced belonged "
                f"to user {like.st_uid}, group {like.st_gid} (only root may give a file away): if Daycare runs "
                f"as that user, give it back with chown {like.st_uid}:{like.st_gid} {shown}")
    return None


def default_backup_path(db_path: Path, when: datetime | None = None) -> Path:
    """``<db dir>/daycare.db.backup-<UTC timestamp>``, made unique if that name is taken."""
    stamp = (when or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
    candidate = db_path.with_name(f"{db_path.name}.backup-{stamp}")
    n = 1
    while candidate.exists():
        candidate = db_path.with_name(f"{db_path.name}.backup-{stamp}-{n}")
        n += 1
    return candidate


def remove_wal_files(path: Path) -> None:
    for suffix in ("-wal", "-shm"):
        try:
            path.with_name(path.name + suffix).unlink()
        except FileNotFoundError:
            pass


def remove_database_files(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    remove_wal_files(path)

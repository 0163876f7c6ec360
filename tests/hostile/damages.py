"""One damage per trial, applied to one path of a clean store: what a crash, a bad disk, a careless tool or
a hostile folder leaves. Each function takes (the path to damage, a seeded random, the trial's folder
outside the store) and changes only the store's copy."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

SQLITE_HEADER = b"SQLite format 3\x00"


def _replace(path: Path) -> None:
    """Remove whatever is at ``path`` (file, link or folder) so something else can stand there."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def fifo(path: Path, rnd: random.Random, outside: Path) -> None:
    _replace(path)
    os.mkfifo(path)


def link_to_fifo(path: Path, rnd: random.Random, outside: Path) -> None:
    pipe = outside / "pipe"
    if not pipe.exists():
        os.mkfifo(pipe)
    _replace(path)
    path.symlink_to(pipe)


def link_to_zero(path: Path, rnd: random.Random, outside: Path) -> None:
    _replace(path)
    path.symlink_to("/dev/zero")


def link_loop(path: Path, rnd: random.Random, outside: Path) -> None:
    _replace(path)
    path.symlink_to(path.name)  # a link to itself: every open fails with "too many levels of links"


def link_out(path: Path, rnd: random.Random, outside: Path) -> None:
    secret = outside / "not-the-stores.txt"
    secret.write_text('{"role": "user", "content": "outside the store"}\n')
    _replace(path)
    path.symlink_to(secret)


def truncated(path: Path, rnd: random.Random, outside: Path) -> None:
    size = path.stat().st_size
    os.truncate(path, rnd.randrange(size) if size else 0)


def random_bytes(path: Path, rnd: random.Random, outside: Path) -> None:
    data = bytearray(path.read_bytes())
    start = rnd.randrange(max(len(data), 1))
    data[start:start + 512] = rnd.randbytes(512)
    path.write_bytes(bytes(data))


def long_line(path: Path, rnd: random.Random, outside: Path) -> None:
    with open(path, "ab") as fh:
        fh.write(b'{"role": "user", "content": "' + b"x" * (20 << 20) + b'"}\n')


def deep_json(path: Path, rnd: random.Random, outside: Path) -> None:
    path.write_bytes(b"[" * 100_000 + b"]" * 100_000 + b"\n")


def empty(path: Path, rnd: random.Random, outside: Path) -> None:
    path.write_bytes(b"")


def folder_for_file(path: Path, rnd: random.Random, outside: Path) -> None:
    _replace(path)
    path.mkdir()
    (path / "inside.txt").write_text("a folder where a file was\n")


def file_for_folder(path: Path, rnd: random.Random, outside: Path) -> None:
    """(``path`` is a folder here: see FOLDER_DAMAGES.)"""
    _replace(path)
    path.write_text("a file where a folder was\n")


def torn_page(path: Path, rnd: random.Random, outside: Path) -> None:
    """A page of a SQLite file half written: its second half replaced with random bytes."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 4096
    if page == 1:
        page = 65536
    pages = max(len(data) // page, 1)
    start = rnd.randrange(pages) * page + page // 2
    data[start:start + page // 2] = rnd.randbytes(page // 2)
    path.write_bytes(bytes(data))


def garbage_wal(path: Path, rnd: random.Random, outside: Path) -> None:
    """A write-ahead log of random bytes beside a SQLite file (or in place of a PGlite WAL segment)."""
    target = path if path.parent.name == "pg_wal" else Path(str(path) + "-wal")
    target.write_bytes(rnd.randbytes(32768 + rnd.randrange(4096)))


FILE_DAMAGES = {
    "fifo": fifo, "link-to-fifo": link_to_fifo, "link-to-dev-zero": link_to_zero, "link-loop": link_loop,
    "link-out-of-store": link_out, "truncated": truncated, "random-bytes": random_bytes, "20MB-line": long_line,
    "deep-json": deep_json, "empty": empty, "folder-for-file": folder_for_file,
}
FOLDER_DAMAGES = {"file-for-folder": file_for_folder}
SQLITE_DAMAGES = {"torn-page": torn_page, "garbage-wal": garbage_wal}
ALL = sorted({**FILE_DAMAGES, **FOLDER_DAMAGES, **SQLITE_DAMAGES})


def is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == SQLITE_HEADER
    except OSError:
        return False


def targets(folder: Path, damage: str) -> list[Path]:
    """The paths of a clean store ``damage`` can be applied to, sorted (so a seed picks the same one)."""
    files = sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
    if damage in FOLDER_DAMAGES:
        return sorted(p for p in folder.rglob("*") if p.is_dir() and not p.is_symlink())
    if damage == "garbage-wal":
        wal = [p for p in files if p.parent.name == "pg_wal" and len(p.name) == 24]
        return wal or [p for p in files if is_sqlite(p)]
    if damage in SQLITE_DAMAGES:
        return [p for p in files if is_sqlite(p)]
    return files


def apply(damage: str, folder: Path, rnd: random.Random, outside: Path) -> Path | None:
    """Damage one path of the store in ``folder`` (chosen by ``rnd``); the path, or None when this store has
    nothing that damage applies to (a store without SQLite files has no page to tear)."""
    found = targets(folder, damage)
    if not found:
        return None
    path = rnd.choice(found)
    {**FILE_DAMAGES, **FOLDER_DAMAGES, **SQLITE_DAMAGES}[damage](path, rnd, outside)
    return path

"""A cheap fingerprint of the folders a store's answers come from: stat only, no file is read.

What a repeated command keeps between runs (:mod:`.kept`) is trusted only while the folders it was read from
are as they were. Every entry under each folder counts with its relative path, type, size, mtime_ns,
ctime_ns and inode: a write changes the size or the times, an atomic save or a swapped-in folder (how
this application's PGlite edits land) changes the inode, an added or removed file changes the list. The
ctime cannot be set back by a program (``touch -r`` restores mtime only), so a write that hides its mtime
still shows.

Symbolic links are never followed, so the walk never leaves the store: a link counts with what it
says (its target's text), not with what it points at. A folder that cannot be listed counts as
unreadable. The folders themselves may be links the user named (a store folder that is a link): they are
resolved once, at the top.

The racy case (as git calls it). A file written within the clock tick in which it was fingerprinted can
be written again without its stat changing. So a file whose mtime or ctime is within ``RACY_NS`` of the
moment it was looked at is *racy*: its SHA-256 is taken when the fingerprint is recorded and compared
when it is checked, until a later record finds it settled (no longer racy). Files not racy are never
read.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from dataclasses import dataclass, field

RACY_NS = 3_000_000_000  # coarser than any file system's timestamps (FAT: 2 s)
MAX_ENTRIES = 50_000  # a larger tree is not fingerprinted: its walk would cost what the cache saves


@dataclass(frozen=True)
class Fingerprint:
    digest: str  # of every entry's stat, racy or not
    racy: dict[str, str] = field(default_factory=dict)  # key → absolute path of the files racy now
    files: dict[str, str] = field(default_factory=dict)  # key → absolute path of every regular file

    def matches(self, digest: str, hashes: dict[str, str]) -> bool:
        """Whether a recorded fingerprint (``digest``, and ``hashes`` of the files racy when it was recorded)
        is this one. Only those files are read."""
        if digest != self.digest:
            return False
        for key, sha in hashes.items():
            path = self.files.get(key)
            if path is None or _sha256(path) != sha:
                return False
        return True

    def racy_hashes(self) -> dict[str, str] | None:
        """The SHA-256 of each file racy now, for the record; None when one cannot be read."""
        out = {}
        for key, path in self.racy.items():
            sha = _sha256(path)
            if sha is None:
                return None
            out[key] = sha
        return out


def fingerprint(roots, *, max_entries: int = MAX_ENTRIES, now_ns: int | None = None) -> Fingerprint | None:
    """The fingerprint of ``roots`` (folders or single files, each resolved once at the top); None when they
    hold more than ``max_entries`` entries. Never raises: what cannot be looked at counts as such.
    A key is ``"<number of the root>/<relative path>"``."""
    now = time.time_ns() if now_ns is None else now_ns
    total = hashlib.sha256()
    racy: dict[str, str] = {}
    files: dict[str, str] = {}
    seen = 0
    for number, root in enumerate(roots):
        real = os.path.realpath(os.fspath(root))
        total.update(f"root\0{number}\0{real}\n".encode("utf-8", "surrogateescape"))
        stack = [("", real)]
        while stack:
            rel, path = stack.pop()
            seen += 1
            if seen > max_entries:
                return None
            line, latest = _entry(rel, path, stack)
            if latest is not None:
                key = f"{number}/{rel}"
                files[key] = path
                if latest >= now - RACY_NS:
                    racy[key] = path
            total.update((line + "\n").encode("utf-8", "surrogateescape"))
    return Fingerprint(total.hexdigest(), racy, files)


def _entry(rel: str, path: str, stack: list) -> tuple[str, int | None]:
    """The line ``path`` adds to the digest, and for a regular file its latest time (ns; else None). A folder's
    entries are pushed on ``stack``; a link is not followed."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        return f"{rel}\0missing\0{exc.errno}", None
    kind = stat.S_IFMT(st.st_mode)
    line = f"{rel}\0{kind}\0{st.st_mode & 0o7777}\0{st.st_ino}"
    if stat.S_ISDIR(kind):
        try:
            names = sorted(os.listdir(path))
        except OSError as exc:  # odd permissions: counted as unreadable, the rest of the store still counts
            return f"{line}\0unreadable\0{exc.errno}", None
        prefix = f"{rel}/" if rel else ""
        stack.extend((f"{prefix}{n}", os.path.join(path, n)) for n in reversed(names))
        return line, None
    if stat.S_ISLNK(kind):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return f"{line}\0->{target}\0{st.st_mtime_ns}\0{st.st_ctime_ns}", None
    line += f"\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}"
    return line, (max(st.st_mtime_ns, st.st_ctime_ns) if stat.S_ISREG(kind) else None)


def _sha256(path: str) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    digest = hashlib.sha256()
    try:
        with os.fdopen(fd, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()

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
import threading
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


_handed: dict[str, Fingerprint] = {}  # a folder's real path → its fingerprint from a walk of a folder above it
_handed_lock = threading.Lock()


class _Inner:
    """The fingerprint of one folder met inside a larger walk, as ``fingerprint([folder])`` takes it: a walk
    visits a folder's entries one after the other, in the order a walk of that folder alone does."""

    def __init__(self, rel: str, real: str) -> None:
        self.rel, self.real = rel, real
        self.total = hashlib.sha256(f"root\0{0}\0{real}\n".encode("utf-8", "surrogateescape"))
        self.racy: dict[str, str] = {}
        self.files: dict[str, str] = {}

    def holds(self, path: str) -> bool:
        return path == self.real or path.startswith(self.real + os.sep)

    def add(self, rel: str, path: str, line: str, latest: int | None, now: int) -> None:
        inner = rel if not self.rel else rel[len(self.rel) + 1:] if rel != self.rel else ""
        if latest is not None:
            self.files[f"0/{inner}"] = path
            if latest >= now - RACY_NS:
                self.racy[f"0/{inner}"] = path
        self.total.update((inner + line[len(rel):] + "\n").encode("utf-8", "surrogateescape"))

    def hand_over(self) -> None:
        with _handed_lock:
            _handed[self.real] = Fingerprint(self.total.hexdigest(), self.racy, self.files)


def handed_over(folder) -> Fingerprint | None:
    """The fingerprint of ``folder`` a walk of a folder above it took (``fingerprint(..., hand_over=...)``), once;
    None when there is none. It is older than a walk now would be: a caller that compares it with a later one
    (nothing changed between) is only the more careful for it."""
    with _handed_lock:
        return _handed.pop(os.path.realpath(os.fspath(folder)), None)


def fingerprint(roots, *, max_entries: int = MAX_ENTRIES, now_ns: int | None = None,
                hand_over=()) -> Fingerprint | None:
    """The fingerprint of ``roots`` (folders or single files, each resolved once at the top); None when they
    hold more than ``max_entries`` entries. Never raises: what cannot be looked at counts as such.
    A key is ``"<number of the root>/<relative path>"``.

    ``hand_over``: folders inside ``roots`` that will be fingerprinted on their own next (a PGlite folder by
    the open that copies it): their fingerprint is taken in this walk and kept for :func:`handed_over`,
    instead of a second walk of them. One reached only through a link is not (the walk never follows one)."""
    now = time.time_ns() if now_ns is None else now_ns
    total = hashlib.sha256()
    racy: dict[str, str] = {}
    files: dict[str, str] = {}
    wanted = {os.path.realpath(os.fspath(f)) for f in hand_over}
    inner: _Inner | None = None
    found: list[_Inner] = []
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
            if inner is not None and not inner.holds(path):
                inner = None
            if inner is None and path in wanted:
                wanted.discard(path)
                inner = _Inner(rel, path)
                found.append(inner)
            if inner is not None:
                inner.add(rel, path, line, latest, now)
    for one in found:
        one.hand_over()
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

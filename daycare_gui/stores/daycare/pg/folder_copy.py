"""Copying a PGlite folder into a private folder, file by file, for PGlite to run on (pg.pglite_copy).

The user's folder is only read (copied file by file; ``global/pg_control`` first and ``pg_wal/`` last so a
copy taken while Daycare writes is consistent, ``postmaster.pid`` skipped). Everything PGlite writes —
recovery, WAL, statistics — lands in the copy. The copy keeps every file's and folder's mode (and, when
running as root, owner): an edit swaps the copy in as the store, which must stay as private as it was.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import struct
from pathlib import Path

from daycare_gui.stores.common.opening import OpenCancelled
from daycare_gui.stores.common.regular_copy import FileGrew, copy_stream, growth_limit
from daycare_gui.stores.common.regular_files import NotRegularFile, open_regular, what_is

CHUNK = 4 << 20  # copied in 4 MB steps: a cancel stops a 1 GB segment within one step
MB = 1 << 20


def copy_pglite(src: Path, dest: Path, progress=None, cancelled=lambda: False,
                skipped: list[tuple[str, str]] | None = None, *, whole: bool = False) -> int:
    """Copy ``src`` into ``dest`` (a new folder); returns the bytes copied. Never writes into ``src``.

    A copy to read leaves out the WAL segments PostgreSQL recycled (see :func:`_recycled_wal`); ``whole``
    keeps them: an edit swaps its copy in as the store, which keeps every file it had.

    ``progress(done_mb, total_mb, "Copying the store (12 of 61 MB)…")`` follows the bytes; when
    ``cancelled()`` turns true the copy stops between two steps (the caller removes ``dest``).

    Only regular files are copied (see :func:`_plan`): what else the folder holds is left out and named in
    ``skipped`` as (relative path, why), and each file stops at a size it could have (``FileGrew``)."""
    # (paths as strings, relative ones in posix form: a PGlite store is ~1,100 files even when new, and pathlib
    # cost a third of the copy's own time on them, time the window's thread, importing beside it, waits for)
    skipped = skipped if skipped is not None else []
    src_s, dest_s = os.fspath(src), os.fspath(dest)
    files, links, sizes = _plan(src, skipped)
    if not whole:
        files = [rel for rel in files if not _recycled_wal(links.get(rel) or _join(src_s, rel), rel)]

    def order(rel: str) -> tuple[int, str]:
        if rel == "global/pg_control":
            return (0, "")
        return (2 if rel.startswith("pg_wal/") else 1, rel)

    files.sort(key=order)
    total = sum(sizes[rel] for rel in files)  # (as listed: a stat a file, not a second one here)
    total_mb = max(1, -(-total // MB))
    size = 0
    last_report = -1

    def report() -> None:
        nonlocal last_report
        done_mb = size // MB
        if progress and done_mb != last_report:
            last_report = done_mb
            progress(done_mb, total_mb, f"Copying the store ({done_mb:,} of {total_mb:,} MB)…")

    report()
    # Folders are private (0700) while the copy is made and get the source's modes at the end; files are
    # created 0600 and get theirs once written: no moment in which the copy is more open than the store.
    dest.mkdir(mode=0o700, parents=True, exist_ok=True)
    made = {""}  # the folders made, relative: a file's folder is made once, not asked for each file
    for dirpath, dirs, _names in os.walk(src_s):  # every folder, also the empty ones PostgreSQL expects
        here = _relative(dirpath, src_s)
        for d in dirs:
            if not os.path.islink(os.path.join(dirpath, d)):  # a linked folder is not followed (_plan)
                rel_dir = f"{here}/{d}" if here else d
                os.makedirs(_join(dest_s, rel_dir), mode=0o700, exist_ok=True)
                made.add(rel_dir)
    for rel in files:
        target = _join(dest_s, rel)
        parent = rel.rpartition("/")[0]
        if parent not in made:
            os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
            made.add(parent)
        try:
            # O_NOFOLLOW: a file swapped for a link after the listing is refused, not followed; a link is
            # opened at the real path it was checked to have.
            fin = open_regular(links.get(rel) or _join(src_s, rel), follow=False)
        except FileNotFoundError:
            continue  # gone since the listing (PostgreSQL removes old WAL segments): nothing to copy
        except NotRegularFile as exc:
            skipped.append((rel, exc.strerror.replace("not read", "not copied")))
            continue
        if not whole and _recycled_wal(fin.fileno(), rel):  # looked at again now: PostgreSQL may have written it since
            fin.close()
            continue
        with fin, open(target, "wb", opener=_private) as fout:
            before = size

            def step(done: int, before=before) -> None:
                nonlocal size
                if cancelled():
                    raise OpenCancelled("cancelled while copying the store")
                size = before + done
                report()

            st = os.fstat(fin.fileno())
            size = before + _copy_file(fin, fout, st.st_size, rel, step)
            fout.flush()
            _same_access(st, fout.fileno(), None)
    for dirpath, _dirs, _names in os.walk(src_s, topdown=False):  # deepest first: a parent never blocks a child
        copy_dir = _join(dest_s, _relative(dirpath, src_s))
        if os.path.isdir(copy_dir):
            _same_access(os.stat(dirpath), None, Path(copy_dir))
    if progress:
        progress(total_mb, total_mb, f"Copying the store ({total_mb:,} of {total_mb:,} MB)…")
    return size


def _relative(path: str, top: str) -> str:
    """``path`` (``top`` or below it, as os.walk gives it) relative to ``top``, in posix form; "" for ``top``."""
    rel = os.path.relpath(path, top)
    return "" if rel == os.curdir else rel.replace(os.sep, "/")


def _join(top: str, rel: str) -> str:
    return os.path.join(top, *rel.split("/")) if rel else top


def _copy_file(fin, fout, size: int, name: str, step) -> int:
    """One file's bytes, copied by the kernel (``copy_file_range``: no byte passes through Python, and the
    interpreter lock is free meanwhile for the window and the imports that run beside the copy), in
    ``CHUNK`` steps with ``copy_stream``'s bound and cancel; ``copy_stream`` itself where the kernel cannot
    (another system, a file system without it) before a byte was copied. Measured on the 1M-record demo's
    270 MB: 1.4–1.9 s through Python, about half that by the kernel."""
    kernel = getattr(os, "copy_file_range", None)
    if kernel is None:
        return copy_stream(fin, fout, size, name, step=step, chunk=CHUNK)
    limit = growth_limit(size)
    src, dst = fin.fileno(), fout.fileno()
    done = 0
    while True:
        step(done)
        try:
            got = kernel(src, dst, min(CHUNK, limit + 1 - done))
        except OSError:
            if done:
                raise
            return copy_stream(fin, fout, size, name, step=step, chunk=CHUNK)
        if not got:
            return done
        done += got
        if done > limit:
            raise FileGrew(errno.EFBIG, f"{name} grew from {size:,} bytes to more than {limit:,} while it was "
                           "copied (is something still writing it, or is it not a real file?); the copy stopped",
                           name)


WAL_SEGMENT = re.compile(r"[0-9A-F]{24}")
XLP_LONG_HEADER = 0x0002
WAL_HEADER = struct.Struct("<HHIQI4xQII")  # XLogLongPageHeaderData: magic, info, tli, pageaddr, rem_len, sysid, seg_size, blcksz


def _recycled_wal(file, rel: str | os.PathLike) -> bool:
    """Whether ``file`` (a path or an open descriptor) is a WAL segment no recovery can read: PostgreSQL
    renames segments it no longer needs to future names for reuse, and they keep their old contents until
    it writes into them. The first page says which position a segment was written for; one that is not
    its name's (or never written: zeros) is where the WAL ends, for PostgreSQL as for the copy, which
    leaves it out. A PGlite store closed after a large write keeps hundreds of them (320 of the 1M-record
    demo's 590 MB), a copy at every open. Anything that does not read as a segment header is copied."""
    folder, _, name = os.fspath(rel).replace(os.sep, "/").partition("/")  # (``rel``: the relative path)
    if folder != "pg_wal" or not WAL_SEGMENT.fullmatch(name):
        return False
    try:
        if isinstance(file, int):
            head = os.pread(file, WAL_HEADER.size, 0)
        else:
            with open_regular(file, follow=False) as f:  # never a pipe's endless read
                head = f.read(WAL_HEADER.size)
    except OSError:
        return False
    if len(head) < WAL_HEADER.size:
        return False
    if not any(head):
        return True  # made ready ahead, never written
    _magic, info, _tli, pageaddr, _rem, _sysid, seg_size, _blcksz = WAL_HEADER.unpack(head)
    if not info & XLP_LONG_HEADER or seg_size < (1 << 20) or seg_size > (1 << 30) or seg_size & (seg_size - 1):
        return False
    log, seg = int(name[8:16], 16), int(name[16:24], 16)
    return pageaddr != (log * (0x1_0000_0000 // seg_size) + seg) * seg_size


def _plan(src: Path, skipped: list[tuple[str, str]]) -> tuple[list[str], dict[str, str], dict[str, int]]:
    """The files to copy (relative paths, posix form), the real path of those that are symlinks copied as
    their target, and each file's size as listed (the progress's total).

    PGlite writes regular files and folders only. Anything else in the folder is not its own: a named pipe
    would block the copy for ever, a device (``/dev/zero``) would fill the disk, a link may lead out of the
    store. So: a regular file is copied; a symlink is copied as its target's bytes when it resolves to a
    regular file inside the store (PGlite would read through it, and those bytes are the store's own);
    every other entry — a link leaving the store, a dangling or looping link, a link to a folder (not
    followed: a loop or a way out), a pipe, a device, a socket — is left out and named in ``skipped``."""
    top = os.fspath(src)
    base = os.path.realpath(top)
    files: list[str] = []
    links: dict[str, str] = {}
    sizes: dict[str, int] = {}
    for dirpath, dirs, names in os.walk(top):
        here = _relative(dirpath, top)
        for name in sorted(dirs) + sorted(names):
            path = os.path.join(dirpath, name)
            rel = f"{here}/{name}" if here else name
            if name == "postmaster.pid":
                continue
            try:
                st = os.lstat(path)
            except OSError:
                continue  # gone since the listing
            if stat.S_ISDIR(st.st_mode):
                continue
            if stat.S_ISREG(st.st_mode):
                files.append(rel)
                sizes[rel] = st.st_size
                continue
            if not stat.S_ISLNK(st.st_mode):
                skipped.append((rel, f"{what_is(st.st_mode)}, not a regular file; not copied"))
                continue
            real = os.path.realpath(path)
            if os.path.commonpath([base, real]) != base:
                skipped.append((rel, f"a link out of the store (to {real}); not copied"))
                continue
            try:
                target = os.stat(path)
            except OSError as exc:
                skipped.append((rel, f"a link that leads nowhere ({exc.strerror}); not copied"))
                continue
            if stat.S_ISREG(target.st_mode):
                files.append(rel)
                links[rel] = real
                sizes[rel] = target.st_size
            else:
                kind = "a folder" if stat.S_ISDIR(target.st_mode) else what_is(target.st_mode)
                skipped.append((rel, f"a link to {kind}, not a regular file; not copied"))
    return files, links, sizes


def keep_access(src: Path, copy: Path) -> None:
    """After PGlite wrote into ``copy`` (made by :func:`copy_pglite` from ``src``): PGlite replaces some
    files and creates others with its own modes (``pg_internal.init`` 0644). Every path also in ``src``
    gets ``src``'s mode back; a new one keeps no more than its folder allows (the folder's mode, without
    the execute bits for a file: PostgreSQL's own rule). As root, owners too (new paths: the store's)."""
    root = os.stat(src)
    plan: dict[Path, tuple[int, int, int]] = {}  # relative path -> (mode, uid, gid)

    def wanted(rel: Path, st: os.stat_result, parent: tuple[int, int, int] | None) -> tuple[int, int, int]:
        try:
            was = os.lstat(src / rel)
            return stat.S_IMODE(was.st_mode), was.st_uid, was.st_gid
        except FileNotFoundError:
            cap = parent[0] if stat.S_ISDIR(st.st_mode) else parent[0] & 0o666
            return stat.S_IMODE(st.st_mode) & cap, root.st_uid, root.st_gid

    plan[Path(".")] = (stat.S_IMODE(root.st_mode), root.st_uid, root.st_gid)
    for dirpath, dirs, names in os.walk(copy):
        here = Path(dirpath).relative_to(copy)
        for name in dirs + names:
            st = os.lstat(Path(dirpath, name))
            if not stat.S_ISLNK(st.st_mode):
                plan[here / name] = wanted(here / name, st, plan[here])
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    for rel in sorted(plan, key=lambda r: len(r.parts), reverse=True):  # deepest first
        mode, uid, gid = plan[rel]
        path = copy / rel
        st = os.lstat(path)
        if as_root and (st.st_uid, st.st_gid) != (uid, gid):
            os.chown(path, uid, gid)
        if stat.S_IMODE(st.st_mode) != mode:
            os.chmod(path, mode)


def _private(path, flags: int) -> int:
    return os.open(path, flags, 0o600)


def _same_access(st: os.stat_result, fd: int | None, path: Path | None) -> None:
    """Give the copy (an open ``fd`` or a folder at ``path``) the source's mode, and its owner when running
    as root (the only case a copy could end up with another owner). The owner may always read and write
    it (PGlite writes into its copy even of a read-only store; an edit's :func:`keep_access` puts exact
    modes back before the swap)."""
    target = fd if fd is not None else path
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        own = os.fstat(fd) if fd is not None else os.stat(path)
        if (own.st_uid, own.st_gid) != (st.st_uid, st.st_gid):
            os.chown(target, st.st_uid, st.st_gid)
    os.chmod(target, stat.S_IMODE(st.st_mode) | (0o700 if stat.S_ISDIR(st.st_mode) else 0o600))

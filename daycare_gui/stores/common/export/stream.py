"""Streaming a session through a format: page by page, a selection by ids, progress and cancel, and the
atomic file write (a temporary file beside the target, renamed over it only when complete)."""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from daycare_gui.stores.api import Conversations
from daycare_gui.stores.common.export.formats import FORMATS
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.records import SessionRef

PAGE = 500  # messages read per page; also how often progress is reported and cancel is checked


class ExportCancelled(Exception):
    """The user stopped the export; no file was written (the temporary one is removed)."""


@dataclass(frozen=True)
class ExportHeader:
    """What an export says about where its messages come from."""

    ref: SessionRef
    thread_title: str
    session_title: str
    store: str  # the store's title (path or URL, secrets masked)
    kind: str  # the store kind's title ("Daycare", "Linggen")
    total: int  # messages in the session
    selected: int | None = None  # messages asked for, when only a selection is exported


def header_for(cap: Conversations, ref: SessionRef, *, store: str = "", kind: str = "",
               selected: int | None = None) -> ExportHeader:
    """Titles of the thread and the session (ids when the store names them no better)."""
    thread_title = ref.thread_id
    session_title = ref.session_id
    for thread in cap.threads():
        if thread.id == ref.thread_id:
            thread_title = thread.title or thread.id
            break
    for session in cap.sessions(ref.thread_id):
        if session.ref == ref:
            session_title = session.title or ref.session_id
            break
    return ExportHeader(ref, thread_title, session_title, mask_url(store), kind, cap.message_count(ref), selected)


def export_session(cap: Conversations, ref: SessionRef, fmt: str, out: TextIO, *,
                   header: ExportHeader | None = None, ids: Iterable[str] | None = None,
                   start: int = 0, stop: int | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   cancelled: Callable[[], bool] | None = None) -> int:
    """Write session ``ref`` to ``out`` in format ``fmt`` ("md", "html", "jsonl"); return how many messages
    were written. ``ids`` keeps only those messages; ``start``/``stop`` bound the positions read (a
    selection's span, so a few records near the end do not read the whole session)."""
    writer = FORMATS[fmt].writer()
    wanted = None if ids is None else set(ids)
    if header is None:
        header = header_for(cap, ref, selected=None if wanted is None else len(wanted))
    total = len(wanted) if wanted is not None else max(0, (header.total if stop is None else stop) - start)
    out.write(writer.begin(header))
    written = seen = 0
    position = start
    for message in cap.iter_messages(ref, start, PAGE):
        if stop is not None and position >= stop:
            break
        position += 1
        seen += 1
        if seen % PAGE == 0:
            if cancelled is not None and cancelled():
                raise ExportCancelled("export cancelled")
            if progress is not None:
                progress(written if wanted is not None else seen, total)
        if wanted is not None:
            if message.id not in wanted:
                continue
            wanted.discard(message.id)
        out.write(writer.message(message))
        written += 1
        if wanted is not None and not wanted:
            break  # every selected message is written: the rest of the session is not read
    out.write(writer.end(written))
    if progress is not None:
        progress(written, total)
    return written


class ExportIncomplete(Exception):
    """Fewer messages than ``expect`` were exported (records named that are not in the session)."""

    def __init__(self, written: int) -> None:
        super().__init__(f"only {written} messages")
        self.written = written


def export_to_file(cap: Conversations, ref: SessionRef, fmt: str, path: str | os.PathLike, *,
                   expect: int | None = None, replace: bool = True, through_links: bool = True,
                   mode: int | None = None, **options) -> int:
    """:func:`export_session` into ``path``, atomically: a half-written export (an error, a cancel, a full
    disk) never replaces what was there, and no temporary file is left behind. With ``expect``, an export
    of fewer messages is not written either (:class:`ExportIncomplete`).

    ``replace=False``: a file that appears at ``path`` meanwhile is kept (FileExistsError, nothing written).
    ``through_links=False``: the file goes to ``path`` itself, never to where a symlink there points (a link
    that appears meanwhile is replaced, its target untouched). ``mode``: the new file's permission bits
    (default: what the umask gives)."""
    def produce(handle) -> int:
        written = export_session(cap, ref, fmt, handle, **options)
        if expect is not None and written < expect:
            raise ExportIncomplete(written)
        return written

    return write_atomically(path, produce, replace=replace, through_links=through_links, mode=mode)


def write_atomically(path: str | os.PathLike, produce, *, replace: bool = True, through_links: bool = True,
                     mode: int | None = None):
    """``produce(handle)`` into ``path`` as :func:`export_to_file` says (atomic, nothing left behind on an
    error); returns what ``produce`` returned. The costs CSV is written by it too."""
    target = Path(os.path.realpath(path)) if through_links else Path(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".export-tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            written = produce(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _new_file_mode() if mode is None else mode)
        if replace:
            os.replace(tmp, target)
        else:
            _move_new(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return written


def _move_new(tmp: str, target: Path) -> None:
    """Rename ``tmp`` to ``target`` only if nothing is there: a hard link cannot replace a file, so what
    appeared meanwhile is never overwritten. A file system without hard links gets a check, then a rename."""
    try:
        os.link(tmp, target)  # (tmp is our own regular file)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
        os.replace(tmp, target)
        return
    os.unlink(tmp)


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask

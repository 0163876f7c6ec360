"""Copying a file out of a store: regular files only, and never more than the file could plausibly hold.

A store's folder is untrusted. A named pipe in it blocks a copy for ever; a device (``/dev/zero`` behind a
symlink) never ends and fills the disk with the private copy. So the source is opened through
:func:`daycare_gui.stores.common.regular_files.open_regular` (refused unless its descriptor is a regular file), and the
copy stops once it has read much more than the size the file had when it was opened: a writer appending
to its log (the store may be in use while it is copied) stays far below that bound, an endless source
never reaches the disk beyond it.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

from daycare_gui.stores.common.regular_files import open_regular

CHUNK = 4 << 20  # 4 MB steps: a cancel or a limit is noticed within one step
GROWTH_SLACK = 64 << 20  # what a file may grow by while it is copied, beyond doubling


class FileGrew(OSError):
    """A file kept growing far past the size it had when the copy began; the copy stopped."""


def growth_limit(size: int) -> int:
    """The most a copy of a file ``size`` bytes long reads: twice that plus 64 MB. A log a live writer
    appends to grows by far less during one copy; an endless source is cut off near there."""
    return 2 * max(size, 0) + GROWTH_SLACK


def copy_stream(fin, fout, size: int, name: str, *, step: Callable[[int], None] | None = None,
                chunk: int = CHUNK) -> int:
    """Copy ``fin`` to ``fout`` in ``chunk`` steps, stopping with :class:`FileGrew` past
    :func:`growth_limit` of ``size`` (the file's size when it was opened). ``step(done)`` is called
    before each read with the bytes copied so far (it may raise, e.g. for a cancel). Returns the bytes."""
    limit = growth_limit(size)
    done = 0
    while True:
        if step is not None:
            step(done)
        block = fin.read(min(chunk, limit + 1 - done))
        if not block:
            return done
        if done + len(block) > limit:
            raise FileGrew(errno.EFBIG, f"{name} grew from {size:,} bytes to more than {limit:,} while it was "
                           "copied (is something still writing it, or is it not a real file?); the copy stopped",
                           name)
        fout.write(block)
        done += len(block)


def copy_regular(src: str | os.PathLike, dest: str | os.PathLike, *, follow: bool = True) -> int:
    """Copy the regular file ``src`` to the new file ``dest`` (created 0600, never replacing one), bounded
    as :func:`copy_stream` says. Raises OSError (:class:`~daycare_gui.stores.common.regular_files.NotRegularFile`, a
    folder, :class:`FileGrew` …); a partial ``dest`` is removed then."""
    with open_regular(src, follow=follow) as fin:
        size = os.fstat(fin.fileno()).st_size
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            with os.fdopen(fd, "wb") as fout:
                return copy_stream(fin, fout, size, Path(src).name)
        except BaseException:
            Path(dest).unlink(missing_ok=True)
            raise

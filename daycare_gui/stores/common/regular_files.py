"""Opening a store's file for reading: regular files only.

A store's folder is untrusted. A named pipe where a file is expected blocks a plain ``open()`` for ever
(until some writer comes); a device such as ``/dev/zero`` behind a symlink never ends. Every reader and
every copy of a store's files opens through :func:`open_regular`, which refuses both without blocking and
says what stood there. A leaf module (it imports nothing of the project): every layer may use it.
"""

from __future__ import annotations

import errno
import os
import stat

_NOT_REGULAR = (  # what a path can be instead of a regular file, in the words a user reads
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


class NotRegularFile(OSError):
    """Something that is not a regular file stands where a file is read; it was not read. An OSError, so
    every reader that turns OSError into a Problem ("cannot read file: …") says this one too."""

    def __str__(self) -> str:  # what it is, in words (not "[Errno 22] …: '/path'": callers name the path)
        return self.strerror or super().__str__()


def what_is(mode: int) -> str:
    """'a named pipe (FIFO)', 'a character device', … for a mode that is not a regular file's."""
    for test, words in _NOT_REGULAR:
        if test(mode):
            return words
    return "not a regular file"


def missing_or_what(path: str | os.PathLike) -> str:
    """Why ``path`` is neither a file nor a folder to open, in words that follow its name: "does not exist",
    or "is a named pipe (FIFO), not a regular file" — a pipe where a database is expected is not missing,
    and saying so would send the user looking for the wrong thing."""
    try:
        st = os.stat(path)
    except OSError:
        return "does not exist"
    return f"is {what_is(st.st_mode)}, not a regular file"


def _refuse_unless_regular(st: os.stat_result, path) -> None:
    if stat.S_ISREG(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    raise NotRegularFile(errno.EINVAL, f"{what_is(st.st_mode)}, not a regular file; not read", str(path))


def open_regular(path: str | os.PathLike, *, follow: bool = True):
    """``path`` opened for reading in binary mode, if it is a regular file; else IsADirectoryError (a folder)
    or :class:`NotRegularFile` (a named pipe, a device, a socket; a symlink when ``follow`` is False).

    Never blocks and never opens a device: the path is stat-ed first, so a device (whose open may do
    something, e.g. a watchdog or a tape) is refused unopened; the open itself is non-blocking (a named pipe
    swapped in after the check returns at once) and the descriptor's own fstat decides, so what is read is
    what was checked. ``follow=False`` opens with O_NOFOLLOW: a copy that must not leave its folder."""
    _refuse_unless_regular(os.stat(path, follow_symlinks=follow), path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        _refuse_unless_regular(os.fstat(fd), path)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a regular file ignores the flag; cleared so nothing downstream sees it
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | os.PathLike, *, follow: bool = True) -> bytes:
    """The bytes of ``path`` through :func:`open_regular` (the same errors)."""
    with open_regular(path, follow=follow) as fh:
        return fh.read()

"""Swap two paths in one atomic step, where the system can (Linux's ``renameat2(RENAME_EXCHANGE)``).

Replacing a folder (a PGlite data directory) by another cannot be done with ``rename``: the target must
first move away, and a kill between the two renames leaves no folder at the target at all. An exchange has
no such moment: either both names still hold what they held, or each holds the other's.
"""

from __future__ import annotations

import ctypes
import os
import sys

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _renameat2():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2  # glibc 2.28+, musl 1.2.2+
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


_FN = _renameat2()


def exchange(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Atomically exchange ``a`` and ``b`` (both must exist, on one file system). False when this system
    or file system cannot (nothing was changed then); OSError for any other failure."""
    if _FN is None:
        return False
    if _FN(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: the file system or kernel does not offer it
        return False
    raise OSError(err, os.strerror(err), os.fspath(a), None, os.fspath(b))

"""Whether a process still exists, asked the one safe way: a null signal, which checks and delivers nothing.

Engine pid files (Daycare's, Linggen's ``ling.pid``) and the leftovers of an interrupted save name the
process that wrote them; each asks here whether it is still there.
"""

from __future__ import annotations

import os


def process_exists(pid: int) -> bool | None:
    """True when a process with this id exists (one of another user's counts), False when none does, None
    when this cannot be told: an id naming no single process (0 and below), or Windows, where the null
    signal is Ctrl+C to a console group rather than a question."""
    if pid <= 0 or os.name == "nt":
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by someone else
    except OSError:
        return None
    return True

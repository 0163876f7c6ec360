"""SIGTERM, SIGHUP and SIGINT close the window the way Ctrl+Q does.

A desktop logging out and ``timeout`` send SIGTERM, a closed terminal SIGHUP, Ctrl+C in the terminal SIGINT.
Left to their defaults the first two end the process at once, leaving the store's private copy (a PGlite
copy, a SQLite snapshot) in the temporary folder, and SIGINT raises KeyboardInterrupt inside whatever slot
runs, prints a traceback and leaves the window up.

Python runs a signal handler only when the interpreter gets control, and Qt's event loop may sleep in C for
minutes. So the C-level handler's wake-up byte (``signal.set_wakeup_fd``) goes into a pipe (a socket pair on
Windows, where the wake-up needs a socket) that a QSocketNotifier watches: the event loop wakes, and the close
runs as an ordinary event, never in the middle of another slot. A signal the process was started ignoring
(``nohup`` ignores SIGHUP) stays ignored.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name))


class StopSignals(QObject):
    """While installed, each stop signal calls ``on_stop(signum)`` on the GUI thread, from the event loop."""

    def __init__(self, on_stop: Callable[[int], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._on_stop = on_stop
        self.busy = False  # set by on_stop while it waits for an answer (a nested event loop)
        self._previous: dict[int, object] = {}
        self._reader, self._writer = _wake_up_channel()
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        for signum in STOP_SIGNALS:
            current = signal.getsignal(signum)
            if current is signal.SIG_IGN or current is None:
                continue  # ignored on purpose by whoever started us (nohup), or set outside Python
            # A Python handler is needed for the wake-up byte to be written; the work is done in _woken.
            self._previous[signum] = signal.signal(signum, _noted)
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._woken)

    def _woken(self, *_args) -> None:
        try:
            received = self._reader.recv(512)
        except (BlockingIOError, InterruptedError):
            return
        for signum in dict.fromkeys(received):  # each signal once, in the order they came
            if signum in self._previous:
                self._on_stop(signum)

    def uninstall(self) -> None:
        """Give the signals back their former handlers (a signal from now on acts as before)."""
        self._notifier.setEnabled(False)
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        self._previous.clear()
        signal.set_wakeup_fd(self._previous_fd)
        self._reader.close()
        self._writer.close()


def _noted(_signum, _frame) -> None:
    """Nothing to do here: the wake-up byte already went to the pipe."""


class _PipeEnd:
    """One end of a pipe, read and closed as a socket is (the rest of this module does not tell them apart)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        os.set_blocking(fd, False)

    def fileno(self) -> int:
        return self._fd

    def recv(self, size: int) -> bytes:
        return os.read(self._fd, size)

    def close(self) -> None:
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            os.close(fd)


def _wake_up_channel():
    """(reader, writer), both non-blocking: a pipe where the platform has one — importing ``socket`` (and
    ``selectors`` with it) cost ~4 ms of every start, before the window showed (#35) — else a socket pair."""
    if os.name == "posix":
        reader, writer = os.pipe()
        return _PipeEnd(reader), _PipeEnd(writer)
    import socket

    pair = socket.socketpair()
    for sock in pair:
        sock.setblocking(False)
    return pair

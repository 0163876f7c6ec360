"""A private copy of a PGlite folder, served by the Node sidecar on a unix socket, deleted on close.

The user's folder is only read (copied file by file; ``global/pg_control`` first and ``pg_wal/`` last so a
copy taken while Daycare writes is consistent, ``postmaster.pid`` skipped). Everything PGlite writes —
recovery, WAL, statistics — lands in the copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from daycare_gui.stores.daycare.pg.runtime import SIDECAR, PgliteRuntime, PgliteUnavailable

COPY_PREFIX = "daycare-gui-pglite-"  # temporary folders: <tmp>/daycare-gui-pglite-<pid>-XXXX
READY_TIMEOUT = 60.0


def copy_pglite(src: Path, dest: Path, progress=None, cancelled=lambda: False) -> int:
    """Copy ``src`` into ``dest`` (a new folder); returns the bytes copied. Never writes into ``src``."""
    files = []
    for dirpath, _dirs, names in os.walk(src):
        for name in names:
            rel = Path(dirpath, name).relative_to(src)
            if rel.name == "postmaster.pid":
                continue
            files.append(rel)

    def order(rel: Path) -> tuple[int, str]:
        if rel.as_posix() == "global/pg_control":
            return (0, "")
        return (2 if rel.parts[0] == "pg_wal" else 1, rel.as_posix())

    files.sort(key=order)
    total = len(files)
    size = 0
    for i, rel in enumerate(files):
        if cancelled():
            raise PgliteUnavailable("cancelled while copying the store")
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / rel, target)
        size += target.stat().st_size
        if progress and i % 200 == 0:
            progress(i, total, f"Copying the PGlite store ({i:,} of {total:,} files)…")
    for dirpath, dirs, _names in os.walk(src):  # empty folders PostgreSQL expects (pg_tblspc, …)
        for d in dirs:
            (dest / Path(dirpath, d).relative_to(src)).mkdir(parents=True, exist_ok=True)
    return size


class PgliteServer:
    """A running sidecar over a private copy. ``url`` is a SQLAlchemy URL for it; ``close()`` stops it
    and removes the copy."""

    def __init__(self, folder: Path, runtime: PgliteRuntime, *, copy: bool = True, progress=None,
                 cancelled=lambda: False) -> None:
        self.original = Path(folder)
        self.runtime = runtime
        self.workdir = Path(tempfile.mkdtemp(prefix=f"{COPY_PREFIX}{os.getpid()}-"))
        self.proc: subprocess.Popen | None = None
        try:
            if copy:
                self.data = self.workdir / "data"
                self.copied_bytes = copy_pglite(self.original, self.data, progress, cancelled)
            else:  # writing: the caller already made the working copy it wants served
                self.data, self.copied_bytes = self.original, 0
            self.socket_dir = self.workdir / "socket"
            self.socket_dir.mkdir()
            self._start(runtime)
        except BaseException:
            self.close()
            raise

    def _start(self, runtime: PgliteRuntime) -> None:
        env = dict(os.environ, PGLITE_MODULES=str(runtime.pglite_modules),
                   PGLITE_SOCKET_MODULES=str(runtime.socket_modules))
        # stderr goes to a file and stdout is drained after READY: a pipe nobody reads fills up and
        # blocks the sidecar mid-query once PGlite has printed 64 KB of notices.
        self.log_path = self.workdir / "sidecar.log"
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen([runtime.node, str(SIDECAR), str(self.data), str(self.socket_dir)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                         env=env, text=True)
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(READY_TIMEOUT)
        first = line[0].strip() if line else ""
        threading.Thread(target=self._drain, daemon=True).start()
        if not first.startswith("READY "):
            err = first[6:] if first.startswith("ERROR ") else (first or "no answer")
            raise PgliteUnavailable(f"PGlite could not open the copy of {self.original}: {err}")
        self.socket_path = Path(first[6:])

    def _drain(self) -> None:
        proc = self.proc
        try:
            for _ in proc.stdout:
                pass
        except (OSError, ValueError, AttributeError):
            pass

    def log_tail(self, limit: int = 400) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-limit:].strip()
        except OSError:
            return ""

    @property
    def url(self) -> str:
        # libpq wants a password even though pglite-socket takes any; the tables live in template1.
        return f"postgresql+psycopg://postgres:pglite@/template1?host={self.socket_dir}&sslmode=disable"

    def close(self) -> None:
        """Stop PGlite (it flushes the folder it served) and remove the temporary folder: the private
        copy, or only the socket when it served a working copy the caller keeps (``copy=False``)."""
        self._stop()
        self._remove()

    def _stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            try:
                if proc.stdin:
                    proc.stdin.close()  # the sidecar exits when its stdin closes
                proc.wait(5)
            except (subprocess.TimeoutExpired, OSError):
                proc.kill()
                proc.wait(5)

    def _remove(self) -> None:
        for _ in range(3):
            shutil.rmtree(self.workdir, ignore_errors=True)
            if not self.workdir.exists():
                break
            time.sleep(0.1)

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

from daycare_gui.stores.common.opening import OpenCancelled
from daycare_gui.stores.daycare.pg.runtime import SIDECAR, PgliteRuntime, PgliteUnavailable

COPY_PREFIX = "daycare-gui-pglite-"  # temporary folders: <tmp>/daycare-gui-pglite-<pid>-XXXX
READY_TIMEOUT = 60.0


CHUNK = 4 << 20  # copied in 4 MB steps: a cancel stops a 1 GB segment within one step
MB = 1 << 20


def copy_pglite(src: Path, dest: Path, progress=None, cancelled=lambda: False) -> int:
    """Copy ``src`` into ``dest`` (a new folder); returns the bytes copied. Never writes into ``src``.

    ``progress(done_mb, total_mb, "Copying the store (12 of 61 MB)…")`` follows the bytes; when
    ``cancelled()`` turns true the copy stops between two steps (the caller removes ``dest``)."""
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
    total = sum(_size(src / rel) for rel in files)
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
    for rel in files:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(src / rel, "rb") as fin, open(target, "wb") as fout:
            while True:
                if cancelled():
                    raise OpenCancelled("cancelled while copying the store")
                block = fin.read(CHUNK)
                if not block:
                    break
                fout.write(block)
                size += len(block)
                report()
    for dirpath, dirs, _names in os.walk(src):  # empty folders PostgreSQL expects (pg_tblspc, …)
        for d in dirs:
            (dest / Path(dirpath, d).relative_to(src)).mkdir(parents=True, exist_ok=True)
    if progress:
        progress(total_mb, total_mb, f"Copying the store ({total_mb:,} of {total_mb:,} MB)…")
    return size


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


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
            if progress:
                progress(0, 0, f"Starting PGlite {runtime.pglite_version}…")
            self._start(runtime, cancelled)
        except BaseException:
            self.close(kill=True)
            raise

    def _start(self, runtime: PgliteRuntime, cancelled=lambda: False) -> None:
        env = dict(os.environ, PGLITE_MODULES=str(runtime.pglite_modules))
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
        deadline = time.monotonic() + READY_TIMEOUT
        while reader.is_alive() and time.monotonic() < deadline:
            if cancelled():
                raise OpenCancelled("cancelled while starting PGlite")
            reader.join(0.1)
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
        # libpq wants a password even though the sidecar takes any; the tables live in template1.
        return f"postgresql+psycopg://postgres:pglite@/template1?host={self.socket_dir}&sslmode=disable"

    def close(self, *, kill: bool = False) -> None:
        """Stop PGlite (it flushes the folder it served) and remove the temporary folder: the private
        copy, or only the socket when it served a working copy the caller keeps (``copy=False``).
        ``kill``: a start that failed or was cancelled; nothing it wrote is worth flushing."""
        self._stop(kill)
        self._remove()

    def _stop(self, kill: bool = False) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and kill:
            proc.kill()
            proc.wait(5)
        elif proc is not None:
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

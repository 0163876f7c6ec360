"""A private copy of a PGlite folder, served by the Node sidecar on a unix socket, deleted on close.

The copy itself is made by pg.folder_copy.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

from daycare_gui.stores.common import leftovers, ram_folders
from daycare_gui.stores.common.opening import OpenCancelled
from daycare_gui.stores.daycare.pg.folder_copy import copy_pglite
from daycare_gui.stores.daycare.pg.runtime import SIDECAR, PgliteRuntime, PgliteUnavailable, find_node

COPY_PREFIX = leftovers.PGLITE_READ_PREFIX  # temporary folders: <tmp>/daycare-gui-pglite-<pid>-t<start>-XXXX
READY_TIMEOUT = 60.0
SOCKET_PATH_MAX = 100  # sun_path holds 108 bytes with its NUL (104 on macOS): kept well below
# Node's options for the sidecar, for its memory (bench/README.md, "Today's Daycare": PGlite alone on the 1M
# demo, started and after the history's scan). WebAssembly compiled by Liftoff only: V8 otherwise recompiles
# PGlite's hot functions with TurboFan as they run, and that code and the compiler's memory stayed (about 45 MB
# more once started, 60 to 100 MB more after the scan); the scan and a page took about as long. A young
# generation of 1 MB semi-spaces: PGlite turns each reply into JS objects that die at once, and Node's default
# 16 MB semi-spaces let that garbage hold another 10 MB or so.
SIDECAR_NODE_FLAGS = ("--liftoff-only", "--max-semi-space-size=1")
# PostgreSQL settings the sidecar gives PGlite in place of those compiled into its WebAssembly (sidecar.mjs,
# changeCompiledSettings: PGlite 0.3 takes no option and reads no postgresql.conf). PGlite starts PostgreSQL
# with 128 MB of shared buffers and zeroes them at start, so they are resident from the first moment: PGlite's
# heap was 174 MB and its process 234 MB once started on the 1M demo, whatever the store's size. With 16 MB:
# a 42 MB heap, 118 MB started and 125 MB after a count(*) of the history, which took as long (a sequential
# scan reads through a small ring of buffers whatever their number; bench/README.md has the figures). A
# setting PGlite has not compiled in, or a value PostgreSQL refuses, leaves PGlite as it ships.
SIDECAR_PGLITE_SETTINGS = {"shared_buffers": "16MB"}
# glibc's malloc in the sidecar (Node's own buffers: PGlite's replies and their copies for the socket; PGlite's
# WebAssembly memory is not malloc's). One arena: Node's helper threads each grew an arena of their own while
# PGlite scanned a large table and kept it (the 1M demo's history pass peaked at ~390 MB with the default
# arenas, ~340 MB with one), at no cost measured in speed: the queries run on Node's one main thread. And
# blocks of 128 kB and more mapped of their own, as glibc starts: glibc otherwise raises that threshold to
# the largest such block freed (up to 32 MB), and from then on replies of that size come from the heap, which
# fragments and keeps its pages: the sidecar's peak over the 1M demo's history pass 144-151 -> 140-142 MB, and
# 142-150 -> 127-130 MB once it is done (bench/README.md).
SIDECAR_MALLOC = {"MALLOC_ARENA_MAX": "1", "MALLOC_MMAP_THRESHOLD_": "131072"}


class PgliteServer:
    """A running sidecar over a private copy. ``url`` is a SQLAlchemy URL for it; ``close()`` stops it
    and removes the copy."""

    def __init__(self, folder: Path, runtime: PgliteRuntime | Callable[[], PgliteRuntime], *, copy: bool = True,
                 progress=None, cancelled=lambda: False, before_copy: Callable[[], None] | None = None,
                 while_starting: Callable[[], None] | None = None) -> None:
        """``runtime``: the trusted PGlite, or a call that returns it (its files checked against the pin on
        another thread, an install): Node starts meanwhile and is told PGlite's module only once it is
        trusted. ``before_copy()`` runs once Node has started, before the folder is copied (a fingerprint of
        the folder as it was copied); ``while_starting()`` once the copy is whole, while PostgreSQL starts on
        it in Node (0.2 to 0.5 s this thread would spend waiting: the caller's imports, say)."""
        self.original = Path(folder)
        self.runtime = runtime if isinstance(runtime, PgliteRuntime) else None
        self._private_copy = copy  # served from a copy of ours, deleted on close (else the caller's working copy)
        # named for this process and locked as its own (stores.common.private_copies): a kill leaves it to
        # the next start's sweep, which never takes a running instance's. A small store's copy goes to a RAM
        # folder of this user's (stores.common.ram_folders: its ~1,100 files are slow to create on a busy disk)
        where = ram_folders.folder_for(leftovers.folder_bytes(self.original, ram_folders.MAX_BYTES)) if copy else None
        self._private = leftovers.private_folder(COPY_PREFIX, where)
        self.workdir = self._private.path
        self.proc: subprocess.Popen | None = None
        self._short_socket_dir: Path | None = None
        self.skipped: list[tuple[str, str]] = []  # what the copy left out (copy_pglite): the store reports it
        try:
            if copy:
                self.data = self.workdir / "data"
                self.data.mkdir(mode=0o700)
            else:  # writing: the caller already made the working copy it wants served
                self.data, self.copied_bytes = self.original, 0
            self.socket_dir = self._socket_folder()
            # Node starts first, before PGlite's files are trusted (Node's own start, 0.05 to 0.1 s, runs while
            # they are hashed); it loads PGlite and its WebAssembly once told which module (0.3 to 0.6 s), while
            # the folder is copied; PostgreSQL, which reads the folder, waits for the START _start sends once
            # the copy is whole (sidecar.mjs). A failed or cancelled copy kills it.
            self._spawn(self.runtime.node if self.runtime is not None else find_node())
            if before_copy is not None:
                before_copy()
            if self.runtime is None:
                self.runtime = runtime()
            self._tell(str(self.runtime.entry))
            if copy:
                self.copied_bytes = copy_pglite(self.original, self.data, progress, cancelled, self.skipped)
            if progress:
                progress(0, 0, f"Starting PGlite {self.runtime.pglite_version}…")
            self._start(self.runtime, cancelled, meanwhile=while_starting)
        except PgliteUnavailable as exc:
            self.close(kill=True)
            if not self.skipped:
                raise
            left_out = "; ".join(f"{rel}: {why}" for rel, why in self.skipped[:3])
            raise PgliteUnavailable(f"{exc} (the copy left out what is not a regular file — {left_out})") from None
        except BaseException:
            self.close(kill=True)
            raise

    def _socket_folder(self) -> Path:
        """Where the sidecar's socket goes: in the private folder, unless its path would pass the 107 bytes
        a unix socket's path may have (a long TMPDIR, macOS's /var/folders/…): then a short folder of
        this user's own in /tmp (mkdtemp makes it 0700), removed with the copy."""
        folder = self.workdir / "socket"
        if len(os.fsencode(folder / ".s.PGSQL.5432")) <= SOCKET_PATH_MAX:
            folder.mkdir()
            return folder
        import tempfile

        self._short_socket_dir = Path(tempfile.mkdtemp(prefix="daycare-gui-sock-", dir="/tmp"))
        return self._short_socket_dir

    def _spawn(self, node: str, node_flags=None) -> None:
        """Start the sidecar (Node running sidecar.mjs, nothing else yet) and give it its password; it loads PGlite
        once told its module (:meth:`_tell`, after the check) and waits for START before PostgreSQL looks at the
        data folder."""
        node_flags = SIDECAR_NODE_FLAGS if node_flags is None else node_flags
        self._node_flags = node_flags
        env = dict(os.environ, **SIDECAR_MALLOC,
                   PGLITE_SETTINGS="\n".join(f"{name}={value}" for name, value in SIDECAR_PGLITE_SETTINGS.items()))
        # A password of this start's own, on the sidecar's stdin (not its command line or environment,
        # which other processes can read): only who holds it reaches the copy through the socket.
        self.password = secrets.token_urlsafe(24)
        # stderr goes to a file and stdout is drained after READY: a pipe nobody reads fills up and
        # blocks the sidecar mid-query once PGlite has printed 64 KB of notices.
        self.log_path = self.workdir / "sidecar.log"
        # (its working folder is the private one: never the store's, or wherever the app was started from)
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen([node, *node_flags, str(SIDECAR), str(self.data), str(self.socket_dir)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                         env=env, text=True, cwd=str(self.workdir))
        self._tell(self.password)

    def _tell(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError:
            pass  # it stopped already: its ERROR line (or none) says why when it is read

    def _start(self, runtime: PgliteRuntime, cancelled=lambda: False, node_flags=None, meanwhile=None) -> None:
        """The data folder is whole: let the sidecar (spawned now if it is not yet) start PostgreSQL on it, and
        wait for its READY."""
        if self.proc is None:
            self._spawn(runtime.node, node_flags)
            self._tell(str(runtime.entry))
        node_flags = self._node_flags
        self._tell("START")
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        if meanwhile is not None:
            try:
                meanwhile()
            except Exception:  # (what it prepared fails again, and is said, where it is used)
                pass
        deadline = time.monotonic() + READY_TIMEOUT
        while reader.is_alive() and time.monotonic() < deadline:
            if cancelled():
                raise OpenCancelled("cancelled while starting PGlite")
            reader.join(0.1)
        first = line[0].strip() if line else ""
        if not first and node_flags and self._options_refused():
            # a Node whose V8 lacks one of the options (V8 may drop a testing flag such as --liftoff-only)
            # stops at once, "bad option": PGlite runs without them rather than not at all
            for pipe in (self.proc.stdin, self.proc.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass
            self.proc = None
            self._start(runtime, cancelled, ())
            return
        threading.Thread(target=self._drain, daemon=True).start()
        if not first.startswith("READY "):
            err = first[6:] if first.startswith("ERROR ") else (first or "no answer")
            raise PgliteUnavailable(f"PGlite could not open the copy of {self.original}: {err}")
        self.socket_path = Path(first[6:])

    def _options_refused(self) -> bool:
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            return False
        return self.proc.returncode == 9 and "bad option" in self.log_tail()

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
        # The tables live in template1.
        return (f"postgresql+psycopg://postgres:{self.password}@/template1?host={self.socket_dir}"
                "&sslmode=disable")

    def close(self, *, kill: bool = False) -> None:
        """Stop PGlite and remove the temporary folder: the private copy, or only the socket when it served
        a working copy the caller keeps (``copy=False``: PGlite is stopped so that it flushes that folder).
        A private copy is deleted at once, so nothing PGlite would flush into it is worth its checkpoint
        (0.4 s of every ``inspect`` of the small demo): it is ended like ``kill``, a start that failed or
        was cancelled."""
        self._stop(kill or self._private_copy)
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
        if self._short_socket_dir is not None:
            shutil.rmtree(self._short_socket_dir, ignore_errors=True)
        self._private.remove(attempts=3)

"""``write_demo``: orchestrates the model, the files and the database, with progress and cancellation."""

from __future__ import annotations

import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.daycare.demo import database, files, large
from daycare_gui.stores.daycare.demo.db_model import TABLES
from daycare_gui.stores.daycare.demo.db_rows import build_small
from daycare_gui.stores.daycare.demo.ids import NOW_MS

SCALES = ("small", "large")
Progress = Callable[[int, int, str], None]
Cancel = Callable[[], bool]


class DemoError(Exception):
    """The demo cannot be written where asked (non-empty destination, unknown scale, …)."""


class DemoCancelled(DemoError):
    """``cancel()`` returned True; everything written so far has been removed again."""


@dataclass
class DemoSummary:
    dest: Path
    scale: str
    counts: dict[str, int]
    files: int
    seconds: float
    owner_id: str
    user_ids: dict[str, str] = field(default_factory=dict)  # role → id
    agent_ids: dict[str, str] = field(default_factory=dict)  # role → id (the hand-written agents)
    largest_session_id: str | None = None
    largest_session_records: int = 0

    def describe(self) -> str:
        c = self.counts
        return (f"{self.scale} demo: {c['users']} users, {c['agents']} agents, {c['sessions']} sessions, "
                f"{c['session_history']} history records, {c['inbox']} inbox items, {self.files} files "
                f"in {self.seconds:.1f} s\nlargest session: {self.largest_session_id} "
                f"({self.largest_session_records} records)\n{self.dest}")


def _check_dest(dest: Path) -> bool:
    """Refuse anything but a missing or empty directory. Returns True if we created ``dest``."""
    if dest.exists():
        if not dest.is_dir():
            raise DemoError(f"{dest} exists and is not a directory")
        if any(dest.iterdir()):
            raise DemoError(f"{dest} is not empty; the demo is only written into an empty or new folder")
        return False
    try:
        dest.mkdir(parents=True)
    except OSError as exc:  # a parent that is a file, a folder we may not write, a read-only disk
        raise DemoError(f"cannot create {dest}: {exc.strerror or exc}") from None
    return True


def _clean(dest: Path, created: bool) -> None:
    if created:
        shutil.rmtree(dest, ignore_errors=True)
        return
    for child in dest.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


def write_demo(dest: Path, *, scale: str = "small", now_ms: int | None = None, progress: Progress | None = None,
               cancel: Cancel | None = None) -> DemoSummary:
    """Write a deterministic Daycare data directory into ``dest`` (missing or empty).

    ``now_ms`` is "now" as far as the demo is concerned: ``None`` keeps the fixed ``NOW_MS`` (byte-identical
    output on every run); any other value shifts every timestamp written by ``now_ms - NOW_MS``, so relative
    ages (fresh vs. stuck inbox items, last runs, …) stay the same.
    """
    if scale not in SCALES:
        raise DemoError(f"unknown scale {scale!r}; use one of {', '.join(SCALES)}")
    dest = Path(dest)
    started = time.perf_counter()
    created = _check_dest(dest)
    bulk_batches = large.BATCHES if scale == "large" else 0
    total = 4 + bulk_batches
    done = 0

    def step(message: str) -> None:
        nonlocal done
        if cancel is not None and cancel():
            raise DemoCancelled("demo writing was cancelled")
        if progress is not None:
            progress(done, total, message)
        done += 1

    conn = None
    try:
        step("building demo content")
        model = build_small(now_ms=now_ms)
        step("writing files")
        writer = files.FileWriter(dest)
        files.write_all(writer, model)
        step("writing database")
        conn = database.open_for_load(dest / "daycare.db", model.users["owner"], model.now - NOW_MS)
        for table in TABLES:
            database.insert_dicts(conn, table, model.rows[table])
        largest = (model.largest_session_id, model.largest_session_records)
        if scale == "large":
            bulk = large.LargeLoad(model)
            for message in bulk.batches(conn):
                step(message)
            largest = (bulk.largest_session_id, bulk.largest_session_records)
        step("checkpointing")
        # Counted on the loading connection: a later read-only open of a WAL file would leave -wal/-shm behind.
        counts = count_rows(conn)
        database.finish(conn)
        conn = None
    except BaseException:
        if conn is not None:
            conn.close()
        _clean(dest, created)
        raise
    if progress is not None:
        progress(total, total, "done")
    return DemoSummary(dest=dest, scale=scale, counts=counts, files=writer.count + 1,
                       seconds=time.perf_counter() - started, owner_id=model.users["owner"],
                       user_ids=dict(model.users), agent_ids=dict(model.agents),
                       largest_session_id=largest[0], largest_session_records=largest[1])


def count_rows(conn: sqlite3.Connection) -> dict[str, int]:
    return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("_migrations", *TABLES)}

"""A store's storage: its tables, what this application deleted and keeps aside, its migrations and the
upgrade, and where its bytes go."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from daycare_gui.stores.deferred_dataclass import deferred


@deferred
class TableRef:
    name: str
    count: int | None = None
    hidden: bool = False  # shadow/internal tables (FTS5 shadows): counted in reports, not listed
    columns: tuple[str, ...] = ()  # its column names, where listing them is cheap (the table list shows them)


@deferred
class DeletedItem:
    """Something deleted through this app and kept aside so it can be put back (a task, a skill, a row)."""

    key: str  # what restore() is given back
    title: str  # where it lived, as the person knows it
    deleted_at: str = ""  # ISO time
    what: str = ""  # what it was, in a word or two: "cron task", "skill", "file", "folder", a kind's word
    problem: str | None = None  # set when it is listed but can never be restored (and why)


# -- Storage: migrations and the upgrade (api.Storage) ------------------------------------------------


@deferred
class MigrationLine:
    """One migration of the store against the list its system knows: ``status`` is "applied", "pending",
    "unknown" (applied, but not in the list this application knows) or "later pending" (of a later
    version's list, not applied)."""

    status: str
    name: str
    applied_at: int | None = None
    note: str = ""

    @property
    def id(self) -> str:  # the key the list models use
        return f"{self.status}:{self.name}"


@deferred
class UpgradeStep:
    """One step an upgrade would run, as its dry run saw it."""

    name: str
    description: str = ""
    imports: str = ""  # what it reads from older files ("" when it reads none)
    rows: str = ""  # the dry run's row changes ("agents +2, sessions +3")
    detail: tuple[str, ...] = ()  # every line the dry run said about it (a tooltip)


@deferred
class UpgradePlan:
    """A dry run: what an upgrade would do to ``target`` (the file it replaces, or creates when
    ``exists`` is False: then there is nothing to back up). No steps: the store is up to date, and
    ``up_to_date`` says so. ``native`` is the kind's own plan, handed back to ``Storage.upgrade``."""

    target: Path
    exists: bool
    steps: tuple[UpgradeStep, ...] = ()
    up_to_date: str = ""
    skipped: tuple[str, ...] = ()  # "path:line — why" of every old line the steps would skip
    notes: tuple[str, ...] = ()
    predicted_failure: tuple[str, str] | None = None  # (step, why): running it would change nothing
    warnings: tuple[str, ...] = ()
    native: Any = field(default=None, compare=False, repr=False)


@deferred
class UpgradeResult:
    """What an upgrade did. Unless ``changed``, the store is as it was (``unchanged`` says so in words,
    or why it may not be)."""

    target: Path
    applied: tuple[str, ...] = ()
    cancelled: bool = False
    refusal: str = ""
    failure: str = ""  # why it stopped, in a sentence ("" when it did not)
    failure_headline: str = ""
    unchanged: str = ""
    backup_path: Path | None = None
    done: str = ""  # said after a successful run
    checks: tuple[str, ...] = ()  # integrity and foreign key checks, one line each
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not (self.refusal or self.failure or self.cancelled)

    @property
    def changed(self) -> bool:
        return self.ok and bool(self.applied)

    def summary(self) -> str:
        if self.refusal:
            return f"refused: {self.refusal}"
        if self.failure:
            return f"{self.failure_headline}: {self.failure}"
        if self.cancelled:
            return "cancelled"
        return f"{len(self.applied)} applied"


# -- Space: where the bytes of a store go, and what a safe action gives back (#38) ---------------------


@deferred
class SpaceLine:
    """One holder of bytes: a table or index, a thread/session/agent, a folder, the free pages or the log."""

    name: str
    bytes: int
    kind: str = ""  # "table" | "index" | "thread" | "session" | "agent" | "folder" | "free" | "wal"
    count: int | None = None  # rows, checkpoints, records or files in it
    detail: str = ""
    per_day: float | None = None  # bytes added per day, where times allow


@deferred
class SpaceAction:
    """A safe action and what it would give back, computed from the store (``reclaim`` in bytes; None when
    only its dry run can tell)."""

    id: str  # "prune", …
    title: str
    reclaim: int | None
    detail: str = ""


@dataclass
class SpaceReport:
    total: int = 0  # bytes on disk the store takes (its files, or the database's size on the server)
    tables: list[SpaceLine] = field(default_factory=list)  # tables and indexes, largest first
    holders: list[SpaceLine] = field(default_factory=list)  # threads/sessions/agents, largest first
    holders_title: str = ""  # "Threads", "Sessions" …
    folders: list[SpaceLine] = field(default_factory=list)  # files beside the store, by folder
    free: int | None = None  # free pages (SQLite), bytes
    wal: int | None = None  # the write-ahead log beside a SQLite file, bytes
    method: str = ""  # how the table sizes were measured: "dbstat", "page counts", "pg_total_relation_size"
    advice: list[str] = field(default_factory=list)  # what to do and what it costs, one sentence each
    actions: list[SpaceAction] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    holders_pending: bool = False  # a first, quick report: the holders are still being measured

    def to_dict(self) -> dict:
        def lines(items: list[SpaceLine]) -> list[dict]:
            return [{k: v for k, v in vars(i).items() if v not in (None, "")} for i in items]

        return {"total": self.total, "method": self.method, "free": self.free, "wal": self.wal,
                "tables": lines(self.tables), "holders_title": self.holders_title, "holders": lines(self.holders),
                "folders": lines(self.folders), "advice": list(self.advice),
                "actions": [vars(a) for a in self.actions], "notes": list(self.notes)}


@deferred
class PrunePreview:
    """A prune's dry run: what goes (one line per thread, largest first) and the sizes measured on a pruned
    copy. ``refusal`` instead when it would not run."""

    size_before: int = 0
    size_after: int = 0
    dropped: tuple[SpaceLine, ...] = ()
    summary: str = ""
    notes: tuple[str, ...] = ()
    refusal: str = ""

    @property
    def reclaimed(self) -> int:
        return max(0, self.size_before - self.size_after)


@deferred
class PruneDone:
    size_before: int = 0
    size_after: int = 0
    backup: Path | None = None
    summary: str = ""
    refusal: str = ""  # nothing was changed: why
    cancelled: bool = False

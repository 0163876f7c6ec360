"""What the Overview and Storage panes show about a store as a whole.

Everything here may be slow on a big store (counts, the file scan, json_each over every agent), so the panes
call these functions on the DB worker only. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from daycare_gui.stores.common.sqlite_ro import DatabaseError, ReadOnlyDatabase
from daycare_gui.stores.daycare.records.agents import TokenSize
from daycare_gui.stores.daycare.sqlite.migration_state import MigrationState
from daycare_gui.stores.daycare.sqlite.queries.agents import token_usage_by_model
from daycare_gui.stores.daycare.sqlite.queries.columns import TableColumns
from daycare_gui.stores.daycare.sqlite.queries.history import activity_per_day
from daycare_gui.stores.problems import Problem

GENERATION_TEXT = {
    "sqlite": "SQLite database (daycare.db)",
    "pglite": "PGlite (embedded PostgreSQL) store",
    "legacy-files": "Legacy files only (before Daycare used a database)",
    "empty": "An empty Daycare folder",
}

# What each generation means for the person looking at it (shown on the Overview beside detection's notes).
GENERATION_EXPLANATION = {
    "legacy-files": (
        "This folder holds Daycare's older file layout (agents/, cron/, signals/, … — used before Daycare moved to "
        "SQLite on 2026-02-19). A current Daycare imports these files into daycare.db once, the first time it "
        "starts here; until then there are no tables, token totals or activity to show. Everything below comes "
        "from the files themselves."),
    "pglite": (
        "Daycare keeps this store in PGlite (an embedded PostgreSQL folder, daycare.pglite/), which this version "
        "of daycare-gui cannot read yet. Only the files around it (settings, auth, skills, apps, homes) are shown."),
    "empty": "Daycare created this folder but has not stored any agents or a database in it yet.",
}


@dataclass(frozen=True)
class TokenUsage:
    provider: str
    model: str
    size: TokenSize


@dataclass(frozen=True)
class StoreSummary:
    """Identity, state and counts of one store, computed off the GUI thread."""

    root: str
    generation: str
    generation_text: str
    engine_running: bool
    engine_detail: str
    db_mode: str  # "immutable" | "read-only" | "snapshot" | "no database"
    db_note: str | None
    migrations_label: str
    notes: tuple[str, ...]
    table_counts: dict[str, int]
    file_counts: dict[str, int]
    problems: int
    problem_errors: int
    tokens: tuple[TokenUsage, ...] = ()
    activity: tuple[tuple[int, int], ...] = ()  # (day start ms, history records that day)
    # Why a count failed (the explained database error), None when it ran: a failed query answers
    # "nothing", which must not be drawn as "no token usage" or "no history".
    token_failure: str | None = None
    activity_failure: str | None = None

    @property
    def explanation(self) -> str:
        """A plain sentence or two about the generation, for the stores that are not a plain SQLite one."""
        return GENERATION_EXPLANATION.get(self.generation, "")

    @property
    def engine_text(self) -> str:
        state = "running" if self.engine_running else "not running"
        return f"{state} — {self.engine_detail}"

    @property
    def mode_text(self) -> str:
        if self.db_mode == "no database":
            return "read-only; no SQLite database is open"
        base = {"immutable": "read-only, opened immutable (nothing is written beside the database)",
                "read-only": "read-only, reading through the write-ahead log (mode=ro)",
                "snapshot": "read-only, reading a private snapshot copy"}.get(self.db_mode, f"read-only ({self.db_mode})")
        return f"{base}. {self.db_note}" if self.db_note else base


def store_summary(store) -> StoreSummary:
    """Everything the Overview shows. Scans the files once (which also adds their problems to the store)."""
    token_failure = activity_failure = None
    inventory = store.files()
    file_counts = {name: n for name, n in inventory.counts().items() if n}
    table_counts: dict[str, int] = {}
    tokens: tuple[TokenUsage, ...] = ()
    activity: tuple[tuple[int, int], ...] = ()
    db: ReadOnlyDatabase | None = store.db
    if db is not None:
        table_counts = store.table_counts()
        try:
            tokens = tuple(TokenUsage(p, m, s) for (p, m), s in token_usage_by_model(db, store.cols).items())
        except DatabaseError as exc:
            token_failure = str(exc)
        if store.has_table("session_history"):
            try:
                activity = tuple(activity_per_day(db))
            except DatabaseError as exc:
                activity_failure = str(exc)
    problems = store.problems.as_list()
    return StoreSummary(
        root=str(store.paths.root),
        generation=store.generation,
        generation_text=GENERATION_TEXT.get(store.generation, store.generation),
        engine_running=store.engine.running,
        engine_detail=store.engine.detail,
        db_mode=db.mode.name if db is not None else "no database",
        db_note=db.mode.note if db is not None else None,
        migrations_label=store.migrations.generation_label,
        notes=tuple(store.detection.notes),
        table_counts=table_counts,
        file_counts=file_counts,
        problems=len(problems),
        problem_errors=sum(1 for p in problems if p.severity == "error"),
        tokens=tokens,
        activity=activity,
        token_failure=token_failure,
        activity_failure=activity_failure,
    )


def all_problems(store) -> list[Problem]:
    """The store's problems after the file scan (which adds its own), in the order they were found."""
    store.files()
    return store.problems.as_list()


# -- Storage: tables and migrations -------------------------------------------------------------------


@dataclass(frozen=True)
class TableInfo:
    name: str
    rows: int | None  # None when counting failed
    columns: tuple[str, ...]
    error: str | None = None

    @property
    def id(self) -> str:  # the key the list models use
        return self.name


def table_infos(db: ReadOnlyDatabase, cols: TableColumns | None = None) -> list[TableInfo]:
    cols = cols or TableColumns(db)
    out = []
    for table in db.tables():
        try:
            out.append(TableInfo(table, db.count(table), tuple(cols.of(table))))
        except DatabaseError as exc:
            out.append(TableInfo(table, None, tuple(cols.of(table)), str(exc)))
    return out


@dataclass(frozen=True)
class MigrationLine:
    """One row of the Storage pane's migration list."""

    status: str  # "applied" | "pending" | "unknown" | "later pending"
    name: str
    applied_at: int | None
    note: str

    @property
    def id(self) -> str:
        return f"{self.status}:{self.name}"


def migration_lines(state: MigrationState) -> list[MigrationLine]:
    """Applied (in the order they ran), then pending, then what a later Daycare still lacks."""
    later = set(state.later_known)
    out = []
    for name, at in state.applied:
        if name in later:
            out.append(MigrationLine("unknown", name, at, "applied by a later Daycare (b8a8d807), not by this "
                                                          "application's 808af509 list"))
        elif name in state.unknown:
            out.append(MigrationLine("unknown", name, at, "not in any migration list this application knows"))
        else:
            out.append(MigrationLine("applied", name, at, ""))
    for name in state.pending:
        out.append(MigrationLine("pending", name, None, "in the 808af509 list, not applied yet"))
    for i, name in enumerate(state.later_pending):
        note = ("the later Daycare's upgrade stopped before this one (it failed or was interrupted)" if i == 0
                else "of the later Daycare's list, not applied yet")
        out.append(MigrationLine("later pending", name, None, note))
    return out


def migration_summary(state: MigrationState) -> str:
    """One paragraph a person can act on."""
    if not state.has_table:
        return "No _migrations table: Daycare has never migrated this database (or there is no database)."
    parts = [f"{len(state.applied)} applied; state: {state.generation_label}."]
    if state.pending:
        parts.append(f"{len(state.pending)} pending, next: {state.pending[0]}.")
    if state.unknown:
        known = len(state.later_known)
        parts.append(f"{len(state.unknown)} unknown to this application"
                     + (f" ({known} of them from a later Daycare, b8a8d807)." if known else "."))
    if state.later_pending:
        parts.append(f"The later Daycare's upgrade stopped before {state.later_pending[0]} "
                     f"({len(state.later_pending)} of its migrations not applied); a b8a8d807-era engine refuses "
                     "to start until that is resolved.")
    return " ".join(parts)

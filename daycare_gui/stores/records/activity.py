"""Scheduled work and what it did: tasks, their runs and automations, counts by day, and the tokens and
costs of model calls."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from daycare_gui.stores.deferred_dataclass import deferred
from daycare_gui.stores.records.conversations import SessionRef
from daycare_gui.stores.records.documents import DocRef


def whole_ms(value) -> int | None:
    """A time in milliseconds as an int (a REAL as its whole part), or None where it is not one: a store may
    hold anything (SQLite keeps text in an INTEGER column), and code compares and adds these times. The one
    test of a stored time, for tasks and runs, a history record's time and a session's first and last."""
    if type(value) is int:
        return value
    if isinstance(value, float) and value == value and abs(value) < 2 ** 63:  # (not NaN; as an integer could hold)
        return int(value)
    return None


def _whole_times(record, *names: str) -> None:
    for name in names:
        value = getattr(record, name)
        if value is not None and type(value) is not int:
            object.__setattr__(record, name, whole_ms(value))  # (a frozen record: set once, as it is made)


@deferred
class TaskCopy:
    """One place a task is stored (a file, a database row): whether the store's system reads it, and why.

    A task kept twice (Daycare's ``cron/<id>/TASK.md`` beside its imported ``tasks_cron`` row) lists both,
    so an edit to the copy the system no longer reads is not mistaken for a change."""

    where: str  # what it is, in words: "file", "database row", "mission.md"
    ref: str = ""  # the path, or "<table> id <id>"
    read: bool = True  # the system reads this copy
    reason: str = ""  # why it reads it (or ignores it), in one sentence
    file: bool = False  # ``ref`` is a file of the store that the shared document editor may open and save
    fields: bool = False  # Tasks.editable/update edit this copy's fields (a row)


@deferred
class TaskItem:
    """Scheduled work. Shared code says the schedule in words and computes next runs for ``cron``."""

    id: str
    title: str
    schedule_kind: str  # "cron" | "interval" | "once" | "heartbeat" | a kind's own word
    schedule: str = ""  # a cron expression for "cron"; seconds for "interval"; an ISO time for "once"
    timezone: str = ""  # IANA name; empty means the machine's
    enabled: bool = True
    last_run_at: int | None = None
    next_run_at: int | None = None  # when the store's system runs it next, where the kind can tell (any schedule)
    source: str = ""  # path or table it lives in
    body: str = ""  # the prompt/code it runs
    document: DocRef | None = None  # edit it as a document when it is one
    meta: tuple[tuple[str, str], ...] = ()
    raw: Any = None
    problem: str | None = None
    # Where it is stored, when more than one place may hold it (a file and a row); () = one place, ``source``
    copies: tuple[TaskCopy, ...] = ()
    agent_id: str = ""  # the agent that runs it, where the store says
    agent: str = ""  # that agent's name
    user_id: str = ""
    user: str = ""  # the owner's name

    def __post_init__(self) -> None:
        _whole_times(self, "last_run_at", "next_run_at")

    @property
    def ignored(self) -> bool:
        """Stored, but in no copy the system reads (a file left beside imported rows): it never runs."""
        return bool(self.copies) and not any(c.read for c in self.copies)


# How a run ended, in the automations page's words; "unknown" when the store keeps nothing to tell.
RUN_OUTCOMES = ("worked", "failed", "skipped", "interrupted", "running", "unknown")


@deferred
class Run:
    """One time scheduled work ran (or was due and skipped), as the store lets it be told.

    Few systems log runs: most are *reconstructed* from the records a run leaves (a system message that
    started it, a completion record with its error). ``evidence`` says in words what this run was told
    from, and ``certainty`` how sure that is: "logged" (the system's own run log), "reconstructed" (its
    records, start and end seen) or "partial" (only some of them: an outcome "unknown" says why).
    """

    id: str  # stable within its automation (a log line, the first record's id)
    automation_id: str
    started_at: int | None
    finished_at: int | None = None
    outcome: str = "unknown"  # one of RUN_OUTCOMES
    error: str = ""  # the error text, when the store keeps one
    evidence: str = ""
    certainty: str = "reconstructed"
    session: SessionRef | None = None  # where its conversation records are
    message_id: str = ""  # the record the run starts at (the conversation opens there)
    tokens: int | None = None  # tokens its records used, where they say
    meta: tuple[tuple[str, str], ...] = ()
    raw: Any = None

    def __post_init__(self) -> None:
        _whole_times(self, "started_at", "finished_at")


@deferred
class Automation:
    """A scheduled task or trigger whose runs can be listed: a task (``task``) or a kind's own trigger."""

    id: str
    title: str
    task: TaskItem | None = None  # schedule, timezone, enabled, next runs come from it when set
    runs_told: bool = True  # False: the store cannot tell this task's runs apart (``why`` says why)
    why: str = ""
    deleted: bool = False  # gone from the store's tasks, its runs remain (a delete-after-run task)
    notes: tuple[str, ...] = ()  # what a person must know to read its runs right (a heartbeat batch)


@deferred
class DayCount:
    day: str  # YYYY-MM-DD
    series: str  # model name, record kind, ... ("" for one series)
    value: float


# -- Usage: tokens per model call, and the store's own cost figures (api.Usage, issue #37) ------------------


@dataclass(frozen=True, slots=True)  # slots: a large store streams hundreds of thousands
class UsageRecord:
    """The tokens of one model call, as the store recorded them.

    Token counts are exclusive buckets that add up to the call's total: ``input`` is the input neither read
    from nor written to the cache. A cache write whose duration the store does not say is a 5-minute one.
    ``key`` is unique within the store: totals keep the keys of their records, so every figure drills down.
    """

    key: str
    at: int | None
    provider: str
    model: str
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write_5m: int = 0
    cache_write_1h: int = 0
    ref: SessionRef | None = None  # the session holding the record, for "open the conversation here"
    message_id: str = ""  # the Message.id of the record within that session
    thread_title: str = ""  # the agent / chat, as the conversations list names it
    user: str = ""
    task: str = ""  # the scheduled task the call ran for, where the store says
    estimated: bool | None = False  # True: the system estimated it; None: the store cannot tell
    stored_cost: float | None = None  # what the store itself says the call cost (USD), where it keeps one
    # Why its token counts could not be read (another tool's row: a count stored as text, sizes that are not
    # an object), else "". Its counts are then 0: it is counted apart, never priced as a call that used none.
    problem: str = ""

    @property
    def tokens(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write_5m + self.cache_write_1h


@deferred
class StoredCost:
    """A cost figure the store keeps itself (Daycare PGlite's hourly table), summed per day and model, for the
    side-by-side with the cost recomputed from the records."""

    day: str  # YYYY-MM-DD (UTC)
    provider: str
    model: str
    usd: float
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0

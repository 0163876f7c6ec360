"""What the agents were given to do and what it cost: tasks (:class:`Tasks`), scheduled work and its runs
(:class:`Automations`), tokens per model call (:class:`Usage`) and the Overview's charts (:class:`Charts`)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Iterator
from typing import Any

from daycare_gui.stores.api.conversations import Conversations
from daycare_gui.stores.api.kinds import Capability, EditableField, WriteRefused
from daycare_gui.stores.records import (
    Automation,
    DayCount,
    Run,
    SessionRef,
    StoredCost,
    TaskItem,
    UsageRecord,
)


class Tasks(Capability):
    @abstractmethod
    def tasks(self) -> list[TaskItem]: ...

    def editable(self, task: TaskItem) -> tuple[EditableField, ...]:
        """Fields of ``task`` the user may change (names are keys of ``update``'s ``changes``)."""
        return ()

    def form_values(self, task: TaskItem) -> dict[str, Any]:
        """What the edit form shows in each editable field (None: no value; the field's default is shown):
        by default the listed title, schedule, timezone, enabled and body, else the raw value. A kind whose
        raw values a form would show wrongly (Python's ``nan`` for a file's ``NaN``) gives its own; the form
        writes a field only if the user changes what it showed."""
        listed = {"title": task.title, "schedule": task.schedule, "timezone": task.timezone,
                  "enabled": task.enabled, "body": task.body}
        raw = task.raw if isinstance(task.raw, dict) else {}
        return {f.name: listed.get(f.name, raw.get(f.name)) for f in self.editable(task)}

    def update(self, task: TaskItem, changes: dict[str, Any], *, force: bool = False) -> TaskItem:
        """Write ``changes`` if the task still is as ``task`` says (else WriteConflict); atomic, backed up."""
        raise WriteRefused("these tasks cannot be edited")

    def count(self) -> int | None:
        return len(self.tasks())

    def count_of(self, group: str) -> int | None:
        """How many tasks one group (a ``schedule_kind`` of :meth:`groups`) holds, for the navigation. By
        default every task is listed to count them; a kind with a cheaper way (a count query) says so."""
        return sum(1 for t in self.tasks() if t.schedule_kind == group)

    # -- groups, copies, new and delete (issue #33): every default leaves a kind as it was ------------------
    # Who reads the tasks, for the "<reader> reads" column beside a task's copies ("Daycare reads").
    reader = "The system"

    def groups(self) -> tuple[tuple[str, str], ...]:
        """``(schedule_kind, title)`` of each group the list is shown in ("cron", "Cron tasks"), in order;
        () = one list. A group may be empty: it still says where new tasks of that kind go."""
        return ()

    def create_fields(self, kind: str) -> tuple[EditableField, ...]:
        """What New… asks for a task of group ``kind``; () = new tasks cannot be made here."""
        return ()

    def create_warning(self, kind: str) -> str | None:
        """Why a new task of group ``kind`` would not run (the system reads its tasks elsewhere), said
        before anything is typed; None when it would."""
        return None

    def create(self, kind: str, values: dict[str, Any], *, force: bool = False) -> TaskItem:
        """Make a task of group ``kind`` from ``values``; never replaces one (WriteConflict). Refused while
        the system runs, or where it would ignore the new task (the refusal says so), unless ``force``."""
        raise WriteRefused("new tasks cannot be made here")

    def delete_reason(self, task: TaskItem) -> str | None:
        """Why ``task`` cannot be deleted here, or None when it can."""
        return "these tasks cannot be deleted here"

    def delete_note(self, task: TaskItem) -> str:
        """What a delete moves where, and what stays, for the question before it."""
        return ""

    def delete(self, task: TaskItem, *, force: bool = False) -> str:
        """Move the task to the store's trash; returns the key of its :class:`Trash` item (a kind that
        deletes tasks offers Trash: the deleted task is listed and restored there, with the store's other
        deleted items). Refused while the system runs unless ``force``; WritePartial when part of it could
        not be removed."""
        raise WriteRefused(self.delete_reason(task) or "these tasks cannot be deleted here")


class Automations(Capability):
    """Scheduled work and its runs: what ran when, how it ended, and the records it left.

    ``automations()`` is cheap (the tasks and triggers, no runs); ``runs`` reconstructs one automation's
    runs, newest first, and may be slow (the window calls it on its worker). Never invent a run: an
    automation whose runs cannot be told apart says so (``Automation.runs_told``/``why``) and lists none.
    Health (success rate, a task that stopped firing, a run stuck "running") is worked out by shared code
    from the runs and the task's schedule, the same way for every kind.
    """

    @abstractmethod
    def automations(self) -> list[Automation]: ...

    @abstractmethod
    def runs(self, automation_id: str, *, since: int | None = None, limit: int | None = None) -> list[Run]:
        """Runs of one automation started at or after ``since`` (ms), newest first, at most ``limit``."""

    def fingerprint(self) -> object | None:
        """What any write to the records runs are told from changes (compared, never read): the window keeps
        the runs it reconstructed while it stays the same (``stores.common.run_cache``). None: not known,
        the runs are read again each time."""
        return None

    def run_sessions(self) -> frozenset[SessionRef]:
        """Sessions that hold only scheduled runs, so the conversations list can hide them ("hide
        scheduled runs"). Empty: the kind cannot tell them apart from conversations."""
        return frozenset()

    # True when ``run_sessions`` names every session of each thread it names (Daycare: a task's own agent
    # holds nothing but its runs). The threads holding only runs are then known without reading each
    # thread's sessions (one query per thread, each counting its records: a third of a second on the
    # 1M-record demo, before its agent list could be shown).
    runs_fill_their_threads = False

    def run_only_threads(self, conversations: Conversations,
                         runs: frozenset[SessionRef] | None = None) -> frozenset[str]:
        """Threads every session of which holds only scheduled runs (``run_sessions``, or ``runs`` when
        already read): what "Hide scheduled runs" takes out of a thread list. A thread that also holds a
        conversation stays (its run sessions are hidden from its session list instead)."""
        by_thread: dict[str, set[str]] = {}
        for ref in self.run_sessions() if runs is None else runs:
            by_thread.setdefault(ref.thread_id, set()).add(ref.session_id)
        if self.runs_fill_their_threads:
            return frozenset(by_thread)
        out = set()
        for thread, sessions_run in by_thread.items():
            sessions = {s.ref.session_id for s in conversations.sessions(thread)}
            if sessions and sessions <= sessions_run:
                out.add(thread)
        return frozenset(out)

    def count(self) -> int | None:
        return len(self.automations())


class Usage(Capability):
    """Tokens per model call, streamed (a store's whole history is never held in memory), for the costs
    page and ``daycare-gui costs``; shared code prices and totals them (``stores/common/costs``).

    ``source`` says in a sentence which records the usage comes from and what was left out so nothing is
    counted twice (Daycare SQLite's per-agent totals beside its per-record tokens).
    """

    source: str = ""
    # What the store's own cost figure (``stored_costs``) covers and misses, for the side-by-side.
    stored_cost_note: str = ""

    @abstractmethod
    def records(self, since: int | None = None) -> Iterator[UsageRecord]:
        """Every usage record at or after ``since`` (ms), each model call once; a call whose stored counts
        cannot be read is given too, with its ``problem`` (never left out: Costs counts it apart)."""

    def stored_costs(self) -> list[StoredCost]:
        """The cost the store keeps itself per day and model; empty where it keeps none."""
        return []

    def user_names(self) -> dict[str, str]:
        """User id → what to call them (a name, else @nametag), for the totals by user; empty where the store
        names no one (the id is shown)."""
        return {}

    def records_of(self, keys: Iterable[str]) -> Iterator[UsageRecord]:
        """The records with these keys (a total's drill-down), in the store's order. Default: every record
        read and the others skipped; a kind that can look its records up by key does so."""
        wanted = set(keys)
        return (r for r in self.records() if r.key in wanted)

    def rows(self, since: int | None = None) -> Iterator[tuple] | None:
        """The same records as ``records`` as plain tuples, for totals over hundreds of thousands of calls
        (no record object built per call): ``(key, at, provider, model, input, output, cache_read,
        cache_write_5m, cache_write_1h, thread_id, session_id, thread_title, user, task, estimated, problem)``.
        None: the kind has no faster way than ``records``."""
        return None


class Charts(Capability):
    # What activity_per_day counts, in the Overview's words: its chart is titled "Activity: <what> per
    # day", says ``activity_none`` when there is nothing, and counts in ``activity_unit``s. The default
    # fits a conversation history; a kind that counts something else says what.
    activity_what = "conversation records"
    activity_none = "No conversation history yet."
    activity_unit = "record"

    def activity_per_day(self) -> list[DayCount]:
        """Messages (or records) per day; ``series`` may split by kind."""
        return []

    def tokens_per_day(self) -> list[DayCount]:
        """Tokens per day; ``series`` is the model."""
        return []

    def unreadable_token_calls(self) -> int:
        """How many model calls ``tokens_per_day`` left out because their stored token counts cannot be
        read (another tool's text, a list: Costs counts them apart and says why). Asked after
        ``tokens_per_day``; a kind may count them in the same pass. The default: none (counts kept typed)."""
        return 0

    def cost_per_day(self) -> list[DayCount]:
        """What the tokens cost per day (the system's own figure, e.g. USD); ``series`` is the model."""
        return []

    def tokens_by_model(self) -> list[tuple[str, float]]:
        """Tokens per model over the store's whole life, largest first, for a store that keeps totals but
        no days (an older Daycare's per-agent stats): the Overview lists them when ``tokens_per_day`` is
        empty. The default: none."""
        return []

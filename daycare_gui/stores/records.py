"""Neutral records: what any store kind hands the shared panes, the CLI and the search index.

A kind turns its own rows, lines and payloads into these; shared code never asks which kind made them.
Every record keeps ``raw`` (the value as stored, secrets already masked by the kind) so the raw view is
one click away, and ``problem`` when part of it could not be read (the record is still shown).
Times are milliseconds since the epoch (UTC), or None when the store does not say.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from daycare_gui.stores.deferred_dataclass import deferred

# Roles the conversation view knows how to draw; a kind may use others (drawn as "other").
ROLES = ("user", "assistant", "tool", "system", "note", "event")


@deferred
class ToolCallRecord:
    id: str
    name: str
    arguments: Any = None


@deferred
class ToolResultRecord:
    call_id: str  # pairs this result with the ToolCallRecord of the same id
    name: str = ""
    text: str = ""
    is_error: bool = False


@deferred
class Message:
    """One entry of a conversation: a message, a tool result, a marker or a kind's own record."""

    id: str  # stable within its session; used by raw views, search hits and deep links
    role: str  # one of ROLES, or a kind's own word
    text: str = ""  # Markdown
    at: int | None = None
    kind: str = ""  # the kind's own record type ("user_message", "observation", "AIMessage", ...)
    author: str = ""  # who sent it, when the store says (Linggen's sender)
    recipient: str = ""
    tool_calls: tuple[ToolCallRecord, ...] = ()
    tool_result: ToolResultRecord | None = None
    attachments: tuple[str, ...] = ()  # names of attached files
    meta: tuple[tuple[str, str], ...] = ()  # extra labelled facts for the detail pane
    raw: Any = None
    problem: str | None = None
    # The id of the tool call whose run this message is a step of (code the call ran, and the tools that
    # code called in turn): the conversation view draws the steps inside that call, folded. "" for none.
    part_of: str = ""
    # The model that wrote the message and the tokens its turn took (in and out), where the store says:
    # shown in the message's heading. "" / None when the store does not say.
    model: str = ""
    tokens: int | None = None
    # This message rewrites an earlier one of the same session, named by that one's time (ms): Daycare's
    # ``assistant_rewrite`` names the message it replaces only by its ``at``. The view shows the two
    # together. None for a message that rewrites nothing.
    rewrites_at: int | None = None

    def summary(self, limit: int = 160) -> str:
        """One line for lists, tooltips and search results."""
        text = self.text
        if self.tool_result is not None and not text:
            text = f"{self.tool_result.name or 'tool'}: {self.tool_result.text}"
        if self.tool_calls:
            text = (text + " " if text else "") + "→ " + ", ".join(c.name for c in self.tool_calls)
        line = " ".join(text.split())
        return line if len(line) <= limit else line[: limit - 1] + "…"


@deferred
class ThreadRecord:
    """Whatever owns sessions: a Daycare agent, a Linggen project, a CianaParrot chat."""

    id: str
    title: str
    subtitle: str = ""  # kind, owner, path: one short line
    updated_at: int | None = None
    session_count: int | None = None
    meta: tuple[tuple[str, str], ...] = ()
    raw: Any = None
    problem: str | None = None


@deferred
class SessionRef:
    thread_id: str
    session_id: str


@deferred
class SessionRecord:
    ref: SessionRef
    title: str
    started_at: int | None = None
    updated_at: int | None = None
    message_count: int | None = None
    status: str = ""  # "active", "ended", "error", ...
    meta: tuple[tuple[str, str], ...] = ()
    raw: Any = None
    problem: str | None = None
    # message_count is still being worked out (Conversations.sessions_now): shown as pending, never as 0
    count_pending: bool = False


@deferred
class DocRef:
    """A Markdown document (with or without frontmatter) that the shared editor can show and edit."""

    id: str
    title: str
    path: Path | None
    group: str = ""  # navigation group within the Documents section ("Agents", "Skills", ...)
    editable: bool = True
    frontmatter: bool = True
    readonly_reason: str = ""  # said in the editor when not editable
    # -- what the shared documents pane shows beside the text (#33); every kind may leave them empty --
    source: str = ""  # where the system reads it from ("config", "personal", a plugin): a column
    derived_from: str = ""  # the id of the document this is a copy of (an activation copy): read-only, never counted
    format: str = "markdown"  # "markdown", "json" or "text": how the pane shows it
    secret: bool = False  # its bytes are never shown: the pane shows ``Documents.outline(ref)`` instead
    flag: str = ""  # a short warning shown on the row ("not in INDEX.md": the system ignores it)
    thread_id: str = ""  # the thread (agent) it belongs to, for ``Documents.of_thread``
    meta: tuple[tuple[str, str], ...] = ()  # labelled facts for the detail pane (a skill's description)


@deferred
class DocVersion:
    """An earlier version the system keeps of a document (a skill's ``skills-history``), oldest first."""

    id: str
    title: str
    at: int | None = None
    note: str = ""  # what changed from it to the document as it is now ("+3 −1 lines")


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

    @property
    def ignored(self) -> bool:
        """Stored, but in no copy the system reads (a file left beside imported rows): it never runs."""
        return bool(self.copies) and not any(c.read for c in self.copies)


@deferred
class TableRef:
    name: str
    count: int | None = None
    hidden: bool = False  # shadow/internal tables (FTS5 shadows): counted in reports, not listed
    columns: tuple[str, ...] = ()  # its column names, where listing them is cheap (the table list shows them)


@deferred
class Collection:
    """A kind's own list (runs, missions, memory entries, checkpoints): shown by the shared list pane."""

    id: str
    title: str
    columns: tuple[str, ...]
    tree: bool = False  # rows carry ``parent`` keys and are shown as a tree
    group: str = ""  # navigation group; empty puts it at the top level
    icon: str = ""
    # Child collections shown as tabs under the selected row (a channel's members and messages): asked
    # with ``Query.parent`` = the selected row's key. Listed by ``collections()`` only as details, never
    # as sections of their own; see ``detail``.
    details: tuple[str, ...] = ()
    detail: bool = False  # a child list: shown under its parent's rows, not in the navigation
    # False: a short list read whole and shown with each row's text and links beside it (the users), even
    # where the kind's lists are keyed; True: keys only and rows on demand when the kind is a Listing.
    keyed: bool = True


@deferred
class Link:
    """Where following a row leads: ("session", SessionRef), ("row", (collection_id, key)), ("doc", DocRef)."""

    target: str
    value: Any
    label: str = ""


@deferred
class Row:
    key: str
    values: tuple[Any, ...]
    parent: str | None = None
    raw: Any = None
    markdown: str | None = None  # a longer text for the detail pane (a plan as a checklist, a diff)
    links: tuple[Link, ...] = ()
    flag: str = ""  # a short warning shown on the row ("stuck", "lost", "security")
    problem: str | None = None


@deferred
class DeletedItem:
    """Something deleted through this app and kept aside so it can be put back (a task, a skill, a row)."""

    key: str  # what restore() is given back
    title: str  # where it lived, as the person knows it
    deleted_at: str = ""  # ISO time
    what: str = ""  # what it was, in a word or two: "cron task", "skill", "file", "folder", a kind's word
    problem: str | None = None  # set when it is listed but can never be restored (and why)


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


# What a section of the window shows; the window picks the shared pane for each.
SECTION_SHOWS = ("overview", "conversations", "session", "search", "tasks", "documents", "files", "collection",
                 "automations", "costs", "storage", "actions", "problems")


@deferred
class Section:
    """A section of the window as a kind names and orders it: the id deep links and routes use, its title,
    and what it shows (one of ``SECTION_SHOWS``; the window picks the shared pane and skips a section whose
    capability the store does not offer). ``arg`` narrows it: a task group ("cron"), a documents shelf
    ``(section id, group)``, a collection id or a tuple of ids shown as tabs."""

    id: str
    title: str
    shows: str
    arg: Any = None
    icon: str = ""
    in_nav: bool = True  # False: reached only by following a link (one session on a page of its own)
    group: str = ""


@deferred
class FilterSpec:
    """A filter a list offers, done by the store: ``kind`` is "text" (words in the row), "choice" (one of
    ``choices``), "flag" (only rows whose ``Row.flag`` is ``name``: "stuck only") or "time" (since/until)."""

    name: str
    label: str
    kind: str = "text"
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)


@deferred
class Query:
    """What a keyed list is asked for: filtered and sorted by the store, never by the window."""

    text: str = ""
    choices: tuple[tuple[str, str], ...] = ()  # (filter name, chosen value)
    flags: frozenset[str] = frozenset()
    since: int | None = None  # ms since the epoch
    until: int | None = None
    parent: str | None = None  # a detail list's selected parent key (a channel's members)
    sort: str = ""  # one of the list's sorts(); "" = the list's own order
    descending: bool = False

    def choice(self, name: str) -> str | None:
        return dict(self.choices).get(name)


@dataclass(frozen=True, slots=True)  # slots: a large store lists tens of thousands
class JumpEntry:
    """One item the quick-open palette can find and a deep link can name: keys and short labels only.

    ``kind`` is the link's word ("agent", "session", "user", "task", "doc", "app", "table", "row"); ``key``
    the id (or path, table name) the link carries. ``ref`` is what the item's pane opens it with (plain
    data: an id, a :class:`SessionRef`, a kind's tuple). ``collection`` names the collection the item is a
    row of, when the shared collection pane shows it (a PostgreSQL store's users, say).
    """

    kind: str
    key: str
    label: str
    detail: str = ""  # one short line: owner, type, path
    ref: Any = None
    collection: str = ""


@deferred
class DayCount:
    day: str  # YYYY-MM-DD
    series: str  # model name, record kind, ... ("" for one series)
    value: float


@deferred
class KeptTarget:
    """A store a repeated command (``search``, ``inspect``) may answer from what its last run kept, because
    reading it live is dear (a PGlite copy and a Node process): ``StoreKind.kept_target``."""

    store: str  # the store's real path: what the kept answers are keyed by
    roots: tuple[Path, ...]  # the folders its answers come from, fingerprinted before a kept answer is used
    opened_as: dict  # the store's paths as this run spells them (another spelling is read live once)
    engine: Callable[[], dict]  # the system's engine now, as ``inspect`` reports it ({"running": …, "detail": …})
    # folders inside ``roots`` the open fingerprints on its own (a PGlite folder, before its copy): taken in
    # the same walk as the roots and handed over (tree_fingerprint.handed_over), not walked a second time
    fingerprinted_again: tuple[Path, ...] = ()


@deferred
class StoreSummary:
    """What the overview, the status bar and ``inspect`` say about an opened store."""

    kind: str
    generation: str  # the kind's own word for the storage layout ("sqlite", "flat", "checkpoints-v2")
    title: str  # the path or URL, secrets masked
    engine_running: bool = False
    engine_detail: str = ""
    open_mode: str = ""  # how it was opened ("immutable", "snapshot copy", "read-only transaction")
    notes: tuple[str, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()  # labelled lines for the overview
    extra: dict = field(default_factory=dict, compare=False)


@deferred
class SearchDocument:
    """A document the shared search index holds beside the messages: ``key`` opens it where the store's
    quick open (``Directory``, kind "doc") or its Documents section lists it; ``where`` says where it lives
    in words ("config skill · skills/deploy/SKILL.md"); ``text`` is what is searched (secrets are masked by
    the index, and a settings file gives its keys, never its values)."""

    key: str
    title: str
    group: str  # "Skills", "Memory", "Agents' prompt files", "Settings", ...
    where: str
    text: str
    at: int | None = None  # when it last changed (ms), where known


@deferred
class SqliteFeed:
    """How a store kept in SQLite hands its messages to the search index inside SQLite (no row is decoded in
    Python): the index attaches ``uri`` (read-only: writing through it fails) as ``feed`` and runs
    ``rows_sql`` with ``:after`` and ``:last`` (integer cursors) for each batch. ``rows_sql`` selects, in cursor
    order, ``cursor, thread_id, session_id, message_id, role, kind, at, body`` from ``feed.`` tables;
    ``next_sql`` gives the cursor of the ``:n``-th message after ``:after`` (the end of a batch), or the
    last one. ``guarded_sql``, when given, is ``rows_sql`` made safe for a malformed row (slower: tried for
    a batch the fast one failed on)."""

    uri: str
    rows_sql: str
    next_sql: str
    guarded_sql: str = ""


# -- files beside a store (the Files capability, #33) ----------------------------------------------


@deferred
class FileRoot:
    """A folder the window may browse (a user's home, a workspace); nothing outside it is ever read."""

    id: str
    title: str
    owner: str = ""  # whose it is, in words ("Alex Rivera")
    path: Path | None = None
    note: str = ""  # one line shown when it is selected


@deferred
class FileEntry:
    """One name in a folder of a root; ``rel`` is its path from the root, with "/" between names."""

    name: str
    rel: str
    is_dir: bool
    size: int | None = None
    mtime: float | None = None  # seconds since the epoch
    opens_as: str | None = None  # a path the window can open as a store of its own (a user's database)
    link: str = ""  # set for a link: "inside" (followed) or why it is not followed ("leads out of the folder")
    note: str = ""  # "knowledge file: agents read it"
    problem: str | None = None  # a line that is no entry: why the folder could not be listed whole


@deferred
class FilePreview:
    """What a file holds, bounded: ``format`` is "markdown", "text", "binary" or "none" (not shown)."""

    rel: str
    format: str
    text: str = ""
    size: int | None = None
    cut: bool = False  # only part was read (its head, or its end when asked for the tail)
    note: str = ""  # why nothing is shown, or what was left out


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
class PendingMessage:
    """One message of a keyed page (see ``api.KeyedPages``): its ``key`` now, the :class:`Message` when
    asked (``message()``), decoded once.

    A list shows a few dozen rows of a 200-row page, and decoding a stored record (JSON, then the neutral
    message) costs ten times reading it; the worker that reads pages would hold the interpreter lock while
    it decoded, and the GUI thread painting meanwhile would wait. So a kind may hand undecoded rows (a
    ``decode`` function and its ``data``), and the view decodes only the rows it shows. A kind whose
    messages cost more to make than what a list row shows may also give ``line``: from ``data``, something
    with a Message's ``id``, ``role``, ``kind``, ``at``, ``problem`` and ``summary(limit)`` (what the list
    paints); ``line()`` answers with it, or with the message."""

    __slots__ = ("key", "_decode", "_data", "_message", "_liner", "_line")

    def __init__(self, key: int, message: Message | None = None, *, decode=None, data=None, line=None) -> None:
        self.key = key  # an int, ascending within the session (a row id, a line number, a position)
        self._message = message
        self._decode = decode
        self._data = data
        self._liner = line
        self._line = None

    def message(self) -> Message:
        found = self._message
        if found is None:
            found = self._message = self._decode(self._data)
            self._decode = self._data = self._liner = self._line = None  # the stored row is not kept twice
        return found

    def line(self):
        """What a list row shows of the message (the message itself unless the kind gave ``line``)."""
        found = self._message or self._line
        if found is None:
            found = self._line = self._liner(self._data) if self._liner is not None else self.message()
        return found

    @property
    def decoded(self) -> bool:
        return self._message is not None or self._line is not None

    def __repr__(self) -> str:
        return f"PendingMessage({self.key!r}, decoded={self.decoded})"




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

"""The contract every store kind fills in, and that shared code (panes, CLI, search) relies on.

A *kind* (Daycare, Linggen, AgentStack, CianaParrot, or one from another package) is a
:class:`StoreKind`: it *probes* a path (is this mine, how sure, why) and *opens* it read-only, returning
an :class:`OpenedStore`. The opened store offers *capabilities* — conversations, documents, tasks, tables,
collections, charts, a search source, actions — each a small class below. Shared code asks
``store.capability(Conversations)`` and never which kind it has; a section of the window appears only
when the store offers its capability.

Everything here is synchronous and may be slow: the window always calls it on a worker thread. Nothing
here imports Qt. Methods never raise on bad data: they return records with ``problem`` set, or add to
``store.problems``. Only ``StoreKind.open`` raises (:class:`NotRecognised`) when the path is not its own.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import (
    Automation,
    Collection,
    DayCount,
    DeletedItem,
    DocRef,
    DocVersion,
    FileEntry,
    FilePreview,
    FileRoot,
    FilterSpec,
    JumpEntry,
    KeptTarget,
    Message,
    MigrationLine,
    PendingMessage,
    PruneDone,
    PrunePreview,
    Query,
    Row,
    Run,
    SearchDocument,
    Section,
    SessionRecord,
    SessionRef,
    SpaceReport,
    SqliteFeed,
    StoredCost,
    StoreSummary,
    TableRef,
    TaskItem,
    ThreadRecord,
    UpgradePlan,
    UpgradeResult,
    UsageRecord,
)

StorePath = str | os.PathLike


class NotRecognised(Exception):
    """The path is not a store of this kind (or of any kind, when raised by the registry)."""


class CannotOpen(Exception):
    """The path is a store of this kind, but it cannot be opened now (a server refuses the connection,
    PGlite cannot run here); the message says why in a sentence, with secrets masked."""


class WriteRefused(Exception):
    """A write was refused before anything changed: the system's engine or bot runs (retry with
    ``force=True`` after the user insists), the value is invalid, or the store cannot be written."""


class WriteConflict(Exception):
    """What was edited changed in the store since it was read; nothing was written."""


class WritePartial(Exception):
    """A write stopped half-way and said so: part of it happened (a delete copied the whole item into the
    trash but could not remove all of the original). The message says what is where; ``token`` restores."""

    def __init__(self, message: str, token: str = "") -> None:
        super().__init__(message)
        self.token = token


@dataclass(frozen=True)
class EditableField:
    """A field the shared form can edit: ``kind`` is "text", "markdown", "bool", "choice", "int", "list",
    "schedule" (a cron expression, said in words as it is typed) or "rules" (see :class:`DocumentForm`)."""

    name: str
    label: str
    kind: str = "text"
    choices: tuple[str, ...] = ()
    help: str = ""
    # What the system assumes when the item holds no value (a task without "active" runs): the form shows
    # it, and writes it only if the user changes the field.
    default: Any = None
    # The item may lack the field: the file editor's form shows "(not set)" and leaving it empty adds nothing.
    optional: bool = False


@dataclass(frozen=True)
class Candidate:
    """A kind's answer to "is PATH yours?". ``confidence`` 0 means no; 1 means certain."""

    kind: str
    confidence: float
    reason: str  # why, or why not: shown when no kind recognises a path

    @property
    def recognised(self) -> bool:
        return self.confidence > 0


class Capability:
    """Base of every capability. ``count`` is what the navigation shows beside the section (None: unknown)."""

    def count(self) -> int | None:
        return None


C = TypeVar("C", bound=Capability)


class OpenedStore(ABC):
    """A store opened read-only. Subclasses register capabilities in ``self._caps``."""

    kind: str = ""

    def __init__(self, title: str, problems: ProblemLog | None = None) -> None:
        self.title = title  # path or URL with secrets masked
        self.problems = problems if problems is not None else ProblemLog()
        self._caps: dict[type, Capability] = {}

    @abstractmethod
    def summary(self) -> StoreSummary: ...

    def capability(self, cap: type[C]) -> C | None:
        found = self._caps.get(cap)
        if found is None:  # a subclass of the asked capability also answers
            found = next((c for t, c in self._caps.items() if issubclass(t, cap)), None)
        return found  # type: ignore[return-value]

    def offer(self, cap: type[C], impl: C) -> None:
        self._caps[cap] = impl

    def counts(self) -> dict[str, int]:
        """Exact counts for ``inspect`` (tables by name, collections as ``<name>``)."""
        return {}

    def report(self, **options) -> dict:
        """Kind-specific keys for ``inspect --json`` (beside kind, generation, counts, problems).
        ``options`` come from the command line (``home_skills``); a kind ignores those it lacks."""
        return {}

    def writes_blocked(self) -> str | None:
        """Why writing now is unsafe (the system's engine or bot runs), or None."""
        return None

    def engine_state(self) -> tuple[str, str]:
        """What the status bar says of the system's own engine or bot: ``(state, why)``, the state one of
        ``"running"`` (seen running), ``"maybe"`` (not seen, but writes ask first: a kind that cannot see
        every sign says so), ``"stopped"`` (a kind that can tell for sure saw it is not running) or ``""``
        (nothing seen). Asked when the status bar is drawn: keep it cheap.
        By default, whatever blocks writes is a running engine."""
        blocked = self.writes_blocked()
        return ("running", blocked) if blocked else ("", "")

    def watch_paths(self) -> tuple[Path, ...]:
        """Files and folders whose change means the view is stale."""
        return ()

    def sections(self) -> tuple[Section, ...] | None:
        """The window's sections as this kind names and orders them (ids its deep links have always used);
        None, the default: one section per capability offered, in the shared order."""
        return None

    def route(self, entry: JumpEntry) -> tuple[str, Any] | None:
        """Where a quick-open entry or a deep link opens, among :meth:`sections`: (section id, the target
        its pane opens). None: the shared routes (by the entry's kind)."""
        return None

    def follow_live(self) -> None:  # noqa: B027 (optional hook)
        """Its files changed on disk: make the next reads see what was written (a database opened
        immutable because its WAL was empty switches to a live open). Cheap; called on the GUI thread."""

    def interrupt(self) -> None:  # noqa: B027 (optional hook)
        """The window closes the store: stop what runs now (cancel a running query) so the workers come
        free at once. Called on the GUI thread before ``close`` runs on a thread of its own: never wait."""

    def scan(self, progress=None, cancelled=None) -> None:  # noqa: B027 (optional: most kinds find all at open)
        """Optional deep pass (every file read once) that adds what it finds to ``problems``; the
        Problems page runs it on its worker before listing. ``progress(done, total, what)`` and
        ``cancelled()`` may be None. The default finds nothing more than opening did."""

    def close(self) -> None:  # noqa: B027 (optional hook: a store holding nothing has nothing to close)
        """Release handles and delete any private copy. Safe to call twice."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class StoreKind(ABC):
    """One agent system's storage. A kind's package exposes one instance as ``KIND``."""

    name: str = ""  # "daycare", "linggen", ...: used by --kind and inspect's "kind"
    title: str = ""  # "Daycare"
    # Optional: modules the probe and the open import lazily. A kind's own module stays light (every kind
    # is imported to probe each path); the window imports these on its GUI thread before a worker probes
    # or opens, because a worker must never be the first to import a module.
    probe_modules: tuple[str, ...] = ()
    open_modules: tuple[str, ...] = ()
    # Optional: modules the opened store's capabilities import lazily on the worker (file readers, count
    # queries). The window imports them on its GUI thread in idle moments after the first page is shown,
    # and holds its background worker until then, for the reason above.
    idle_modules: tuple[str, ...] = ()

    def open_modules_for(self, path: StorePath) -> tuple[str, ...]:
        """Optional: what opening this very PATH imports beyond ``open_modules`` (the readers of one
        generation only). Asked on the window's worker after ``open_modules`` are imported, so it reads
        a little (never imports); the window imports the answer on its GUI thread before the open."""
        return ()

    def default_location(self) -> Path | None:
        """Where the system keeps its store when nothing says otherwise (``~/.daycare``): the window
        opens it at a first start when it exists. None: the kind has no such place."""
        return None

    @abstractmethod
    def probe(self, path: StorePath) -> Candidate:
        """Cheap (a few stats and small reads), never raises, never writes."""

    def kept_target(self, path: StorePath) -> KeptTarget | None:
        """Optional: when ``path`` names a store this kind reads dearly (a copy, a process), what a repeated
        ``search`` or ``inspect`` needs to answer from what its last run kept (:mod:`commands.repeat`). Cheap
        (paths and stats, no content), never raises. None (the default): always read live."""
        return None

    @abstractmethod
    def open(self, path: StorePath, *, live: bool = True) -> OpenedStore:
        """Open read-only. ``live=False`` asks for a private snapshot (inspect). Raises NotRecognised."""

    def head_start(self, path: StorePath) -> bool:
        """Optional: the window is about to start on ``path``: begin what makes opening it slow (a private
        copy, a process) in the background, for ``open`` to take; True when it did (``path`` is this kind's).
        Never raises, never blocks. The default: nothing to begin."""
        return False

    def upgrader(self, path: StorePath) -> Upgrader | None:
        """Optional: the kind's upgrade of the store at ``path`` in place (Daycare's migrations), for
        ``daycare-gui upgrade``. Asked of a path that may not open (a newer database, only files to import);
        raises NotRecognised, in one sentence, when it is not a store of this kind needing an upgrade; never
        writes. None (the default): the kind has no upgrade."""
        return None

    def file_editor(self, path: StorePath) -> FileEditor | None:
        """Optional: the kind's edit of the file at ``path`` by its name and format (Daycare's TASK.md,
        PERMISSIONS.md, an app's state.json, settings.json), for ``daycare-gui edit`` — also of a file in
        no store. Cheap (the name, a few stats), never raises, never writes. None (the default): the kind
        edits no file this way (its store's ``Documents`` are edited through ``Documents.save``)."""
        return None


class FileEditor(ABC):
    """One file's edit, from :meth:`StoreKind.file_editor`: what its new bytes are and what stands in the
    way. The command reads the file, shows the diff and writes it (atomically, conflict-checked)."""

    def folders(self) -> list[Path] | None:
        """The folders a write must stay in (a link out of the store is refused); None: a loose file."""
        return None

    @abstractmethod
    def apply(self, data: bytes, assignments: list[tuple[str, Any]], body: str | None) -> bytes:
        """The file's bytes after ``--set KEY=VALUE`` (values parsed as YAML) and a new body; raises
        ``stores.common.edit.errors.DocumentError`` or ``InvalidValue`` to refuse."""

    def warning(self) -> str | None:
        """Why the system would not read the change (written only with ``--force``), or None."""
        return None

    def blocked(self) -> str | None:
        """Why writing now is risky (the system's engine runs on the file's store), or None."""
        return None

    def mask_diff(self, text: str) -> str:
        """The diff as it may be printed (a settings file's secrets masked)."""
        return text

    def backup(self, current: bytes) -> Path | None:
        """Keep ``current`` (the file's bytes about to be replaced) where the kind keeps backups; the copy's
        path, or None for a file of no store. Raises ``WriteRefused`` when it cannot: nothing is written."""
        return None


@dataclass(frozen=True)
class UpgradeReport:
    """What an upgrade (or its dry run) says, line by line, and how it ended."""

    lines: tuple[str, ...]
    refused: bool = False  # nothing was written, and nothing would be (exit 2)
    failed: bool = False  # a step failed; the store is as it was (exit 1)


class Upgrader(ABC):
    """One store's upgrade, from :meth:`StoreKind.upgrader`: planned first, then run."""

    @abstractmethod
    def heading(self) -> list[str]:
        """The lines printed before the plan or the result (what is upgraded, where)."""

    @abstractmethod
    def plan(self) -> UpgradeReport:
        """The dry run: what would be done; writes nothing."""

    @abstractmethod
    def run(self, *, backup: bool, progress: Callable[[int, int, str], None] | None = None) -> UpgradeReport:
        """Upgrade (a backup first unless ``backup`` is False); ``progress(done, total, step)`` per step."""


# -- capabilities ------------------------------------------------------------------------------------


class Listing:
    """Keys only, rows on demand: a list the store filters and sorts itself (in SQL where it has SQL).

    A mixin for :class:`Collections` (``list_id`` = a collection's id) and :class:`Conversations`
    (``list_id`` = ``"threads"``). The window asks ``keys(list_id, query)`` on its worker — an ordered list
    of narrow keys, cheap even for 100,000 rows — then ``fetch`` for the rows it shows. The defaults answer
    from ``list_rows`` (every row, filtered here), so a kind with small lists offers nothing more; a kind
    with big ones overrides ``keys``/``fetch`` with its own queries.
    """

    def filters(self, list_id: str) -> tuple[FilterSpec, ...]:
        """The filters the list offers, beyond the words in ``Query.text`` (always offered)."""
        return ()

    def sorts(self, list_id: str) -> tuple[str, ...]:
        """Column titles the store can sort by ("" not among them: the list's own order)."""
        return ()

    def list_columns(self, list_id: str) -> tuple[str, ...]:
        """The column titles of the list's rows (for the default sort); a collection's own columns."""
        for c in getattr(self, "collections", lambda: [])():
            if c.id == list_id:
                return c.columns
        return ()

    def list_rows(self, list_id: str) -> list[Row]:
        """Every row of the list, for the defaults below. Kinds overriding keys/fetch need not fill it."""
        return []

    def totals(self, list_id: str, query: Query) -> dict[str, int]:
        """Labelled totals for the line above the list ("stuck": 3); the default counts flags."""
        out: dict[str, int] = {}
        for row in self.list_rows(list_id):
            if row.flag:
                out[row.flag] = out.get(row.flag, 0) + 1
        return out

    def keys(self, list_id: str, query: Query) -> list[str]:
        rows = [r for r in self.list_rows(list_id) if _row_matches(r, query)]
        if query.sort:
            index = _sort_index(self, list_id, query.sort)
            if index is not None:
                rows.sort(key=lambda r: _sort_value(r.values[index] if index < len(r.values) else None),
                          reverse=query.descending)
        elif query.descending:
            rows.reverse()
        return [r.key for r in rows]

    def fetch(self, list_id: str, keys: list[str]) -> list[Row]:
        """The rows of ``keys``, in that order; a key gone meanwhile is left out."""
        wanted = set(keys)
        by_key = {r.key: r for r in self.list_rows(list_id) if r.key in wanted}
        return [by_key[k] for k in keys if k in by_key]


def _row_matches(row: Row, query: Query) -> bool:
    if query.flags and row.flag not in query.flags:
        return False
    if query.parent is not None and row.parent != query.parent:
        return False
    if query.text:
        words = query.text.casefold().split()
        hay = " ".join("" if v is None else str(v) for v in row.values).casefold()
        if not all(w in hay for w in words):
            return False
    return True


def _sort_index(listing: Listing, list_id: str, sort: str) -> int | None:
    columns = listing.list_columns(list_id)
    return columns.index(sort) if sort in columns else None


def _sort_value(value: Any) -> tuple:
    # None last, numbers before text, text without case: a sort never raises on mixed columns.
    if value is None:
        return (2, 0, "")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, value, "")
    return (1, 0, str(value).casefold())


class KeyedPages:
    """One session's messages by *key*: what the conversation view pages with, so that a jump to the end of a
    100,000-message session reads one page, never an OFFSET over the session.

    A key is an int that ascends within the session (a row id, a line number): pages are read after or
    before a key, the view loads the session's keys in chunks to place any row, and it follows a live writer
    from its last key. Pages hold :class:`PendingMessage` items, which a kind may leave undecoded until the
    view paints them. A mixin of :class:`Conversations`; the defaults wrap the positional ``messages()``
    with each message's position as its key, so a kind offering only positions pages unchanged.
    """

    def page_after(self, ref: SessionRef, key: int | None, n: int) -> list[PendingMessage]:
        """The first ``n`` messages whose key is above ``key`` (None: from the start), in order."""
        start = 0 if key is None else max(0, int(key) + 1)
        return _positioned(self.messages(ref, start, n), start)

    def page_before(self, ref: SessionRef, key: int | None, n: int) -> list[PendingMessage]:
        """The last ``n`` messages whose key is below ``key`` (None: the session's last ``n``), in order."""
        stop = self.message_count(ref) if key is None else max(0, int(key))
        start = max(0, stop - max(0, n))
        return _positioned(self.messages(ref, start, stop - start), start)

    def page_at(self, ref: SessionRef, start: int, n: int) -> list[PendingMessage]:
        """``n`` messages from position ``start``: a jump before the keys are known (may be slower)."""
        start = max(0, int(start))
        return _positioned(self.messages(ref, start, n), start)

    def key_chunk(self, ref: SessionRef, after: int | None, n: int) -> list[int]:
        """The next ``n`` keys above ``after`` (None: the first ones), cheap: no message is read."""
        start = 0 if after is None else int(after) + 1
        return list(range(start, min(self.message_count(ref), start + max(0, n))))

    def tail(self, ref: SessionRef, after: int | None = None) -> tuple[int, int | None]:
        """How many messages have a key above ``after`` (None: all), and the last one's key (None: none)."""
        total = self.message_count(ref)
        start = 0 if after is None else int(after) + 1
        return max(0, total - start), (total - 1 if total > start else None)

    def growth(self, ref: SessionRef, after: int | None, n: int) -> tuple[int, int | None, list[PendingMessage]]:
        """What a live writer appended after ``after``: (how many, the last key, the newest ``n`` of them in
        order), the page read up to that last key so it agrees with the count."""
        added, last = self.tail(ref, after)
        if not added or last is None:
            return 0, after, []
        return added, last, self.page_before(ref, last + 1, min(max(0, n), added))

    def locate(self, ref: SessionRef, message_id: str, hint: int | None = None) -> int | None:
        """The position of the message ``message_id`` in the session, or None when it is not there (any
        more). ``hint`` is where the caller saw it; the default looks there first, then page by page from
        the end (where a recent one most likely is)."""
        total, page = self.message_count(ref), 100
        starts = [max(0, hint - page // 2)] if hint is not None and 0 <= hint < total else []
        starts += range(max(0, total - page), -page, -page)
        seen: set[int] = set()
        for start in starts:
            start = max(0, start)
            if start in seen:
                continue
            seen.add(start)
            for offset, message in enumerate(self.messages(ref, start, page)):
                if message.id == message_id:
                    return start + offset
        return None

    def raw(self, ref: SessionRef, key: int) -> Any:
        """The message of ``key`` as stored, whole (what a page may leave out, a VM snapshot), for the raw
        view; None when it is gone."""
        found = self.page_after(ref, int(key) - 1, 1)
        if not found or found[0].key != key:
            return None
        return found[0].message().raw

    def session_heading(self, ref: SessionRef) -> tuple[str, SessionRecord | None]:
        """The title of the session's thread and the session's record, for the line above its messages
        (None: no such session). The default looks through ``threads()``; kinds override it with a read
        of one row each."""
        title = next((t.title for t in self.threads() if t.id == ref.thread_id), ref.thread_id)
        return title, next((s for s in self.sessions(ref.thread_id) if s.ref == ref), None)

    def follows_writes(self) -> bool:
        """Whether a change on disk shows in what these pages read (False for a private snapshot copy: the
        view then leaves the change to the window's Reload banner)."""
        return True


def _positioned(messages: list[Message], start: int) -> list[PendingMessage]:
    return [PendingMessage(start + i, m) for i, m in enumerate(messages)]


THREADS = "threads"  # the list_id of a Conversations' thread list (Listing)
THREAD_COLUMNS = ("Name", "About", "Sessions", "Updated")


def thread_row(thread: ThreadRecord) -> Row:
    """A thread as a row of the default thread list (``THREAD_COLUMNS``). A time is a UTC ``datetime``, so
    the window says it as a time and the default sort orders it."""
    return Row(thread.id, (thread.title, thread.subtitle, thread.session_count, when_utc(thread.updated_at)),
               raw=thread.raw, problem=thread.problem)


def when_utc(ms: int | None):
    """Milliseconds since the epoch as a UTC ``datetime`` for a row's cell (None stays None)."""
    import datetime as _dt

    if ms is None or isinstance(ms, bool):
        return None
    try:
        return _dt.datetime.fromtimestamp(int(ms) / 1000, _dt.timezone.utc)
    except (OverflowError, OSError, ValueError, TypeError):
        return None


class Conversations(Listing, KeyedPages, Capability):
    """Threads (agents, projects, chats) → sessions → messages, paged by position.

    The thread list is a :class:`Listing` with ``list_id`` ``"threads"``: by default its rows come from
    ``threads()`` with ``thread_columns()`` as titles, filtered and sorted here; a kind with many threads
    answers ``keys``/``fetch`` with its own queries, and offers its filters and sorts."""

    thread_label = "Agents"
    session_label = "Sessions"
    # False when the system keeps no state per session (SessionRecord.status is always ""): the shared
    # list then shows no Status column rather than one that is always empty.
    has_session_status = True

    @abstractmethod
    def threads(self) -> list[ThreadRecord]: ...

    def thread_place(self, thread: ThreadRecord) -> str:
        """What tells the thread apart after its title where search results head its group in plain text
        (the search command): its id. A kind whose ids are keys no person reads says where it is instead."""
        return thread.id

    @abstractmethod
    def sessions(self, thread_id: str) -> list[SessionRecord]: ...

    def sessions_now(self, thread_id: str) -> list[SessionRecord]:
        """``sessions(thread_id)`` without waiting for what is slow to count: a session whose count is still
        being worked out has ``count_pending`` (and no count); :meth:`wait_for_counts` waits for them all."""
        return self.sessions(thread_id)

    def wait_for_counts(self) -> None:  # noqa: B027 (optional hook: most kinds count at once)
        """Until every count ``sessions_now`` left pending is known (then ``sessions_now`` has them)."""

    @abstractmethod
    def message_count(self, ref: SessionRef) -> int: ...

    @abstractmethod
    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        """Messages ``start`` .. ``start+limit`` in order; fewer at the end."""

    def iter_messages(self, ref: SessionRef, start: int = 0, page: int = 500) -> Iterator[Message]:
        """Every message from position ``start`` on, in order, one page in memory at a time (export).
        Kinds whose positional pages get slower further in override this with keyed paging."""
        while True:
            batch = self.messages(ref, start, page)
            yield from batch
            if len(batch) < page:
                return
            start += len(batch)

    def find_session(self, session_id: str) -> SessionRef | None:
        """The session with this id, in whichever thread holds it (the command line names only the
        session). The default asks every thread; kinds with an index override it."""
        for thread in self.threads():
            for session in self.sessions(thread.id):
                if session.ref.session_id == session_id:
                    return session.ref
        return None

    def count(self) -> int | None:
        return len(self.threads())

    def thread_columns(self) -> tuple[str, ...]:
        """The column titles of the thread list (values of each thread's row, in this order)."""
        return THREAD_COLUMNS

    def list_columns(self, list_id: str) -> tuple[str, ...]:
        return self.thread_columns() if list_id == THREADS else ()

    def list_rows(self, list_id: str) -> list[Row]:
        return [thread_row(t) for t in self.threads()] if list_id == THREADS else []

    def sorts(self, list_id: str) -> tuple[str, ...]:
        return self.thread_columns() if list_id == THREADS else ()

    # Optional: following a session that grows while it is shown (a live agent appending). A kind that
    # can say cheaply when a session may have grown offers both; the view then watches those paths and,
    # after a change, re-counts only when the token moved and reads only the messages after its last one.
    def growth_paths(self, ref: SessionRef) -> tuple[Path, ...]:
        """Files whose change may mean ``ref`` gained messages (its JSONL file; a database and its
        ``-wal``). Empty, the default: the view does not follow this kind live."""
        return ()

    def growth_token(self, ref: SessionRef) -> Any:
        """Cheap (a stat, one indexed query): a value that changes when ``ref`` may have grown — a file's
        size and mtime, the largest rowid of its messages. None when it cannot be told."""
        return None


class DocumentForm:
    """How the file editor's Form tab shows one document: the store's reading of its bytes (#33).

    The store chooses it (:meth:`Documents.form`); the editor only renders it. Fields are
    :class:`EditableField` specs of kinds "text" (one line), "markdown" (several lines), "bool",
    "schedule" (a cron expression; it follows a bool field named "enabled" beside it) and "rules" (an
    ordered list of one-line items, each checked by :meth:`check_item`; ``help`` is the input's hint).
    Every edit is bytes in, bytes out, changing only the bytes of what was edited; a value refused raises
    ``ValueError`` (``InvalidValue``) with a sentence saying why. The default is the text alone: a body box.
    """

    label = "Markdown file"  # what the editor's header calls the document
    fields: tuple[EditableField, ...] = ()
    body_label: str | None = "Body"  # the body's box; None: no body box (the fields are the document)
    records_label: str | None = None  # a document made of titled records (## sections): their list
    runner = "the system"  # who runs a schedule field's expression ("Daycare cannot run this schedule")
    hint = ""  # a note under the form

    def values(self, data: bytes) -> dict[str, Any]:
        """The fields' current values (absent ones missing or None)."""
        return {}

    def set_value(self, data: bytes, name: str, value: Any) -> bytes:
        """``data`` with field ``name`` set to ``value`` (the empty value of an optional field: unset)."""
        raise ValueError(f"{self.label} has no field {name!r}")

    def check_item(self, name: str, text: str) -> tuple[str | None, str | None]:
        """One item of a "rules" field as typed: (why it is refused, a warning), either None."""
        return None, None

    def problems(self, data: bytes) -> list[str]:
        """What the system would refuse or question in the document, shown under the form."""
        return []

    # -- records (only when ``records_label`` is set): (title, text) in file order, edited by index --
    def records(self, data: bytes) -> list[tuple[str, str]]:
        return []

    def set_record_text(self, data: bytes, index: int, text: str) -> bytes:
        raise ValueError("this document has no records")

    def add_record(self, data: bytes, title: str, text: str = "") -> bytes:
        raise ValueError("this document has no records")

    def rename_record(self, data: bytes, index: int, title: str) -> bytes:
        raise ValueError("this document has no records")

    def remove_record(self, data: bytes, index: int) -> bytes:
        raise ValueError("this document has no records")


def in_shelf(group: str, shelf: str | None) -> bool:
    """Whether a document of ``group`` stands on ``shelf``: a shelf is a group and its sub-groups ("Skills"
    holds "Skills · personal (alex)"); None is every shelf."""
    return shelf is None or group == shelf or group.startswith(shelf + " · ")


class Documents(Capability):
    """Markdown documents. The contract holds no way to read or write a file: a kind reads its documents
    (regular files only, ``stores.common.regular_files``) and saves them atomically and conflict-checked
    (``stores.common.edit.atomic``), after its own checks and backup. The Documents page and the editor
    window save a document the kind lists through :meth:`save` only (``daycare-gui edit`` too, for every kind
    but Daycare, whose files it still saves with the shared atomic save)."""

    @abstractmethod
    def documents(self) -> list[DocRef]: ...

    def read(self, ref: DocRef) -> bytes:
        """The document's bytes; a kind that lists documents without saying how to read them shows none."""
        return b""

    def save(self, ref: DocRef, data: bytes, expected_sha256: str | None, *,
             force: bool = False) -> Path | None:
        """Atomically replace the document if it still holds what was read (sha256 of those bytes):
        :class:`WriteConflict` when it does not. A kind refuses while its engine runs (WriteRefused),
        keeps a backup of the old bytes first (returning the copy's path; None when none was made) or
        writes elsewhere. ``force`` insists past such a refusal; it never skips the check for a change
        made meanwhile (to write over one, save again with the sha256 of the bytes now there).
        A ref whose id starts with ``file:`` is one the editor window made of a file of the store that
        :meth:`documents` does not list (a task's TASK.md, opened by its path): a kind whose files are edited
        that way saves it here too, the others refuse it (they never hand such a file to the editor).
        The default, for a kind that says nothing of saving: its documents are read-only."""
        raise WriteRefused(ref.readonly_reason or f"{ref.title} cannot be edited: this store saves no documents")

    def count(self) -> int | None:
        # A copy the system derives from another document (DocRef.derived_from) is not counted twice.
        return sum(1 for d in self.documents() if not d.derived_from)

    def count_of(self, shelf: str) -> int | None:
        """How many documents one shelf holds (``in_shelf``; derived copies not counted), for the navigation.
        By default every document is listed to count them; a kind with a cheaper way (a count query) says so."""
        return sum(1 for d in self.documents() if in_shelf(d.group, shelf) and not d.derived_from)

    # -- optional, each with a default every kind passes with (#33) --------------------------------
    def outline(self, ref: DocRef) -> list[Row]:
        """A masked tree of a structured document (settings, credentials): ``Row.parent`` keys, values
        ``(key, value)`` with every secret masked. Shown instead of the text when ``ref.secret``."""
        return []

    def fields(self, ref: DocRef) -> tuple[tuple[EditableField, Any], ...]:
        """The document's editable fields (a skill's name, a setting) with their current values; empty when
        it has none. ``update_fields`` takes the names."""
        return ()

    def update_fields(self, ref: DocRef, changes: dict[str, Any], expected_sha256: str | None, *,
                      force: bool = False) -> Path | None:
        """Write ``changes`` into the document as spliced edits (the bytes outside each value's span stay
        as they were), checked first (WriteRefused says why a value is invalid), conflict-checked against
        ``expected_sha256`` and saved like :meth:`save`."""
        raise WriteRefused(f"{ref.title} has no fields to edit")

    def versions(self, ref: DocRef) -> list[DocVersion]:
        """Earlier versions the system keeps of the document, oldest first."""
        return []

    def read_version(self, ref: DocRef, version_id: str) -> bytes:
        return b""

    def of_thread(self, thread_id: str) -> list[DocRef]:
        """The documents of one thread (an agent's prompt files)."""
        return [d for d in self.documents() if d.thread_id == thread_id]

    def memory_of(self, thread_id: str) -> list[DocRef]:
        """The listed documents holding what a thread remembers (a Daycare agent's user's MEMORY.md, its
        memory rows): the thread list's Memory button opens them. Empty: none, or the kind keeps no memory."""
        return []

    def creatable(self, group: str) -> tuple[EditableField, ...]:
        """What a new document of ``group`` asks for (a skill's place, name and description); empty: none
        can be made there. ``create`` takes the names."""
        return ()

    def create(self, group: str, values: dict[str, Any], *, force: bool = False) -> Path:
        """Make a new document of ``group`` from the system's template, never over an existing one; the
        path written. WriteRefused says why not (a running engine, unless ``force``; a bad name)."""
        raise WriteRefused(f"new {group or 'documents'} cannot be made here")

    def form(self, ref: DocRef) -> DocumentForm:
        """How the file editor's form shows ``ref`` (any file of the store the window opened, listed here or
        not: a task's file too); the default, its text alone, suits every Markdown file."""
        return DocumentForm()

    def deletable(self, ref: DocRef) -> bool:
        return False

    def delete(self, ref: DocRef, *, force: bool = False) -> str:
        """Move the document (a skill: its folder) aside, where the store's Trash restores it; says where."""
        raise WriteRefused(f"{ref.title} cannot be deleted")


class Files(Capability):
    """Folders beside the store, browsed lazily: a folder is listed only when opened, a file read bounded.

    Implementations never follow a link out of its root without saying so (``FileEntry.link``), open only
    regular files, and read at most ``limit`` bytes (the head, or the end with ``tail``: a long log)."""

    @abstractmethod
    def roots(self) -> list[FileRoot]: ...

    @abstractmethod
    def children(self, root_id: str, rel: str) -> list[FileEntry]: ...

    @abstractmethod
    def preview(self, root_id: str, rel: str, limit: int = 262_144, tail: bool = False) -> FilePreview: ...

    def count(self) -> int | None:
        return len(self.roots())


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


class Tables(Capability):
    """A raw table browser: every table, paged."""

    @abstractmethod
    def tables(self) -> list[TableRef]: ...

    @abstractmethod
    def columns(self, table: str) -> list[str]: ...

    @abstractmethod
    def rows(self, table: str, offset: int, limit: int) -> list[tuple]: ...

    def rows_after(self, table: str, key: str | None, n: int) -> list[Row]:
        """Up to ``n`` rows after the row keyed ``key`` (None: from the first), in the table's own order:
        ``Row.values`` in ``columns`` order, ``Row.raw`` a dict of them for the detail view (JSON parsed,
        secrets masked where the kind knows them). A kind with keys (SQLite's rowid) overrides this so a
        page deep in a big table is no OFFSET; the default pages by position, the key being it."""
        start = int(key) + 1 if key is not None and str(key).isdigit() else 0
        columns = self.columns(table)
        return [Row(str(start + i), tuple(r), raw=dict(zip(columns, r)))
                for i, r in enumerate(self.rows(table, start, n))]

    def count(self) -> int | None:
        return sum(1 for t in self.tables() if not t.hidden)


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
        """Every usage record at or after ``since`` (ms), each model call once."""

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
        cache_write_5m, cache_write_1h, thread_id, session_id, thread_title, user, task, estimated)``.
        None: the kind has no faster way than ``records``."""
        return None


class Storage(Capability):
    """How the store's schema stands against the migrations its system knows, and the upgrade that
    would bring it up to date. A kind whose store has no migrations list does not offer it.

    ``upgrade_plan`` is a dry run (it writes nothing); it answers a sentence instead of a plan when the
    store will not be upgraded here (the engine runs, a later version's store, a server). ``upgrade``
    runs a plan: on a copy, swapped in only when every step and check passed, backed up first unless
    ``backup`` is False (True: the default name, taken now; a path: that file, never overwritten).
    """

    # Modules the methods below import lazily: the window imports them on its GUI thread first (a
    # worker must never be the first to import a module).
    modules: tuple[str, ...] = ()
    offers_upgrade = True  # False: the store keeps no migrations (it offers Storage for its space)

    def migrations(self) -> list[MigrationLine]:
        """Applied migrations in the order they ran, then pending ones, then a later version's."""
        return []

    def migration_summary(self) -> str:
        """One paragraph a person can act on (what is applied, what is pending, what stopped)."""
        return ""

    def upgrade_plan(self) -> UpgradePlan | str:
        return "daycare-gui does not upgrade this kind of store."

    def default_backup(self, plan: UpgradePlan) -> Path | None:
        """Where the backup goes unless the user chooses, named now (None: the plan has nothing to back up)."""
        return None

    def upgrade(self, plan: UpgradePlan, backup: bool | Path, progress=None, cancelled=None) -> UpgradeResult:
        """``progress(done, total, step name)``; ``cancelled()`` is asked between steps."""
        return UpgradeResult(plan.target, refusal="daycare-gui does not upgrade this kind of store.")

    # -- space on disk and the safe ways to get it back (#38) ---------------------------------------------
    def space(self, progress=None) -> SpaceReport | None:
        """Where the bytes go (tables and indexes, threads/sessions/agents, folders, free pages, the log)
        with advice and the safe actions; read-only. None: this kind does not measure it.

        ``progress(step)`` is told each step (a sentence, with how far a long one is); it may raise to stop
        the measuring (the window's Cancel, a store closed meanwhile), which then ends with that exception."""
        return None

    def space_quick(self) -> SpaceReport | None:
        """What measures in well under a second — tables and indexes, free pages, the log, folders — with
        ``holders_pending`` set when ``space()`` has the holders still to measure, or the whole report when
        it was kept for the store as it is now. None: ``space()`` is quick itself (the window calls only it)."""
        return None

    def prune_preview(self, keep: int, idle_days: float | None = None, progress=None) -> PrunePreview:
        """The prune's dry run (writes nothing beside the store). ``progress(step name)``."""
        return PrunePreview(refusal="daycare-gui does not prune this kind of store.")

    def prune(self, keep: int, idle_days: float | None = None, *, force: bool = False, progress=None,
              cancelled=None) -> PruneDone:
        """Run the prune: backed up first, refused while the store's program runs unless ``force``."""
        return PruneDone(refusal="daycare-gui does not prune this kind of store.")

    def undo_prune(self, backup: Path, *, force: bool = False) -> PruneDone:
        """Put a prune's backup back in place of the store."""
        return PruneDone(refusal="daycare-gui does not prune this kind of store.")

    # -- this application's own leftovers (backups beyond the kept ones, indexes of stores that are gone) --
    def own_folders(self) -> tuple[Path, ...]:
        """The folders where this application leaves files beside the store: where its backups go (each
        one's ``.daycare-gui-backups`` is looked into) and its working copies. () when it leaves none.
        What is found there, and removed, is the shared rule's (``stores/common/own_leftovers``)."""
        return ()


class Collections(Capability):
    """A kind's own lists (runs, missions, memory, checkpoints), shown by the shared list pane."""

    @abstractmethod
    def collections(self) -> list[Collection]: ...

    @abstractmethod
    def size(self, collection_id: str) -> int: ...

    @abstractmethod
    def rows(self, collection_id: str, offset: int, limit: int) -> list[Row]: ...

    def items(self, collection_id: str) -> int | None:
        """How many of its own items a tree collection holds, where its rows also hold groups or the
        items' children (memory entries under namespace headers, projects with their tasks): the count a
        person reads. None: every row is an item (``size``)."""
        return None

    def editable(self, collection_id: str, row: Row) -> tuple[EditableField, ...]:
        return ()

    def update(self, collection_id: str, row: Row, changes: dict[str, Any], *, force: bool = False) -> Row:
        """Write ``changes`` to one row if it is still as ``row`` says (else WriteConflict)."""
        raise WriteRefused("this list cannot be edited")

    def search_columns(self, collection_id: str) -> tuple[str, ...]:
        """The columns of :meth:`search_rows`' hits when the list can be searched (a full-text index of the
        kind's own); ``()`` when it cannot, and the window then shows no search box."""
        return ()

    def search_rows(self, collection_id: str, query: str, limit: int = 200) -> list[Row]:
        """Up to ``limit`` rows matching ``query``, best first, with ``search_columns`` as values; a hit's
        ``markdown`` is its snippet and a link leads to the row itself. Read-only; may be slow (the window
        calls it off the GUI thread). When search cannot run: one row whose ``problem`` says why. A row
        without a key whose ``flag`` is set is no hit but a warning about the hits (an index out of step
        with the list): the window shows it as a line above them."""
        return []

    # -- row actions (Revoke grant…): what a person may do to one row, beyond editing its fields --------
    def row_actions(self, collection_id: str, row: Row) -> tuple[StoreAction, ...]:
        """The actions offered on ``row`` (none by default). ``description`` is what the window asks the
        person to confirm: what it changes on disk, in a sentence or two."""
        return ()

    def run_row_action(self, collection_id: str, row: Row, action_id: str, *, force: bool = False) -> str:
        """Run one of ``row_actions`` and say what happened in a sentence. A write is refused
        (:class:`WriteRefused`) while ``writes_blocked()`` says why unless ``force``; it checks that what
        it changes is still as ``row`` showed it (else :class:`WriteConflict`, nothing written), is atomic,
        and keeps a backup where the kind keeps one."""
        raise WriteRefused("this row has no such action")

    def create_fields(self, collection_id: str) -> tuple[EditableField, ...]:
        """What a new row of the list is made from (New app…); ``()``: the list takes no new rows."""
        return ()

    def create(self, collection_id: str, values: dict[str, Any], *, force: bool = False) -> str:
        """Add a row from ``values`` (keys of ``create_fields``) and return its key. Never replaces what is
        there; refused while ``writes_blocked()`` says why unless ``force``; a value that cannot be used
        raises ValueError with the sentence to show."""
        raise WriteRefused("this list takes no new rows")

    def row(self, collection_id: str, key: str) -> Row | None:
        """One row by key (to follow a link). The default scans; kinds with an index override it."""
        n = self.size(collection_id)
        for offset in range(0, n, 500):
            for r in self.rows(collection_id, offset, 500):
                if r.key == key:
                    return r
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

    def cost_per_day(self) -> list[DayCount]:
        """What the tokens cost per day (the system's own figure, e.g. USD); ``series`` is the model."""
        return []

    def tokens_by_model(self) -> list[tuple[str, float]]:
        """Tokens per model over the store's whole life, largest first, for a store that keeps totals but
        no days (an older Daycare's per-agent stats): the Overview lists them when ``tokens_per_day`` is
        empty. The default: none."""
        return []


class SearchSource(Capability):
    """Feeds the shared full-text index, incrementally.

    ``identity`` names the store for the index (path or URL, no secrets); ``messages(after)`` yields
    ``(cursor, ref, message)`` in cursor order from just after ``after`` (None: from the start). The index
    remembers the last cursor and asks again from there next time.
    """

    @abstractmethod
    def identity(self) -> str: ...

    def former_identities(self) -> tuple[str, ...]:
        """The identities this store had in earlier versions of the kind (a kind changes its identity to
        have its index built afresh): their index files are this store's old ones and are removed."""
        return ()

    @abstractmethod
    def messages(self, after: str | None) -> Iterator[tuple[str, SessionRef, Message]]: ...

    def index_rows(self, after: str | None) -> Iterator[tuple] | None:
        """Optional, :meth:`messages` made lean for the index: tuples ``(cursor, thread_id, session_id,
        message_id, role, kind, at, text, tool_calls, tool_result, attachments)`` that say of each message
        exactly what its :class:`Message` says in those fields (no other field is made). Its :meth:`tags`
        are asked once per role, thread and kind (they may depend on those only). None: ``messages``."""
        return None

    # -- optional: what the shared search offers beyond words, roles, a thread and a time range ----------
    def facets(self) -> tuple[FilterSpec, ...]:
        """The store's own filters (``kind`` "choice"): Daycare's agent kind, lifecycle, user and record
        type. A facet is answered either by :meth:`tags` (a fact of the message that never changes: its
        record type) or by :meth:`facet_threads` (a fact of its thread, asked when searching because it may
        change: an agent's lifecycle). Called on a worker: it may query the store."""
        return ()

    def tags(self, ref: SessionRef, message: Message) -> tuple[tuple[str, str], ...]:
        """``(facet name, value)`` pairs indexed with ``message`` (a word each in the index's tags column,
        so a filter intersects posting lists). Changing what this answers needs a new index version."""
        return ()

    def facet_threads(self, name: str, value: str) -> frozenset[str] | None:
        """The threads whose facet ``name`` is ``value`` now (a set, maybe empty), or None when the facet
        is a message tag (:meth:`tags`)."""
        return None

    def fingerprint(self, cursor: str) -> str | None:
        """A cheap digest of the history up to ``cursor`` (a count and a few sampled rows), stored with the
        index and compared at its next update: a history rewritten in the middle is then indexed afresh,
        which the check of the last message alone cannot see. None: the kind cannot tell."""
        return None

    def location(self) -> str | None:
        """The file or folder this store lives in: its index records it and is removed from the cache once
        it no longer exists (``stores.common.index_prune``). None (a server, or the kind cannot tell): the
        index goes only after a month untouched."""
        return None

    def former_index_files(self, cache_dir: Path) -> tuple[Path, ...]:
        """Index files an earlier search of this store left in ``cache_dir`` under another layout (Daycare's
        own index before it fed the shared one); removed at the next build, with their -wal and -shm."""
        return ()

    def sqlite_feed(self) -> SqliteFeed | None:
        """Optional, for a store kept in SQLite: its messages copied into the index inside SQLite, as fast as
        a plain FTS5 build (the cursors are the integers the feed names; ``messages`` stays the reference,
        and must give the same messages, cursors and text; :meth:`tags` is then asked with the role, the
        thread and the kind only, once for each). None: ``messages`` feeds the index."""
        return None

    def documents(self) -> Iterator[SearchDocument]:
        """What people look for beside the conversations: skills, prompt files, memory, notes, settings
        (their keys, never their values), each with where it lives. Read whole at each index update (they
        are few and small, and change in place where no cursor can follow them); the index masks secrets.
        The default indexes nothing here: the index adds the store's ``Documents`` itself."""
        return iter(())


class Directory(Capability):
    """Optional: every item worth jumping to (agents, sessions, users, tasks, documents, apps, tables) as
    keys and short labels, in one cheap pass (a few narrow queries, never record bodies).

    The quick-open palette and deep links use it. A kind without it is listed through its other
    capabilities (threads and their sessions, tasks, documents, tables, small collections), which costs one
    ``sessions()`` call per thread: offer this when that is slow on a big store.
    """

    @abstractmethod
    def entries(self) -> Iterator[JumpEntry]: ...


@dataclass(frozen=True)
class StoreAction:
    id: str
    title: str
    description: str  # what it does, and what it changes on disk ("read-only" when it changes nothing)
    writes: bool = False


class Actions(Capability):
    """Checks and repairs a kind offers (an FTS5 integrity check, a counter repair)."""

    @abstractmethod
    def actions(self) -> list[StoreAction]: ...

    @abstractmethod
    def run(self, action_id: str, *, force: bool = False) -> str:
        """Run it and say what happened in one or two sentences. Writes are refused while
        ``writes_blocked()`` says why, unless ``force``."""


class Trash(Capability):
    """What this app deleted from the store and kept aside, newest first, each restorable to its place: the
    one list of deleted items of any sort (tasks, documents such as skills, rows), shown by one dialog.
    Whatever a kind's capabilities delete (``Tasks.delete``, ``Documents.delete``, …) is listed here."""

    @abstractmethod
    def where(self) -> str:
        """Where deleted items are kept, in words (a folder inside the store)."""

    @abstractmethod
    def deleted(self) -> list[DeletedItem]: ...

    def restore_blocked(self, item: DeletedItem) -> str | None:
        """Why putting ``item`` back now is risky (the system's engine runs), or None."""
        return None

    @abstractmethod
    def restore(self, item: DeletedItem, *, force: bool = False) -> str:
        """Put it back; says where in a sentence. Raises WriteRefused (``restore_blocked`` and not
        ``force``; or something is at its place again: nothing moved, the item stays kept)."""

    def count(self) -> int | None:
        return sum(1 for item in self.deleted() if item.problem is None)


def raw_of(value: Any) -> Any:
    """Records keep raw values as plain data; kinds may call this to drop anything not JSON-like."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): raw_of(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [raw_of(v) for v in value]
    if isinstance(value, bytes):
        return f"<{len(value)} bytes: {value[:16].hex()}…>"
    return repr(value)


__all__ = [
    "Actions", "Automations", "CannotOpen", "Candidate", "Capability", "Charts", "Collections", "Conversations", "Directory",
    "DocumentForm", "Documents", "FileEditor",
    "EditableField", "Files", "KeyedPages", "Listing", "NotRecognised", "WriteConflict", "WritePartial",
    "WriteRefused", "OpenedStore", "SearchSource", "Storage", "StoreAction", "StoreKind", "StorePath", "Tables",
    "Tasks", "THREADS", "Trash", "UpgradeReport", "Upgrader", "Usage", "raw_of", "thread_row", "when_utc",
]

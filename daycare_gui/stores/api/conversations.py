"""Conversations: threads, their sessions and each session's messages (:class:`Conversations`), paged by
key for the conversation view (:class:`KeyedPages`), and the rows of the default thread list."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from daycare_gui.stores.api.kinds import Capability
from daycare_gui.stores.api.listing import Listing
from daycare_gui.stores.records import Message, PendingMessage, Row, SessionRecord, SessionRef, ThreadRecord


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

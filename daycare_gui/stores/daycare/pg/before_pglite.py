"""The history from before PGlite: the old ``daycare.db`` that Daycare left beside ``daycare.pglite/``.

When Daycare moved to PGlite (2026-02-26) it started an empty store and never imported ``daycare.db``; the
file stays in the data directory with every conversation from before. Today's store offers that history
as part of its own conversations: the old agents come after today's, each titled "… (before PGlite)" and
described as "Before PGlite (until <date of the last record>)", so the one conversation pane, the one
search index and the export show them with the shared code, and nothing in the window needs to know.

Why inside today's ``Conversations`` rather than as a second store beside it: the old file holds only
history worth showing (Daycare reads nothing else of it any more), and a person looking for "what did my
agent say in January" searches one store. Thread ids of the old agents carry :data:`THREAD_PREFIX`, so
they never meet today's ids (the same agent id may exist in both); session ids stay as Daycare wrote them.

The old file is only ever read: it is opened read-only (``immutable`` or a private snapshot copy, see
:mod:`daycare_gui.stores.common.sqlite_ro`), and nothing here has a way to write it.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Iterator

from daycare_gui.stores import api
from daycare_gui.stores.records import JumpEntry, Message, SessionRecord, SessionRef, ThreadRecord

LABEL = "Before PGlite"
THREAD_PREFIX = "before-pglite:"
_TABLES = ("users", "agents", "sessions", "session_history")


def day_of(ms: int | None) -> str:
    """The local date of a millisecond timestamp (``YYYY-MM-DD``), "" for none."""
    if ms is None:
        return ""
    try:
        return _dt.datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d")
    except (OverflowError, OSError, ValueError):
        return ""


class EarlierHistory:
    """The old SQLite store of a data dir, opened read-only, with what it holds and until when."""

    def __init__(self, core) -> None:
        from daycare_gui.stores.daycare.sqlite.conversations import DaycareConversations

        self.core = core
        self.path = core.paths.db_path
        self.conversations = DaycareConversations(core)
        self.until_ms = self._last_record()

    @property
    def heading(self) -> str:
        """"Before PGlite (until 2026-02-20)"; without a date when the file holds no record."""
        day = day_of(self.until_ms)
        return f"{LABEL} (until {day})" if day else LABEL

    def _last_record(self) -> int | None:
        db = self.core.db
        if not self.core.has_table("session_history"):
            return None
        return db.scalar("SELECT max(at) FROM session_history")

    def counts(self) -> dict[str, int]:
        return {t: self.core.db.count(t) for t in _TABLES if self.core.has_table(t)}

    def report(self) -> dict:
        """What ``inspect --json`` says of it: where it is, until when, how much (no values)."""
        return {"label": LABEL, "path": str(self.path), "until": day_of(self.until_ms), "until_ms": self.until_ms,
                "read_only": True, "counts": self.counts()}

    def close(self) -> None:
        self.core.close()


def open_earlier_history(paths, problems) -> EarlierHistory | None:
    """The old ``daycare.db`` beside a PGlite store, opened read-only; None when there is none (or it holds
    no conversations). A file that cannot be read is a problem on today's store, not a failed open."""
    from daycare_gui.stores.common.sqlite_ro import DatabaseError, ReadOnlyDatabase
    from daycare_gui.stores.daycare.detect import detect
    from daycare_gui.stores.daycare.engine import EngineStatus
    from daycare_gui.stores.daycare.paths import NotADaycareDirectory
    from daycare_gui.stores.daycare.sqlite.store import Store
    from daycare_gui.stores.problems import ProblemLog

    if paths is None or paths.db_path == paths.pglite_path:
        return None
    try:
        detection = detect(paths)
    except (NotADaycareDirectory, OSError):
        return None
    if not detection.has_sqlite:
        return None
    try:
        # live=False: no writer has touched this file since the switch, and a -wal left beside it is read
        # from a private copy rather than through a connection that could create -shm next to it.
        db = ReadOnlyDatabase(paths.db_path, live=False, writer="an older Daycare")
    except DatabaseError as exc:
        problems.add(paths.db_path, f"the history before PGlite cannot be read: {exc}", severity="warning")
        return None
    stopped = EngineStatus(False, None, False, False, False, "Daycare no longer writes this file")
    core = Store(paths, dataclasses.replace(detection, generation="sqlite", notes=()), stopped, db, ProblemLog())
    if not (core.has_table("agents") and core.has_table("sessions") and core.has_table("session_history")):
        core.close()
        return None
    try:
        return EarlierHistory(core)
    except DatabaseError as exc:
        core.close()
        problems.add(paths.db_path, f"the history before PGlite cannot be read: {exc}", severity="warning")
        return None


def _is_earlier(thread_id: str) -> bool:
    return thread_id.startswith(THREAD_PREFIX)


def _old_ref(ref: SessionRef) -> SessionRef:
    return SessionRef(ref.thread_id[len(THREAD_PREFIX):], ref.session_id)


class WithEarlierConversations(api.Conversations):
    """Today's conversations, then the agents of the old store under "Before PGlite"."""

    def __init__(self, today: api.Conversations, earlier: EarlierHistory) -> None:
        self.today, self.earlier = today, earlier
        self.thread_label = today.thread_label
        self.session_label = today.session_label
        self.has_session_status = today.has_session_status

    def _old_thread(self, t: ThreadRecord) -> ThreadRecord:
        about = self.earlier.heading + (f" · {t.subtitle}" if t.subtitle else "")
        return dataclasses.replace(t, id=THREAD_PREFIX + t.id, title=f"{t.title} (before PGlite)",
                                   subtitle=about, meta=(*t.meta, ("From", f"{self.earlier.heading}, read-only "
                                                                             f"({self.earlier.path.name})")))

    def threads(self) -> list[ThreadRecord]:
        return self.today.threads() + [self._old_thread(t) for t in self.earlier.conversations.threads()]

    def thread_place(self, thread: ThreadRecord) -> str:
        if _is_earlier(thread.id):
            return f"{self.earlier.heading}, agent {thread.id[len(THREAD_PREFIX):]}"
        return self.today.thread_place(thread)

    def sessions(self, thread_id: str) -> list[SessionRecord]:
        if not _is_earlier(thread_id):
            return self.today.sessions(thread_id)
        return [dataclasses.replace(s, ref=SessionRef(thread_id, s.ref.session_id))
                for s in self.earlier.conversations.sessions(thread_id[len(THREAD_PREFIX):])]

    def message_count(self, ref: SessionRef) -> int:
        if _is_earlier(ref.thread_id):
            return self.earlier.conversations.message_count(_old_ref(ref))
        return self.today.message_count(ref)

    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        if _is_earlier(ref.thread_id):
            return self.earlier.conversations.messages(_old_ref(ref), start, limit)
        return self.today.messages(ref, start, limit)

    def iter_messages(self, ref: SessionRef, start: int = 0, page: int = 500) -> Iterator[Message]:
        if _is_earlier(ref.thread_id):
            return self.earlier.conversations.iter_messages(_old_ref(ref), start, page)
        return self.today.iter_messages(ref, start, page)

    def find_session(self, session_id: str) -> SessionRef | None:
        found = self.today.find_session(session_id)
        if found is not None:
            return found
        old = self.earlier.conversations.find_session(session_id)
        return SessionRef(THREAD_PREFIX + old.thread_id, old.session_id) if old is not None else None

    def count(self) -> int | None:
        today, earlier = self.today.count(), self.earlier.conversations.count()
        return None if today is None else today + (earlier or 0)

    def growth_paths(self, ref: SessionRef) -> tuple:
        return () if _is_earlier(ref.thread_id) else self.today.growth_paths(ref)  # the old file never grows

    def growth_token(self, ref: SessionRef):
        return None if _is_earlier(ref.thread_id) else self.today.growth_token(ref)


_EARLIER_CURSOR = "b"  # cursors of the old history: "b<record id>"; today's stay plain record ids


class WithEarlierSearch(api.SearchSource):
    """Today's messages and the old store's in one index: the old history first (it is older and never
    grows), then today's. The identity changes with it, so an index built without the old history is
    dropped and built again (the old identity is a former one)."""

    def __init__(self, today: api.SearchSource, earlier: EarlierHistory) -> None:
        self.today, self.earlier = today, earlier

    def identity(self) -> str:
        return f"{self.today.identity()} + {self.earlier.path.name}"

    def former_identities(self) -> tuple[str, ...]:
        return (self.today.identity(), *self.today.former_identities())

    def location(self) -> str | None:
        return self.today.location()

    def messages(self, after: str | None):
        if after is not None and not after.startswith(_EARLIER_CURSOR):
            yield from self.today.messages(after)
            return
        last = int(after[len(_EARLIER_CURSOR):]) if after else -1
        yield from self._earlier(last)
        yield from self.today.messages(None)

    def _earlier(self, last: int):
        from daycare_gui.stores.daycare.history_messages import message_of
        from daycare_gui.stores.daycare.records.history import parse_history_row

        db = self.earlier.core.db
        while True:
            rows = db.fetch("SELECT h.id, h.session_id, s.agent_id, h.type, h.at, h.data FROM session_history h "
                            "JOIN sessions s ON s.id = h.session_id WHERE h.id > :a ORDER BY h.id LIMIT 2000",
                            {"a": last})
            if not rows:
                return
            for id_, sid, agent, type_, at, data in rows:
                rec, problem = parse_history_row(id_, sid, type_, at, data)
                msg = message_of(rec)
                if problem is not None:
                    msg = dataclasses.replace(msg, problem=problem)
                yield f"{_EARLIER_CURSOR}{id_}", SessionRef(THREAD_PREFIX + str(agent or ""), sid), msg
            last = rows[-1][0]


class WithEarlierDirectory(api.Directory):
    """Quick open and deep links find the old agents and sessions too (after today's: a session id in both
    opens today's)."""

    def __init__(self, today: api.Directory | None, earlier: EarlierHistory) -> None:
        self.today, self.earlier = today, earlier

    def entries(self):
        from daycare_gui.stores.common.wording import local_time

        if self.today is not None:
            yield from self.today.entries()
        names = {}
        for t in self.earlier.conversations.threads():
            names[t.id] = t.title
            yield JumpEntry("agent", THREAD_PREFIX + t.id, f"{t.title} (before PGlite)", self.earlier.heading,
                            THREAD_PREFIX + t.id)
        for sid, aid, at in self.earlier.core.db.fetch("SELECT id, agent_id, created_at FROM sessions"):
            agent = names.get(aid, aid or "?")
            yield JumpEntry("session", sid, f"{agent} (before PGlite) — session of "
                            f"{local_time(at, seconds=False) or '?'}", f"{self.earlier.heading} · agent {aid}",
                            SessionRef(THREAD_PREFIX + str(aid or ""), sid))


def offer_earlier_history(store) -> None:
    """Wrap today's conversations and search of ``store`` with the old history, when the data dir has one."""
    conversations = store.capability(api.Conversations)
    if conversations is None or store.earlier is None:
        return
    store.offer(api.Conversations, WithEarlierConversations(conversations, store.earlier))
    search = store.capability(api.SearchSource)
    if search is not None:
        store.offer(api.SearchSource, WithEarlierSearch(search, store.earlier))
    store.offer(api.Directory, WithEarlierDirectory(store.capability(api.Directory), store.earlier))

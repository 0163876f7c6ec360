"""Daycare SQLite's conversations paged by key: ``session_history.id``, through the History queries.

Every page is read by id (``idx_session_history_session``): after a key, before one, or the session's
last rows; the only OFFSET left is :meth:`page_at`, a jump somewhere in the middle before the view has the
session's ids. Rows arrive undecoded (:class:`PendingMessage`): the view decodes the few it paints.
"""

from __future__ import annotations

from daycare_gui.stores.api import Conversations
from daycare_gui.stores.daycare.history_messages import ROLE_OF_TYPE, message_of, with_problem
from daycare_gui.stores.daycare.sqlite.queries.history import (
    PendingRecord,
    full_data,
    page_after,
    page_before,
    session_end,
    session_growth,
)
from daycare_gui.stores.daycare.sqlite.queries.history_pages import id_chunk, page_at_offset
from daycare_gui.stores.daycare.sqlite.threads import SqliteThreadListing, session_meta
from daycare_gui.stores.records import Message, PendingMessage, SessionRecord, SessionRef, ThreadRecord


def _decoded(entry) -> PendingMessage:
    rec, problem, size = entry
    return PendingMessage(rec.id, message_of(rec, problem, size))


def _decode(pending: PendingRecord):
    return message_of(*pending.decode())


class _RecordLine:
    """What the message list paints of a record, straight from Daycare's typed record: a neutral message
    costs as much again to make, and a list paints thousands of rows while it scrolls."""

    __slots__ = ("rec", "problem", "role")

    def __init__(self, rec, problem) -> None:
        self.rec, self.problem = rec, problem
        self.role = ROLE_OF_TYPE.get(rec.type, "tool" if rec.is_rlm else "event")

    @property
    def id(self) -> str:
        return str(self.rec.id)

    @property
    def kind(self) -> str:
        return self.rec.type

    @property
    def at(self):
        return self.rec.at

    def summary(self, limit: int = 160) -> str:
        return self.rec.summary(limit)


def _line(pending: PendingRecord) -> _RecordLine:
    rec, problem, _size = pending.decode_line()  # (a lean record: its summary's fields alone)
    return _RecordLine(rec, problem or rec.read_problem())


def _pending(entries) -> list[PendingMessage]:
    return [PendingMessage(e.id, decode=_decode, data=e, line=_line) if type(e) is PendingRecord else _decoded(e)
            for e in entries]


class DaycareConversations(SqliteThreadListing, Conversations):  # the thread list keyed in SQL
    thread_label = "Agents"

    def __init__(self, core) -> None:
        self.core = core

    def threads(self) -> list[ThreadRecord]:
        from daycare_gui.stores.daycare.sqlite.queries.agents import fetch_agents, list_agent_ids

        db, cols = self.core.db, self.core.cols
        ids = list_agent_ids(db, cols=cols)
        agents = fetch_agents(db, ids, cols)
        return [ThreadRecord(a.id, a.name, a.type, a.updated_at, raw=a.raw) for a in (agents[i] for i in ids)]

    def sessions(self, thread_id: str) -> list[SessionRecord]:
        from daycare_gui.stores.daycare.sqlite.queries.sessions import list_sessions

        return [SessionRecord(SessionRef(thread_id, s.id), s.id, s.created_at, s.ended_at, s.record_count,
                              "active" if s.is_active else ("ended" if s.ended_at else ""), raw=s.raw,
                              meta=session_meta(s))
                for s in list_sessions(self.core.db, thread_id, cols=self.core.cols)]

    def message_count(self, ref: SessionRef) -> int:
        return int(self.core.db.scalar("SELECT count(*) FROM session_history WHERE session_id = :s",
                                       {"s": ref.session_id}) or 0)

    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        from daycare_gui.stores.daycare.sqlite.queries.history_pages import page_at_offset

        out = []
        for rec, problem, _size in page_at_offset(self.core.db, ref.session_id, start, limit):
            msg = message_of(rec)
            out.append(msg if problem is None else with_problem(msg, problem))
        return out

    def iter_messages(self, ref: SessionRef, start: int = 0, page: int = 500):
        """Keyed pages after the first: an OFFSET deep into a 100,000-record session walks the index each time."""
        from daycare_gui.stores.daycare.sqlite.queries.history import page_after
        from daycare_gui.stores.daycare.sqlite.queries.history_pages import page_at_offset

        batch = page_at_offset(self.core.db, ref.session_id, start, page)
        while batch:
            for rec, problem, _size in batch:
                msg = message_of(rec)
                yield msg if problem is None else with_problem(msg, problem)
            if len(batch) < page:
                return
            batch = page_after(self.core.db, ref.session_id, batch[-1][0].id, page)

    def find_session(self, session_id: str) -> SessionRef | None:
        rows = self.core.db.rows("SELECT agent_id FROM sessions WHERE id = :s", {"s": session_id})
        return SessionRef(str(rows[0][0]), session_id) if rows else None

    def count(self) -> int | None:
        return self.core.db.count("agents") if self.core.has_table("agents") else 0


class SqliteConversations(DaycareConversations):
    """:class:`DaycareConversations` with keyed pages (see ``api.KeyedPages``)."""

    def page_after(self, ref: SessionRef, key: int | None, n: int) -> list[PendingMessage]:
        return _pending(page_after(self.core.db, ref.session_id, -1 if key is None else int(key), n, lazy=True))

    def page_before(self, ref: SessionRef, key: int | None, n: int) -> list[PendingMessage]:
        return _pending(page_before(self.core.db, ref.session_id, None if key is None else int(key), n, lazy=True))

    def page_at(self, ref: SessionRef, start: int, n: int) -> list[PendingMessage]:
        return _pending(page_at_offset(self.core.db, ref.session_id, start, n, lazy=True))

    def key_chunk(self, ref: SessionRef, after: int | None, n: int):
        return id_chunk(self.core.db, ref.session_id, -1 if after is None else int(after), n)

    def tail(self, ref: SessionRef, after: int | None = None) -> tuple[int, int | None]:
        count, last = session_end(self.core.db, ref.session_id, -1 if after is None else int(after))
        return count, None if last is None else int(last)

    def growth(self, ref: SessionRef, after: int | None, n: int):
        added, last, rows = session_growth(self.core.db, ref.session_id, -1 if after is None else int(after), n)
        return added, (after if not added else last), [_decoded(e) for e in rows]

    def locate(self, ref: SessionRef, message_id: str, hint: int | None = None) -> int | None:
        try:
            key = int(message_id)
        except (TypeError, ValueError):
            return None
        db = self.core.db
        if not db.scalar("SELECT 1 FROM session_history WHERE id = :i AND session_id = :s",
                         {"i": key, "s": ref.session_id}):
            return None
        return int(db.scalar("SELECT count(*) FROM session_history WHERE session_id = :s AND id < :i",
                             {"s": ref.session_id, "i": key}) or 0)

    def raw(self, ref: SessionRef, key: int):
        """The stored ``data`` text exactly (a VM snapshot included), as Daycare wrote it."""
        return full_data(self.core.db, int(key))

    def session_heading(self, ref: SessionRef):
        from daycare_gui.stores.daycare.sqlite.queries.agents import get_agent

        db = self.core.db
        agent = get_agent(db, ref.thread_id) if ref.thread_id else None
        rows = db.rows("SELECT created_at, ended_at FROM sessions WHERE id = :s", {"s": ref.session_id})
        title = agent.name if agent is not None else (ref.thread_id or "?")
        if not rows:
            return title, None
        created, ended = rows[0][0], rows[0][1]
        return title, SessionRecord(ref, ref.session_id, created, ended, None, "ended" if ended else "")

    def follows_writes(self) -> bool:
        return self.core.db.mode.name != "snapshot"  # a private copy never changes

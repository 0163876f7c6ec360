"""A legacy (pre-SQLite) Daycare store's conversations as the shared capability: each agent folder is a
thread, each stretch of its ``history.jsonl`` between ``start``/``reset`` markers a session (as Daycare's
import splits them). Messages are streamed from the file; each keeps its line as id and the line's JSON
as its raw record."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from daycare_gui.stores.api import Conversations
from daycare_gui.stores.daycare.capabilities import message_of
from daycare_gui.stores.daycare.files.legacy_agents import iter_history
from daycare_gui.stores.daycare.legacy.threads import LegacyThreadListing
from daycare_gui.stores.daycare.records import LEGACY_MARKERS, history_record_from
from daycare_gui.stores.daycare.sqlite.queries.legacy_history import legacy_agents_as_records
from daycare_gui.stores.daycare.sqlite.threads import session_meta
from daycare_gui.stores.records import Message, SessionRecord, SessionRef, ThreadRecord


class LegacyConversations(LegacyThreadListing, Conversations):  # its thread list: legacy/threads
    thread_label = "Agents"

    def __init__(self, core) -> None:
        self.core = core
        self._records: dict | None = None

    def _agents(self) -> dict:
        if self._records is None:  # the inventory is scanned once per store; this view of it once too
            self._records = legacy_agents_as_records(self.core.files())
        return self._records

    def threads(self) -> list[ThreadRecord]:
        r = self._agents()
        return [ThreadRecord(a.id, a.name, a.type, a.updated_at, session_count=len(r["sessions"].get(a.id, ())),
                             raw=a.raw) for a in r["agents"].values()]

    def sessions(self, thread_id: str) -> list[SessionRecord]:
        return [SessionRecord(SessionRef(thread_id, s.id), s.id, s.created_at, None, s.record_count,
                              "active" if s.is_active else "", raw=s.raw, meta=session_meta(s))
                for s in self._agents()["sessions"].get(thread_id, ())]

    def _session(self, ref: SessionRef):
        return next((s for s in self._agents()["sessions"].get(ref.thread_id, ()) if s.id == ref.session_id), None)

    def message_count(self, ref: SessionRef) -> int:
        s = self._session(ref)
        return int(s.record_count or 0) if s is not None else 0

    def iter_messages(self, ref: SessionRef, start: int = 0, page: int = 500) -> Iterator[Message]:
        """One pass over the session's lines of history.jsonl, whatever its length."""
        s = self._session(ref)
        if s is None or not s.raw.get("history") or s.raw.get("first_line") is None:
            return
        first, last = s.raw["first_line"], s.raw["last_line"]
        position = 0
        for line, obj in iter_history(s.raw["history"], root=self.core.paths):
            if line < first:
                continue
            if line > last:
                return
            kind = obj.get("type")
            if not isinstance(kind, str) or kind in LEGACY_MARKERS:
                continue
            if position >= start:
                at = obj.get("at") if isinstance(obj.get("at"), int) else 0
                data = {k: v for k, v in obj.items() if k not in ("type", "at")}
                msg = message_of(history_record_from(kind, at, data, id=line, session_id=ref.session_id))
                yield _with_raw(msg, obj)
            position += 1

    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        return list(islice(self.iter_messages(ref, start), max(0, limit)))

    def find_session(self, session_id: str) -> SessionRef | None:
        agent_id, sep, _index = session_id.rpartition("#")
        if sep and any(s.id == session_id for s in self._agents()["sessions"].get(agent_id, ())):
            return SessionRef(agent_id, session_id)
        return None

    def count(self) -> int | None:
        return len(self._agents()["agents"])


def _with_raw(msg: Message, obj: dict) -> Message:
    from dataclasses import replace

    return replace(msg, raw=obj)  # the line as stored: type and time included

"""A legacy (pre-SQLite) Daycare store's conversations as the shared capability: each agent folder is a
thread, each stretch of its ``history.jsonl`` between ``start``/``reset`` markers a session (as Daycare's
import splits them). Messages are streamed from the file; each keeps its line as id and the line's JSON
as its raw record.

Paged by key (:class:`KeyedLegacyConversations`): the line of ``history.jsonl`` each record is on. A
legacy session is a stretch of one file, read once when first paged (its lines as parsed JSON, not yet
messages) and kept for the two sessions last asked for; every page is then a bisect on the lines, and a
message is made only when the view paints it.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import replace
from itertools import islice

from daycare_gui.stores.api import Conversations
from daycare_gui.stores.daycare.files.legacy_agents import iter_history
from daycare_gui.stores.daycare.history_messages import message_of
from daycare_gui.stores.daycare.legacy.threads import LegacyThreadListing
from daycare_gui.stores.daycare.records.history import LEGACY_MARKERS, history_record_from
from daycare_gui.stores.daycare.sqlite.queries.legacy_history import legacy_agents_as_records
from daycare_gui.stores.daycare.sqlite.threads import session_meta
from daycare_gui.stores.records import Message, PendingMessage, SessionRecord, SessionRef, ThreadRecord


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
    return replace(msg, raw=obj)  # the line as stored: type and time included


_KEPT = 2  # sessions whose lines stay in memory


def _decode(item) -> Message:
    line, obj, session_id = item
    at = obj.get("at") if isinstance(obj.get("at"), int) else 0
    data = {k: v for k, v in obj.items() if k not in ("type", "at")}
    return _with_raw(message_of(history_record_from(obj["type"], at, data, id=line, session_id=session_id)), obj)


class KeyedLegacyConversations(LegacyConversations):
    """:class:`LegacyConversations` with keyed pages (see ``api.KeyedPages``); keys are line numbers."""

    def __init__(self, core) -> None:
        super().__init__(core)
        self._lines: OrderedDict[SessionRef, tuple[list[int], list[dict]]] = OrderedDict()

    def _read(self, ref: SessionRef) -> tuple[list[int], list[dict]]:
        found = self._lines.get(ref)
        if found is not None:
            self._lines.move_to_end(ref)
            return found
        lines: list[int] = []
        objs: list[dict] = []
        s = self._session(ref)
        if s is not None and s.raw.get("history") and s.raw.get("first_line") is not None:
            first, last = s.raw["first_line"], s.raw["last_line"]
            for line, obj in iter_history(s.raw["history"], root=self.core.paths):
                if line < first:
                    continue
                if line > last:
                    break
                kind = obj.get("type")
                if isinstance(kind, str) and kind not in LEGACY_MARKERS:
                    lines.append(line)
                    objs.append(obj)
        found = self._lines[ref] = (lines, objs)
        while len(self._lines) > _KEPT:
            self._lines.popitem(last=False)
        return found

    def _slice(self, ref: SessionRef, lo: int, hi: int) -> list[PendingMessage]:
        lines, objs = self._read(ref)
        lo, hi = max(0, lo), min(len(lines), hi)
        return [PendingMessage(lines[i], decode=_decode, data=(lines[i], objs[i], ref.session_id))
                for i in range(lo, hi)]

    def message_count(self, ref: SessionRef) -> int:
        return len(self._read(ref)[0])

    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        return [p.message() for p in self._slice(ref, start, start + max(0, limit))]

    def page_after(self, ref: SessionRef, key: int | None, n: int) -> list[PendingMessage]:
        lines = self._read(ref)[0]
        at = 0 if key is None else bisect.bisect_right(lines, int(key))
        return self._slice(ref, at, at + n)

    def page_before(self, ref: SessionRef, key: int | None, n: int) -> list[PendingMessage]:
        lines = self._read(ref)[0]
        at = len(lines) if key is None else bisect.bisect_left(lines, int(key))
        return self._slice(ref, at - n, at)

    def page_at(self, ref: SessionRef, start: int, n: int) -> list[PendingMessage]:
        return self._slice(ref, start, start + n)

    def key_chunk(self, ref: SessionRef, after: int | None, n: int) -> list[int]:
        lines = self._read(ref)[0]
        at = 0 if after is None else bisect.bisect_right(lines, int(after))
        return lines[at:at + max(0, n)]

    def tail(self, ref: SessionRef, after: int | None = None) -> tuple[int, int | None]:
        lines = self._read(ref)[0]
        at = 0 if after is None else bisect.bisect_right(lines, int(after))
        return len(lines) - at, (lines[-1] if len(lines) > at else None)

    def locate(self, ref: SessionRef, message_id: str, hint: int | None = None) -> int | None:
        lines = self._read(ref)[0]
        try:
            key = int(message_id)
        except (TypeError, ValueError):
            return None
        at = bisect.bisect_left(lines, key)
        return at if at < len(lines) and lines[at] == key else None

    def raw(self, ref: SessionRef, key: int):
        lines, objs = self._read(ref)
        at = bisect.bisect_left(lines, int(key))
        return objs[at] if at < len(lines) and lines[at] == int(key) else None

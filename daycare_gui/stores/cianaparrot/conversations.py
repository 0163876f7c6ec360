"""Chats → their LangGraph threads (and session logs) → messages.

A chat is ``<channel>_<chat_id>``; each ``/new`` starts thread ``<chat>_s<N>``, so a chat's sessions are its
threads in reset order. A scheduled task's runs share the thread ``scheduler_<task id>``, shown as its own
chat named after the task. A thread's conversation is the ``messages`` channel of its latest top-level
checkpoint; its session log (``workspace/sessions`` and the older ``data/sessions``, merged in time order)
is a second session beside it, each line marked with the folder it came from.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from itertools import islice

from daycare_gui.stores.api import THREADS, Conversations, when_utc
from daycare_gui.stores.cianaparrot.checkpoints import id_time_ms
from daycare_gui.stores.cianaparrot.decode import Opaque, masked
from daycare_gui.stores.cianaparrot.files import LogEntry, merged_entries
from daycare_gui.stores.cianaparrot.messages import (
    as_text,
    message_fields,
    messages_in,
    parts_text,
    role_text,
    to_message,
)
from daycare_gui.stores.records import (
    FilterSpec,
    Message,
    Query,
    Row,
    SessionRecord,
    SessionRef,
    ThreadRecord,
)

LOG_PREFIX = "log:"
CACHE_THREADS = 4


def _title(chat: str, task: dict | None) -> str:
    if chat.startswith("scheduler_"):
        prompt = " ".join(str((task or {}).get("prompt", "")).split())
        name = f"Task {chat.removeprefix('scheduler_')}"
        return f"{name}: {prompt[:60]}{'…' if len(prompt) > 60 else ''}" if prompt else name
    channel, _, chat_id = chat.partition("_")
    return f"{channel} {chat_id}" if chat_id else chat


def _channel(chat: str) -> str:
    """The channel a chat came through ("telegram"), or "scheduled task" for a task's own runs."""
    if chat.startswith("scheduler_"):
        return "scheduled task"
    channel, sep, _chat_id = chat.partition("_")
    return channel if sep else ""


class CianaConversations(Conversations):
    thread_label = "Chats"
    session_label = "Threads"

    def __init__(self, store) -> None:
        self.store = store

    # -- threads (chats) and sessions (LangGraph threads) ------------------------------------------------
    def _task(self, chat: str) -> dict | None:
        tid = chat.removeprefix("scheduler_")
        return next((t for t in self.store.tasks or () if str(t.get("id")) == tid), None)

    def threads(self) -> list[ThreadRecord]:
        counters = self.store.counters or {}
        low = {chat: (value, top) for chat, value, top in self.store.counter_findings()}
        out = []
        for chat, infos in sorted(self.store.chats().items(), key=lambda kv: (kv[0].startswith("scheduler_"),
                                                                              kv[0])):
            task = self._task(chat) if chat.startswith("scheduler_") else None
            meta = [("threads", ", ".join(i.id for i in infos))]
            if chat.startswith("scheduler_"):
                sub = f"scheduled task ({task.get('type')} {task.get('value')})" if task else "scheduled task (gone)"
            else:
                sub = f"{len(infos)} thread{'s' if len(infos) != 1 else ''}"
                if chat in counters:
                    meta.append(("session counter", str(counters[chat])))
            problem = None
            if chat in low:
                value, top = low[chat]
                problem = (f"session counter is {value} but thread {chat}_s{top} exists: /new would reuse an "
                           f"old conversation")
            updated = max((i.updated_at or 0 for i in infos), default=0) or None
            out.append(ThreadRecord(chat, _title(chat, task), sub, updated, len(infos), tuple(meta),
                                    raw={"chat": chat, "threads": [i.id for i in infos]}, problem=problem))
        return out

    # -- the thread list: each chat's channel and its threads (Listing "threads") -------------------------
    def thread_columns(self) -> tuple[str, ...]:
        return ("Name", "Channel", "Threads", "Updated")

    def list_rows(self, list_id: str) -> list[Row]:
        if list_id != THREADS:
            return []
        return [Row(t.id, (t.title, _channel(t.id), t.session_count, when_utc(t.updated_at)), raw=t.raw,
                    markdown=t.subtitle, problem=t.problem) for t in self.threads()]

    def filters(self, list_id: str) -> tuple[FilterSpec, ...]:
        if list_id != THREADS:
            return ()
        channels = sorted({_channel(chat) for chat in self.store.chats()})
        return (FilterSpec("channel", "channel", "choice", tuple((c, c) for c in channels)),)

    def keys(self, list_id: str, query: Query) -> list[str]:
        channel = query.choice("channel")
        keys = super().keys(list_id, replace(query, choices=()))
        if not channel:
            return keys
        keep = {r.key for r in self.list_rows(list_id) if r.values[1] == channel}
        return [k for k in keys if k in keep]

    def sessions(self, thread_id: str) -> list[SessionRecord]:
        infos = self.store.chats().get(thread_id, [])
        counter = (self.store.counters or {}).get(thread_id)
        current = max((i.n for i in infos), default=0) if not isinstance(counter, int) else counter
        out = []
        for info in infos:
            status = "current" if info.n == current else "earlier"
            meta = (("checkpoints", str(info.checkpoints)), ("writes", str(info.writes)))
            if info.checkpoints:
                first = None
                if self.store.reader is not None:
                    try:
                        rows = self.store.reader.history(info.id, 0, 1)
                        first = rows[0].at if rows else None
                    except sqlite3.Error:
                        first = None
                out.append(SessionRecord(SessionRef(thread_id, info.id), info.id, first, id_time_ms(info.latest),
                                         None, status, meta, raw={"thread_id": info.id, "latest": info.latest}))
            if info.logs:
                origins = ", ".join(log.origin for log in info.logs)
                out.append(SessionRecord(SessionRef(thread_id, LOG_PREFIX + info.id), f"{info.id} — log ({origins})",
                                         None, info.updated_at, None, status if not info.checkpoints else "log",
                                         tuple((log.origin, str(log.path)) for log in info.logs)))
        return out

    # -- messages ---------------------------------------------------------------------------------------
    def message_count(self, ref: SessionRef) -> int:
        if ref.session_id.startswith(LOG_PREFIX):
            return sum(1 for _ in self._log_entries(ref))
        return len(self._checkpoint_messages(ref.session_id))

    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        start, limit = max(0, int(start)), max(0, int(limit))
        if ref.session_id.startswith(LOG_PREFIX):
            page = islice(self._log_entries(ref, record=False), start, start + limit)
            return [self._log_message(e) for e in page]
        return self._checkpoint_messages(ref.session_id)[start: start + limit]

    def _log_entries(self, ref: SessionRef, record: bool = True):
        info = self.store.threads.get(ref.session_id[len(LOG_PREFIX):])
        if info is None:
            return iter(())
        # Bad lines become problems once, when the log is first counted (a whole pass); pages carry them
        # on their messages instead.
        problems = self.store.problems if record and info.id not in self._logged else None
        if problems is not None:
            self._logged.add(info.id)
        return merged_entries(info.logs, problems)

    @property
    def _logged(self) -> set:
        if not hasattr(self, "_logged_set"):
            self._logged_set = set()
        return self._logged_set

    def _log_message(self, entry: LogEntry) -> Message:
        mid = f"{entry.origin}:{entry.line}"
        meta = (("origin", entry.origin), ("line", str(entry.line)))
        if entry.value is None:
            bad = entry.bad
            return Message(mid, "note", bad.raw if bad else "", kind="bad line", meta=meta, raw=bad.raw if bad else None,
                           problem=f"line {entry.line} of {entry.path.name}: {bad.reason if bad else 'unreadable'}")
        v = entry.value
        role, content = role_text(v.get("role")), v.get("content")
        extra = tuple((k, as_text(v[k])) for k in ("channel", "user_id") if v.get(k) is not None)
        odd = []
        if v.get("role") in (None, ""):
            odd.append("no role")
        elif role not in ("user", "assistant"):
            odd.append(f"role {role} is not user or assistant")
        if content is None:
            odd.append("no content")
        elif not isinstance(content, str):
            odd.append(f"content is {_json_kind(content)}, not text")
        return Message(mid, role, parts_text(content), at=entry.at, kind="log",
                       author=as_text(v.get("user_id")), meta=meta + extra, raw=masked(v),
                       problem="; ".join(odd) or None)

    def _checkpoint_messages(self, thread_id: str) -> list[Message]:
        info = self.store.threads.get(thread_id)
        reader = self.store.reader
        if info is None or reader is None or not info.checkpoints:
            return []
        cache = self.store._message_cache
        hit = cache.get(thread_id)
        if hit is not None and hit[0] == info.latest:
            cache.move_to_end(thread_id)
            return hit[1]
        messages = self._decode_thread(thread_id)
        cache[thread_id] = (info.latest, messages)
        while len(cache) > CACHE_THREADS:
            cache.popitem(last=False)
        return messages

    def _decode_thread(self, thread_id: str) -> list[Message]:
        reader = self.store.reader
        try:
            found = reader.latest(thread_id)
        except sqlite3.Error as exc:
            return [Message("error", "note", f"cannot read the latest checkpoint ({exc})", problem=str(exc))]
        if found is None:
            return [Message("none", "note", "this thread has checkpoints only in subgraph namespaces")]
        row, decoded = found
        where = f"checkpoint {row.id} of {thread_id}"
        if isinstance(decoded.value, Opaque) or decoded.problem:
            what = decoded.value.describe() if isinstance(decoded.value, Opaque) else ""
            if (thread_id, row.id) not in self._logged:  # once, however often the cache re-decodes it
                self._logged.add((thread_id, row.id))
                self.store.problems.add(self.store.layout.db, f"{where}: {decoded.problem}")
            return [Message(row.id, "note", f"The latest checkpoint cannot be shown: {decoded.problem}. {what}",
                            kind=decoded.tag, raw=masked(decoded.value), problem=decoded.problem)]
        cp = decoded.value if isinstance(decoded.value, dict) else {}
        values = cp.get("channel_values")
        items = messages_in(values.get("messages")) if isinstance(values, dict) else None
        notes = []
        if items is None:
            items = self._replay_writes(thread_id)
            notes.append(Message("replayed", "note", "The latest checkpoint holds no message list (a delta "
                                 "channel or an older format); messages are rebuilt from the thread's writes.",
                                 kind="note"))
        out = notes + [to_message(item, i) for i, item in enumerate(items)]
        return _dedupe_ids(out)

    def _replay_writes(self, thread_id: str) -> list:
        """``messages`` writes along the thread, applied like LangGraph's add_messages (append; same id
        replaces; RemoveMessage removes)."""
        reader = self.store.reader
        merged: dict[str, object] = {}
        order: list[str] = []
        counter = 0
        for cid in reader.top_level_ids(thread_id):
            for w in reader.writes_of(thread_id, "", cid, channel="messages"):
                values = w.decoded.value if isinstance(w.decoded.value, list) else [w.decoded.value]
                for value in values:
                    found = message_fields(value)
                    mid = str(found[1].get("id")) if found and found[1].get("id") else None
                    if found and found[0] == "RemoveMessage" and mid:
                        merged.pop(mid, None)
                        continue
                    if mid is None:
                        counter += 1
                        mid = f"#{counter}"
                    if mid not in merged:
                        order.append(mid)
                    merged[mid] = value
        return [merged[m] for m in order if m in merged]


def _json_kind(value) -> str:
    if isinstance(value, bool):
        return "true or false"
    kinds = {list: "a list", dict: "an object", int: "a number", float: "a number"}
    return kinds.get(type(value), "not text")


def _dedupe_ids(messages: list[Message]) -> list[Message]:
    """Message ids must be unique within a session (raw views and deep links use them)."""
    from dataclasses import replace

    seen: set[str] = set()
    out = []
    for i, m in enumerate(messages):
        if m.id in seen:
            m = replace(m, id=f"{m.id}#{i}")
        seen.add(m.id)
        out.append(m)
    return out


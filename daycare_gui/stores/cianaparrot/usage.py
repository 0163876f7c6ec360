"""CianaParrot through ``api.Usage``: the ``usage_metadata`` of each AIMessage in LangGraph's checkpoints.

Every checkpoint stores the whole message list again, and each message also sits in the write of the step
that made it, so the same response appears in many records. Per thread each message id is counted once:
from the ``messages`` writes (which keep messages a later step removed) and the latest checkpoint, keeping
the copy with the largest output count (a streamed response can be stored before its last chunk). LangChain's
``input_tokens`` includes cache reads and writes; they are split out here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from daycare_gui.stores.api import Usage
from daycare_gui.stores.cianaparrot.checkpoints import id_time_ms
from daycare_gui.stores.cianaparrot.decode import plain
from daycare_gui.stores.cianaparrot.messages import message_fields, messages_in
from daycare_gui.stores.common.token_counts import read_counts, token_count
from daycare_gui.stores.records import SessionRef, UsageRecord


def _found(value) -> tuple[str, dict, dict] | None:
    """(message id, usage, response metadata) of an AIMessage with usage, else None."""
    found = message_fields(value)
    if found is None or not (found[0].startswith("AIMessage") or found[0] == "ai"):  # (a plain dict says "ai")
        return None
    fields = found[1]
    usage = plain(fields.get("usage_metadata"))
    mid = fields.get("id")
    if not isinstance(usage, dict) or not mid:
        return None
    meta = plain(fields.get("response_metadata"))
    return str(mid), usage, meta if isinstance(meta, dict) else {}


def _record(chat: str, thread_id: str, mid: str, usage: dict, meta: dict, at: int | None) -> UsageRecord:
    details = usage.get("input_token_details")
    if not isinstance(details, dict):
        details = {}
    (total_in, out, read, written, hour), problem = read_counts({
        "input_tokens": usage.get("input_tokens"), "output_tokens": usage.get("output_tokens"),
        "cache_read": details.get("cache_read"), "cache_creation": details.get("cache_creation"),
        "ephemeral_1h_input_tokens": details.get("ephemeral_1h_input_tokens")})
    if problem:  # (counted apart, with no counts: see UsageRecord.problem)
        total_in = out = read = written = hour = 0
    hour = min(hour, written)  # Anthropic's one-hour writes
    uncached = max(total_in - read - written, 0)
    task = chat.removeprefix("scheduler_") if chat.startswith("scheduler_") else ""
    return UsageRecord(
        key=f"{thread_id}\t{mid}", at=at, provider=str(meta.get("model_provider") or ""),
        model=str(meta.get("model_name") or meta.get("model") or ""), input=uncached,
        output=out, cache_read=read, cache_write_5m=written - hour, cache_write_1h=hour,
        ref=SessionRef(chat, thread_id), message_id=mid, thread_title=chat, user="" if task else chat, task=task,
        estimated=False, problem=problem)


def _unread_thread(chat: str, thread_id: str, why: str) -> UsageRecord:
    """A thread (or part of it) whose messages cannot be read: its model calls are not known, so this one
    record stands for them, counted apart with no counts (see UsageRecord.problem)."""
    task = chat.removeprefix("scheduler_") if chat.startswith("scheduler_") else ""
    return UsageRecord(
        key=f"{thread_id}\t", at=None, provider="", model="", input=0, output=0, cache_read=0, cache_write_5m=0,
        cache_write_1h=0, ref=SessionRef(chat, thread_id), message_id="", thread_title=chat,
        user="" if task else chat, task=task, estimated=False,
        problem=f"its thread's messages cannot all be read, and this one stands for its model calls there, "
                f"however many: {why}")


class CianaUsage(Usage):
    source = ("the usage_metadata of each AIMessage in the checkpoints, each message id counted once per thread "
              "(every later checkpoint repeats it)")

    def __init__(self, store) -> None:
        self.store = store

    def records(self, since: int | None = None) -> Iterator[UsageRecord]:
        reader = self.store.reader
        if reader is None:
            return
        for thread_id, info in sorted(self.store.threads.items()):
            if not info.checkpoints:
                continue
            try:
                best, unread = self._thread(reader, thread_id)
            except sqlite3.Error as exc:
                best, unread = {}, f"the database could not be read ({exc})"
            for mid, (usage, meta, at) in best.items():
                if since is None or (at is not None and at >= since):
                    yield _record(info.chat, thread_id, mid, usage, meta, at)
            if unread:  # not left out without a word: one record counted apart, saying why
                yield _unread_thread(info.chat, thread_id, unread)

    def _thread(self, reader, thread_id: str) -> tuple[dict[str, tuple[dict, dict, int | None]], str]:
        """(each message id's usage, metadata and time; why part of the thread could not be read, or "")"""
        best: dict[str, tuple[dict, dict, int | None]] = {}
        unread: list[str] = []

        def keep(value, at) -> None:
            found = _found(value)
            if found is None:
                return
            mid, usage, meta = found
            seen = best.get(mid)
            if seen is None or (token_count(usage.get("output_tokens")) or 0) > (token_count(seen[0].get("output_tokens")) or 0):
                best[mid] = (usage, meta, seen[2] if seen is not None and seen[2] is not None else at)

        for cid in reader.top_level_ids(thread_id):
            for w in reader.writes_of(thread_id, "", cid, channel="messages"):
                value = w.decoded.value
                if w.decoded.problem and not isinstance(value, (list, dict)):  # (no message in it can be read)
                    unread.append(w.decoded.problem)
                    continue
                for item in value if isinstance(value, list) else [value]:
                    keep(item, id_time_ms(cid))
        latest = reader.latest(thread_id)
        if latest is not None:
            row, decoded = latest
            if decoded.problem and not isinstance(decoded.value, dict):
                unread.append(decoded.problem)
            cp = decoded.value if isinstance(decoded.value, dict) else {}
            values = cp.get("channel_values")
            items = messages_in(values.get("messages")) if isinstance(values, dict) else None
            for item in items or ():
                keep(item, row.at)
        return best, unread[0] if unread else ""

"""Messages for the shared full-text index, incrementally.

A cursor is ``<ms>|<c or l>|<thread id>|<position>``: the time the thread last changed (its latest
checkpoint id's time, or its log file's modification time), then checkpoint (``c``) or log (``l``)
messages of that thread in order. A thread that gains messages gets a later time and is offered again
whole, so the index should replace what it holds for that session (messages keep their ids).
"""

from __future__ import annotations

from collections.abc import Iterator

from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.cianaparrot.checkpoints import id_time_ms
from daycare_gui.stores.records import Message, SessionRef


class CianaSearch(SearchSource):
    def __init__(self, store, conversations) -> None:
        self.store, self.conv = store, conversations

    def identity(self) -> str:
        return f"cianaparrot:{self.store.layout.root or self.store.layout.db}"

    def location(self) -> str:
        return str(self.store.layout.root or self.store.layout.db)

    def _sources(self) -> list[tuple[str, str, object]]:
        out = []
        for info in self.store.threads.values():
            if info.checkpoints:
                out.append((f"{id_time_ms(info.latest) or 0:015d}|c|{info.id}", info.id, info))
            if info.logs:  # a thread's logs are read merged: one source per thread
                stamp = max(_mtime_ms(log.path) for log in info.logs)
                out.append((f"{stamp:015d}|l|{info.id}", "log:" + info.id, info))
        return sorted(out, key=lambda s: s[0] + "|")  # the order of the cursors built from them

    def messages(self, after: str | None) -> Iterator[tuple[str, SessionRef, Message]]:
        for prefix, session_id, info in self._sources():
            if after is not None and prefix + "|999999" <= after:
                continue
            ref = SessionRef(info.chat, session_id)
            start = 0
            while True:
                page = self.conv.messages(ref, start, 200)
                for i, msg in enumerate(page, start):
                    cursor = f"{prefix}|{i:06d}"
                    if after is None or cursor > after:
                        yield cursor, ref, msg
                if len(page) < 200:
                    break
                start += 200


def _mtime_ms(path) -> int:
    try:
        return int(path.stat().st_mtime * 1000)
    except OSError:
        return 0

"""A store kind that exists only in the tests: proof that the seam is real.

A "chatlog" store is a folder holding a ``CHATLOG`` marker and ``<thread>/<session>.jsonl`` files, one
message per line: ``{"role", "text", "at", "calls": [{"id", "name", "args"}], "answers": "<call id>"}``.
It plugs in through the ``daycare_gui.store_kinds`` entry point like an outside package would, and uses
only the public contract: ``daycare_gui.stores.api``, ``.records`` and ``.common``. Its search feed orders
every message by (time, file, line), so a line appended later with a later time comes after the rest.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from daycare_gui.stores.api import (
    Candidate,
    Conversations,
    NotRecognised,
    OpenedStore,
    SearchSource,
    StoreKind,
)
from daycare_gui.stores.common.files.jsonl import iter_jsonl
from daycare_gui.stores.records import (
    Message,
    SessionRecord,
    SessionRef,
    StoreSummary,
    ThreadRecord,
    ToolCallRecord,
    ToolResultRecord,
)


def _message(index: int, obj: dict) -> Message:
    calls = tuple(ToolCallRecord(c.get("id", ""), c.get("name", ""), c.get("args")) for c in obj.get("calls", []))
    answer = obj.get("answers")
    result = ToolResultRecord(answer, obj.get("tool", ""), obj.get("text", "")) if answer else None
    return Message(id=str(index), role=obj.get("role", "other"), text="" if result else obj.get("text", ""),
                   at=obj.get("at"), tool_calls=calls, tool_result=result, raw=obj)


class ChatlogConversations(Conversations):
    thread_label = "Chats"

    def __init__(self, store: ChatlogStore) -> None:
        self.store = store

    def threads(self) -> list[ThreadRecord]:
        root = self.store.root
        return [ThreadRecord(d.name, d.name.title(), session_count=len(list(d.glob("*.jsonl"))))
                for d in sorted(root.iterdir()) if d.is_dir()]

    def sessions(self, thread_id: str) -> list[SessionRecord]:
        folder = self.store.root / thread_id
        return [SessionRecord(SessionRef(thread_id, f.stem), f.stem, message_count=self._count(f))
                for f in sorted(folder.glob("*.jsonl"))]

    def _count(self, path: Path) -> int:
        return sum(1 for _ in iter_jsonl(path, self.store.problems))

    def message_count(self, ref: SessionRef) -> int:
        return self._count(self.store.root / ref.thread_id / f"{ref.session_id}.jsonl")

    def growth_paths(self, ref: SessionRef) -> tuple[Path, ...]:
        return (self.store.root / ref.thread_id / f"{ref.session_id}.jsonl",)

    def growth_token(self, ref: SessionRef):
        try:
            st = os.stat(self.growth_paths(ref)[0])
        except OSError:
            return None
        return st.st_size, st.st_mtime_ns

    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        path = self.store.root / ref.thread_id / f"{ref.session_id}.jsonl"
        out = []
        for i, (_line, obj) in enumerate(iter_jsonl(path)):
            if i >= start + limit:
                break
            if i >= start:
                out.append(_message(i, obj))
        return out


class ChatlogSearch(SearchSource):
    """Cursor: ``<time ms, 13 digits>|<thread>/<session>|<line, 6 digits>``."""

    def __init__(self, store: ChatlogStore) -> None:
        self.store = store

    def identity(self) -> str:
        return f"chatlog:{self.store.root.resolve()}"

    def messages(self, after):
        found = []
        for path in sorted(self.store.root.glob("*/*.jsonl")):
            ref = SessionRef(path.parent.name, path.stem)
            for i, (_line, obj) in enumerate(iter_jsonl(path)):
                at = obj.get("at") if isinstance(obj.get("at"), int) else 0
                found.append((f"{at:013d}|{ref.thread_id}/{ref.session_id}|{i:06d}", ref, _message(i, obj)))
        for item in sorted(found, key=lambda x: x[0]):
            if after is None or item[0] > after:
                yield item


class ChatlogStore(OpenedStore):
    kind = "chatlog"

    def __init__(self, root: Path) -> None:
        super().__init__(str(root))
        self.root = root
        self.offer(Conversations, ChatlogConversations(self))
        self.offer(SearchSource, ChatlogSearch(self))

    def summary(self) -> StoreSummary:
        return StoreSummary(self.kind, "v1", self.title)

    def counts(self) -> dict[str, int]:
        conv = ChatlogConversations(self)
        threads = conv.threads()
        return {"threads": len(threads), "sessions": sum(t.session_count or 0 for t in threads)}


class ChatlogKind(StoreKind):
    name = "chatlog"
    title = "Chatlog"

    def probe(self, path) -> Candidate:
        root = Path(os.fspath(path))
        if (root / "CHATLOG").is_file():
            return Candidate(self.name, 1.0, "a chatlog folder (CHATLOG marker)")
        return Candidate(self.name, 0.0, "no CHATLOG marker")

    def open(self, path, *, live: bool = True) -> OpenedStore:
        root = Path(os.fspath(path))
        if not (root / "CHATLOG").is_file():
            raise NotRecognised(f"{root} has no CHATLOG marker")
        return ChatlogStore(root)


KIND = ChatlogKind()


def write_chatlog(root: Path) -> Path:
    """A small chatlog store: one chat with a tool call answered, one with two sessions."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "CHATLOG").write_text("1\n")
    (root / "ops").mkdir()
    lines = [
        {"role": "user", "text": "Is the **deploy** done?", "at": 1767225600000},
        {"role": "assistant", "text": "Checking.", "at": 1767225601000,
         "calls": [{"id": "c1", "name": "deploy_status", "args": {"env": "prod"}}]},
        {"role": "tool", "tool": "deploy_status", "answers": "c1", "text": "green: 42 pods", "at": 1767225602000},
        {"role": "assistant", "text": "Yes, prod is green.", "at": 1767225603000},
    ]
    (root / "ops" / "s1.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (root / "home").mkdir()
    (root / "home" / "a.jsonl").write_text(json.dumps({"role": "user", "text": "hello"}) + "\n")
    (root / "home" / "b.jsonl").write_text(json.dumps({"role": "user", "text": "again"}) + "\n{broken\n")
    return root

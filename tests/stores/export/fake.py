"""A Conversations capability over messages made in the test, counting what the exporter asks for."""

from __future__ import annotations

from daycare_gui.stores.api import Conversations
from daycare_gui.stores.records import (
    Message,
    SessionRecord,
    SessionRef,
    ThreadRecord,
    ToolCallRecord,
    ToolResultRecord,
)

# Shaped like a real provider key, so every masking rule that looks at values or shapes has to catch it.
FAKE_KEY = "sk-ant-api03-PLANTEDfakeKEY0123456789abcdefXYZ"
REF = SessionRef("agent-1", "sess-1")


def planted_messages() -> list[Message]:
    """A short conversation with the fake key everywhere a key ends up in real stores."""
    return [
        Message("1", "user", f"my key is {FAKE_KEY}, please set it up", at=1767225600000, kind="user_message",
                raw={"text": f"my key is {FAKE_KEY}, please set it up"}),
        Message("2", "assistant", "Setting it.", at=1767225601000, kind="assistant_message",
                tool_calls=(ToolCallRecord("c1", "write_env", {"api_key": FAKE_KEY, "path": ".env"}),
                            ToolCallRecord("c2", "exec", f"export OPENAI_API_KEY={FAKE_KEY}")),
                raw={"toolCalls": [{"id": "c1", "arguments": {"api_key": FAKE_KEY}},
                                   {"id": "c2", "arguments": f"export OPENAI_API_KEY={FAKE_KEY}"}],
                     "note": f'{{"apiKey": "{FAKE_KEY}"}}'}),
        Message("3", "tool", "", at=1767225602000, kind="tool_result",
                tool_result=ToolResultRecord("c1", "write_env", f"wrote .env: ANTHROPIC_API_KEY={FAKE_KEY}"),
                raw={"output": f"curl -H 'Authorization: Bearer {FAKE_KEY}' postgres://me:{FAKE_KEY}@db/x"}),
        Message("4", "assistant", "Done; the key is stored.", at=1767225603000, raw={"text": "Done"}),
    ]


def tricky_messages() -> list[Message]:
    """Text that breaks naive writers: fences inside results, HTML, a heading-like line, no time."""
    return [
        Message("a", "user", "<script>alert(1)</script> & <img src='http://x/y.png'> ok", at=1767225600000,
                raw={"text": "<script>"}),
        Message("b", "assistant", "## Plan\nHere:\n\n```python\nprint(1)\n```\n", at=None,
                tool_calls=(ToolCallRecord("k1", "run", {"code": "print('```')\n" * 3}),),
                raw={"n": 1}),
        Message("c", "tool", "", tool_result=ToolResultRecord("k1", "run", "````\nx" * 5000, is_error=True),
                raw=None),
        Message("d", "alien", "a\u2028b\u2029c", at=1767225605000, author="bot", recipient="alice",
                raw={"text": "a\u2028b\u2029c"}),
    ]


class FakeConversations(Conversations):
    def __init__(self, messages: list[Message] | None = None, *, count: int | None = None, make=None) -> None:
        self._messages = messages
        self._count = len(messages) if messages is not None else int(count or 0)
        self._make = make  # position → Message, for sessions too big to build as a list
        self.asked: list[tuple[int, int]] = []

    def threads(self) -> list[ThreadRecord]:
        return [ThreadRecord(REF.thread_id, "Helper agent")]

    def sessions(self, thread_id: str) -> list[SessionRecord]:
        return [SessionRecord(REF, "Setup session")] if thread_id == REF.thread_id else []

    def message_count(self, ref: SessionRef) -> int:
        return self._count if ref == REF else 0

    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        self.asked.append((start, limit))
        if ref != REF:
            return []
        stop = min(self._count, start + limit)
        if self._messages is not None:
            return self._messages[start:stop]
        return [self._make(i) for i in range(start, stop)]

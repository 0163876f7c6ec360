"""Every secret pattern the masker knows stays masked in every export format (issue #32): in a message's
text, its stored record, a tool call's arguments and a tool's output."""

from __future__ import annotations

import io

import pytest

from daycare_gui.stores.common.export import FORMATS, export_session
from daycare_gui.stores.records import Message, ToolCallRecord, ToolResultRecord
from tests.secret_samples import SAMPLES, leaked
from tests.stores.export.fake import REF, FakeConversations


def _messages(text: str) -> list[Message]:
    return [
        Message("1", "user", text, at=1767225600000, kind="user_message", raw={"text": text}),
        Message("2", "assistant", "Running it.", at=1767225601000, kind="assistant_message",
                tool_calls=(ToolCallRecord("c1", "shell", text), ToolCallRecord("c2", "shell", {"cmd": text})),
                raw={"toolCalls": [{"id": "c1", "arguments": text}, {"id": "c2", "arguments": {"cmd": text}}]}),
        Message("3", "tool", "", at=1767225602000, kind="tool_result",
                tool_result=ToolResultRecord("c1", "shell", text), raw={"output": text}),
    ]


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_every_known_secret_is_masked_in_every_format(sample, fmt):
    out = io.StringIO()
    export_session(FakeConversations(_messages(sample.text)), REF, fmt, out)
    text = out.getvalue()
    assert leaked(text) == []
    assert "••••••••" in text and f"planted {sample.name} says" in text  # masked, the rest kept

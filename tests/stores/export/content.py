"""What a record holds must come out of a readable export: each stored string's words, in Markdown and in
HTML, for every record of every session of a store (issue 34, item 1: a Daycare ``rlm_tool_call`` came out
as a bare heading, its tool name, arguments and print output lost).

A record's content is every string in its stored value (``raw``), JSON inside a string included, except
what names or dates the record rather than says something (the keys in ``NOT_CONTENT``). The words of
each string (letters and digits, three or more, secrets masked as every export masks them) must appear in
the export of that record alone."""

from __future__ import annotations

import io
import json
import re
from collections import Counter

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.export import export_session
from daycare_gui.stores.common.secrets import mask_free_text

NOT_CONTENT = {
    # names, times and enumerations that say what a record is, not what it holds
    "id", "type", "role", "status", "timestamp", "ts", "at", "createdAt", "toolCallId", "tool_call_id",
    "call_id", "agent_id", "from_id", "to_id", "user_id", "channel", "provider", "model", "mimeType", "path",
    # LangChain's class path of a serialized message (CianaParrot): how it is stored, not what it says; the
    # model and provider under LangChain's names, and why the model stopped (an enumeration)
    "$kind", "module", "method", "model_name", "model_provider", "stop_reason",
    # Daycare: the Python VM's state (opaque base64), the tool stubs prepended to every Python run (the
    # same text each time), and a tool's structured copy of the text result that is exported
    "snapshot", "preamble", "typedResult",
}
# keys that name what a count is only inside one object: Daycare's ``tokens.source`` ("usage" or "estimate")
NOT_CONTENT_IN = {("tokens", "source")}
_WORD = re.compile(r"[A-Za-z0-9]{3,}")


def _strings(value, key: str = ""):
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in NOT_CONTENT and (key, k) not in NOT_CONTENT_IN:
                yield from _strings(v, str(k))
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v, key)
    elif isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in "{[":
            try:
                yield from _strings(json.loads(stripped), key)
                return
            except ValueError:
                pass
        yield key, value


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text))


def _shown(text: str) -> set[str]:
    # arguments are shown as JSON: a string's line breaks and quotes are escaped there
    return _words(text.replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"'))


def assert_every_record_content_exported(path, *, kind: str | None = None) -> Counter:
    """Every record of every session of the store at ``path``; returns how many of each record type were
    checked (so a test can say every type was)."""
    checked: Counter = Counter()
    lost: list[str] = []
    with registry.open_store(str(path), kind=kind, live=False) as store:
        cap = store.capability(api.Conversations)
        assert cap is not None
        for thread in cap.threads():
            for session in cap.sessions(thread.id):
                for m in cap.messages(session.ref, 0, 100_000):
                    checked[m.kind or m.role] += 1
                    for fmt in ("md", "html"):
                        out = io.StringIO()
                        assert export_session(cap, session.ref, fmt, out, ids=[m.id]) == 1
                        shown = _shown(out.getvalue())
                        for key, text in _strings(m.raw if m.raw is not None else {}):
                            missing = _words(mask_free_text(text)) - shown
                            if missing:
                                lost.append(f"{fmt}: record {m.id} ({m.kind}) {key}: {sorted(missing)[:5]}")
    assert not lost, "content missing from the export:\n" + "\n".join(lost[:20])
    return checked

"""Daycare's history records (SQLite rows and legacy ``history.jsonl`` lines alike) as the contract's
:class:`Message`: one decoding every generation's conversations share, so a record reads the same
wherever it was stored."""

from __future__ import annotations

from daycare_gui.stores.daycare.records.history import HistoryRecord
from daycare_gui.stores.records import Message, ToolCallRecord, ToolResultRecord

ROLE_OF_TYPE = {
    "user_message": "user", "assistant_message": "assistant", "tool_result": "tool", "note": "note",
    "assistant_rewrite": "assistant", "start": "event", "reset": "event",
}


def _utc(ms: int) -> str:
    import datetime as _dt

    try:
        return _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (OverflowError, OSError, ValueError):
        return str(ms)


def _facts(rec: HistoryRecord, size: int | None) -> tuple[tuple[str, str], ...]:
    """What the detail pane lists beside a record (the old History pane's fields), as labelled text. Made
    for every record a list paints: plain ifs, most records have two or three of these."""
    facts = [("Session", rec.session_id)] if rec.session_id else []
    if rec.tool_call_id:
        facts.append(("Tool call id", rec.tool_call_id))
    if rec.tool_name:
        facts.append(("Tool", rec.tool_name))
    if rec.reason:
        facts.append(("Reason", rec.reason))
    if rec.assistant_at:
        facts.append(("Rewrites message at", _utc(rec.assistant_at)))
    if size is not None:
        facts.append(("Stored size", f"{size:,} bytes"))
    if rec.tokens is not None:
        facts += [("Model", f"{rec.tokens.provider} / {rec.tokens.model}"),
                  ("Tokens", "cannot be read" if rec.tokens_problem() else f"{rec.tokens.size.total:,}")]
    if rec.files:
        facts += [("File", f"{f.name} · {f.mime_type} · {f.size:,} bytes · {f.path}") for f in rec.files]
    if rec.type == "rlm_tool_call":
        facts.append(("Note", "the VM snapshot is left out here; Raw JSON shows it"))
    return tuple(facts)


def message_parts(rec: HistoryRecord) -> tuple[str, str, tuple[ToolCallRecord, ...], ToolResultRecord | None]:
    """(role, text, tool calls, tool result) of the message :func:`message_of` makes of ``rec``: what the search
    index reads of it (``SearchSource.index_rows``), made without the rest."""
    result = None
    if rec.type in ("tool_result", "rlm_tool_result") and rec.tool_call_id:
        result = ToolResultRecord(rec.tool_call_id, rec.tool_name or "", rec.tool_output_text or rec.output or "",
                                  rec.is_error)
    text = rec.text or ""
    if not text and rec.type not in ("tool_result",):
        text = rec.code or rec.output or rec.error or rec.reset_message or ""
    if rec.type == "rlm_complete" and rec.is_error and rec.error and rec.error not in text:
        text = "\n\n".join(t for t in (text, rec.error) if t)
    if rec.type == "assistant_rewrite" and rec.reason:  # why Daycare rewrote the message is part of it
        text = "\n\n".join(t for t in (text, f"*Rewritten: {rec.reason}*") if t)
    if rec.print_output:  # what the Python run printed (so far, for a call inside it)
        text = "\n\n".join(t for t in (text, "Printed:\n\n" + "\n".join(rec.print_output)) if t)
    calls = tuple(ToolCallRecord(c.id, c.name, c.arguments) for c in rec.tool_calls)
    if rec.type == "rlm_tool_call":  # a tool the Python code called: its name and arguments. The id the
        # record carries is the run's (the run_python call's), not this call's: it pairs with no result.
        calls = (ToolCallRecord("", rec.tool_name or "tool", rec.data.get("toolArgs")),)
    if rec.type == "rlm_tool_result" and result is not None:  # likewise: the step after its call, unpaired
        result = ToolResultRecord("", result.name, result.text, result.is_error)
    return ROLE_OF_TYPE.get(rec.type, "tool" if rec.is_rlm else "event"), text, calls, result


def message_of(rec: HistoryRecord, problem: str | None = None, size: int | None = None) -> Message:
    """A Daycare history record as a neutral message (``kind`` keeps Daycare's record type). ``problem``:
    why its stored data did not parse; ``size``: how big it is as stored (the detail pane says both)."""
    role, text, calls, result = message_parts(rec)
    return Message(
        id=str(rec.id) if rec.id is not None else "",
        role=role,
        text=text,
        at=rec.at,
        kind=rec.type,
        tool_calls=calls,
        tool_result=result,
        attachments=tuple(f.name for f in rec.files),
        meta=_facts(rec, size),
        part_of=(rec.tool_call_id or "") if rec.is_rlm else "",  # a step of the Python run its call started
        model=rec.tokens.model if rec.tokens is not None else "",
        tokens=rec.tokens.size.total if rec.tokens is not None and not rec.tokens_problem() else None,
        rewrites_at=rec.assistant_at if rec.type == "assistant_rewrite" else None,
        raw=rec.data,
        problem=problem or rec.read_problem(),
    )


def with_problem(msg: Message, problem: str) -> Message:
    from dataclasses import replace

    return replace(msg, problem=problem)

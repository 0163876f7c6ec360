"""Neutral conversation messages (``stores.records.Message``) as HTML for a SafeTextBrowser.

Pure string building. Colours come from the widget's palette (a tint of the base colour toward an
accent), so the view reads well in light and dark palettes alike. Tool results are drawn under the call
they answer when both are on the page; ``raw:<message id>`` links show the stored value.
"""

from __future__ import annotations

import json

from PySide6.QtGui import QColor, QPalette

from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.stores.records import Message
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.message_pages import KINDS
from daycare_gui.ui.theme import colours
from daycare_gui.ui.widgets.markdown_view import escape, markdown_html

ACCENTS = {"user": "#1d6fd6", "assistant": "#888888", "tool": "#2e9d47", "system": "#a86b00",
           "note": "#b59f00", "event": "#777777", "other": "#777777",
           # families of a store's own record types (message_pages.KINDS): a Python run, a rewrite, a marker
           "rlm": "#6a3fa0", "rewrite": "#a86b00", "marker": "#777777"}


def _mix(base: QColor, accent: str, amount: float) -> str:
    a = QColor(accent)
    r = round(base.red() * (1 - amount) + a.red() * amount)
    g = round(base.green() * (1 - amount) + a.green() * amount)
    b = round(base.blue() * (1 - amount) + a.blue() * amount)
    return QColor(r, g, b).name()


def _args(value) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, indent=1) if value is not None else ""
    except (TypeError, ValueError):
        return str(value)


def _pre(text: str, limit: int = 20_000) -> str:
    if len(text) > limit:
        text = text[:limit] + f"\n… ({len(text) - limit:,} more characters: see raw)"
    return f"<pre>{escape(mask_free_text(text))}</pre>"


def messages_html(messages: list[Message], palette: QPalette, *, focus: str | None = None,
                  partners: dict[str, Message] | None = None) -> str:
    """``partners``: tool results (by call id) read beyond the messages drawn, shown under their calls."""
    c = colours(palette)  # secondary text and errors readable (WCAG AA) on the base and every tint
    base = palette.color(QPalette.ColorRole.Base)
    text = c.text
    muted = c.meta
    results = dict(partners or {})
    results.update((m.tool_result.call_id, m) for m in messages if m.tool_result is not None)
    drawn: set[str] = set()
    parts = [f"<html><head><style>pre {{ white-space: pre-wrap; margin: 2px 0; }} "
             f".meta {{ color: {muted}; }} .err {{ color: {c.error}; }} a {{ text-decoration: none; }}"
             f"</style></head><body style='color: {text};'>"]
    for m in messages:
        if m.tool_result is not None and m.tool_result.call_id in drawn:
            continue  # already drawn under its call
        # a tool result drawn under its call highlights the call's block
        answers = (results[c.id].id for c in m.tool_calls if c.id in results)
        parts.append(_message(m, base, results, drawn, muted, focus=focus is not None and (
            focus == m.id or focus in answers)))
    parts.append("</body></html>")
    return "".join(parts)


def _head(m: Message) -> str:
    who = m.role
    if m.author or m.recipient:
        who = f"{m.author or m.role} → {m.recipient}" if m.recipient else (m.author or m.role)
    # a record type the list names ("Python → tool") reads the same here; others as the store says them
    kind = f" · {escape(KINDS[m.kind][1] if m.kind in KINDS else m.kind)}" if m.kind and m.kind != m.role else ""
    when = f" · {fmt_time(m.at)}" if m.at is not None else ""
    # the store's id, named so: a bare number would read as the message's place in the session
    ident = f" · id {escape(m.id)}" if m.id else ""
    return (f"<a name='m{escape(m.id)}'></a><span class='meta'><b>{escape(who)}</b>{kind}{when}{ident} · "
            f"<a href='raw:{escape(m.id)}'>raw</a></span>")


def _message(m: Message, base: QColor, results: dict, drawn: set, muted: str, *, focus: bool) -> str:
    accent = ACCENTS.get(KINDS[m.kind][0] if m.kind in KINDS else m.role, ACCENTS["other"])
    bg = _mix(base, accent, 0.12)
    inner = [_head(m)]
    if m.problem:
        inner.append(f"<div class='err'>{escape(mask_free_text(m.problem))}</div>")
    if m.tool_result is not None:
        inner.append(_result(m))
    elif m.text:
        inner.append(markdown_html(m.text))
    for name in m.attachments:
        inner.append(f"<div class='meta'>📎 {escape(name)}</div>")
    for call in m.tool_calls:
        inner.append(f"<div><b>→ {escape(call.name)}</b>{_pre(_args(call.arguments))}</div>")
        answer = results.get(call.id)
        if answer is not None:
            drawn.add(call.id)
            inner.append(f"<div style='margin-left: 12px'>{_head(answer)}{_result(answer)}</div>")
        else:
            inner.append("<div class='meta'>no result on this page</div>")
    border = f" style='border: 2px solid {accent};'" if focus else ""
    return (f"<table width='100%' cellspacing='0' cellpadding='6' bgcolor='{bg}'{border}>"
            f"<tr><td>{''.join(inner)}</td></tr></table><p style='margin:2px'></p>")


def _result(m: Message) -> str:
    r = m.tool_result
    label = "error" if r.is_error else "result"
    cls = " class='err'" if r.is_error else ""
    return f"<div{cls}><b>{escape(r.name or 'tool')} {label}</b>{_pre(r.text)}</div>"


def message_anchors(document) -> list[tuple[int, str]]:
    """Where each message starts in the rendered page, with its id, in document order.

    A message starts at its ``m<id>`` anchor, or just before the table drawn around it when it is the first
    anchor in that table (a selection across messages snaps to whole tables, so it starts there); a tool
    result drawn inside its call's table starts at its own anchor.
    """
    from PySide6.QtGui import QTextCursor

    found: list[tuple[int, str]] = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.isValid():
                for name in fragment.charFormat().anchorNames():
                    if name.startswith("m"):
                        found.append((fragment.position(), name[1:]))
            it += 1
        block = block.next()
    cursor = QTextCursor(document)
    starts: list[tuple[int, str]] = []
    for position, message_id in found:
        cursor.setPosition(position)
        table = cursor.currentTable()
        start = position
        if table is not None and not (starts and starts[-1][0] >= table.firstPosition() - 1):
            start = min(position, table.firstPosition() - 1)
        starts.append((start, message_id))
    return starts

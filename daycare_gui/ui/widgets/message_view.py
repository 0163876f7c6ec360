"""Neutral conversation messages (``stores.records.Message``) as HTML for a SafeTextBrowser.

Pure string building. Colours come from the widget's palette (a tint of the base colour toward an
accent), so the view reads well in light and dark palettes alike. Tool results are drawn under the call
they answer when both are on the page, a rewritten message beside its rewrite, and a message's heading says
the model and tokens of its turn; ``raw:<message id>`` links show the stored value.
"""

from __future__ import annotations

import json
from urllib.parse import quote, unquote

from PySide6.QtGui import QColor, QPalette

from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.stores.common.unread import stored_only
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
                  partners: dict[str, Message] | None = None, expanded=frozenset(),
                  steps: list[Message] | tuple = (), rewrites: dict[str, Message] | None = None,
                  rewritten: dict[str, Message] | None = None, more_before: bool = False,
                  more_after: bool = False) -> str:
    """``partners``: tool results (by call id) read beyond the messages drawn, shown under their calls;
    ``steps``: steps of the calls' runs read beyond them, likewise; ``rewrites``: a message's id → the
    message that rewrote it later, ``rewritten``: a rewrite's id → the message it rewrote (each shown
    with the other: what the user was first sent and what it became).
    Steps of a call's run (``Message.part_of``) are drawn inside that call, folded unless the call's id is
    in ``expanded`` (a ``run:<call id>`` link toggles it)."""
    c = colours(palette)  # secondary text and errors readable (WCAG AA) on the base and every tint
    base = palette.color(QPalette.ColorRole.Base)
    text = c.text
    muted = c.meta
    results = dict(partners or {})
    results.update((m.tool_result.call_id, m) for m in messages
                   if m.tool_result is not None and m.tool_result.call_id)
    runs: dict[str, list[Message]] = {}
    for m in (*messages, *steps):
        if m.part_of:
            runs.setdefault(m.part_of, []).append(m)
    calls_here = {c.id for m in messages for c in m.tool_calls if c.id}
    page = _Page(base, results, runs, frozenset(expanded), muted, focus)
    page.rewrites, page.rewritten = rewrites or {}, rewritten or {}
    parts = [f"<html><head><style>pre {{ white-space: pre-wrap; margin: 2px 0; }} "
             f".meta {{ color: {muted}; }} .err {{ color: {c.error}; }} a {{ text-decoration: none; }}"
             f"</style></head><body style='color: {text};'>"]
    if more_before:  # (the list beside it goes on: the conversation is a window on it, not the session)
        parts.append("<p class='meta'>… earlier messages: scroll the list up</p>")
    for m in messages:
        if m.tool_result is not None and m.tool_result.call_id in page.drawn:
            continue  # already drawn under its call
        if m.part_of:
            if m.part_of in calls_here or m.part_of in page.drawn_runs:
                continue  # drawn inside its call, or with the run's first step
            page.drawn_runs.add(m.part_of)
            parts.append(page.box(m, _run(page, m.part_of), focus=any(s.id == focus for s in runs[m.part_of])))
            continue
        # a tool result drawn under its call highlights the call's block
        answers = (results[c.id].id for c in m.tool_calls if c.id in results)
        parts.append(_message(page, m, focus=focus is not None and (focus == m.id or focus in answers)))
    if more_after:
        parts.append("<p class='meta'>… later messages: scroll the list down</p>")
    parts.append("</body></html>")
    return "".join(parts)


class _Page:
    """What drawing one page's messages shares: colours, pairs found, runs, and what was drawn already."""

    def __init__(self, base: QColor, results: dict, runs: dict, expanded: frozenset, muted: str, focus) -> None:
        self.base, self.results, self.runs, self.expanded, self.muted = base, results, runs, expanded, muted
        self.focus = focus
        self.drawn: set[str] = set()  # call ids whose result was drawn under them
        self.drawn_runs: set[str] = set()
        self.rewrites: dict[str, Message] = {}
        self.rewritten: dict[str, Message] = {}

    def box(self, m: Message, inner: str, *, focus: bool) -> str:
        accent = ACCENTS.get(KINDS[m.kind][0] if m.kind in KINDS else m.role, ACCENTS["other"])
        border = f" style='border: 2px solid {accent};'" if focus else ""
        return (f"<table width='100%' cellspacing='0' cellpadding='6' bgcolor='{_mix(self.base, accent, 0.12)}'"
                f"{border}><tr><td>{inner}</td></tr></table><p style='margin:2px'></p>")


def run_url(call_id: str) -> str:
    return "run:" + quote(call_id, safe="")


def call_id_of_run_url(path: str) -> str:
    return unquote(path)


def _run(page: _Page, call_id: str) -> str:
    """The steps of one call's run: a line saying how many and how it ended, and the steps when open."""
    steps = page.runs.get(call_id, [])
    calls = sum(len(s.tool_calls) for s in steps)
    failed = any(s.problem or (s.tool_result is not None and s.tool_result.is_error) for s in steps)
    open_ = call_id in page.expanded
    anchors = "" if open_ else "".join(f"<a name='m{escape(s.id)}'></a>" for s in steps)
    line = (f"{anchors}<span class='meta'><b>Run</b> · {len(steps):,} step{'s' if len(steps) != 1 else ''} · "
            f"{calls:,} tool call{'s' if calls != 1 else ''}{' · failed' if failed else ''} · </span>"
            f"<a href='{run_url(call_id)}'>{'collapse ▾' if open_ else 'expand ▸'}</a>")
    if not open_:
        last = steps[-1].summary(200) if steps else ""
        return line + (f"<div class='meta'>{escape(mask_free_text(last))}</div>" if last else "")
    return line + "".join(_message(page, s, focus=s.id == page.focus) for s in steps)


def _head(m: Message) -> str:
    who = m.role
    if m.author or m.recipient:
        who = f"{m.author or m.role} → {m.recipient}" if m.recipient else (m.author or m.role)
    # a record type the list names ("Python → tool") reads the same here; others as the store says them
    kind = f" · {escape(KINDS[m.kind][1] if m.kind in KINDS else m.kind)}" if m.kind and m.kind != m.role else ""
    when = f" · {fmt_time(m.at)}" if m.at is not None else ""
    # the store's id, named so: a bare number would read as the message's place in the session
    ident = f" · id {escape(m.id)}" if m.id else ""
    return (f"<a name='m{escape(m.id)}'></a><span class='meta'><b>{escape(who)}</b>{kind}{when}{_spent(m)}"
            f"{ident} · <a href='raw:{escape(m.id)}'>raw</a></span>")


def _spent(m: Message) -> str:
    """The model that wrote the message and the tokens its turn took, where the store says."""
    model = f" · {escape(m.model)}" if m.model else ""
    tokens = f" · {m.tokens:,} token{'s' if m.tokens != 1 else ''}" if m.tokens is not None else ""
    return model + tokens


def _rewrite_of(page: _Page, m: Message) -> str:
    """A rewrite shows what it rewrote (muted) above what it says now."""
    original = page.rewritten.get(m.id)
    if original is None:
        when = fmt_time(m.rewrites_at) if m.rewrites_at else "?"
        return (f"<div class='meta'>Rewrites the message sent at {escape(when)}, which is not near this one.</div>"
                "<div class='meta'>Rewritten to:</div>")
    return (f"<div class='meta'>Original (id {escape(original.id)}, {escape(fmt_time(original.at))}):</div>"
            f"<div class='meta'>{markdown_html(original.text)}</div><div class='meta'>Rewritten to:</div>")


def _rewritten_later(page: _Page, m: Message) -> str:
    """A message rewritten later shows what it became, under what it said first."""
    rewrite = page.rewrites.get(m.id)
    if rewrite is None:
        return ""
    return (f"<div class='meta'>✎ Rewritten later (id {escape(rewrite.id)}, {escape(fmt_time(rewrite.at))}) "
            f"to:</div>{markdown_html(rewrite.text)}")


def _message(page: _Page, m: Message, *, focus: bool) -> str:
    inner = [_head(m)]
    if m.problem:
        inner.append(f"<div class='err'>{escape(mask_free_text(m.problem))}</div>")
    stored = stored_only(m)
    if stored is not None:  # (a record no reader could read: what it holds, not only why)
        inner.append(f"<div class='meta'>The record as stored:</div>{_pre(stored)}")
    if m.rewrites_at is not None:
        inner.append(_rewrite_of(page, m))
    if m.tool_result is not None:
        inner.append(_result(m))
    elif m.text:
        inner.append(markdown_html(m.text))
    inner.append(_rewritten_later(page, m))
    for name in m.attachments:
        inner.append(f"<div class='meta'>📎 {escape(name)}</div>")
    for call in m.tool_calls:
        ran = bool(call.id) and call.id in page.runs
        # a call that ran code shows it in its run's first step: its arguments are not repeated
        inner.append(f"<div><b>→ {escape(call.name)}</b>{'' if ran else _pre(_args(call.arguments))}</div>")
        if ran:  # the code this call ran, step by step
            inner.append(page.box(page.runs[call.id][0], _run(page, call.id),
                                  focus=any(s.id == page.focus for s in page.runs[call.id])))
        answer = page.results.get(call.id) if call.id else None
        if answer is not None:
            page.drawn.add(call.id)
            inner.append(f"<div style='margin-left: 12px'>{_head(answer)}{_result(answer)}</div>")
        elif call.id:
            inner.append("<div class='meta'>no result on this page</div>")
    return page.box(m, "".join(inner), focus=focus)


def _result(m: Message) -> str:
    r = m.tool_result
    label = "error" if r.is_error else "result"
    cls = " class='err'" if r.is_error else ""
    return f"<div{cls}><b>{escape(r.name or 'tool')} {label}</b>{_pre(r.text)}</div>"

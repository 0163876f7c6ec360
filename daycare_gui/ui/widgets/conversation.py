"""A :class:`ConversationWindow` rendered as conversation HTML for a :class:`SafeTextBrowser`.

Pure string building (no widgets), so it is cheap to re-render when a run is collapsed or expanded. Colours
come from :mod:`daycare_gui.ui.theme` for the view's palette, so a dark desktop theme reads as well as a light.
Bodies are Markdown through ``markdown_html`` (raw HTML off); everything else is escaped here. Links
use private schemes the pane handles in ``anchorClicked``: ``raw:<record id>`` shows the stored JSON,
``rlm:<toolCallId>`` collapses or expands one Python run.
"""

from __future__ import annotations

import json
from urllib.parse import quote, unquote

from daycare_gui.core.queries.history_pages import ConversationWindow
from daycare_gui.core.records import HistoryRecord, ToolCall
from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.stores.common.wording import words_of
from daycare_gui.ui.formats import count, data_size
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.history_model import kind_of
from daycare_gui.ui.theme import Colours, colours
from daycare_gui.ui.widgets.markdown_view import escape, markdown_html


def style_sheet(c: Colours) -> str:
    """The conversation document's default style sheet, in the palette's colours."""
    return (f"pre, code {{ font-family: monospace; }} pre {{ background: {c.code_background}; margin: 2px 0; "
            f"white-space: pre-wrap; }} a {{ text-decoration: none; color: {c.link}; }} "
            f".meta {{ color: {c.meta}; }} .err {{ color: {c.error}; }}")


def raw_link(record_id) -> str:
    return f'<a href="raw:{record_id}">raw JSON</a>'


def toggle_url(call_id: str) -> str:
    return "rlm:" + quote(call_id, safe="")


def call_id_from_url(path: str) -> str:
    return unquote(path)


def _size(n: int) -> str:
    return data_size(n)  # the locale's decimal mark


def _pre(text: str, limit: int = 20_000) -> str:
    text = text or ""
    if len(text) > limit:
        text = text[:limit] + f"\n… ({len(text) - limit:,} more characters: see raw JSON)"
    return f"<pre>{_shown(text)}</pre>"


def _shown(text: str | None) -> str:
    """A record's own text, escaped and with the secrets recognisable in it masked."""
    return escape(mask_free_text(text or ""))


def _args(value) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, indent=1) if value is not None else ""
    except (TypeError, ValueError):
        return str(value)


def _box(c: Colours, family: str, inner: str, *, anchor: int | None = None, focus: bool = False) -> str:
    bg, _accent = c.family(family)
    name = ""  # anchors sit in each record's heading (_head), also for records drawn inside another
    border = f' style="border: 2px solid {c.focus};"' if focus else ""
    # The text colour is set on the cell: a tint is the palette's base mixed with a hue, and the
    # palette's text colour is the one that reads on it (a fixed light tint under light text would not).
    return (f'{name}<table width="100%" cellspacing="0" cellpadding="6" bgcolor="{bg}"{border}>'
            f'<tr><td style="color:{c.text}">{inner}</td></tr></table><p style="margin:2px"></p>')


def _head(c: Colours, rec: HistoryRecord, label: str | None = None, extra: str = "") -> str:
    family, default = kind_of(rec.type)
    accent = c.family(family)[1]
    return (f'<a name="rec-{rec.id}"></a><span style="color:{accent}; font-weight:bold">{escape(label or default)}</span> '
            f'<span class="meta">· {fmt_time(rec.at)} · record id {rec.id}{extra} · </span>{raw_link(rec.id)}')


def _files(rec: HistoryRecord) -> str:
    if not rec.files:
        return ""
    items = "".join(
        f"<li>File <b>{escape(f.name or f.id)}</b> <span class='meta'>{escape(f.mime_type)} · {_size(f.size)} · "
        f"{escape(f.path)}</span></li>" for f in rec.files)
    return f"<ul>{items}</ul>"


class ConversationRenderer:
    """Turns one window into HTML; ``expanded`` holds the toolCallIds of Python runs shown open."""

    def __init__(self, window: ConversationWindow, expanded: set[str], problems: dict[int, str] | None = None,
                 palette_colours: Colours | None = None):
        self.c = palette_colours or colours()
        self.w = window
        self.expanded = expanded
        self.problems = problems if problems is not None else window.problems
        self.window_ids = {r.id for r in window.records}
        self.calls_here = {c.id for r in window.records for c in r.tool_calls if c.id}
        self.done_runs: set[str] = set()

    def _box(self, family: str, inner: str, **kw) -> str:
        return _box(self.c, family, inner, **kw)

    def _head(self, rec: HistoryRecord, label: str | None = None, extra: str = "") -> str:
        return _head(self.c, rec, label, extra)

    def html(self) -> str:
        parts = []
        if self.w.more_before:
            parts.append("<p class='meta'>… earlier records: scroll the list up</p>")
        for rec in self.w.records:
            parts.append(self.record(rec))
        if self.w.more_after:
            parts.append("<p class='meta'>… later records: scroll the list down</p>")
        if not self.w.records:
            parts.append("<p class='meta'>This session has no records.</p>")
        return "".join(p for p in parts if p)

    def record(self, rec: HistoryRecord) -> str:
        focus = rec.id == self.w.focus_id
        problem = self.problems.get(rec.id)
        if problem:
            return self._box("other", self._head(rec) + f"<p class='err'>Could not parse this record: {_shown(problem)}</p>",
                        anchor=rec.id, focus=focus)
        t = rec.type
        if t in ("user_message", "assistant_message"):
            return self.message(rec, focus)
        if t == "tool_result":
            if rec.tool_call_id in self.calls_here:
                return ""  # shown under its call
            return self._box("tool", self._head(rec, f"Result of {rec.tool_name or 'tool'}") + self.result_body(rec),
                        anchor=rec.id, focus=focus)
        if rec.is_rlm:
            call_id = rec.tool_call_id or ""
            if call_id in self.calls_here or call_id in self.done_runs:
                return ""  # the whole run is shown once, under its call or at its first step
            self.done_runs.add(call_id)
            return self._box("rlm", self.rlm_run(call_id, rec), anchor=rec.id, focus=focus)
        if t == "assistant_rewrite":
            return self._box("rewrite", self.rewrite(rec), anchor=rec.id, focus=focus)
        if t == "note":
            return self._box("note", self._head(rec) + f"<p><i>{_shown(rec.text)}</i></p>", anchor=rec.id, focus=focus)
        if t == "reset":
            return self._box("marker", self._head(rec) + f"<p>{_shown(rec.reset_message or 'session reset')}</p>",
                        anchor=rec.id, focus=focus)
        return self._box("other", self._head(rec) + f"<p>{_shown(rec.summary(400))}</p>", anchor=rec.id, focus=focus)

    # -- kinds -------------------------------------------------------------------------------------
    def message(self, rec: HistoryRecord, focus: bool) -> str:
        family = "user" if rec.type == "user_message" else "assistant"
        extra = ""
        if rec.tokens is not None:
            extra = f" · {escape(rec.tokens.model)} · {rec.tokens.size.total:,} tokens"
        body = markdown_html(rec.text) if (rec.text or "").strip() else ""
        if rec.data.get("firstMessagePrepended"):
            extra += " · first-message prompt prepended"
        out = self._head(rec, extra=extra) + body + _files(rec)
        rewrite = self.w.rewrites.get(rec.at) if rec.type == "assistant_message" else None
        if rewrite is not None:
            out += (f"<p style='color:{self.c.family('rewrite')[1]}'>✎ Rewritten later "
                    f"({escape(words_of(rewrite.reason or '') or 'no reason given')}, record id {rewrite.id}) to:</p>"
                    + markdown_html(rewrite.text or ""))
        for call in rec.tool_calls:
            out += self.tool_call(call)
        return self._box(family, out, anchor=rec.id, focus=focus)

    def tool_call(self, call: ToolCall) -> str:
        run = self.w.rlm_runs.get(call.id)
        # a Python run's code is shown by the run itself, so its arguments are not repeated
        show_args = call.arguments not in (None, {}) and not run
        out = (f"<p>⚙ Tool call <b>{escape(call.name)}</b> <span class='meta'>{escape(call.id)}</span></p>"
               + (_pre(_args(call.arguments), 4000) if show_args else ""))
        if run:
            self.done_runs.add(call.id)
            out += self._box("rlm", self.rlm_run(call.id, run[0]),
                        focus=any(s.id == self.w.focus_id for s in run))
        result = self.w.results.get(call.id)
        if result is not None:
            head = self._head(result, f"Result of {result.tool_name or call.name}")
            out += self._box("tool", head + self.result_body(result), focus=result.id == self.w.focus_id)
        else:
            out += "<p class='meta'>(no result recorded near this call)</p>"
        return out

    def result_body(self, rec: HistoryRecord) -> str:
        cls = " class='err'" if rec.is_error else ""
        label = "<p class='err'><b>Error</b></p>" if rec.is_error else ""
        return label + f"<div{cls}>{_pre(rec.tool_output_text or '(no text)')}</div>"

    def rlm_run(self, call_id: str, first: HistoryRecord) -> str:
        steps = self.w.rlm_runs.get(call_id) or [first]
        start = next((s for s in steps if s.type == "rlm_start"), None)
        done = next((s for s in steps if s.type == "rlm_complete"), None)
        inner_calls = sum(1 for s in steps if s.type == "rlm_tool_call")
        open_ = call_id in self.expanded
        state = "running / unfinished" if done is None else ("failed" if done.is_error else "finished")
        anchors = "".join(f'<a name="rec-{s.id}"></a>' for s in steps)
        summary = anchors + (f"<b>Python run</b> <span class='meta'>· {count(len(steps), 'step')} · {count(inner_calls, 'tool call')} · "
                   f"{state} · </span><a href=\"{toggle_url(call_id)}\">{'collapse ▾' if open_ else 'expand ▸'}</a>")
        if not open_:
            last = (done.error if done is not None and done.is_error else (done.output if done else "")) or ""
            return summary + (f"<p class='meta'>{_shown(' '.join(last.split())[:200])}</p>" if last else "")
        out = [summary]
        if start is not None:
            out.append(f"<p class='meta'>Code · {raw_link(start.id)}</p>" + _pre(start.code or ""))
        for s in steps:
            if s.type == "rlm_tool_call":
                args = _args(s.data.get("toolArgs"))
                out.append(f"<p>→ <b>{escape(s.tool_name or 'tool')}</b> <span class='meta'>· {fmt_time(s.at)} · "
                           f"</span>{raw_link(s.id)}</p>" + (_pre(args, 2000) if args else ""))
            elif s.type == "rlm_tool_result":
                cls = "err" if s.is_error else "meta"
                out.append(f"<p class='{cls}'>← {escape(s.tool_name or 'tool')}{' (error)' if s.is_error else ''} · "
                           f"{raw_link(s.id)}</p>" + _pre(s.output or ""))
        if done is not None:
            if done.print_output:
                out.append("<p class='meta'>Printed output</p>" + _pre("\n".join(done.print_output)))
            if done.is_error:
                out.append(f"<p class='err'><b>Error:</b> {_shown(done.error)}</p>")
            out.append(f"<p class='meta'>Output · {raw_link(done.id)}</p>" + _pre(done.output or "(none)"))
        return "".join(out)

    def rewrite(self, rec: HistoryRecord) -> str:
        original = self.w.rewritten.get(rec.id)
        head = self._head(rec, "Assistant message rewritten", f" · reason: {escape(words_of(rec.reason or '') or 'none given')}")  # "run_python_say_after_trim" in words
        if original is None:
            orig = (f"<p class='meta'>The message it rewrote (at {fmt_time(rec.assistant_at)}) is not near this "
                    "record.</p>")
        else:
            orig = (f"<p class='meta'>Original (record id {original.id}, {fmt_time(original.at)}):</p>"
                    f"<div class='meta'>{markdown_html(original.text or '')}</div>")
        return head + orig + "<p class='meta'>Rewritten to:</p>" + markdown_html(rec.text or "")

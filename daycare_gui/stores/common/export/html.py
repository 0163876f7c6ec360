"""HTML export: one self-contained page (inline CSS for light and dark, no scripts, no outside resources).

Every stored string is escaped; message text is shown as written (pre-wrapped), never interpreted as
HTML or Markdown, so nothing in a record can add a link, an image or a script to the page.
"""

from __future__ import annotations

import re
from html import escape

from daycare_gui.stores.common.export.formats import (
    arguments_text,
    masked,
    result_language,
    utc,
    who,
)
from daycare_gui.stores.common.unread import stored_only
from daycare_gui.stores.records import Message

_CSS = """
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1b1b; --muted: #5c5c5c; --card: #f5f6f8;
  --line: #d9dce1; --code: #eef0f3; --user: #1d6fd6; --assistant: #6b6b6b; --tool: #237a38;
  --system: #8a5700; --other: #6b6b6b; --error: #b3261e; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181c; --fg: #e6e6e6; --muted: #a4a8ae; --card: #1f2227; --line: #353a42;
    --code: #262a30; --user: #6ea8fe; --assistant: #a8a8a8; --tool: #63c37a; --system: #e0a84f;
    --other: #a8a8a8; --error: #ff8a80; }
}
body { background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, sans-serif; margin: 0 auto;
  max-width: 60rem; padding: 1.5rem; }
header p, .facts { color: var(--muted); font-size: 0.9em; margin: 0.2rem 0; }
article { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--other);
  border-radius: 6px; margin: 0.8rem 0; padding: 0.6rem 0.9rem; }
article.user { border-left-color: var(--user); } article.assistant { border-left-color: var(--assistant); }
article.tool { border-left-color: var(--tool); } article.system { border-left-color: var(--system); }
h1 { font-size: 1.4em; } h2 { font-size: 1em; margin: 0; } h3 { font-size: 0.9em; margin: 0.6rem 0 0.2rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.4rem 0; }
pre { background: var(--code); border-radius: 4px; padding: 0.5rem; white-space: pre-wrap;
  overflow-wrap: anywhere; margin: 0.2rem 0; }
.problem, .error h3 { color: var(--error); }
code { font-family: ui-monospace, monospace; }
"""


def _cls(role: str) -> str:
    return re.sub(r"[^a-z0-9-]", "", role.lower()) or "other"


def _pre(text: str, language: str, cls: str) -> str:
    return f'<pre class="{cls}"><code class="language-{language}">{escape(text)}</code></pre>'


class Writer:
    def begin(self, h) -> str:
        title = f"{h.thread_title} — {h.session_title}"
        facts = [f"Session <code>{escape(h.ref.session_id)}</code>",
                 f"thread <code>{escape(h.ref.thread_id)}</code>",
                 f"{h.total:,} messages" + (f" ({h.selected:,} selected)" if h.selected is not None else "")]
        store = f"<p>{escape(h.kind)} store <code>{escape(h.store)}</code></p>" if h.store else ""
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                # the page may load nothing and run nothing, whatever a record holds
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                "style-src 'unsafe-inline'\">\n"
                "<meta name=\"color-scheme\" content=\"light dark\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                f"<title>{escape(title)}</title>\n<style>{_CSS}</style></head>\n<body>\n"
                f"<header><h1>{escape(title)}</h1><p>{' · '.join(facts)}</p>{store}</header>\n<main>\n")

    def message(self, m: Message) -> str:
        m = masked(m)
        when = utc(m.at)
        head = f'<span class="role">{escape(who(m))}</span>' + (f' · <time>{escape(when)}</time>' if when else "")
        facts = [f"record <code>{escape(m.id)}</code>"] if m.id else []
        if m.kind and m.kind != m.role:
            facts.append(f"<code>{escape(m.kind)}</code>")
        parts = [f'<article class="{_cls(m.role)}" id="m-{escape(m.id)}"><h2>{head}</h2>']
        if facts:
            parts.append(f'<p class="facts">{" · ".join(facts)}</p>')
        if m.problem:
            parts.append(f'<p class="problem">Problem: {escape(m.problem)}</p>')
        stored = stored_only(m)
        if stored is not None:
            parts.append(f'<section class="call"><h3>The record as stored</h3>{_pre(stored, "json", "arguments")}</section>')
        if m.text and m.tool_result is None:
            parts.append(f'<div class="text">{escape(m.text)}</div>')
        for name in m.attachments:
            parts.append(f'<p class="facts">attachment: <code>{escape(name)}</code></p>')
        for call in m.tool_calls:
            text, language = arguments_text(call.arguments)
            call_id = f" · call <code>{escape(call.id)}</code>" if call.id else ""
            parts.append(f'<section class="call"><h3>Tool call <code>{escape(call.name or "tool")}</code>{call_id}</h3>'
                         f'{_pre(text, language, "arguments")}</section>')
        r = m.tool_result
        if r is not None:
            label = "Tool error" if r.is_error else "Tool result"
            call_id = f" · call <code>{escape(r.call_id)}</code>" if r.call_id else ""
            parts.append(f'<section class="result{" error" if r.is_error else ""}"><h3>{label} '
                         f'<code>{escape(r.name or "tool")}</code>{call_id}</h3>'
                         f'{_pre(r.text, result_language(r.text), "output")}</section>')
            if m.text and m.text != r.text:
                parts.append(f'<div class="text">{escape(m.text)}</div>')
        parts.append("</article>\n")
        return "".join(parts)

    def end(self, written: int) -> str:
        return "</main>\n</body></html>\n"

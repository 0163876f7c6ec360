"""The messages drawn beside a session's list: the window of messages around the current one, read on the
worker by key, with each tool call's result and the steps of its run paired to it even a page away, and
each rewritten message paired with its rewrite; and the detail pane's view of one message.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from daycare_gui.stores.records import Message, SessionRef
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.message_pages import kind_of
from daycare_gui.ui.widgets.message_view import messages_html

WINDOW_BEFORE = 30  # messages drawn before and after the current one
WINDOW_AFTER = 30
PARTNER_SPAN = 200  # how far past the drawn messages a tool call's result is looked for


@dataclass(frozen=True)
class MessageTarget:
    """Open ``ref`` at the message ``message_id``; ``position`` (its place in the session) is only a hint."""

    ref: SessionRef
    message_id: str
    position: int | None = None


@dataclass
class ConversationWindow:
    """The messages drawn around ``focus_key``, and tool results beyond them paired with their calls."""

    focus_key: int | None
    focus_id: str | None
    messages: list[Message]
    partners: dict[str, Message]
    keys: dict[str, int]  # message id → key, for the raw links of every message drawn
    steps: list[Message] = field(default_factory=list)  # steps of the calls' runs beyond the messages
    more_before: bool = False
    more_after: bool = False
    # A message rewritten later (``Message.rewrites_at``) and its rewrite, each found for the other even a
    # page away: the original's id → the rewrite, and the rewrite's id → the original.
    rewrites: dict[str, Message] = field(default_factory=dict)
    rewritten: dict[str, Message] = field(default_factory=dict)

    def html(self, palette, expanded=frozenset()) -> str:
        """The window as conversation HTML (pure string building: safe on the worker)."""
        return messages_html(self.messages, palette, focus=self.focus_id, partners=self.partners,
                             expanded=expanded, steps=self.steps, rewrites=self.rewrites, rewritten=self.rewritten,
                             more_before=self.more_before, more_after=self.more_after)


def conversation_window(cap, ref: SessionRef, key: int | None, *, before: int = WINDOW_BEFORE,
                        after: int = WINDOW_AFTER, span: int = PARTNER_SPAN) -> ConversationWindow:
    """Worker-side: the messages around ``key`` (the session's end when None), read by key."""
    if key is None:
        head, tail = cap.page_before(ref, None, before + after + 1), []
    else:
        head, tail = cap.page_before(ref, key + 1, before + 1), cap.page_after(ref, key, after)
    pending = head + tail
    messages = [p.message() for p in pending]
    focus = next((p.message().id for p in pending if p.key == key), None)
    window = ConversationWindow(key, focus, messages, {}, {p.message().id: p.key for p in pending})
    if not pending:
        return window
    window.more_before = bool(cap.page_before(ref, pending[0].key, 1))
    answered = {m.tool_result.call_id for m in messages if m.tool_result is not None}
    wanted = {c.id for m in messages for c in m.tool_calls if c.id} - answered
    # A message of the window may have been rewritten a little further on: the look-ahead is read whenever
    # the window holds a message with a time (the old History pane read 200 records either side each time).
    may_be_rewritten = any(m.at is not None and m.rewrites_at is None for m in messages)
    look = wanted or may_be_rewritten
    ahead = cap.page_after(ref, pending[-1].key, span) if look else cap.page_after(ref, pending[-1].key, 1)
    window.more_after = bool(ahead)
    later = [(p.key, p.message()) for p in ahead] if look else []
    for key_, m in later:  # a call's result, and the steps of its run, a little further on
        if m.tool_result is not None and m.tool_result.call_id in wanted:
            window.partners.setdefault(m.tool_result.call_id, m)
            window.keys.setdefault(m.id, key_)
        elif m.part_of and m.part_of in wanted:
            window.steps.append(m)
            window.keys.setdefault(m.id, key_)
    earlier = []
    if any(m.rewrites_at is not None for m in messages):  # a rewrite whose message may lie before the window
        earlier = [(p.key, p.message()) for p in cap.page_before(ref, pending[0].key, span)]
    _pair_rewrites(window, [*earlier, *((p.key, m) for p, m in zip(pending, messages)), *later])
    return window


def _pair_rewrites(window: ConversationWindow, nearby: list[tuple[int, Message]]) -> None:
    """Pair each rewrite with the message it rewrites (the latest before it of its role sent at the time it
    names), where one of the two is drawn; ``nearby`` in session order."""
    drawn = {m.id for m in window.messages}
    latest: dict[tuple[str, int], tuple[int, Message]] = {}
    for key, m in nearby:
        if m.rewrites_at is None:
            if m.at is not None:
                latest[(m.role, m.at)] = (key, m)
            continue
        found = latest.get((m.role, m.rewrites_at))
        if found is None or not (m.id in drawn or found[1].id in drawn):
            continue
        original_key, original = found
        window.rewritten[m.id] = original
        window.rewrites.setdefault(original.id, m)
        window.keys.setdefault(original.id, original_key)
        window.keys.setdefault(m.id, key)


def run_of_focus(window: ConversationWindow) -> frozenset[str]:
    """The run whose step is the current message: shown open, not hidden in a fold."""
    focus = next((m for m in (*window.messages, *window.steps) if m.id == window.focus_id), None)
    return frozenset({focus.part_of}) if focus is not None and focus.part_of else frozenset()


def message_detail(message: Message) -> DetailItem:
    """The detail pane's view of one message: its kind, time and id, and the facts its kind gave."""
    label = kind_of(message)[1]
    fields = [("Kind", message.kind or message.role), ("Time", fmt_time(message.at)), ("Message id", message.id)]
    if message.author:
        fields.append(("From", message.author))
    if message.recipient:
        fields.append(("To", message.recipient))
    fields += list(message.meta)
    if message.problem:
        fields.append(("Problem", message.problem))
    return DetailItem(f"{label} · id {message.id}", tuple(fields), message.raw,
                      markdown=message.text if message.text else None)

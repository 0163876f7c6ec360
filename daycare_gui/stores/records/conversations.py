"""A conversation as every kind hands it over: its messages (decoded, or pending on a keyed page), the
threads that own sessions, and the sessions."""

from __future__ import annotations

from typing import Any

from daycare_gui.stores.deferred_dataclass import deferred

# Roles the conversation view knows how to draw; a kind may use others (drawn as "other").
ROLES = ("user", "assistant", "tool", "system", "note", "event")


def one_line(text: str, limit: int) -> str:
    """TEXT as one line of at most LIMIT characters: every run of white space one space (none at the ends),
    and a line longer than LIMIT cut to ``LIMIT - 1`` characters and "…".

    Only the start of a long text is read: a list row or a tooltip shows a few hundred characters of a
    message that may be megabytes (a pasted log, a tool's whole output), and splitting all of it to show
    its start cost time in proportion to the whole. The start, made one line, is the start of the whole
    made one line (its last word may be cut short, never changed); when it is longer than LIMIT the answer
    is the same as from the whole, and otherwise (a start that is mostly white space) the whole is read."""
    head = text[: max(0, 2 * limit) + 64]
    line = " ".join(head.split())
    if len(line) <= limit and len(head) < len(text):
        line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


@deferred
class ToolCallRecord:
    id: str
    name: str
    arguments: Any = None


@deferred
class ToolResultRecord:
    call_id: str  # pairs this result with the ToolCallRecord of the same id
    name: str = ""
    text: str = ""
    is_error: bool = False


@deferred
class Message:
    """One entry of a conversation: a message, a tool result, a marker or a kind's own record."""

    id: str  # stable within its session; used by raw views, search hits and deep links
    role: str  # one of ROLES, or a kind's own word
    text: str = ""  # Markdown
    at: int | None = None
    kind: str = ""  # the kind's own record type ("user_message", "observation", "AIMessage", ...)
    author: str = ""  # who sent it, when the store says (Linggen's sender)
    recipient: str = ""
    tool_calls: tuple[ToolCallRecord, ...] = ()
    tool_result: ToolResultRecord | None = None
    attachments: tuple[str, ...] = ()  # names of attached files
    meta: tuple[tuple[str, str], ...] = ()  # extra labelled facts for the detail pane
    raw: Any = None
    problem: str | None = None
    # The id of the tool call whose run this message is a step of (code the call ran, and the tools that
    # code called in turn): the conversation view draws the steps inside that call, folded. "" for none.
    part_of: str = ""
    # The model that wrote the message and the tokens its turn took (in and out), where the store says:
    # shown in the message's heading. "" / None when the store does not say.
    model: str = ""
    tokens: int | None = None
    # This message rewrites an earlier one of the same session, named by that one's time (ms): Daycare's
    # ``assistant_rewrite`` names the message it replaces only by its ``at``. The view shows the two
    # together. None for a message that rewrites nothing.
    rewrites_at: int | None = None

    def summary(self, limit: int = 160) -> str:
        """One line for lists, tooltips and search results."""
        text = self.text
        if self.tool_result is not None and not text:
            text = f"{self.tool_result.name or 'tool'}: {self.tool_result.text}"
        if self.tool_calls:
            text = (text + " " if text else "") + "→ " + ", ".join(c.name for c in self.tool_calls)
        return one_line(text, limit)


class PendingMessage:
    """One message of a keyed page (see ``api.KeyedPages``): its ``key`` now, the :class:`Message` when
    asked (``message()``), decoded once.

    A list shows a few dozen rows of a 200-row page, and decoding a stored record (JSON, then the neutral
    message) costs ten times reading it; the worker that reads pages would hold the interpreter lock while
    it decoded, and the GUI thread painting meanwhile would wait. So a kind may hand undecoded rows (a
    ``decode`` function and its ``data``), and the view decodes only the rows it shows. A kind whose
    messages cost more to make than what a list row shows may also give ``line``: from ``data``, something
    with a Message's ``id``, ``role``, ``kind``, ``at``, ``problem`` and ``summary(limit)`` (what the list
    paints); ``line()`` answers with it, or with the message."""

    __slots__ = ("key", "_decode", "_data", "_message", "_liner", "_line")

    def __init__(self, key: int, message: Message | None = None, *, decode=None, data=None, line=None) -> None:
        self.key = key  # an int, ascending within the session (a row id, a line number, a position)
        self._message = message
        self._decode = decode
        self._data = data
        self._liner = line
        self._line = None

    def message(self) -> Message:
        found = self._message
        if found is None:
            found = self._message = self._decode(self._data)
            self._decode = self._data = self._liner = self._line = None  # the stored row is not kept twice
        return found

    def line(self):
        """What a list row shows of the message (the message itself unless the kind gave ``line``)."""
        found = self._message or self._line
        if found is None:
            found = self._line = self._liner(self._data) if self._liner is not None else self.message()
        return found

    @property
    def decoded(self) -> bool:
        return self._message is not None or self._line is not None

    def __repr__(self) -> str:
        return f"PendingMessage({self.key!r}, decoded={self.decoded})"


@deferred
class ThreadRecord:
    """Whatever owns sessions: a Daycare agent, a Linggen project, a CianaParrot chat."""

    id: str
    title: str
    subtitle: str = ""  # kind, owner, path: one short line
    updated_at: int | None = None
    session_count: int | None = None
    meta: tuple[tuple[str, str], ...] = ()
    raw: Any = None
    problem: str | None = None


@deferred
class SessionRef:
    thread_id: str
    session_id: str


@deferred
class SessionRecord:
    ref: SessionRef
    title: str
    started_at: int | None = None
    updated_at: int | None = None
    message_count: int | None = None
    status: str = ""  # "active", "ended", "error", ...
    meta: tuple[tuple[str, str], ...] = ()
    raw: Any = None
    problem: str | None = None
    # message_count is still being worked out (Conversations.sessions_now): shown as pending, never as 0
    count_pending: bool = False

"""One session on a page of its own (Daycare's "history" section): the shared conversation view, opened
from another page — an agent's session list, a search hit, a deep link.

Targets: a :class:`SessionRef` or :class:`MessageTarget`, or the tuples Daycare's pages have always sent:
``(agent_id, session_id, record_id or None)`` and ``("legacy", agent_id, index)`` for a session of a legacy
agent folder (its id in the store is ``<agent>#<index + 1>``).
"""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout

from daycare_gui.stores import api
from daycare_gui.stores.records import SessionRef
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.conversation_view import ConversationView
from daycare_gui.ui.panes.generic.conversation_window import MessageTarget


def session_target(target) -> MessageTarget | SessionRef | None:
    """A page's target as a session (and the message to open it at), or None when it names none."""
    if isinstance(target, (SessionRef, MessageTarget)):
        return target
    if not isinstance(target, (tuple, list)) or len(target) < 2:
        return None
    if len(target) == 3 and target[0] == "legacy":
        agent_id, index = str(target[1]), int(target[2])
        return SessionRef(agent_id, f"{agent_id}#{index + 1}")
    ref = SessionRef("" if target[0] is None else str(target[0]), str(target[1]))
    record = target[2] if len(target) > 2 else None
    return MessageTarget(ref, str(record)) if record is not None else ref


class SessionPane(Pane):
    pane_id = "history"
    title = "Conversation"
    opens_before_shown = True  # open_item starts one read on the worker; the view's ``opened`` shows it

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        opened = ctx.opened
        self.cap: api.Conversations | None = opened.capability(api.Conversations) if opened is not None else None
        self.view = ConversationView(ctx, self)
        self.view.opened.connect(self.item_ready.emit)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view)
        self.view.heading.setText("Open a session from Agents (Enter on a session).")
        # what other pages, tests and the benchmark reach through the page
        v = self.view
        self.model, self.list, self.conversation, self.heading = v.model, v.list, v.conversation, v.heading
        self.goto_box, self.position, self.new_marker, self.raw_button = v.goto_box, v.position, v.new_marker, v.raw_button
        self.home_button, self.end_button, self.export_button = v.home_button, v.end_button, v.export.button
        self.export_status = v.export.status
        for name in ("go_first", "go_last", "go_to_row", "current_row", "new_records", "jump_to_new", "at_end",
                     "conversation_html", "show_raw_row", "shown_text"):
            setattr(self, name, getattr(v, name))
        for name in ("selected_rows", "export_session", "export_selected", "export_conversation", "copy_markdown"):
            setattr(self, name, getattr(v.export, name))
        self._target: MessageTarget | SessionRef | None = None

    def load(self) -> None:
        if self.cap is None:
            self.view.heading.setText("This store offers no conversations.")
        elif self._target is not None:
            self.open_item(self._target)

    def open_item(self, target) -> None:
        found = session_target(target)
        if found is None or self.cap is None:
            self.item_ready.emit()  # nothing to read
            return
        self._target = found
        ref, focus, hint = (found.ref, found.message_id, found.position) if isinstance(found, MessageTarget) \
            else (found, None, None)
        cap = self.cap
        if not ref.thread_id:  # a search hit whose agent is not known: the store knows the session's
            self.ctx.worker.submit("session-find", lambda: cap.find_session(ref.session_id) or ref,
                                   on_result=lambda found: self.view.open(cap, found, focus=focus, position=hint))
            return
        self.view.open(cap, ref, focus=focus, position=hint)

    def link_target(self, _view=None) -> tuple[str, str] | None:
        """The session shown (Copy link)."""
        return ("session", self.view.ref.session_id) if self.view.ref is not None else None

    def store_changed(self) -> bool:
        return self.view.store_changed()

    def follows_change(self, paths: frozenset[str]) -> bool:
        return self.view.follows_change(paths)

    def focus_filter(self) -> None:
        self.view.focus_goto()

    def shutdown(self) -> None:
        self.view.shutdown()

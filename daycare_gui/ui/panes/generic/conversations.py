"""Conversations of any kind: threads → sessions, and the chosen session in the shared conversation view
(``conversation_view.ConversationView``: the keyed message list, the conversation around the current
message, Raw JSON, export, live follow).

Another pane can open a session at one message (a search hit, a :class:`MessageTarget`): the store finds
its place by id (``KeyedPages.locate``), trying the position the caller saw it at first.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QVBoxLayout

from daycare_gui.stores import api
from daycare_gui.stores.records import SessionRecord, SessionRef, ThreadRecord
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList, detail_of, when
from daycare_gui.ui.panes.generic.conversation_view import ConversationView, MessageTarget

__all__ = ["ConversationsPane", "MessageTarget"]

THREAD_COLUMNS = [
    Column("Name", lambda t: t.title, tooltip=lambda t: t.id),
    Column("About", lambda t: t.subtitle),
    Column("Sessions", lambda t: t.session_count, align_right=True),
    Column("Updated", lambda t: t.updated_at, display=when),
]
SESSION_COLUMNS = [
    Column("Session", lambda s: s.title, tooltip=lambda s: s.ref.session_id),
    Column("Status", lambda s: s.status),
    Column("Messages", lambda s: s.message_count, align_right=True),
    Column("Started", lambda s: s.started_at, display=when),
]


def _threads_and_count(cap: api.Conversations) -> tuple[list[ThreadRecord], int | None]:
    """The threads, and the number the navigation shows for them (the kind's own count when it has one:
    the default would only list the threads a second time)."""
    threads = cap.threads()
    own = type(cap).count is not api.Conversations.count
    return threads, cap.count() if own else len(threads)


class ConversationsPane(Pane):
    pane_id = "conversations"
    # open_item selects rows in the thread and session tables, which starts reads on the worker; the page
    # is ready (item_ready) once the chosen session's messages are shown
    opens_before_shown = True

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.cap: api.Conversations = ctx.opened.capability(api.Conversations)
        layout = QVBoxLayout(self)
        self.threads = RecordList(self.cap.thread_label, THREAD_COLUMNS, key=lambda t: t.id,
                                  state=lambda t: "error" if t.problem else None)
        self.has_status = self.cap.has_session_status
        columns = SESSION_COLUMNS if self.has_status else [c for c in SESSION_COLUMNS if c.title != "Status"]
        self.sessions = RecordList(self.cap.session_label, columns, key=lambda s: s.ref.session_id,
                                   state=lambda s: "error" if s.problem else None)
        self.filter_box = self.threads.filter_box
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.threads)
        left.addWidget(self.sessions)

        self.conversation = ConversationView(ctx, ready_with_conversation=True)  # never shown half-filled
        self.conversation.opened.connect(self.item_ready.emit)  # the window paints again (Pane.item_ready)
        right = self.conversation

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([420, 700])
        layout.addWidget(split)

        self.threads.table.selectionModel().currentRowChanged.connect(self._thread_selected)
        self.sessions.table.selectionModel().currentRowChanged.connect(self._session_selected)
        self.session: SessionRef | None = None
        self._pending = None
        self._focus: MessageTarget | None = None  # a message to open the session at, once it is selected

    # -- loading -------------------------------------------------------------------------------------
    def load(self) -> None:
        cap = self.cap
        self.ctx.worker.submit("conversations-threads", lambda: _threads_and_count(cap),
                               on_result=self._threads_arrived,
                               on_error=lambda m: self.conversation.heading.setText(f"Could not read: {m}"))

    def _threads_arrived(self, answer: tuple[list[ThreadRecord], int | None]) -> None:
        threads, counted = answer
        self.threads.set_records(threads)
        # The kind's count, as the navigation shows it: a list may hold a row that is no thread of its own
        # (Linggen's "Sessions without a project" is not a project).
        shown = counted if counted is not None else len(threads)
        self.threads.caption.setText(f"<b>{self.cap.thread_label}</b> ({shown:,})")
        target, self._pending = self._pending, None
        if target is not None:
            self.open_item(target)
        elif threads:
            self.threads.table.selectRow(0)

    def _thread_selected(self, current, _previous) -> None:
        thread = self.threads.records.record_at(current)
        if thread is None:
            return
        self.ctx.show_detail(detail_of(thread.title, thread, fields=(("Id", thread.id), ("About", thread.subtitle))))
        cap = self.cap
        self.ctx.worker.submit("conversations-sessions", lambda: cap.sessions(thread.id),
                               on_result=self._sessions_arrived)

    def _sessions_arrived(self, sessions: list[SessionRecord]) -> None:
        self.sessions.set_records(sessions)
        self.sessions.caption.setText(f"<b>{self.cap.session_label}</b> ({len(sessions):,})")
        want = self._want_session
        row = self.sessions.records.proxy_row_of_key(want) if want else -1
        self.sessions.table.selectRow(row if row >= 0 else max(0, len(sessions) - 1))
        if not sessions:
            self.item_ready.emit()  # nothing more to read

    _want_session: str | None = None

    def _session_selected(self, current, _previous) -> None:
        session = self.sessions.records.record_at(current)
        if session is None:
            return
        status = (("Status", session.status),) if self.has_status else ()
        self.ctx.show_detail(detail_of(session.title, session, fields=(
            ("Session", session.ref.session_id), *status, ("Started", when(session.started_at)))))
        self.session = session.ref
        focus = self._focus if self._focus is not None and self._focus.ref == session.ref else None
        self._focus = None  # (the user may have gone elsewhere before the message was found)
        thread = self.threads.current()
        self.conversation.open(self.cap, session.ref, focus=focus.message_id if focus else None,
                               position=focus.position if focus else None,
                               thread_title=thread.title if thread is not None else "", session=session)

    # -- export, copy, live follow: the conversation view's ------------------------------------------
    def export_conversation(self) -> None:
        self.conversation.export_conversation()

    def copy_markdown(self, row: int | None = None) -> str | None:
        return self.conversation.copy_markdown(row)

    def shutdown(self) -> None:
        self.conversation.shutdown()

    def store_changed(self) -> bool:
        return self.conversation.store_changed()

    def follows_change(self, paths: frozenset[str]) -> bool:
        return self.conversation.follows_change(paths)

    # -- pane API --------------------------------------------------------------------------------------
    def shown_text(self) -> str:
        return self.conversation.shown_text()

    def link_target(self, view=None) -> tuple[str, str] | None:
        """A thread ("agent:") when its list was clicked, else the session selected or shown."""
        if view is not self.threads.table:
            session = self.sessions.current()
            if session is not None:
                return "session", session.ref.session_id
            if view is self.sessions.table:
                return None
        thread = self.threads.current()
        return ("agent", thread.id) if thread is not None else None

    def open_item(self, target, focus: str | None = None) -> None:
        """``target``: a thread id, a SessionRef, or a MessageTarget (the session at one message; also
        ``focus``, a message id, with a SessionRef)."""
        if isinstance(target, SessionRef) and focus is not None:
            target = MessageTarget(target, focus)
        if self.threads.records.model.rowCount() == 0:
            self._pending = target
            return
        if isinstance(target, MessageTarget):
            self._focus, target = target, target.ref
        thread_id = target.thread_id if isinstance(target, SessionRef) else str(target)
        self._want_session = target.session_id if isinstance(target, SessionRef) else None
        row = self.threads.records.proxy_row_of_key(thread_id)
        if row < 0:
            self.item_ready.emit()  # no such thread: nothing to wait for
            return
        thread = self.threads.current()
        if thread is not None and thread.id == thread_id and self._want_session is not None:
            # the thread is already selected, so no new session list comes: pick the session in this one
            session_row = self.sessions.records.proxy_row_of_key(self._want_session)
            shown = self.sessions.current()
            if shown is not None and shown.ref == target and self.session == target:
                if self._focus is not None:  # already shown: just go to the message
                    focus, self._focus = self._focus, None
                    self.conversation.open(self.cap, target, focus=focus.message_id, position=focus.position,
                                           thread_title=thread.title, session=shown)
                else:
                    self.item_ready.emit()
            elif session_row >= 0:
                self.sessions.table.selectRow(session_row)
            else:
                self.item_ready.emit()
            return
        if thread is not None and thread.id == thread_id:
            self.item_ready.emit()  # the thread shown already: no new read comes
            return
        self.threads.table.selectRow(row)

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
from daycare_gui.stores.records import Query, Row, SessionRecord, SessionRef
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList, detail_of, when
from daycare_gui.ui.panes.generic.conversation_view import ConversationView
from daycare_gui.ui.panes.generic.conversation_window import MessageTarget
from daycare_gui.ui.panes.generic.conversations_memory import ThreadMemory
from daycare_gui.ui.panes.generic.thread_list import ThreadList, cell_text

__all__ = ["ConversationsPane", "MessageTarget"]

# A count still being worked out (Conversations.sessions_now) reads as pending, never as 0 or blank.
COUNTING = "counting…"
SESSION_COLUMNS = [
    Column("Session", lambda s: s.title, tooltip=lambda s: s.ref.session_id),
    Column("Status", lambda s: s.status),
    Column("Messages", lambda s: COUNTING if s.count_pending else s.message_count, align_right=True,
           tooltip=lambda s: "this session's records are being counted" if s.count_pending else None,
           sort_value=lambda s: -1 if s.count_pending else s.message_count),
    Column("Started", lambda s: s.started_at, display=when),
]


class ConversationsPane(Pane):
    pane_id = "conversations"
    # open_item selects rows in the thread and session tables, which starts reads on the worker; the page
    # is ready (item_ready) once the chosen session's messages are shown
    opens_before_shown = True

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.cap: api.Conversations = ctx.opened.capability(api.Conversations)
        layout = QVBoxLayout(self)
        self.threads = ThreadList(ctx, self.cap)  # keyed, filtered and sorted by the store
        # The first keys are asked for now, not once the page is built: the worker reads them while the
        # conversation view and the session list are made (the answer is delivered after this returns).
        self.threads.load()
        self._loading = True
        self.memory = ThreadMemory(self, self.threads.head)  # the thread's memory documents, a click away
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
        self.conversation.answered.connect(self._describe_session)
        right = self.conversation

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        # The conversation takes most of the width, and the growth of a wider window: at 1280 px beside the
        # navigation and the Details dock, two fifths to the lists left the conversation 120 px (now ~230).
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        split.setSizes([250, 870])
        layout.addWidget(split)

        self.threads.current_changed.connect(self._thread_selected)
        self.threads.current_row_arrived.connect(self._thread_described)
        self.threads.missing.connect(lambda _key: self.item_ready.emit())  # no such thread: nothing to wait for
        self.sessions.table.selectionModel().currentRowChanged.connect(self._session_selected)
        self.session: SessionRef | None = None
        self._focus: MessageTarget | None = None  # a message to open the session at, once it is selected

    # -- loading -------------------------------------------------------------------------------------
    def load(self) -> None:
        if self._loading:  # asked for while the page was built
            self._loading = False
            return
        self.threads.load()  # the filters, the keys and the first screen of rows

    _session_detail = None  # (ref, DetailItem) of the session clicked, shown with its answer

    def _describe_session(self) -> None:
        """The clicked session's answer came: its details go to the dock now (unless the user went on)."""
        owed, self._session_detail = self._session_detail, None
        if owed is not None and owed[0] == self.session and self.conversation.ref == self.session:
            self.ctx.show_detail(owed[1])

    def hideEvent(self, event) -> None:  # noqa: N802
        self._session_detail = None  # the user went to another page before the session's answer came
        super().hideEvent(event)

    def _thread_described(self, row: Row) -> None:
        """The selected thread's row arrived: its columns, its notes and its raw row in the detail pane."""
        self._session_detail = None  # (a newer selection describes itself)
        titles = self.threads.columns_titles
        name = cell_text(row.values[0]) if row.values else row.key
        noun = self.cap.thread_label.rstrip("s") or "Thread"
        fields = tuple((t, cell_text(v)) for t, v in zip(titles, row.values)) + (("Id", row.key),)
        self.ctx.show_detail(detail_of(f"{noun} {name}", row, fields=fields, markdown=row.markdown))

    def _thread_selected(self, thread_id: str | None) -> None:
        self.memory.follow(thread_id)
        if thread_id is None:
            return
        cap, runs, keep = self.cap, self.threads.runs_cap if self.threads.hiding_runs() else None, self._want_session
        known = self.threads.known_runs  # read with the keys (again whenever the store changed)

        def sessions():  # (with "Hide scheduled runs": not the run sessions, unless one was asked for)
            listed = cap.sessions_now(thread_id)  # (counts still being worked out come pending: see below)
            hidden = frozenset() if runs is None else known if known is not None else runs.run_sessions()
            return [s for s in listed if s.ref not in hidden or s.ref.session_id == keep]

        def arrived(listed: list[SessionRecord]) -> None:
            self._sessions_arrived(listed)
            if any(s.count_pending for s in listed):  # the list is shown now; its counts when they are known
                def counted():
                    cap.wait_for_counts()
                    return sessions()

                self.ctx.slow_worker.submit("conversations-session-counts", counted,
                                            on_result=lambda got: self._counts_arrived(thread_id, got))

        self.ctx.worker.submit("conversations-sessions", sessions, on_result=arrived)

    def _counts_arrived(self, thread_id: str, sessions: list[SessionRecord]) -> None:
        """The counts of the sessions listed pending: filled in place (the selection and the session shown
        stay), if the list still shows that thread's sessions."""
        if self.threads.current_key() == thread_id:
            self.sessions.records.model.update_records(sessions)

    def _sessions_arrived(self, sessions: list[SessionRecord]) -> None:
        self.sessions.set_records(sessions)
        self.sessions.caption.setText(f"<b>{self.cap.session_label}</b> ({len(sessions):,})")
        # the session asked for, else the one the thread is in now (Daycare's active session), else the last
        active = next((s.ref.session_id for s in sessions if s.status == "active"), None)
        want = self._want_session or active
        row = self.sessions.records.proxy_row_of_key(want) if want else -1
        # Ready to read, but the detail pane keeps describing the thread the user picked: only a session
        # the user moves to (or one asked for by name: a link, a search hit) describes itself there.
        self._picked_session = not self._want_session
        try:
            self.sessions.table.selectRow(row if row >= 0 else max(0, len(sessions) - 1))
        finally:
            self._picked_session = False
        if not sessions:
            self.item_ready.emit()  # nothing more to read

    _want_session: str | None = None
    _picked_session = False  # the pane, not the user, is selecting a session

    def _session_selected(self, current, _previous) -> None:
        session = self.sessions.records.record_at(current)
        if session is None:
            return
        status = (("Status", session.status),) if self.has_status else ()
        self._session_detail = None
        if not self._picked_session:
            noun = self.cap.session_label.rstrip("s") or "Session"
            # Shown with the session's first answer, in the same repaint: painted at the click, the dock
            # held the interpreter lock (PySide keeps it through Qt's drawing) while the page was read
            self._session_detail = (session.ref, detail_of(f"{noun} {session.title}", session, fields=(
                ("Session", session.ref.session_id), *status, ("Started", when(session.started_at)))))
        self.session = session.ref
        focus = self._focus if self._focus is not None and self._focus.ref == session.ref else None
        self._focus = None  # (the user may have gone elsewhere before the message was found)
        self.conversation.open(self.cap, session.ref, focus=focus.message_id if focus else None,
                               position=focus.position if focus else None,
                               thread_title=self._thread_title(), session=session,
                               # only a message asked for by name describes itself; otherwise the
                               # detail pane keeps what the user picked (the thread, or this session)
                               describe=focus is not None)

    def _thread_title(self) -> str:
        row = self.threads.current_row()
        return cell_text(row.values[0]) if row is not None and row.values else ""

    # -- export, copy, live follow: the conversation view's ------------------------------------------
    def export_conversation(self) -> None:
        self.conversation.export.export_conversation()

    def copy_markdown(self, row: int | None = None) -> str | None:
        return self.conversation.export.copy_markdown(row)

    def shutdown(self) -> None:
        self.conversation.shutdown()

    def store_changed(self) -> bool:
        """A live engine wrote: the thread list reads its keys again in place (selection kept) and the
        selected thread's sessions likewise; the session shown follows its own files (growth_paths)."""
        self.threads.refresh()
        key = self.threads.current_key()
        if key is not None:
            cap = self.cap
            self.ctx.worker.submit("conversations-sessions-live", lambda: cap.sessions(key),
                                   on_result=self._sessions_refreshed)
        return self.conversation.store_changed()

    def _sessions_refreshed(self, sessions: list[SessionRecord]) -> None:
        keep = self.sessions.current()
        self.sessions.set_records(sessions)
        self.sessions.caption.setText(f"<b>{self.cap.session_label}</b> ({len(sessions):,})")
        if keep is not None:
            self.sessions.select_key(keep.ref.session_id)

    def follows_change(self, paths: frozenset[str]) -> bool:
        return self.conversation.follows_change(paths)

    # -- pane API --------------------------------------------------------------------------------------
    def shown_text(self) -> str:
        return self.conversation.shown_text()

    def link_target(self, view=None) -> tuple[str, str] | None:
        """A thread ("agent:") when its list was clicked, else the session selected or shown."""
        if view is None and self.threads.table.hasFocus():
            view = self.threads.table  # Ctrl+Shift+L in the thread list: the thread
        if view is not self.threads.table:
            session = self.sessions.current()
            if session is not None:
                return "session", session.ref.session_id
            if view is self.sessions.table:
                return None
        thread_id = self.threads.current_key()
        return ("agent", thread_id) if thread_id is not None else None

    def open_item(self, target, focus: str | None = None) -> None:
        """``target``: a thread id, a SessionRef, a MessageTarget (the session at one message; also
        ``focus``, a message id, with a SessionRef), or a Query (the threads it picks: a user's agents)."""
        if isinstance(target, Query):
            self.threads.filter_to(target)
            self.item_ready.emit()
            return
        if isinstance(target, SessionRef) and focus is not None:
            target = MessageTarget(target, focus)
        if isinstance(target, MessageTarget):
            self._focus, target = target, target.ref
        thread_id = target.thread_id if isinstance(target, SessionRef) else str(target)
        self._want_session = target.session_id if isinstance(target, SessionRef) else None
        current = self.threads.current_key()
        if current == thread_id and self._want_session is not None:
            # the thread is already selected, so no new session list comes: pick the session in this one
            session_row = self.sessions.records.proxy_row_of_key(self._want_session)
            shown = self.sessions.current()
            if shown is not None and shown.ref == target and self.session == target:
                if self._focus is not None:  # already shown: just go to the message
                    focus, self._focus = self._focus, None
                    self.conversation.open(self.cap, target, focus=focus.message_id, position=focus.position,
                                           thread_title=self._thread_title(), session=shown)
                else:
                    self.item_ready.emit()
            elif session_row >= 0:
                self.sessions.table.selectRow(session_row)
            else:
                self.item_ready.emit()
            return
        if current == thread_id:
            self.item_ready.emit()  # the thread shown already: no new read comes
            return
        self.threads.select_key(thread_id)  # (clears a filter that hides it; missing → item_ready)

"""Conversations of any kind: threads → sessions → messages, paged, drawn by the shared message view.

Another pane can open a session at one message (a search hit): the page holding it is found by the
message's id, trying the position the caller saw it at first.

A session whose kind offers ``growth_paths``/``growth_token`` is followed live: a change to those files
(debounced) asks for the token; only when it moved is the session re-counted and only the messages after
the last one shown read. At the end of the latest page the view follows; elsewhere a "N new messages"
button counts them and jumps to the end.
"""

from __future__ import annotations

import bisect
import os
from dataclasses import dataclass

from PySide6.QtCore import QFileSystemWatcher, Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QPushButton, QSplitter, QVBoxLayout, QWidget

from daycare_gui.stores import api
from daycare_gui.stores.records import Query, Row, SessionRecord, SessionRef
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList, detail_of, plural, when
from daycare_gui.ui.panes.generic.thread_list import ThreadList, cell_text
from daycare_gui.ui.theme import follow_palette
from daycare_gui.ui.widgets.export import COPY_SHORTCUT, ConversationExporter, copy_markdown
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser
from daycare_gui.ui.widgets.message_view import message_anchors, messages_html

PAGE = 100
LIVE_MS = 100  # a growing session is re-checked at most this often, only after its files changed


@dataclass(frozen=True)
class MessageTarget:
    """Open ``ref`` at the message ``message_id``; ``position`` (its place in the session) is only a hint."""

    ref: SessionRef
    message_id: str
    position: int | None = None


def find_message(cap: api.Conversations, ref: SessionRef, message_id: str, total: int,
                 hint: int | None = None, page: int = PAGE) -> int | None:
    """The position of ``message_id`` in ``ref``: the page around ``hint`` first, then page by page from
    the end (where a recent hit most likely is). Runs on a worker; None when it is not there (any more)."""
    starts: list[int] = []
    if hint is not None and 0 <= hint < total:
        starts.append(max(0, hint - page // 2))
    starts += range(max(0, total - page), -page, -page)
    seen: set[int] = set()
    for start in starts:
        start = max(0, start)
        if start in seen:
            continue
        seen.add(start)
        for offset, message in enumerate(cap.messages(ref, start, page)):
            if message.id == message_id:
                return start + offset
    return None

SESSION_COLUMNS = [
    Column("Session", lambda s: s.title, tooltip=lambda s: s.ref.session_id),
    Column("Status", lambda s: s.status),
    Column("Messages", lambda s: s.message_count, align_right=True),
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
        self.has_status = self.cap.has_session_status
        columns = SESSION_COLUMNS if self.has_status else [c for c in SESSION_COLUMNS if c.title != "Status"]
        self.sessions = RecordList(self.cap.session_label, columns, key=lambda s: s.ref.session_id,
                                   state=lambda s: "error" if s.problem else None)
        self.filter_box = self.threads.filter_box
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.threads)
        left.addWidget(self.sessions)

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        self.position = QLabel("Select a session.")
        self.first_button = QPushButton("First")
        self.earlier_button = QPushButton("◀ Earlier")
        self.later_button = QPushButton("Later ▶")
        self.latest_button = QPushButton("Latest")
        bar.addWidget(self.position, 1)
        self.new_marker = QPushButton()
        self.new_marker.setObjectName("newMessagesMarker")
        self.new_marker.setToolTip("Messages appended since; click to jump to the end")
        self.new_marker.hide()
        bar.addWidget(self.new_marker)
        for b in (self.first_button, self.earlier_button, self.later_button, self.latest_button):
            b.setEnabled(False)
            bar.addWidget(b)
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Write this session, or the messages selected in it, as Markdown, HTML or JSONL")
        self.export_button.setEnabled(False)
        export_menu = QMenu(self.export_button)
        export_menu.addAction("Whole session…", self.export_session)
        self.export_selected_action = export_menu.addAction("Selected messages…", self.export_selected)
        export_menu.aboutToShow.connect(
            lambda: self.export_selected_action.setEnabled(bool(self.selected_message_ids())))
        self.export_button.setMenu(export_menu)
        bar.addWidget(self.export_button)
        self.view = SafeTextBrowser()
        self.view.setObjectName("conversationView")
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)  # laid out once, not twice
        follow_palette(self.view, self._repaint)  # the message tints come from the palette
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.export_status = QLabel()
        self.export_status.setWordWrap(True)
        self.export_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.export_status.hide()
        self.exporter = ConversationExporter(self)
        self.exporter.finished.connect(self._export_finished)
        rl.addLayout(bar)
        rl.addWidget(self.view, 1)
        rl.addWidget(self.export_status)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([420, 700])
        layout.addWidget(split)

        self.threads.current_changed.connect(self._thread_selected)
        self.threads.current_row_arrived.connect(self._thread_described)
        self.threads.missing.connect(lambda _key: self.item_ready.emit())  # no such thread: nothing to wait for
        self.sessions.table.selectionModel().currentRowChanged.connect(self._session_selected)
        self.first_button.clicked.connect(lambda: self._go(0))
        self.earlier_button.clicked.connect(lambda: self._go(self.start - PAGE))
        self.later_button.clicked.connect(lambda: self._go(self.start + PAGE))
        self.latest_button.clicked.connect(lambda: self._go(max(0, self.total - PAGE)))
        self.view.anchorClicked.connect(self._link)
        self.session: SessionRef | None = None
        self.total = 0
        self.start = 0
        self.messages: list = []
        self._anchors: list[tuple[int, str]] = []  # (document position, message id) of the page shown
        self._focus: MessageTarget | None = None  # a message to open the session at, once it is selected
        self.focus_id: str | None = None  # the message drawn highlighted
        self._note = ""  # said after the position (a message asked for that is not there any more)
        self._live = _LiveSession(self)

    # -- loading -------------------------------------------------------------------------------------
    def _repaint(self) -> None:
        if getattr(self, "messages", None):
            bar = self.view.verticalScrollBar()
            keep = bar.value()
            self.view.setHtml(messages_html(self.messages, self.view.palette(), focus=self.focus_id))
            bar.setValue(keep)

    def load(self) -> None:
        self.threads.load()  # the filters, then the keys and the first screen of rows

    def store_changed(self) -> bool:
        """A live engine wrote: the thread list reads its keys again in place (selection kept) and the
        selected thread's sessions likewise; the session shown follows its own files (growth_paths)."""
        self.threads.refresh()
        key = self.threads.current_key()
        if key is not None:
            cap = self.cap
            self.ctx.worker.submit("conversations-sessions-live", lambda: cap.sessions(key),
                                   on_result=self._sessions_refreshed)
        return True

    def _sessions_refreshed(self, sessions: list[SessionRecord]) -> None:
        keep = self.sessions.current()
        self.sessions.set_records(sessions)
        self.sessions.caption.setText(f"<b>{self.cap.session_label}</b> ({len(sessions):,})")
        if keep is not None:
            self.sessions.select_key(keep.ref.session_id)

    def _thread_described(self, row: Row) -> None:
        """The selected thread's row arrived: its columns, its notes and its raw row in the detail pane."""
        titles = self.threads.columns_titles
        name = cell_text(row.values[0]) if row.values else row.key
        noun = self.cap.thread_label.rstrip("s") or "Thread"
        fields = tuple((t, cell_text(v)) for t, v in zip(titles, row.values)) + (("Id", row.key),)
        self.ctx.show_detail(detail_of(f"{noun} {name}", row, fields=fields, markdown=row.markdown))

    def _thread_selected(self, thread_id: str | None) -> None:
        if thread_id is None:
            return
        cap = self.cap
        self.ctx.worker.submit("conversations-sessions", lambda: cap.sessions(thread_id),
                               on_result=self._sessions_arrived)

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
        if not self._picked_session:
            noun = self.cap.session_label.rstrip("s") or "Session"
            self.ctx.show_detail(detail_of(f"{noun} {session.title}", session, fields=(
                ("Session", session.ref.session_id), *status, ("Started", when(session.started_at)))))
        self.session = session.ref
        self._live.follow(session.ref)
        if self._focus is not None and self._focus.ref != session.ref:
            self._focus = None  # the user went elsewhere before the message was found
        cap, ref = self.cap, session.ref
        self.position.setText("Loading…")
        self.ctx.worker.submit("conversations-count", lambda: cap.message_count(ref),
                               on_result=lambda n, r=ref: self._count_arrived(r, n))

    def _count_arrived(self, ref: SessionRef, total: int) -> None:
        if ref != self.session:
            return
        self.total = total
        focus, self.focus_id, self._note = self._focus, None, ""
        if focus is not None and focus.ref == ref:
            self._focus = None
            cap = self.cap
            self.ctx.worker.submit("conversations-find",
                                   lambda: find_message(cap, ref, focus.message_id, total, focus.position),
                                   on_result=lambda at, r=ref, f=focus: self._found(r, f, at))
            return
        self._go(max(0, total - PAGE))  # a conversation opens at its end, where the latest is

    def _found(self, ref: SessionRef, focus: MessageTarget, at: int | None) -> None:
        if ref != self.session:
            return
        if at is None:  # gone since it was indexed: the end of the conversation, and say so
            self._note = f" · message {focus.message_id} is no longer in this session"
            self._go(max(0, self.total - PAGE))
            return
        self.focus_id = focus.message_id
        self._go(max(0, min(at - PAGE // 4, self.total - PAGE)))

    def _go(self, start: int) -> None:
        if self.session is None:
            return
        start = max(0, min(start, max(0, self.total - 1)))
        cap, ref = self.cap, self.session
        self.ctx.worker.submit("conversations-page", lambda: cap.messages(ref, start, PAGE),
                               on_result=lambda msgs, r=ref, s=start: self._page_arrived(r, s, msgs))

    def _page_arrived(self, ref: SessionRef, start: int, messages: list) -> None:
        if ref != self.session:
            return
        self.start, self.messages = start, messages
        self.view.setHtml(messages_html(messages, self.view.palette(), focus=self.focus_id))
        self._anchors = message_anchors(self.view.document())
        self.export_button.setEnabled(self.total > 0)
        if self.focus_id is not None and any(m.id == self.focus_id for m in messages):
            self.view.scrollToAnchor(f"m{self.focus_id}")
        elif start + PAGE >= self.total:
            self.view.verticalScrollBar().setValue(self.view.verticalScrollBar().maximum())
        end = start + len(messages)
        self.position.setText(f"{plural(self.total, 'message')} · showing {start + 1 if messages else 0:,}–{end:,}"
                              + self._note)
        self.first_button.setEnabled(start > 0)
        self.earlier_button.setEnabled(start > 0)
        self.later_button.setEnabled(end < self.total)
        self.latest_button.setEnabled(end < self.total)
        self.item_ready.emit()  # the window paints again (see Pane.item_ready)

    def jump_to_new(self) -> None:
        self._live.clear()
        self._go(max(0, self.total - PAGE))

    def _link(self, url) -> None:
        if url.scheme() == "raw":
            found = next((m for m in self.messages if m.id == url.path()), None)
            if found is not None:
                from dataclasses import replace

                item = detail_of(found.summary(60) or found.role, found, fields=(
                    ("Role", found.role), ("Kind", found.kind), ("When", when(found.at))))
                self.ctx.show_detail(replace(item, prefer_raw=True))

    # -- export and copy (the core formats and writes; this only says what) ---------------------------
    def message_at(self, position: int):
        """The message drawn at a document position (a tool result drawn under its call is its own)."""
        at = bisect.bisect_right([p for p, _ in self._anchors], position) - 1
        if at < 0:
            return self.messages[0] if self.messages else None
        message_id = self._anchors[at][1]
        return next((m for m in self.messages if m.id == message_id), None)

    def selected_message_ids(self) -> list[str]:
        """Messages the view's text selection touches, in page order (none without a selection)."""
        cursor = self.view.textCursor()
        if not cursor.hasSelection():
            return []
        first = self.message_at(cursor.selectionStart())
        ids = {first.id} if first is not None else set()
        ids.update(i for p, i in self._anchors if cursor.selectionStart() <= p < cursor.selectionEnd())
        return [m.id for m in self.messages if m.id in ids]

    def current_message(self):
        """The message at the text cursor (where the user clicked), else the highlighted one, else the last."""
        cursor = self.view.textCursor()
        if cursor.position() > 0 or cursor.hasSelection():
            return self.message_at(cursor.selectionStart())
        found = next((m for m in self.messages if m.id == self.focus_id), None)
        return found or (self.messages[-1] if self.messages else None)

    def copy_markdown(self, message=None) -> str | None:
        """Ctrl+Shift+C: the current message to the clipboard as Markdown."""
        message = message or self.current_message()
        if message is None:
            return None
        text = copy_markdown(message)
        self._say(f"Copied message {message.id} as Markdown.")
        return text

    def export_conversation(self) -> None:
        """Ctrl+Shift+E: the selected messages when text across messages is selected, else the session."""
        if self.selected_message_ids():
            self.export_selected()
        else:
            self.export_session()

    def export_session(self) -> None:
        if self.session is not None:
            self.exporter.export(self.ctx.opened, self.cap, self.session, thread_title=self._thread_title())

    def export_selected(self) -> None:
        ids = self.selected_message_ids()
        if self.session is not None and ids:
            self.exporter.export(self.ctx.opened, self.cap, self.session, thread_title=self._thread_title(),
                                 ids=ids, start=self.start, stop=self.start + len(self.messages))

    def _thread_title(self) -> str:
        row = self.threads.current_row()
        return cell_text(row.values[0]) if row is not None and row.values else ""

    def _context_menu(self, pos) -> None:
        menu = self.view.createStandardContextMenu(pos)
        menu.addSeparator()
        message = self.message_at(self.view.cursorForPosition(pos).position())
        copy = menu.addAction(f"Copy as Markdown\t{COPY_SHORTCUT}", lambda: self.copy_markdown(message))
        copy.setEnabled(message is not None)
        selected = menu.addAction("Export selected messages…", self.export_selected)
        selected.setEnabled(bool(self.selected_message_ids()))
        whole = menu.addAction("Export session…", self.export_session)
        whole.setEnabled(self.session is not None)
        menu.exec(self.view.viewport().mapToGlobal(pos))
        menu.deleteLater()

    def _export_finished(self, sentence: str) -> None:
        self._say(sentence)

    def _say(self, sentence: str) -> None:
        self.export_status.setText(sentence)
        self.export_status.show()

    def shutdown(self) -> None:
        self.exporter.shutdown()

    def follows_change(self, paths: frozenset[str]) -> bool:
        # The session shown is followed live: a burst that only grew its files is already on screen.
        followed = set(self._live.watcher.files())
        return bool(paths) and bool(followed) and paths <= followed

    # -- pane API --------------------------------------------------------------------------------------
    def shown_text(self) -> str:
        return self.view.toPlainText()

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
                    self._count_arrived(target, self.total)
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


class _LiveSession:
    """Follows the session the pane shows while its kind's files change (see the module doc)."""

    def __init__(self, pane: ConversationsPane) -> None:
        self.pane = pane
        self.ref: SessionRef | None = None
        self.token = None
        self.unseen = 0
        self.busy = self.again = False
        self.watcher = QFileSystemWatcher(pane)
        self.timer = QTimer(pane, singleShot=True, interval=LIVE_MS)
        self.watcher.fileChanged.connect(self._changed)
        self.timer.timeout.connect(self.check)
        pane.new_marker.clicked.connect(pane.jump_to_new)
        pane.latest_button.clicked.connect(self.clear)

    def follow(self, ref: SessionRef) -> None:
        if self.watcher.files():
            self.watcher.removePaths(self.watcher.files())
        self.ref, self.token, self.busy, self.again = ref, None, False, False
        self.clear()
        paths = [str(p) for p in self.pane.cap.growth_paths(ref) if p.exists()]
        if paths:
            self.watcher.addPaths(paths)

    def clear(self) -> None:
        self.unseen = 0
        self.pane.new_marker.hide()

    def _changed(self, path: str) -> None:
        if path not in self.watcher.files() and self.ref is not None and os.path.exists(path):
            self.watcher.addPath(path)  # replaced by an atomic save: watch the new file
        if not self.timer.isActive():  # not restarted: a steady writer is still checked every LIVE_MS
            self.timer.start()

    def check(self) -> None:
        pane, ref = self.pane, self.ref
        if ref is None or ref != pane.session:
            return
        if self.busy:
            self.again = True
            return
        self.busy = True
        cap, known, total = pane.cap, self.token, pane.total

        def work():
            token = cap.growth_token(ref)
            if token is None or token == known:
                return token, total, []
            count = cap.message_count(ref)
            new = cap.messages(ref, total, min(PAGE, count - total)) if count > total else []
            return token, count, new

        pane.ctx.worker.submit("conversations-grow", work, supersede=False,
                               on_result=lambda result: self._grew(ref, total, result),
                               on_error=lambda _m: self._done())

    def _done(self) -> None:
        self.busy = False
        if self.again:
            self.again = False
            self.check()

    def _grew(self, ref: SessionRef, total: int, result) -> None:
        pane = self.pane
        token, count, new = result
        if ref == self.ref:
            self.token = token
        if ref != pane.session or total != pane.total or count <= total:
            self._done()
            return
        bar = pane.view.verticalScrollBar()
        at_end = pane.start + len(pane.messages) >= total and bar.value() >= bar.maximum() and not self.unseen
        pane.total = count
        if at_end and len(new) == count - total:
            messages = (pane.messages + new)[-PAGE:]
            pane._page_arrived(ref, count - len(messages), messages)  # drawn, scrolled to the end
        elif at_end:
            pane._go(max(0, count - PAGE))
        else:
            self.unseen += count - total
            pane.new_marker.setText(f"↓ {self.unseen:,} new message{'s' if self.unseen != 1 else ''}")
            pane.new_marker.show()
            pane.later_button.setEnabled(True)
            pane.latest_button.setEnabled(True)
        self._done()

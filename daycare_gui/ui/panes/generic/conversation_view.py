"""One session of any kind: the fast message list beside the messages around the current one.

The list is a :class:`MessagePagesModel` over the store's ``KeyedPages`` (pages by key, a bounded cache,
only the rows painted decoded) drawn by :class:`HistoryList`'s row painter; the conversation beside it is
read on the worker for the current message (the messages around it, with tool results paired to their
calls even a page away) and drawn by ``message_view``. First/Last, a position box, Raw JSON per message,
export and copy, and live follow: a list at its end follows a writer (a selection on the last message
moves on with it); a list scrolled up stays and a "N new" button counts what arrived below.

The view follows a writer two ways: the window tells the page the store changed (``store_changed``, a
Daycare SQLite store), or, for a kind that names them (``growth_paths``), it watches the session's files
itself and reads on when ``growth_token`` moved.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.stores.records import Message, SessionRecord, SessionRef
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import fmt_int, fmt_time
from daycare_gui.ui.models.message_pages import MessagePagesModel
from daycare_gui.ui.panes.generic.conversation_export import ConversationExport
from daycare_gui.ui.panes.generic.conversation_window import (
    ConversationWindow,
    conversation_window,
    message_detail,
    run_of_focus,
)
from daycare_gui.ui.panes.generic.growth_watch import GrowthWatch
from daycare_gui.ui.theme import follow_palette
from daycare_gui.ui.widgets.flow_layout import FlowLayout
from daycare_gui.ui.widgets.history_list import HistoryList
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape, markdown_html
from daycare_gui.ui.widgets.message_view import call_id_of_run_url

CONVERSATION_DELAY_MS = 120  # let keyboard scrolling settle before the conversation is re-read
# While the selection rides a live tail, the details and conversation are redrawn at most this often: a
# writer at 100 messages a second would otherwise have the GUI thread laying out HTML all the time.
FOLLOW_RENDER_MS = 1000
WARM_UP_MS = 1  # the warm-up's first step in a turn of the event loop of its own, after what is pending
# Its paint off screen only for a view still hidden and without a session this long after its build (one
# built in idle time); a page opened at a session is shown with it by then, and painted for real anyway.
WARM_UP_RENDER_MS = 400
LOADING_MS = 50  # a session's answer quicker than this is painted once, without a loading state before it
CONVERSATION_MIN_WIDTH = 220  # px: a message's heading and a few words a line


_views = itertools.count(1)


class ConversationView(QWidget):
    """The message list and the conversation of one session; a pane hosts it and calls :meth:`open`."""

    opened = Signal()  # the session asked for is shown (or said to be missing): the window may paint
    # The session's answer came (or LOADING_MS passed without it): what the page shows with the session
    # (its details in the dock) is set now, to be painted with it in one repaint
    answered = Signal()
    said = Signal(str)

    def __init__(self, ctx, parent=None, *, ready_with_conversation: bool = False) -> None:
        """``ready_with_conversation``: ``opened`` waits until the conversation beside the list is drawn
        too (a page the window switches to only when it is whole); otherwise it comes with the list."""
        super().__init__(parent)
        # Worker channels of this view's own: a page holding two views (a session list's and a session's
        # own page) must not have one view's read supersede the other's.
        self._channel = f"conversation-{next(_views)}"
        self.ctx = ctx
        self._ready_with_conversation = ready_with_conversation
        self._ready_waits = False  # ``opened`` is owed once the conversation arrives
        self.cap = None
        self.ref: SessionRef | None = None
        self.thread_title = ""
        self._session: SessionRecord | None = None
        self._window: ConversationWindow | None = None
        self._conversation_for: int | None = None  # the key the conversation was last asked for
        self._expanded: set[str] = set()  # call ids whose run is shown open
        self._detail_for: int | None = None  # the key whose details the detail pane shows
        self._pending_focus: str | None = None

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.heading = QLabel("Select a session.")
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)

        # The buttons wrap onto a second line rather than widen the page: in one row they asked ~680 px,
        # and a page beside the navigation and the Details dock at 1280 px could not give them that.
        bar = FlowLayout()
        self.home_button = QPushButton("⇤ First (Ctrl+Home)")
        self.end_button = QPushButton("Last ⇥ (Ctrl+End)")
        self.goto_box = QSpinBox()
        # A place in the session, named so: the messages show each one's id, another number ("id 24" may
        # be the 11th message), and a bare "Record #" box read as that id.
        self.goto_box.setPrefix("Position ")
        self.goto_box.setRange(0, 0)
        self.goto_box.setToolTip("Go to a position in the session (1 = first message; not the id the "
                                 "messages show); Enter jumps there")
        self.goto_button = QPushButton("Go")
        self.raw_button = QPushButton("Raw JSON")
        self.raw_button.setToolTip("The current message as stored, whole (Enter on a row)")
        self.position = QLabel()
        self.export = ConversationExport(self)
        self.new_marker = QPushButton()
        self.new_marker.setObjectName("newRecordsMarker")
        self.new_marker.setToolTip("Messages appended below; click to jump to the end")
        self.new_marker.hide()
        for w in (self.home_button, self.end_button, self.goto_box, self.goto_button, self.raw_button,
                  self.export.button, self.new_marker):
            bar.addWidget(w)
        bar.addWidget(self.position)
        layout.addLayout(bar)

        self.model = MessagePagesModel(ctx.worker, parent=self)
        self.list = HistoryList()
        self.list.setModel(self.model)
        self.list.setShowGrid(False)
        self.list.horizontalHeader().hide()
        self.list.horizontalHeader().setStretchLastSection(True)
        vertical = self.list.verticalHeader()
        vertical.hide()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.model.modelReset.connect(self.list.rows.clear_cache)  # another session's messages
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # several messages (Shift/Ctrl+click) can be exported together
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self.export.context_menu)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # The bar stays shown: rows are drawn once for the list's width, and a bar appearing when the
        # session's count arrives would narrow the list and have every row on screen drawn again.
        self.list.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.list.setWordWrap(False)
        self.conversation = SafeTextBrowser()
        self.conversation.setObjectName("conversation")
        # Room to read a message beside the list, however narrow the page: the thread list beside yields first
        self.conversation.setMinimumWidth(CONVERSATION_MIN_WIDTH)
        # A conversation nearly always scrolls: with the bar shown for good, a new one is laid out once.
        self.conversation.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        follow_palette(self.conversation, lambda: self._render(scroll_to_focus=False))  # tints follow
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(self.conversation)
        # As much to the list as to the conversation: the list's time and kind take ~250 px before any of
        # a message's summary shows.
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        split.setSizes([460, 460])
        layout.addWidget(split, 1)
        layout.addWidget(self.export.status)
        self.setTabOrder(self.list, self.conversation)

        self._timer = QTimer(self, singleShot=True, interval=CONVERSATION_DELAY_MS)
        self._timer.timeout.connect(self._request_conversation)
        # The detail pane follows the current message in the next turn of the event loop, after the list
        # has painted: a page is on screen first, and holding an arrow key updates it once per turn.
        self._detail_timer = QTimer(self, singleShot=True, interval=0)
        self._detail_timer.timeout.connect(self._show_current_detail)
        self._scroll_value = 0
        self._jumping = False
        self._last_when_counted = False  # "Last" pressed while the session was still being counted
        self.list.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.list.selectionModel().currentRowChanged.connect(self._current_changed)
        self.list.activated.connect(lambda index: self.show_raw_row(index.row()))
        self.model.rows_loaded.connect(self._rows_loaded)
        self._unseen = 0  # messages appended below while the list was scrolled up
        self._follow = False  # the list was at its end when the last growth began
        self._current_was_last = False
        self._riding_tail = False  # the current row is being moved by a growth, not by the user
        self._loading = True  # the view says its session is loading, or shows one (see open)
        self._loading_timer = QTimer(self, singleShot=True, interval=LOADING_MS)
        self._loading_timer.timeout.connect(self._show_loading)
        self._tail_render = QTimer(self, singleShot=True, interval=FOLLOW_RENDER_MS)
        self._tail_render.timeout.connect(self._render_tail)
        self.model.rowsAboutToBeInserted.connect(self._before_growth)
        self.model.grown.connect(self._grown)
        self.new_marker.clicked.connect(self.jump_to_new)
        self.home_button.clicked.connect(self.go_first)
        self.end_button.clicked.connect(self.go_last)
        self.goto_button.clicked.connect(self._goto_typed)
        self.goto_box.lineEdit().returnPressed.connect(self._goto_typed)
        self.raw_button.clicked.connect(lambda: self.show_raw_row(self.current_row()))
        self.conversation.anchorClicked.connect(self._anchor_clicked)
        for keys, slot in (("Ctrl+Home", self.go_first), ("Ctrl+End", self.go_last)):
            QShortcut(QKeySequence(keys), self, slot, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._watch = GrowthWatch(self)
        self._enable(False)
        # Timers, not a call posted with the page's build: the build's own layout and first paint come
        # first, and the event loop turns between the warm-up's two steps (together with the build they
        # were one ~60 ms freeze of the 1M demo's Agents page, in which its first list waited).
        self._warm_steps = [(WARM_UP_MS, self._warm_up_rows), (WARM_UP_RENDER_MS, self._warm_up)]
        self._warm_timer = QTimer(self, singleShot=True)
        self._warm_timer.timeout.connect(self._warm_up_step)
        self._warm_timer.start(self._warm_steps[0][0])

    def _warm_up_step(self) -> None:
        self._warm_steps.pop(0)[1]()
        if self._warm_steps:
            self._warm_timer.start(self._warm_steps[0][0])

    def _warm_up(self) -> None:
        """Lay out and paint once off screen, so the first session opened does not pay for polishing,
        fonts and glyphs (tens of ms, once). Not for a view on screen already (a page that shows it at
        once), nor one given a session to show (a page opened at a session is shown once that session is):
        its own first paint comes then and does that, and the render would draw it a second time."""
        if self.isVisible() or self.ref is not None:
            return
        size = self.size().expandedTo(QSize(800, 600))
        self.render(QImage(size, QImage.Format.Format_ARGB32_Premultiplied))

    def _warm_up_rows(self) -> None:
        self.list.rows.warm_up(self.list.font(), self.list.palette(),
                               self.list.verticalHeader().defaultSectionSize(), self.devicePixelRatioF())

    # -- opening ---------------------------------------------------------------------------------
    def open(self, cap, ref: SessionRef, *, focus: str | None = None, position: int | None = None,
             thread_title: str | None = None, session: SessionRecord | None = None,
             describe: bool = True) -> None:
        """Show ``ref`` of ``cap`` (an ``api.Conversations``), at the message ``focus`` (its id; the
        session's end when None or gone). ``position`` is where the caller saw it (a hint). The thread's
        title and the session's record are read when not given. ``describe=False`` leaves the detail pane
        to whatever the user picked (the thread): only a message the user moves to describes itself."""
        self.cap, self.ref = cap, ref
        self._quiet_detail = not describe
        self._window = None
        self._expanded.clear()
        self._detail_for = None
        self._conversation_for = None
        self._last_when_counted = False
        self._clear_marker()
        # The view says it is loading only when the answer is slow (LOADING_MS): a quick one is painted once,
        # rows, heading and all. Said at once, the loading state cost a repaint of the whole view on the way,
        # which the answer then waited behind; meanwhile the list keeps its last rows on screen, not blank.
        self._loading = False
        self.list.viewport().setUpdatesEnabled(False)  # (before the model empties: no paint of that)
        self._loading_timer.start()
        self.model.clear()
        self._watch.follow(cap, ref)
        size = self.model.page_size
        # Opened from a session list that counted the session a moment ago: its end is shown at that count
        # at once, and counted again after the paint (a long session's count costs more than its last page;
        # a writer that appended meanwhile is noticed then). Without it the count comes first.
        listed = session.message_count if session is not None and focus is None else None
        listed = listed if isinstance(listed, int) and listed > size else None

        def work():  # one round trip: the heading, the count, the row to open at, and that row's page
            heading = (thread_title, session) if thread_title is not None else cap.session_heading(ref)
            if listed is not None:
                last_page = (listed - 1) // size
                return heading, None, None, last_page, cap.page_before(ref, None, listed - last_page * size), listed
            row = cap.locate(ref, focus, position) if focus is not None else None
            if row is not None and row < size:
                # On the first page: show it before counting the session (a long one's count takes longer).
                return heading, None, row, 0, cap.page_after(ref, None, size)
            count, last = cap.tail(ref)
            target = count - 1 if row is None else min(row, count - 1)
            page = max(0, target) // size
            rows = MessagePagesModel.fetch_page_without_keys(cap, ref, count, page, size) if count else []
            return heading, (count, last), row, page, rows

        # A session listed before its count was known (Conversations.sessions_now) opens once it is known, on
        # the slow worker: the page worker stays free for the lists the user goes on clicking meanwhile.
        pending = session is not None and session.count_pending
        worker, other = (self.ctx.slow_worker, self.ctx.worker) if pending else (self.ctx.worker, self.ctx.slow_worker)
        if other is not worker:
            other.cancel(f"{self._channel}-open")  # (an open still on its way there is not this one)
        worker.submit(f"{self._channel}-open", work, on_result=self._ready_after(self._opened),
                      on_error=self._ready_after(self._open_failed))

    def _show_loading(self) -> None:
        """The session asked for is slow (LOADING_MS have passed): the view says it is loading it."""
        if self._answer_came():
            self._enable(False)
            self.heading.setText(f"Loading session {escape(self.ref.session_id)}…")

    def _answer_came(self) -> bool:
        """The list shows the session asked for from now on (its answer came, or it is slow): its paints are
        on again and the conversation beside it, read after the list, says it is loading. True the first
        time for this session.

        The heading, the buttons and the position box are left to the answer, which sets them all: set to
        a loading state and back in the same moment, each flip repainted the whole button bar for nothing."""
        self._loading_timer.stop()
        if self._loading or self.ref is None:
            return False
        self._loading = True
        self.list.viewport().setUpdatesEnabled(True)  # (repaints it: empty, or the rows that came)
        self.conversation.setHtml("<p class='meta'>Loading…</p>")
        self.answered.emit()
        return True

    def _ready_after(self, show):
        def run(result) -> None:
            self._ready_waits = False
            self._answer_came()  # (painted with the answer, which sets the heading and buttons)
            try:
                show(result)
            finally:
                if self._ready_with_conversation and self.model.rowCount() and self.current_row() >= 0:
                    self._ready_waits = True  # said when the conversation is drawn (or cannot be)
                else:
                    self.opened.emit()
        return run

    def _owed_ready(self) -> None:
        if self._ready_waits:
            self._ready_waits = False
            self.opened.emit()

    def _open_failed(self, msg: str) -> None:
        self._enable(False)
        self.heading.setText(f"Cannot read this session: {escape(msg)}")

    def _opened(self, result) -> None:
        (title, session), counted_as, row, page, rows, *listed = result
        self._listed = listed[0] if listed else None  # shown at the session list's count, not counted yet
        counted = counted_as is not None or (self._listed is None and len(rows) < self.model.page_size)
        count, last = counted_as if counted_as is not None else (self._listed or len(rows), None)
        self.thread_title, self._session = title or "", session
        if session is None and not count:
            self._enable(False)
            self.heading.setText(f"No session {escape(self.ref.session_id)} in this store.")
            self.conversation.setHtml("")
            return
        self._set_heading(count, counted or self._listed is not None)
        if last is None and counted:  # the first page is the whole session
            last = rows[-1].key if rows else -1
        self.model.set_session(self.cap, self.ref, count, load_ids=counted, counted=counted,
                               last_key=-1 if counted and last is None else last)
        self.model.seed_page(page, rows)
        if not counted:
            # Counted once the list has painted the page: counting a long session is work on the other
            # core, which would slow that paint.
            self.list.after_paint(lambda ref=self.ref: self._count(ref))
        self._goto_range(count)
        self._enable(count > 0)
        if count == 0:
            self.conversation.setHtml("<p>This session has no messages.</p>")
            return
        # Jump before the view first paints, so only the target's page is fetched.
        self.go_to_row(count - 1 if row is None else min(row, count - 1))
        self.list.setFocus()
        if counted:
            # behind the paint: a page read on the worker meanwhile would hold the interpreter lock
            self.list.after_paint(self.model.read_ends)

    def _count(self, ref: SessionRef) -> None:
        """Count the session shown and read its last page with it (unless another was opened meanwhile)."""
        if self.model.ref != ref:
            return
        cap, size = self.cap, self.model.page_size
        self.ctx.worker.submit(
            f"{self._channel}-count", lambda: MessagePagesModel.count_with_last_page(cap, ref, size),
            on_result=self._counted,
            on_error=lambda msg: self._set_heading(self.model.rowCount(), True,
                                                   f"messages not counted: {escape(msg)}"))

    def _set_heading(self, count: int, counted: bool = True, messages: str | None = None) -> None:
        s = self._session
        parts = [f"<b>{escape(self.thread_title)}</b>", f"session <code>{escape(self.ref.session_id)}</code>"]
        if s is not None:
            if s.started_at:
                parts.append(f"created {fmt_time(s.started_at)}")
            if s.status == "ended" and s.updated_at:
                parts.append(f"ended {fmt_time(s.updated_at)}")
            elif s.status:
                parts.append(escape(s.status))
        if messages is None:
            messages = f"<b>{fmt_int(count)}</b> messages" if counted else "counting messages…"
        self.heading.setText(" · ".join(parts + [messages]))

    _listed: int | None = None  # the count a session list gave, until the session is counted here

    def _counted(self, result) -> None:
        count, last, last_rows = result
        if self.model.ref != self.ref:
            return
        listed, self._listed = self._listed, None
        shown_last = self.model.key_of(listed - 1) if listed is not None else None  # (None: scrolled away)
        # (keys are ints in the model; a store may give the last key as text, as today's Daycare does)
        last_key = None if last is None else int(last)
        if listed is not None and (count != listed or shown_last not in (None, last_key)):
            # Not what the list counted (a writer appended, or messages went): the rows shown at the list's
            # count are not at their places. Shown again at the session's end, as counted now.
            self.model.set_session(self.cap, self.ref, count, counted=True, last_key=-1 if last is None else int(last))
            if last_rows:
                self.model.seed_page((count - 1) // self.model.page_size, last_rows)
            self._set_heading(count)
            self._goto_range(count)
            self.go_to_row(count - 1)
            self.model.read_ends()
            return
        self.model.grow(count, -1 if last is None else int(last))
        if last_rows:
            self.model.seed_page((count - 1) // self.model.page_size, last_rows)
        self._set_heading(count)
        self._goto_range(count)
        row = self.current_row()
        if row >= 0:
            self.position.setText(f"{row + 1:,} of {count:,}")
        if self._last_when_counted:
            self._last_when_counted = False
            self.go_last()
        self.model.read_ends()

    # -- following a live writer --------------------------------------------------------------------
    def store_changed(self) -> bool:
        """The store changed on disk: read what the open session gained. True when the view follows
        changes itself (no Reload needed); a private snapshot copy does not."""
        if self.cap is None or self.ref is None or not self.cap.follows_writes():
            return False
        self.model.follow_writer()
        return True

    def follows_change(self, paths: frozenset[str]) -> bool:
        """The change was only the shown session's files growing: already on screen."""
        followed = set(self._watch.watcher.files())
        return bool(paths) and bool(followed) and paths <= followed

    def at_end(self) -> bool:
        bar = self.list.verticalScrollBar()
        return bar.value() >= bar.maximum()

    def _before_growth(self, _parent, _first, _last) -> None:
        self._follow = self.at_end() and not self._unseen
        self._current_was_last = self.current_row() == self.model.rowCount() - 1

    def _grown(self, first: int, last: int) -> None:
        count = self.model.rowCount()
        self._goto_range(count)
        self._enable(True)
        self._set_heading(count)
        row = self.current_row()
        if row >= 0:
            self.position.setText(f"{row + 1:,} of {count:,}")
        if self._follow:
            if self._current_was_last or row < 0:
                self._riding_tail = True  # the conversation moves on with the tail (redrawn now and then)
                try:
                    self.list.setCurrentIndex(self.model.index(last))
                finally:
                    self._riding_tail = False
            self.list.scrollToBottom()
            return
        self._unseen += last - first + 1
        self.new_marker.setText(f"↓ {self._unseen:,} new message{'s' if self._unseen != 1 else ''}")
        self.new_marker.show()

    def new_records(self) -> int:
        """Messages appended below the view since the user scrolled up (what the marker says)."""
        return self._unseen

    def jump_to_new(self) -> None:
        self._clear_marker()
        self.go_last()
        self.list.scrollToBottom()
        self.list.setFocus()

    def _clear_marker(self) -> None:
        self._unseen = 0
        self.new_marker.hide()

    def _enable(self, on: bool) -> None:
        for w in (self.home_button, self.end_button, self.goto_box, self.goto_button, self.raw_button,
                  self.export.button):
            w.setEnabled(on)

    # -- moving ------------------------------------------------------------------------------------
    def go_to_row(self, row: int) -> None:
        if not (0 <= row < self.model.rowCount()):
            return
        index = self.model.index(row)
        self._jumping = True  # a jump, not scrolling: nothing to read ahead of
        try:
            self.list.setCurrentIndex(index)
            self.list.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        finally:
            self._jumping = False
        self._scroll_value = self.list.verticalScrollBar().value()

    def go_first(self) -> None:
        self.go_to_row(0)

    def go_last(self) -> None:
        if self.ref is not None and not self.model.counted:
            self._last_when_counted = True  # the session's end, not the end of what is counted so far
            return
        self.go_to_row(self.model.rowCount() - 1)

    def _goto_range(self, count: int) -> None:
        self.goto_box.setRange(1 if count else 0, count)
        self.goto_box.setSuffix(f" of {count:,}")

    def _goto_typed(self) -> None:
        self.go_to_row(self.goto_box.value() - 1)
        self.list.setFocus()

    def current_row(self) -> int:
        return self.list.currentIndex().row()

    # -- selection → detail and conversation ------------------------------------------------------
    def _current_changed(self, current, _previous) -> None:
        row = current.row()
        if row >= 0:
            self.position.setText(f"{row + 1:,} of {self.model.rowCount():,}")
            if not self.goto_box.hasFocus():  # the box follows the selection unless the user is typing in it
                self.goto_box.setValue(row + 1)
            self.model.request_row(row)
        if self._riding_tail:
            if not self._tail_render.isActive():  # not restarted: a steady writer still gets a redraw
                self._tail_render.start()
            return
        self._tail_render.stop()
        self._detail_timer.start()
        self._timer.start()

    def _render_tail(self) -> None:
        self._show_current_detail()
        self._request_conversation()

    def _rows_loaded(self, first: int, last: int) -> None:
        row = self.current_row()
        if first <= row <= last:
            if self._detail_for != self.model.key_of(row):  # (a page read again leaves a Raw view shown)
                self._detail_timer.start()
            if self._conversation_for is None or self._conversation_for != self.model.key_of(row):
                self._timer.start()

    def _scrolled(self, value: int) -> None:
        """While the user scrolls (steps up to a page, not a jump), read the pages past the screen ahead;
        at the end, the messages that arrived below have been seen."""
        if self._unseen and value >= self.list.verticalScrollBar().maximum():
            self._clear_marker()  # the user scrolled down to them
        step, self._scroll_value = value - self._scroll_value, value
        size = self.model.page_size
        if 0 < abs(step) <= size and not self._jumping:
            height = max(1, self.list.verticalHeader().defaultSectionSize())
            bottom = value + self.list.viewport().height() // height
            self.model.request_row(value)  # the screen's own pages first: the paint would ask for them next
            self.model.request_row(bottom)
            # Two pages ahead: under a busy GUI thread a page read waits for the interpreter lock between
            # rows, so one page ahead arrives after a fast scroll needs it.
            for pages in (1, 2):
                self.model.read_ahead(bottom + pages * size if step > 0 else value - pages * size)

    _quiet_detail = False  # the row the session opened at does not describe itself (see open)

    def _show_current_detail(self) -> None:
        row = self.current_row()
        message = self.model.record(row)
        if message is not None:
            self._detail_for = self.model.key_of(row)
            if self._quiet_detail:
                self._quiet_detail = False
                return
            self.ctx.show_detail(message_detail(message))

    def _request_conversation(self) -> None:
        row = self.current_row()
        key = self.model.key_of(row)
        if self.model.record(row) is None or key is None or self.ref is None:
            return  # its page is on the way; _rows_loaded asks again
        if self._conversation_for == key and self._window is not None:
            return
        self._conversation_for = key
        cap, ref = self.cap, self.ref
        markdown_html("")  # the Markdown renderer is made (and imported) here, on the GUI thread
        palette = QPalette(self.conversation.palette())  # a copy: a value, safe on the worker
        expanded = frozenset(self._expanded)

        def work():  # the HTML too is pure string building: made on the worker, only set on this thread
            window = conversation_window(cap, ref, key)
            shown_open = expanded | run_of_focus(window)
            return window, window.html(palette, shown_open), (palette.cacheKey(), shown_open)

        # On the background worker: the page worker stays free for the list's pages, which the user scrolls.
        self.ctx.slow_worker.submit(f"{self._channel}-window", work,
                                    on_result=lambda answer, r=ref: self._conversation_arrived(r, *answer),
                                    on_error=self._conversation_failed)

    def _conversation_failed(self, msg: str) -> None:
        self.conversation.setHtml(f"<p>Cannot read: {escape(msg)}</p>")
        self._owed_ready()

    def _conversation_arrived(self, ref: SessionRef, window: ConversationWindow, html: str, made_with) -> None:
        if ref != self.ref:
            return
        self._window = window
        self._expanded |= run_of_focus(window)  # a step the user picked is shown open, not in a fold
        # drawn for the palette shown still (the desktop may have switched light ↔ dark meanwhile), and the
        # runs the user opened or closed meanwhile
        current = (self.conversation.palette().cacheKey(), frozenset(self._expanded))
        self._render(scroll_to_focus=True, html=html if made_with == current else None)
        self._owed_ready()

    def _render(self, scroll_to_focus: bool, html: str | None = None) -> None:
        window = self._window
        if window is None:
            return
        bar = self.conversation.verticalScrollBar()
        keep = bar.value()
        if html is None:  # a run opened or closed, or the palette changed: drawn again here
            html = window.html(self.conversation.palette(), frozenset(self._expanded))
        self.conversation.setHtml(html)
        if scroll_to_focus and window.focus_id is not None:
            self.conversation.scrollToAnchor(f"m{window.focus_id}")
        else:
            bar.setValue(keep)

    def conversation_html(self) -> str:
        """The rendered conversation (tests and "copy" use it)."""
        return self.conversation.toHtml()

    def shown_text(self) -> str:
        return self.conversation.toPlainText()

    # -- raw view and links ---------------------------------------------------------------------------
    def _anchor_clicked(self, url) -> None:
        if url.scheme() == "run":
            self.toggle_run(call_id_of_run_url(url.path()))
            return
        if url.scheme() != "raw" or self._window is None:
            return
        message_id = url.path()
        window = self._window
        for m in (*window.messages, *window.partners.values(), *window.steps, *window.rewritten.values(),
                  *window.rewrites.values()):
            if m.id == message_id:
                self.show_raw(window.keys.get(message_id), m)
                return

    def toggle_run(self, call_id: str) -> None:
        """Open or close the steps of one call's run (the ``run:`` link)."""
        if call_id in self._expanded:
            self._expanded.discard(call_id)
        else:
            self._expanded.add(call_id)
        self._render(scroll_to_focus=False)

    def show_raw_row(self, row: int) -> None:
        message = self.model.record(row)
        if message is not None:
            self.show_raw(self.model.key_of(row), message)

    def show_raw(self, key: int | None, message: Message) -> None:
        """The message as stored, whole (a VM snapshot included), in the detail pane's Raw tab."""
        cap, ref = self.cap, self.ref
        # What the user asked for stays until they move: the current row's own details, due from a timer or
        # from its page arriving (again) a moment later, would replace the Raw view they just opened.
        self._detail_timer.stop()
        self._detail_for = self.model.key_of(self.current_row())
        fields = (("Message id", message.id), ("Kind", message.kind or message.role),
                  ("Shown", "the message as the store keeps it (Raw JSON tab)"))
        title = f"Raw JSON · id {message.id}"
        if key is None or cap is None:
            self.ctx.show_detail(DetailItem(title, fields, message.raw, prefer_raw=True))
            return

        def shown(raw) -> None:
            if raw is None:
                self.ctx.show_detail(DetailItem(f"Message id {message.id}", (("Problem", "no such message any more"),)))
                return
            extra = (("Stored size", f"{len(raw):,} characters"),) if isinstance(raw, str) else ()
            self.ctx.show_detail(DetailItem(title, fields + extra, raw, prefer_raw=True))

        self.ctx.worker.submit(f"{self._channel}-raw", lambda: cap.raw(ref, key), on_result=shown,
                               on_error=lambda msg: self.ctx.show_detail(DetailItem(
                                   f"Message id {message.id}", (("Problem", f"not read: {msg}"),))))

    def focus_goto(self) -> None:
        """Ctrl+F: the view has no filter; the position box is its search field."""
        self.goto_box.setFocus()
        self.goto_box.selectAll()

    def shutdown(self) -> None:
        self._loading_timer.stop()
        self._timer.stop()
        self._detail_timer.stop()
        self._tail_render.stop()
        self._watch.stop()
        self.export.shutdown()
        self.model.clear()

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

Here are the view's widgets, moving in the list, Raw JSON and the links; how it opens a session and counts
it is in ``conversation_opening.py``, how it follows the current message (the details, the conversation
beside, the pages read ahead) in ``conversation_current.py``, and how it follows a writer in
``conversation_live.py``.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QKeySequence, QShortcut
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
from daycare_gui.ui.models.message_pages import MessagePagesModel
from daycare_gui.ui.panes.generic.conversation_current import CurrentMessage
from daycare_gui.ui.panes.generic.conversation_export import ConversationExport
from daycare_gui.ui.panes.generic.conversation_live import LiveFollow
from daycare_gui.ui.panes.generic.conversation_opening import SessionOpening
from daycare_gui.ui.panes.generic.conversation_window import ConversationWindow
from daycare_gui.ui.panes.generic.growth_watch import GrowthWatch
from daycare_gui.ui.theme import follow_palette
from daycare_gui.ui.widgets.flow_layout import FlowLayout
from daycare_gui.ui.widgets.history_list import HistoryList
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser
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


class ConversationView(SessionOpening, LiveFollow, CurrentMessage, QWidget):
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
        self._first_when_counted = False  # "First" pressed while only the session's end was shown
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
        if self._from_end and not self.model.counted:
            self._first_when_counted = True  # row 0 is not the first message until the session is counted
            return
        self.go_to_row(0)

    def go_last(self) -> None:
        if self.ref is not None and not self.model.counted:
            self._last_when_counted = True  # the session's end, not the end of what is counted so far
            return
        self.go_to_row(self.model.rowCount() - 1)

    def _goto_range(self, count: int | None) -> None:
        """The Go to box for ``count`` messages; None: not counted yet, rows placed from the end (it is
        disabled and says so, rather than offer positions that are not the session's)."""
        self.goto_box.setSpecialValueText("counting…" if count is None else "")
        self.goto_box.setRange(0 if not count else 1, count or 0)
        self.goto_box.setSuffix("" if count is None else f" of {count:,}")

    def _goto_typed(self) -> None:
        self.go_to_row(self.goto_box.value() - 1)
        self.list.setFocus()

    def current_row(self) -> int:
        return self.list.currentIndex().row()


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

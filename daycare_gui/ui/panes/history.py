"""History of one session: a paged record list beside the records around the current one as a conversation.

Opened with ``navigate("history", (agent_id, session_id, record_id or None))``. The list is a
:class:`HistoryModel` (pages by key, bounded cache); the conversation is a :class:`ConversationWindow`
read on the worker for the current record and rendered by :class:`ConversationRenderer`. Opening shows
the session's last records unless a record id is given.

It follows a live writer: when the store changes on disk the window calls :meth:`HistoryPane.store_changed`
and the model reads only the records after its last one. A list at its end follows them (and a selection
on the last record moves on with it); a list scrolled up stays where it is and a "N new records" button
counts what arrived below, jumping to the end when clicked.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QImage, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
)

from daycare_gui.core.queries.history import entry_id, full_data, locate, page_after
from daycare_gui.core.queries.history_pages import conversation_window, session_header
from daycare_gui.core.queries.legacy_history import legacy_window
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import fmt_int, fmt_time
from daycare_gui.ui.models.history_model import HistoryModel, kind_of
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.history_export import SessionExport
from daycare_gui.ui.panes.history_legacy import LegacySessions
from daycare_gui.ui.theme import colours, follow_palette
from daycare_gui.ui.widgets.conversation import ConversationRenderer, call_id_from_url, style_sheet
from daycare_gui.ui.widgets.export import ConversationExporter
from daycare_gui.ui.widgets.history_list import HistoryList
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape, markdown_html

CONVERSATION_DELAY_MS = 120  # let keyboard scrolling settle before the conversation is re-read
# While the selection rides a live tail, the details and conversation are redrawn at most this often: a
# writer at 100 records a second would otherwise have the GUI thread laying out HTML all the time.
FOLLOW_RENDER_MS = 1000


def _opened_run(window) -> set[str]:
    """A Python run step the user picked is shown open, not hidden in a fold."""
    focus = next((r for r in window.records if r.id == window.focus_id), None)
    return {focus.tool_call_id} if focus is not None and focus.is_rlm and focus.tool_call_id else set()


def record_detail(rec, problem: str | None, size: int | None) -> DetailItem:
    fields = [("Kind", rec.type), ("Time", fmt_time(rec.at)), ("Record id", str(rec.id)),
              ("Session", rec.session_id or "")]
    if size is not None:
        fields.append(("Stored size", f"{size:,} bytes"))
    for label, value in (("Tool call id", rec.tool_call_id), ("Tool", rec.tool_name), ("Reason", rec.reason),
                         ("Rewrites message at", fmt_time(rec.assistant_at) if rec.assistant_at else None)):
        if value:
            fields.append((label, value))
    if rec.tokens is not None:
        fields.append(("Model", f"{rec.tokens.provider} / {rec.tokens.model}"))
        fields.append(("Tokens", f"{rec.tokens.size.total:,}"))
    for f in rec.files:
        fields.append(("File", f"{f.name} · {f.mime_type} · {f.size:,} bytes · {f.path}"))
    if problem:
        fields.append(("Problem", problem))
    if rec.type == "rlm_tool_call":
        fields.append(("Note", "the VM snapshot is left out here; the raw JSON link shows it"))
    return DetailItem(f"{kind_of(rec.type)[1]} · record id {rec.id}", tuple(fields), rec.data,
                      markdown=rec.text if rec.text else None)


class HistoryPane(LegacySessions, SessionExport, Pane):
    pane_id = "history"
    title = "Conversation"
    opens_before_shown = True  # open_item starts one read on the worker; _opened shows it

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self._target: tuple | None = None
        self._legacy = None  # the LegacyConversation shown, for a store without a database
        self._header = None
        self._window = None
        self._expanded: set[str] = set()
        self._conversation_for: int | None = None  # record id the conversation was last asked for

        layout = QVBoxLayout(self)
        self.heading = QLabel("Open a session from Agents (Enter on a session).")
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)

        bar = QHBoxLayout()
        self.home_button = QPushButton("⇤ First (Ctrl+Home)")
        self.end_button = QPushButton("Last ⇥ (Ctrl+End)")
        self.goto_box = QSpinBox()
        # A place in the session, named so: the message headers show each record's id, another number
        # ("record id 24" may be the 11th record), and a bare "Record #" box read as that id.
        self.goto_box.setPrefix("Position ")
        self.goto_box.setRange(0, 0)
        self.goto_box.setToolTip("Go to a position in the session (1 = first record; not the record id the "
                                 "messages show); Enter jumps there")
        self.goto_button = QPushButton("Go")
        self.raw_button = QPushButton("Raw JSON")
        self.raw_button.setToolTip("The stored JSON of the current record, snapshot included (Enter on a row)")
        self.position = QLabel()
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Write this session, or the selected records, as Markdown, HTML or JSONL")
        export_menu = QMenu(self.export_button)
        export_menu.addAction("Whole session…", self.export_session)
        self.export_selected_action = export_menu.addAction("Selected records…", self.export_selected)
        export_menu.aboutToShow.connect(lambda: self.export_selected_action.setEnabled(bool(self.selected_rows())))
        self.export_button.setMenu(export_menu)
        self.new_marker = QPushButton()
        self.new_marker.setObjectName("newRecordsMarker")
        self.new_marker.setToolTip("Records the engine appended below; click to jump to the end")
        self.new_marker.hide()
        for w in (self.home_button, self.end_button, self.goto_box, self.goto_button, self.raw_button,
                  self.export_button, self.new_marker):
            bar.addWidget(w)
        bar.addWidget(self.position, 1, Qt.AlignmentFlag.AlignRight)
        layout.addLayout(bar)
        self.exporter = ConversationExporter(self)
        self.exporter.finished.connect(self._say)

        self.model = HistoryModel(ctx.worker, parent=self)
        self.list = HistoryList()
        self.list.setModel(self.model)
        self.list.setShowGrid(False)
        self.list.horizontalHeader().hide()
        self.list.horizontalHeader().setStretchLastSection(True)
        vertical = self.list.verticalHeader()
        vertical.hide()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.model.modelReset.connect(self.list.rows.clear_cache)  # another session's records
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # several records (Shift/Ctrl+click) can be exported together
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._context_menu)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # The bar stays shown: rows are drawn once for the list's width, and a bar appearing when the
        # session's count arrives would narrow the list and have every row on screen drawn again.
        self.list.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.list.setWordWrap(False)
        self.conversation = SafeTextBrowser(style=style_sheet)
        self.conversation.setObjectName("conversation")
        # A conversation nearly always scrolls: with the bar shown for good, a new one is laid out once,
        # not once without the bar and again with it (a third less time on the GUI thread per record).
        self.conversation.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        # the desktop switched between light and dark: the HTML carries tints, so render it again
        follow_palette(self.conversation, lambda: self._render(scroll_to_focus=False))
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(self.conversation)
        # As much to the list as to the conversation: the list's time and kind columns take ~250 px before
        # any of a record's summary shows (two fifths left previews of 3 or 4 characters at 1280 px).
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        split.setSizes([460, 460])
        layout.addWidget(split, 1)
        self.export_status = QLabel()
        self.export_status.setWordWrap(True)
        self.export_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.export_status.hide()
        layout.addWidget(self.export_status)
        self.setTabOrder(self.list, self.conversation)

        self._timer = QTimer(self, singleShot=True, interval=CONVERSATION_DELAY_MS)
        self._timer.timeout.connect(self._request_conversation)
        # The detail pane follows the current record in the next turn of the event loop, after the list
        # has painted: a page is on screen first, and holding an arrow key updates it once per turn.
        self._detail_timer = QTimer(self, singleShot=True, interval=0)
        self._detail_timer.timeout.connect(self._show_current_detail)
        self._scroll_value = 0
        self._jumping = False
        self._last_when_counted = False  # "Last" pressed while the session was still being counted
        self.list.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.list.selectionModel().currentRowChanged.connect(self._current_changed)
        self.list.activated.connect(lambda index: self.show_raw(self.model.record(index.row())))
        self.model.rows_loaded.connect(self._rows_loaded)
        self._unseen = 0  # records appended below while the list was scrolled up
        self._follow = False  # the list was at its end when the last growth began
        self._current_was_last = False
        self._riding_tail = False  # the current row is being moved by a growth, not by the user
        self._tail_render = QTimer(self, singleShot=True, interval=FOLLOW_RENDER_MS)
        self._tail_render.timeout.connect(self._render_tail)
        self.model.rowsAboutToBeInserted.connect(self._before_growth)
        self.model.grown.connect(self._grown)
        self.new_marker.clicked.connect(self.jump_to_new)
        self.home_button.clicked.connect(self.go_first)
        self.end_button.clicked.connect(self.go_last)
        self.goto_button.clicked.connect(self._goto_typed)
        self.goto_box.lineEdit().returnPressed.connect(self._goto_typed)
        self.raw_button.clicked.connect(lambda: self.show_raw(self.model.record(self.list.currentIndex().row())))
        self.conversation.anchorClicked.connect(self._anchor_clicked)
        for keys, slot in (("Ctrl+Home", self.go_first), ("Ctrl+End", self.go_last)):
            QShortcut(QKeySequence(keys), self, slot, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        QTimer.singleShot(0, self._warm_up)

    def _warm_up(self) -> None:
        """The window builds this page in idle time; lay it out and paint it once off screen too, so the
        first session opened does not pay for polishing, fonts and glyphs (tens of ms, once)."""
        size = self.size().expandedTo(QSize(800, 600))
        self.render(QImage(size, QImage.Format.Format_ARGB32_Premultiplied))
        self.list.rows.warm_up(self.list.font(), self.list.palette(),
                               self.list.verticalHeader().defaultSectionSize(), self.devicePixelRatioF())

    # -- opening ---------------------------------------------------------------------------------
    def load(self) -> None:
        if self.ctx.store.db is None and not (self._target and self._target[0] == "legacy"):
            self.heading.setText("This store has no database (a legacy store): open a session from the "
                                 "Agents page to read it from its history.jsonl.")
            self._enable(False)
            return
        if self._target is not None:
            self.open_item(self._target)
        else:
            self._enable(False)

    def link_target(self, _view=None) -> tuple[str, str] | None:
        """The session shown (Copy link)."""
        if self._target and self._target[0] != "legacy":
            return "session", str(self._target[1])
        return None

    def open_item(self, target) -> None:
        """``target``: ``(agent_id, session_id, record_id or None)``, or ``("legacy", agent_id, index)`` for
        a session of a legacy agent folder."""
        db = self.ctx.store.db
        if isinstance(target, (tuple, list)) and len(target) == 3 and target[0] == "legacy":
            self._open_legacy(target[1], int(target[2]))
            return
        if db is None or not isinstance(target, (tuple, list)) or len(target) < 2:
            return
        agent_id, session_id = target[0], target[1]
        record_id = target[2] if len(target) > 2 else None
        self._target = (agent_id, session_id, record_id)
        self._expanded.clear()
        self._window = None
        self._conversation_for = None
        self._last_when_counted = False
        self.model.clear()
        self.conversation.setHtml("<p class='meta'>Loading…</p>")
        self.heading.setText(f"Loading session {escape(session_id)}…")

        page_size = self.model.page_size

        def work():  # one round trip: header, count, the row to open at, and that row's page
            row = locate(db, session_id, int(record_id)) if record_id is not None else None
            if row is not None and row < page_size:
                # On the first page: show it before counting the session (a long one's count takes longer).
                rows = page_after(db, session_id, -1, page_size, lazy=True)
                return session_header(db, agent_id, session_id, count=False), row, 0, rows
            header = session_header(db, agent_id, session_id)
            count = header.record_count
            target = count - 1 if row is None else min(row, count - 1)
            page = max(0, target) // page_size
            rows = HistoryModel.fetch_page_without_keys(db, session_id, count, page, page_size) if count else []
            return header, row, page, rows

        self.ctx.worker.submit("history-open", work, on_result=self._ready_after(self._opened),
                               on_error=self._ready_after(self._open_failed))

    def _ready_after(self, show):
        """``show``, then ``item_ready`` whatever happened in it: the window paints again (Pane.item_ready)."""
        def run(result) -> None:
            try:
                show(result)
            finally:
                self.item_ready.emit()
        return run

    def _open_failed(self, msg: str) -> None:
        self.heading.setText(f"Cannot read this session: {escape(msg)}")

    def _opened(self, result) -> None:
        header, row, page, rows = result
        counted = header.record_count is not None or len(rows) < self.model.page_size
        if header.record_count is None:  # opened on the first page, not counted yet
            header = replace(header, record_count=len(rows))
        self._header = header
        if not header.found and not header.record_count:
            self.heading.setText(f"No session {escape(header.session_id)} in this store.")
            self._enable(False)
            return
        self._set_heading(header, counted)
        self._clear_marker()
        last_id = header.last_id
        if last_id is None and counted:  # the first page is the whole session
            last_id = entry_id(rows[-1]) if rows else -1
        self.model.set_session(self.ctx.store.db, header.session_id, header.record_count, load_ids=counted,
                               counted=counted, last_id=last_id)
        self.model.seed_page(page, rows)
        if not counted:
            # Counted once the list has painted the page: counting a long session is ~20 ms of work on the
            # other core, which slowed that paint by half on two cores (measured).
            self.list.after_paint(lambda sid=header.session_id: self._count(sid))
        self._goto_range(header.record_count)
        self._enable(header.record_count > 0)
        if header.record_count == 0:
            self.conversation.setHtml("<p>This session has no records.</p>")
            return
        # Jump before the view first paints, so only the target's page is fetched.
        self.go_to_row(header.record_count - 1 if row is None else min(row, header.record_count - 1))
        self.list.setFocus()
        if counted:
            self.model.read_ends()

    def _count(self, session_id: str) -> None:
        """Count the session shown and read its last page with it (unless another was opened meanwhile)."""
        if self.model.session_id != session_id or self._header is None:
            return
        db, size, header = self.ctx.store.db, self.model.page_size, self._header
        self.ctx.worker.submit(
            "history-count", lambda: HistoryModel.count_with_last_page(db, session_id, size),
            on_result=self._counted,
            on_error=lambda msg: self._set_heading(header, records=f"records not counted: {escape(msg)}"))

    def _set_heading(self, header, counted: bool = True, records: str | None = None) -> None:
        ended = f"ended {fmt_time(header.ended_at)}" if header.ended_at else "not ended"
        if records is None:
            records = f"<b>{fmt_int(header.record_count)}</b> records" if counted else "counting records…"
        self.heading.setText(
            f"<b>{escape(header.agent_name)}</b> · session <code>{escape(header.session_id)}</code> · "
            f"created {fmt_time(header.created_at)} · {ended} · {records}")

    def _counted(self, result) -> None:
        count, last, last_rows = result
        header = self._header
        if header is None or header.session_id != self.model.session_id:
            return
        self._header = header = replace(header, record_count=count)
        self.model.grow(count, -1 if last is None else int(last))
        if last_rows:
            self.model.seed_page((count - 1) // self.model.page_size, last_rows)
        self._set_heading(header)
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
        """The database changed on disk: read what the open session gained. True when this page follows
        changes itself (no Refresh needed); a legacy session read from a file does not."""
        if self._is_legacy() or self.ctx.store.db is None:
            return False
        if self.ctx.store.db.mode.name == "snapshot":
            return False  # a private copy never changes
        self.model.follow_writer()
        return True

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
        if self._header is not None:
            self._header = replace(self._header, record_count=count)
            self._set_heading(self._header)
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
        self.new_marker.setText(f"↓ {self._unseen:,} new record{'s' if self._unseen != 1 else ''}")
        self.new_marker.show()

    def new_records(self) -> int:
        """Records appended below the view since the user scrolled up (what the marker says)."""
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
                  self.export_button):
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
        if self._header is not None and not self.model.counted:
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
            self._detail_timer.start()
            if self._conversation_for is None or self._conversation_for != self._record_id(row):
                self._timer.start()

    def _scrolled(self, value: int) -> None:
        """While the user scrolls (steps up to a page, not a jump), read the page past the screen ahead; at
        the end, the records that arrived below have been seen."""
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
            # rows (~15 ms against 0.6 ms idle), so one page ahead arrives after a fast scroll needs it.
            for pages in (1, 2):
                self.model.read_ahead(bottom + pages * size if step > 0 else value - pages * size)

    def _record_id(self, row: int):
        rec = self.model.record(row)
        return rec.id if rec is not None else None

    def _show_current_detail(self) -> None:
        row = self.current_row()
        rec = self.model.record(row)
        if rec is not None:
            self.ctx.show_detail(record_detail(rec, self.model.problem(row), self.model.stored_size(row)))

    def _request_conversation(self) -> None:
        rec = self.model.record(self.current_row())
        if rec is None or self.model.session_id is None:
            return  # its page is on the way; _rows_loaded asks again
        if self._conversation_for == rec.id and self._window is not None:
            return
        self._conversation_for = rec.id
        if self._is_legacy():  # read already: the window is cut from memory
            self._conversation_arrived(legacy_window(self._legacy, rec.id))
            return
        db, sid, focus, expanded = self.ctx.store.db, self.model.session_id, rec.id, set(self._expanded)
        markdown_html("")  # the Markdown renderer is made (and imported) here, on the GUI thread
        palette_colours = colours(self.conversation.palette())  # plain strings: they may cross threads

        def work():  # the HTML too is pure string building: made on the worker, only set on this thread
            window = conversation_window(db, sid, focus)
            shown_open = expanded | _opened_run(window)
            html = ConversationRenderer(window, shown_open, palette_colours=palette_colours).html()
            return window, (shown_open, palette_colours), html

        # On the background worker: the page worker stays free for the list's pages, which the user scrolls.
        self.ctx.slow_worker.submit("history-conversation", work, on_result=self._conversation_arrived,
                               on_error=lambda msg: self.conversation.setHtml(f"<p>Cannot read: {escape(msg)}</p>"))

    def _conversation_arrived(self, result) -> None:
        window, made_with, html = result if isinstance(result, tuple) else (result, None, None)
        self._window = window
        self._expanded |= _opened_run(window)
        current = (self._expanded, colours(self.conversation.palette()))
        self._render(scroll_to_focus=True, html=html if made_with == current else None)

    def _render(self, scroll_to_focus: bool, html: str | None = None) -> None:
        if self._window is None:
            return
        bar = self.conversation.verticalScrollBar()
        keep = bar.value()
        if html is None:  # a fold opened or closed here, or the runs shown open or the palette changed
            html = ConversationRenderer(self._window, self._expanded,
                                        palette_colours=colours(self.conversation.palette())).html()
        self.conversation.setHtml(html)
        if scroll_to_focus and self._window.focus_id is not None:
            self.conversation.scrollToAnchor(f"rec-{self._window.focus_id}")
        else:
            bar.setValue(keep)

    def conversation_html(self) -> str:
        """The rendered conversation (tests and "copy" use it)."""
        return self.conversation.toHtml()

    # -- links ---------------------------------------------------------------------------------------
    def _anchor_clicked(self, url) -> None:
        scheme, path = url.scheme(), url.path()
        if scheme == "rlm":
            self.toggle_run(call_id_from_url(path))
        elif scheme == "raw" and path.isdigit():
            self.show_raw_id(int(path))

    def toggle_run(self, call_id: str) -> None:
        if call_id in self._expanded:
            self._expanded.discard(call_id)
        else:
            self._expanded.add(call_id)
        self._render(scroll_to_focus=False)

    def show_raw(self, rec) -> None:
        if rec is not None and rec.id is not None:
            self.show_raw_id(rec.id)

    def show_raw_id(self, record_id: int) -> None:
        """Full stored data (an rlm snapshot included) of one record, in the detail pane."""
        legacy = self._legacy
        if self._is_legacy():
            raw = legacy.raw_by_line.get(record_id)
            fields = (("history.jsonl line", str(record_id)),)
            self.ctx.show_detail(DetailItem(f"Raw JSON · line {record_id}", fields, raw, prefer_raw=True))
            return
        db = self.ctx.store.db

        def shown(text) -> None:
            if text is None:
                self.ctx.show_detail(DetailItem(f"Record id {record_id}", (("Problem", "no such record any more"),)))
                return
            fields = (("Record id", str(record_id)), ("Stored size", f"{len(text):,} characters"),
                      ("Shown", "the stored data column, exactly (Raw JSON tab)"))
            self.ctx.show_detail(DetailItem(f"Raw JSON · record id {record_id}", fields, text, prefer_raw=True))

        self.ctx.worker.submit("history-raw", lambda: full_data(db, record_id), on_result=shown)

    # -- pane API ------------------------------------------------------------------------------------
    def focus_filter(self) -> None:
        """Ctrl+F: this pane has no filter; the "go to record" box is its search field."""
        self.goto_box.setFocus()
        self.goto_box.selectAll()

    def shutdown(self) -> None:
        self._timer.stop()
        self._detail_timer.stop()
        self.exporter.shutdown()
        self.model.clear()

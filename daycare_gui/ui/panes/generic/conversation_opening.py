"""How the conversation view opens a session: the first answer (heading, count, the page to show), the
loading state said only when that answer is slow, the ``opened`` signal, and the count that follows."""

from __future__ import annotations

from daycare_gui.stores.records import SessionRecord, SessionRef
from daycare_gui.ui.models import session_reads
from daycare_gui.ui.models.columns import fmt_int, fmt_time
from daycare_gui.ui.widgets.markdown_view import escape


class SessionOpening:
    """Opening a session and counting it: a part of :class:`ConversationView` (conversation_view.py), which
    makes the widgets, model and timers used here."""

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
        self._last_when_counted = self._first_when_counted = False
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
        # a writer that appended meanwhile is noticed then). Without it, its end is shown as its last page
        # read by key, placed from the end until the count comes.
        listed = session.message_count if session is not None and focus is None else None
        listed = listed if isinstance(listed, int) and listed > size else None

        def work():
            # One round trip: (the heading, (count, last key) where counted, the row to open at, that row's
            # page and its rows, the count a session list gave, whether the rows are the end shown uncounted)
            heading = (thread_title, session) if thread_title is not None else cap.session_heading(ref)
            if listed is not None:
                last_page = (listed - 1) // size
                rows = cap.page_before(ref, None, listed - last_page * size)
                return heading, None, None, last_page, rows, listed, False
            row = cap.locate(ref, focus, position) if focus is not None else None
            if row is not None and row < size:
                # On the first page: show it before counting the session (a long one's count takes longer).
                return heading, None, row, 0, cap.page_after(ref, None, size), None, False
            if row is None:
                # Its end (a link, Jump To): the last page's worth read by key, shown before the session is
                # counted, its rows placed from the end; counted after the paint. Fewer rows: the whole session.
                rows = cap.page_before(ref, None, size)
                return heading, None, None, 0, rows, None, len(rows) == size
            count, last = cap.tail(ref)
            target = min(row, count - 1)
            page = max(0, target) // size
            rows = session_reads.fetch_page_without_keys(cap, ref, count, page, size) if count else []
            return heading, (count, last), row, page, rows, None, False

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
        (title, session), counted_as, row, page, rows, listed, from_end = result
        # Shown at the count a session list gave, or (from_end) as its last page alone: not counted yet
        self._from_end = from_end
        self._listed = len(rows) if from_end else listed
        counted = counted_as is not None or (self._listed is None and len(rows) < self.model.page_size)
        count, last = counted_as if counted_as is not None else (self._listed or len(rows), None)
        self.thread_title, self._session = title or "", session
        if session is None and not count:
            self._enable(False)
            self.heading.setText(f"No session {escape(self.ref.session_id)} in this store.")
            self.conversation.setHtml("")
            return
        self._set_heading(count, counted or listed is not None)
        if last is None and counted:  # the first page is the whole session
            last = rows[-1].key if rows else -1
        self.model.set_session(self.cap, self.ref, count, load_ids=counted, counted=counted,
                               last_key=-1 if counted and last is None else last)
        self.model.seed_page(page, rows)
        if not counted:
            # Counted once the list has painted the page: counting a long session is work on the other
            # core, which would slow that paint.
            self.list.after_paint(lambda ref=self.ref: self._count(ref))
        self._goto_range(None if from_end else count)
        self._enable(count > 0)
        if from_end:  # positions are told once counted; until then the first message is not in the list
            self.goto_box.setEnabled(False)
            self.goto_button.setEnabled(False)
        # Laid out now with its new heading (another session's may wrap to another line) and Go to box (its
        # range may be wider): the list's height is final before it scrolls, and the paint that follows is the
        # only one. (Left to the layout's own event, that came after a paint, and the list was drawn twice.)
        self.layout().activate()
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
        shown = self._shown_from_end = self.model.page_rows(0) if self._from_end else []

        def count():
            if shown:
                return session_reads.count_from_end(cap, ref, shown[0].key, int(shown[-1].key), size)
            return session_reads.count_with_last_page(cap, ref, size)

        self.ctx.worker.submit(
            f"{self._channel}-count", count,
            on_result=self._counted,
            on_error=lambda msg: self._set_heading(self.model.rowCount(), True,
                                                   f"messages not counted: {escape(msg)}"))

    def _show_count(self, count: int) -> None:
        """The heading, the Go to box's range and the current message's position, for ``count`` messages."""
        self._set_heading(count)
        self._goto_range(count)
        row = self.current_row()
        if row >= 0:
            self.position.setText(f"{row + 1:,} of {count:,}")

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

    _listed: int | None = None  # the count a session list gave (or the rows shown from the end), until counted
    _from_end = False  # the rows shown are the session's last ones, placed from its end until it is counted
    _shown_from_end: list = []  # those rows, while the session is counted

    def _counted(self, result) -> None:
        count, last, last_rows = result
        if self.model.ref != self.ref:
            return
        listed, self._listed = self._listed, None
        from_end, self._from_end = self._from_end, False
        shown_last = self.model.key_of(listed - 1) if listed is not None else None  # (None: scrolled away)
        # (keys are ints in the model; a store may give the last key as text, as today's Daycare does)
        last_key = None if last is None else int(last)
        if listed is not None and (count != listed or shown_last not in (None, last_key)):
            # Not where the rows shown were placed (shown from the end, or a writer appended since the list
            # counted, or messages went): shown again at their places, as counted now. Rows shown from the
            # end keep the current one when nothing was appended; otherwise the session's end is current.
            current = self.current_row()
            intact = from_end and shown_last == last_key  # (the rows shown are still the session's last)
            keep = intact and 0 <= current < listed
            bar = self.list.verticalScrollBar()
            from_bottom = bar.maximum() - bar.value()  # (rows are one height: the same rows stay on screen)
            self.model.set_session(self.cap, self.ref, count, counted=True, last_key=-1 if last is None else int(last))
            if intact:  # only what the pages at its end lacked besides them was read (count_from_end)
                self.model.seed_tail(last_rows + self._shown_from_end, fetched=len(last_rows))
            else:
                self.model.seed_tail(last_rows)
            self._shown_from_end = []
            self._set_heading(count)
            self._goto_range(count)
            self._enable(count > 0)
            self.go_to_row(count - (listed - current) if keep else count - 1)
            if keep:
                bar.setValue(bar.maximum() - from_bottom)
                self._scroll_value = bar.value()
            self._after_count()
            return
        self.model.grow(count, -1 if last is None else int(last))
        self.model.seed_tail(last_rows)
        self._show_count(count)
        self._enable(count > 0)
        self._after_count()

    def _after_count(self) -> None:
        """First or Last pressed while the session was being counted: done now (laid out first with the
        count in the heading and the Go to box, as when opened)."""
        self.layout().activate()
        if self._first_when_counted:
            self._first_when_counted = self._last_when_counted = False
            self.go_first()
        if self._last_when_counted:
            self._last_when_counted = False
            self.go_last()
        self.model.read_ends()

"""How the conversation view follows its current message: the Details dock and the conversation beside the
list (read and made on the worker, set here), and the pages read ahead while the list scrolls."""

from __future__ import annotations

from PySide6.QtGui import QPalette

from daycare_gui.stores.records import SessionRef
from daycare_gui.ui.panes.generic.conversation_window import (
    ConversationWindow,
    conversation_window,
    message_detail,
    run_of_focus,
)
from daycare_gui.ui.widgets.markdown_view import escape, markdown_html


class CurrentMessage:
    """The current message followed: a part of :class:`ConversationView` (conversation_view.py), which
    makes the widgets, model and timers used here."""

    # -- selection → detail and conversation ------------------------------------------------------
    def _current_changed(self, current, _previous) -> None:
        row = current.row()
        if row >= 0:
            self.position.setText(self._position_text(row))
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

    def _position_text(self, row: int) -> str:
        count = self.model.rowCount()
        if self._from_end and not self.model.counted:  # (rows placed from the end: the count is on its way)
            return "last" if row == count - 1 else f"{count - row - 1:,} before the last"
        return f"{row + 1:,} of {count:,}"

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

"""How the conversation view follows a live writer: a list at its end moves on with the new messages, a list
scrolled up stays and its "N new" button counts what arrived below."""

from __future__ import annotations


class LiveFollow:
    """Following the session's writer: a part of :class:`ConversationView` (conversation_view.py), which
    makes the widgets, model and timers used here."""

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
        self._enable(True)
        self._show_count(self.model.rowCount())
        row = self.current_row()
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

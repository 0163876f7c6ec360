"""The History page's legacy sessions: a session of an ``agents/<id>/history.jsonl`` file (a store without
a database), read whole on the worker (its bounded tail) and shown in the same list and conversation."""

from __future__ import annotations

from daycare_gui.core.queries.legacy_history import legacy_conversation
from daycare_gui.ui.models.columns import fmt_int, fmt_time
from daycare_gui.ui.widgets.markdown_view import escape


class LegacySessions:
    """Part of :class:`~daycare_gui.ui.panes.history.HistoryPane` (its ``model``, ``list``, ``heading``,
    ``conversation``, ``goto_box``, ``ctx`` and the state it resets)."""

    def _open_legacy(self, agent_id: str, index: int) -> None:
        self._target = ("legacy", agent_id, index)
        self._legacy = None
        self._clear_marker()
        self._expanded.clear()
        self._window = None
        self._conversation_for = None
        self.model.clear()
        self._enable(False)
        self.conversation.setHtml("<p class='meta'>Loading…</p>")
        self.heading.setText(f"Loading legacy session {index + 1} of {escape(agent_id)}…")
        paths = self.ctx.store.paths
        self.ctx.worker.submit("history-open", lambda: legacy_conversation(paths, agent_id, index),
                               on_result=self._ready_after(self._legacy_opened),
                               on_error=self._ready_after(self._open_failed))

    def _legacy_opened(self, conv) -> None:
        self._legacy = conv
        if conv.session is None:
            self.heading.setText(f"No such legacy session of {escape(conv.agent_id)}.")
            return
        s = conv.session
        cut = (f" · showing the last {conv.shown:,}" if conv.shown < conv.total_records else "")
        reset = f" · reset: “{escape(s.reset_message)}”" if s.reset_message else ""
        self.heading.setText(
            f"<b>{escape(conv.agent_name)}</b> · legacy session {s.index + 1} of {conv.session_count} "
            f"(history.jsonl lines {s.first_line or '–'}–{s.last_line or '–'}) · created {fmt_time(s.created_at)}"
            f"{reset} · <b>{fmt_int(conv.total_records)}</b> records{cut}")
        self.model.show_records(conv.window.session_id, conv.window.records)
        count = self.model.rowCount()
        self.goto_box.setRange(1 if count else 0, count)
        self._enable(count > 0)
        if not count:
            self.conversation.setHtml("<p>This session has no records.</p>")
            return
        self.go_to_row(count - 1)
        self.list.setFocus()

    def _is_legacy(self) -> bool:
        return self._legacy is not None and bool(self._target) and self._target[0] == "legacy"

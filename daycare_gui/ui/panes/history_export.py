"""The History page's export and copy: the session, or the selected records, written through the store's
``Conversations`` (the core formats, masks secrets and writes), and a record copied as Markdown."""

from __future__ import annotations

from PySide6.QtWidgets import QMenu

from daycare_gui.ui.widgets.export import COPY_SHORTCUT, copy_markdown


class SessionExport:
    """Part of :class:`~daycare_gui.ui.panes.history.HistoryPane` (its ``model``, ``list``, ``exporter``,
    ``export_status``, ``ctx`` and the session shown)."""

    def _session_ref(self):
        from daycare_gui.stores.records import SessionRef

        t = self._target
        if not t:
            return None
        if t[0] == "legacy":
            return SessionRef(t[1], f"{t[1]}#{int(t[2]) + 1}")
        return SessionRef(t[0], t[1])

    def _thread_title(self) -> str:
        if self._is_legacy():
            return self._legacy.agent_name
        return self._header.agent_name if self._header is not None else ""

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.list.selectionModel().selectedRows()})

    def export_conversation(self) -> None:
        """Ctrl+Shift+E: the selected records when several are selected, else the whole session."""
        if len(self.selected_rows()) > 1:
            self.export_selected()
        else:
            self.export_session()

    def export_session(self) -> None:
        self._export()

    def export_selected(self) -> None:
        rows = self.selected_rows()
        if not rows:
            return
        if self._is_legacy():  # rows are the file's last records; their ids are their lines
            self._export(ids=[str(r.id) for r in map(self.model.record, rows) if r is not None])
        elif rows[-1] - rows[0] + 1 == len(rows):  # one run of rows: positions, loaded or not
            self._export(start=rows[0], stop=rows[-1] + 1)
        else:  # Ctrl+clicked rows were on screen, so their records are loaded
            ids = [str(r.id) for r in map(self.model.record, rows) if r is not None]
            self._export(ids=ids, start=rows[0], stop=rows[-1] + 1)

    def _export(self, **selection) -> None:
        from daycare_gui.stores import api

        opened = self.ctx.opened
        cap = opened.capability(api.Conversations) if opened is not None else None
        ref = self._session_ref()
        if cap is None or ref is None:
            self._say("This store offers no conversation to export.")
            return
        self.exporter.export(opened, cap, ref, thread_title=self._thread_title(), **selection)

    def copy_markdown(self, row: int | None = None) -> str | None:
        """Ctrl+Shift+C: the current record to the clipboard as Markdown (secrets masked)."""
        from daycare_gui.stores.daycare.capabilities import message_of

        rec = self.model.record(self.current_row() if row is None else row)
        if rec is None:
            return None
        text = copy_markdown(message_of(rec))
        self._say(f"Copied record id {rec.id} as Markdown.")
        return text

    def _context_menu(self, pos) -> None:
        row = self.list.indexAt(pos).row()
        menu = QMenu(self)
        copy = menu.addAction(f"Copy as Markdown\t{COPY_SHORTCUT}", lambda: self.copy_markdown(row))
        copy.setEnabled(self.model.record(row) is not None)
        selected = menu.addAction("Export selected records…", self.export_selected)
        selected.setEnabled(bool(self.selected_rows()))
        menu.addAction("Export session…", self.export_session).setEnabled(self.model.rowCount() > 0)
        menu.exec(self.list.viewport().mapToGlobal(pos))
        menu.deleteLater()

    def _say(self, sentence: str) -> None:
        self.export_status.setText(sentence)
        self.export_status.show()

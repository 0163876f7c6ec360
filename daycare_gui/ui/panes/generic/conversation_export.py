"""Export… and Copy as Markdown of the session a conversation view shows: the Export… button and its menu, the
list's context menu, and the line under the view that says what was written or copied.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMenu, QPushButton

# (ui.widgets.export, with the core's export formats, is imported on first use and by the preloader in idle
# time: ~5 ms the Agents page, which holds a conversation view, no longer pays before its first rows)


class ConversationExport:
    """The conversation view's export and copy (``view.export``): of its session, its selected messages or its
    current message. The view lays out :attr:`button` and :attr:`status`; what is said is its ``said`` too."""

    def __init__(self, view) -> None:
        self.view = view
        self.button = QPushButton("Export…")
        self.button.setToolTip("Write this session, or the selected messages, as Markdown, HTML or JSONL")
        export_menu = QMenu(self.button)
        export_menu.addAction("Whole session…", self.export_session)
        self.export_selected_action = export_menu.addAction("Selected messages…", self.export_selected)
        export_menu.aboutToShow.connect(lambda: self.export_selected_action.setEnabled(bool(self.selected_rows())))
        self.button.setMenu(export_menu)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.hide()
        self._exporter = None  # made on the first export

    @property
    def exporter(self):
        """The export on its own worker, with its progress dialog (made the first time it is needed)."""
        if self._exporter is None:
            from daycare_gui.ui.widgets.export import ConversationExporter

            self._exporter = ConversationExporter(self.view)
            self._exporter.finished.connect(self._say)
        return self._exporter

    def shutdown(self) -> None:
        """Stop an export under way (the view is going away)."""
        if self._exporter is not None:
            self._exporter.shutdown()

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.view.list.selectionModel().selectedRows()})

    def export_conversation(self) -> None:
        """Ctrl+Shift+E: the selected messages when several are selected, else the whole session."""
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
        if rows[-1] - rows[0] + 1 == len(rows):  # one run of rows: positions, loaded or not
            self._export(start=rows[0], stop=rows[-1] + 1)
        else:  # Ctrl+clicked rows were on screen, so their messages are loaded
            ids = [m.id for m in map(self.view.model.record, rows) if m is not None]
            self._export(ids=ids, start=rows[0], stop=rows[-1] + 1)

    def _export(self, **selection) -> None:
        if self.view.cap is None or self.view.ref is None:
            self._say("This store offers no conversation to export.")
            return
        self.exporter.export(self.view.ctx.opened, self.view.cap, self.view.ref, thread_title=self.view.thread_title, **selection)

    def copy_markdown(self, row: int | None = None) -> str | None:
        """Ctrl+Shift+C: the current message to the clipboard as Markdown (secrets masked)."""
        message = self.view.model.record(self.view.current_row() if row is None else row)
        if message is None:
            return None
        from daycare_gui.ui.widgets.export import copy_markdown

        text = copy_markdown(message)
        self._say(f"Copied message {message.id} as Markdown.")
        return text

    def context_menu(self, pos) -> None:
        row = self.view.list.indexAt(pos).row()
        from daycare_gui.ui.widgets.export import COPY_SHORTCUT

        menu = QMenu(self.view)
        copy = menu.addAction(f"Copy as Markdown\t{COPY_SHORTCUT}", lambda: self.copy_markdown(row))
        copy.setEnabled(self.view.model.record(row) is not None)
        selected = menu.addAction("Export selected messages…", self.export_selected)
        selected.setEnabled(bool(self.selected_rows()))
        menu.addAction("Export session…", self.export_session).setEnabled(self.view.model.rowCount() > 0)
        menu.exec(self.view.list.viewport().mapToGlobal(pos))
        menu.deleteLater()

    def _say(self, sentence: str) -> None:
        self.status.setText(sentence)
        self.status.show()
        self.view.said.emit(sentence)

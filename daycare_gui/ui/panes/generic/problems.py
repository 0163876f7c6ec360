"""Problems of any opened store: every file, line and value that did not read."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout

from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList

COLUMNS = [
    Column("Severity", lambda p: p.severity),
    Column("Path", lambda p: p.path, tooltip=lambda p: p.path),
    Column("Line", lambda p: p.line, align_right=True, sort_value=lambda p: -1 if p.line is None else p.line),
    Column("Message", lambda p: p.message, tooltip=lambda p: p.message),
]


class StoreProblemsPane(Pane):
    pane_id = "problems"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        layout = QVBoxLayout(self)
        self.list = RecordList("Problems", COLUMNS, key=lambda p: f"{p.path}:{p.line}:{p.message}",
                               state=lambda p: "error" if p.severity == "error" else None)
        self.filter_box = self.list.filter_box
        layout.addWidget(self.list)
        self.list.table.selectionModel().currentRowChanged.connect(self._selected)

    def load(self) -> None:
        opened = self.ctx.opened
        self.ctx.worker.submit("generic-problems", lambda: list(opened.problems), on_result=self._arrived)

    def _arrived(self, problems) -> None:
        self.list.set_records(problems)
        self.list.caption.setText(f"<b>Problems</b> ({len(problems):,})")
        self.ctx.set_count("problems", len(problems))

    def _selected(self, current, _previous) -> None:
        p = self.list.records.record_at(current)
        if p is not None:
            where = f"{p.path}:{p.line}" if p.line is not None else p.path
            self.ctx.show_detail(DetailItem(where, (("Severity", p.severity), ("Path", p.path),
                                                    ("Line", "" if p.line is None else str(p.line)),
                                                    ("Message", p.message))))

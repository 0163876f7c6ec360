"""Storage → Space: where the store's bytes go (tables and indexes, threads/sessions/agents, folders), the
advice, and the prune with its dry run, for any store whose ``Storage`` measures its space.

Everything is read through ``api.Storage`` on a worker (the measuring reads every page of a big database):
first its quick part (``space_quick``: tables, free pages, folders, or all of it when kept for the store as
it is), then, where the holders are still to measure, the whole report with its steps shown and a Cancel.
The prune runs there too, with its steps shown and Cancel asked between them. No SQL here.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.stores import api
from daycare_gui.stores.common.space import named_holders
from daycare_gui.stores.common.wording import byte_size
from daycare_gui.stores.records import PruneDone, PrunePreview, SpaceLine, SpaceReport

SPACE, SPACE_QUICK = "storage-space", "storage-space-quick"
PREVIEW, PRUNE = "storage-prune-preview", "storage-prune"
SHOWN = 200  # lines per group (the command's --json lists all)
DROPPED = "Would go (dry run)"


class MeasuringCancelled(Exception):
    """Raised from the measuring's progress callback to stop it (``api.Storage.space``)."""


def line_cells(line: SpaceLine) -> list[str]:
    return [line.name, byte_size(line.bytes), f"{line.count:,}" if line.count is not None else "", line.detail,
            f"+{byte_size(line.per_day)}/day" if line.per_day else ""]


def summary_text(report: SpaceReport) -> str:
    parts = [f"{byte_size(report.total)} on disk"]
    if report.method:
        parts.append(f"table sizes by {report.method}")
    if report.free:
        parts.append(f"{byte_size(report.free)} in free pages")
    if report.wal:
        parts.append(f"{byte_size(report.wal)} in the write-ahead log")
    return "; ".join(parts) + "."


def _label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class SpaceTab(QWidget):
    def __init__(self, ctx, storage: api.Storage | None, parent=None) -> None:
        super().__init__(parent)
        self.ctx, self.storage = ctx, storage
        self.report: SpaceReport | None = None
        self.preview: PrunePreview | None = None
        self.running = False
        self._cancel = threading.Event()
        box = QVBoxLayout(self)
        self.summary = _label("Measuring…")
        box.addWidget(self.summary)
        # the measuring's steps (the holders of a big store take seconds) and its Cancel
        self.measuring = False
        self._measure_cancel = threading.Event()
        steps = QHBoxLayout()
        steps.setContentsMargins(0, 0, 0, 0)
        self.progress_label = _label()
        self.progress_label.setObjectName("spaceProgress")
        self.measure_cancel = QPushButton("Cancel")
        self.measure_cancel.setObjectName("spaceCancel")
        self.measure_cancel.setToolTip("Stop measuring (the sizes already shown stay)")
        self.measure_cancel.setVisible(False)
        self.measure_cancel.clicked.connect(self.cancel_measuring)
        steps.addWidget(self.progress_label, 1)
        steps.addWidget(self.measure_cancel)
        box.addLayout(steps)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Name", "Size", "Count", "Detail", "Growth"])
        self.tree.setRootIsDecorated(True)
        box.addWidget(self.tree, 1)
        self.advice = _label()
        box.addWidget(self.advice)

        # -- the prune: options, dry run, run, cancel ----------------------------------------------------
        self.prune_box = QWidget()
        row = QHBoxLayout(self.prune_box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Keep the latest"))
        self.keep = QSpinBox()
        self.keep.setRange(1, 100_000)
        self.keep.setValue(1)
        row.addWidget(self.keep)
        row.addWidget(QLabel("checkpoints of each thread;"))
        self.idle = QCheckBox("drop threads idle for")
        self.idle_days = QSpinBox()
        self.idle_days.setRange(1, 36_500)
        self.idle_days.setValue(90)
        self.idle_days.setSuffix(" days")
        row.addWidget(self.idle)
        row.addWidget(self.idle_days)
        row.addStretch(1)
        self.dry_button = QPushButton("Dry run")
        self.prune_button = QPushButton("Prune…")
        self.prune_button.setToolTip("Backed up first; done on a copy that replaces the store only when checked")
        self.cancel_button = QPushButton("Cancel")
        for button in (self.dry_button, self.prune_button, self.cancel_button):
            row.addWidget(button)
        self.prune_button.setEnabled(False)
        self.cancel_button.setEnabled(False)
        self.dry_button.clicked.connect(self.dry_run)
        self.prune_button.clicked.connect(self.ask_prune)
        self.cancel_button.clicked.connect(self.cancel)
        for widget in (self.keep, self.idle_days):
            widget.valueChanged.connect(self._options_changed)
        self.idle.toggled.connect(self._options_changed)
        self.prune_box.setVisible(False)
        box.addWidget(self.prune_box)
        self.prune_text = _label()
        box.addWidget(self.prune_text)
        # -- daycare-gui's own leftovers (any kind): looked for when measured, removed after a question ------
        self.leftovers = None
        if storage is not None:
            from daycare_gui.ui.panes.generic.space_leftovers import LeftoversRow

            self.leftovers = LeftoversRow(ctx, storage, self.tree, line_cells, byte_size)
            box.addWidget(self.leftovers)

    # -- measuring -----------------------------------------------------------------------------------------
    def load(self) -> None:
        """The quick report first (tables, free pages, folders: what the store says at once, or everything
        when it was kept for the store as it is), then — when the holders are still to measure — the whole
        report on the slow worker, its steps shown, Cancel heard between them."""
        storage = self.storage
        if storage is None:
            self.summary.setText("This store does not measure its space.")
            return
        if not self.isVisible():  # measured when first shown: the Storage page opens on its tables
            self._load_when_shown = True
            return
        self._load_when_shown = False
        self.measuring = True
        self._measure_cancel.clear()
        self.measure_cancel.setEnabled(True)
        self.measure_cancel.setVisible(True)
        self.progress_label.setText("Measuring the tables…")
        if self.leftovers is not None:
            self.leftovers.look()

        def failed(msg: str) -> None:
            self._measured()
            self.summary.setText(f"Cannot measure the space: {msg}")

        def quick_arrived(report: SpaceReport | None) -> None:
            if report is None or report.holders_pending:
                if report is not None:
                    self._arrived(report)
                    self.progress_label.setText(f"Measuring the {(report.holders_title or 'holders').lower()}…")
                self._measure_all()
            else:
                self._measured()
                self._arrived(report)

        # (the quick part on the worker of what is on screen: the user is waiting for it, and the background
        # worker may be busy with the store's counts for seconds)
        conversations = self.ctx.opened.capability(api.Conversations)
        self.ctx.worker.submit(SPACE_QUICK, lambda: named_holders(storage.space_quick(), conversations),
                               on_result=quick_arrived, on_error=failed)

    _load_when_shown = False

    def showEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        if self._load_when_shown:
            self.load()

    def _measure_all(self) -> None:
        storage, cancel = self.storage, self._measure_cancel
        conversations = self.ctx.opened.capability(api.Conversations)

        def job(progress, stale):
            def step(message: str) -> None:
                if cancel.is_set() or stale():
                    raise MeasuringCancelled
                progress(0, 0, message)

            try:
                return named_holders(storage.space(progress=step), conversations)
            except MeasuringCancelled:
                return None

        def arrived(report: SpaceReport | None) -> None:
            cancelled = cancel.is_set()
            self._measured()
            if report is not None:
                self._arrived(report)
            elif cancelled:
                self.progress_label.setText("Measuring stopped: the sizes above are without the "
                                            f"{(self.report.holders_title if self.report else '') or 'holders'}.")
            else:
                self._arrived(None)

        self.ctx.slow_worker.submit_long(SPACE, job, on_result=arrived, on_progress=self._measuring_step,
                                         on_error=lambda msg: (self._measured(),
                                                               self.summary.setText(f"Cannot measure the space: {msg}")))

    def _measuring_step(self, _done, _total, message) -> None:
        self.progress_label.setText(f"{message[:1].upper()}{message[1:]}…")

    def _measured(self) -> None:
        self.measuring = False
        self.measure_cancel.setVisible(False)
        self.progress_label.setText("")

    def cancel_measuring(self) -> None:
        self._measure_cancel.set()
        self.measure_cancel.setEnabled(False)
        self.progress_label.setText("Stopping the measuring…")

    def _arrived(self, report: SpaceReport | None) -> None:
        self.report = report
        self.tree.clear()
        if report is None:
            self.summary.setText("This store does not measure its space.")
            return
        self.summary.setText(summary_text(report))
        for title, lines in (("Tables and indexes", report.tables), (report.holders_title or "Holders", report.holders),
                             ("Folders", report.folders)):
            if not lines:
                continue
            group = QTreeWidgetItem([f"{title} ({len(lines)})", byte_size(sum(x.bytes for x in lines
                                                                           if x.kind != "index"))])
            group.addChildren([QTreeWidgetItem(line_cells(line)) for line in lines[:SHOWN]])
            self.tree.addTopLevelItem(group)
            group.setExpanded(True)
        if report.holders_pending:
            self.tree.insertTopLevelItem(1, QTreeWidgetItem([f"{report.holders_title or 'Holders'} (measuring…)"]))
        if self.leftovers is not None and self.leftovers.preview is not None:  # (cleared with the tree)
            self.leftovers._show(self.leftovers.preview.dropped)
        for column in range(4):
            self.tree.resizeColumnToContents(column)
        self.advice.setText("\n".join(f"• {a}" for a in report.advice))
        prune = next((a for a in report.actions if a.id == "prune"), None)
        self.prune_box.setVisible(prune is not None)
        if prune is not None:
            self.prune_text.setText(f"{prune.title}: about {byte_size(prune.reclaim)} ({prune.detail}) "
                                    "Make a dry run to see what goes.")

    # -- the prune -----------------------------------------------------------------------------------------
    def _options(self) -> tuple[int, float | None]:
        return self.keep.value(), float(self.idle_days.value()) if self.idle.isChecked() else None

    def _options_changed(self, *_args) -> None:
        self.preview = None  # the dry run was for other options
        self.prune_button.setEnabled(False)
        self._show_dropped(())

    def _busy(self, busy: bool) -> None:
        self.running = busy
        self.dry_button.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)
        self.prune_button.setEnabled(not busy and self.preview is not None and not self.preview.refusal
                                     and bool(self.preview.dropped))

    def _step(self, _done, _total, message) -> None:
        self.prune_text.setText(f"{message}…")

    def dry_run(self) -> None:
        keep, idle = self._options()
        storage, cancel = self.storage, self._cancel
        cancel.clear()
        self.preview = None
        self._busy(True)
        self.prune_text.setText("Dry run: pruning a private copy to measure it…")

        def job(progress, _stale):
            return storage.prune_preview(keep, idle, progress=lambda step: progress(0, 0, step))

        self.ctx.slow_worker.submit_long(PREVIEW, job, on_result=self._previewed, on_progress=self._step,
                                         on_error=lambda msg: self._previewed(PrunePreview(refusal=msg)))

    def _previewed(self, preview: PrunePreview) -> None:
        self.preview = preview
        self._busy(False)
        if preview.refusal:
            self.prune_text.setText(preview.refusal)
            return
        self._show_dropped(preview.dropped)
        self.prune_text.setText("\n".join(["Dry run (nothing written): " + preview.summary, *preview.notes]))

    def _show_dropped(self, lines) -> None:
        """What the dry run would drop, as a group of its own at the top of the list."""
        for i in range(self.tree.topLevelItemCount()):
            if self.tree.topLevelItem(i).text(0).startswith(DROPPED):
                self.tree.takeTopLevelItem(i)
                break
        if not lines:
            return
        group = QTreeWidgetItem([f"{DROPPED} ({len(lines)} threads)", byte_size(sum(x.bytes for x in lines))])
        group.addChildren([QTreeWidgetItem(line_cells(line)) for line in lines[:SHOWN]])
        self.tree.insertTopLevelItem(0, group)
        group.setExpanded(True)

    def ask_prune(self) -> None:
        if self.preview is None or self.preview.refusal:
            return
        answer = QMessageBox.question(
            self, "Prune checkpoints",
            f"{self.preview.summary}\n\nA backup of the store is made first. Stop the bot before pruning.",
            QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Ok:
            self.run_prune(force=False)

    def run_prune(self, *, force: bool) -> None:
        keep, idle = self._options()
        storage, cancel = self.storage, self._cancel
        cancel.clear()
        self._busy(True)

        def job(progress, _stale):
            return storage.prune(keep, idle, force=force, progress=lambda step: progress(0, 0, step),
                                 cancelled=cancel.is_set)

        self.ctx.slow_worker.submit_long(PRUNE, job, on_result=self._pruned, on_progress=self._step,
                                         on_error=lambda msg: self._pruned(PruneDone(refusal=msg)))

    def _pruned(self, done: PruneDone) -> None:
        self.preview = None
        self._busy(False)
        self.prune_text.setText(done.refusal or done.summary)
        if not done.refusal and not done.cancelled:
            refresh = getattr(self.window(), "refresh", None)
            if callable(refresh):  # the store on screen is the one before: read it again
                refresh()

    def cancel(self) -> None:
        self._cancel.set()
        self.cancel_button.setEnabled(False)
        self.prune_text.setText("Cancelling after the current step…")

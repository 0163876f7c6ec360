"""Storage → Upgrade storage…: plan (dry run), run with progress, result.

The work is the core's (:func:`plan_upgrade`, :func:`run_upgrade`); this dialog runs both on its own
background thread and shows what they say. It never releases the main window's read connection: the core
migrates a working copy and swaps it in with ``os.replace`` only on success, so the window's open read-only
connection keeps reading the old file until ``changed`` makes the window reopen the store from disk.

A store this application does not fully know (the engine running, migrations of a newer Daycare, a PGlite
store, a file that is not SQLite) is never upgraded: the dialog says what the core found and offers only Close.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QHBoxLayout, QPushButton, QStackedWidget, QVBoxLayout

from daycare_gui.core.migrations.plan import UpgradePlan
from daycare_gui.core.migrations.upgrade import UpgradeResult, plan_upgrade, run_upgrade
from daycare_gui.ui.dialogs.upgrade_pages import BusyPage, MessagePage, PlanPage, ResultPage, RunningPage
from daycare_gui.ui.worker import DbWorker

PLAN, RUN = "upgrade-plan", "upgrade-run"


class UpgradeDialog(QDialog):
    """``changed`` is True once migrations were applied to the store (the caller then reloads every pane)."""

    def __init__(self, store, parent=None) -> None:
        super().__init__(parent)
        self.store = store
        self.changed = False
        self.plan: UpgradePlan | None = None
        self.upgrade_result: UpgradeResult | None = None
        self.running = False
        self._cancel = threading.Event()
        # Its own thread: the window's worker stays free, and an upgrade result must arrive even after Cancel
        # (the window worker drops answers of a cancelled channel).
        self.worker = DbWorker("upgrade-worker")
        self.setWindowTitle("Upgrade storage")
        self.resize(1100, 720)
        self._build()
        self._start_plan()

    # -- layout ----------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.stack = QStackedWidget()
        self.busy_page = BusyPage()
        self.message_page = MessagePage()
        self.plan_page = PlanPage()
        self.running_page = RunningPage()
        self.result_page = ResultPage()
        for page in (self.busy_page, self.message_page, self.plan_page, self.running_page, self.result_page):
            self.stack.addWidget(page)
        layout.addWidget(self.stack, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.run_button = QPushButton("&Run upgrade")
        self.cancel_button = QPushButton("Cancel")
        self.close_button = QPushButton("Close")
        self.run_button.clicked.connect(self.start_run)
        self.cancel_button.clicked.connect(self.reject)
        self.close_button.clicked.connect(self.finish)
        for button in (self.run_button, self.cancel_button, self.close_button):
            button.setAutoDefault(False)
            buttons.addWidget(button)
        layout.addLayout(buttons)

    def _show(self, page, *, run: bool = False, cancel: bool = False, close: bool = False) -> None:
        self.stack.setCurrentWidget(page)
        self.run_button.setVisible(run)
        self.cancel_button.setVisible(cancel)
        self.cancel_button.setEnabled(True)
        self.close_button.setVisible(close)
        default = self.run_button if run and self.run_button.isEnabled() else self.close_button if close else None
        for button in (self.run_button, self.close_button):
            button.setDefault(button is default)
        if default is not None:
            default.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- plan ------------------------------------------------------------------------------------------
    def _start_plan(self) -> None:
        if self.store is None:
            self.message_page.show_message("No store is open.", "Open a Daycare folder first.")
            self._show(self.message_page, close=True)
            return
        self._show(self.busy_page, cancel=True)
        db_path, paths = self.store.paths.db_path, self.store.paths
        self.worker.submit(PLAN, lambda: plan_upgrade(db_path, paths), on_result=self._plan_ready,
                           on_error=self._plan_failed)

    def _plan_ready(self, plan: UpgradePlan) -> None:
        self.plan = plan
        if plan.refusal:
            self.message_page.show_message(
                "This store will not be upgraded",
                f"{plan.refusal}\n\nNothing was changed. daycare-gui only upgrades stores it fully knows.")
            self._show(self.message_page, close=True)
        elif not plan.pending:
            self.message_page.show_message(
                "Storage already up to date.",
                f"{plan.check.db_path} records every migration of Daycare 808af509; there is nothing to run.")
            self._show(self.message_page, close=True)
        else:
            self.plan_page.show_plan(plan)
            self.run_button.setEnabled(plan.predicted_failure is None)
            self._show(self.plan_page, run=True, cancel=True)

    def _plan_failed(self, message: str) -> None:
        self.message_page.show_message("The dry run could not be made", f"{message}\n\nNothing was changed.")
        self._show(self.message_page, close=True)

    # -- run -------------------------------------------------------------------------------------------
    def start_run(self) -> None:
        if self.plan is None or self.running or not self.run_button.isEnabled():
            return
        backup_box = self.plan_page.backup
        backup, backup_path = backup_box.wants_backup(), backup_box.backup_path()
        db_path, paths, cancel = self.plan.check.db_path, self.store.paths, self._cancel
        self._cancel.clear()
        self.running = True
        self.running_page.start(len(self.plan.pending), db_path)
        self._show(self.running_page, cancel=True)

        def job(progress, _stale):
            return run_upgrade(db_path, paths=paths, backup=backup, backup_path=backup_path,
                               progress=lambda i, n, m: progress(i, n, m.name), cancel=cancel.is_set)

        self.worker.submit_long(RUN, job, on_result=self._run_finished, on_error=self._run_failed,
                                on_progress=self.running_page.step)

    def _run_finished(self, result: UpgradeResult) -> None:
        self.running = False
        self.upgrade_result = result
        self.changed = result.ok and bool(result.applied)
        if self.changed:
            self.running_page.bar.setValue(len(result.applied))
        self.result_page.show_result(result, had_db=self.plan.check.kind == "sqlite")
        self._show(self.result_page, close=True)

    def _run_failed(self, message: str) -> None:
        # run_upgrade raised before it could report (e.g. the backup could not be written): the swap is its
        # last step, so the store was not replaced.
        result = UpgradeResult(self.plan.check.db_path, failure=("upgrade", message))
        self._run_finished(result)
        self.result_page.headline.setText("The upgrade stopped with an error")

    def request_cancel(self) -> None:
        self._cancel.set()
        self.cancel_button.setEnabled(False)
        self.running_page.cancelling()

    # -- closing ---------------------------------------------------------------------------------------
    def finish(self) -> None:
        self.accept() if self.changed else self.reject()

    def reject(self) -> None:
        if self.running:  # Esc, the window's close box and Cancel all mean "stop between migrations"
            self.request_cancel()
            return
        super().reject()

    def done(self, code: int) -> None:
        if self.running:
            self.request_cancel()
            return
        self.worker.shutdown()  # a dry run still going is abandoned (not waited for): it writes nothing
        super().done(code)

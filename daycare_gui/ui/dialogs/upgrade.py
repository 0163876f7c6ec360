"""Storage → Upgrade storage…: plan (dry run), run with progress, result, for any store offering ``Storage``.

The work is the store's (``Storage.upgrade_plan``, ``Storage.upgrade``); this dialog runs both on its own
background thread and shows what they say. It never releases the main window's read connection: the store
migrates a working copy and swaps it in only on success, so the window's open read-only connection keeps
reading the old file until ``changed`` makes the window reopen the store from disk.

A store the kind will not upgrade (the engine running, migrations of a newer Daycare, a PGlite or PostgreSQL
store, a kind without migrations) is never upgraded: the dialog says why, in the store's words, and offers
only Close.
"""

from __future__ import annotations

import importlib
import threading

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QHBoxLayout, QPushButton, QStackedWidget, QVBoxLayout

from daycare_gui.stores import api
from daycare_gui.stores.records import UpgradePlan, UpgradeResult
from daycare_gui.ui.dialogs.upgrade_pages import (
    UNCHANGED,
    BusyPage,
    MessagePage,
    PlanPage,
    ResultPage,
    RunningPage,
)
from daycare_gui.ui.worker import DbWorker

PLAN, RUN = "upgrade-plan", "upgrade-run"


def upgrade_storage(opened) -> api.Storage | None:
    """What the dialog upgrades through: the store's Storage, or the default that says why it is not
    upgraded here (a kind without migrations); None when no store is open."""
    if opened is None:
        return None
    return opened.capability(api.Storage) or api.Storage()


class UpgradeDialog(QDialog):
    """``changed`` is True once migrations were applied to the store (the caller then reloads every pane)."""

    def __init__(self, storage, parent=None) -> None:
        """``storage``: the opened store's ``api.Storage`` (None: no store open, or it offers none)."""
        super().__init__(parent)
        self.storage = storage
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
        if self.storage is None:
            self.message_page.show_message("No store is open.", "Open a Daycare folder first.")
            self._show(self.message_page, close=True)
            return
        self._show(self.busy_page, cancel=True)
        storage = self.storage
        for module in storage.modules:  # first imported here, on the GUI thread, never by the worker
            importlib.import_module(module)
        self.worker.submit(PLAN, storage.upgrade_plan, on_result=self._plan_ready, on_error=self._plan_failed)

    def _plan_ready(self, plan: UpgradePlan | str) -> None:
        if isinstance(plan, str):
            self.message_page.show_message(
                "This store will not be upgraded",
                f"{plan}\n\nNothing was changed. daycare-gui only upgrades stores it fully knows.")
            self._show(self.message_page, close=True)
            return
        self.plan = plan
        if not plan.steps:
            self.message_page.show_message("Storage already up to date.", plan.up_to_date)
            self._show(self.message_page, close=True)
        else:
            self.plan_page.show_plan(plan, lambda: self.storage.default_backup(plan))
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
        # the default name is taken now, when Run is pressed; False: no backup (the user chose so, or no file)
        backup = (backup_box.backup_path() or True) if backup_box.wants_backup() else False
        storage, plan, cancel = self.storage, self.plan, self._cancel
        self._cancel.clear()
        self.running = True
        self.running_page.start(len(plan.steps), plan.target)
        self._show(self.running_page, cancel=True)

        def job(progress, _stale):
            return storage.upgrade(plan, backup, progress=progress, cancelled=cancel.is_set)

        self.worker.submit_long(RUN, job, on_result=self._run_finished, on_error=self._run_failed,
                                on_progress=self.running_page.step)

    def _run_finished(self, result: UpgradeResult) -> None:
        self.running = False
        self.upgrade_result = result
        self.changed = result.changed
        if self.changed:
            self.running_page.bar.setValue(len(result.applied))
        self.result_page.show_result(result, had_db=self.plan.exists)
        self._show(self.result_page, close=True)

    def _run_failed(self, message: str) -> None:
        # the upgrade raised before it could report: its swap is the last step, so the store was not replaced
        target = self.plan.target
        self._run_finished(UpgradeResult(target, failure=message, failure_headline="The upgrade stopped with an error",
                                         unchanged=UNCHANGED.format(db=target)))

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

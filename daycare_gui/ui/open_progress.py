"""Opening a store off the GUI thread, with progress and a Cancel that really stops.

Most stores open at once and no dialog ever appears. A slow open (a PGlite folder: PGlite installed once,
the folder copied, a Node process started) shows what it is doing — "Copying the store (12 of 61 MB)…" —
in a progress dialog and the status bar. Cancel stops the npm install, the copy or the start between two
steps; the kind removes what it made (the partial copy, the process), and the user's folder is untouched.

The steps of an open (probe, import, open: ``ui/store_opener.py``) stay as they are; the step where a
kind opens the store runs through :meth:`OpenProgress.open`'s ``submit_open``. Each open runs that step
on its own worker channel and carries its own cancel flag, so a newer open, a cancel or
closing the window never leaves a store opened in the background behind: an answer nobody wants any more
is closed (on a thread of its own, since closing may stop a process).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QMessageBox, QProgressDialog, QPushButton, QWidget

from daycare_gui.stores.common import opening
from daycare_gui.ui.worker import close_in_background

SHOW_AFTER_MS = 400  # an open faster than this shows no dialog at all


class _Attempt:
    def __init__(self, number: int, label: str, launch, on_opened, on_failed) -> None:
        self.number = number
        self.label = label
        self.launch, self.on_opened, self.on_failed = launch, on_opened, on_failed
        self.stop = threading.Event()
        self.while_running = opening.ASK
        self.later: list = []  # what the open left until the first page is shown (opening.later)


class OpenProgress(QObject):
    progressed = Signal(str)  # what the running open is doing now
    cancelled = Signal(str)  # the label of an open the user cancelled, once it has let go of everything

    def __init__(self, worker, parent: QWidget) -> None:
        super().__init__(parent)
        self.worker = worker
        self.parent_widget = parent
        self._numbers = itertools.count(1)
        self._current: _Attempt | None = None
        self.later: list = []  # what the store just opened left for after its first page (take_later)
        self.dialog: QProgressDialog | None = None
        self.messages: list[str] = []  # every stage the last open reported (the tests read it)
        self.question: QMessageBox | None = None  # "the engine is running: wait, or copy now?"
        self.question_buttons: dict[str, QPushButton] = {}
        self._choices: dict[str, str] = {}  # label → the answer an open succeeded with

    @property
    def busy(self) -> bool:
        return self._current is not None

    def open(self, label: str, launch: Callable, on_opened: Callable[[object], None],
             on_failed: Callable[[str], None], *, while_running: str = opening.ASK) -> None:
        """Start an open: ``launch(submit_open, on_error)`` begins it (``open_in_worker``) and hands the
        step that opens the store to ``submit_open(fn)``, which runs ``fn()`` on the worker with progress
        and cancel. A running open is cancelled first.

        A store the system's engine is writing is not copied at once: the user is asked first whether to
        wait until the engine stops or to open a copy now (``while_running``)."""
        self.cancel()
        if while_running == opening.ASK:
            while_running = self._choices.get(label, opening.ASK)
        attempt = self._current = _Attempt(next(self._numbers), label, launch, on_opened, on_failed)
        attempt.while_running = while_running
        self.messages = []

        def submit_open(fn: Callable[[], object]) -> None:
            def job(progress, worker_cancelled):
                def stop() -> bool:
                    return attempt.stop.is_set() or worker_cancelled()

                if stop():
                    raise opening.OpenCancelled("cancelled")
                with opening.reporting(progress, stop, while_running=while_running, later=attempt.later.append):
                    store = fn()
                if stop():  # cancelled after the last step: let go of it here, nobody will take it
                    store.close()
                    raise opening.OpenCancelled("cancelled")
                return store

            self.worker.submit_long(f"open-{attempt.number}", job,
                                    on_result=lambda store: self._opened(attempt, store, on_opened),
                                    on_error=lambda message: self._failed(attempt, message, on_failed),
                                    on_progress=lambda d, t, text: self._progress(attempt, d, t, text))

        launch(submit_open, lambda message: self._failed(attempt, message, on_failed))
        QTimer.singleShot(SHOW_AFTER_MS, lambda: self._show_dialog(attempt))

    def cancel(self) -> None:
        """Stop the running open, if any (its copy and process are removed on the worker)."""
        attempt, self._current = self._current, None
        if attempt is not None:
            attempt.stop.set()
        self._close_dialog()
        self._close_question()

    # -- answers (GUI thread) -----------------------------------------------------------------------
    def _opened(self, attempt: _Attempt, store, on_opened) -> None:
        if attempt is not self._current:  # superseded or cancelled while it finished: nobody wants it
            close_in_background(store.close)
            return
        self._current = None
        self._close_dialog()
        if attempt.while_running != opening.ASK:  # the answer that worked: Refresh does not ask again
            self._choices[attempt.label] = attempt.while_running
        self.later = attempt.later
        on_opened(store)

    def take_later(self) -> list:
        """The work the store just opened left for after its first page (``opening.later``), once."""
        later, self.later = self.later, []
        return later

    def _failed(self, attempt: _Attempt, message: str, on_failed) -> None:
        if attempt.stop.is_set() or message.startswith(opening.OpenCancelled.__name__):
            if attempt is self._current:
                self._current = None
                self._close_dialog()
            if self._current is None:  # cancelled by the user, not superseded by a newer open
                self.cancelled.emit(attempt.label)
            return
        if attempt is not self._current:
            return
        self._close_dialog()
        if message.startswith(opening.EngineRunning.__name__ + ": "):
            self._ask_engine_running(attempt, message.partition(": ")[2])
            return
        self._current = None
        on_failed(message)

    # -- the engine is running ----------------------------------------------------------------------
    def _ask_engine_running(self, attempt: _Attempt, reason: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, "The engine is running",
                          f"{reason}.\n\nIt writes this store while it runs. You can wait until it stops, "
                          "or open a copy taken now: it may be a moment behind what the engine is doing. "
                          "Either way, edits stay refused while the engine runs unless you insist.",
                          parent=self.parent_widget)
        box.setObjectName("engineRunningQuestion")
        self.question_buttons = {
            opening.WAIT: box.addButton("Wait until it stops", QMessageBox.ButtonRole.AcceptRole),
            opening.COPY_NOW: box.addButton("Open a copy now", QMessageBox.ButtonRole.ActionRole),
            "cancel": box.addButton(QMessageBox.StandardButton.Cancel),
        }
        box.setDefaultButton(self.question_buttons[opening.WAIT])
        box.buttonClicked.connect(lambda button: self._answered(attempt, button))
        self.question = box
        box.open()

    def _answered(self, attempt: _Attempt, button) -> None:
        choice = next((k for k, b in self.question_buttons.items() if b is button), "cancel")
        self._close_question()
        if attempt is not self._current:
            return
        if choice == "cancel":
            self._current = None
            self.cancelled.emit(attempt.label)
            return
        self.open(attempt.label, attempt.launch, attempt.on_opened, attempt.on_failed, while_running=choice)

    def _close_question(self) -> None:
        box, self.question = self.question, None
        self.question_buttons = {}
        if box is not None:
            box.hide()
            box.deleteLater()

    def _progress(self, attempt: _Attempt, done: int, total: int, text: str) -> None:
        if attempt is not self._current:
            return
        if not self.messages or self.messages[-1] != text:
            self.messages.append(text)
        self.progressed.emit(text)
        if self.dialog is not None:
            self._show_stage(done, total, text)

    # -- the dialog ---------------------------------------------------------------------------------
    def _show_dialog(self, attempt: _Attempt) -> None:
        if attempt is not self._current or self.dialog is not None:
            return
        dialog = QProgressDialog(self.parent_widget)
        dialog.setObjectName("openProgress")
        dialog.setWindowTitle("Opening a store")
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setMinimumDuration(0)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumWidth(420)
        dialog.canceled.connect(self.cancel)
        self.dialog = dialog
        self._show_stage(0, 0, self.messages[-1] if self.messages else f"Opening {attempt.label}…")
        dialog.show()

    def _show_stage(self, done: int, total: int, text: str) -> None:
        self.dialog.setLabelText(text)
        self.dialog.setRange(0, max(0, total))  # 0..0: busy, no figure to show
        self.dialog.setValue(min(done, total) if total else 0)

    def _close_dialog(self) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.canceled.disconnect(self.cancel)
            dialog.hide()
            dialog.deleteLater()

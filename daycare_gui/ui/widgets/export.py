"""Export… and Copy as Markdown for the conversation panes: the save dialog, the export on its own worker
with a progress dialog, and the clipboard. What is written and how is the core's
(:mod:`daycare_gui.stores.common.export`): nothing here formats or writes a file.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QProgressDialog, QWidget

from daycare_gui.stores.common.export import (
    FORMATS,
    export_to_file,
    format_for_path,
    header_for,
    message_markdown,
)
from daycare_gui.ui.worker import DbWorker

COPY_SHORTCUT = "Ctrl+Shift+C"  # the window's "Copy Record as Markdown" (listed in the File menu)
EXPORT_SHORTCUT = "Ctrl+Shift+E"  # the window's "Export Conversation…"


def copy_markdown(message) -> str:
    """Put one message on the clipboard as Markdown (secrets masked); return the text."""
    text = message_markdown(message)
    QGuiApplication.clipboard().setText(text)
    return text


def ask_save_path(parent: QWidget, suggested: str) -> tuple[str | None, str | None]:
    """The save dialog: (path, format) or (None, None). The filter picks the format; a name typed with
    another export suffix (``.html``) means that format; a name without one gets the format's suffix."""
    filters = [f.filter for f in FORMATS.values()]
    path, chosen = QFileDialog.getSaveFileName(parent, "Export conversation", suggested, ";;".join(filters))
    if not path:
        return None, None
    by_filter = next((f.name for f in FORMATS.values() if f.filter == chosen), None)
    by_name = format_for_path(path, default="")
    fmt = by_name or by_filter or "md"
    if not by_name:
        path += FORMATS[fmt].suffix
    return path, fmt


def suggested_name(title: str, session_id: str, folder: str | None = None) -> str:
    stem = re.sub(r"[^\w.-]+", "-", f"{title}-{session_id}").strip("-.")[:80] or "conversation"
    return str(Path(folder or Path.home()) / f"{stem}.md")


class ConversationExporter(QObject):
    """One export at a time per pane, on a worker of its own (a long export never queues in front of the
    pages the user browses). ``finished`` says what happened in a sentence."""

    finished = Signal(str)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._parent = parent
        self._worker: DbWorker | None = None
        self._dialog: QProgressDialog | None = None
        self._folder: str | None = None  # where the last export went: the next dialog starts there
        self.busy = False

    def export(self, opened, cap, ref, *, thread_title: str = "", ids=None, start: int = 0,
               stop: int | None = None) -> None:
        """Ask where, then export ``ref`` (only ``ids`` within positions ``start``..``stop`` if given)."""
        if self.busy:
            self.finished.emit("An export is already running.")
            return
        path, fmt = ask_save_path(self._parent, suggested_name(thread_title or ref.thread_id, ref.session_id,
                                                               self._folder))
        if not path:
            return
        self._folder = str(Path(path).parent)
        self.start_export(opened, cap, ref, path, fmt, ids=ids, start=start, stop=stop)

    def start_export(self, opened, cap, ref, path: str, fmt: str, *, ids=None, start: int = 0,
                     stop: int | None = None) -> None:
        from daycare_gui.stores import registry

        store, kind = opened.title, registry.load_kind(opened.kind).title or opened.kind
        ids = None if ids is None else list(ids)
        selected = None if ids is None and stop is None else (len(ids) if ids is not None else stop - start)

        def work(progress, cancelled):  # on the export worker: plain values in, a count out
            header = header_for(cap, ref, store=store, kind=kind, selected=selected)
            return export_to_file(cap, ref, fmt, path, header=header, ids=ids, start=start, stop=stop,
                                  progress=lambda done, total: progress(done, total, ""), cancelled=cancelled)

        if self._worker is None:
            self._worker = DbWorker("conversation-export", self)
        self.busy = True
        self._dialog = QProgressDialog(f"Exporting to {Path(path).name}…", "Cancel", 0, 0, self._parent)
        self._dialog.setWindowTitle("Export conversation")
        # Not modal: the export runs on its own worker, so browsing goes on (and a modal progress dialog
        # would run a nested event loop inside every setValue).
        self._dialog.setWindowModality(Qt.WindowModality.NonModal)
        self._dialog.setMinimumDuration(400)  # a small session is done before it would show
        self._dialog.setAutoClose(False)
        self._dialog.setAutoReset(False)
        self._dialog.canceled.connect(self.cancel)
        self._worker.submit_long("export", work, on_result=lambda n, p=path: self._done(n, p),
                                 on_error=self._failed, on_progress=self._progress)

    def _progress(self, done: int, total: int, _message: str) -> None:
        dialog = self._dialog
        if dialog is not None:
            dialog.setLabelText(f"Exporting… {done:,} of {total:,} messages")
            dialog.setMaximum(max(total, 1))
            dialog.setValue(min(done, max(total, 1)))

    def _close_dialog(self) -> None:
        dialog, self._dialog = self._dialog, None
        if dialog is not None:
            dialog.canceled.disconnect(self.cancel)
            dialog.close()
            dialog.deleteLater()
        self.busy = False

    def _done(self, written: int, path: str) -> None:
        self._close_dialog()
        self.finished.emit(f"Exported {written:,} message{'s' if written != 1 else ''} to {path}")

    def _failed(self, message: str) -> None:
        self._close_dialog()
        self.finished.emit(f"Export failed, nothing was written: {message}")

    def cancel(self) -> None:
        if self._worker is not None and self.busy:
            self._worker.cancel("export")  # the job stops at its next page; its temporary file is removed
            self._close_dialog()
            self.finished.emit("Export cancelled; nothing was written.")

    def shutdown(self) -> None:
        self.cancel()
        if self._worker is not None:
            self._worker.shutdown()
            self._worker = None

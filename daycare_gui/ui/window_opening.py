"""The main window's one path to open a store: a folder, a server or a demo opened on the worker and shown
(its sections, its first page, what is built and imported after it), closed, reloaded, or said to fail."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog, QMessageBox

from daycare_gui.stores.api import CannotOpen, NotRecognised
from daycare_gui.stores.common.locations import is_url
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.registry import NoKindRecognised
from daycare_gui.ui import gc_guard
from daycare_gui.ui.panes.generic import sections_for  # (light; the open's worker asks it: _read_first)
from daycare_gui.ui.store_opener import open_in_worker
from daycare_gui.ui.worker import close_in_background

# The conversation page, built ahead while the first page is read (the first of these the store has).
PRELOADED_PAGES = ("conversations", "history")


class StoreOpening:
    """The :class:`~daycare_gui.ui.main_window.MainWindow`'s opening and closing of a store (a part of the
    window: it uses the window's workers, opener, watcher, navigation and pages)."""

    # -- opening --------------------------------------------------------------------------------------
    def choose_and_open(self) -> None:
        start = str(self.settings.value("last_path", str(Path.home())))
        if is_url(start):  # a server: the folder dialog starts at home
            start = str(Path.home())
        path = QFileDialog.getExistingDirectory(
            self, "Open a store folder (Daycare, Linggen, AgentStack or CianaParrot)", start)
        if path:
            self.open_path(path)

    def open_path(self, path: str, kind: str | None = None) -> None:
        if self.may_discard_unsaved():
            self._open_path(path, kind)

    def _open_path(self, path: str, kind: str | None = None) -> None:
        self.status_store.setText(f"Opening {mask_url(path)}…")
        self.opener.open(mask_url(path),
                         lambda submit_open, on_error: open_in_worker(self.worker, path, kind=kind,
                                                                      submit_open=submit_open, on_error=on_error,
                                                                      prepare=self._read_first),
                         on_opened=lambda s: self._store_opened(s, path),
                         on_failed=lambda msg: self._open_failed(path, msg))

    def open_demo(self, kind: str = "daycare") -> None:
        """Write ``kind``'s demo store (``stores.demos``) to a temporary folder and open it."""
        from daycare_gui.stores.common.leftovers import private_folder
        from daycare_gui.stores.demos import current_minute_ms, write_kind_demo

        if not self.may_discard_unsaved():
            return
        folder = private_folder("daycare-gui-demo-")  # named and locked as ours: a kill leaves it to the sweep
        self._demo_dirs.append(folder)  # ours to remove when the window closes
        dest = folder.path / kind
        self.status_store.setText("Writing a demo store…")

        def first():
            write_kind_demo(kind, dest, current_minute_ms())

        self.opener.open("a demo store",
                         lambda submit_open, on_error: open_in_worker(
                             self.worker, str(dest), kind=kind, first=first,
                             submit_open=submit_open, on_error=on_error, prepare=self._read_first),
                         on_opened=lambda s: self._store_opened(s, str(dest), remember=False),
                         on_failed=lambda msg: self._open_failed(str(dest), msg))

    def _open_progressed(self, text: str) -> None:
        self.status_store.setText(text)

    def _open_cancelled(self, label: str) -> None:
        self.status_store.setText(f"Opening {label} cancelled" if self.opened is None
                                  else f"{self.opened.title} (opening {label} cancelled)")

    def _open_failed(self, path: str, message: str) -> None:
        self.status_store.setText("No store open" if self.opened is None else self.opened.title)
        if self.opened is not None:  # a failed Reload: keep watching the store still shown
            self.watcher.watch(self.opened)
        kind, _, text = message.partition(": ")
        if kind == NoKindRecognised.__name__ and self.opened is None:
            # The welcome page says which kinds were tried and why each declined.
            self.welcome.show_declined(mask_url(text))
            return
        if not _said_in_a_sentence(kind):
            text = message
        QMessageBox.warning(self, "Cannot open", f"{mask_url(path)}\n\n{mask_url(text)}")

    def _read_first(self, opened) -> None:
        """On the open's worker: what showing the store first asks of it — its sections (a PGlite store reads
        three tables for them) and why its writes are blocked (its migrations) — so that the GUI thread sends
        no query while the window switches to the store (#35)."""
        self._first_reads[opened] = (sections_for(opened), self._engine_note(opened))

    def _store_opened(self, opened, path: str, remember: bool = True) -> None:
        """Any kind, any generation: the navigation is what the store's capabilities offer."""
        specs, note = self._first_reads.pop(opened, (None, None))
        self.close_store()
        self.opened = opened
        self.store = opened
        self._opened_path = path
        self.welcome.show_declined("")
        self.watcher.watch(opened)  # every kind names what changes on disk when its program writes
        self._set_sections(specs if specs is not None else sections_for(opened))
        if remember:
            self._remember(path)
        self.setWindowTitle(f"{opened.title} — daycare-gui")
        self.central.setCurrentWidget(self.splitter)
        self._size_navigation()
        self.actions_.set_store_open(True)
        self.actions_.set_offered(self._offered_actions(opened))
        self._update_status()
        self.banner.hide()
        self._idle_imports(opened)
        for work in self.opener.take_later():  # (before the counts: the Problems count includes what it finds)
            self.bg_worker.submit("after-open", work, supersede=False)
        self._load_counts()
        self.preloader.start()
        self.jump.store_opened()  # on the background worker, held until start-up's imports are done
        self.show_section(self._current_section or "overview")
        note = self._engine_note(opened) if note is None else note
        if note:
            self.banner.show_message(note, action="", kind="warning")
        # Build the conversation page while the user is still reading the first one, so opening the
        # first session does not pay for its widgets; after start-up's imports, which wait until the
        # page worker is idle, so that it never delays the first page's rows.
        conversation = next((s for s in PRELOADED_PAGES if s in self._sections), None)
        if conversation is not None:
            QTimer.singleShot(400, lambda o=opened: self.preloader.when_done(
                lambda: self.opened is o and self._build_ahead(conversation)))

    def _build_ahead(self, section: str) -> None:
        """Build ``section``'s page in idle time, and lay it out and draw it once off screen (see
        ui.warm_pages): its first show then only paints."""
        from daycare_gui.ui.warm_pages import warm_page

        pane = self.pane(section)
        if pane is not None and self.isVisible():  # (drawn a turn later: its build is a stall of its own)
            opened = self.opened
            QTimer.singleShot(0, lambda: self.opened is opened and self.isVisible()
                              and warm_page(self.pane_stack, pane, self.details, self.width()))

    def _idle_imports(self, opened) -> None:
        """The modules this kind's capabilities import lazily, imported on the GUI thread after the first
        page; the background worker waits for them (a worker must never be the first to import)."""
        from daycare_gui.stores.registry import load_kind

        if self.preloader.add(getattr(load_kind(opened.kind), "idle_modules", ())):
            self.bg_worker.hold()
            self.preloader.when_done(self.bg_worker.release)

    def _offered_actions(self, opened) -> set[str]:
        """The store's own actions it offers: Search when it has a Search section, Deleted Items when it
        keeps a trash, Upgrade Storage when it keeps migrations (the dialog says why when none can run)."""
        from daycare_gui.stores.api import Storage, Trash

        offered = {"search"} if "search" in self._sections else set()
        if opened.capability(Trash) is not None:
            offered.add("trash")
        if (storage := opened.capability(Storage)) is not None and storage.offers_upgrade:
            offered.add("upgrade")
        return offered

    def _engine_note(self, opened) -> str:
        reason = opened.writes_blocked()
        if not reason:
            return ""
        summary = opened.summary()
        behind = (" You are reading a copy taken when the store was opened: it may be a moment behind."
                  if summary.engine_running and "copy" in (summary.open_mode or "") else "")
        return f"{reason}. Browsing is safe; edits ask first.{behind}"

    # -- closing, reloading ---------------------------------------------------------------------------
    def close_store(self) -> None:
        # Answers still on their way belong to panes about to be deleted: make them all stale.
        self.worker.cancel_all()
        self.bg_worker.cancel_all()
        self._waiting_page = None  # a page still waiting for its item goes with the others
        self._wait_timer.stop()
        for pane in self.panes.values():
            pane.shutdown()
            self.pane_stack.removeWidget(pane)
            pane.deleteLater()
        self.panes.clear()
        self._missed.clear()
        self._stale.clear()
        self._history.clear()
        self.jump.store_closed()
        self.detail.show_item(None)
        self.nav.clear_counts()
        self.watcher.watch(None)
        if self.opened is not None:
            opened, self.opened, self.store = self.opened, None, None
            _close_without_waiting(opened, (self.worker.barrier(), self.bg_worker.barrier()))
            gc_guard.thaw()  # what was frozen as kept for that store may be garbage now
        self.central.setCurrentWidget(self.welcome)
        self.details.sync()
        self.actions_.set_store_open(False)
        self.setWindowTitle("daycare-gui")
        self._update_status()

    def refresh(self) -> None:
        if self.opened is None or not self.may_discard_unsaved():
            return
        self.banner.hide()
        self.watcher.watch(None)  # what changes until the store is read again is in what is read
        self._open_path(self._opened_path, self.opened.kind)

    def open_initial(self, path: str | None, demo: bool, kind: str | None = None, open_target: str | None = None
                     ) -> None:
        """Start-up: a PATH, the demo, the last store, the default Daycare root, or the welcome page.
        ``open_target`` (``--open session:<id>``) is opened once the store's items are read."""
        self.jump.open_when_ready(open_target)
        if demo:
            QTimer.singleShot(0, self.open_demo)
            return
        if path:
            QTimer.singleShot(0, lambda: self.open_path(path, kind))
            return
        from daycare_gui.ui.start_store import initial_store

        start = initial_store(self.settings)  # (the command line began its copy already: cli._dispatch)
        if start is not None:
            QTimer.singleShot(0, lambda: self.open_path(start))


def _said_in_a_sentence(error_class: str) -> bool:
    """An error whose message is a whole sentence for people (every kind's refusals and failures to open
    derive from the contract's two): shown without its class name, as the command line shows it."""
    names = {"NotADaycareDirectory", "PgError", "OpenCancelled"}
    todo: list[type] = [NotRecognised, CannotOpen]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return error_class in names


def _close_without_waiting(opened, after=()) -> None:
    """Close a store without the GUI thread waiting for anything: the store stops what it runs at once
    (its running queries are interrupted, so the workers are free again); whatever else it holds (a
    PGlite process to stop, a private copy to delete) is released on a thread of its own, once the jobs
    running when it was closed (``after``: the workers' barriers) have ended."""
    opened.interrupt()
    close_in_background(opened.close, after)  # waited for at exit (run_app): the copy must go before the process

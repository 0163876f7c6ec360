"""The main window: composition only — navigation, stacked panes, detail dock, banner, status bar.

It owns no SQL and no parsing: it opens stores through the registry on the worker, hands panes a
:class:`PaneContext`, and routes navigation requests between them.
"""

from __future__ import annotations

import logging
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, QSize, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from daycare_gui import __version__
from daycare_gui.stores.api import CannotOpen, NotRecognised
from daycare_gui.stores.common.locations import cleaned, is_url, remembered
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.demos import OTHER_KINDS as OTHER_DEMOS
from daycare_gui.stores.registry import NoKindRecognised
from daycare_gui.ui import gc_guard
from daycare_gui.ui.actions import ActionRegistry
from daycare_gui.ui.context import DetailItem, PaneContext
from daycare_gui.ui.detail_dock import DetailDock
from daycare_gui.ui.jump_controller import JumpController
from daycare_gui.ui.keyboard import cycle_focus
from daycare_gui.ui.open_progress import OpenProgress
from daycare_gui.ui.panes.generic import sections_for  # (light; the open's worker asks it: _read_first)
from daycare_gui.ui.panes.registry import pane_class
from daycare_gui.ui.preload import Preloader
from daycare_gui.ui.settings_file import private_settings
from daycare_gui.ui.store_opener import open_in_worker
from daycare_gui.ui.store_watcher import StoreWatcher
from daycare_gui.ui.widgets.banner import Banner
from daycare_gui.ui.widgets.busy_label import BusyLabel
from daycare_gui.ui.widgets.navigation import NavigationTree
from daycare_gui.ui.widgets.welcome import WelcomePage
from daycare_gui.ui.worker import DbWorker, close_in_background

if TYPE_CHECKING:
    from daycare_gui.stores.common.private_copies import PrivateFolder

log = logging.getLogger(__name__)
MAX_RECENT = 10
# Store.engine_state() → the status bar's words ("maybe": not seen running, yet writes ask first)
ENGINE_LABELS = {"running": "engine RUNNING", "maybe": "engine may be running", "stopped": "engine not running"}
# Pages that can be on screen before the preloader is done: everything their jobs run is imported with
# them. Any other page finishes the preloading first (ui/preload.py says why).
STARTUP_PAGES = frozenset({"overview", "agents", "history"})
# The conversation page, built ahead while the first page is read (the first of these the store has).
PRELOADED_PAGES = ("conversations", "history")
_NOTHING_LEFT = object()  # (MainWindow._left_detail: no previous page's detail waits to be emptied)


class MainWindow(QMainWindow):
    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("daycare-gui")
        self.setAcceptDrops(True)
        self.settings = settings or QSettings()
        private_settings(self.settings)  # the stores opened are the user's business: 0600 in a 0700 folder
        self.worker = DbWorker("db-worker", self)  # pages and lists the user is looking at
        self.bg_worker = DbWorker("db-background", self)  # whole-store aggregates: counts, charts
        # What the first page does not need is imported after it is shown; the aggregates wait for it.
        self.preloader = Preloader(busy=self.worker.is_busy, parent=self)
        self.bg_worker.hold()
        self.preloader.when_done(self.bg_worker.release)
        # ``opened``: the store of any kind (``store``, what its panes read, is the same). Both are None
        # when nothing is open.
        self.opened = None
        self.store = None
        self._sections: dict = {}  # the open store's sections by id
        self._opened_path: str | None = None
        self.panes: dict = {}
        self._history: list[tuple[str, object]] = []
        self._demo_dirs: list[PrivateFolder] = []
        self._current_section: str | None = None
        self._waiting_page = None  # a page shown once its item is read (see _show_when_ready)
        self._first_reads = weakref.WeakKeyDictionary()  # opened → what showing it asks first (_read_first)
        self._wait_timer = QTimer(self, singleShot=True, timeout=self._show_waiting)

        self.actions_ = ActionRegistry(self)
        self.jump = JumpController(self)  # Jump To (Ctrl+K), deep links, Copy link
        self.menus = self.actions_.build_menus(self.menuBar())
        self.recent_menu = self.menus["&File"].addMenu("Open &Recent")
        self.menus["&File"].insertMenu(self.actions_.actions["refresh"], self.recent_menu)
        self.actions_.bind({
            "open": self.choose_and_open, "open_demo": self.open_demo, "refresh": self.refresh,
            **{f"open_demo_{k}": (lambda k=k: self.open_demo(k)) for k in OTHER_DEMOS},
            "close_store": self.close_store, "quit": self.close, "filter": self.focus_filter,
            "search": self.open_search, "toggle_detail": lambda: self.details.toggle(),
            "focus_nav": lambda: self.nav.setFocus(), "back": self.go_back, "upgrade": self.open_upgrade,
            "problems": lambda: self.show_section("problems"), "trash": self.open_trash, "about": self.about,
            "quick_open": self.jump.show_palette, "copy_link": self.jump.copy_link,
            "next_area": lambda: cycle_focus(self, 1), "previous_area": lambda: cycle_focus(self, -1),
            "shortcuts": self.show_shortcuts,
            **{f"section_{n}": (lambda n=n: self.show_nth_section(n)) for n in range(1, 10)},
            "export_conversation": lambda: self._on_conversation("export_conversation", "export it"),
            "copy_markdown": lambda: self._on_conversation("copy_markdown", "copy a record"),
        })

        # -- central area -------------------------------------------------------------------------
        self.welcome = WelcomePage()
        self.welcome.open_requested.connect(self.choose_and_open)
        self.welcome.demo_requested.connect(self.open_demo)
        self.welcome.recent_requested.connect(self.open_path)
        self.nav = NavigationTree()
        self.nav.section_selected.connect(self.show_section)
        self.pane_stack = QStackedWidget()
        self.banner = Banner()
        self.banner.action_clicked.connect(self.refresh)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.banner)
        right_layout.addWidget(self.pane_stack, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.nav)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setCollapsible(0, False)  # the navigation keeps its labels whole (its minimum size)
        self.splitter.setSizes([220, 900])
        self.central = QStackedWidget()
        self.central.addWidget(self.welcome)
        self.central.addWidget(self.splitter)
        self.setCentralWidget(self.central)
        # The Details dock comes and goes with the pages, narrowing and widening the page area. These two
        # containers paint nothing of their own, so a resize need not repaint all they hold: with static
        # contents only the children whose size changed (the page) and any area uncovered are painted,
        # not the navigation beside them (~2 ms of icons and labels on each such switch).
        for container in (self.central, self.splitter):
            container.setAttribute(Qt.WidgetAttribute.WA_StaticContents)

        self.details = DetailDock(self, self.settings, self.page_has_details)
        self.detail, self.detail_dock = self.details.pane, self.details.dock
        self._nav_sized = False  # the navigation fitted to its labels once, unless a saved layout sets it
        self.nav.width_needed.connect(self._fit_navigation)

        # -- status bar ------------------------------------------------------------------------------
        self.status_store = QLabel("No store open")
        self.status_mode = QLabel()
        self.status_engine = QLabel()
        self.status_busy = BusyLabel()
        for w in (self.status_store, self.status_mode, self.status_engine):
            self.statusBar().addWidget(w)
        self.statusBar().addPermanentWidget(self.status_busy)
        self.worker.busy_changed.connect(self.status_busy.set_busy)
        # Readers find problems while they read (a conversation's bad line, a checkpoint that does not
        # decode), long after the counts were taken: each time a worker falls idle, count them again
        for worker in (self.worker, self.bg_worker):
            worker.busy_changed.connect(self._worker_busy)  # (a method: Qt cuts it off when the window goes)

        self.opener = OpenProgress(self.worker, self)
        self.opener.progressed.connect(self._open_progressed)
        self.opener.cancelled.connect(self._open_cancelled)

        self.watcher = StoreWatcher(self)
        self.watcher.changed.connect(self._disk_changed)
        self.watcher.database_changed.connect(self._database_changed)
        # Sections that missed a database change while hidden: a live one catches up when shown, another
        # one gets the Reload banner then.
        self._missed: set[str] = set()
        self._stale: set[str] = set()  # sections whose page cannot follow a change it was told of

        self._restore_geometry()
        self._clean_remembered()
        self._refresh_recent()
        self.actions_.set_store_open(False)
        self.resize(self.size().expandedTo(self.minimumSizeHint()))
        self.details.sync()

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

    def _set_sections(self, specs) -> None:
        self._sections = {p.id: p for p in specs}
        self.nav.set_sections(specs)
        if self._current_section not in self._sections:
            self._current_section = None
        self.actions_.name_sections([p.title for p in self._nav_order()])

    def _nav_order(self) -> list:
        """Sections in the order the navigation lists them (grouped ones after the top level)."""
        shown = [p for p in self._sections.values() if p.in_nav]
        return [p for p in shown if not p.group] + [p for p in shown if p.group]

    def show_nth_section(self, n: int) -> None:
        """Ctrl+1…9: the n-th section of the navigation."""
        order = self._nav_order()
        if 0 < n <= len(order):
            self.show_section(order[n - 1].id)
            pane = self.pane_stack.currentWidget()
            if pane is not None:
                pane.setFocus(Qt.FocusReason.ShortcutFocusReason)
                pane.focusNextChild()

    def show_shortcuts(self) -> None:
        from daycare_gui.ui.keyboard import ShortcutsDialog

        ShortcutsDialog(self.actions_.texts(), self).exec()

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

    # -- a store that changes while it is shown -----------------------------------------------------
    def _database_changed(self) -> None:
        """A write to the database (debounced by the watcher): the page shown reads what is new; hidden
        pages catch up when they are shown, so nothing polls for a page nobody looks at."""
        if self.opened is None:
            return
        self.opened.follow_live()  # an immutable open (the WAL was empty) would never see the new rows
        # the navigation's counts follow too (a new agent, a new inbox item)
        self.bg_worker.submit("nav-counts-live", self._counts_job(), on_result=self._counts_arrived)
        self._missed.update(s for s in self.panes if s != self._current_section)
        if self._current_section in self.panes:
            self._tell_pane(self._current_section)

    def _tell_pane(self, section: str) -> None:
        self._missed.discard(section)
        if not self.panes[section].store_changed():
            self._stale.add(section)

    def _disk_changed(self, message: str) -> None:
        if self.watcher.database_only and self._current_section not in self._stale:
            return  # the page shown follows the database by itself
        pane = self.panes.get(self._current_section)
        if pane is not None and pane.follows_change(self.watcher.last_paths):
            return  # e.g. the conversation shown grew, and the page added the new messages itself
        self._show_store_changed(message)

    def _show_store_changed(self, detail: str) -> None:
        """The same non-modal banner for every kind; Reload reopens the store on the page shown."""
        self.banner.show_message("The store changed on disk — Reload to see it.", action="Reload")
        self.banner.setToolTip(detail)

    # -- sections ---------------------------------------------------------------------------------
    def _context(self) -> PaneContext:
        return PaneContext(store=self.store, worker=self.worker, navigate=self.navigate,
                           show_detail=self.detail.show_item, set_count=self.nav.set_count,
                           background=self.bg_worker, opened=self.opened)

    def pane(self, section: str):
        if section not in self.panes:
            spec = self._sections.get(section)
            if spec is None or self.store is None:
                return None
            if section not in STARTUP_PAGES:
                self.preloader.finish_now()
            ctx = self._context()
            ctx.arg = spec.arg
            pane = pane_class(spec)(ctx)
            pane.setObjectName(f"pane_{section}")
            self.jump.install_link_menus(pane)  # "Copy link" on the lists of a pane that names its items
            self.panes[section] = pane
            self.pane_stack.addWidget(pane)
            pane.load()
        return self.panes[section]

    def show_section(self, section: str, target=None, *, record: bool = True) -> None:
        if self.store is None:
            return
        pane = self.pane(section)
        if pane is None:
            return
        if record and self._current_section and self._current_section != section:
            self._history.append((self._current_section, None))
        waits = (target is not None and pane.opens_before_shown and self.isVisible()
                 and self.pane_stack.currentWidget() is not pane)
        self._left_detail = _NOTHING_LEFT
        if section != self._current_section:  # the detail pane describes a selection on the page shown:
            if waits:  # emptied when the page is, not while the previous one stays up (painted twice so)
                self._left_detail = self.detail.item
            else:
                self.detail.show_item(None)
        self._current_section = section
        if section in self._missed:
            self._tell_pane(section)
            if section in self._stale:
                self._show_store_changed("The database changed on disk.")
        self._waiting_page = None  # a newer choice replaces a page still waiting for its item
        if target is not None and pane.opens_before_shown:
            if waits:
                self._show_when_ready(pane)  # first: a page with nothing to read is ready at once
            pane.open_item(target)  # its read runs while the previous page is still on screen
            target = None
        if self._waiting_page is None:
            self._show_page(pane)
        # pages outside the tree highlight the node they belong to (a conversation is an agent's)
        self.nav.select({"history": "agents"}.get(section, section))
        if target is not None:
            pane.open_item(target)

    _left_detail = _NOTHING_LEFT  # the previous page's detail, while that page stays up for the next (_NOTHING_LEFT: none)

    PAINT_HOLD_MS = 100  # the longest the previous page stays on screen while the next one reads its item

    def _show_when_ready(self, pane) -> None:
        """Keep the previous page on screen until ``pane`` has its item (``item_ready``) or PAINT_HOLD_MS
        have passed, as a browser keeps the old page until the new one has content: the window then
        switches and lays out once, and paints only what changed, with the item in it.

        (Holding with setUpdatesEnabled(False) instead made Qt repaint the whole window once the item came:
        enabling updates again marks every widget of the window dirty, and most were painted twice.)"""
        self._waiting_page = pane
        pane.item_ready.connect(lambda: self._show_waiting(pane), Qt.ConnectionType.SingleShotConnection)
        self._wait_timer.start(self.PAINT_HOLD_MS)  # one timer: an earlier wait's cannot end this one

    def _show_waiting(self, pane=None) -> None:
        """``pane``'s item is ready (or, with None, the wait is over): show the page still waiting."""
        if self._waiting_page is not None and pane in (None, self._waiting_page):
            pane, self._waiting_page = self._waiting_page, None
            self._wait_timer.stop()
            left, self._left_detail = self._left_detail, _NOTHING_LEFT
            if left is not None and left is self.detail.item:  # (unless the new page described something)
                self.detail.show_item(None)
            self._show_page(pane)

    def _show_page(self, pane) -> None:
        previous = self.pane_stack.currentWidget()
        if previous is not None and previous is not pane and self.details.changes_for(pane):
            self._show_page_with_dock_change(previous, pane)
        else:
            self.pane_stack.setCurrentWidget(pane)
        self.details.sync()

    def _show_page_with_dock_change(self, previous, pane) -> None:
        """Show ``pane`` where the Details dock comes or goes with it: settle the page area's new width
        first, so that ``pane`` is laid out once, at that width. (Shown first, it was laid out at the old
        width and again at the new one: ~0.5 ms more of each such switch, measured.) The page
        leaving is hidden before the dock changes, so it is not laid out again either."""
        focus = QApplication.focusWidget()
        focus_was_on_page = focus is not None and previous.isAncestorOf(focus)
        previous.hide()
        self.details.sync(pane)
        self.layout().activate()
        self.pane_stack.setCurrentWidget(pane)
        if focus_was_on_page:  # as the stack would have done, had the page still had the focus
            (pane.focusWidget() or pane).setFocus()

    def navigate(self, section: str, target=None) -> None:
        self.show_section(section, target)

    def go_back(self) -> None:
        if self._history:
            section, target = self._history.pop()
            self.show_section(section, target, record=False)

    def open_search(self) -> None:
        """Ctrl+Shift+F: the Search page with the cursor in its query box, ready to type."""
        self.show_section("search")
        if self._current_section == "search":
            self.focus_filter()

    def _on_conversation(self, method: str, what: str) -> None:
        """Export and Copy as Markdown act on the conversation shown; elsewhere the status bar says where."""
        pane = self.panes.get(self._current_section or "")
        if pane is not None and hasattr(pane, method):
            getattr(pane, method)()
        else:
            self.statusBar().showMessage(f"Open a conversation to {what}.", 5000)

    def focus_filter(self) -> None:
        pane = self.panes.get(self._current_section or "")
        if pane is not None:
            pane.focus_filter()

    def page_has_details(self, pane=None) -> bool:
        """Whether the page shown (or ``pane``, about to be shown) has anything for the Details dock."""
        if self.store is None or self.central.currentWidget() is not self.splitter:
            return False
        pane = pane if pane is not None else self.pane_stack.currentWidget()
        return bool(getattr(pane, "has_details", True)) if pane is not None else False

    def _size_navigation(self) -> None:
        if not self._nav_sized:  # the first store: the navigation as wide as its labels, no wider
            self._nav_sized = True
            self.nav.ensurePolished()
            total = sum(self.splitter.sizes()) or self.width()
            self.splitter.setSizes([self.nav.preferred_width(), max(0, total - self.nav.preferred_width())])
        self._fit_navigation(self.nav.needed_width())

    def _fit_navigation(self, needed: int) -> None:
        """Widen the navigation to its longest label (with its count) when it is narrower than that."""
        if self.central.currentWidget() is not self.splitter:
            return
        sizes = self.splitter.sizes()
        if len(sizes) == 2 and sizes[0] < needed and sum(sizes) > needed + 300:
            self.splitter.setSizes([needed, sum(sizes) - needed])

    def show_detail(self, item: DetailItem | None) -> None:
        self.detail.show_item(item)

    def open_upgrade(self) -> None:
        try:
            from daycare_gui.ui.dialogs.upgrade import UpgradeDialog, upgrade_storage
        except ImportError:
            QMessageBox.information(self, "Upgrade storage", "Use 'daycare-gui upgrade PATH' from a terminal.")
            return
        dialog = UpgradeDialog(upgrade_storage(self.opened), self)
        if dialog.exec() and dialog.changed:
            self.refresh()

    def open_trash(self) -> None:
        from daycare_gui.stores.api import Trash
        from daycare_gui.ui.dialogs.trash import TrashDialog

        trash = self.opened.capability(Trash) if self.opened is not None else None
        if trash is not None:
            TrashDialog(trash, self, on_restored=self.refresh).exec()

    def about(self) -> None:
        QMessageBox.about(self, "About daycare-gui",
                          f"<h3>daycare-gui {__version__}</h3><p>See and safely change everything in a Daycare "
                          "data directory.</p><p>Databases are opened read-only; secrets are masked.</p>")

    # -- counts, status ----------------------------------------------------------------------------
    def _load_counts(self) -> None:
        # on the background worker, which runs only once the preloader has imported what counting needs
        self.bg_worker.submit("nav-counts", self._counts_job(), on_result=self._counts_arrived)

    def _counts_job(self):
        from daycare_gui.ui.panes.generic import counts_for

        opened, specs = self.opened, tuple(self._sections.values())
        return lambda: counts_for(opened, specs)

    def _worker_busy(self, busy: bool) -> None:
        if not busy:
            self._count_problems()

    def _count_problems(self) -> None:
        """The navigation's Problems count, as the store's problem log holds it now (one len())."""
        if self.opened is not None:
            self.nav.set_count("problems", len(self.opened.problems))

    def _counts_arrived(self, counts: dict) -> None:
        self.nav.set_counts(counts)

    def _update_status(self) -> None:
        opened = self.opened
        if opened is None:
            self.status_store.setText("No store open")
            self.status_mode.setText("")
            self.status_engine.setText("")
            return
        self.status_store.setText(f"{opened.title}  ·  {opened.kind}")
        self.status_mode.setText("read-only")
        state, why = opened.engine_state()
        self.status_engine.setText(ENGINE_LABELS.get(state, ""))
        self.status_engine.setToolTip(why)
        # the generation and how the store was opened: a summary may count rows, so off the GUI thread
        self.bg_worker.submit("status-summary", opened.summary, on_result=self._summary_arrived)

    def _summary_arrived(self, summary) -> None:
        if self.opened is None or summary.title != self.opened.title:
            return
        self.status_store.setText(f"{summary.title}  ·  {self.opened.kind} {summary.generation}".rstrip())
        self.status_mode.setText(f"read-only ({summary.open_mode})" if summary.open_mode else "read-only")

    # -- settings, recent, drag and drop ---------------------------------------------------------------
    def _remember(self, path: str) -> None:
        path = remembered(path)  # a server URL stays a URL, without its password
        self.settings.setValue("last_path", path)
        recent = [p for p in self._recent() if p != path]
        self.settings.setValue("recent", [path, *recent][:MAX_RECENT])
        self._refresh_recent()

    def _recent(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value or []]

    def _clean_remembered(self) -> None:
        """An earlier version wrote a server's password into the settings (and its URL as a path under the
        working folder): such entries are rewritten as this version writes them, the password gone."""
        recent = self._recent()
        fixed = list(dict.fromkeys(cleaned(p) for p in recent))
        if fixed != recent:
            self.settings.setValue("recent", fixed)
        last = self.settings.value("last_path")
        if last and cleaned(str(last)) != str(last):
            self.settings.setValue("last_path", cleaned(str(last)))

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        recent = self._recent()
        for path in recent:
            self.recent_menu.addAction(mask_url(path), lambda p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(recent))
        self.welcome.set_recent(recent)

    def _restore_geometry(self) -> None:
        geometry = self.settings.value("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(first_size(self.screen().availableGeometry().size()))
        state = self.settings.value("window_state")
        if state is not None:
            self.restoreState(state)
            self.details.sized = True  # the user's own dock width
        splitter = self.settings.value("main_splitter")
        if splitter is not None:
            self.splitter.restoreState(splitter)
            self._nav_sized = True

    def may_discard_unsaved(self) -> bool:
        """Before the window closes or another store replaces this one: edits a page has not saved are
        dropped only when the user says so."""
        unsaved = [what for pane in self.panes.values() if (what := pane.unsaved_work())]
        if not unsaved:
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes", f"{', '.join(unsaved)}: your changes are not saved. Discard them?",
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        if not self.may_discard_unsaved():
            event.ignore()
            return
        self.details.remember(self.settings)
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("window_state", self.saveState())
        self.settings.setValue("main_splitter", self.splitter.saveState())
        self.opener.cancel()  # a store still opening lets go of its copy and process on the worker
        self.close_store()
        self.worker.shutdown()
        self.bg_worker.shutdown()
        for folder in self._demo_dirs:  # demo stores live in temporary folders this window made
            folder.remove()
        super().closeEvent(event)

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                event.acceptProposedAction()
                return

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


def first_size(available: QSize) -> QSize:
    """The window's size at a first start: nine tenths of the screen's free area (a fixed 1280×800 ran off
    a small screen), at most 1600×1000, at least 960×640 — or the whole area of a screen smaller than that."""
    def fit(room: int, least: int, most: int) -> int:
        return max(min(least, room), min(most, round(room * 0.9)))

    return QSize(fit(available.width(), 960, 1600), fit(available.height(), 640, 1000))


def _close_without_waiting(opened, after=()) -> None:
    """Close a store without the GUI thread waiting for anything: the store stops what it runs at once
    (its running queries are interrupted, so the workers are free again); whatever else it holds (a
    PGlite process to stop, a private copy to delete) is released on a thread of its own, once the jobs
    running when it was closed (``after``: the workers' barriers) have ended."""
    opened.interrupt()
    close_in_background(opened.close, after)  # waited for at exit (run_app): the copy must go before the process

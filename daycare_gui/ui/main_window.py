"""The main window: composition only — navigation, stacked panes, detail dock, banner, status bar.

It owns no SQL and no parsing: it opens stores through the registry on the worker, hands panes a
:class:`PaneContext`, and routes navigation requests between them. Its opening of a store is in
``window_opening.py``, its pages and the switch between them in ``window_pages.py``; here are what it is
made of, its menu's dialogs, the counts and status bar, and what it remembers (recent stores, layout).
"""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, QSize, Qt, QTimer
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from daycare_gui import __version__
from daycare_gui.stores.common.locations import cleaned, remembered
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.demos import OTHER_KINDS as OTHER_DEMOS
from daycare_gui.ui.actions import ActionRegistry
from daycare_gui.ui.detail_dock import DetailDock
from daycare_gui.ui.jump_controller import JumpController
from daycare_gui.ui.keyboard import cycle_focus
from daycare_gui.ui.open_progress import OpenProgress
from daycare_gui.ui.preload import Preloader
from daycare_gui.ui.settings_file import private_settings
from daycare_gui.ui.store_watcher import StoreWatcher
from daycare_gui.ui.widgets.banner import Banner
from daycare_gui.ui.widgets.busy_label import BusyLabel
from daycare_gui.ui.widgets.navigation import NavigationTree
from daycare_gui.ui.widgets.welcome import WelcomePage
from daycare_gui.ui.window_opening import StoreOpening
from daycare_gui.ui.window_pages import PageSwitching
from daycare_gui.ui.worker import DbWorker

if TYPE_CHECKING:
    from daycare_gui.stores.common.private_copies import PrivateFolder

log = logging.getLogger(__name__)
MAX_RECENT = 10
# Store.engine_state() → the status bar's words ("maybe": not seen running, yet writes ask first)
ENGINE_LABELS = {"running": "engine RUNNING", "maybe": "engine may be running", "stopped": "engine not running"}


class MainWindow(StoreOpening, PageSwitching, QMainWindow):
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

    # -- the navigation's width ----------------------------------------------------------------------
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

    # -- the menu's dialogs ------------------------------------------------------------------------------
    def show_shortcuts(self) -> None:
        from daycare_gui.ui.keyboard import ShortcutsDialog

        ShortcutsDialog(self.actions_.texts(), self).exec()

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


def first_size(available: QSize) -> QSize:
    """The window's size at a first start: nine tenths of the screen's free area (a fixed 1280×800 ran off
    a small screen), at most 1600×1000, at least 960×640 — or the whole area of a screen smaller than that."""
    def fit(room: int, least: int, most: int) -> int:
        return max(min(least, room), min(most, round(room * 0.9)))

    return QSize(fit(available.width(), 960, 1600), fit(available.height(), 640, 1000))

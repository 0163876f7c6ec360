"""What start-up leaves out, imported on the GUI thread in idle moments once the first page is shown.

The window starts with only what the first page needs; the file readers (and PyYAML), the task and
count queries and Markdown come afterwards, one module per event-loop turn so no turn blocks
for long, and only while the page worker has been idle for a moment (the user is not waiting on it).

Always on the GUI thread, never on a worker: CPython's first import of a package from two threads at
once can fail (gh-83065: a KeyError or a partially initialised module). So the background worker is held
until this is done, and a page that is not part of start-up finishes it first (:meth:`finish_now`).
"""

from __future__ import annotations

import importlib
import logging
import sys
import time
from typing import Callable, Sequence

from PySide6.QtCore import QObject, QTimer

log = logging.getLogger(__name__)

# Leaves first, so each turn imports little. Order matters only for how long one turn takes.
# The open store's kind adds the modules its capabilities import lazily (``StoreKind.idle_modules``).
MODULES: tuple[str, ...] = (
    "hashlib",  # (a file's hash for its editor, an index's fingerprint: ~3 ms that no store's open pays now)
    "yaml",
    "markdown_it",
    "daycare_gui.ui.widgets.markdown_view",
    # The Agents page (the shared conversations pane), leaves first: built on its first click otherwise,
    # importing these was most of that click's ~100 ms stall.
    *(f"daycare_gui.ui.{m}" for m in (
        "widgets.plain_text", "panes.generic.edit_form", "panes.generic.document_parts", "panes.generic.documents",
        "widgets.history_rows", "widgets.detail_pane", "panes.generic.conversation_view",
        "panes.generic.conversations_memory", "models.keyed_model", "widgets.filter_bar", "widgets.record_table",
        "panes.generic.thread_list", "panes.generic.common", "panes.generic.conversations",
        "widgets.export")),  # (Export… and Copy as Markdown: imported on their first use otherwise)
    "warm_up_item_delegates",  # a step below, not a module
    # the records start-up did not use, defined a few a turn (daycare_gui.stores.deferred_dataclass)
    *("define_records",) * 12,
    "warm_up_icons",  # the navigation's icons in every mode (daycare_gui.ui.icons.warm_up)
)

IDLE_MS = 80
LATE_MS = 30  # a timer this late means the GUI thread had work of its own
MAX_LATE = 5
_done_steps: set[str] = set()


def _warmed(step: str) -> bool:
    return step in _done_steps  # the page worker has had nothing to do for this long: the user is not waiting on it


class Preloader(QObject):
    def __init__(self, busy: Callable[[], bool], modules: Sequence[str] = MODULES, parent=None) -> None:
        super().__init__(parent)
        self._busy = busy
        self._todo = [m for m in modules if m not in sys.modules and not (m in STEPS and _warmed(m))]
        self._then: list[Callable[[], None]] = []
        self._idle_since: float | None = None
        self._due: float | None = None  # when the timer should fire
        self._late = 0  # late ticks in a row
        self._timer = QTimer(self, singleShot=True, timeout=self._step)

    @property
    def done(self) -> bool:
        return not self._todo

    def when_done(self, fn: Callable[[], None]) -> None:
        if self.done:
            fn()
        else:
            self._then.append(fn)

    def add(self, modules: Sequence[str]) -> bool:
        """Also import ``modules`` (a store of another kind was opened); True when any is still to come,
        and then whoever waits for :meth:`when_done` waits for them too."""
        new = [m for m in modules if m not in sys.modules and m not in self._todo]
        self._todo[:0] = new  # before the Markdown and delegates: the worker's jobs need these first
        return bool(new)

    def start(self) -> None:
        if self.done:
            self._finish()
        elif not self._timer.isActive():
            self._wait(IDLE_MS)

    def finish_now(self) -> None:
        """Import the rest at once (a page that needs them is about to be built)."""
        self._timer.stop()
        while self._todo:
            self._import(self._todo.pop(0))
        self._finish()

    def _step(self) -> None:
        now = time.monotonic()
        # A tick that comes late means the GUI thread was busy meanwhile (painting the rows that just
        # arrived, building a page): that is not idle either.
        # On a machine too loaded for any tick to be on time, lateness says nothing: go by the worker.
        late = self._due is not None and (now - self._due) * 1000 > LATE_MS
        self._late = self._late + 1 if late else 0
        late = late and self._late <= MAX_LATE
        if self._busy() or late:
            self._idle_since = None if self._busy() else now
            self._wait(IDLE_MS // 4)
            return
        if self._idle_since is None:
            self._idle_since = now
        if (now - self._idle_since) * 1000 < IDLE_MS:
            self._wait(IDLE_MS // 4)
            return
        if self._todo:
            self._import(self._todo.pop(0))
        if self._todo:
            self._wait(0)  # the next one in a later turn: paints and input go in between
        else:
            self._finish()

    def _wait(self, ms: int) -> None:
        self._due = time.monotonic() + ms / 1000
        self._timer.start(ms)

    @staticmethod
    def _import(name: str) -> None:
        try:
            step = STEPS.get(name)
            if step is not None:
                step()
                _done_steps.add(name)
            else:
                importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a module that fails here fails again, with its message, where it is used
            log.debug("preloading %s failed", name, exc_info=True)

    def _finish(self) -> None:
        then, self._then = self._then, []
        for fn in then:
            fn()


def warm_up_item_delegates() -> None:
    """The first time Qt calls a Python item delegate, or hands Python a widget Qt created (a view's
    viewport, its scroll bars), PySide creates some seventy enum types (~50 ms): pay that here, in idle
    time, rather than in the first paint of the conversation list."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QImage, QStandardItemModel
    from PySide6.QtWidgets import QStyledItemDelegate, QTableView

    class Probe(QStyledItemDelegate):
        def sizeHint(self, option, index) -> QSize:  # noqa: N802 (Qt override)
            return QSize(8, 8)

        def paint(self, painter, option, index) -> None:
            pass

    view = QTableView()
    view.setModel(QStandardItemModel(1, 1, view))
    view.setItemDelegate(Probe(view))
    view.resize(40, 40)
    view.sizeHintForRow(0)  # Qt → the Python overrides, with a style option and a painter
    view.render(QImage(40, 40, QImage.Format.Format_ARGB32))
    # Widgets Qt made itself get their Python type looked up on first use, which sweeps many lazy types.
    view.viewport(), view.verticalScrollBar(), view.verticalHeader()
    view.deleteLater()


def warm_up_icons() -> None:
    from daycare_gui.ui import icons

    icons.warm_up()


RECORDS_A_TURN = 4  # ~2 ms each (a dataclass made, and its __init__ on a twin)


def define_records() -> None:
    from daycare_gui.stores.deferred_dataclass import define_some

    define_some(RECORDS_A_TURN)


STEPS: dict[str, Callable[[], None]] = {"warm_up_item_delegates": warm_up_item_delegates,
                                        "warm_up_icons": warm_up_icons, "define_records": define_records}

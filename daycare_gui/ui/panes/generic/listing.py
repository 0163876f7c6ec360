"""A kind's lists that the store filters itself (``api.Listing``): keys only, rows on demand.

Every list shows the filters the store offers (words, choices such as "Agent", flags such as "Stuck
only"), a totals line ("9 items, 5 stuck"), the rows in a keyed model (100,000 rows cost their keys; only
the rows shown are read), the selected row's child lists as tabs below it (a channel's messages and
members, ``Collection.details``), its links and the store's row actions (Revoke grant…). A write asks
first, asks again while the system's engine runs (the window's one engine question), and says a conflict
in a sentence. Several sibling lists (signal events, subscriptions, delayed signals) share one section
as tabs. Nothing here knows which kind it shows.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.stores import api
from daycare_gui.stores.records import Collection, DocRef, Query, Row
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import list_title
from daycare_gui.ui.models.keyed_model import KeyedTableModel
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.list_cells import cell_text, list_columns, stored_behind, totals_text
from daycare_gui.ui.panes.generic.list_writes import ListWrites
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape, markdown_html
from daycare_gui.ui.widgets.record_table import make_table, select_row
from daycare_gui.ui.widgets.tables import ColumnFitter

FIRST = 200  # rows read with the keys, so the first screen needs no second round trip


class ListView(ListWrites, QWidget):
    """One list of the store: its filters, the keyed rows, the totals and (not for a child list) the
    child lists of the selected row, its links and actions."""

    def __init__(self, pane: ListingPane, spec: Collection, *, child: bool = False) -> None:
        super().__init__()
        self.pane, self.ctx, self.cap, self.spec = pane, pane.ctx, pane.cap, spec
        self.child = child
        self.channel = f"list:{spec.id}"
        self.parent_key: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        self.filter_box = FilterBox(f"Filter {spec.title.lower()} (Ctrl+F)")
        self.filter_box.changed.connect(lambda _t: self.reload())
        self.filter_box.returnPressed.connect(lambda: self.table.setFocus())
        bar.addWidget(self.filter_box, 1)
        self.new_button = QPushButton("New…")
        self.new_button.setVisible(False)
        self.new_button.clicked.connect(lambda: self.new_item())
        self.new_fields: tuple = ()
        bar.addWidget(self.new_button)
        self.choices: dict[str, QComboBox] = {}
        self.flags: dict[str, QCheckBox] = {}
        self.filter_bar = bar
        layout.addLayout(bar)
        self.model = KeyedTableModel(list_columns(spec.columns), self.ctx.worker, self._fetch,
                                     channel=f"{self.channel}:rows",
                                     state=lambda r: "stuck" if r.flag else ("error" if r.problem else None))
        self.table = make_table(self.model)
        # short columns held at 160 px (the whole value in the tooltip): the key columns stay in view in a
        # 1024 px window; the last, long column takes the rest
        self.fitter = ColumnFitter(self.table, cap=160)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.table.activated.connect(lambda _i: self._follow_first_link())
        self.totals = QLabel("Loading…")
        self.totals.setObjectName("listTotals")
        self.actions_bar = QHBoxLayout()
        self.actions_bar.addStretch(1)  # the row's links and actions at the right, each its own width
        self.details: dict[str, ListView] = {}
        self.detail_tabs: QTabWidget | None = None
        if not child and spec.details:
            by_id = {c.id: c for c in pane.all_collections}
            self.detail_tabs = QTabWidget()
            for cid in spec.details:
                if cid in by_id:
                    view = ListView(pane, by_id[cid], child=True)
                    self.details[cid] = view
                    self.detail_tabs.addTab(view, by_id[cid].title)
            split = QSplitter(Qt.Orientation.Vertical)
            split.addWidget(self.table)
            split.addWidget(self.detail_tabs)
            split.setSizes([240, 400])
            rows = split
        else:
            rows = self.table
        # The row's long text (an app's rules and grants, a process's log, a prompt) beside the list, as
        # the kinds' own pages showed it; a list whose rows have none shows none.
        self.viewer = SafeTextBrowser()
        self.viewer.setObjectName("listRowText")
        self.viewer.setPlaceholderText("Select a row to read it here.")
        self.viewer.setVisible(False)
        if child:
            layout.addWidget(rows, 1)
        else:
            beside = QSplitter(Qt.Orientation.Horizontal)
            beside.addWidget(rows)
            beside.addWidget(self.viewer)
            beside.setSizes([700, 400])
            layout.addWidget(beside, 1)
        layout.addWidget(self.totals)
        if not child:
            layout.addLayout(self.actions_bar)
        self.buttons: list[QPushButton] = []
        self._pending = None
        self._filters_asked = False
        self.row: Row | None = None

    # -- the query ---------------------------------------------------------------------------------------
    def query(self) -> Query:
        choices = tuple((n, box.currentData()) for n, box in self.choices.items() if box.currentData())
        flags = frozenset(n for n, box in self.flags.items() if box.isChecked())
        return Query(text=self.filter_box.text().strip(), choices=choices, flags=flags, parent=self.parent_key)

    def _narrowed(self, q: Query) -> bool:
        return bool(q.text or q.choices or q.flags)

    def load(self) -> None:
        if not self._filters_asked and not self.child:
            self._filters_asked = True
            cap, cid = self.cap, self.spec.id
            self.ctx.worker.submit(f"{self.channel}:filters", lambda: (cap.filters(cid), cap.create_fields(cid)),
                                   on_result=self._filters_arrived)
        self.reload()

    def _filters_arrived(self, answer) -> None:
        specs, self.new_fields = answer
        self.new_button.setVisible(bool(self.new_fields))
        for spec in specs:
            if spec.kind == "choice" and spec.name not in self.choices:
                box = QComboBox()
                box.setAccessibleName(spec.label)
                box.setMinimumContentsLength(20)
                box.addItem(f"{spec.label}: all", None)
                for value, label in spec.choices:
                    box.addItem(label, value)
                box.currentIndexChanged.connect(lambda _i: self.reload())
                self.choices[spec.name] = box
                self.filter_bar.addWidget(box)
            elif spec.kind == "flag" and spec.name not in self.flags:
                box = QCheckBox(spec.label.split(" (")[0])
                box.setToolTip(spec.label)
                box.toggled.connect(lambda _on: self.reload())
                self.flags[spec.name] = box
                self.filter_bar.addWidget(box)
        if self._pending is not None:
            self.open_item(self._pending)

    def reload(self, *, keep: bool = False) -> None:
        """Ask the store for the keys (and the first rows) of the query as it is now; ``keep``: a newer read
        of the same query, shown in place (the selection stays)."""
        cap, cid, q = self.cap, self.spec.id, self.query()
        if self.child and q.parent is None:
            self.model.set_keys([])
            self.totals.setText("Select a row above.")
            return

        def read():
            keys = cap.keys(cid, q)
            first = {r.key: r for r in cap.fetch(cid, keys[:FIRST])}
            return keys, first, cap.totals(cid, q)

        self.ctx.worker.submit(f"{self.channel}:keys", read,
                               on_result=lambda answer: self._arrived(q, answer, keep),
                               on_error=lambda m: self.totals.setText(f"Could not read: {m}"))

    def _fetch(self, keys: list) -> dict:
        return {r.key: r for r in self.cap.fetch(self.spec.id, list(keys))}

    def _arrived(self, q: Query, answer, keep: bool) -> None:
        keys, first, totals = answer
        if keep:
            self.model.update_keys(keys)
        else:
            self.model.set_keys(keys)
            self.model.seed_rows(min(FIRST, len(keys)), first)
            self.fitter.fit()
        self.totals.setText(totals_text(len(keys), totals, self._narrowed(q)))
        self.pane.list_counted(self, len(keys))
        if self._pending is not None:
            self.open_item(self._pending)
        elif not keep and keys and not self.child and self.table.currentIndex().row() < 0:
            # a hidden tab keeps its row quietly: the detail pane shows what is in view (a child list's
            # rows wait for a click: its parent's row stays in the detail pane)
            self._select(0, quiet=self.pane.current_view() is not self)

    # -- selection -----------------------------------------------------------------------------------------
    def current_row(self) -> Row | None:
        return self.model.record(self.table.currentIndex().row())

    def _select(self, row: int, quiet: bool = False) -> None:
        self.table.selectionModel().blockSignals(quiet)
        select_row(self.table, row)
        self.table.selectionModel().blockSignals(False)

    def _current_changed(self, current, _previous) -> None:
        row = self.model.record(current.row())
        if row is None:
            return
        self.row = row
        self.show_row(row)
        if self.child:
            return
        self.viewer.setVisible(bool(row.markdown))
        self.viewer.setHtml(markdown_html(row.markdown) if row.markdown else "")
        for view in self.details.values():
            view.parent_key = row.key
            view.reload()
        self._actions_for(row)

    def show_row(self, row: Row) -> None:
        fields = tuple((c, cell_text(c, v) + (f" ({b})" if (b := stored_behind(row, c, v)) is not None else ""))
                       for c, v in zip(self.spec.columns, row.values))
        if row.flag:
            fields += (("Flag", row.flag),)
        if row.problem:
            fields += (("Problem", row.problem),)
        head = cell_text(self.spec.columns[0], row.values[0]) if row.values else row.key
        self.ctx.show_detail(DetailItem(f"{self.spec.title}: {head}", fields, raw=row.raw, markdown=row.markdown))

    # -- going to a row ------------------------------------------------------------------------------------
    def open_item(self, target) -> bool:
        """Select the row keyed ``target`` (or whose key ends with ``/target``: an app by its id), or narrow
        to it when it is one of a choice filter's values (an agent's inbox items)."""
        target = str(target)
        keys = self.model.keys()
        row = next((i for i, k in enumerate(keys) if k == target), -1)
        if row < 0:
            row = next((i for i, k in enumerate(keys) if str(k).endswith("/" + target)), -1)
        if row >= 0:
            self._pending = None
            self._select(row)
            return True
        for box in self.choices.values():
            index = box.findData(target)
            if index > 0:
                self._pending = None
                box.setCurrentIndex(index)
                return True
        self._pending = target
        return False


class ListingPane(Pane):
    """One section: a list, or sibling lists as tabs. ``ctx.arg`` is a :class:`Collection` (the shared
    navigation), or a collection id or tuple of ids (a kind's section ids, kept for deep links)."""

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.cap = ctx.opened.capability(api.Collections)
        arg = ctx.arg
        try:
            self.all_collections = list(self.cap.collections()) if self.cap is not None else []
        except Exception:  # a kind's bug must not keep the page from opening
            self.all_collections = []
        by_id = {c.id: c for c in self.all_collections}
        if isinstance(arg, Collection):
            self.pane_id, specs = f"collection:{arg.id}", [arg]
        else:
            ids = (arg,) if isinstance(arg, str) else tuple(arg or ())
            self.pane_id, specs = (ids[0] if ids else "list"), [by_id[i] for i in ids if i in by_id]
        layout = QVBoxLayout(self)
        self.views: dict[str, ListView] = {s.id: ListView(self, s) for s in specs}
        self.tabs: QTabWidget | None = None
        self.counts: dict[str, int] = {}
        self.caption: QLabel | None = None  # one list's name and count, as every list's caption says them
        if len(self.views) == 1:
            spec = specs[0]
            self.title = list_title(spec.title, spec.group)
            self.caption = QLabel(f"<b>{escape(self.title)}</b>")
            layout.addWidget(self.caption)
            layout.addWidget(next(iter(self.views.values())), 1)
        elif self.views:
            self.tabs = QTabWidget()
            for view in self.views.values():
                self.tabs.addTab(view, view.spec.title)
            self.tabs.currentChanged.connect(self._tab_changed)
            layout.addWidget(self.tabs, 1)
        else:
            layout.addWidget(QLabel("This store has no such list."))

    @property
    def filter_box(self):  # Ctrl+F reaches the filter of the list shown
        view = self.current_view()
        return view.filter_box if view is not None else None

    @property
    def table(self):
        """The table of the list shown."""
        view = self.current_view()
        return view.table if view is not None else None

    def current_view(self) -> ListView | None:
        if self.tabs is not None:
            return self.tabs.currentWidget()
        return next(iter(self.views.values()), None)

    def _tab_changed(self, _index: int) -> None:
        view = self.current_view()
        row = view.current_row() if view is not None else None
        if row is not None:
            view.show_row(row)

    def list_counted(self, view: ListView, n: int) -> None:
        if view.child:  # "Messages (4)" under the selected channel
            for parent in self.views.values():
                if parent.detail_tabs is not None and view.spec.id in parent.details:
                    parent.detail_tabs.setTabText(parent.detail_tabs.indexOf(view), f"{view.spec.title} ({n:,})")
            return
        if view._narrowed(view.query()):
            return
        self.counts[view.spec.id] = n
        if self.caption is not None:
            self.caption.setText(f"<b>{escape(self.title)}</b> ({n:,})")
        if self.tabs is not None:
            self.tabs.setTabText(self.tabs.indexOf(view), f"{view.spec.title} ({n:,})")
        self.ctx.set_count(self.pane_id, sum(self.counts.values()))

    def load(self) -> None:
        for view in self.views.values():
            view.load()

    def store_changed(self) -> bool:
        for view in self.views.values():
            view.reload(keep=True)
        return True

    def open_item(self, target) -> None:
        if isinstance(target, dict):  # {"item_id": …} from the old inbox links
            target = target.get("item_id") or next(iter(target.values()), "")
        for view in self.views.values():
            if view.open_item(target):
                if self.tabs is not None:
                    self.tabs.setCurrentWidget(view)
                return

    def current_row(self) -> Row | None:
        view = self.current_view()
        return view.current_row() if view is not None else None

    def link_target(self, _view=None) -> tuple[str, str] | None:
        view, row = self.current_view(), self.current_row()
        return ("row", f"{view.spec.id}:{row.key}") if row is not None else None

    def follow(self, link) -> None:
        """Where a row's link leads: its conversation, another row, a document's editor, an agent."""
        if link.target in ("session", "row", "threads", "thread"):  # routed as quick open routes them
            from daycare_gui.ui.panes.generic import link_route

            self.ctx.navigate(*link_route(self.ctx.opened, link))
        elif link.target == "doc" and getattr(link.value, "path", None) is not None:
            from daycare_gui.ui.editors.window import open_file_editor

            view = self.current_view()
            return open_file_editor(link.value.path, store=getattr(self.ctx, "store", None), parent=self.window(),
                                    on_saved=lambda _p: view.reload(keep=True) if view is not None else None,
                                    ref=link.value if isinstance(link.value, DocRef) else None)
        return None

"""Users: owner first, with connector keys, nametag, parent user, and links to their agents and home files."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from daycare_gui.core.display import labelled, person_label
from daycare_gui.core.queries.users import User, list_users
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import Column, fmt_int, fmt_time
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.record_table import FilteredRecords, make_table, select_row
from daycare_gui.ui.widgets.tables import ColumnFitter

COLUMNS = [
    Column("Name", lambda u: person_label(u.name, u.nametag, u.id), tooltip=lambda u: u.id),
    Column("Owner", lambda u: "★ owner" if u.is_owner else ""),
    Column("Nametag", lambda u: f"@{u.nametag}" if u.nametag else ""),
    Column("Connector keys", lambda u: ", ".join(u.connector_keys)),
    Column("Parent user", lambda u: u.parent_user_id or ""),
    Column("Agents", lambda u: u.agent_count, fmt_int, align_right=True),
    Column("Created", lambda u: u.created_at, fmt_time),
    Column("Id", lambda u: u.id),
]


def user_detail(user: User, names: dict[str, str]) -> DetailItem:
    parent = user.parent_user_id
    fields = [("Id", user.id), ("Name", user.name or ""), ("Owner", "yes" if user.is_owner else "no"),
              ("Nametag", user.nametag or ""),
              ("Parent user", labelled(names.get(parent), parent)),
              ("Agents", fmt_int(user.agent_count)), ("Created", fmt_time(user.created_at)),
              ("Updated", fmt_time(user.updated_at))]
    fields += [("Connector key", key) for key in user.connector_keys]
    return DetailItem(f"User {user.label}", tuple(fields), user.raw)


class UsersPane(Pane):
    pane_id = "users"
    title = "Users"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.filter_box = FilterBox("Filter users by name, nametag, connector key or id (Ctrl+F)")
        self.agents_button = QPushButton("Show agents")
        self.agents_button.setToolTip("Open the Agents page filtered to this user's agents (Enter)")
        self.files_button = QPushButton("Home files")
        self.files_button.setToolTip("Open this user's home folder in the Files page")
        bar.addWidget(self.filter_box, 1)
        bar.addWidget(self.agents_button)
        bar.addWidget(self.files_button)
        layout.addLayout(bar)
        self._names: dict[str, str] = {}
        columns = list(COLUMNS)
        # The parent is shown by name; names are known once the list arrives.
        columns[4] = Column("Parent user", lambda u: self._names.get(u.parent_user_id) or u.parent_user_id or "",
                            tooltip=lambda u: u.parent_user_id or "")
        self.records = FilteredRecords(columns)
        self.table = make_table(self.records.proxy)
        self.fitter = ColumnFitter(self.table)
        layout.addWidget(self.table, 1)
        self.summary = QLabel("Loading…")
        layout.addWidget(self.summary)
        self.setTabOrder(self.filter_box, self.table)
        self.setTabOrder(self.table, self.agents_button)
        self.setTabOrder(self.agents_button, self.files_button)

        self.filter_box.changed.connect(self._filter_changed)
        self.table.selectionModel().currentRowChanged.connect(self._selected)
        self.table.activated.connect(lambda _i: self.show_agents())
        self.agents_button.clicked.connect(self.show_agents)
        self.files_button.clicked.connect(self.show_files)
        self._pending = None
        self._loaded = False
        self._update_buttons(None)

    def load(self) -> None:
        store = self.ctx.store
        if store.db is None:
            self.summary.setText("No database in this store: users live in the database.")
            return
        self.ctx.worker.submit("users-list", lambda: list_users(store.db, store.cols), on_result=self._arrived,
                               on_error=lambda msg: self.summary.setText(f"Could not read users: {msg}"))

    def _arrived(self, users: list[User]) -> None:
        self._names = {u.id: person_label(u.name, u.nametag, u.id) for u in users}
        self.records.set_records(users)
        self.fitter.fit()
        self._loaded = True
        self._update_summary()
        target, self._pending = self._pending, None
        if target is not None:
            self.open_item(target)
        elif users:
            select_row(self.table, 0)

    def _update_summary(self) -> None:
        total, shown = self.records.model.rowCount(), self.records.proxy.rowCount()
        self.summary.setText(f"{count(total, 'user')} — Enter on a user shows their agents" if shown == total
                             else f"{shown:,} of {count(total, 'user')}")

    def _filter_changed(self, text: str) -> None:
        self.records.set_text(text)
        self._update_summary()

    def current_user(self) -> User | None:
        return self.records.record_at(self.table.currentIndex())

    def _update_buttons(self, user: User | None) -> None:
        self.agents_button.setEnabled(user is not None)
        self.files_button.setEnabled(user is not None)
        self.agents_button.setText(f"Show agents ({user.agent_count})" if user else "Show agents")

    def _selected(self, current, _previous) -> None:
        user = self.records.record_at(current)
        self._update_buttons(user)
        if user is not None:
            self.ctx.show_detail(user_detail(user, self._names))

    def show_agents(self) -> None:
        user = self.current_user()
        if user is not None:
            self.ctx.navigate("agents", {"user_id": user.id})

    def show_files(self) -> None:
        user = self.current_user()
        if user is not None:
            self.ctx.navigate("files", user.id)

    def link_target(self, _view=None) -> tuple[str, str] | None:
        key = self.records.key_at(self.table.currentIndex())
        return ("user", str(key)) if key else None

    def open_item(self, target) -> None:
        """``target``: a user id."""
        if not self._loaded:
            self._pending = target
            return
        row = self.records.proxy_row_of_key(target)
        if row < 0 and self.records.model.row_of_key(target) >= 0:
            self.filter_box.clear()
            self.records.set_text("")
            row = self.records.proxy_row_of_key(target)
        if select_row(self.table, row):
            self.table.setFocus(Qt.FocusReason.OtherFocusReason)

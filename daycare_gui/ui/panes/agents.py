"""Agents: a keyed table (filtered and sorted in SQL) over the agent's sessions."""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
)

from daycare_gui.core.queries.agents import AgentFilter, distinct_values, fetch_agents, list_agent_ids
from daycare_gui.core.queries.sessions import list_sessions
from daycare_gui.core.queries.users import list_users
from daycare_gui.core.records import DESCRIPTOR_KINDS, Unparsed
from daycare_gui.core.secrets import mask_url_credentials
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import Column, fmt_int, fmt_time
from daycare_gui.ui.models.keyed_model import KeyedTableModel
from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.tables import make_table, sort_only


def agent_columns(user_label) -> list[Column]:
    """``user_label(user_id)`` names the owner (name or @nametag) instead of a bare id."""
    return [
        Column("Name", lambda a: a.name, tooltip=lambda a: a.id),
        Column("Kind", lambda a: a.type),
        Column("Lifecycle", lambda a: a.lifecycle),
        Column("User", lambda a: user_label(a.user_id), tooltip=lambda a: a.user_id or ""),
        Column("Created", lambda a: a.created_at, fmt_time),
        Column("Updated", lambda a: a.updated_at, fmt_time),
        Column("Tokens", lambda a: a.token_total.total, fmt_int, align_right=True),
    ]
# Rows read with the keys: a tall window's first screen. Only these, not a whole chunk of the model: the
# worker parses each row in Python (200 took ~18 ms, holding the interpreter while the GUI thread lays out
# and paints the page); the rest of their chunk is read when a view asks for it.
FIRST_ROWS = 64
# Column → the key ``list_agent_ids`` sorts by in SQL, each in the order its cells read.
SQL_SORT = {0: "name", 1: "type", 2: "lifecycle", 3: "user", 4: "created_at", 5: "updated_at", 6: "tokens"}
# The same keys for a legacy store's agents, which are read from folders into memory (a few at most).
LEGACY_SORT = {"name": lambda a: a.name.lower(), "user": lambda a: a.user_id or "",
               "tokens": lambda a: a.token_total.total}

SESSION_COLUMNS = [
    Column("Created", lambda s: s.created_at, fmt_time),
    Column("Ended", lambda s: s.ended_at, fmt_time),
    Column("Records", lambda s: s.record_count, fmt_int, align_right=True),
    Column("Active", lambda s: "● active" if s.is_active else ""),
    Column("Reset message", lambda s: s.reset_message),
    Column("Inference session", lambda s: s.inference_session_id),
    Column("Id", lambda s: s.id),
]


def agent_detail(agent) -> DetailItem:
    d = agent.descriptor
    fields = [("Id", agent.id), ("Name", agent.name), ("Kind", agent.type), ("Lifecycle", agent.lifecycle),
              ("User", agent.user_id or ""), ("Active session", agent.active_session_id or ""),
              ("Created", fmt_time(agent.created_at)), ("Updated", fmt_time(agent.updated_at))]
    if not isinstance(d, Unparsed):
        for label, value in (("Connector", d.connector), ("Connector user", d.user_id), ("Channel", d.channel_id),
                             ("Tag", d.tag), ("Parent agent", d.parent_agent_id), ("App", d.app_id),
                             ("Username", d.username), ("Description", d.description)):
            if value:
                fields.append((label, value))
    p = agent.permissions
    if not isinstance(p, Unparsed):
        fields += [("Working dir", p.working_dir or ""), ("Write dirs", ", ".join(p.write_dirs)),
                   ("Read dirs", ", ".join(p.read_dirs)),
                   ("Network", "" if p.network is None else str(p.network)),
                   ("Events", "" if p.events is None else str(p.events))]
    total = agent.token_total
    fields += [("Tokens in / out", f"{total.input:,} / {total.output:,}"), ("Tokens total", f"{total.total:,}")]
    for problem in agent.problems():
        fields.append(("Problem", problem))
    prompt = None if isinstance(d, Unparsed) else d.system_prompt
    return DetailItem(f"Agent {agent.name}", tuple(fields), agent.raw, markdown=prompt)


class AgentsPane(Pane):
    pane_id = "agents"
    title = "Agents"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self._legacy: dict | None = None  # a store without a database: agents from their legacy folders
        self._sort = ("updated_at", True)
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.filter_box = FilterBox("Filter agents by name, id or prompt (Ctrl+F)")
        self.kind_box = QComboBox()
        self.kind_box.addItem("All kinds", None)
        for kind in DESCRIPTOR_KINDS:
            self.kind_box.addItem(kind, kind)
        self.lifecycle_box = QComboBox()
        self.lifecycle_box.addItem("Any lifecycle", None)
        for state in ("active", "sleeping", "dead"):
            self.lifecycle_box.addItem(state, state)
        self.user_box = QComboBox()
        self.user_box.addItem("All users", None)
        self.time_box = QComboBox()  # active since: runs in SQL on updated_at
        for label, days in (("Any time", None), ("Updated today", 1), ("Past week", 7), ("Past month", 30),
                            ("Past year", 365)):
            self.time_box.addItem(label, days)
        self.summary = QLabel()
        bar.addWidget(self.filter_box, 1)  # the text filter takes the room the combo boxes leave
        for w in (self.kind_box, self.lifecycle_box, self.user_box, self.time_box):
            bar.addWidget(w)
        bar.addWidget(self.summary, 0, Qt.AlignmentFlag.AlignRight)
        layout.addLayout(bar)

        self._user_labels: dict[str, str] = {}
        columns = agent_columns(lambda uid: self._user_labels.get(uid, uid or ""))
        self.model = KeyedTableModel(columns, ctx.worker, self._fetch, channel="agents",
                                     state=lambda a: "dead" if a.lifecycle == "dead" else None)
        self.table = _table(self.model)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(5, Qt.SortOrder.DescendingOrder)
        sort_only(self.table, SQL_SORT)
        # connected after the initial indicator, which is self._sort already: load() asks for the keys once
        self.model.sort_requested.connect(self._sort_requested)
        # The keys and first rows are asked for now, not in load(): the worker reads them while the rest of
        # the page is built, laid out and first painted, so they are back for that first paint or soon after.
        self._asked_early = ctx.store.db is not None
        if self._asked_early:
            self.reload()
        for column, width in enumerate((220, 80, 75, 120, 135, 135)):
            self.table.setColumnWidth(column, width)
        self.table.selectionModel().currentRowChanged.connect(self._agent_selected)

        self.sessions_model = RecordListModel(SESSION_COLUMNS)
        self.sessions = _table(self.sessions_model)
        self.sessions.selectionModel().currentRowChanged.connect(self._session_selected)
        self.sessions.pressed.connect(lambda index: self._session_selected(index, None))  # the row already current
        self.sessions.activated.connect(self._open_session)
        self.sessions_label = QLabel("Sessions — select an agent; press Enter on a session to read it")

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(_wrap(self.sessions_label, self.sessions))
        split.setSizes([420, 220])
        layout.addWidget(split, 1)

        self.filter_box.changed.connect(lambda _t: self.reload())
        for combo in (self.kind_box, self.lifecycle_box, self.user_box, self.time_box):
            combo.currentIndexChanged.connect(lambda _i: self.reload())
        self._pending_select: str | None = None
        self._selecting_session = False
        self._detail_wanted: str | None = None  # an agent selected before its row arrived
        self.model.rows_loaded.connect(self._agent_rows_loaded)

    # -- loading ---------------------------------------------------------------------------------
    def load(self) -> None:
        db = self.ctx.store.db
        if db is None:
            self._load_legacy()
            return
        if self._asked_early:  # the first load: the keys were asked for while the page was built
            self._asked_early = False
        else:
            self.reload()  # first: the rows are what the user waits for; the owner names only label a column
        self.ctx.worker.submit("agents-users", lambda: (distinct_values(db, "user_id"), list_users(db)),
                               on_result=self._users_arrived)

    # -- a legacy store (agents/<id>/ folders, no database) ---------------------------------------
    def _fetch(self, ids: list[str]) -> dict:
        if self._legacy is not None:
            return {i: self._legacy["agents"][i] for i in ids if i in self._legacy["agents"]}
        return fetch_agents(self.ctx.store.db, ids)

    def _load_legacy(self) -> None:
        # The file readers are imported here, on the GUI thread, before the worker uses them: the window
        # starts without them (ui/preload.py), and a worker must never be first to import a package.
        import daycare_gui.core.files.collections  # noqa: F401
        from daycare_gui.core.queries.legacy_history import legacy_agents_as_records

        store = self.ctx.store
        self.summary.setText("Reading legacy agent folders…")
        self.ctx.worker.submit("agents-legacy", lambda: legacy_agents_as_records(store.files()),
                               on_result=self._legacy_arrived)

    def _legacy_arrived(self, legacy: dict) -> None:
        self._legacy = legacy
        self.user_box.setEnabled(False)  # legacy agents have no users yet (the import creates them)
        keys = self._legacy_keys()
        self._keys_arrived(keys, self._fetch(keys[:self.model.chunk_size]))  # in memory already
        if not legacy["agents"]:
            self.summary.setText("No database and no legacy agent folders in this store.")

    def _legacy_keys(self) -> list[str]:
        flt, (sort, desc) = self.current_filter(), self._sort
        text = flt.text.strip().lower()
        agents = [a for a in self._legacy["agents"].values()
                  if (not flt.kinds or a.type in flt.kinds) and (not flt.lifecycles or a.lifecycle in flt.lifecycles)
                  and (flt.updated_since is None or (a.updated_at or 0) >= flt.updated_since)
                  and (not text or text in a.id.lower() or text in a.name.lower())]
        value = LEGACY_SORT.get(sort, lambda a: getattr(a, sort, None))
        agents.sort(key=lambda a: (value(a) is None, value(a) or 0, a.id), reverse=desc)
        return [a.id for a in agents]

    def _users_arrived(self, result) -> None:
        users, known = result
        self._user_labels = {u.id: u.label for u in known}
        if self.model.rowCount():
            self.model.dataChanged.emit(self.model.index(0, 3), self.model.index(self.model.rowCount() - 1, 3))
        current = self.user_box.currentData()
        self.user_box.blockSignals(True)
        self.user_box.clear()
        self.user_box.addItem("All users", None)
        for u in users:
            self.user_box.addItem(self._user_labels.get(u, u), u)
        if current:
            self.user_box.setCurrentIndex(max(0, self.user_box.findData(current)))
        self.user_box.blockSignals(False)

    def current_filter(self) -> AgentFilter:
        kind, life, user = self.kind_box.currentData(), self.lifecycle_box.currentData(), self.user_box.currentData()
        days = self.time_box.currentData()
        since = int(time.time() * 1000) - days * 86_400_000 if days else None
        return AgentFilter(kinds=(kind,) if kind else (), lifecycles=(life,) if life else (), user_id=user,
                           text=self.filter_box.text(), updated_since=since)

    def reload(self) -> None:
        db = self.ctx.store.db
        if db is None:
            if self._legacy is not None:
                keys = self._legacy_keys()
                self._keys_arrived(keys, self._fetch(keys[:FIRST_ROWS]))
            return
        flt, (sort, desc) = self.current_filter(), self._sort

        def work():  # the keys and the first screen's rows in one round trip
            keys = list_agent_ids(db, flt, sort=sort, descending=desc)
            return keys, fetch_agents(db, keys[:FIRST_ROWS])

        self.ctx.worker.submit("agents-keys", work, on_result=lambda result: self._keys_arrived(*result),
                               on_error=self._keys_failed)

    def store_changed(self) -> bool:
        """A live engine wrote: read the keys again (same filter and sort) and update the rows in place; the
        selected agent's sessions likewise. The selection and scroll position stay."""
        db = self.ctx.store.db
        if db is None or db.mode.name == "snapshot":
            return False
        flt, (sort, desc) = self.current_filter(), self._sort
        self.ctx.worker.submit("agents-keys", lambda: list_agent_ids(db, flt, sort=sort, descending=desc),
                               on_result=self._keys_refreshed, on_error=self._keys_failed)
        agent_id = self.model.key(self.table.currentIndex().row())
        if agent_id is not None:
            self.ctx.worker.submit("agent-sessions", lambda: list_sessions(db, agent_id),
                                   on_result=self._sessions_refreshed)
        return True

    def _keys_failed(self, message: str) -> None:
        """The agents could not be listed (a damaged database): say so where the count would be."""
        self.summary.setText(f"Could not read the agents: {mask_url_credentials(message)}")

    def _keys_refreshed(self, keys: list[str]) -> None:
        self.model.update_keys(keys)
        self.summary.setText(count(len(keys), "agent"))

    def _sessions_refreshed(self, sessions) -> None:
        self.sessions_model.update_records(sessions)
        self.sessions_label.setText(f"Sessions ({len(sessions)}) — press Enter on a session to read it")

    def _keys_arrived(self, keys: list[str], first_rows: dict | None = None) -> None:
        current = self.model.key(self.table.currentIndex().row())
        self.model.set_keys(keys)
        if first_rows is not None:
            self.model.seed_rows(FIRST_ROWS, first_rows)
        # Lay the rows out now rather than in a later turn of the event loop: the scroll bar then appears
        # before the first paint with rows, instead of just after it, narrowing the list and painting
        # every row again.
        self.table.doItemsLayout()
        QCoreApplication.sendPostedEvents(self.table, QEvent.Type.LayoutRequest)
        self.summary.setText(count(len(keys), "agent"))
        target = self._pending_select or current
        self._pending_select = None
        row = self.model.row_of_key(target) if target else -1
        if row >= 0:
            self.table.selectRow(row)
            self.table.scrollTo(self.model.index(row, 0))

    def _sort_requested(self, column: int, order) -> None:
        if column in SQL_SORT:
            self._sort = (SQL_SORT[column], order == Qt.SortOrder.DescendingOrder)
            self.reload()

    # -- selection -------------------------------------------------------------------------------
    def _agent_selected(self, current, _previous) -> None:
        agent_id = self.model.key(current.row())
        agent = self.model.record(current.row())
        self._detail_wanted = None if agent is not None else agent_id  # its row is on the way
        if agent is not None:
            self.ctx.show_detail(agent_detail(agent))
        if agent_id is None:
            self.sessions_model.set_records([])
            return
        if self._legacy is not None:
            self._sessions_arrived(self._legacy["sessions"].get(agent_id, []))
            return
        db = self.ctx.store.db
        self.ctx.worker.submit("agent-sessions", lambda: list_sessions(db, agent_id),
                               on_result=self._sessions_arrived)

    def _agent_rows_loaded(self) -> None:
        row = self.table.currentIndex().row()
        agent = self.model.record(row)
        if self._detail_wanted is not None and agent is not None and agent.id == self._detail_wanted:
            self._detail_wanted = None
            self.ctx.show_detail(agent_detail(agent))

    def _sessions_arrived(self, sessions) -> None:
        self.sessions_model.set_records(sessions)
        self.sessions_label.setText(f"Sessions ({len(sessions)}) — press Enter on a session to read it")
        self.sessions.resizeColumnsToContents()
        active = next((i for i, s in enumerate(sessions) if s.is_active), len(sessions) - 1)
        if active >= 0:
            # Ready for Enter, but the detail pane keeps describing the agent the user picked: only a
            # session the user moves to describes itself there.
            self._selecting_session = True
            try:
                self.sessions.selectRow(active)
            finally:
                self._selecting_session = False

    def _session_selected(self, current, _previous) -> None:
        s = self.sessions_model.record(current.row())
        if s is None or self._selecting_session:
            return
        fields = (("Id", s.id), ("Agent", s.agent_id), ("Created", fmt_time(s.created_at)),
                  ("Ended", fmt_time(s.ended_at)), ("Records", fmt_int(s.record_count)),
                  ("Active", "yes" if s.is_active else "no"), ("Reset message", s.reset_message or ""),
                  ("Inference session", s.inference_session_id or ""),
                  ("Invalidated at record", "" if s.invalidated_at is None else str(s.invalidated_at)),
                  ("Processed until record", "" if s.processed_until is None else str(s.processed_until)))
        self.ctx.show_detail(DetailItem(f"Session {s.id}", fields, s.raw))

    def _open_session(self, index) -> None:
        s = self.sessions_model.record(index.row())
        if s is not None and "legacy_index" in s.raw:
            self.ctx.navigate("history", ("legacy", s.agent_id, s.raw["legacy_index"]))
        elif s is not None:
            self.ctx.navigate("history", (s.agent_id, s.id, None))

    # -- pane API ----------------------------------------------------------------------------------
    def link_target(self, view=None) -> tuple[str, str] | None:
        """The session when its list was clicked (or has the focus), else the agent."""
        if view is self.sessions or (view is None and self.sessions.hasFocus()):
            s = self.sessions_model.record(self.sessions.currentIndex().row())
            return ("session", s.id) if s is not None else None
        agent_id = self.model.key(self.table.currentIndex().row())
        return ("agent", agent_id) if agent_id else None

    def open_item(self, target) -> None:
        """``target``: an agent id, or a dict ``{"user_id": …}`` to filter by owner."""
        if isinstance(target, dict) and target.get("user_id"):
            index = self.user_box.findData(target["user_id"])
            if index < 0:
                self.user_box.addItem(target["user_id"], target["user_id"])
                index = self.user_box.count() - 1
            self.user_box.setCurrentIndex(index)
            return
        row = self.model.row_of_key(target)
        if row >= 0:
            self.table.selectRow(row)
            self.table.scrollTo(self.model.index(row, 0))
        else:
            self._pending_select = target
            self.filter_box.clear()
            self.kind_box.setCurrentIndex(0)
            self.lifecycle_box.setCurrentIndex(0)
            self.user_box.setCurrentIndex(0)
            self.reload()


def _table(model) -> QTableView:
    # No state delegate: the agents' model greys dead agents itself (sessions have no state), so a paint
    # does not call into Python once more, with a style option to convert, for every cell.
    return make_table(model)


def _wrap(label, view):
    from PySide6.QtWidgets import QWidget

    holder = QWidget()
    box = QVBoxLayout(holder)
    box.setContentsMargins(0, 0, 0, 0)
    box.addWidget(label)
    box.addWidget(view, 1)
    return holder

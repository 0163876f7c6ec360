"""Settings and auth: ``settings.json`` as a tree and ``auth.json`` as a provider list, both masked.

The records come from the core readers (``core/files/config_files``), which mask every credential before a
record exists, so nothing here can show or copy a secret. The pane shows *which* fields are set, never what
they hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QLabel,
    QSplitter,
    QTableView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
)

from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.json_view import pretty_json

if TYPE_CHECKING:  # core.files is imported by the worker only (see core.queries.subsystems)
    from daycare_gui.core.files.config_files import AuthEntry, SettingsView

AUTH_COLUMNS = [
    Column("Provider", lambda e: e.provider),
    Column("Type", lambda e: e.type or "?"),
    Column("Fields set", lambda e: ", ".join(k for k, v in e.fields.items() if v not in (None, "", [], {}))),
    Column("Credentials (masked)", lambda e: ", ".join(f"{k}: {e.fields.get(k)}" for k in e.secret_keys)),
]


@dataclass(frozen=True)
class ConfigFiles:
    settings: SettingsView | None
    auth: tuple[AuthEntry, ...]
    settings_path: str
    auth_path: str
    auth_unreadable: str | None = None  # why auth.json could not be read (its first problem), if it could not


def _load(store) -> ConfigFiles:
    inventory = store.files()
    settings = inventory.items("settings")
    auth_path = str(store.paths.auth_path)
    unreadable = next((p.message for p in store.problems if p.path == auth_path and p.severity == "error"), None)
    return ConfigFiles(settings[0] if settings else None, tuple(inventory.items("auth_entries")),
                       str(store.paths.settings_path), auth_path, unreadable)


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


class SettingsPane(Pane):
    pane_id = "settings"
    title = "Settings and auth"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        layout = QVBoxLayout(self)
        self.filter_box = FilterBox("Filter settings keys and values (Ctrl+F)", delay_ms=120)
        layout.addWidget(self.filter_box)
        self.summary = QLabel("Loading…")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)

        self.auth_model = RecordListModel(AUTH_COLUMNS, key=lambda e: e.provider)
        self.auth_view = QTableView()
        self.auth_view.setModel(self.auth_model)
        self.auth_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.auth_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.auth_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.auth_view.verticalHeader().hide()
        self.auth_view.horizontalHeader().setStretchLastSection(True)
        self.auth_view.selectionModel().currentRowChanged.connect(self._auth_selected)
        self.auth_box = QGroupBox("auth.json — provider credentials (values masked)")
        QVBoxLayout(self.auth_box).addWidget(self.auth_view)

        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Key", "Value"])
        self.tree.setColumnWidth(0, 280)
        self.tree.currentItemChanged.connect(self._setting_selected)
        self.settings_box = QGroupBox("settings.json (secret-looking values masked)")
        QVBoxLayout(self.settings_box).addWidget(self.tree)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.auth_box)
        split.addWidget(self.settings_box)
        split.setSizes([220, 460])
        layout.addWidget(split, 1)
        self.filter_box.changed.connect(self._filter)
        self.filter_box.returnPressed.connect(self.tree.setFocus)
        self.config: ConfigFiles | None = None

    def load(self) -> None:
        store = self.ctx.store
        self.ctx.worker.submit("settings", lambda: _load(store), on_result=self._arrived,
                               on_error=lambda msg: self.summary.setText(f"Cannot read the settings: {msg}"))

    def _arrived(self, config: ConfigFiles) -> None:
        self.config = config
        self.auth_model.set_records(config.auth)
        self.auth_view.resizeColumnsToContents()
        if config.auth:
            self.auth_view.selectRow(0)
        self.tree.clear()
        s = config.settings
        if s is not None:
            for key, value in s.values.items():
                self.tree.addTopLevelItem(self._item(key, value, key))
            self.tree.expandToDepth(0)
        parts = [f"settings.json: {config.settings_path}" if s is not None
                 else f"No readable settings.json at {config.settings_path} (Daycare uses its defaults)."]
        if s is not None:
            providers = ", ".join(s.providers) or "none listed"
            enabled = [p.get("instanceId") for p in s.plugins if p.get("enabled")]
            parts.append(f"Providers: {providers}. Plugins: {len(s.plugins)} ({len(enabled)} enabled).")
        if config.auth_unreadable and not config.auth:  # (not "0 providers": the file is there, but broken)
            parts.append(f"auth.json could not be read: {config.auth_unreadable} (see Problems).")
        else:
            parts.append(f"auth.json: {count(len(config.auth), 'provider')} — "
                         + (", ".join(e.provider for e in config.auth) or "none"))
        self.summary.setText("\n".join(parts))
        self._filter(self.filter_box.text())

    def _item(self, key: str, value: Any, path: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem([str(key), ""])
        item.setData(0, Qt.ItemDataRole.UserRole, (path, value))
        if isinstance(value, dict):
            item.setText(1, f"{{{count(len(value), 'key')}}}")
            for k, v in value.items():
                item.addChild(self._item(k, v, f"{path}.{k}"))
        elif isinstance(value, list):
            item.setText(1, f"[{count(len(value), 'item')}]")
            for i, v in enumerate(value):
                label = v.get("instanceId") or v.get("id") if isinstance(v, dict) else None
                item.addChild(self._item(f"[{i}]" + (f" {label}" if label else ""), v, f"{path}[{i}]"))
        else:
            item.setText(1, _scalar_text(value))
            item.setToolTip(1, _scalar_text(value))
        return item

    # -- filtering: a key or value matches, its parents stay visible -----------------------------------
    def _filter(self, text: str) -> None:
        needle = text.strip().lower()

        def visit(item: QTreeWidgetItem) -> bool:
            own = not needle or needle in item.text(0).lower() or needle in item.text(1).lower()
            child_match = False
            for i in range(item.childCount()):
                child_match = visit(item.child(i)) or child_match
            item.setHidden(not (own or child_match))
            if needle and child_match:
                item.setExpanded(True)
            return own or child_match

        for i in range(self.tree.topLevelItemCount()):
            visit(self.tree.topLevelItem(i))

    # -- detail ------------------------------------------------------------------------------------
    def _auth_selected(self, current, _previous) -> None:
        entry = self.auth_model.record(current.row())
        if entry is None:
            return
        fields = [("Provider", entry.provider), ("Type", entry.type or "(missing)"), ("File", entry.path)]
        for key, value in entry.fields.items():
            shown = value if isinstance(value, str) else pretty_json(value)
            fields.append((key, f"{shown}  (masked)" if key in entry.secret_keys else shown))
        self.ctx.show_detail(DetailItem(f"auth.json: {entry.provider}", tuple(fields), entry.fields))

    def _setting_selected(self, current, _previous) -> None:
        if current is None:
            return
        path, value = current.data(0, Qt.ItemDataRole.UserRole)
        text = _scalar_text(value) if not isinstance(value, (dict, list)) else pretty_json(value)
        self.ctx.show_detail(DetailItem(f"settings.json: {path}", (("Key", path), ("Value", text)), value))


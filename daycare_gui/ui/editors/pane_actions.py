"""Edit / New… / Delete… / Trash… buttons for Daycare's app and skill pages, so each needs one line to offer them.

(The tasks page is the shared one, over the ``Tasks`` capability: ui/panes/generic/tasks.py.)

``EditActions(pane, kind)`` adds a button row to ``pane.head`` and follows the pane's selection. Editors
open in their own windows (owned by the main window, so they outlive a refresh of the panes). Creating,
deleting or writing a row asks the main window to refresh, which reopens the read-only database too.
Each write first asks once while Daycare's engine runs on the store (core.edit.engine_guard).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox, QPushButton

from daycare_gui.core.edit import create
from daycare_gui.core.edit.engine_guard import engine_running_reason
from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.common.edit.trash import TrashError, TrashIncomplete, move_to_trash
from daycare_gui.ui.widgets.flow_layout import FlowLayout

from .engine_prompt import ask_write_while_engine_runs
from .new_item import NewItemDialog, TrashDialog
from .window import open_file_editor

NEW_LABELS = {"app": "New app…", "skill": "New skill…"}


class EditActions(QObject):
    def __init__(self, pane, kind: str) -> None:
        super().__init__(pane)
        self.pane = pane
        self.kind = kind
        self.row = FlowLayout()  # wraps in a narrow window instead of squeezing the list beside it
        self.edit_button = QPushButton("Edit APP.md" if kind == "app" else "Edit")
        self.edit_button.setToolTip("Open an editor for the selected item's file (form, raw text, preview)")
        self.edit_button.clicked.connect(self.edit_file)
        self.row.addWidget(self.edit_button)
        self.second_button = None
        if kind == "app":
            self.second_button = QPushButton("Edit permissions")
            self.second_button.clicked.connect(self.edit_permissions)
        if self.second_button is not None:
            self.row.addWidget(self.second_button)
        self.new_button = self.delete_button = None
        if kind in NEW_LABELS:
            self.new_button = QPushButton(NEW_LABELS[kind])
            self.new_button.clicked.connect(self.ask_new)
            self.delete_button = QPushButton("Delete…")
            self.delete_button.setToolTip("Move the item to the store's trash (it can be restored)")
            self.delete_button.clicked.connect(lambda: self.delete())
            trash_button = QPushButton("Trash…")
            trash_button.setToolTip("Items deleted here, ready to restore")
            trash_button.clicked.connect(self.show_trash)
            for button in (self.new_button, self.delete_button, trash_button):
                self.row.addWidget(button)
        pane.head.addLayout(self.row)
        pane.table.selectionModel().currentRowChanged.connect(lambda *_: self.update())
        self.update()

    # --- what the selection offers ---------------------------------------------------------------------

    @property
    def store(self):
        return self.pane.ctx.store

    def _inside(self, path) -> bool:
        return path is not None and self.store.paths.contains(Path(path)) and Path(path).is_file()

    def file_path(self, record=None) -> Path | None:
        record = record if record is not None else self.pane.current_record()
        if record is None:
            return None
        if self.kind == "app":
            path = str(Path(record.folder) / "APP.md")
        else:
            path = record.path
        return Path(path) if self._inside(path) else None

    def delete_target(self, record=None) -> Path | None:
        path = self.file_path(record)
        if path is None:
            return None
        return path.parent  # an app and a skill are folders

    def update(self) -> None:
        record = self.pane.current_record()
        self.edit_button.setEnabled(self.file_path(record) is not None)
        if self.kind == "app" and self.second_button is not None:
            permissions = Path(record.folder) / "PERMISSIONS.md" if record is not None else None
            self.second_button.setEnabled(self._inside(permissions))
        if self.delete_button is not None:
            self.delete_button.setEnabled(self.delete_target(record) is not None)

    # --- actions -----------------------------------------------------------------------------------------

    def _refresh(self) -> None:
        refresh: Callable[[], None] | None = getattr(self.pane.window(), "refresh", None)
        if refresh is not None:
            refresh()

    def edit_file(self):
        path = self.file_path()
        # (a save reads the store again, so the page shows what was written, as a row edit does)
        return open_file_editor(path, store=self.store, parent=self.pane.window(),
                                on_saved=lambda _path: self._refresh()) if path else None

    def edit_permissions(self):
        record = self.pane.current_record()
        if record is None:
            return None
        path = Path(record.folder) / "PERMISSIONS.md"
        return open_file_editor(path, store=self.store, parent=self.pane.window(),
                                on_saved=lambda _path: self._refresh()) if self._inside(path) else None

    def confirm_engine_running(self, reason: str, verb: str) -> bool:
        """Ask before writing while the engine runs (tests replace this)."""
        return ask_write_while_engine_runs(self.pane, reason, verb)

    def _engine_allows(self, target: Path, verb: str) -> bool:
        reason = engine_running_reason(file=target, paths=self.store.paths)
        return reason is None or self.confirm_engine_running(reason, verb)

    def confirm_delete(self, target: Path) -> bool:
        answer = QMessageBox.question(
            self.pane, "Delete",
            f"Move {target} to the trash?\n\nIt is kept in {self.store.paths.data_dir}/.daycare-gui-trash and can "
            "be restored with Trash…", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def delete(self, confirm: Callable[[Path], bool] | None = None):
        target = self.delete_target()
        if target is None or not (confirm or self.confirm_delete)(target):
            return None
        if not self._engine_allows(target, "Delete"):
            return None
        try:
            entry = move_to_trash(self.store.paths, target)
        except TrashIncomplete as exc:  # whole in the trash, part of the original still there: both shown
            QMessageBox.warning(self.pane, "Partly deleted", str(exc))
            self._refresh()
            return exc.entry
        except TrashError as exc:
            QMessageBox.warning(self.pane, "Not deleted", str(exc))
            return None
        self._refresh()
        return entry

    def show_trash(self) -> None:
        dialog = TrashDialog(self.store.paths, self.pane.window(), on_restored=self._refresh)
        dialog.confirm_engine_running = lambda reason: self.confirm_engine_running(reason, "Restore")
        dialog.exec()

    # --- new items ---------------------------------------------------------------------------------------

    def new_locations(self) -> list[tuple[str, Path]]:
        """Where a new app or skill may go: the workspace / config folder and every user's folder."""
        paths = self.store.paths
        if self.kind == "app":
            places = [("workspace apps", paths.workspace_dir / "apps")]
            folder = "apps"
        else:
            places = [("config skills", paths.config_dir / "skills")]
            folder = "skills"
        for users_dir in paths.users_dirs:
            if users_dir.is_dir():
                for user in sorted(p for p in users_dir.iterdir() if p.is_dir()):
                    places.append((f"user {user.name}", user / folder))
        return places

    def create(self, values: dict) -> Path:
        """Create the new item from the dialog's values; returns the file to open."""
        if self.kind == "app":
            folder = create.create_app(values["location"], values["name"], values["title"], values["description"])
            return folder / "APP.md"
        return create.create_skill(values["location"], values["name"], values["description"])

    def ask_new(self):
        fields = {
            "app": [("name", "Name (folder)", ""), ("title", "Title", ""), ("description", "Description", "")],
            "skill": [("name", "Name", ""), ("description", "Description", "")],
        }[self.kind]
        locations = self.new_locations()

        def make(values: dict) -> Path:
            where = values.get("location") or self.store.paths.legacy_dir
            if not self._engine_allows(Path(where), "Create"):
                raise ValueError("Not created: Daycare's engine is running")
            try:
                return self.create(values)
            except (InvalidValue, FileExistsError, OSError) as exc:
                raise ValueError(str(exc)) from exc

        dialog = NewItemDialog(NEW_LABELS[self.kind].rstrip("…"), fields, make, locations, self.pane.window())
        if not dialog.exec() or dialog.created is None:
            return None
        window = open_file_editor(dialog.created, store=self.store, parent=self.pane.window())
        self._refresh()
        return window


class FileEditButton(QPushButton):
    """"Edit file" for the Files page: enabled for a Markdown/text file of the store selected in its tree."""

    EDITABLE_SUFFIXES = (".md", ".markdown", ".txt")

    def __init__(self, pane) -> None:
        super().__init__("Edit file")
        self.pane = pane
        self.path: Path | None = None
        self.setToolTip("Open the selected Markdown file (knowledge files, MEMORY.md, …) in an editor")
        self.setEnabled(False)
        self.clicked.connect(self.open_editor)
        pane.tree.selectionModel().currentChanged.connect(self._selected)

    def _selected(self, current, _previous) -> None:
        from daycare_gui.ui.models.roles import RecordRole

        node = current.data(RecordRole) if current.isValid() else None
        path = Path(node.path) if node is not None and node.kind == "file" else None
        ok = (path is not None and path.suffix.lower() in self.EDITABLE_SUFFIXES
              and self.pane.ctx.store.paths.contains(path) and path.is_file())
        self.path = path if ok else None
        self.setEnabled(ok)

    def open_editor(self):
        if self.path is None:
            return None
        return open_file_editor(self.path, store=self.pane.ctx.store, parent=self.pane.window())

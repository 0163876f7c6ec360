"""The pages of the Upgrade storage dialog: busy, message (refusal / up to date), plan, running, result.

Each page only shows what it is given (the neutral ``UpgradePlan`` or ``UpgradeResult`` a store's
``Storage`` answers); the dialog decides which page is current and which buttons exist. Paths are shown as
selectable text so they can be copied into a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.stores.records import UpgradePlan, UpgradeResult
from daycare_gui.ui.formats import count
from daycare_gui.ui.theme import set_tone

NO_DB_BACKUP = "No database yet, nothing to back up: the upgrade creates it from the legacy files."
NO_BACKUP_WARNING = ("⚠ Without a backup there is no copy of the database as it was before the upgrade. "
                     "A failed or cancelled upgrade still changes nothing, but after a successful one "
                     "there is no way back.")
UNCHANGED = "The store was left unchanged: {db} is exactly as it was before."


def _label(text: str = "", *, selectable: bool = False, wrap: bool = True, name: str | None = None) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(wrap)
    label.setTextFormat(Qt.TextFormat.PlainText)  # store paths and reasons are data, never markup
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                      | Qt.TextInteractionFlag.TextSelectableByKeyboard)
    if name:
        label.setObjectName(name)
    return label


def _headline(text: str = "", name: str = "headline") -> QLabel:
    label = _label(text, name=name)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 1.2)
    font.setBold(True)
    label.setFont(font)
    return label


class BusyPage(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        self.label = _label("Checking the store and running a dry run of the pending migrations…", name="busy")
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        bar = QProgressBar()
        bar.setRange(0, 0)  # indeterminate: the dry run reports no steps
        layout.addWidget(self.label)
        layout.addWidget(bar)
        layout.addStretch(1)


class MessagePage(QWidget):
    """A refusal, "already up to date", or a dry run that could not be made: there is nothing to run."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.headline = _headline()
        self.body = _label(selectable=True, name="message_body")
        layout.addWidget(self.headline)
        layout.addWidget(self.body)
        layout.addStretch(1)

    def show_message(self, headline: str, body: str = "") -> None:
        self.headline.setText(headline)
        self.body.setText(body)
        self.body.setVisible(bool(body))


class BackupBox(QGroupBox):
    """Where the backup goes: the core's default, a path the user chose, or none (with a warning)."""

    def __init__(self, parent=None) -> None:
        super().__init__("Backup", parent)
        self.db_path: Path | None = None
        self.default: Callable[[], Path | None] = lambda: None  # the store's own name for it, taken when asked
        self.has_db = False
        self.chosen: Path | None = None  # None: the default, named at the moment Run is pressed
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.path_label = _label(selectable=True, name="backup_path")
        self.change_button = QPushButton("Change…")
        self.change_button.clicked.connect(self.choose)
        row.addWidget(self.path_label, 1)
        row.addWidget(self.change_button)
        layout.addLayout(row)
        self.skip = QCheckBox("Do not make a backup")
        self.skip.toggled.connect(self._sync)
        layout.addWidget(self.skip)
        self.warning = _label(NO_BACKUP_WARNING, name="no_backup_warning")
        set_tone(self.warning, "error")
        layout.addWidget(self.warning)

    def set_database(self, db_path: Path, exists: bool, default: Callable[[], Path | None]) -> None:
        self.db_path = db_path
        self.default = default
        self.chosen = None
        self.skip.setChecked(False)
        self.has_db = exists
        self._sync()

    def shown_path(self) -> Path | None:
        if self.db_path is None or not self.has_db:
            return None
        return self.chosen or self.default()

    def backup_path(self) -> Path | None:
        """What to pass to ``run_upgrade``: a fresh default (timestamped now) unless the user chose one."""
        if not self.wants_backup():
            return None
        return self.chosen or self.default()

    def wants_backup(self) -> bool:
        return self.has_db and not self.skip.isChecked()

    def choose(self) -> None:
        start = str(self.shown_path() or "")
        # Overwriting is never allowed (the backup would replace a file), so Qt's overwrite prompt is off.
        name, _ = QFileDialog.getSaveFileName(self, "Save the backup as", start, "",
                                              options=QFileDialog.Option.DontConfirmOverwrite)
        if name:
            self.set_chosen(Path(name))

    def set_chosen(self, path: Path) -> bool:
        if path.exists():
            QMessageBox.warning(self, "Backup", f"{path} already exists. Choose a new file name; a backup never "
                                "replaces an existing file.")
            return False
        self.chosen = path
        self._sync()
        return True

    def _sync(self) -> None:
        if not self.has_db:
            self.path_label.setText(NO_DB_BACKUP)
            for w in (self.change_button, self.skip, self.warning):
                w.setVisible(False)
            return
        skipped = self.skip.isChecked()
        self.change_button.setVisible(True)
        self.skip.setVisible(True)
        self.change_button.setEnabled(not skipped)
        self.warning.setVisible(skipped)
        if skipped:
            self.path_label.setText("No backup will be made.")
        else:
            default = "" if self.chosen else "  (default; the time is taken when the upgrade starts)"
            self.path_label.setText(f"{self.shown_path()}{default}")


class PlanPage(QWidget):
    COLUMNS = ("Migration", "What it changes", "Imports from legacy files", "Dry run: rows")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.headline = _headline()
        self.db_label = _label(selectable=True, name="db_path")
        layout.addWidget(self.headline)
        layout.addWidget(self.db_label)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setObjectName("pending_table")
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        self.table.verticalHeader().setVisible(False)
        # Rows follow the wrapped text as the columns get their final widths (26 rows at most: cheap).
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for col in (2, 3):  # wrapped, so the description keeps most of the width
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, 210)
        layout.addWidget(self.table, 3)
        self.skipped_title = _label(name="skipped_title")
        self.skipped = QPlainTextEdit()
        self.skipped.setObjectName("skipped_lines")
        self.skipped.setReadOnly(True)
        self.skipped.setMaximumHeight(90)
        layout.addWidget(self.skipped_title)
        layout.addWidget(self.skipped)
        self.failure = _label(selectable=True, name="predicted_failure")
        set_tone(self.failure, "error")
        # bold through its font: a style sheet of its own would replace the rules that colour it
        bold = self.failure.font()
        bold.setBold(True)
        self.failure.setFont(bold)
        layout.addWidget(self.failure)
        self.warnings = _label(selectable=True, name="plan_warnings")
        layout.addWidget(self.warnings)
        self.backup = BackupBox()
        layout.addWidget(self.backup)
        self.safety = _label("The upgrade migrates a copy of the database and puts it in place only when every "
                             "migration and the integrity check succeeded; until then the store is not touched.")
        layout.addWidget(self.safety)

    def show_plan(self, plan: UpgradePlan, default_backup: Callable[[], Path | None]) -> None:
        db = plan.target
        n = len(plan.steps)
        self.headline.setText(count(n, "pending migration"))
        self.db_label.setText(f"Database: {db}" + ("" if plan.exists else "  (not created yet)"))
        self.table.setRowCount(n)
        for row, step in enumerate(plan.steps):
            for col, text in enumerate((step.name, step.description, step.imports, step.rows)):
                item = QTableWidgetItem(text)
                item.setToolTip("\n".join(step.detail))
                self.table.setItem(row, col, item)
        skipped, notes = list(plan.skipped), list(plan.notes)
        title = (f"Legacy lines the imports will skip as unparseable: {len(skipped)}"
                 if skipped else "The imports skip no legacy lines")
        self.skipped_title.setText(title + (" (and notes on what is left out):" if notes else "."))
        self.skipped.setPlainText("\n".join(skipped + ([""] if skipped and notes else []) + notes))
        self.skipped.setVisible(bool(skipped or notes))
        if plan.predicted_failure:
            name, reason = plan.predicted_failure
            self.failure.setText(f"The dry run shows the upgrade would fail at {name}: {reason}\n"
                                 "Running it would change nothing. Fix the cause, then open this dialog again.")
        self.failure.setVisible(bool(plan.predicted_failure))
        self.warnings.setText("\n".join(f"Warning: {w}" for w in plan.warnings))
        self.warnings.setVisible(bool(plan.warnings))
        self.backup.set_database(db, plan.exists, default_backup)


class RunningPage(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addWidget(_headline("Upgrading…"))
        self.current = _label(name="current_migration")
        self.bar = QProgressBar()
        self.bar.setObjectName("upgrade_progress")
        self.bar.setFormat("%v / %m migrations")
        self.note = _label(name="cancel_note")
        layout.addWidget(self.current)
        layout.addWidget(self.bar)
        layout.addWidget(self.note)
        layout.addStretch(1)

    def start(self, total: int, db: Path) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(0)
        self.current.setText("Preparing: backup and working copy…")
        self.note.setText("Cancel stops between migrations. The migrations run on a copy of the database, so a "
                          f"cancelled upgrade discards that copy and {db} stays exactly as it was.")

    def step(self, index: int, total: int, name: str) -> None:
        self.bar.setMaximum(max(total, 1))
        self.bar.setValue(index)
        self.current.setText(f"Migration {index + 1} of {total}: {name}")

    def cancelling(self) -> None:
        self.current.setText(self.current.text() + "\nCancelling after this migration…")


class ResultPage(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.backup_file: Path | None = None
        layout = QVBoxLayout(self)
        self.headline = _headline()
        self.detail = _label(selectable=True, name="result_detail")
        layout.addWidget(self.headline)
        layout.addWidget(self.detail)
        self.applied_title = _label(name="applied_title")
        self.applied = QListWidget()
        self.applied.setObjectName("applied_list")
        layout.addWidget(self.applied_title)
        layout.addWidget(self.applied, 1)
        row = QHBoxLayout()
        self.backup_label = _label(selectable=True, name="result_backup")
        self.folder_button = QPushButton("Show in folder")
        self.folder_button.clicked.connect(self.open_folder)
        row.addWidget(self.backup_label, 1)
        row.addWidget(self.folder_button)
        layout.addLayout(row)
        self.checks = _label(selectable=True, name="result_checks")
        layout.addWidget(self.checks)
        self.warnings = _label(selectable=True, name="result_warnings")
        layout.addWidget(self.warnings)

    def show_result(self, result: UpgradeResult, *, had_db: bool) -> None:
        unchanged = result.unchanged or UNCHANGED.format(db=result.target)
        if result.refusal:
            self.headline.setText("The upgrade was refused")
            self.detail.setText(f"{result.refusal}\n{unchanged}")
        elif result.failure:
            self.headline.setText(result.failure_headline or "The upgrade stopped with an error")
            self.detail.setText(f"{result.failure}\n{unchanged}")
        elif result.cancelled:
            self.headline.setText("Upgrade cancelled")
            self.detail.setText(f"The working copy was discarded. {unchanged}")
        elif not result.applied:
            self.headline.setText("Storage already up to date.")
            self.detail.setText("")
        else:
            self.headline.setText(f"Upgrade complete: {count(len(result.applied), 'migration')} applied")
            self.detail.setText(result.done or "Every pane reloads when this dialog closes.")
        self.applied.clear()
        self.applied.addItems(result.applied)
        self.applied_title.setText("Applied migrations:" if result.applied else "")
        self.applied_title.setVisible(bool(result.applied))
        self.applied.setVisible(bool(result.applied))
        self._show_backup(result, had_db)
        self.checks.setText("\n".join(result.checks))
        self.warnings.setText("\n".join(f"Warning: {w}" for w in result.warnings))
        self.warnings.setVisible(bool(result.warnings))

    def _show_backup(self, result: UpgradeResult, had_db: bool) -> None:
        self.backup_file = result.backup_path
        if result.backup_path is not None:
            self.backup_label.setText(f"Backup: {result.backup_path}")
        elif not had_db:
            self.backup_label.setText("Backup: none — no database yet, nothing to back up.")
        elif result.refusal or not (result.applied or result.failure or result.cancelled):
            self.backup_label.setText("Backup: none was needed.")
        else:
            self.backup_label.setText("Backup: none (you chose not to make one).")
        self.folder_button.setVisible(result.backup_path is not None)

    def open_folder(self) -> None:
        if self.backup_file is not None:
            # A local file URL only: the folder holding the backup, opened by the desktop's file manager.
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.backup_file.parent)))

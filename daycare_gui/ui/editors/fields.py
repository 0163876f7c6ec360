"""Form pieces the editors share: a cron schedule field with live checks, a rule list, small helpers."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.stores.common.schedule import schedule_info
from daycare_gui.ui.formats import date_time_of
from daycare_gui.ui.theme import colours, set_tone
from daycare_gui.ui.widgets.plain_text import text_of

# Label tones: the application style sheet colours them from the palette (daycare_gui/ui/theme.py).
ERROR_TONE = "error"
WARNING_TONE = "warning"
NOTE_TONE = "note"


def set_text_if_different(widget, text: str) -> None:
    """Update a line/plain text widget only when its text differs (keeps the cursor of the one being typed in)."""
    current = widget.text() if isinstance(widget, QLineEdit) else text_of(widget)
    if current != text:
        widget.blockSignals(True)
        if isinstance(widget, QLineEdit):
            widget.setText(text)
        else:
            widget.setPlainText(text)
        widget.blockSignals(False)


def message_label() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.hide()
    return label


def show_message(label: QLabel, text: str | None, tone: str = ERROR_TONE) -> None:
    set_tone(label, tone)
    label.setText(text or "")
    label.setVisible(bool(text))


def monospace_editor() -> QPlainTextEdit:
    edit = QPlainTextEdit()
    font = edit.font()
    font.setFamily("monospace")
    font.setStyleHint(font.StyleHint.Monospace)
    edit.setFont(font)
    edit.setTabChangesFocus(True)
    return edit


class ScheduleField(QWidget):
    """A cron expression with what its runner (the system that runs the task) makes of it: the error, the
    words, and the next five runs."""

    edited = Signal(str)

    def __init__(self, parent=None, *, runner: str = "the system") -> None:
        super().__init__(parent)
        self.runner = runner
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("minute hour day month weekday, e.g. 0 9 * * 1-5")
        self.edit.setAccessibleName("Schedule")
        self.words = QLabel()
        self.words.setWordWrap(True)
        self.runs = QLabel()
        set_tone(self.runs, NOTE_TONE)
        self.runs.setWordWrap(True)
        self.runs.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.edit)
        layout.addWidget(self.words)
        layout.addWidget(self.runs)
        self.edit.textEdited.connect(self._typed)
        self._task_enabled = True

    def _typed(self, text: str) -> None:
        self.update_info(text)
        self.edited.emit(text)

    def set_value(self, text: str) -> None:
        set_text_if_different(self.edit, text)
        self.update_info(self.edit.text())

    def text(self) -> str:
        return self.edit.text()

    def set_task_enabled(self, enabled: bool) -> None:
        """The task's Enabled box: a disabled task has no next runs, and the field says why."""
        if enabled != self._task_enabled:
            self._task_enabled = enabled
            self.update_info(self.edit.text())

    def update_info(self, text: str) -> None:
        info = schedule_info(text, 5, enabled=self._task_enabled, runner=self.runner)
        if not info.valid:
            set_tone(self.words, ERROR_TONE)
            self.words.setText(f"{self.runner[:1].upper()}{self.runner[1:]} cannot run this schedule: {info.error}")
            self.runs.setText("")
            return
        set_tone(self.words, None)
        self.words.setText(info.words)
        if not info.enabled:
            self.runs.setText(f"Disabled: {self.runner} does not run this task, so there are no next runs.")
            return
        times = [date_time_of(t, weekday=True) for t in info.next_runs]
        self.runs.setText("Next runs:\n" + "\n".join(f"  {t}" for t in times))


class RuleListEditor(QWidget):
    """An ordered list of rules (an app's permissions): add (checked as you type), remove, move up and down.

    ``check(text)`` is the store's word on one rule: (why it is refused, a warning), either None."""

    rules_changed = Signal(list)

    def __init__(self, title: str, parent=None, *,
                 check: Callable[[str], tuple[str | None, str | None]] = lambda _text: (None, None),
                 hint: str = "") -> None:
        super().__init__(parent)
        self.check = check
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(f"<b>{title}</b>"))
        self.list = QListWidget()
        self.list.setAccessibleName(f"{title} rules")
        self.list.setMinimumHeight(90)
        layout.addWidget(self.list)
        row = QHBoxLayout()
        self.input = QLineEdit()
        self.input.setPlaceholderText(hint)
        self.input.setAccessibleName(f"New {title.lower()} rule")
        self.add_button = QPushButton("Add")
        self.remove_button = QPushButton("Remove")
        self.up_button = QPushButton("Up")
        self.down_button = QPushButton("Down")
        row.addWidget(self.input, 1)
        for button in (self.add_button, self.remove_button, self.up_button, self.down_button):
            row.addWidget(button)
        layout.addLayout(row)
        self.message = message_label()
        layout.addWidget(self.message)
        self.input.textChanged.connect(self._check_input)
        self.input.returnPressed.connect(self.add_from_input)
        self.add_button.clicked.connect(self.add_from_input)
        self.remove_button.clicked.connect(self.remove_selected)
        self.up_button.clicked.connect(lambda: self.move_selected(-1))
        self.down_button.clicked.connect(lambda: self.move_selected(1))
        self._check_input("")

    def rules(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def set_rules(self, rules: list[str]) -> None:
        if rules == self.rules():
            return
        row = self.list.currentRow()
        self.list.clear()
        for rule in rules:
            item = QListWidgetItem(rule)
            refused, warning = self.check(rule)
            problem = refused or warning
            if problem:
                item.setForeground(QColor(colours(self.list.palette()).states["ignored"]))
                item.setToolTip(problem)
            self.list.addItem(item)
        if self.list.count():
            self.list.setCurrentRow(min(max(row, 0), self.list.count() - 1))

    def _check_input(self, text: str) -> None:
        problem, warning = self.check(text) if text.strip() else (None, None)
        warning = None if problem else warning
        self.add_button.setEnabled(bool(text.strip()) and not problem)
        show_message(self.message, problem or warning, ERROR_TONE if problem else WARNING_TONE)

    def add_from_input(self) -> bool:
        text = self.input.text().strip()
        if not text or self.check(text)[0]:
            return False
        self.rules_changed.emit(self.rules() + [text])
        self.input.clear()
        self.list.setCurrentRow(self.list.count() - 1)
        return True

    def remove_selected(self) -> None:
        row = self.list.currentRow()
        if row < 0:
            return
        rules = self.rules()
        del rules[row]
        self.rules_changed.emit(rules)

    def move_selected(self, step: int) -> None:
        row = self.list.currentRow()
        target = row + step
        rules = self.rules()
        if row < 0 or not 0 <= target < len(rules):
            return
        rules[row], rules[target] = rules[target], rules[row]
        self.rules_changed.emit(rules)
        self.list.setCurrentRow(target)

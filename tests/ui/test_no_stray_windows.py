"""Every page of the window lives inside it: a widget made visible before it had a parent becomes a window
of its own on the desktop for a moment (the Agents page's Memory button and the Tasks page's buttons did),
takes the focus from the main window and leaves keyboard shortcuts such as Copy link (Ctrl+Shift+L) with
nowhere to go. Every section of each kind's demo is opened, watching for any window shown but the main one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QMenu, QToolTip, QWidget

from daycare_gui.stores.demos import write_kind_demo
from tests.ui.conftest import open_and_wait

NOW_MS = 1_795_000_000_000


class _WindowsShown(QObject):
    def __init__(self, main) -> None:
        super().__init__()
        self.main, self.seen = main, []

    def eventFilter(self, obj, event):  # noqa: N802 (Qt override)
        if (event.type() == QEvent.Type.Show and isinstance(obj, QWidget) and obj.isWindow()
                and obj is not self.main and not isinstance(obj, QMenu) and obj.metaObject().className()
                not in ("QTipLabel", "QComboBoxPrivateContainer")):
            text = obj.text() if hasattr(obj, "text") else ""
            self.seen.append(f"{type(obj).__name__} {text!r}")
        return False


def _sections_without_stray_windows(qtbot, window, store) -> None:
    open_and_wait(qtbot, window, store, timeout=30000)
    shown = _WindowsShown(window)
    QApplication.instance().installEventFilter(shown)
    try:
        for section in list(window._sections):
            window.show_section(section)
            qtbot.wait(30)
            assert shown.seen == [], section
    finally:
        QApplication.instance().removeEventFilter(shown)
    QToolTip.hideText()


def test_every_section_of_the_daycare_demo_opens_inside_the_window(qtbot, window, demo_store):
    _sections_without_stray_windows(qtbot, window, demo_store)


@pytest.mark.parametrize("kind", ["linggen", "agentstack", "cianaparrot"])
def test_every_section_of_another_kinds_demo_opens_inside_the_window(qtbot, window, tmp_path, kind):
    write_kind_demo(kind, tmp_path / kind, NOW_MS)
    _sections_without_stray_windows(qtbot, window, tmp_path / kind)

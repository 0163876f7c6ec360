"""File → Open <Kind> Demo: the window writes each kind's demo to a temporary folder, opens it as that kind
and removes it on close, as Open Demo Store does for Daycare (issue 34, item 5)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("kind", ["linggen", "agentstack", "cianaparrot"])
def test_open_demo_of_each_kind_from_the_file_menu(kind, qtbot, settings):
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    make_application()
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.show()
    action = w.actions_.actions[f"open_demo_{kind}"]
    assert action in w.menus["&File"].actions() and action.isEnabled()
    action.trigger()
    qtbot.waitUntil(lambda: w.opened is not None, timeout=30000)
    assert w.opened.kind == kind
    folder = w._demo_dirs[-1].path  # a private folder, named and locked as this process's
    assert (folder / kind).is_dir()
    assert settings.value("recent") in (None, [], "")  # a demo is not a store to remember
    w.close()  # at once, while the Jump To index may still be read: the store closes after that read
    from daycare_gui.ui.worker import wait_for_background_work

    assert wait_for_background_work(30)
    assert not folder.exists()

"""The copies a killed upgrade or save left in a store are listed among its problems, as before — but the walk
of the store's folders that finds them waits until the window has shown the store (10-15 ms of every open of
the 1M-record demo, more on a cold disk); a command still lists them as it opens the store."""

from __future__ import annotations

import threading

from daycare_gui.stores.common import leftovers
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.sqlite.store import open_store
from tests.crash.helpers import dead_pid
from tests.ui.conftest import open_and_wait


def _store_with_a_leftover(tmp_path):
    store = tmp_path / "daycare"
    write_demo(store)
    name = f".daycare.db.upgrade-{dead_pid()}-1700000000000"  # an upgrade's working copy, its writer gone
    (store / name).write_bytes(b"half-written")
    return store, name


def test_the_window_lists_a_leftover_once_the_store_is_shown(qtbot, window, tmp_path, monkeypatch):
    store, name = _store_with_a_leftover(tmp_path)
    walks = []  # (the thread that walked the store, whether the window showed the store by then)
    walk = leftovers.in_tree
    monkeypatch.setattr(leftovers, "in_tree", lambda root: walks.append(
        (threading.current_thread().name, window.store is not None)) or walk(root))
    open_and_wait(qtbot, window, store)
    qtbot.waitUntil(lambda: any(name in p.path for p in window.opened.problems), timeout=10000)
    assert walks == [("db-background", True)]
    # the navigation counts it among the problems
    qtbot.waitUntil(lambda: f"({len(window.opened.problems)})" in window.nav.text_of("problems"), timeout=10000)


def test_a_command_opening_the_store_lists_the_leftover_at_once(tmp_path):
    store, name = _store_with_a_leftover(tmp_path)
    opened = open_store(store)
    try:
        assert [p.severity for p in opened.problems if name in p.path] == ["warning"]
    finally:
        opened.close()

"""The window on a data dir that kept the old daycare.db beside daycare.pglite/: the old agents are in the
one Agents list, marked "(before PGlite)", and a deep link to an old session shows what was said there."""

from __future__ import annotations

import pytest

from tests.conftest import snapshot_tree
from tests.pg_helpers import use_test_pglite
from tests.stores.daycare_pg.before_pglite_dir import OLD_WORD, add_old_daycare_db
from tests.ui.conftest import thread_rows

OPEN_TIMEOUT = 120_000  # the copy and PGlite's start on a busy machine


@pytest.fixture
def both(tmp_path, monkeypatch):
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    use_test_pglite()
    folder = tmp_path / "store"
    write_pglite_demo(folder / "daycare.pglite", now_ms=1_795_000_000_000)
    agent, session = add_old_daycare_db(folder, tmp_path / "old")
    return folder, agent, session


def test_old_agents_are_listed_and_an_old_session_opens(qtbot, window, both):
    folder, agent, session = both
    old_file = (folder / "daycare.db").read_bytes()
    window.open_path(str(folder))
    qtbot.waitUntil(lambda: window.opened is not None and "agents" in window._sections, timeout=OPEN_TIMEOUT)
    window.show_section("agents")
    pane = window.panes["agents"]
    records = thread_rows(qtbot, pane)
    old = [r for r in records if str(r.values[0]).endswith("(before PGlite)")]
    assert len(old) == len(records) - 15 and f"before-pglite:{agent}" in {r.key for r in old}
    assert all(str(r.values[1]).startswith("Before PGlite (until ") for r in old)
    qtbot.waitUntil(lambda: window.jump.index is not None, timeout=20000)  # quick open has read the items
    window.jump.open_link(f"session:{session}")  # on Daycare's conversation page, as on a SQLite store
    qtbot.waitUntil(lambda: "history" in window.panes and OLD_WORD in window.panes["history"].shown_text(),
                    timeout=20000)
    window.close()  # the store closes: the old file was read, never written, and nothing was left beside it
    assert (folder / "daycare.db").read_bytes() == old_file
    assert not [p for p in snapshot_tree(folder) if p.startswith("daycare.db") and p != "daycare.db"]

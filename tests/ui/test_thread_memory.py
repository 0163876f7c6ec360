"""The Agents page's Memory button opens what the selected agent remembers (#33), as the old pages' MEMORY.md
buttons did: on the Daycare SQLite demo its user's ``home/knowledge/MEMORY.md`` on the Memory shelf (listed
there and edited as text), on the PGlite demo its user's memory rows (slug memory/…) on the Documents page;
an agent whose user keeps no memory has the button off."""

from __future__ import annotations

import pytest

from daycare_gui.stores import api
from tests.pg_helpers import use_test_pglite
from tests.ui.conftest import open_and_wait

PG_NOW = 1_795_000_000_000


def _agents_page(qtbot, window, store, section, timeout=15000):
    open_and_wait(qtbot, window, store, timeout=timeout)
    window.show_section(section)
    pane = window.pane(section)
    qtbot.waitUntil(lambda: pane.threads.loaded, timeout=timeout)
    return pane


def _select_thread(qtbot, pane, key) -> None:
    pane.threads.select_key(key)
    qtbot.waitUntil(lambda: pane.threads.current_key() == key and pane.memory._for == key, timeout=10000)


def _memory_opens(qtbot, window, pane, section, title, shown):
    qtbot.waitUntil(lambda: pane.memory.button.isEnabled(), timeout=10000)
    pane.memory.button.click()
    docs = window.pane(section)
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is docs and docs.ref is not None
                    and docs.ref.title == title and docs.opened is not None, timeout=30000)
    assert shown in docs.preview.toPlainText()
    return docs


def docs_title(window, uid: str) -> str:
    cap = window.opened.capability(api.Documents)
    return next(d.title for d in cap.documents() if d.path is not None and f"/{uid}/home/knowledge/" in str(d.path))


def test_sqlite_agent_memory_opens_its_users_memory_md(qtbot, window, demo_store):
    pane = _agents_page(qtbot, window, demo_store, "agents")
    core = window.opened.core
    rows = core.db.rows("SELECT a.id, a.user_id FROM agents a ORDER BY a.id")
    homes = {uid: demo_store / "users" / uid / "home" / "knowledge" / "MEMORY.md" for _a, uid in rows if uid}
    with_memory = next(a for a, uid in rows if uid and homes[uid].is_file())
    _select_thread(qtbot, pane, with_memory)
    uid = dict(rows)[with_memory]
    first_line = homes[uid].read_text(encoding="utf-8").splitlines()[2]
    docs = _memory_opens(qtbot, window, pane, "memory", docs_title(window, uid), first_line.lstrip("#- ").strip())
    assert docs.edit_button.isEnabled() and str(docs.ref.path) == str(homes[uid])


@pytest.fixture(scope="module")
def pglite_demo(tmp_path_factory):
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    use_test_pglite()
    folder = tmp_path_factory.mktemp("pglite-thread-memory") / "store"
    write_pglite_demo(folder / "daycare.pglite", now_ms=PG_NOW)
    return folder


def test_pglite_agent_memory_opens_its_users_memory_rows(qtbot, window, pglite_demo):
    use_test_pglite()
    pane = _agents_page(qtbot, window, pglite_demo, "conversations", timeout=60000)
    rows = window.opened.db.rows("SELECT id, user_id FROM agents WHERE valid_to IS NULL ORDER BY id")
    owner = next(a for a, uid in rows if uid == "u1owner")
    friend = next(a for a, uid in rows if uid == "u2sam")
    _select_thread(qtbot, pane, friend)  # Sam keeps no memory
    qtbot.wait(300)
    assert not pane.memory.button.isEnabled()
    _select_thread(qtbot, pane, owner)
    _memory_opens(qtbot, window, pane, "documents", "Preferences", "Early flights")

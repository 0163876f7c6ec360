"""Jump To (Ctrl+K), deep links (--open) and the keyboard: what a person typing instead of clicking sees."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QApplication

from daycare_gui.ui.actions import ACTION_SPECS, LOCAL_SHORTCUTS, key_text
from tests.ui.conftest import open_and_wait

UI_SOURCES = Path(__file__).resolve().parents[2] / "daycare_gui" / "ui"


def _biggest_session(store: Path) -> tuple[str, str, int]:
    conn = sqlite3.connect(f"file:{store / 'daycare.db'}?immutable=1", uri=True)
    try:
        return conn.execute(
            "SELECT s.id, s.agent_id, count(*) c FROM session_history h JOIN sessions s ON s.id = h.session_id "
            "GROUP BY s.id ORDER BY c DESC, s.id LIMIT 1").fetchone()
    finally:
        conn.close()


def _palette_ready(qtbot, window):
    qtbot.waitUntil(lambda: window.jump.index is not None, timeout=15000)
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.jump.palette is not None and window.jump.palette.isVisible(), timeout=15000)
    # ready to type, no click needed (the focus arrives with the window's activation: slow on a loaded machine)
    qtbot.waitUntil(window.jump.palette.query.hasFocus, timeout=15000)
    return window.jump.palette


def test_ctrl_k_fragment_of_a_session_id_then_enter_shows_its_conversation(qtbot, window, demo_store):
    session_id, agent_id, records = _biggest_session(demo_store)
    open_and_wait(qtbot, window, demo_store)
    palette = _palette_ready(qtbot, window)

    fragment = session_id[5:11]  # from the middle: not a prefix, not a word
    qtbot.keyClicks(palette.query, fragment)
    qtbot.waitUntil(lambda: palette.current_entry() is not None, timeout=5000)
    assert (palette.current_entry().kind, palette.current_entry().key) == ("session", session_id)
    assert palette.last_ms is not None  # timed per keystroke (bench/palette.py holds its goal, not a test)

    qtbot.keyClick(palette.query, Qt.Key.Key_Return)
    assert not palette.isVisible()
    history = window.panes["history"]
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is history, timeout=5000)  # once read
    qtbot.waitUntil(lambda: history.model.rowCount() == records, timeout=10000)
    assert session_id in history.heading.text()


def test_arrows_move_the_selection_and_esc_closes(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    palette = _palette_ready(qtbot, window)
    qtbot.keyClicks(palette.query, "a")
    qtbot.waitUntil(lambda: palette.results.topLevelItemCount() > 2, timeout=5000)
    first = palette.current_entry()
    qtbot.keyClick(palette.query, Qt.Key.Key_Down)
    second = palette.current_entry()
    assert second is not None and second != first
    qtbot.keyClick(palette.query, Qt.Key.Key_Up)
    assert palette.current_entry() == first
    assert palette.query.hasFocus()  # the cursor never left the query
    qtbot.keyClick(palette.query, Qt.Key.Key_Escape)
    assert not palette.isVisible()


def test_palette_opens_a_page_and_copies_a_link(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    palette = _palette_ready(qtbot, window)
    qtbot.keyClicks(palette.query, "cron tasks")
    qtbot.waitUntil(lambda: palette.current_entry() is not None, timeout=5000)
    assert (palette.current_entry().kind, palette.current_entry().key) == ("section", "cron")
    qtbot.keyClick(palette.query, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert QGuiApplication.clipboard().text() == f"daycare-gui {demo_store.resolve()} --open section:cron"
    qtbot.keyClick(palette.query, Qt.Key.Key_Return)
    assert window.pane_stack.currentWidget() is window.panes["cron"]


def test_open_session_link_at_start_opens_that_conversation(qtbot, window, demo_store):
    session_id, _agent, records = _biggest_session(demo_store)
    window.open_initial(str(demo_store), False, open_target=f"session:{session_id}")
    qtbot.waitUntil(lambda: "history" in window.panes and window.pane_stack.currentWidget() is window.panes["history"],
                    timeout=15000)
    history = window.panes["history"]
    qtbot.waitUntil(lambda: history.model.rowCount() == records, timeout=10000)
    assert session_id in history.heading.text()


def test_open_link_to_something_missing_says_so_in_the_status_bar(qtbot, window, demo_store):
    window.open_initial(str(demo_store), False, open_target="session:no-such-session")
    qtbot.waitUntil(lambda: "no-such-session" in window.statusBar().currentMessage(), timeout=15000)
    assert "Not found" in window.statusBar().currentMessage()
    assert window.store is not None and window.pane_stack.currentWidget() is window.panes["overview"]
    window.jump.open_link("nonsense")  # not KIND:ID either: said, not raised
    assert "expected KIND:ID" in window.statusBar().currentMessage()


def test_copy_link_from_the_agents_sessions_and_reopen_it(qtbot, window, demo_store, settings):
    session_id, agent_id, records = _biggest_session(demo_store)
    open_and_wait(qtbot, window, demo_store)
    qtbot.waitUntil(lambda: window.jump.index is not None, timeout=15000)
    window.jump.open_link(f"agent:{agent_id}")
    agents = window.panes["agents"]
    qtbot.waitUntil(lambda: agents.link_target(agents.threads.table) == ("agent", agent_id), timeout=10000)
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is agents, timeout=10000)  # once its session is read
    agents.threads.table.setFocus()
    qtbot.waitUntil(agents.threads.table.hasFocus, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert QGuiApplication.clipboard().text().endswith(f"--open agent:{agent_id}")
    qtbot.waitUntil(lambda: agents.sessions.records.proxy_row_of_key(session_id) >= 0, timeout=10000)
    agents.sessions.table.selectRow(agents.sessions.records.proxy_row_of_key(session_id))
    assert agents.link_target(agents.sessions.table) == ("session", session_id)
    # the lists offer it in a context menu
    assert agents.sessions.table.contextMenuPolicy() == Qt.ContextMenuPolicy.CustomContextMenu
    window.jump.copy_link(agents.link_target(agents.sessions.table))
    link = QGuiApplication.clipboard().text()
    assert link == f"daycare-gui {demo_store.resolve()} --open session:{session_id}"

    from daycare_gui.cli import _gui_parser

    args = _gui_parser().parse_args(link.split()[1:])  # the link parses as the command line it claims to be
    assert (args.path, args.open_target) == (str(demo_store.resolve()), f"session:{session_id}")


def test_ctrl_digits_reach_every_section_and_f6_cycles_areas(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    order = window._nav_order()
    for n in range(1, min(9, len(order)) + 1):
        qtbot.keyClick(window, getattr(Qt.Key, f"Key_{n}"), Qt.KeyboardModifier.ControlModifier)
        assert window._current_section == order[n - 1].id
    assert window.actions_.actions["section_3"].text().endswith(order[2].title)
    window.show_section("collection:users")
    window.nav.setFocus()
    qtbot.waitUntil(window.nav.hasFocus, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_F6)
    assert window.panes["collection:users"].tree.hasFocus()
    qtbot.keyClick(window, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    assert window.nav.hasFocus() or window.nav.isAncestorOf(QApplication.focusWidget())


def test_shortcuts_dialog_lists_every_registered_shortcut_and_none_collide(qtbot, window):
    from daycare_gui.ui.keyboard import ShortcutsDialog

    dialog = ShortcutsDialog(window.actions_.texts(), window)
    qtbot.addWidget(dialog)
    listed = {(dialog.table.topLevelItem(i).text(0), dialog.table.topLevelItem(i).text(1))
              for i in range(dialog.table.topLevelItemCount())}
    for spec in ACTION_SPECS:
        keys = key_text(spec.shortcut) if spec.shortcut else ""
        if keys:
            assert (keys, window.actions_.actions[spec.id].text().replace("&", "")) in listed, spec.id
    for local in LOCAL_SHORTCUTS:
        assert (key_text(local.keys), local.text) in listed, local.id

    window_keys: dict[str, str] = {}
    for spec in ACTION_SPECS:  # every binding of a standard key counts (Back is Alt+Left and the Back key)
        for seq in window.actions_.actions[spec.id].shortcuts():
            text = seq.toString()
            assert text not in window_keys, f"{spec.id} and {window_keys.get(text)} share {text}"
            window_keys[text] = spec.id
    for local in LOCAL_SHORTCUTS:
        for seq in QKeySequence.keyBindings(local.keys) if not isinstance(local.keys, str) else [QKeySequence(local.keys)]:
            assert seq.toString() not in window_keys, f"{local.id} collides with {window_keys.get(seq.toString())}"


def test_every_key_the_ui_binds_is_in_the_registry():
    """A pane that binds a key the registry does not list fails here (the Help list would be stale)."""
    registered = {key_text(s.keys) for s in LOCAL_SHORTCUTS} | {key_text(s.shortcut) for s in ACTION_SPECS if s.shortcut}
    pattern = re.compile(r"""(?:setShortcut\(|QShortcut\(QKeySequence\(|\(")(Ctrl\+[^"]+|Alt\+[^"]+|F\d+)"|"""
                         r"""StandardKey\.(\w+)""")
    found = set()
    for source in UI_SOURCES.rglob("*.py"):
        if source.name == "actions.py":
            continue
        for literal, standard in pattern.findall(source.read_text(encoding="utf-8")):
            found.add(key_text(literal) if literal else key_text(getattr(QKeySequence.StandardKey, standard)))
    found.discard("")
    assert found, "the scan found no shortcuts at all: the pattern is broken"
    assert found <= registered, f"bound but not listed in ui/actions.py: {sorted(found - registered)}"


def test_another_kind_jumps_through_the_shared_panes(qtbot, window, tmp_path):
    from tests.stores.linggen.builder import standard_home

    standard_home(tmp_path / "home")
    window.open_initial(str(tmp_path / "home"), False, open_target="session:sess-1700000000-aaaa0001")
    qtbot.waitUntil(lambda: "conversations" in window.panes, timeout=15000)
    pane = window.panes["conversations"]
    # The page is shown once its messages are read (after the session is chosen: two reads later), so the
    # wait is for both; asserting the page right after the session was chosen raced those reads.
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is pane and pane.session is not None
                    and pane.session.session_id == "sess-1700000000-aaaa0001", timeout=10000)
    assert pane.link_target() == ("session", "sess-1700000000-aaaa0001")

    palette = _palette_ready(qtbot, window)
    qtbot.keyClicks(palette.query, "monitor production")  # a row of the Missions list
    qtbot.waitUntil(lambda: palette.current_entry() is not None, timeout=5000)
    qtbot.keyClick(palette.query, Qt.Key.Key_Return)
    missions = window.panes["collection:missions"]
    assert window.pane_stack.currentWidget() is missions
    qtbot.waitUntil(lambda: missions.current_row() is not None, timeout=10000)
    assert missions.link_target() == ("row", f"missions:{missions.current_row().key}")
    assert "Monitor production" in missions.current_row().values

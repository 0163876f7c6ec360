"""Storage → Space on a CianaParrot store LangGraph wrote and on Daycare's SQLite demo: the sizes, the
largest threads and the advice; for CianaParrot the dry run, then the prune (after its question), which
gives back what the dry run said and reopens the store; and no Upgrade action for a store without
migrations."""

from __future__ import annotations

import shutil
import threading

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from daycare_gui.stores.daycare.demo import write_demo
from tests.stores.cianaparrot.builder import make_checkpoints, make_deployment
from tests.ui.conftest import open_and_wait

TURNS = {f"telegram_{100 + i}": [f"question {j}: " + "tell me more " * 20 for j in range(8)] for i in range(2)}


@pytest.fixture(scope="module")
def ciana_template(tmp_path_factory):
    root = tmp_path_factory.mktemp("space-ui") / "ciana"
    make_deployment(root, db=False)
    make_checkpoints(root / "data" / "checkpoints.db", TURNS)
    return root


def _space(qtbot, window):
    window.show_section("storage")
    pane = window.panes["storage"]
    pane.tabs.setCurrentWidget(pane.space_tab)
    tab = pane.space_tab
    qtbot.waitUntil(lambda: tab.report is not None and not tab.measuring, timeout=30000)
    return tab


def _groups(tab) -> dict[str, list[str]]:
    out = {}
    for i in range(tab.tree.topLevelItemCount()):
        group = tab.tree.topLevelItem(i)
        out[group.text(0)] = [group.child(j).text(0) for j in range(group.childCount())]
    return out


def test_cianaparrot_space_dry_run_and_prune(qtbot, window, ciana_template, tmp_path):
    root = tmp_path / "ciana"
    shutil.copytree(ciana_template, root)
    open_and_wait(qtbot, window, root, timeout=30000)
    assert "upgrade" not in window._offered_actions(window.opened)
    tab = _space(qtbot, window)
    groups = _groups(tab)
    # the threads named as every other page names them (their ids in the detail)
    from daycare_gui.stores import api

    titles = {t.id: t.title for t in window.opened.capability(api.Conversations).threads()}
    assert sorted(groups["Threads (2)"]) == sorted(titles[t] for t in TURNS) != sorted(TURNS)
    assert "checkpoints" in groups["Tables and indexes (5)"]
    assert "table sizes by dbstat" in tab.summary.text()
    assert "last checkpoint is all the bot needs to continue" in tab.advice.text()
    assert tab.prune_box.isVisible() and not tab.prune_button.isEnabled()

    size = (root / "data" / "checkpoints.db").stat().st_size
    qtbot.mouseClick(tab.dry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.preview is not None, timeout=60000)
    assert tab.prune_text.text().startswith("Dry run (nothing written): Drops 78 checkpoints")
    assert (root / "data" / "checkpoints.db").stat().st_size == size and tab.prune_button.isEnabled()
    assert sorted(_groups(tab)["Would go (dry run) (2 threads)"]) == sorted(TURNS)
    expected = tab.preview.size_after

    def agree():
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox) and "A backup of the store is made first" in box.text()
        box.button(QMessageBox.StandardButton.Ok).click()

    QTimer.singleShot(0, agree)
    tab.ask_prune()
    qtbot.waitUntil(lambda: (root / "data" / "checkpoints.db").stat().st_size == expected, timeout=60000)
    qtbot.waitUntil(lambda: window.opened is not None and "storage" in window.panes, timeout=60000)
    assert list((root / "data" / ".daycare-gui-backups").glob("checkpoints.db.*.prune.bak"))


def test_daycare_sqlite_space_lists_agents_and_offers_no_prune(qtbot, window, tmp_path):
    write_demo(tmp_path / "store")
    open_and_wait(qtbot, window, tmp_path / "store", timeout=30000)
    tab = _space(qtbot, window)
    groups = _groups(tab)
    assert any(g.startswith("Agents (") for g in groups) and "session_history" in groups[
        next(g for g in groups if g.startswith("Tables"))]
    assert any(g.startswith("Folders (") for g in groups)
    assert not tab.prune_box.isVisible()


def test_daycare_space_shows_its_tables_first_then_the_agents_with_progress_and_cancel_stops(
        qtbot, window, tmp_path, monkeypatch):
    from daycare_gui.stores.daycare import space as daycare_space

    write_demo(tmp_path / "store")
    monkeypatch.setattr(daycare_space, "SESSION_CHUNK", 1)  # a step per session: progress to see, to cancel
    seen: list[str] = []
    half, resume = threading.Event(), threading.Event()
    real = daycare_space._sqlite_agents

    def slowly(db, progress=None):  # (on the worker) at half way, waits for the test to press Cancel
        def step(message):
            seen.append(message)
            progress(message)
            if message.endswith("%") and int(message.split()[-1][:-1]) >= 50 and not half.is_set():
                half.set()
                resume.wait(30)

        return real(db, step)

    monkeypatch.setattr(daycare_space, "_sqlite_agents", slowly)
    open_and_wait(qtbot, window, tmp_path / "store", timeout=30000)
    window.show_section("storage")
    pane = window.panes["storage"]
    pane.tabs.setCurrentWidget(pane.space_tab)
    tab = pane.space_tab
    qtbot.waitUntil(lambda: half.is_set() and tab.progress_label.text().endswith("%…"), timeout=30000)
    groups = _groups(tab)  # the quick report is on screen while the agents are measured
    assert "Agents (measuring…)" in groups and any(g.startswith("Tables and indexes") for g in groups)
    assert tab.progress_label.text().startswith("Measuring agents: ") and tab.measure_cancel.isVisible()
    qtbot.mouseClick(tab.measure_cancel, Qt.MouseButton.LeftButton)
    resume.set()
    qtbot.waitUntil(lambda: not tab.measuring, timeout=30000)
    assert tab.progress_label.text().startswith("Measuring stopped")
    assert "Agents (measuring…)" in _groups(tab) and not tab.measure_cancel.isVisible()
    halfway = next(i for i, m in enumerate(seen) if m.endswith("%") and int(m.split()[-1][:-1]) >= 50)
    assert len(seen) == halfway + 2  # the next step after Cancel stopped the measuring: no session more read


def test_own_leftovers_are_listed_on_the_page_and_removed_after_the_question(qtbot, window, tmp_path):
    root = tmp_path / "store"
    write_demo(root)
    backups = root / ".daycare-gui-backups"
    backups.mkdir(mode=0o700)
    made = []
    for day in range(1, 6):  # five backups of one document: the newest three stay to undo from
        made.append(backups / f"MEMORY.md.202611{day:02d}-101500.bak")
        made[-1].write_bytes(b"m" * 4000)
    open_and_wait(qtbot, window, root, timeout=30000)
    tab = _space(qtbot, window)
    row = tab.leftovers
    qtbot.waitUntil(lambda: row.preview is not None, timeout=30000)
    qtbot.waitUntil(lambda: not tab.measuring, timeout=30000)
    group = next(g for g in _groups(tab) if g.startswith("daycare-gui's own leftovers"))
    assert sorted(_groups(tab)[group]) == sorted(str(p) for p in made[:2])
    assert row.text.text() == "Would remove 2 backups: 7.8 KB given back." and row.remove_button.isEnabled()
    assert all(p.exists() for p in made)  # looking removed nothing

    def agree():
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox) and "the newest 3 backups of each file stay" in box.text()
        box.button(QMessageBox.StandardButton.Ok).click()

    QTimer.singleShot(0, agree)
    qtbot.mouseClick(row.remove_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: row.text.text().startswith("Removed"), timeout=30000)
    assert row.text.text() == "Removed 2 backups: 7.8 KB given back."
    assert [p.exists() for p in made] == [False, False, True, True, True]
    assert not any(g.startswith("daycare-gui's own leftovers") for g in _groups(tab))

"""The Agents page of a PGlite store shows an agent's sessions before the history's one scan is done (#35):
their Messages read "counting…" (never 0), another agent clicked meanwhile shows its sessions too, and the
counts then appear in place, each what SQL counts. The scan is held by an event, as a scan of a million
records would still be running."""

from __future__ import annotations

import threading

import pytest

from tests.pg_helpers import use_test_pglite

PG_NOW = 1_795_000_000_000
OPEN_TIMEOUT = 120_000  # the copy and PGlite's start on a busy machine
HELD_S = 120  # a guard against a hang, not a timing


@pytest.fixture(scope="module")
def pglite_demo(tmp_path_factory):
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    use_test_pglite()
    folder = tmp_path_factory.mktemp("pglite-pending") / "store"
    write_pglite_demo(folder / "daycare.pglite", now_ms=PG_NOW)
    return folder


@pytest.fixture
def held_scan(monkeypatch, tmp_path):
    from daycare_gui.stores.daycare.pg import history_keys

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # a first open: no ids kept from an earlier one
    release = threading.Event()
    real = history_keys.HistoryKeys._aggregate

    def held(self, where=""):
        release.wait(HELD_S)
        return real(self, where)

    monkeypatch.setattr(history_keys.HistoryKeys, "_aggregate", held)
    yield release
    release.set()


def _messages_column(pane) -> list[str]:
    model = pane.sessions.records.proxy
    column = next(c for c in range(model.columnCount())
                  if model.headerData(c, _horizontal()) == "Messages")
    return [model.index(r, column).data() for r in range(model.rowCount())]


def _keys(pane) -> list[str]:
    return [r.ref.session_id for r in pane.sessions.records.visible_records()]


def _horizontal():
    from PySide6.QtCore import Qt

    return Qt.Orientation.Horizontal


def test_sessions_are_listed_with_pending_counts_before_the_scan_and_counted_after(qtbot, window, pglite_demo,
                                                                                   held_scan):
    use_test_pglite()
    # As in a run of the whole suite, where everything is imported already: the background worker's counts
    # may start before the Agents page reads its list (a count once held the list up until the scan ended;
    # tests/stores/daycare_pg/test_pglite_sessions_pending.py forces that order).
    window.preloader.finish_now()
    window.open_path(str(pglite_demo))
    qtbot.waitUntil(lambda: window.opened is not None and "agents" in window._sections, timeout=OPEN_TIMEOUT)
    db = window.opened.db
    counts = {r[0]: int(r[1]) for r in db.rows("SELECT session_id, count(*) FROM session_history GROUP BY 1")}
    agents = [r[0] for r in db.rows("SELECT s.agent_id FROM sessions s GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 2")]
    assert len(agents) == 2
    owned = {a: [r[0] for r in db.rows("SELECT id FROM sessions WHERE agent_id = :a", {"a": a})] for a in agents}

    window.navigate("agents", agents[0])
    pane = window.panes["agents"]
    try:
        qtbot.waitUntil(lambda: set(_keys(pane)) == set(owned[agents[0]]), timeout=30000)
    except qtbot.TimeoutError:  # (said, so that a failure on a loaded machine tells what was shown instead)
        raise AssertionError(f"agent {agents[0]} selected: {pane.threads.current_key()!r}; sessions shown "
                             f"{_keys(pane)}, expected {owned[agents[0]]}") from None
    assert set(_messages_column(pane)) == {"counting…"}  # pending, not 0 and not blank

    # another agent clicked while the scan still runs: its sessions are shown too, pending as well
    pane.threads.select_key(agents[1])  # (as a click on its row does)
    qtbot.waitUntil(lambda: set(_keys(pane)) == set(owned[agents[1]]), timeout=30000)
    assert set(_messages_column(pane)) == {"counting…"}

    held_scan.set()
    qtbot.waitUntil(lambda: "counting…" not in _messages_column(pane), timeout=HELD_S * 1000)
    shown = dict(zip(_keys(pane), _messages_column(pane)))
    assert shown == {sid: f"{counts.get(sid, 0)}" for sid in owned[agents[1]]}
    assert any(counts.get(sid, 0) for sid in owned[agents[1]])

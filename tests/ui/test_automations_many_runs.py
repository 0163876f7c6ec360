"""A task with 10,000 runs (#36): its runs are reconstructed on the worker with the progress said, kept while the
store is unchanged (read again after a commit), and the table takes them a page at a time — the first page
at once, more as it is scrolled to the end, all of them for a filter."""

from __future__ import annotations

import shutil

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.ui.panes.generic import automations as automations_pane
from daycare_gui.ui.panes.generic.automations import RUN_PAGE, read_automations
from tests.stores.daycare.many_runs import add_runs
from tests.ui.test_automations_page import column, select
from tests.ui.test_people_panes import open_at, texts

RUNS = 10_000


@pytest.fixture(scope="module")
def busy_store(tmp_path_factory, demo_store):
    root = tmp_path_factory.mktemp("many-runs") / "daycare"
    shutil.copytree(demo_store, root)
    add_runs(root / "daycare.db", RUNS)
    return root


def test_ten_thousand_runs_arrive_a_page_at_a_time_and_a_filter_sees_them_all(qtbot, window, busy_store):
    pane = open_at(qtbot, window, busy_store, "automations")
    runs = select(pane, qtbot, "Daily digest")
    model = pane.runs.records.model
    qtbot.waitUntil(lambda: "10,004" in pane.runs.caption.text(), timeout=60000)
    assert model.rowCount() == RUN_PAGE and len(pane._held) == RUNS + 4  # (the demo's own four runs)
    assert texts(runs, column(runs, "Outcome"))[0] == "skipped"  # newest first, as before
    pane.runs.table.scrollToBottom()  # the end of the page: the next one is handed over
    qtbot.waitUntil(lambda: model.rowCount() == 2 * RUN_PAGE, timeout=20000)
    pane.runs.filter_box.setText("failed")
    qtbot.waitUntil(lambda: model.rowCount() == RUNS + 4, timeout=20000)
    qtbot.waitUntil(lambda: runs.rowCount() == 1, timeout=20000)  # the demo's one failed run, found among all
    assert texts(runs, column(runs, "Outcome"))[0].startswith("failed: ")


def test_runs_are_reconstructed_once_per_store_fingerprint_with_progress_and_cancel(busy_store, tmp_path):
    root = tmp_path / "daycare"
    shutil.copytree(busy_store, root)
    with registry.open_store(root, live=False) as opened:
        cache = automations_pane.RunCache(opened.capability(api.Automations))
        steps = []
        first = read_automations(cache, progress=lambda done, total, what: steps.append((done, total, what)))
        titles = [s.automation.title for s in first]
        # progress in the store's order, one step each; the list is then ordered by what needs a look first
        assert sorted(what for _d, _t, what in steps) == sorted(titles) and steps[0][:2] == (0, len(titles))
        reads = cache.reads
        digest = next(s for s in first if s.automation.title == "Daily digest")
        assert digest.health.runs_seen == 200  # (health reads the latest 200)
        again = read_automations(cache)
        assert cache.reads == reads and [s.health.summary() for s in again] == [s.health.summary() for s in first]
        assert len(cache.runs(digest.id, limit=20_000)) == RUNS + 4
        assert cache.runs(digest.id, limit=20_000) is cache.runs(digest.id, limit=20_000)  # kept
        add_runs(root / "daycare.db", 3)  # a commit: the fingerprint changes, the runs are read again
        assert len(cache.runs(digest.id, limit=20_000)) == RUNS + 7 and cache.reads > reads
        asked = []
        assert read_automations(cache, cancelled=lambda: asked.append(1) or len(asked) > 2) is None
        assert len(asked) == 3  # stopped before the third automation's runs were read

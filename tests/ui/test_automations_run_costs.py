"""The Automations page says what each run cost (#37): a Cost column beside the tokens, filled once the runs are
priced on the worker, the same figure the store's records give (``run_costs``); a run with no records shows none."""

from __future__ import annotations

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.run_costs import run_costs
from tests.ui.test_automations_page import column, select
from tests.ui.test_people_panes import open_at, texts


def test_the_runs_table_shows_each_runs_cost(qtbot, window, demo_store):
    with registry.open_store(demo_store) as opened:
        autos = opened.capability(api.Automations)
        (digest,) = [a for a in autos.automations() if a.title == "Daily digest"]
        runs = autos.runs(digest.id)
        expected = [c.shown() for c in run_costs(opened.capability(api.Usage), runs)]
    assert sum(1 for e in expected if e.startswith("$")) >= 2
    pane = open_at(qtbot, window, demo_store, "automations")
    shown = select(pane, qtbot, "Daily digest")
    cost = column(shown, "Cost")
    qtbot.waitUntil(lambda: texts(shown, cost) == expected, timeout=20000)
    assert texts(shown, column(shown, "Outcome"))[0] == "skipped" and expected[0] == ""
    # the column is widened to its figures once they arrive (it was fitted while empty), and the selected
    # run's details say its cost in words
    widest = pane.runs.table.sizeHintForColumn(cost)  # (its figures, as painted)
    assert pane.runs.table.columnWidth(cost) >= widest
    pane.runs.table.selectRow(1)
    fields = dict(window.detail.item.fields)
    assert fields["Cost"].startswith(expected[1]) and "model call" in fields["Cost"]

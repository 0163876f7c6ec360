"""Issue 18 #16: every page names people and agents the same way, shows dates and numbers a person reads,
and words counts in the singular or plural as the number asks."""

from __future__ import annotations

import re
import shutil
import sqlite3

import pytest
from PySide6.QtCore import Qt

from daycare_gui.stores.daycare.sqlite.queries.names import AGENT_ID_COLUMNS, USER_ID_COLUMNS
from tests.ui.test_document_panes import column
from tests.ui.test_people_panes import open_at, texts

OWNER, SAM = "j4ffjn2dh13obcg6i68udgys", "ttdos2i2nfcznn0b49j4tsa8"


@pytest.fixture
def nameless_store(demo_store, tmp_path):
    """The demo store with Sam's name removed: Sam is then @brave-lynx-208, never "id (id)"."""
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    conn = sqlite3.connect(store / "daycare.db")
    conn.execute("UPDATE users SET name = NULL WHERE id = ?", (SAM,))
    conn.commit()
    conn.close()
    return store


def _db(store):
    conn = sqlite3.connect(f"file:{store / 'daycare.db'}?immutable=1", uri=True)
    try:
        users = {r[0]: r[1] or f"@{r[2]}" for r in conn.execute("SELECT id, name, nametag FROM users")}
        agents = {r[0] for r in conn.execute("SELECT id FROM agents")}
    finally:
        conn.close()
    return users, agents


@pytest.mark.parametrize("section", ["channels", "signals", "processes", "expose", "system_prompts"])
def test_subsystem_pages_show_names_with_the_id_in_the_tooltip(qtbot, window, nameless_store, section,
                                                               model_tester):
    users, agents = _db(nameless_store)
    pane = open_at(qtbot, window, nameless_store, section)
    views = list(pane.views.values())
    if section == "channels":
        views += list(pane.views["channels"].details.values())
    model_tester(*(v.model for v in views))

    def all_read(view):
        return view.model.rowCount() > 0 and all(view.model.record(r) for r in range(view.model.rowCount()))

    qtbot.waitUntil(lambda: all(all_read(v) for v in pane.views.values()), timeout=5000)
    if section == "channels":
        pane.views["channels"].table.selectRow(0)
        qtbot.waitUntil(lambda: all(all_read(v) for v in views), timeout=5000)
    checked = 0
    for view in views:
        model = view.model
        for c, name in enumerate(view.spec.columns):
            if name not in USER_ID_COLUMNS | AGENT_ID_COLUMNS:
                continue
            for r in range(model.rowCount()):
                raw = model.record(r).raw.get(name)
                if raw in users or raw in agents:
                    shown = model.index(r, c).data()
                    assert shown != raw and "(" not in shown, (section, name, shown)
                    assert model.index(r, c).data(Qt.ItemDataRole.ToolTipRole) == raw
                    if raw in users:
                        assert shown == users[raw]
                    checked += 1
    assert checked > 0
    view = views[0]
    if view.model.rowCount():
        view.table.selectRow(1 if view.model.rowCount() > 1 else 0)
        view.table.selectRow(0)
        user_fields = [v for k, v in window.detail.item.fields if k == "user_id" and v]
        assert all(f.endswith(")") and f.split(" (")[0] in users.values() for f in user_fields)


def test_apps_skills_and_tasks_name_their_users(qtbot, window, nameless_store):
    apps = open_at(qtbot, window, nameless_store, "apps").views["apps"]
    qtbot.waitUntil(lambda: apps.model.rowCount() == 3 and all(apps.model.record(r) for r in range(3)), timeout=5000)
    scopes = texts(apps.model, 2)
    assert "user @brave-lynx-208" in scopes and not any(SAM in s for s in scopes)

    window.show_section("skills")
    skills = window.panes["skills"]
    qtbot.waitUntil(lambda: skills.list.records.proxy.rowCount() == 5, timeout=5000)
    sources = texts(skills.list.records.proxy, 1)
    assert "user Alex Rivera" in sources and "user @brave-lynx-208" in sources
    assert not any(OWNER in s or SAM in s for s in sources)

    window.show_section("cron")
    cron = window.panes["cron"]
    qtbot.waitUntil(lambda: cron.records.proxy.rowCount() == 6, timeout=5000)
    row = texts(cron.records.proxy, 0).index("Plant photo diary")  # Sam's task
    assert texts(cron.records.proxy, column(cron.records.proxy, "User"))[row] == "@brave-lynx-208"
    cron.table.selectRow(row)
    user = dict(window.detail.item.fields)["User"]
    assert user == f"@brave-lynx-208 ({SAM})" and user != f"{SAM} ({SAM})"
    assert cron.list.caption.text() == "<b>Cron tasks</b> (6)"

    window.show_section("memory")
    memory = window.panes["memory"]
    qtbot.waitUntil(lambda: memory.list.records.proxy.rowCount() > 0, timeout=5000)
    assert memory.list.caption.text() == f"<b>Memory</b> ({memory.list.records.proxy.rowCount()})"


def test_users_page_names_a_user_without_a_name_by_nametag(qtbot, window, nameless_store):
    pane = open_at(qtbot, window, nameless_store, "collection:users")
    qtbot.waitUntil(lambda: pane.tree.topLevelItemCount() == 4, timeout=5000)
    names = [pane.tree.topLevelItem(i).text(0) for i in range(4)]
    assert "@brave-lynx-208" in names
    assert SAM not in names


def test_storage_shows_stored_times_as_dates(qtbot, window, demo_store):
    pane = open_at(qtbot, window, demo_store, "storage")
    qtbot.waitUntil(lambda: pane.tables_model.rowCount() > 0, timeout=5000)
    pane.open_item("session_history")
    qtbot.waitUntil(lambda: pane.browser.model.rowCount() > 0, timeout=5000)
    model = pane.browser.model
    column = model.columns.index("at")
    raw = model.record(0).values["at"]
    shown = model.index(0, column).data()
    assert shown != str(raw) and shown[:2] == "20" and len(shown.split()[0]) == 10  # 2026-03-01 …
    assert str(raw) in model.index(0, column).data(Qt.ItemDataRole.ToolTipRole)
    pane.browser.select_row(0)
    assert dict(window.detail.item.fields)["at"] == f"{shown}  ({raw})"


def test_chart_axes_read_as_numbers_and_four_digit_dates(qtbot):
    from daycare_gui.stores.daycare.records.agents import TokenSize
    from daycare_gui.stores.daycare.sqlite.queries.overview import TokenUsage
    from daycare_gui.ui.widgets.charts import DAY_MS, ActivityChart, TokenUsageChart

    activity = ActivityChart()
    qtbot.addWidget(activity)
    activity.resize(800, 300)
    start = 1_767_225_600_000  # 2026-01-01
    activity.set_days([(start + i * DAY_MS, 20_000_000 if i == 3 else 1_000) for i in range(10)])
    labels = activity.value_labels()
    assert "20M" in labels and not any("000000" in t for t in labels)
    activity.grab()  # paints: the date labels that fit are recorded
    assert activity.drawn_dates and all(re.search(r"\b2026$", d) for d in activity.drawn_dates)
    assert "20,009,000 records over 10 active days" in activity.toolTip()

    tokens = TokenUsageChart()
    qtbot.addWidget(tokens)
    tokens.set_usage([TokenUsage("anthropic", "claude", TokenSize(input=290_000, output=10_000, total=300_000))])
    assert "300k" in tokens.value_labels() or "100k" in tokens.value_labels()

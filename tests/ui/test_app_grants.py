"""Apps: a grant that PERMISSIONS.md took away is flagged, and Revoke grant… removes it from state.json
(issue 18, item 5)."""

from __future__ import annotations

import json
import shutil

import pytest
from PySide6.QtWidgets import QMessageBox

from daycare_gui.core.edit import app_state
from daycare_gui.core.edit.permissions_doc import PermissionsDoc
from daycare_gui.core.store import open_store
from tests.ui.test_people_panes import open_at, texts

PROBLEMS_COLUMN = 5


@pytest.fixture
def store_with_revoked_rule(demo_store, tmp_path):
    """A copy of the demo store whose deploy-check app had @network moved from Allow to Deny in PERMISSIONS.md
    (what the permissions editor does), while state.json still grants it."""
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    app = store / "workspace" / "apps" / "deploy-check"
    doc = PermissionsDoc.parse((app / "PERMISSIONS.md").read_bytes())
    doc.set_rules("allow", [r for r in doc.allow if r != "@network"])
    doc.set_rules("deny", [*doc.deny, "@network"])
    (app / "PERMISSIONS.md").write_bytes(doc.to_bytes())
    assert "@network" in json.loads((app / "state.json").read_bytes())["permissions"]
    return store


def test_core_reports_the_contradiction_as_a_problem(store_with_revoked_rule):
    with open_store(store_with_revoked_rule) as store:
        apps = {a.id: a for a in store.files().items("apps")}
        conflicts = apps["deploy-check"].grant_conflicts()
        assert [(c.tag, c.denied) for c in conflicts] == [("@network", True)]
        assert all(not a.grant_conflicts() for name, a in apps.items() if name != "deploy-check")
        messages = [p.message for p in store.problems if p.path.endswith("deploy-check/state.json")]
        assert messages == ["state.json still grants @network although PERMISSIONS.md denies it: Daycare gives "
                            "the app this permission until the grant is revoked"]


def test_apps_pane_flags_and_revokes_the_grant(qtbot, window, store_with_revoked_rule, monkeypatch,
                                                model_tester):
    state = store_with_revoked_rule / "workspace" / "apps" / "deploy-check" / "state.json"
    before = state.read_bytes()
    pane = open_at(qtbot, window, store_with_revoked_rule, "apps")
    model_tester(pane.records.proxy)  # through the revoke and the reload it causes
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 3, timeout=5000)
    names = texts(pane.records.proxy, 0)
    problems = dict(zip(names, texts(pane.records.proxy, PROBLEMS_COLUMN)))
    assert problems["deploy-check"] == "still granted: @network (denied)"
    pane.table.selectRow(names.index("deploy-check"))
    assert pane.revoke_button.isEnabled()
    assert "denied by PERMISSIONS.md, still granted" in pane.viewer.shown_text()

    old_store = window.store
    offered = []
    monkeypatch.setattr(app_state, "_now_ms", lambda: 1772000000000)
    revoked = pane.revoke_grant(choose=lambda app, tags: offered.append(tags) or "@network",
                                confirm=lambda app, tag: True)
    assert revoked == "@network"
    assert offered == [json.loads(before)["permissions"]]
    old = json.loads(before)
    expected = before.replace(b',\n    "@network"', b"").replace(str(old["updatedAt"]).encode(), b"1772000000000")
    assert state.read_bytes() == expected
    # The window reloads the store: the contradiction is gone.
    qtbot.waitUntil(lambda: window.store is not None and window.store is not old_store, timeout=10000)
    window.show_section("apps")
    qtbot.waitUntil(lambda: "apps" in window.panes and window.panes["apps"].records.proxy.rowCount() == 3,
                    timeout=10000)
    fresh = window.panes["apps"]
    assert "still granted" not in " ".join(texts(fresh.records.proxy, PROBLEMS_COLUMN))


def test_revoke_is_cancelled_or_refused_without_writing(qtbot, window, store_with_revoked_rule, monkeypatch):
    state = store_with_revoked_rule / "workspace" / "apps" / "deploy-check" / "state.json"
    before = state.read_bytes()
    pane = open_at(qtbot, window, store_with_revoked_rule, "apps")
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 3, timeout=5000)
    pane.table.selectRow(texts(pane.records.proxy, 0).index("deploy-check"))
    assert pane.revoke_grant(choose=lambda app, tags: "@network", confirm=lambda app, tag: False) is None
    assert state.read_bytes() == before

    # Daycare rewrote the file while the person was choosing: nothing is written.
    def change_then_choose(app, tags):
        state.write_bytes(before.replace(b"]", b', "@events"]', 1))
        return "@network"

    warned = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: warned.append(a[2])))
    assert pane.revoke_grant(choose=change_then_choose, confirm=lambda app, tag: True) is None
    assert state.read_bytes() == before.replace(b"]", b', "@events"]', 1)
    assert warned and "changed on disk" in warned[0]

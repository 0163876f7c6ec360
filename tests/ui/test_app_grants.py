"""Apps: a grant that PERMISSIONS.md took away is flagged, and Revoke grant… removes it from state.json
(issue 18, item 5)."""

from __future__ import annotations

import json
import shutil

import pytest
from PySide6.QtWidgets import QMessageBox

from daycare_gui.stores.daycare.edit import app_state
from daycare_gui.stores.daycare.edit.permissions_doc import PermissionsDoc
from daycare_gui.stores.daycare.sqlite.store import open_store
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


def _apps(qtbot, window, store):
    pane = open_at(qtbot, window, store, "apps")
    view = pane.views["apps"]
    qtbot.waitUntil(lambda: view.model.rowCount() == 3 and all(view.model.record(r) for r in range(3)),
                    timeout=5000)
    return pane, view


def _select(qtbot, view, name):
    view.table.selectRow(texts(view.model, 0).index(name))
    qtbot.waitUntil(lambda: bool(view.row_actions()), timeout=5000)  # the store's actions for the row arrived


def _action(view, title):
    return next(b for b in view.row_actions() if b.text().startswith(title))


def test_apps_pane_flags_and_revokes_the_grant(qtbot, window, store_with_revoked_rule, monkeypatch,
                                                model_tester):
    state = store_with_revoked_rule / "workspace" / "apps" / "deploy-check" / "state.json"
    before = state.read_bytes()
    pane, view = _apps(qtbot, window, store_with_revoked_rule)
    model_tester(view.model)  # through the revoke and the reload it causes
    names = texts(view.model, 0)
    problems = dict(zip(names, texts(view.model, PROBLEMS_COLUMN)))
    assert problems["deploy-check"] == "still granted: @network (denied)"
    _select(qtbot, view, "deploy-check")
    assert view.current_row().flag == "still granted"
    assert "denied by PERMISSIONS.md, still granted" in window.detail.item.markdown
    offered = [b.objectName() for b in view.row_actions()]
    assert offered == [f"action:revoke:{t}" for t in json.loads(before)["permissions"]] + ["action:delete"]
    assert [b.text() for b in view.row_actions()][-2:] == ["Revoke @network…", "Delete…"]

    old_store = window.store
    asked = []
    monkeypatch.setattr(app_state, "_now_ms", lambda: 1772000000000)
    view.confirm_action = lambda action: asked.append(action.description) or True
    _action(view, "Revoke @network").click()
    qtbot.waitUntil(lambda: state.read_bytes() != before, timeout=5000)
    assert "only that tag and the file's updatedAt change" in asked[0]
    old = json.loads(before)
    expected = before.replace(b',\n    "@network"', b"").replace(str(old["updatedAt"]).encode(), b"1772000000000")
    assert state.read_bytes() == expected
    backups = list((store_with_revoked_rule / ".daycare-gui-backups").glob("*.bak"))
    assert [b.read_bytes() for b in backups] == [before]  # the file as it was, kept first
    # The window reloads the store: the contradiction is gone.
    qtbot.waitUntil(lambda: window.store is not None and window.store is not old_store, timeout=10000)
    window.show_section("apps")
    qtbot.waitUntil(lambda: "apps" in window.panes and window.panes["apps"].views["apps"].model.rowCount() == 3,
                    timeout=10000)
    fresh = window.panes["apps"].views["apps"]
    qtbot.waitUntil(lambda: all(fresh.model.record(r) for r in range(3)), timeout=5000)
    assert "still granted" not in " ".join(texts(fresh.model, PROBLEMS_COLUMN))


def test_revoke_is_cancelled_or_refused_without_writing(qtbot, window, store_with_revoked_rule, monkeypatch):
    state = store_with_revoked_rule / "workspace" / "apps" / "deploy-check" / "state.json"
    before = state.read_bytes()
    pane, view = _apps(qtbot, window, store_with_revoked_rule)
    _select(qtbot, view, "deploy-check")
    view.confirm_action = lambda action: False
    _action(view, "Revoke @network").click()
    assert state.read_bytes() == before

    # Daycare rewrote the file after the page showed it: nothing is written, and the person is told.
    state.write_bytes(before.replace(b"]", b', "@events"]', 1))
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: warned.append(a[1:3])))
    view.confirm_action = lambda action: True
    _action(view, "Revoke @network").click()
    qtbot.waitUntil(lambda: bool(warned), timeout=5000)
    assert state.read_bytes() == before.replace(b"]", b', "@events"]', 1)
    assert warned[0][0] == "Changed on disk" and "changed on disk" in warned[0][1]

"""Beside a PGlite store: settings and auth as masked outlines, a personal skill's earlier versions with
what changed, users' homes and databases as Files (a database opens as a store) — no planted secret."""

from __future__ import annotations

import pytest

from daycare_gui.stores import api, registry
from tests.stores.daycare_pg.datadir_files import SECRETS, plant_data_dir


@pytest.fixture
def store_dir(pglite_fixture, tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    plant_data_dir(pglite_fixture, home)
    (pglite_fixture / "users" / "user%2F1" / "home" / "knowledge").mkdir(parents=True)
    (pglite_fixture / "users" / "user%2F1" / "home" / "knowledge" / "SOUL.md").write_text("# Soul\n")
    return pglite_fixture


def test_outlines_versions_and_files_beside_a_pglite_store(store_dir):
    with registry.open_store(str(store_dir)) as store:
        docs = store.capability(api.Documents)
        refs = {r.id: r for r in docs.documents()}
        shown = []
        for name in ("config:settings.json", "config:auth.json"):
            assert refs[name].secret and docs.read(refs[name]) == b""
            shown += [repr(r) for r in docs.outline(refs[name])] + [repr(f) for f in docs.fields(refs[name])]
        personal = refs["skill:user:user/1/trip-planner"]
        versions = docs.versions(personal)
        assert [v.title for v in versions] == ["trip-planner version 1"] and versions[0].note.startswith("+")
        assert b"An older checklist" in docs.read_version(personal, versions[0].id)
        active = [r for r in refs.values() if r.source == "active"]
        assert active and all(r.derived_from and not r.editable for r in active)
        assert {r.title for r in docs.of_thread("agent-1")} == {"SYSTEM.md", "INFERENCE.md", "compaction_20261117.md"}
        assert docs.count() == sum(1 for r in refs.values() if not r.derived_from and r.source != "history")

        files = store.capability(api.Files)
        roots = {r.id: r for r in files.roots()}
        assert {"home:user/1", "databases:user/1"} <= set(roots)
        db = files.children("databases:user/1", "")
        assert [e.name for e in db] == ["db-1"] and db[0].opens_as.endswith("databases/db-1")
        assert files.preview("home:user/1", "knowledge/SOUL.md").text == "# Soul\n"
        shown += [repr(files.children(r, "")) for r in roots]
        text = "\n".join(shown)
        assert "apiKey" in text and "openai-codex" in text
        assert not [v for v in SECRETS.values() if v in text]

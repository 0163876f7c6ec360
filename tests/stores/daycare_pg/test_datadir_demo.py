"""The PGlite demo writes the data directory beside daycare.pglite/, and its fake credentials stay hidden."""

from __future__ import annotations

import json

from daycare_gui.cli import main
from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.datadir.demo import FAKE_SECRET
from tests.crash import sweep


def test_pglite_demo_has_a_data_directory_and_hides_its_credentials(pglite_demo, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert FAKE_SECRET in (pglite_demo / "settings.json").read_text()  # planted, so the checks below mean something
    with registry.open_store(pglite_demo) as store:
        docs = store.capability(api.Documents)
        groups = {d.id: d.group for d in docs.documents()}
        assert "skill:config:research/weather" in groups and "skill:user:u1owner/trip-planner" in groups
        assert "agent-file:ag00trip/SYSTEM.md" in groups
        assert any(d.startswith("skill-active:u1owner/") for d in groups)
        colls = store.capability(api.Collections)
        ids = {c.id for c in colls.collections()}
        assert {"files:settings", "files:auth", "files:user_secrets", "files:processes", "files:apps",
                "files:databases"} <= ids
        (proc,) = colls.rows("files:processes", 0, 10)
        assert proc.values[1:3] == ("blog preview", "running") and "VITE ready" in proc.markdown
        for record in sweep.texts(store):
            assert not sweep.leaks(record, (FAKE_SECRET, "sk-live-demo-secret-1234")), record[:300]
    assert main(["inspect", str(pglite_demo), "--json"]) == 0
    out = capsys.readouterr().out
    assert FAKE_SECRET not in out and json.loads(out)["data_dir"]["skills"] == {"config": 1, "personal": 1, "agents": 0}

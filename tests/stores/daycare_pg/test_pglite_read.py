"""A real PGlite store (the fixture Daycare 7c3c466c wrote) opens, reads, and stays byte-identical."""

from __future__ import annotations

import json

from daycare_gui.cli import main
from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.pg.catalog import MIGRATIONS
from daycare_gui.stores.records import SessionRef
from tests.conftest import snapshot_tree


def _inspect(path, capsys):
    code = main(["inspect", str(path), "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_inspect_data_dir_and_pglite_folder(pglite_fixture, capsys):
    before = snapshot_tree(pglite_fixture)
    for path in (pglite_fixture, pglite_fixture / "daycare.pglite"):
        code, report = _inspect(path, capsys)
        assert code == 0
        assert report["kind"] == "daycare" and report["generation"] == "pglite"
        assert report["migrations"]["applied"] == list(MIGRATIONS)  # applied order: applied_at, then name
        assert report["migrations"]["pending"] == [] and report["migrations"]["unknown"] == []
        counts = report["counts"]
        assert (counts["users"], counts["agents"], counts["sessions"], counts["session_history"]) == (1, 1, 1, 3)
        assert counts["user_connector_keys"] == 1 and counts["_migrations"] == 20 and len(counts) == 34
    assert snapshot_tree(pglite_fixture) == before  # the user's folder is never opened: not a byte changes
    assert not list(pglite_fixture.parent.glob(".daycare-gui-*"))


def test_fixture_conversation_reads_as_neutral_messages(pglite_fixture):
    with registry.open_store(pglite_fixture) as store:
        conv = store.capability(api.Conversations)
        (agent,) = conv.threads()
        assert "/telegram" in agent.subtitle
        (session,) = conv.sessions(agent.id)
        assert session.message_count == 3
        messages = conv.messages(SessionRef(agent.id, session.ref.session_id), 0, 10)
        assert [m.kind for m in messages] == ["user_message", "assistant_message", "note"]
        assert all(m.text for m in messages)
        copy = store.server.workdir
    assert not copy.exists()  # the private copy is deleted when the store closes


def test_demo_store_written_by_pglite_browses(pglite_demo):
    with registry.open_store(pglite_demo) as store:
        tasks = {t.id: t for t in store.capability(api.Tasks).tasks()}
        assert tasks["cron-digest"].timezone == "Europe/Lisbon" and tasks["cron-digest"].body
        assert not tasks["cron-plants"].enabled
        docs = store.capability(api.Documents)
        prefs = next(d for d in docs.documents() if d.title == "Preferences")
        assert b"Early flights" in docs.read(prefs)  # the current version, not the first
        colls = store.capability(api.Collections)
        versions = colls.rows("versions:documents", 0, 10)
        changed = [r.values[-1] for r in versions if r.values[0].endswith("doc-prefs")]
        assert changed == ["first version", "body"]
        processes = colls.rows("processes", 0, 10)
        assert "sk-live-demo-secret" not in json.dumps(processes[0].raw)  # secrets masked
        tables = store.capability(api.Tables)
        assert len([t for t in tables.tables()]) == 34


def test_missing_node_says_what_to_install(pglite_fixture, monkeypatch, capsys):
    monkeypatch.setenv("DAYCARE_GUI_NODE", "")
    monkeypatch.setenv("PATH", "/nonexistent")
    assert main(["inspect", str(pglite_fixture)]) == 2
    err = capsys.readouterr().err
    assert "needs Node.js" in err and "apt-get install nodejs" in err and "Traceback" not in err

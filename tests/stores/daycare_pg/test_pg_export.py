"""``daycare-gui export`` on today's Daycare: a real PGlite store and a PostgreSQL server."""

from __future__ import annotations

from daycare_gui.cli import main
from daycare_gui.stores import api, registry
from tests.conftest import snapshot_tree
from tests.stores.export.check import assert_export_matches


def _first_session(path):
    with registry.open_store(path, live=False) as store:
        cap = store.capability(api.Conversations)
        sessions = [s for t in cap.threads() for s in cap.sessions(t.id)]
        best = max(sessions, key=lambda s: cap.message_count(s.ref))
        return best.ref, cap.messages(best.ref, 0, 10_000)


def test_pglite_store_exports_in_every_format(pglite_fixture, capsys):
    ref, messages = _first_session(pglite_fixture)
    before = snapshot_tree(pglite_fixture)
    for fmt in ("md", "html", "jsonl"):
        assert main(["export", str(pglite_fixture), f"session:{ref.session_id}", "--format", fmt]) == 0
        assert_export_matches(messages, fmt, capsys.readouterr().out)
    assert snapshot_tree(pglite_fixture) == before


def test_postgres_store_exports_and_masks_the_url(pg_demo_url, capsys):
    ref, messages = _first_session(pg_demo_url)
    assert main(["export", pg_demo_url, f"session:{ref.session_id}", "--format", "md"]) == 0
    text = capsys.readouterr().out
    assert_export_matches(messages, "md", text)
    password = pg_demo_url.split("://", 1)[1].split("@")[0].partition(":")[2]
    assert not password or password not in text
    assert main(["export", pg_demo_url, "session:nope"]) == 2
    assert "no session 'nope'" in capsys.readouterr().err

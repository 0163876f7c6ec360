"""Opening and browsing never writes a byte; the demo home is a realistic Linggen home."""

import json

from daycare_gui.cli import main
from daycare_gui.stores.api import Charts, Collections, Conversations, Documents, SearchSource
from daycare_gui.stores.linggen import KIND, write_demo
from tests.conftest import snapshot_tree


def _browse(store) -> None:
    conv = store.capability(Conversations)
    for thread in conv.threads():
        for session in conv.sessions(thread.id):
            conv.messages(session.ref, 0, conv.message_count(session.ref))
    cols = store.capability(Collections)
    for c in cols.collections():
        for row in cols.rows(c.id, 0, cols.size(c.id)):
            cols.editable(c.id, row)
    docs = store.capability(Documents)
    for ref in docs.documents():
        docs.read(ref)
    list(store.capability(SearchSource).messages(None))
    store.capability(Charts).activity_per_day()
    store.report()
    store.summary()
    store.writes_blocked()


def test_open_browse_and_inspect_write_nothing(tmp_path, capsys):
    home = write_demo(tmp_path / "home")
    before = snapshot_tree(tmp_path)
    with KIND.open(home) as store:
        _browse(store)
    assert main(["inspect", str(home), "--json"]) == 0
    capsys.readouterr()
    assert snapshot_tree(tmp_path) == before


def test_demo_home_has_every_kind_of_record(tmp_path, capsys):
    home = write_demo(tmp_path / "home")
    assert KIND.probe(home).confidence == 1.0
    assert main(["inspect", str(home), "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["kind"] == "linggen" and r["generation"] == "per-project+flat" and r["problems"] == []
    c = r["counts"]
    assert c["projects"] == 2 and c["sessions"] == 9 and c["plan_messages"] == 1 and c["runs_failed"] == 1
    assert c["missions_active"] >= 1 and c["agents"] == 2 and c["skills"] == 2 and c["plans"] == 1
    with KIND.open(home) as store:
        rows = store.capability(Collections).rows("permissions", 0, 10)
        assert sorted(r.values[1] for r in rows) == ["(none)", "Write, Edit"]
        creds = store.capability(Collections).rows("credentials", 0, 10)
        assert all("Demo" not in str(r.values) and "demo" not in str(r.raw) for r in creds)


def test_demo_refuses_a_non_empty_folder(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "f").write_text("keep")
    import pytest

    with pytest.raises(FileExistsError):
        write_demo(tmp_path / "x")
    assert (tmp_path / "x" / "f").read_text() == "keep"


def test_the_demo_lists_each_project_once_and_every_count_agrees(tmp_path):
    # "shop" has per-project sessions and a flat one: it is one project, listed once, counted once.
    home = write_demo(tmp_path / "home")
    with KIND.open(home) as store:
        conv = store.capability(Conversations)
        threads = conv.threads()
        assert sorted(t.title for t in threads) == ["blog", "shop"]
        shop = next(t for t in threads if t.title == "shop")
        # three per-project sessions, the flat "Plan the payment page" and the four its nightly mission made
        assert shop.session_count == 8
        titles = [s.title for s in conv.sessions(shop.id)]
        assert "Plan the payment page" in titles and "Shop task 1" in titles
        assert dict(store.summary().facts)["Projects"] == "2" == str(conv.count())
        assert store.counts()["projects"] == 2

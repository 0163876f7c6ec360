"""The history from before PGlite: a data dir holding today's ``daycare.pglite/`` and the old ``daycare.db``
(which Daycare never imported) shows the old conversations as "Before PGlite (until <date>)", browsable
and searchable beside today's, and the old file is never written."""

from __future__ import annotations

import datetime as _dt
import json
import shutil
import sqlite3

import pytest

from daycare_gui.cli import main
from daycare_gui.stores import registry
from daycare_gui.stores.api import Conversations, Directory
from tests.conftest import snapshot_tree
from tests.stores.daycare_pg.before_pglite_dir import OLD_WORD, OLD_WORD_AT, add_old_daycare_db

UNTIL = _dt.datetime.fromtimestamp(OLD_WORD_AT / 1000).strftime("%Y-%m-%d")
HEADING = f"Before PGlite (until {UNTIL})"


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


@pytest.fixture
def both(pglite_demo_master, tmp_path):
    """A copy of the PGlite demo with the SQLite demo's daycare.db beside it; (folder, agent, session)."""
    dest = tmp_path / "store"
    shutil.copytree(pglite_demo_master, dest)
    agent, session = add_old_daycare_db(dest, tmp_path / "old")
    return dest, agent, session


def _old_counts(db_path) -> dict[str, int]:
    conn = sqlite3.connect(f"file:{db_path}?immutable=1", uri=True)
    try:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("users", "agents", "sessions", "session_history")}
    finally:
        conn.close()


def test_inspect_reports_the_old_history_with_its_counts_and_last_date(both, capsys):
    folder, _agent, _session = both
    assert main(["inspect", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    old = report["before_pglite"]
    assert old["label"] == "Before PGlite" and old["read_only"] is True
    assert old["until"] == UNTIL and old["until_ms"] == OLD_WORD_AT
    assert old["counts"] == _old_counts(folder / "daycare.db")
    assert report["counts"]["agents"] == 15  # today's store counts only its own rows (13, and 2 task agents)


def test_old_agents_are_browsable_beside_todays_and_open_from_a_deep_link(both):
    folder, agent, session = both
    before = (snapshot_tree(folder), (folder / "daycare.db").read_bytes())
    with registry.open_store(folder) as store:
        conv = store.capability(Conversations)
        threads = conv.threads()
        today = [t for t in threads if not t.id.startswith("before-pglite:")]
        old = [t for t in threads if t.id.startswith("before-pglite:")]
        assert len(today) == 15 and len(old) == _old_counts(folder / "daycare.db")["agents"]
        assert all(t.title.endswith("(before PGlite)") and t.subtitle.startswith(HEADING) for t in old)
        assert conv.count() == len(threads)
        mine = next(t for t in old if t.id == f"before-pglite:{agent}")
        assert conv.thread_place(mine) == f"{HEADING}, agent {agent}"
        ref = next(s.ref for s in conv.sessions(mine.id) if s.ref.session_id == session)
        n = conv.message_count(ref)
        last = conv.messages(ref, n - 1, 1)[0]
        assert OLD_WORD in last.text and last.role == "user"
        assert conv.find_session(session) == ref  # `--open session:<id>` finds it
        assert [e.ref for e in store.capability(Directory).entries() if e.kind == "session" and e.key == session] == [ref]
        facts = dict(store.summary().facts)
        assert facts[HEADING].startswith(f"{len(old)} agents")
    assert (snapshot_tree(folder), (folder / "daycare.db").read_bytes()) == before  # nothing written, nothing left


def test_search_finds_a_word_said_only_before_pglite_and_says_so(both, capsys):
    folder, agent, session = both
    names = sorted(p.name for p in folder.iterdir())
    old_bytes = (folder / "daycare.db").read_bytes()
    assert main(["search", str(folder), OLD_WORD]) == 0
    out = capsys.readouterr().out
    assert "1 match" in out and f"(before PGlite)  {HEADING}, agent {agent}" in out
    assert main(["search", str(folder), OLD_WORD, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(g["thread_id"], [s["session_id"] for s in g["sessions"]]) for g in data["groups"]] == [
        (f"before-pglite:{agent}", [session])]
    assert data["groups"][0]["thread"].endswith("(before PGlite)")
    assert main(["search", str(folder), "Lisbon", "--json"]) == 0  # today's history is still searched
    today = json.loads(capsys.readouterr().out)
    assert [g for g in today["groups"] if not g["thread_id"].startswith("before-pglite:")]
    # Nothing was written beside or into the old file: no -wal, -shm or journal, the same bytes.
    assert sorted(p.name for p in folder.iterdir()) == names
    assert (folder / "daycare.db").read_bytes() == old_bytes


def test_a_pglite_store_without_an_old_file_shows_only_todays_history(pglite_demo, capsys):
    assert main(["inspect", str(pglite_demo), "--json"]) == 0
    assert "before_pglite" not in json.loads(capsys.readouterr().out)

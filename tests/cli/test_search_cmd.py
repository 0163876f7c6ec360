"""`daycare-gui search PATH QUERY`: builds the index (progress on stderr), prints grouped results, writes
nothing into the store, and keeps the index out of it."""

import json
import shutil

import pytest

from daycare_gui.cli import main
from daycare_gui.stores.daycare.demo import write_demo
from tests.conftest import snapshot_tree


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("search-cli") / "daycare"
    write_demo(dest)
    return dest


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


def test_human_output_groups_by_agent_and_session(demo, capsys, index_dir):
    before = snapshot_tree(demo)
    assert main(["search", str(demo), "Lisbon"]) == 0
    out, err = capsys.readouterr()
    assert "indexed" in err
    assert out.startswith("9 matches")
    assert "[Lisbon]" in out and "  session " in out and "    #" in out
    assert snapshot_tree(demo) == before
    assert list(index_dir.rglob("*.sqlite"))  # the index is kept there, never in the store


def test_json_output_and_filters(demo, capsys):
    assert main(["search", str(demo), "lisbon", "--json", "--agent-kind", "subagent"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] >= 1 and {g["kind"] for g in data["groups"]} == {"subagent"}
    hit = data["groups"][0]["sessions"][0]["hits"][0]
    assert {"record_id", "type", "at", "snippet"} <= set(hit) and "[" in hit["snippet"]


def test_second_run_is_incremental_and_limit_applies(demo, capsys):
    main(["search", str(demo), "the", "--limit", "3", "--json"])
    capsys.readouterr()
    assert main(["search", str(demo), "the", "--limit", "3", "--json", "--type", "note"]) == 0
    out, err = capsys.readouterr()
    assert "indexed" not in err  # nothing new to index
    data = json.loads(out)
    hits = [h for g in data["groups"] for s in g["sessions"] for h in s["hits"]]
    assert len(hits) <= 3 and {h["type"] for h in hits} <= {"note"}


@pytest.mark.parametrize("query", ['"unterminated', "AND OR", "*"])
def test_bad_syntax_is_harmless(demo, capsys, query):
    assert main(["search", str(demo), query]) == 0


def test_not_a_store(tmp_path, capsys):
    assert main(["search", str(tmp_path / "nope"), "x"]) == 2
    assert "daycare-gui" in capsys.readouterr().err


def test_index_dir_option(demo, tmp_path, capsys):
    target = tmp_path / "elsewhere"
    assert main(["search", str(demo), "lisbon", "--index-dir", str(target), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["index"].startswith(str(target))
    shutil.rmtree(target)


# -- issue 18, item 13 -------------------------------------------------------------------------------------

def _json(capsys):
    return json.loads(capsys.readouterr().out)


def test_a_leading_dash_word_is_an_exclusion_not_an_option(demo, capsys):
    assert main(["search", str(demo), "lisbon", "--json"]) == 0
    everything = _json(capsys)
    assert main(["search", str(demo), "lisbon", "-flights", "--json"]) == 0
    excluded = _json(capsys)
    assert 0 < excluded["total"] < everything["total"]
    for args in (["-flights", "lisbon", "--json"], ["--json", "--", "-flights", "lisbon"],
                 ["-flights lisbon", "--json"]):
        assert main(["search", str(demo), *args]) == 0
        same = _json(capsys)
        assert same["expression"] == '("lisbon") NOT "flights"' and same["total"] == excluded["total"], args
    assert main(["search", "--json", "--", str(demo), "-flights", "lisbon"]) == 0
    assert _json(capsys)["total"] == excluded["total"]


@pytest.mark.parametrize("limit", ["0", "-5", "many"])
def test_limit_must_be_a_positive_number(demo, capsys, limit):
    with pytest.raises(SystemExit) as stop:
        main(["search", str(demo), "lisbon", "--limit", limit])
    assert stop.value.code == 2
    assert "argument --limit:" in capsys.readouterr().err


def test_legacy_store_is_searched_from_its_history_files(fixture_copy, capsys, index_dir):
    store = fixture_copy("daycare-808af509", with_db=False)
    before = snapshot_tree(store)
    assert main(["search", str(store), "hello", "--json"]) == 0
    data = _json(capsys)
    assert data["total"] == 1
    group = data["groups"][0]
    assert (group["agent_id"], group["kind"], group["lifecycle"]) == ("agentusr1", "user", "active")
    session = group["sessions"][0]
    # The window's ids: session <agent>#<n>, record = line in history.jsonl (line 1 is the start marker).
    assert session["session_id"] == "agentusr1#1"
    assert [(h["record_id"], h["type"], h["at"]) for h in session["hits"]] == [(2, "user_message", 1739999001000)]
    assert main(["search", str(store), "booted"]) == 0
    out, err = capsys.readouterr()
    assert "agentusr1#2" in out and "#5 " in out and "note" in out
    assert "indexed" not in err  # the second run found the index up to date
    assert main(["search", str(store), "hello", "--agent-kind", "cron", "--json"]) == 0
    assert _json(capsys)["total"] == 0
    assert snapshot_tree(store) == before

    # A history file that changed is indexed again.
    history = store / "agents" / "agentusr1" / "history.jsonl"
    history.chmod(0o644)
    with history.open("a") as fh:
        fh.write('{"type":"note","at":1739999009000,"text":"hello again"}\n')
    assert main(["search", str(store), "hello", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["total"] == 2 and "rebuilt the index" in err


def test_snippets_printed_mask_secrets_as_every_view_does(tmp_path, capsys):
    """A key pasted into a chat is masked in the window and in exports: the command line prints it
    masked too, in both forms."""
    import sqlite3

    dest = tmp_path / "daycare"
    write_demo(dest)
    conn = sqlite3.connect(dest / "daycare.db")
    sid = conn.execute("SELECT id FROM sessions LIMIT 1").fetchone()[0]
    text = ("my key is sk-ant-api03-QAsecretQAsecretQAsecret0123 and github ghp_QAsecretQAsecretQAsecret012345 "
            "and db postgresql://bob:hunter2pass@db.example.com/x")
    conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'user_message', ?, ?)",
                 (sid, 1_700_000_000_000, json.dumps({"text": text, "files": []})))
    conn.commit()
    conn.close()
    for extra in ([], ["--json"]):
        assert main(["search", str(dest), "key is", *extra]) == 0
        out = capsys.readouterr().out
        assert "QAsecret" not in out and "hunter2pass" not in out and "••••" in out


def test_ctrl_c_while_indexing_keeps_what_was_indexed_and_exits_130(demo, capsys, monkeypatch):
    import daycare_gui.stores.common.search_build as command

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "update_source_index", interrupted)
    assert main(["search", str(demo), "lisbon"]) == 130
    assert "indexing interrupted; what was indexed is kept" in capsys.readouterr().err

"""`daycare-gui search PATH QUERY`: builds the index (progress on stderr), prints grouped results, writes
nothing into the store, and keeps the index out of it."""

import json
import shutil

import pytest

from daycare_gui.cli import main
from daycare_gui.core.demo import write_demo
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
    assert list(index_dir.glob("*.sqlite"))


def test_json_output_and_filters(demo, capsys):
    assert main(["search", str(demo), "lisbon", "--json", "--kind", "subagent"]) == 0
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

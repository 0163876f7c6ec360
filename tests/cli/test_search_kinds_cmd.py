"""`daycare-gui search PATH QUERY` on stores of other kinds: the kind is detected (or named with
--store-kind), the shared index is built in the cache folder, and results are grouped by thread and
session. Daycare's SQLite stores keep their own search (tests/cli/test_search_cmd.py)."""

from __future__ import annotations

import json

import pytest

from daycare_gui.cli import main
from daycare_gui.stores import registry
from tests.conftest import snapshot_tree
from tests.stores.plugin import install_chatlog_entry_point


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


@pytest.fixture
def home(tmp_path):
    from daycare_gui.stores.linggen.demo import write_demo

    return write_demo(tmp_path / "home")


def test_linggen_home_human_output(home, capsys, index_dir):
    before = snapshot_tree(home)
    assert main(["search", str(home), "tests"]) == 0
    out, err = capsys.readouterr()
    assert "indexed" in err and "messages" in err
    # shop (both layouts, its nightly tests mission's sessions too) and blog
    assert out.startswith("28 matches; showing 28 in 2 threads")
    shop = next(line for line in out.splitlines() if line.startswith("shop"))
    assert shop.endswith("/demo-workspaces/shop")  # the project's path, not its encoded folder name
    assert "per-project:" not in out and "  session sess-" in out
    assert "    #L6 " in out and "assistant: Fixed; all [tests] pass now." in out
    assert snapshot_tree(home) == before
    assert list((index_dir / "sources").glob("*.sqlite"))
    assert main(["search", str(home), "tests"]) == 0
    assert "indexed" not in capsys.readouterr().err  # the second run has nothing new


def test_linggen_json_with_role_and_time_filters(home, capsys):
    assert main(["search", str(home), "test", "--json", "--role", "user", "--since", "2026-01-02",
                 "--until", "2026-01-03", "--limit", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "linggen" and data["index"].endswith(".sqlite")
    hits = [h for g in data["groups"] for s in g["sessions"] for h in s["hits"]]
    assert len(hits) == 1 and hits[0]["role"] == "user" and "[test]" in hits[0]["snippet"]
    assert {"message_id", "role", "kind", "at", "snippet"} <= set(hits[0])
    assert data["groups"][0]["thread"] == "shop"


def test_store_kind_option_and_its_mistakes(home, capsys):
    assert main(["search", str(home), "tests", "--store-kind", "linggen", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 28  # (as in test_linggen_home_human_output)
    assert main(["search", str(home), "tests", "--store-kind", "nonesuch"]) == 2
    assert "unknown store kind 'nonesuch'" in capsys.readouterr().err
    assert main(["search", str(home), "x", "--since", "yesterday"]) == 2
    assert "--since 'yesterday' is not a date" in capsys.readouterr().err


def test_an_outside_kind_is_searched_too(monkeypatch, tmp_path, capsys):
    install_chatlog_entry_point(monkeypatch, tmp_path)
    try:
        from chatlog_kind import write_chatlog

        store = write_chatlog(tmp_path / "chats")
        assert main(["search", str(store), "pods", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["kind"] == "chatlog" and data["groups"][0]["thread"] == "Ops"
    finally:
        registry.unregister("chatlog")


def test_daycare_sqlite_keeps_its_own_search(tmp_path, capsys):
    from daycare_gui.stores.daycare.demo import write_demo

    store = tmp_path / "daycare"
    write_demo(store)
    assert main(["search", str(store), "Lisbon"]) == 0
    assert capsys.readouterr().out.startswith("9 matches")  # Daycare's output, unchanged
    assert main(["search", str(store), "Lisbon", "--role", "user", "--rebuild"]) == 2
    assert capsys.readouterr().err == ("daycare-gui: --role and --rebuild do not apply to this Daycare store; its "
                                       "search takes --agent-kind, --lifecycle, --user, --type and --newest\n")


def test_not_a_store_still_says_so(tmp_path, capsys):
    assert main(["search", str(tmp_path / "nope"), "x"]) == 2
    assert "daycare-gui" in capsys.readouterr().err


def test_ctrl_c_while_indexing_another_kind_exits_130_and_says_so(home, capsys, monkeypatch):
    import daycare_gui.stores.common.search_index as search_index

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(search_index, "update_source_index", interrupted)
    assert main(["search", str(home), "payment"]) == 130
    assert "indexing interrupted; what was indexed is kept" in capsys.readouterr().err

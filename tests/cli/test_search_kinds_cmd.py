"""`daycare-gui search PATH QUERY` on stores of other kinds: the kind is detected (or named with
--store-kind), the shared index is built in the cache folder, and results are grouped by thread and
session. Daycare's SQLite and legacy stores go through the same door (tests/cli/test_search_cmd.py)."""

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


def test_daycare_sqlite_goes_through_the_same_door(tmp_path, capsys):
    """Every Daycare generation is searched through its SearchSource as every other kind: the shared
    filters apply to the SQLite generation too (its own search refused --role, --since and --rebuild), the
    agents' kind and lifecycle come from the facets its source declares, and the JSON keeps the names
    Daycare's own search printed beside the shared ones."""
    from daycare_gui.stores.daycare.demo import write_demo

    store = tmp_path / "daycare"
    write_demo(store)
    assert main(["search", str(store), "Lisbon"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("9 matches") and "\nFlight research  [subagent, dead]  " in out
    assert main(["search", str(store), "Lisbon", "--role", "user", "--rebuild", "--json"]) == 0
    said = capsys.readouterr()
    data = json.loads(said.out)
    assert "rebuilt the index: a rebuild was asked for" in said.err
    hits = [h for g in data["groups"] for s in g["sessions"] for h in s["hits"]]
    assert data["kind"] == "daycare" and len(hits) == 3 and {h["role"] for h in hits} == {"user"}
    assert all(h["type"] == h["kind"] == "user_message" and h["record_id"] == int(h["message_id"]) for h in hits)
    flights = next(g for g in data["groups"] if g["thread"] == "Flight research")
    assert (flights["agent_id"], flights["agent"], flights["kind"], flights["lifecycle"]) == (
        flights["thread_id"], "Flight research", "subagent", "dead")
    assert main(["search", str(store), "Lisbon", "--since", "2026-02-05", "--json"]) == 0
    later = [h["at"] for g in json.loads(capsys.readouterr().out)["groups"] for s in g["sessions"]
             for h in s["hits"]]
    assert later and min(later) >= 1_770_249_600_000  # 2026-02-05 UTC


def test_a_facet_value_the_store_does_not_know_is_said(tmp_path, capsys):
    from daycare_gui.stores.daycare.demo import write_demo

    store = tmp_path / "daycare"
    write_demo(store)
    assert main(["search", str(store), "Lisbon", "--agent-kind", "subagnet", "--json"]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out)["total"] == 0
    assert "daycare-gui: --agent-kind 'subagnet' is none of this store's values (user, cron, " in said.err


def test_not_a_store_still_says_so(tmp_path, capsys):
    assert main(["search", str(tmp_path / "nope"), "x"]) == 2
    assert "daycare-gui" in capsys.readouterr().err


def test_ctrl_c_while_indexing_another_kind_exits_130_and_says_so(home, capsys, monkeypatch):
    import daycare_gui.stores.common.search_build as search_build

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(search_build, "update_source_index", interrupted)
    assert main(["search", str(home), "payment"]) == 130
    assert "indexing interrupted; what was indexed is kept" in capsys.readouterr().err

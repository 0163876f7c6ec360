"""One command language for ``search`` (issue 34, items 3 and 4): ``--kind`` is the store kind, as in inspect,
export and the window; Daycare's agent filters have their own names; a filter that does not apply to a
kind is refused in the same one sentence for every kind; an AgentStack store is searched as the window
searches it (its memory, through its own BM25 index), with ``--json`` in the same shape as other kinds."""

from __future__ import annotations

import json
import re

import pytest

from daycare_gui.cli import main


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    from daycare_gui.stores.agentstack import write_demo as write_agentstack
    from daycare_gui.stores.cianaparrot import write_demo as write_ciana
    from daycare_gui.stores.daycare.demo import write_demo
    from daycare_gui.stores.linggen import write_demo as write_linggen

    root = tmp_path_factory.mktemp("language")
    write_demo(root / "daycare")
    write_linggen(root / "linggen")
    write_agentstack(root / "agentstack")
    write_ciana(root / "cianaparrot")
    return root


def _hits(data: dict) -> list[dict]:
    return [h for g in data["groups"] for s in g["sessions"] for h in s["hits"]]


def test_kind_names_the_store_kind_as_in_inspect_and_export(stores, capsys):
    assert main(["search", str(stores / "linggen"), "tests", "--kind", "linggen", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "linggen" and data["total"] > 0
    assert main(["search", str(stores / "daycare"), "Lisbon", "--kind", "daycare"]) == 0
    assert capsys.readouterr().out.startswith("9 matches")


def test_agent_kind_filters_daycare_agents(stores, capsys):
    assert main(["search", str(stores / "daycare"), "lisbon", "--json", "--agent-kind", "subagent"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] >= 1 and {g["kind"] for g in data["groups"]} == {"subagent"}


def test_the_old_store_kind_option_still_works_unlisted(stores, capsys):
    assert main(["search", str(stores / "linggen"), "tests", "--store-kind", "linggen", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["kind"] == "linggen"
    with pytest.raises(SystemExit):
        main(["search", "--help"])
    assert "--store-kind" not in capsys.readouterr().out


def test_an_agent_kind_given_as_kind_says_what_to_write(stores, capsys):
    assert main(["search", str(stores / "daycare"), "lisbon", "--kind", "subagent"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("daycare-gui: unknown store kind 'subagent'; known: daycare, ")
    assert "use --agent-kind subagent" in err


SENTENCE = re.compile(r"daycare-gui: (--[a-z-]+)( and --[a-z-]+)? (does|do) not apply to this [A-Za-z]+ store; "
                      r"its search takes [^\n]+\n")


@pytest.mark.parametrize("store, filters", [
    ("agentstack", ["--role", "user"]),  # (every Daycare generation now takes every filter)
    ("linggen", ["--lifecycle", "dead"]),
    ("linggen", ["--agent-kind", "cron"]),
    ("cianaparrot", ["--type", "note"]),
    ("cianaparrot", ["--user", "u1"]),
    ("agentstack", ["--since", "2026-01-01"]),
    ("agentstack", ["--newest"]),
])
def test_a_filter_that_does_not_apply_is_refused_alike_for_every_kind(stores, capsys, store, filters):
    assert main(["search", str(stores / store), "tests", *filters]) == 2
    out, err = capsys.readouterr()
    assert out == "" and SENTENCE.fullmatch(err), err
    assert filters[0] in err


def test_agentstack_memory_is_searched_as_the_window_searches_it(stores, capsys):
    from daycare_gui.stores import api, registry

    with registry.open_store(str(stores / "agentstack")) as store:
        window = store.capability(api.Collections).search_rows("memory", "migration")
    assert main(["search", str(stores / "agentstack"), "migration", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "agentstack" and data["total"] == len([r for r in window if r.key]) >= 1
    hits = _hits(data)
    assert [h["message_id"] for h in hits] == [r.key for r in window if r.key]
    assert {"message_id", "role", "kind", "at", "snippet"} <= set(hits[0])
    assert "[migration]" in hits[0]["snippet"].lower()
    assert main(["search", str(stores / "agentstack"), "migration"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 match for 'migration'") and "db-migrations" in out
    assert set(hits[0]["values"]) == {"key", "namespace", "score"} and hits[0]["values"]["key"] == "db-migrations"


def test_json_has_the_same_shape_for_every_kind(stores, capsys):
    shapes = {}
    for store, word in (("linggen", "tests"), ("cianaparrot", "weather"), ("agentstack", "shop")):
        assert main(["search", str(stores / store), word, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert _hits(data), store
        shapes[store] = (frozenset(data), frozenset(data["groups"][0]),
                         frozenset(data["groups"][0]["sessions"][0]),
                         frozenset(_hits(data)[0]) & {"message_id", "role", "kind", "at", "snippet"})
    assert len(set(shapes.values())) == 1, shapes

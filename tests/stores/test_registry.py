"""The registry picks the kind that recognises a path; a kind from another package plugs in."""

from __future__ import annotations

import json

import pytest

from daycare_gui.cli import main
from daycare_gui.stores import api, registry
from daycare_gui.stores.records import SessionRef
from tests.conftest import snapshot_tree
from tests.stores.plugin import install_chatlog_entry_point


@pytest.fixture
def chatlog(monkeypatch, tmp_path):
    install_chatlog_entry_point(monkeypatch, tmp_path)
    from chatlog_kind import write_chatlog  # importable once the "package" is installed

    yield write_chatlog(tmp_path / "store")
    registry.unregister("chatlog")


def _inspect(path, capsys, *extra):
    code = main(["inspect", str(path), "--json", *extra])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", ["daycare-808af509", "daycare-newer", "daycare-stuck"])
def test_daycare_fixtures_are_kind_daycare(fixture_copy, capsys, name):
    code, report = _inspect(fixture_copy(name), capsys)
    assert code == 0
    assert report["kind"] == "daycare"
    assert report["generation"] == "sqlite"


def test_empty_folder_exits_2_naming_every_kind(tmp_path, capsys):
    code, report = _inspect(tmp_path, capsys)
    assert code == 2
    tried = {t["kind"] for t in report["kinds_tried"]}
    assert tried == set(registry.kind_names())
    assert all(t["reason"] for t in report["kinds_tried"])


def test_random_file_exits_2_with_a_reason_per_kind(tmp_path, capsys):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01not a store")
    assert main(["inspect", str(junk)]) == 2
    err = capsys.readouterr().err
    assert "not a store that daycare-gui knows" in err
    for name in registry.kind_names():
        assert f"\n  {name}" in err  # one line per kind, saying why it declined
    assert "Traceback" not in err


def test_outside_kind_plugs_in_through_the_entry_point(chatlog, capsys):
    assert "chatlog" in registry.kind_names()
    code, report = _inspect(chatlog, capsys)
    assert code == 0
    assert report["kind"] == "chatlog"
    assert report["counts"] == {"threads": 2, "sessions": 3}
    # the daycare kind declines it, so detection chose the chatlog kind
    daycare = next(c for c in registry.probe(chatlog) if c.kind == "daycare")
    assert not daycare.recognised


def test_outside_kind_serves_neutral_conversations(chatlog):
    before = snapshot_tree(chatlog)
    with registry.open_store(chatlog) as store:
        conv = store.capability(api.Conversations)
        assert [t.id for t in conv.threads()] == ["home", "ops"]
        ref = SessionRef("ops", "s1")
        messages = conv.messages(ref, 0, 10)
        assert [m.role for m in messages] == ["user", "assistant", "tool", "assistant"]
        assert messages[1].tool_calls[0].name == "deploy_status"
        assert messages[2].tool_result.call_id == messages[1].tool_calls[0].id
        assert conv.messages(ref, 2, 1)[0].tool_result.text == "green: 42 pods"
        # the broken line is a problem with its path and line, and the rest still reads
        assert conv.message_count(SessionRef("home", "b")) == 1
        assert any(p.line == 2 and p.path.endswith("b.jsonl") for p in store.problems)
    assert snapshot_tree(chatlog) == before  # reading never writes a byte


def test_forced_kind_that_declines_exits_2(fixture_copy, capsys, chatlog):
    root = fixture_copy("daycare-808af509")
    assert main(["inspect", str(root), "--kind", "chatlog"]) == 2
    assert "CHATLOG" in capsys.readouterr().err


def test_unknown_kind_name_exits_2(fixture_copy, capsys):
    assert main(["inspect", str(fixture_copy("daycare-newer")), "--kind", "nosuch"]) == 2
    assert "unknown store kind 'nosuch'" in capsys.readouterr().err


def test_a_kind_that_fails_to_import_declines_with_its_error(tmp_path):
    registry.register("broken", "no_such_module_anywhere")
    try:
        answer = next(c for c in registry.probe(tmp_path) if c.kind == "broken")
        assert not answer.recognised
        assert "failed to load" in answer.reason and "ModuleNotFoundError" in answer.reason
    finally:
        registry.unregister("broken")


def test_database_password_never_shown_when_nothing_recognises_a_url(capsys):
    assert main(["inspect", "postgresql://me:hunter2@localhost/db"]) == 2
    captured = capsys.readouterr()
    assert "hunter2" not in captured.out + captured.err

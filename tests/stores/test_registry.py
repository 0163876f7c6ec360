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


class _Spy(api.StoreKind):
    """A kind that records every path it is asked about and always answers with ``confidence``."""

    name = title = "spy"

    def __init__(self, confidence: float) -> None:
        self.confidence, self.asked = confidence, []

    def probe(self, path):
        self.asked.append(path)
        return api.Candidate(self.name, self.confidence, "a spy")

    def open(self, path, *, live=True):
        raise api.NotRecognised("a spy opens nothing")


def test_a_daycare_store_is_chosen_without_asking_the_other_kinds(fixture_copy):
    root = fixture_copy("daycare-newer")
    spy = _Spy(1.0)  # even a kind as sure as Daycare loses the tie: Daycare comes first
    registry.register("spy", spy)
    try:
        assert registry.choose(root).name == "daycare"
        assert spy.asked == []
        assert registry.probe(root)[1].kind == "spy"  # inspect still hears every kind
    finally:
        registry.unregister("spy")


def test_a_path_daycare_is_not_sure_of_still_goes_to_the_most_confident_kind(tmp_path):
    (tmp_path / "agents").mkdir()  # a folder named like Daycare's, no descriptor: Daycare is unsure
    spy = _Spy(0.8)
    registry.register("spy", spy)
    try:
        assert registry.choose(tmp_path).name == "spy"
        assert spy.asked == [tmp_path]
    finally:
        registry.unregister("spy")


def test_installed_packages_are_scanned_once(monkeypatch, tmp_path):
    scans = []
    real = registry._scan_entry_points
    monkeypatch.setattr(registry, "_scan_entry_points", lambda: scans.append(1) or real())
    monkeypatch.setattr(registry, "_scanned", None)
    for _ in range(3):
        registry.kind_names()
        registry.probe(tmp_path)
    assert len(scans) == 1


def test_a_thread_that_must_not_import_is_told_when_more_kinds_are_needed(monkeypatch, fixture_copy, tmp_path):
    from daycare_gui.stores.linggen import write_demo

    monkeypatch.setattr(registry, "_loaded", {})
    monkeypatch.setattr(registry, "_scanned", None)
    home = write_demo(tmp_path / "linggen")
    registry.prepare_probe()  # Daycare's kind only
    assert list(registry._loaded) == ["daycare"]
    assert registry.choose_loaded(fixture_copy("daycare-newer")) == "daycare"
    assert registry.choose_loaded(home) is None  # Daycare is not sure: the other kinds are needed
    registry.prepare_probe(everything=True)
    assert registry.choose_loaded(home) == "linggen"
    with pytest.raises(registry.NoKindRecognised):
        registry.choose_loaded(tmp_path / "nothing here")


def test_postgres_files_in_a_daycare_db_folder_are_not_opened_as_pglite(tmp_path, capsys):
    """Daycare never keeps PGlite at daycare.db: naming that folder shows the damage, not a PGlite store."""
    (tmp_path / "daycare.db" / "global").mkdir(parents=True)
    (tmp_path / "daycare.db" / "PG_VERSION").write_text("17\n")
    before = snapshot_tree(tmp_path)
    code, report = _inspect(tmp_path / "daycare.db", capsys)
    assert code == 0 and report["kind"] == "daycare" and report["generation"] == "empty"
    assert any(n.startswith(f"{tmp_path / 'daycare.db'} is a folder, not a database file") for n in report["notes"])
    assert snapshot_tree(tmp_path) == before


def test_a_path_that_does_not_exist_says_so_first(tmp_path, capsys):
    """A typo in a path reads as a missing folder, not as a folder that is no store."""
    assert main(["inspect", str(tmp_path / "no-such-folder")]) == 2
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith(f"daycare-gui: {tmp_path / 'no-such-folder'} does not exist: there is nothing there")

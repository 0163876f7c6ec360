"""Detection: aistack.db / agentstack.db directly, in ./data/, or through memory.path of a config found
upwards (${VAR} expanded); other systems' folders are not claimed; probing never writes."""

import json
import sqlite3

from daycare_gui.stores import registry
from daycare_gui.stores.agentstack import KIND
from tests.stores.agentstack.builder import Builder, fingerprint


def _db(path):
    Builder(path).close()
    return path


def test_a_database_file_by_either_name_is_certain(tmp_path):
    for name in ("aistack.db", "agentstack.db"):
        answer = KIND.probe(_db(tmp_path / name))
        assert answer.confidence == 1.0 and "AgentStack database" in answer.reason


def test_the_old_name_is_explained(tmp_path, opened):
    store = opened(_db(tmp_path / "agentstack.db"))
    assert any("rename" in n for n in store.summary().notes)


def test_folder_and_its_data_folder(tmp_path):
    _db(tmp_path / "a" / "aistack.db")
    _db(tmp_path / "b" / "data" / "agentstack.db")
    assert KIND.probe(tmp_path / "a").confidence == 1.0
    answer = KIND.probe(tmp_path / "b")
    assert answer.confidence == 1.0 and "in data/" in answer.reason


def test_config_memory_path_with_env_var(tmp_path, monkeypatch, opened):
    _db(tmp_path / "elsewhere" / "mem.db")  # any name: memory.path decides
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "aistack.config.json").write_text(json.dumps({"memory": {"path": "${MEM_DIR}/mem.db"}}))
    monkeypatch.setenv("MEM_DIR", str(tmp_path / "elsewhere"))
    answer = KIND.probe(proj)
    assert answer.recognised and "mem.db named by aistack.config.json" in answer.reason
    store = opened(proj)
    assert store.path == tmp_path / "elsewhere" / "mem.db"
    assert store.report()["config"]["memory_path"] == f"{tmp_path}/elsewhere/mem.db"
    # An unset variable becomes empty, as in AgentStack: "/mem.db" does not exist.
    monkeypatch.delenv("MEM_DIR")
    assert KIND.probe(proj).confidence == 0.2


def test_the_config_file_itself_and_the_old_config_name(tmp_path):
    _db(tmp_path / "data" / "aistack.db")
    (tmp_path / "agentstack.config.json").write_text(json.dumps({"memory": {"path": "./data/aistack.db"}}))
    assert KIND.probe(tmp_path / "agentstack.config.json").confidence == 1.0


def test_config_searched_upwards_resolves_against_the_working_folder_first(tmp_path, opened):
    (tmp_path / "aistack.config.json").write_text(json.dumps({"memory": {"path": "./data/aistack.db"}}))
    _db(tmp_path / "data" / "aistack.db")
    sub = tmp_path / "pkg" / "sub"
    sub.mkdir(parents=True)
    answer = KIND.probe(sub)  # only the config's folder holds it: less sure it belongs to this folder
    assert answer.confidence == 0.7
    store = opened(sub)
    assert store.path == tmp_path / "data" / "aistack.db"
    assert any("working directory" in n for n in store.summary().notes)
    _db(sub / "data" / "aistack.db")  # where AgentStack started in sub/ would look
    store = opened(sub)
    assert store.path == sub / "data" / "aistack.db"


def test_a_config_that_is_not_json_is_a_problem_and_the_default_path_is_used(tmp_path, opened):
    _db(tmp_path / "data" / "aistack.db")
    (tmp_path / "aistack.config.json").write_bytes(b"{not json\xff")
    store = opened(tmp_path)
    assert store.path == tmp_path / "data" / "aistack.db"
    assert any("could not be read as JSON" in p.message for p in store.problems)


def test_a_config_naming_a_missing_database(tmp_path):
    (tmp_path / "aistack.config.json").write_text(json.dumps({"memory": {"path": "./nowhere/x.db"}}))
    answer = KIND.probe(tmp_path)
    assert answer.confidence == 0.2 and "does not exist" in answer.reason


def test_names_without_the_tables_are_weak_or_no(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "aistack.db").write_text("hello")
    assert KIND.probe(tmp_path / "a").confidence == 0.0
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "aistack.db").write_bytes(b"")
    assert KIND.probe(tmp_path / "b").confidence == 0.4
    conn = sqlite3.connect(tmp_path / "c.db")
    conn.execute("CREATE TABLE memory (id TEXT)")
    conn.close()
    assert KIND.probe(tmp_path / "c.db").confidence == 0.0
    assert KIND.probe(tmp_path / "missing").confidence == 0.0


def test_a_database_with_agentstacks_tables_under_another_name(tmp_path):
    answer = KIND.probe(_db(tmp_path / "memory.sqlite"))
    assert answer.confidence == 0.9


def test_other_systems_are_not_claimed(tmp_path):
    daycare = tmp_path / "daycare"
    daycare.mkdir()
    (daycare / "settings.json").write_text("{}")
    conn = sqlite3.connect(daycare / "daycare.db")
    conn.executescript("CREATE TABLE agents (id TEXT); CREATE TABLE session_history (id INTEGER);")
    conn.close()
    linggen = tmp_path / "linggen" / "projects" / "p" / "sessions" / "s"
    linggen.mkdir(parents=True)
    (linggen / "messages.jsonl").write_text('{"role": "user"}\n')
    (linggen / "session.yaml").write_text("id: s\n")
    ciana = tmp_path / "ciana" / "data"
    ciana.mkdir(parents=True)
    conn = sqlite3.connect(ciana / "checkpoints.db")
    conn.execute("CREATE TABLE checkpoints (thread_id TEXT)")
    conn.close()
    for folder in (daycare, tmp_path / "linggen", tmp_path / "ciana", ciana / "checkpoints.db",
                   daycare / "settings.json"):
        assert KIND.probe(folder).confidence == 0.0, folder
    assert registry.probe(daycare)[0].kind != "agentstack"


def test_probing_never_writes_and_never_raises(tmp_path):
    _db(tmp_path / "data" / "aistack.db")
    before = fingerprint(tmp_path)
    for path in (tmp_path, tmp_path / "data", tmp_path / "data" / "aistack.db", "\x00bad", ""):
        KIND.probe(path)
    assert fingerprint(tmp_path) == before


def test_registry_picks_agentstack(tmp_path):
    _db(tmp_path / "data" / "aistack.db")
    assert registry.probe(tmp_path)[0].kind == "agentstack"
    with registry.open_store(tmp_path) as store:
        assert store.kind == "agentstack"


def test_an_empty_file_is_said_to_be_empty_not_foreign(tmp_path, capsys):
    import pytest

    from daycare_gui.cli import main
    from daycare_gui.stores.api import NotRecognised

    db = tmp_path / "proj" / "data" / "aistack.db"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"")
    before = fingerprint(db.parent)
    assert "empty (0 bytes)" in KIND.probe(db).reason
    assert "empty (0 bytes)" in KIND.probe(tmp_path / "proj").reason  # found in data/ from the folder
    with pytest.raises(NotRecognised) as raised:
        registry.open_store(db, kind="agentstack")
    assert "is empty (0 bytes)" in str(raised.value)
    assert "not an AgentStack database" not in str(raised.value)
    assert main(["inspect", str(db)]) != 0
    assert "is empty (0 bytes)" in capsys.readouterr().err
    other = tmp_path / "other.db"  # not AgentStack's name: not claimed, but still called empty
    other.write_bytes(b"")
    answer = KIND.probe(other)
    assert answer.confidence == 0.0 and "empty (0 bytes)" in answer.reason
    assert fingerprint(db.parent) == before  # nothing written, no -wal or -shm left

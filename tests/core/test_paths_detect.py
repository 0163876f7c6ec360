"""Resolving a user-given PATH and telling the storage generation apart."""

import json
import os

import pytest

from daycare_gui.stores.daycare.detect import detect
from daycare_gui.stores.daycare.engine import engine_status
from daycare_gui.stores.daycare.paths import NotADaycareDirectory, resolve_paths


def test_root_folder_resolves_like_daycare(tmp_path):
    (tmp_path / "settings.json").write_text("{}")
    p = resolve_paths(tmp_path)
    assert p.config_dir == tmp_path and p.data_dir == tmp_path
    assert p.db_path == tmp_path / "daycare.db"
    assert p.auth_path == tmp_path / "auth.json"
    assert p.socket_path == tmp_path / "daycare.sock"
    assert p.pid_path == tmp_path / "engine.pid"
    assert p.users_dirs == (tmp_path / "users",)


def test_settings_file_with_engine_paths(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    settings = cfg / "settings.json"
    settings.write_text(json.dumps({"engine": {"dataDir": str(data), "socketPath": "/run/x.sock"}, "extra": 1}))
    p = resolve_paths(settings)
    assert p.config_dir == cfg and p.data_dir == data
    assert p.db_path == data / "daycare.db"
    # as built: users under configDir at 808af509, under dataDir later — both are looked at
    assert p.users_dirs == (cfg / "users", data / "users")
    # imports read legacy folders next to the database first
    assert p.legacy_dirs[0] == data
    assert str(p.socket_path) == "/run/x.sock"
    assert p.settings["extra"] == 1


def test_later_db_path_key_and_relative_data_dir_warns(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"engine": {"dataDir": "rel", "db": {"path": "/x/y.db"}}}))
    p = resolve_paths(tmp_path)
    assert str(p.db_path) == "/x/y.db"
    assert p.pglite_path.name == "y.pglite"
    assert any("relative" in pr.message for pr in p.problems)


def test_malformed_settings_is_a_problem_not_a_crash(tmp_path):
    (tmp_path / "settings.json").write_text('{"engine": ')
    p = resolve_paths(tmp_path)
    assert p.data_dir == tmp_path
    assert len(p.problems) == 1 and "not valid JSON" in p.problems[0].message and p.problems[0].line == 1


def test_non_utf8_settings(tmp_path):
    (tmp_path / "settings.json").write_bytes(b'{"a": "\xff"}')
    p = resolve_paths(tmp_path)
    assert "not UTF-8" in p.problems[0].message


def test_missing_path_and_foreign_folder(tmp_path):
    with pytest.raises(NotADaycareDirectory):
        resolve_paths(tmp_path / "nope")
    (tmp_path / "photos").mkdir()
    with pytest.raises(NotADaycareDirectory, match="not a Daycare data directory"):
        detect(resolve_paths(tmp_path / "photos"))


def test_fixture_generations(fixture_copy):
    legacy = fixture_copy("daycare-808af509")
    d = detect(resolve_paths(legacy))
    assert d.generation == "sqlite" and d.sqlite_wal_mode and d.legacy_agents == 2
    assert any("legacy agent folder" in n for n in d.notes)
    no_db = fixture_copy("daycare-808af509", with_db=False, as_name="nodb")
    d = detect(resolve_paths(no_db))
    assert d.generation == "legacy-files" and "cron" in d.legacy_folders


def test_a_daycare_db_folder_is_reported_as_damage(tmp_path):
    """QA: a daycare.db that is a folder was silently ignored here (and called PGlite by the upgrade)."""
    (tmp_path / "settings.json").write_text("{}")
    (tmp_path / "daycare.db").mkdir()
    for given in (tmp_path, tmp_path / "daycare.db"):  # the store, or the broken database named directly
        p = resolve_paths(given)
        assert p.root == tmp_path and p.db_path == tmp_path / "daycare.db"
        d = detect(p)
        assert not d.has_pglite and not d.has_sqlite and d.generation == "empty"
        assert f"{tmp_path / 'daycare.db'} is a folder, not a database file" in d.notes


def test_a_daycare_db_folder_holding_pglite_files_says_where_pglite_belongs(tmp_path):
    (tmp_path / "daycare.db" / "global").mkdir(parents=True)
    (tmp_path / "daycare.db" / "PG_VERSION").write_text("17\n")
    d = detect(resolve_paths(tmp_path))
    assert d.generation == "empty" and not d.has_pglite
    assert any(n.startswith(f"{tmp_path / 'daycare.db'} is a folder, not a database file") and
               str(tmp_path / "daycare.pglite") in n for n in d.notes)


def test_pglite_beside_old_sqlite(fixture_copy):
    root = fixture_copy("daycare-newer")
    (root / "daycare.pglite").mkdir()
    (root / "daycare.pglite" / "PG_VERSION").write_text("16\n")
    d = detect(resolve_paths(root))
    assert d.generation == "pglite" and d.has_sqlite
    assert any("PGlite" in n and "reads a copy" in n for n in d.notes)
    assert any("no longer reads" in n for n in d.notes)


def test_not_sqlite_file_is_reported(tmp_path):
    (tmp_path / "daycare.db").write_bytes(b"hello, not a database")
    d = detect(resolve_paths(tmp_path))
    assert d.generation == "empty" and any("not a SQLite database" in n for n in d.notes)


def test_engine_running_from_live_pid_and_stale_pid(tmp_path):
    (tmp_path / "settings.json").write_text("{}")
    p = resolve_paths(tmp_path)
    assert not engine_status(p).running
    (tmp_path / "engine.pid").write_text(f"{os.getpid()}\n")
    s = engine_status(p)
    assert s.running and s.pid == os.getpid()
    (tmp_path / "engine.pid").write_text("999999999\n")
    s = engine_status(p)
    assert not s.running and "stale" in s.detail


def test_engine_running_from_socket(tmp_path):
    import socket
    import threading

    (tmp_path / "settings.json").write_text("{}")
    sock_path = tmp_path / "daycare.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(sock_path))
    server.listen(1)

    def answer():
        conn, _ = server.accept()
        conn.recv(1024)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        conn.close()

    t = threading.Thread(target=answer, daemon=True)
    t.start()
    try:
        s = engine_status(resolve_paths(tmp_path), timeout=2)
        assert s.running and s.socket_answers
    finally:
        server.close()

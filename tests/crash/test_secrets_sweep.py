"""Fake secrets planted where each kind keeps them never show in inspect, search, or any record a
capability hands the window (collections incl. raw, tables, documents, tasks, conversations)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from daycare_gui.cli import main
from daycare_gui.stores import registry
from daycare_gui.stores.daycare.demo import write_demo
from tests.crash import sweep

# Each secret unique, so a leak names its place.
AUTH = "sk-sweep-auth-7a1c9e3b5d0f2468"
PROVIDER_KEY = "sk-sweep-provider-5e2b8d1f4a7c9036"
URL_PASSWORD = "sweepUrlPw93k1"
BEARER = "sweepBearer4c8e2a6f0b"
PROC_ENV = "sweep-proc-env-key-0d9c8b7a6f5e"
PROC_URL_PW = "sweepProcDbPw77x"
LEGACY_ENV = "sweep-legacy-env-1b3d5f7a9c"
DAYCARE_SECRETS = (AUTH, PROVIDER_KEY, URL_PASSWORD, BEARER, PROC_ENV, PROC_URL_PW, LEGACY_ENV)


def _edit_json(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


@pytest.fixture(scope="module")
def daycare_store(tmp_path_factory):
    root = tmp_path_factory.mktemp("sweep") / "daycare"
    write_demo(root)
    _edit_json(root / "auth.json", lambda d: d.update(sweep={"type": "apiKey", "apiKey": AUTH}))

    def provider(d):
        d["providers"][0]["options"] = {"apiKey": PROVIDER_KEY, "baseUrl": f"https://me:{URL_PASSWORD}@proxy.test/v1",
                                        "headers": {"Authorization": f"Bearer {BEARER}"}}
    _edit_json(root / "settings.json", provider)
    env = {"OPENAI_API_KEY": PROC_ENV, "DATABASE_URL": f"postgres://app:{PROC_URL_PW}@db.test/app"}
    conn = sqlite3.connect(root / "daycare.db")
    conn.execute("UPDATE processes SET env = ?", (json.dumps(env),))
    conn.commit()
    conn.close()
    for record in root.glob("processes/*/record.json"):
        _edit_json(record, lambda d: d.update(env={"GITHUB_TOKEN": LEGACY_ENV}))
    return root


def _assert_clean(text: str, secrets, where: str):
    found = sweep.leaks(text, secrets)
    assert not found, f"{where} shows {found}"


def test_daycare_inspect_json_masks_every_planted_secret(daycare_store, capsys):
    assert main(["inspect", "--json", str(daycare_store)]) in (0, 1)
    _assert_clean(capsys.readouterr().out, DAYCARE_SECRETS, "inspect --json")


def test_daycare_search_masks_every_planted_secret(daycare_store, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    for query in ("sweep", "OPENAI_API_KEY", "apiKey", "Lisbon"):
        main(["search", str(daycare_store), query, "--json"])
        _assert_clean(capsys.readouterr().out, DAYCARE_SECRETS, f"search {query!r}")


def test_daycare_capabilities_mask_every_planted_secret(daycare_store):
    with registry.open_store(daycare_store) as store:
        for text in sweep.texts(store):
            _assert_clean(text, DAYCARE_SECRETS, "a record")
        _assert_clean(json.dumps(store.report(), default=str), DAYCARE_SECRETS, "the report")


def test_server_url_password_never_shown_when_the_server_is_unreachable(tmp_path, capsys):
    root = tmp_path / "pg"
    root.mkdir()
    (root / "settings.json").write_text(json.dumps(
        {"engine": {"db": {"url": f"postgresql://daycare:{URL_PASSWORD}@/daycare?host={tmp_path}/nosocket"}}}))
    main(["inspect", "--json", str(root)])
    captured = capsys.readouterr()
    _assert_clean(captured.out + captured.err, (URL_PASSWORD,), "inspect of an unreachable server")


LINGGEN_KEYS = ("AIzaSweepLinggen0123456789", "gsk_sweep_linggen_abcdef")


def test_linggen_credentials_never_shown(tmp_path, capsys, monkeypatch):
    from tests.stores.linggen.builder import standard_home

    home = standard_home(tmp_path / "home")
    home.credentials({"gemini": {"api_key": LINGGEN_KEYS[0]}, "groq": {"api_key": LINGGEN_KEYS[1]}})
    with registry.open_store(home.root, kind="linggen") as store:
        for text in sweep.texts(store):
            _assert_clean(text, LINGGEN_KEYS, "a Linggen record")
    main(["inspect", "--json", str(home.root)])
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    main(["search", str(home.root), "login", "--json"])
    captured = capsys.readouterr()
    _assert_clean(captured.out + captured.err, LINGGEN_KEYS, "Linggen inspect/search")


AGENTSTACK_SECRETS = ("$2b$10$sweepHashSweepHashSweepHashSweepHash", "sweep-plugin-token-55aa", "sweep-plugin-key-66bb")


def test_agentstack_password_hashes_and_plugin_config_never_shown(tmp_path, capsys, monkeypatch):
    from tests.stores.agentstack.builder import Builder

    b = Builder(tmp_path / "proj" / "data" / "aistack.db")
    b.user("ada", "ada@example.test", password_hash=AGENTSTACK_SECRETS[0])
    b.plugin("gh", config={"token": AGENTSTACK_SECRETS[1], "nested": {"apiKey": AGENTSTACK_SECRETS[2]}})
    b.memory("note", "remember the plugin")
    path = b.close()
    with registry.open_store(path, kind="agentstack") as store:
        for text in sweep.texts(store):
            _assert_clean(text, AGENTSTACK_SECRETS, "an AgentStack record")
    main(["inspect", "--json", str(path)])
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    main(["search", str(path), "plugin", "--json"])
    captured = capsys.readouterr()
    _assert_clean(captured.out + captured.err, AGENTSTACK_SECRETS, "AgentStack inspect/search")


def test_postgres_rows_mask_process_env_urls_and_verification_values():
    # The PGlite/PostgreSQL kind masks rows with masked_row; its end-to-end reads are in tests/stores/daycare_pg.
    from daycare_gui.stores.daycare.pg.shown_rows import masked_row

    env = {"OPENAI_API_KEY": PROC_ENV, "DATABASE_URL": f"postgres://app:{PROC_URL_PW}@db.test/app"}
    shown = masked_row({"id": "p1", "env": env, "command": "npm start"}, "processes")
    _assert_clean(repr(shown), (PROC_ENV, PROC_URL_PW), "a process row")
    assert shown["command"] == "npm start" and set(shown["env"]) == set(env)
    shown = masked_row({"identifier": "ada@example.test", "value": "sweep-verify-0099"}, "app_auth_verifications")
    _assert_clean(repr(shown), ("sweep-verify-0099",), "a verification row")
    assert shown["identifier"] == "ada@example.test"

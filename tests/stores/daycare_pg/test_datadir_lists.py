"""Settings, auth, users' secrets, agents' prompt files, processes, apps and databases beside a PGlite
store, as a user sees them — and not one planted secret anywhere in what the store hands out."""

from __future__ import annotations

import json

import pytest

from daycare_gui.stores import api, registry
from tests.stores.daycare_pg.datadir_files import SECRETS, plant_data_dir


@pytest.fixture
def store_dir(pglite_fixture, tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    plant_data_dir(pglite_fixture, home)
    return pglite_fixture


def _rows(colls, cid):
    return colls.rows(cid, 0, colls.size(cid))


def _everything(store) -> str:
    """Every value the store's capabilities hand the window, as one text."""
    parts = [repr(store.summary())]
    docs = store.capability(api.Documents)
    for ref in docs.documents():
        parts += [repr(ref), docs.read(ref).decode("utf-8", "replace")]
    colls = store.capability(api.Collections)
    for c in colls.collections():
        if c.id.startswith("files:"):
            parts += [repr(r) for r in _rows(colls, c.id)]
    parts += [repr(p) for p in store.problems]
    return "\n".join(parts)


def test_settings_auth_and_user_secrets_show_names_never_values(store_dir):
    with registry.open_store(store_dir) as store:
        colls = store.capability(api.Collections)
        ids = {c.id: c for c in colls.collections()}
        assert {"files:settings", "files:auth", "files:user_secrets"} <= set(ids)
        assert ids["files:settings"].group == "Data directory"
        settings = {r.key: r.values[1] for r in _rows(colls, "files:settings")}
        assert settings["appServer.port"] == 7332 and settings["email.from"] == "bot@example.org"
        for key in ("appServer.jwtSecret", "opensandbox.apiKey", "email.smtpUrl", "plugins[0].settings.botToken",
                    "plugins[0].settings.chat"):
            assert "•" in str(settings[key]), key
        auth = {r.key: r.values for r in _rows(colls, "files:auth")}
        assert auth["anthropic"] == ("anthropic", "apiKey", "apiKey")
        assert auth["openai-codex"][1:] == ("oauth", "access, refresh")
        (secret,) = _rows(colls, "files:user_secrets")
        assert secret.values == ("user/1", "github", "GitHub", "for the repo", "GH_TOKEN, GH_USER")
        text = _everything(store)
    for value in SECRETS.values():
        assert value not in text


def test_agent_prompt_files_are_read_only_documents_grouped_by_agent(store_dir):
    with registry.open_store(store_dir) as store:
        docs = store.capability(api.Documents)
        files = [d for d in docs.documents() if d.group == "Agents' prompt files · agent-1"]
        assert [d.title for d in files] == ["SYSTEM.md", "INFERENCE.md", "compaction_20261117.md"]
        assert not any(d.editable for d in files) and all("Daycare" in d.readonly_reason for d in files)
        assert b"marmalogy" in docs.read(files[0])


def test_process_app_and_database_folders(store_dir):
    with registry.open_store(store_dir) as store:
        colls = store.capability(api.Collections)
        (proc,) = _rows(colls, "files:processes")
        assert proc.values[0] == "proc-1" and proc.values[3] == "sandbox" and proc.values[4] == "/data"
        assert "server listening" in proc.markdown and "process.log (its end)" in proc.markdown
        assert "line 0\n" not in proc.markdown  # the tail only, read from the end
        (app,) = _rows(colls, "files:apps")
        assert app.values[:2] == ("user/1", "app-1") and app.values[3] == "3" and app.values[5] == "2"
        (db,) = _rows(colls, "files:databases")
        assert db.values[:2] == ("user/1", "db-1") and db.values[3] == 2 and db.values[4].endswith("KB")
        text = _everything(store)
    for value in SECRETS.values():
        assert value not in text


def test_engine_db_url_in_settings_is_masked(tmp_path):
    from daycare_gui.stores.daycare.datadir.config import settings_entries
    from daycare_gui.stores.problems import ProblemLog

    plant_data_dir(tmp_path, tmp_path / "home", db_url=True)
    rows = settings_entries(tmp_path, ProblemLog())
    url = next(e.values[1] for e in rows if e.key == "engine.db.url")
    assert "•" in url and SECRETS["db"] not in json.dumps([e.raw for e in rows])


def test_inspect_json_holds_no_planted_secret(store_dir, capsys):
    from daycare_gui.cli import main

    assert main(["inspect", str(store_dir), "--json"]) == 0
    out = capsys.readouterr().out
    files = json.loads(out)["data_dir"]
    assert files["skills"] == {"config": 1, "personal": 1, "agents": 1}
    assert (files["skill_activation_copies"], files["skill_earlier_versions"]) == (2, 1)
    assert (files["agents_with_prompt_files"], files["processes"], files["user_databases"],
            files["apps_with_code_folders"]) == (1, 1, 1, 1)
    for value in SECRETS.values():
        assert value not in out


@pytest.mark.parametrize("word,where", [("quillfeather", "skill:user:user/1/trip-planner"),
                                        ("zephyrwind", "skill:config:research/weather"),
                                        ("marmalogy", "agent-file:agent-1/SYSTEM.md")])
def test_search_finds_a_word_only_in_a_skill_or_a_system_prompt(store_dir, tmp_path, capsys, word, where):
    from daycare_gui.cli import main

    assert main(["search", str(store_dir), word, "--json", "--index-dir", str(tmp_path / "index")]) == 0
    out = capsys.readouterr().out
    ids = {d["id"] for d in json.loads(out)["documents"]}
    assert where in ids
    for value in SECRETS.values():
        assert value not in out



def test_a_process_environment_value_is_masked_in_its_log_whatever_it_looks_like(tmp_path):
    from daycare_gui.stores.daycare.datadir.runtime_files import process_entries
    from daycare_gui.stores.problems import ProblemLog

    folder = tmp_path / "processes" / "p1"
    folder.mkdir(parents=True)
    (folder / "sandbox.json").write_text(json.dumps({"backend": "sandbox", "note": "uses plainvalue99"}))
    (folder / "process.log").write_text("connecting with plainvalue99\nready\n")
    (entry,) = process_entries(tmp_path, {"p1": {"name": "web", "status": "running",
                                                 "env": {"WEIRD": "plainvalue99"}}}, ProblemLog())
    shown = repr(entry)
    assert "plainvalue99" not in shown and "ready" in entry.markdown and entry.values[1:3] == ("web", "running")


def test_pipes_and_links_out_in_the_data_directory_are_never_opened(store_dir, tmp_path):
    import os

    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps([{"name": "leaked-name-outside", "variables": {"K": "v"}}]))
    for rel in ("settings.json", "auth.json", "processes/proc-1/process.log", "processes/proc-1/sandbox.json"):
        (store_dir / rel).unlink()
        os.mkfifo(store_dir / rel)  # a read would block for ever
    secrets = store_dir / "users" / "user%2F1" / "secrets.json"
    secrets.unlink()
    secrets.symlink_to(outside)
    with registry.open_store(store_dir) as store:
        text = _everything(store)  # returns: nothing waited on a pipe
        colls = store.capability(api.Collections)
        assert colls.size("files:settings") == 0 and colls.size("files:user_secrets") == 0
        (proc,) = _rows(colls, "files:processes")
        assert proc.values[-1] == "no"  # its log is not read
    assert "leaked-name-outside" not in text
    assert any("a named pipe" in p.message or "not a regular file" in p.message for p in store.problems)

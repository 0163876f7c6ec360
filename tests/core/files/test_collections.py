"""Each collection reader on a synthetic store: aliases, skip reasons, bad input next to good input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from daycare_gui.stores.daycare.datadir.files import daycare_files
from daycare_gui.stores.daycare.files import scan_files
from daycare_gui.stores.daycare.files.apps import read_apps
from daycare_gui.stores.daycare.files.config_files import read_auth, read_settings
from daycare_gui.stores.daycare.files.homes import read_knowledge_files, read_user_homes
from daycare_gui.stores.daycare.files.plugins import read_plugins
from daycare_gui.stores.daycare.files.skills import read_skills
from daycare_gui.stores.daycare.files.tasks import read_cron_tasks, read_heartbeat_tasks
from daycare_gui.stores.daycare.paths import resolve_paths
from tests.conftest import snapshot_tree

GOOD_UID = "abcdefghijklmnopqrstuvwx"  # 24 chars of [a-z]


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


@pytest.fixture
def root(tmp_path) -> Path:
    r = tmp_path / "daycare"
    r.mkdir()
    return r


def test_empty_store_has_empty_collections_and_no_problems(root):
    inv = scan_files(resolve_paths(root))
    assert all(c == 0 for c in inv.counts().values())
    assert inv.problems == ()


def test_cron_aliases_and_skip_reasons(root):
    write(
        root / "cron/alias/TASK.md",
        f"---\nname: A\ncron: '*/5 * * * *'\ntaskId: {GOOD_UID}\nagent_id: ag1\nuserID: u1\none_off: true\n"
        "enabled: false\ncolor: blue\n---\nDo it.\n",
    )
    write(root / "cron/alias/MEMORY.md", "notes")
    (root / "cron/alias/files").mkdir()
    write(root / "cron/shortid/TASK.md", "---\nname: B\nschedule: '0 1 * * *'\ntaskId: abc123\n---\nBody\n")
    write(root / "cron/empty/TASK.md", f"---\ntaskId: {GOOD_UID}\n---\n   \n")
    write(
        root / "cron/stringtrue/TASK.md",
        f"---\nname: C\nschedule: x\ntaskId: {GOOD_UID}\ndeleteAfterRun: 'true'\n---\nb\n",
    )
    write(root / "cron/broken/TASK.md", "---\nname: [\n---\nb\n")
    write(root / "cron/badstate/TASK.md", f"---\nname: D\nschedule: x\ntaskId: {GOOD_UID}\n---\nb\n")
    write(root / "cron/badstate/STATE.json", "{nope")
    items, problems = read_cron_tasks(resolve_paths(root))
    tasks = {t.id: t for t in items}
    assert set(tasks) == {"alias", "shortid", "empty", "stringtrue", "broken", "badstate"}

    a = tasks["alias"]
    assert (a.schedule, a.agent_id, a.user_id, a.delete_after_run, a.enabled) == (
        "*/5 * * * *",
        "ag1",
        "u1",
        True,
        False,
    )
    assert a.aliases == {
        "schedule": "cron",
        "agent_id": "agent_id",
        "user_id": "userID",
        "delete_after_run": "one_off",
    }
    assert a.extra == {"color": "blue"} and a.importable
    assert a.memory_path and a.files_dir

    assert not tasks["shortid"].importable and "taskId 'abc123'" in tasks["shortid"].skip_reason
    e = tasks["empty"]
    assert not e.importable and all(r in e.skip_reason for r in ("name missing", "schedule missing", "body"))
    assert tasks["stringtrue"].delete_after_run is False  # only a literal boolean true counts
    assert not tasks["broken"].importable
    assert tasks["badstate"].importable and tasks["badstate"].last_run_at is None
    assert any(p.path.endswith("badstate/STATE.json") and p.line == 1 for p in problems)
    assert any(p.path.endswith("broken/TASK.md") and "not valid YAML" in p.message for p in problems)


def test_cron_dedup_across_legacy_dirs(tmp_path):
    # settings in one folder, dataDir elsewhere: both are legacy dirs, the DB folder is read first.
    data = tmp_path / "data"
    write(data / "cron/t1/TASK.md", f"---\nname: A\nschedule: x\ntaskId: {GOOD_UID}\n---\nb\n")
    cfg = tmp_path / "cfg"
    write(cfg / "settings.json", json.dumps({"engine": {"dataDir": str(data)}}))
    write(cfg / "cron/t2/TASK.md", f"---\nname: B\nschedule: x\ntaskId: {GOOD_UID}\n---\nb\n")
    items, _ = read_cron_tasks(resolve_paths(cfg))
    flags = {t.id: t.next_to_db for t in items}
    assert flags == {"t1": True, "t2": False}
    # Same folder reached twice (settings in the data dir): listed once.
    write(data / "settings.json", "{}")
    assert len(read_cron_tasks(resolve_paths(data)).items) == 1


def test_heartbeat_titles(root):
    hb = root / "heartbeat"
    write(hb / "Title Wins.md", "---\ntitle: T\nname: N\n---\ncode\n")
    write(hb / "by-name.MD", "---\nname: N\n---\ncode\n")
    write(hb / "heading.md", "## Check things\n\nthe code\n")
    write(hb / "plain_file.md", "just code\n")
    write(hb / "blank-title.md", "---\ntitle: '  '\n---\n# Not used as title\ncode\n")
    write(hb / "empty.md", "---\ntitle: E\n---\n\n")
    write(hb / "notes.txt", "ignored")
    write(hb / ".heartbeat-state.json", '{"lastRunAt": "2026-02-19T08:00:00.000Z"}')
    items, problems = read_heartbeat_tasks(resolve_paths(root))
    by_id = {t.id: t for t in items}
    assert set(by_id) == {"title-wins", "by-name", "heading", "plain-file", "blank-title", "empty"}
    assert (by_id["title-wins"].title, by_id["title-wins"].title_source) == ("T", "title")
    assert (by_id["by-name"].title, by_id["by-name"].title_source) == ("N", "name")
    h = by_id["heading"]
    assert (h.title, h.title_source, h.code) == ("Check things", "heading", "the code")
    assert (by_id["plain-file"].title, by_id["plain-file"].title_source) == ("plain_file", "file")
    assert by_id["blank-title"].title == "blank-title" and by_id["blank-title"].code.startswith("# Not used")
    assert not by_id["empty"].importable
    assert all(t.last_run_at_ms == 1771488000000 for t in items)


def test_apps_workspace_and_user(root):
    app = root / "workspace/apps/deploy-check"
    write(
        app / "APP.md",
        "---\nname: deploy-check\ntitle: Deploy Check\ndescription: Validate\nmodel: gpt-5\n---\n"
        "You are a deploy assistant.\n",
    )
    write(
        app / "PERMISSIONS.md",
        "## Source Intent\n\nNeed read-only diagnostics.\n\n## Rules\n\n### Allow\n"
        "- @read:/Users/steve/project\n- @network\n\n### Deny\n- @write:/\n",
    )
    write(app / "state.json", '{"permissions": ["@network"], "updatedAt": 1739999900123, "x": 1}')
    uapp = root / "users/u1/apps/broken"
    write(uapp / "APP.md", "---\nname: broken\n---\n")
    write(uapp / "PERMISSIONS.md", "## Rules\n### Allow\n- a\n")
    write(uapp / "state.json", "[1]")
    items, problems = read_apps(resolve_paths(root))
    apps = {a.id: a for a in items}
    good = apps["deploy-check"]
    assert good.scope == "workspace" and good.manifest.valid and good.manifest.model == "gpt-5"
    assert good.manifest.system_prompt == "You are a deploy assistant."
    assert good.permissions.source_intent == "Need read-only diagnostics."
    assert [r.text for r in good.permissions.allow] == ["@read:/Users/steve/project", "@network"]
    assert [(r.text, r.line) for r in good.permissions.deny] == [("@write:/", 12)]
    assert good.state.permissions == ("@network",) and good.state.extra == {"x": 1}
    bad = apps["broken"]
    assert bad.scope == "user" and bad.user_id == "u1"
    assert not bad.manifest.valid and "title" in bad.manifest.invalid_reason
    assert not bad.permissions.valid and [r.text for r in bad.permissions.allow] == ["a"]
    assert bad.state is None and any(p.path.endswith("broken/state.json") for p in problems)


def test_skills_from_every_root(root, tmp_path):
    write(
        root / "users/u1/skills/sql/SKILL.md",
        "---\nname: SQL Helper\nsandbox: 'true'\npermissions: '@net'\n---\nUse.\n",
    )
    write(root / "users/u1/skills/cat/deep/skill.md", "no frontmatter\n")
    write(root / "skills/cfg/Skill.MD", "---\ndescription: d\n---\n")
    write(root / "plugins/mem1/skills/p/SKILL.md", "---\nname: P\n---\n")
    write(root / "skills/bad/SKILL.md", "---\nname: [\n---\n")
    home = tmp_path / "home"
    write(home / ".agents/skills/h/SKILL.md", "---\nname: H\n---\n")
    paths = resolve_paths(root)
    items, problems = read_skills(paths)
    by_id = {s.id: s for s in items}
    assert set(by_id) == {
        "user:u1/sql",
        "user:u1/cat/deep",
        "config:cfg",
        "config:bad",
        "plugin:mem1/skills/p",
    }
    sql = by_id["user:u1/sql"]
    assert (sql.name, sql.sandbox, sql.permissions, sql.source, sql.user_id) == (
        "SQL Helper",
        True,
        ("@net",),
        "user",
        "u1",
    )
    assert by_id["user:u1/cat/deep"].name == "deep" and by_id["user:u1/cat/deep"].category == "cat"
    assert by_id["config:cfg"].description == "d" and by_id["plugin:mem1/skills/p"].plugin_id == "mem1"
    assert any(p.path.endswith("bad/SKILL.md") for p in problems)
    with_home = read_skills(paths, include_home_skills=True, home=home).items
    assert [s.source for s in with_home if s.name == "H"] == ["home"]


def test_plugins_memory_database_upgrade(root):
    write(root / "settings.json", json.dumps({"plugins": [{"instanceId": "db1", "pluginId": "database"}]}))
    mem = root / "plugins/memory"
    write(mem / "INDEX.md", "# Memory Index\n\n- incidents\n- ghosts\n")
    write(
        mem / "incidents.md",
        '---\nname: "Deployment Incidents"\ndescription: "Recent"\n---\n# incidents\n\n'
        "## incident-1\nRollback required.\n\n## incident-2\nOutage.\nSecond line.\n",
    )
    write(mem / "stray.md", "# stray\n")
    db = root / "plugins/db1"
    write(
        db / "db.md",
        "# Database Memory\n\n## Schema\n<!-- schema:start -->\n### users\n- id: text\n<!-- schema:end -->\n\n"
        "## Recent Changes\n<!-- changes:start -->\n- [2026-02-20] create users table\n<!-- changes:end -->\n",
    )
    (db / "db.pglite").mkdir()
    write(
        root / "plugins/upgrade/restart-pending.json",
        '{"descriptor": {"type": "system", "tag": "x"}, "context": {}, "requestedAtMs": 5, "requesterPid": 7}',
    )
    data = read_plugins(resolve_paths(root))
    (inc, stray) = sorted(data.memory_entities, key=lambda e: e.entity)
    assert (inc.name, inc.description, inc.prefix, inc.listed_in_index) == (
        "Deployment Incidents",
        "Recent",
        "# incidents",
        True,
    )
    assert [(r.title, r.body) for r in inc.records] == [
        ("incident-1", "Rollback required."),
        ("incident-2", "Outage.\nSecond line."),
    ]
    assert not stray.listed_in_index
    assert any("ghosts" in p.message for p in data.problems)
    (doc,) = data.database_docs
    assert (
        doc.schema == "### users\n- id: text"
        and doc.changes == "- [2026-02-20] create users table"
        and doc.pglite_dir
    )
    (rp,) = data.restart_pending
    assert (rp.requested_at_ms, rp.requester_pid, rp.descriptor["type"]) == (5, 7, "system")


def test_homes_and_knowledge(root):
    home = root / "users/u1/home"
    for f in ("desktop", "downloads", "knowledge"):
        (home / f).mkdir(parents=True)
    write(home / "knowledge/SOUL.md", "soul")
    write(home / "downloads/f1__a.txt", "12345")
    (home / "downloads/sub").mkdir()
    write(root / "USER.md", "legacy global")
    paths = resolve_paths(root)
    (h,) = read_user_homes(paths).items
    assert h.user_id == "u1" and h.folders == ("desktop", "downloads", "knowledge")
    files = {(k.user_id, k.name) for k in read_knowledge_files(paths).items}
    assert files == {("u1", "SOUL.md"), (None, "USER.md")}
    entries = {e.name: e for e in daycare_files(paths).children("home:u1", "downloads")}  # the Files page's
    assert entries["f1__a.txt"].size == 5 and not entries["f1__a.txt"].is_dir
    assert entries["sub"].is_dir and entries["sub"].size is None


def test_auth_and_settings_never_show_secrets(root):
    secrets = [
        "sk-proj-SUPERSECRET123456",
        "gho_TOKENVALUE987654",
        "refresh-XYZ-777",
        "plainsecretvalue",
        "sk-LISTSECRET-0001",
        "nested-secret-2",
    ]
    write(
        root / "auth.json",
        json.dumps(
            {
                "openai": {"type": "apiKey", "apiKey": secrets[0]},
                "github-copilot": {
                    "type": "oauth",
                    "accessToken": secrets[1],
                    "refreshToken": secrets[2],
                    "expires": 5,
                },
                "weird": secrets[3],
                "listy": {"type": "token", "keys": ["sk-LISTSECRET-0001", {"inner": "nested-secret-2"}]},
            }
        ),
    )
    write(
        root / "settings.json",
        json.dumps({"providers": [{"id": "openai", "options": {"apiKey": secrets[0]}}]}),
    )
    write(
        root / "processes/p1/record.json",
        json.dumps({"version": 2, "id": "p1", "env": {"DATABASE_URL": secrets[3]}}),
    )
    paths = resolve_paths(root)
    entries, problems = read_auth(paths)
    by = {e.provider: e for e in entries}
    assert by["openai"].type == "apiKey" and by["github-copilot"].fields["expires"] == 5
    assert set(by["github-copilot"].secret_keys) == {"accessToken", "refreshToken"}
    inv = scan_files(paths)
    outputs = [
        repr(inv),
        str(inv),
        json.dumps(inv.to_dict()),
        repr(entries),
        str(entries),
        repr(read_settings(paths)),
        json.dumps([e.to_dict() for e in entries]),
    ]
    for out in outputs:
        for s in secrets:
            assert s not in out
    assert inv.count("auth_entries") == 4 and inv.count("settings") == 1


def test_broken_auth_json_does_not_echo_secret(root):
    write(root / "auth.json", '{"openai": {"apiKey": "sk-LEAKME-123456789" oops}}')
    inv = scan_files(resolve_paths(root))
    text = json.dumps(inv.to_dict())
    assert "sk-LEAKME" not in text
    assert any(p.path.endswith("auth.json") and p.line == 1 for p in inv.problems)


def test_bad_inputs_do_not_stop_the_rest(root, monkeypatch):
    """One of every kind of bad input in one store: each is reported and everything else still loads."""
    write(
        root / "channels/ok/channel.json",
        '{"id":"c1","name":"ok","leader":"a","members":[],"createdAt":1,"updatedAt":1}',
    )
    write(
        root / "channels/ok/history.jsonl",
        '{"id":"m1","senderUsername":"a","text":"x"}\nnot json\n{"id":"m2"',
    )
    write(root / "channels/bad/channel.json", '{"id": "c2",,}')
    write(root / "signals/events.jsonl", '{"id":"s1","type":"t","source":{"type":"system"}}\n')
    write(root / "signals/delayed.json", '{"version": 1, "events": [{"id": "d1"}, 5]}')
    write(root / "expose/endpoints/e1.json", b'{"id": "e1", "note": "\xff"}')
    write(
        root / "expose/endpoints/e2.json",
        '{"id":"e2","target":{"type":"port","port":1},"provider":"p","domain":"d","mode":"public","auth":{"enabled":true,"passwordHash":"HASHVALUE"}}',
    )
    write(root / "processes/old/record.json", '{"version": 1, "id": "old"}')
    write(root / "heartbeat/ok.md", "code\n")
    write(root / "heartbeat/broken.md", "---\ntitle: x\n")
    outside = root.parent / "outside"
    write(outside / "TASK.md", f"---\nname: A\nschedule: x\ntaskId: {GOOD_UID}\n---\nsecret body\n")
    (root / "cron").mkdir()
    (root / "cron/escape").symlink_to(outside)
    write(root / "cron/ok/TASK.md", f"---\nname: A\nschedule: x\ntaskId: {GOOD_UID}\n---\nb\n")
    locked = root / "agents/locked"
    write(locked / "descriptor.json", "{}")
    write(root / "agents/fine/descriptor.json", '{"type": "system", "tag": "t"}')
    write(root / "agents/fine/state.json", '{"createdAt": 3}')
    from tests.core.files.test_low_level import make_unreadable

    make_unreadable(monkeypatch, locked)

    before = snapshot_tree(root)
    inv = scan_files(resolve_paths(root))
    assert snapshot_tree(root) == before
    msgs = [str(p) for p in inv.problems]

    def has(fragment_path, fragment_msg, line=None):
        return any(
            p.path.endswith(fragment_path) and fragment_msg in p.message and (line is None or p.line == line)
            for p in inv.problems
        ), msgs

    assert has("channels/ok/history.jsonl", "not JSON", 2)[0]
    assert has("channels/ok/history.jsonl", "truncated line", 3)[0]
    assert has("channels/bad/channel.json", "not valid JSON", 1)[0]
    assert has("signals/delayed.json", "events[1]")[0]
    assert has("expose/endpoints/e1.json", "not UTF-8")[0]
    assert has("processes/old/record.json", "only version 2")[0]
    assert has("heartbeat/broken.md", "never closed", 1)[0]
    assert has("cron/escape", "path leaves the data directory")[0]
    assert has("agents/locked", "cannot list folder")[0]
    assert "secret body" not in json.dumps(inv.to_dict()) and "HASHVALUE" not in json.dumps(inv.to_dict())

    assert inv.count("channels") == 2 and inv.count("channel_messages") == 1
    assert inv.count("signal_events") == 1 and inv.count("delayed_signals") == 1
    assert inv.count("expose_endpoints") == 2 and inv.count("processes") == 1
    assert [t.id for t in inv.items("cron_tasks")] == ["ok"]
    assert {t.id for t in inv.items("heartbeat_tasks")} == {"ok", "broken"}
    assert {a.id for a in inv.items("legacy_agents")} == {"fine", "locked"}
    fine = next(a for a in inv.items("legacy_agents") if a.id == "fine")
    assert fine.sessions[0].created_at == 3 and fine.lifecycle == "active"


def test_symlinked_store_root_still_reads(tmp_path, fixture_copy):
    # A data dir reached through a symlink is fine: only links leaving it are refused.
    real = fixture_copy("daycare-808af509")
    link = tmp_path / "link"
    link.symlink_to(real)
    inv = scan_files(resolve_paths(link))
    assert inv.count("legacy_agents") == 2 and inv.count("cron_tasks") == 1
    assert not any("leaves" in p.message for p in inv.problems)

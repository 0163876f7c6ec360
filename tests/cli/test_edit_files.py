"""``daycare-gui edit`` knows which files it may touch: JSON edited as JSON, unknown files refused,
task files Daycare no longer reads written only with --force (issue 18, items 1 and 4)."""

from __future__ import annotations

import os

import pytest

from daycare_gui import cli

STATE = b'{\n  "permissions": [\n    "@read:/home/alex/blog",\n    "@network"\n  ],\n  "updatedAt": 1739999900123\n}\n'
SETTINGS = b'{\n  "engine": {\n    "dataDir": "/srv/daycare"\n  },\n  "assistant": {\n    "workspaceDir": "ws"\n  }\n}\n'


@pytest.fixture
def app_state(tmp_path):
    path = tmp_path / "workspace" / "apps" / "deploy-check" / "state.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(STATE)
    return path


def test_state_json_is_edited_as_json(app_state, capsys):
    assert cli.main(["edit", str(app_state), "--set", 'permissions=["@network"]', "--set", "updatedAt=1750000000000"]) == 0
    assert app_state.read_bytes() == b'{\n  "permissions": [\n    "@network"\n  ],\n  "updatedAt": 1750000000000\n}\n'
    out = capsys.readouterr().out
    assert '-    "@read:/home/alex/blog",' in out


def test_emptying_the_grants_keeps_the_file_json(app_state):
    assert cli.main(["edit", str(app_state), "--set", "permissions=[]", "--set", "updatedAt=1"]) == 0
    assert app_state.read_bytes() == b'{\n  "permissions": [],\n  "updatedAt": 1\n}\n'


@pytest.mark.parametrize("args", [
    ["--set", "permissions=[read everything]"],
    ["--set", "color=blue"],
    ["--set", "permissions=[]", "--body-file", "x.md"],
])
def test_state_json_refusals_leave_it_untouched(app_state, capsys, args):
    assert cli.main(["edit", str(app_state), *args]) == 2
    assert app_state.read_bytes() == STATE
    assert "refused" in capsys.readouterr().err


def test_settings_json_dotted_keys(tmp_path, capsys):
    path = tmp_path / "settings.json"
    path.write_bytes(SETTINGS)
    assert cli.main(["edit", str(path), "--set", "engine.dataDir=/data", "--set",
                     "engine.db.url=postgresql://alex:hunter2@db.local/daycare"]) == 0
    assert path.read_bytes() == (
        b'{\n  "engine": {\n    "dataDir": "/data",\n    "db": {\n'
        b'      "url": "postgresql://alex:hunter2@db.local/daycare"\n    }\n  },\n'
        b'  "assistant": {\n    "workspaceDir": "ws"\n  }\n}\n')
    out = capsys.readouterr().out
    assert "hunter2" not in out and "postgresql://alex:••••••••@db.local/daycare" in out


@pytest.mark.parametrize("name, data", [
    ("agents/a1/state.json", b'{"state": "active"}\n'),
    ("auth.json", b'{"openai": {"type": "api", "key": "sk-x"}}\n'),
    ("notes.txt", b"hello\n"),
    ("cron/x/STATE.json", b'{"lastRunAt": "2026-02-19T02:00:00.000Z"}\n'),
])
def test_files_it_does_not_know_are_refused_byte_identical(tmp_path, capsys, name, data):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    assert cli.main(["edit", str(path), "--set", "permissions=[]"]) == 2
    assert path.read_bytes() == data
    assert "not this file" in capsys.readouterr().err


def test_broken_json_is_refused(app_state):
    app_state.write_bytes(b'{"permissions": [')
    assert cli.main(["edit", str(app_state), "--set", "permissions=[]"]) == 2
    assert app_state.read_bytes() == b'{"permissions": ['


# --- a TASK.md Daycare no longer reads (item 4) ------------------------------------------------------------

@pytest.fixture
def imported_task(fixture_copy):
    store = fixture_copy("daycare-808af509")
    task = store / "cron" / "dailycleanup" / "TASK.md"
    os.chmod(task.parent, 0o755)
    os.chmod(task, 0o644)
    return store, task


def test_imported_task_file_is_refused_without_force_and_names_the_row(imported_task, capsys):
    store, task = imported_task
    before = task.read_bytes()
    assert cli.main(["edit", str(task), "--set", "name=Nightly cleanup"]) == 2
    assert task.read_bytes() == before
    err = capsys.readouterr().err
    assert "tasks_cron row 'dailycleanup'" in err and str(store / "daycare.db") in err
    assert "--force" in err


def test_imported_task_check_says_it_would_be_refused_and_force_writes(imported_task, capsys):
    """--check gives the real run's verdict (issue 34): "valid" for an edit the run refuses misled."""
    _store, task = imported_task
    before = task.read_bytes()
    assert cli.main(["edit", str(task), "--set", "name=Nightly cleanup", "--check"]) == 2
    assert task.read_bytes() == before
    err = capsys.readouterr().err
    assert "would be refused (--check)" in err and "does not read" in err and "valid" not in err
    assert cli.main(["edit", str(task), "--set", "name=Nightly cleanup", "--check", "--force"]) == 0
    assert "valid; not written" in capsys.readouterr().err and task.read_bytes() == before
    assert cli.main(["edit", str(task), "--set", "name=Nightly cleanup", "--force"]) == 0
    assert task.read_bytes() == before.replace(b"name: Daily cleanup", b"name: Nightly cleanup")
    assert "does not read" in capsys.readouterr().err


def test_task_file_daycare_reads_needs_no_force(fixture_copy):
    store = fixture_copy("daycare-808af509", with_db=False)  # not imported yet: Daycare reads the file
    task = store / "cron" / "dailycleanup" / "TASK.md"
    os.chmod(task.parent, 0o755)
    os.chmod(task, 0o644)
    assert cli.main(["edit", str(task), "--set", "name=Nightly cleanup"]) == 0
    assert b"name: Nightly cleanup" in task.read_bytes()


def test_task_file_added_after_the_import_is_refused_without_force(imported_task, capsys):
    store, task = imported_task
    late = store / "cron" / "later" / "TASK.md"
    late.parent.mkdir()
    late.write_bytes(task.read_bytes())
    assert cli.main(["edit", str(late), "--set", "name=Later"]) == 2
    assert "was not imported" in capsys.readouterr().err
    assert late.read_bytes() == task.read_bytes()


def test_task_file_beside_a_pglite_store_is_refused_without_force(pglite_store, capsys):
    heartbeat = pglite_store / "heartbeat" / "morning.md"
    heartbeat.parent.mkdir()
    heartbeat.write_bytes(b"---\ntitle: Morning\n---\nSay hello.\n")
    assert cli.main(["edit", str(heartbeat), "--set", "title=Evening"]) == 2
    assert "PGlite" in capsys.readouterr().err
    assert heartbeat.read_bytes() == b"---\ntitle: Morning\n---\nSay hello.\n"


def test_a_read_only_file_is_refused_in_a_line(app_state, capsys):
    os.chmod(app_state, 0o444)
    assert cli.main(["edit", str(app_state), "--set", "permissions=[]"]) == 2
    assert app_state.read_bytes() == STATE and os.stat(app_state).st_mode & 0o777 == 0o444
    assert "is read-only (mode 0444); nothing was written" in capsys.readouterr().err


# --- while Daycare's engine runs (QA: every file write ignored a live engine) ---------------------------

@pytest.fixture
def live_store(tmp_path):
    """A store whose engine.pid names a live process (this one): Daycare's engine "runs"."""
    root = tmp_path / "daycare"
    skill = root / "skills" / "review" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_bytes(b"---\nname: review\ndescription: old\n---\nReview the week.\n")
    (root / "settings.json").write_bytes(b'{\n  "memory": {\n    "enabled": true\n  }\n}\n')
    state = root / "workspace" / "apps" / "deploy-check" / "state.json"
    state.parent.mkdir(parents=True)
    state.write_bytes(STATE)
    (root / "engine.pid").write_text(f"{os.getpid()}\n")
    return root


LIVE_EDITS = [
    ("skills/review/SKILL.md", "description=new", b"description: new"),
    ("settings.json", "memory.enabled=false", b'"enabled": false'),
    ("workspace/apps/deploy-check/state.json", 'permissions=["@network"]', b'"permissions": [\n    "@network"\n  ]'),
]


@pytest.mark.parametrize("name, assignment, written", LIVE_EDITS)
def test_a_running_engine_refuses_the_write_with_exit_2_and_says_why(live_store, capsys, name, assignment, written):
    path = live_store / name
    before = path.read_bytes()
    assert cli.main(["edit", str(path), "--set", assignment]) == 2
    assert path.read_bytes() == before
    err = capsys.readouterr().err
    assert "refused" in err and "engine is running" in err and f"process {os.getpid()}" in err
    assert "--force" in err


@pytest.mark.parametrize("name, assignment, written", LIVE_EDITS)
def test_force_writes_while_the_engine_runs_and_still_warns(live_store, capsys, name, assignment, written):
    path = live_store / name
    assert cli.main(["edit", str(path), "--set", assignment, "--force"]) == 0
    assert written in path.read_bytes()
    assert "engine is running" in capsys.readouterr().err


def test_check_while_the_engine_runs_says_it_would_be_refused_and_writes_nothing(live_store, capsys):
    path = live_store / "skills" / "review" / "SKILL.md"
    before = path.read_bytes()
    assert cli.main(["edit", str(path), "--set", "description=new", "--check"]) == 2  # as the real run
    assert path.read_bytes() == before
    err = capsys.readouterr().err
    assert "engine is running" in err and "would be refused (--check)" in err


def test_a_stale_pid_file_does_not_block_the_write(live_store):
    (live_store / "engine.pid").write_text("999999999\n")  # no such process: the engine crashed long ago
    path = live_store / "skills" / "review" / "SKILL.md"
    assert cli.main(["edit", str(path), "--set", "description=new"]) == 0
    assert b"description: new" in path.read_bytes()


@pytest.mark.parametrize("assignment, says", [
    ('engine={"dataDir": 5}', "engine.dataDir must be non-empty text"),
    ("engine=null", "engine must be an object"),
    ('engine={"db":{"autoMigrate":"nope"}}', "engine.db.autoMigrate must be true or false"),
    ("plugins=7", "plugins must be a list"),
])
def test_settings_json_parent_keys_cannot_smuggle_in_a_value_daycare_refuses(tmp_path, capsys, assignment, says):
    """QA: --set engine.dataDir=5 was refused but these were written, and Daycare would not start."""
    path = tmp_path / "settings.json"
    path.write_bytes(SETTINGS)
    assert cli.main(["edit", str(path), "--set", assignment]) == 2
    assert path.read_bytes() == SETTINGS
    assert says in capsys.readouterr().err


# --- a store's file that is a symlink to one of the user's is never written through ------------------------


@pytest.fixture
def linked_task(tmp_path):
    """cron/x/TASK.md of a store, planted as a link to the user's own notes."""
    from daycare_gui.stores.daycare.demo import write_demo

    root = tmp_path / "daycare"
    write_demo(root)
    notes = tmp_path / "home" / "notes.md"
    notes.parent.mkdir()
    notes.write_bytes(b"---\ntitle: My notes\n---\nPrivate.\n")
    task = root / "cron" / "x" / "TASK.md"
    task.parent.mkdir()
    task.symlink_to(notes)
    return task, notes


@pytest.mark.parametrize("force", [(), ("--force",)])
def test_edit_refuses_a_store_file_linked_outside_the_store(linked_task, capsys, force):
    task, notes = linked_task
    assert cli.main(["edit", str(task), "--set", "schedule=0 9 * * *", *force]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (f"daycare-gui edit: refused: {task} leads to {notes}, outside the store's folders; "
                           "nothing was written")
    assert notes.read_bytes() == b"---\ntitle: My notes\n---\nPrivate.\n" and task.is_symlink()


def test_edit_follows_a_link_that_stays_in_the_store(tmp_path):
    from daycare_gui.stores.daycare.demo import write_demo

    root = tmp_path / "daycare"
    write_demo(root)
    real = root / "skills" / "shared.md"
    real.write_bytes(b"---\nname: shared\n---\nBody.\n")
    link = root / "skills" / "alias.md"
    link.symlink_to(real)
    assert cli.main(["edit", str(link), "--set", "name=renamed"]) == 0
    assert link.is_symlink() and real.read_bytes() == b"---\nname: renamed\n---\nBody.\n"

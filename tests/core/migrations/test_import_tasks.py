"""20260220_import_tasks: cron TASK.md and heartbeat files (reference §6.3)."""

from __future__ import annotations

import pytest

from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.runner import MigrationFailed
from tests.core.migrations.helpers import migrate, owner_id

UID = "clh3am2h30000qwer1234abcd"


def cron(root, name, text, state=None):
    folder = root / "cron" / name
    folder.mkdir(parents=True)
    (folder / "TASK.md").write_text(text)
    if state is not None:
        (folder / "STATE.json").write_text(state)


def heartbeat(root, filename, text):
    (root / "heartbeat").mkdir(exist_ok=True)
    (root / "heartbeat" / filename).write_text(text)


def test_cron_aliases(tmp_path):
    cron(tmp_path, "a", f"---\nname: A\ncron: '* * * * *'\ntaskId: {UID}\nagent_id: ag\nuserID: u1\noneOff: true\nenabled: false\ndescription: ' d '\n---\n  do it  \n")
    cron(tmp_path, "b", f"---\nname: B\nschedule: '0 1 * * *'\ntaskId: ' {UID[:-1]}x '\nuser_id: u2\nonce: 'true'\n---\nbody\n",
         state='{"lastRunAt":"2026-02-19T02:00:00.000Z"}')
    cron(tmp_path, "c", f"---\nname: C\nschedule: x\ntaskId: {UID[:-2]}yz\nuserid: u3\ndelete_after_run: true\n---\nbody\n")
    cron(tmp_path, "d", f"---\nname: D\nschedule: x\ntaskId: {UID[:-2]}zz\none_off: true\nenabled: no\n---\nbody\n")
    conn = migrate(tmp_path)
    rows = conn.execute(
        "SELECT id, user_id, agent_id, code, enabled, delete_after_run, description, schedule, last_run_at FROM tasks_cron ORDER BY id"
    ).fetchall()
    assert rows == [
        ("a", "u1", "ag", "do it", 0, 1, "d", "* * * * *", None),
        ("b", "u2", None, "body", 1, 0, None, "0 1 * * *", 1771466400000),
        ("c", "u3", None, "body", 1, 1, None, "x", None),
        # `no` is a string in YAML 1.2 (as gray-matter reads it), so the task stays enabled.
        ("d", owner_id(conn), None, "body", 1, 1, None, "x", None),
    ]


def test_cron_invalid_task_id_missing_fields_or_empty_body_are_skipped(tmp_path):
    cron(tmp_path, "short", "---\nname: A\nschedule: x\ntaskId: abc123\n---\nbody\n")
    cron(tmp_path, "upper", f"---\nname: A\nschedule: x\ntaskId: {UID.upper()}\n---\nbody\n")
    cron(tmp_path, "noname", f"---\nschedule: x\ntaskId: {UID}\n---\nbody\n")
    cron(tmp_path, "empty", f"---\nname: A\nschedule: x\ntaskId: {UID}\n---\n   \n")
    (tmp_path / "cron" / "nofile").mkdir()
    conn = migrate(tmp_path)
    assert conn.execute("SELECT COUNT(*) FROM tasks_cron").fetchone()[0] == 0


def test_invalid_yaml_frontmatter_aborts_like_gray_matter(tmp_path):
    cron(tmp_path, "a", "---\nname: [unclosed\n---\nbody\n")
    with pytest.raises(MigrationFailed) as err:
        migrate(tmp_path)
    assert err.value.name == "20260220_import_tasks"


def test_heartbeat_titles_and_ids(tmp_path):
    heartbeat(tmp_path, "Morning Status!.md", "---\ntitle: Morning status\n---\nSummarize.\n")
    heartbeat(tmp_path, "by-name.MD", "---\nname: '  '\n---\nbody\n")
    heartbeat(tmp_path, "heading.md", "## Weekly review  \n\nCheck the week.\n")
    heartbeat(tmp_path, "plain.md", "Just code\n")
    heartbeat(tmp_path, "only-heading.md", "# Title only\n")
    heartbeat(tmp_path, "empty.md", "---\ntitle: x\n---\n\n")
    heartbeat(tmp_path, "notes.txt", "ignored")
    heartbeat(tmp_path, "!!!.md", "odd name\n")
    (tmp_path / "heartbeat" / ".heartbeat-state.json").write_text('{"lastRunAt":"2026-02-19T08:00:00.000Z"}')
    conn = migrate(tmp_path)
    rows = conn.execute("SELECT id, title, code, last_run_at, user_id FROM tasks_heartbeat ORDER BY id").fetchall()
    owner = owner_id(conn)
    assert rows == [
        ("!!!", "!!!", "odd name", 1771488000000, owner),
        ("by-name", "by-name", "body", 1771488000000, owner),
        ("heading", "Weekly review", "Check the week.", 1771488000000, owner),
        ("morning-status", "Morning status", "Summarize.", 1771488000000, owner),
        ("plain", "plain", "Just code", 1771488000000, owner),
    ]


def test_existing_rows_are_kept(tmp_path):
    conn = migrate(tmp_path, migrations=MIGRATIONS[:5])
    conn.execute("INSERT INTO tasks_heartbeat (id, title, prompt, created_at, updated_at) VALUES ('plain', 'old', 'old', 1, 1)")
    conn.close()
    heartbeat(tmp_path, "plain.md", "new\n")
    conn = migrate(tmp_path)
    assert conn.execute("SELECT title, code FROM tasks_heartbeat").fetchall() == [("old", "old")]

"""Writes the bot would not see as we meant them are refused with the reason, and listed as problems: a key
written twice (the bot's json keeps the last), a byte-order mark (the bot's json rejects it). Saves keep the
file's own line endings, back up with the original's permissions, ask first when leftover WAL files say the
bot may run where its locks are invisible, and touch only this deployment's documents."""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import replace

import pytest

from daycare_gui.stores.api import Actions, Collections, Documents, Tasks, WriteRefused
from daycare_gui.stores.cianaparrot import KIND
from daycare_gui.stores.common.edit.atomic import sha256_of

TASK = ('[\n  {\n    "id": "t1",\n    "prompt": "Say hi",\n    "type": "interval",\n    "value": 3600,\n'
        '    "channel": "telegram",\n    "chat_id": "1",\n    "last_run": null,\n    "active": true\n  }\n]')


def _backups(deployment):
    folder = deployment / "data" / ".daycare-gui-backups"
    return sorted(folder.iterdir()) if folder.exists() else []


def _problems(store, name):
    return [p.message for p in store.problems if p.path.endswith(name)]


# -- a key written twice ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text, change", [
    (TASK.replace('"prompt": "Say hi",', '"prompt": "Say hi",\n    "prompt": "LAST",'),
     {"prompt": "Say hello"}),
    (TASK.replace('"active": true', '"active": true,\n    "model_tier": "lite",\n    "model_tier": "pro"'),
     {"model_tier": ""}),
])
def test_an_edit_of_a_task_key_written_twice_is_refused_naming_the_key(deployment, text, change):
    path = deployment / "data" / "scheduled_tasks.json"
    path.write_text(text)
    (key,) = change
    with KIND.open(deployment) as store:
        tasks = store.capability(Tasks)
        (task,) = tasks.tasks()
        assert f'"{key}" written more than once in this task' in task.problem
        with pytest.raises(WriteRefused) as refused:
            tasks.update(task, change)
    said = str(refused.value)
    assert f'"{key}" 2 times' in said and "reads only the last" in said and "nothing was written" in said
    assert path.read_text() == text and _backups(deployment) == []


def test_the_counter_repair_refuses_a_chat_written_twice(deployment):
    path = deployment / "data" / "session_counters.json"
    text = '{\n  "telegram_123456": 0,\n  "telegram_123456": 0\n}'
    path.write_text(text)
    with KIND.open(deployment) as store:
        assert any('"telegram_123456" written more than once' in m
                   for m in _problems(store, "session_counters.json"))
        with pytest.raises(WriteRefused, match='"telegram_123456" 2 times.*reads only the last'):
            store.capability(Actions).run("counters-repair")
    assert path.read_text() == text and _backups(deployment) == []
    assert json.loads(text) == {"telegram_123456": 0}  # what the bot would keep reading


def test_claude_code_states_with_a_key_written_twice_are_flagged_where_they_are_listed(deployment):
    """Like the counters, a JsonStore file: the bot keeps the last of each key (and drops the others when it
    next saves). The kind never writes this file, so there is no edit to refuse."""
    path = deployment / "data" / "cc_user_states.json"
    text = ('{\n  "123456": {"mode": "claude_code", "active_model": "sonnet", "mode": "normal"},\n'
            '  "999": {"mode": "claude_code"},\n  "999": {"mode": "normal"}\n}')
    path.write_text(text)
    with KIND.open(deployment) as store:
        assert _problems(store, "cc_user_states.json") == [
            '"999" written more than once in cc_user_states.json: the bot reads only the last one',
            '"mode" written more than once in the state of user 123456 in cc_user_states.json: the bot reads '
            'only the last one']
        rows = {r.key: r for r in store.capability(Collections).rows("claude_code", 0, 10)}
        assert rows["123456"].values[1] == "normal"  # as the bot reads it
        assert rows["123456"].problem == ('"mode" written more than once in this state: the bot reads only the '
                                          'last one')
        assert rows["999"].values[1] == "normal"
        assert rows["999"].problem == ("this user is written more than once in the file: the bot reads only the "
                                       "last one")
    assert path.read_text() == text and _backups(deployment) == []


# -- line endings ---------------------------------------------------------------------------------------


def test_text_inserted_into_a_crlf_file_uses_crlf(deployment):
    tasks_file = deployment / "data" / "scheduled_tasks.json"
    tasks_file.write_bytes(TASK.replace("\n", "\r\n").encode() + b"\r\n")
    counters = deployment / "data" / "session_counters.json"
    counters.write_bytes(b'{\r\n  "other_1": 3\r\n}\r\n')
    with KIND.open(deployment) as store:
        tasks = store.capability(Tasks)
        tasks.update(tasks.tasks()[0], {"prompt": "Say hello", "model_tier": "lite"})
        store.capability(Actions).run("counters-repair")
    after = tasks_file.read_bytes()
    assert b'"active": true,\r\n    "model_tier": "lite"\r\n  }' in after
    assert b"\n" not in after.replace(b"\r\n", b"")  # no line of the file ends differently
    assert counters.read_bytes() == b'{\r\n  "other_1": 3,\r\n  "telegram_123456": 2\r\n}\r\n'


# -- backups of private files ------------------------------------------------------------------------------


def test_backups_keep_the_originals_permissions_in_a_folder_for_the_owner_only(deployment):
    memory, tasks_file = deployment / "workspace" / "MEMORY.md", deployment / "data" / "scheduled_tasks.json"
    memory.chmod(0o600)
    tasks_file.chmod(0o640)
    folder = deployment / "data" / ".daycare-gui-backups"
    with KIND.open(deployment) as store:
        docs = store.capability(Documents)
        ref = next(d for d in docs.documents() if d.title == "MEMORY.md")
        old = docs.read(ref)
        docs.save(ref, old + b"- my bank PIN is 1234\n", sha256_of(old))
        folder.chmod(0o755)  # as an earlier version left it
        tasks = store.capability(Tasks)
        tasks.update(tasks.tasks()[0], {"prompt": "new"})
    modes = {b.name.split(".")[0]: stat.S_IMODE(b.stat().st_mode) for b in _backups(deployment)}
    assert modes == {"workspace__MEMORY": 0o600, "data__scheduled_tasks": 0o640}
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(memory.stat().st_mode) == 0o600  # the saved file keeps its own mode too


def test_a_read_only_file_is_refused_before_any_backup_or_question(deployment):
    """A file the user marked read-only: no "write anyway" could get past it, so none is asked."""
    from daycare_gui.stores.common.edit.atomic import ReadOnlyError

    memory = deployment / "workspace" / "MEMORY.md"
    memory.chmod(0o444)
    before = memory.read_bytes()
    with KIND.open(deployment) as store:
        docs = store.capability(Documents)
        ref = next(d for d in docs.documents() if d.title == "MEMORY.md")
        with pytest.raises(ReadOnlyError, match="read-only"):
            docs.save(ref, before + b"- more\n", sha256_of(before), force=True)
    assert memory.read_bytes() == before and stat.S_IMODE(memory.stat().st_mode) == 0o444
    assert _backups(deployment) == []


# -- a bot whose locks cannot be seen -----------------------------------------------------------------------


def test_leftover_wal_files_make_writes_ask_first(deployment):
    """Docker Desktop: the bot runs in a VM, its locks never show here; only its -wal/-shm do."""
    db = deployment / "data" / "checkpoints.db"
    path = deployment / "data" / "scheduled_tasks.json"
    (deployment / "data" / "session_counters.json").write_text('{"telegram_123456": 1}')  # one to raise
    before = path.read_bytes()
    with KIND.open(deployment) as opened:
        old = time.time() - 600
        for suffix in ("-wal", "-shm"):
            side = db.with_name(db.name + suffix)
            side.write_bytes(b"")
            os.utime(side, (old, old))
        reason = opened.writes_blocked()
        assert "may be running where its locks are not visible" in reason
        assert "stopped without closing" in reason and "removes them when it closes cleanly" in reason
        tasks = opened.capability(Tasks)
        with pytest.raises(WriteRefused, match="may be running where its locks are not visible.*insist"):
            tasks.update(tasks.tasks()[0], {"prompt": "changed while the bot may be running"})
        with pytest.raises(WriteRefused, match="may be running"):
            opened.capability(Actions).run("counters-repair")
        docs = opened.capability(Documents)
        memory = next(d for d in docs.documents() if d.title == "MEMORY.md")
        with pytest.raises(WriteRefused, match="may be running"):
            docs.save(memory, b"x", sha256_of(docs.read(memory)))
        assert path.read_bytes() == before and _backups(deployment) == []
        assert not opened.summary().engine_running  # not said to run: only writes ask
        assert opened.engine_state() == ("maybe", reason)  # the status bar: "may be running"
        tasks.update(tasks.tasks()[0], {"prompt": "written anyway"}, force=True)  # the user insisted
        assert json.loads(path.read_text())[0]["prompt"] == "written anyway"
        for suffix in ("-wal", "-shm"):
            db.with_name(db.name + suffix).unlink()
        assert opened.writes_blocked() is None


# -- documents ------------------------------------------------------------------------------------------


def test_a_document_ref_pointing_outside_the_deployment_is_refused(opened, deployment, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n")
    docs = opened.capability(Documents)
    known = next(d for d in docs.documents() if d.title == "IDENTITY.md")
    for ref in (replace(known, path=outside), replace(known, id="workspace/ELSEWHERE.md")):
        with pytest.raises(WriteRefused, match="not one of this deployment's documents"):
            docs.save(ref, b"overwritten\n", sha256_of(outside.read_bytes()))
    assert outside.read_text() == "precious\n" and _backups(deployment) == []
    old = docs.read(known)
    docs.save(known, old + b"More.\n", sha256_of(old))  # its own documents still save
    assert (deployment / "workspace" / "IDENTITY.md").read_bytes() == old + b"More.\n"


# -- a byte-order mark ----------------------------------------------------------------------------------


def test_a_file_starting_with_a_bom_is_a_problem_and_its_save_says_why(deployment):
    tasks_file = deployment / "data" / "scheduled_tasks.json"
    counters = deployment / "data" / "session_counters.json"
    tasks_file.write_bytes(b"\xef\xbb\xbf" + TASK.encode())
    counters.write_bytes(b'\xef\xbb\xbf{"telegram_123456": 0}')
    with pytest.raises(ValueError):  # what the bot's scheduler and JsonStore do with them
        json.loads(tasks_file.read_text(encoding="utf-8"))
    with KIND.open(deployment) as store:
        for name in ("scheduled_tasks.json", "session_counters.json"):
            assert any(m.startswith(f"{name} starts with a byte-order mark, which the bot cannot read")
                       for m in _problems(store, name)), name
        tasks = store.capability(Tasks)
        (task,) = tasks.tasks()
        assert "byte-order mark" in task.problem and "never runs" in task.problem
        with pytest.raises(WriteRefused) as refused:
            tasks.update(task, {"prompt": "Say hello"})
        assert "scheduled_tasks.json starts with a byte-order mark" in str(refused.value)
        assert "unexpected character" not in str(refused.value)
        with pytest.raises(WriteRefused, match="session_counters.json starts with a byte-order mark"):
            store.capability(Actions).run("counters-repair")
    assert tasks_file.read_bytes() == b"\xef\xbb\xbf" + TASK.encode()
    assert counters.read_bytes() == b'\xef\xbb\xbf{"telegram_123456": 0}' and _backups(deployment) == []


def test_a_document_that_is_a_link_out_of_the_deployment_is_not_written_through(deployment, tmp_path):
    """A skill folder we were sent may hold SKILL.md as a link to a file of the user's: the window's save
    must not write there (issue 32), forced or not."""
    outside = tmp_path / "notes.md"
    outside.write_bytes(b"my own notes\n")
    skill = deployment / "workspace" / "IDENTITY.md"
    skill.unlink()
    skill.symlink_to(outside)
    store = KIND.open(deployment)
    try:
        docs = store.capability(Documents)
        ref = next(d for d in docs.documents() if d.title == "IDENTITY.md")
        for force in (False, True):
            with pytest.raises(WriteRefused, match=f"leads to {outside}, outside the store"):
                docs.save(ref, b"---\ninjected: true\n---\n", sha256_of(outside.read_bytes()), force=force)
    finally:
        store.close()
    assert outside.read_bytes() == b"my own notes\n" and _backups(deployment) == []

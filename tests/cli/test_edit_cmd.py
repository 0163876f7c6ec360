"""``daycare-gui edit``: diffs, --check, alias-aware TASK.md edits, refusals (exit 2) and conflicts (exit 3)."""

from __future__ import annotations

import os

import pytest

from daycare_gui import cli
from daycare_gui.commands import edit as edit_cmd

TASK = b'---\nname: Daily cleanup\ncron: "0 2 * * *"\nenabled: true\ntaskId: clh3am2h30000qwer1234abcd\n---\nCheck files.\n'
PERMS = b"## Source Intent\n\nNeed network.\n\n## Rules\n\n### Allow\n- @network\n\n### Deny\n- @write:/\n"


@pytest.fixture
def task(tmp_path):
    path = tmp_path / "cron" / "dailycleanup" / "TASK.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(TASK)
    return path


def test_schedule_edit_writes_to_the_cron_alias_and_prints_a_diff(task, capsys):
    assert cli.main(["edit", str(task), "--set", "schedule=*/15 * * * *", "--set", "enabled=false"]) == 0
    assert task.read_bytes() == TASK.replace(b'"0 2 * * *"', b'"*/15 * * * *"').replace(b"enabled: true", b"enabled: false")
    out = capsys.readouterr().out
    assert '-cron: "0 2 * * *"' in out and '+cron: "*/15 * * * *"' in out


def test_a_store_file_is_backed_up_before_it_is_rewritten(tmp_path, capsys):
    """The command keeps the old text as the window does, in the store's .daycare-gui-backups, and says where."""
    from daycare_gui.stores.common.backups import BACKUP_DIR

    (tmp_path / "settings.json").write_text("{}\n")  # a Daycare store: its config beside its cron folder
    path = tmp_path / "cron" / "dailycleanup" / "TASK.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(TASK)
    assert cli.main(["edit", str(path), "--set", "name=Nightly"]) == 0
    backups = list((tmp_path / BACKUP_DIR).glob("*.bak"))
    assert [b.read_bytes() for b in backups] == [TASK] and b"name: Nightly" in path.read_bytes()
    assert f"the old text is kept in {backups[0]}" in capsys.readouterr().err


def test_check_validates_and_writes_nothing(task, capsys):
    assert cli.main(["edit", str(task), "--set", "name=Nightly", "--check"]) == 0
    assert task.read_bytes() == TASK
    assert "+name: Nightly" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ["--set", "schedule=61 * * * *"],
        ["--set", "taskId=NOT VALID"],
        ["--set", "enabled=maybe"],
        ["--set", "noequals"],
        ["--set", "x=[1,"],
    ],
)
def test_rejected_values_exit_2_and_leave_the_file_untouched(task, capsys, args):
    assert cli.main(["edit", str(task), *args]) == 2
    assert task.read_bytes() == TASK
    assert "refused" in capsys.readouterr().err


def test_broken_frontmatter_and_non_utf8_are_refused(tmp_path):
    broken = tmp_path / "a.md"
    broken.write_bytes(b"---\nname: [\n---\nbody\n")
    assert cli.main(["edit", str(broken), "--set", "name=x"]) == 2
    assert broken.read_bytes() == b"---\nname: [\n---\nbody\n"
    latin = tmp_path / "b.md"
    latin.write_bytes(b"---\nname: caf\xe9\n---\n")
    assert cli.main(["edit", str(latin), "--set", "name=x"]) == 2
    assert latin.read_bytes() == b"---\nname: caf\xe9\n---\n"


def test_missing_file_exits_2(tmp_path):
    assert cli.main(["edit", str(tmp_path / "nope.md"), "--set", "a=1"]) == 2


def test_permissions_keys(tmp_path, capsys):
    path = tmp_path / "PERMISSIONS.md"
    path.write_bytes(PERMS)
    assert cli.main(["edit", str(path), "--set", 'deny=["@write:/", "@events"]', "--set", "intent=Need the network."]) == 0
    assert path.read_bytes() == PERMS.replace(b"Need network.", b"Need the network.") + b"- @events\n"
    assert cli.main(["edit", str(path), "--set", "allow=[read everything]"]) == 2
    assert cli.main(["edit", str(path), "--set", "color=blue"]) == 2
    assert path.read_bytes() == PERMS.replace(b"Need network.", b"Need the network.") + b"- @events\n"


def test_body_file_replaces_the_body(task, tmp_path):
    body = tmp_path / "body.txt"
    body.write_text("New instructions.\n")
    assert cli.main(["edit", str(task), "--body-file", str(body)]) == 0
    assert task.read_bytes() == TASK.replace(b"Check files.\n", b"New instructions.\n")


def test_generic_file_keeps_unknown_keys(tmp_path):
    path = tmp_path / "APP.md"
    path.write_bytes(b"---\nname: app\nx-custom: 1 # note\n---\nPrompt\n")
    assert cli.main(["edit", str(path), "--set", "model=gpt-5"]) == 0
    assert path.read_bytes() == b"---\nname: app\nx-custom: 1 # note\nmodel: gpt-5\n---\nPrompt\n"


def test_nothing_to_change(task, capsys):
    assert cli.main(["edit", str(task), "--set", "name=Daily cleanup"]) == 0
    assert "nothing to change" in capsys.readouterr().out
    assert task.read_bytes() == TASK


def _someone_else_writes_during_the_edit(monkeypatch, path) -> None:
    """The file changes on disk after the command read it and made its edit, before it writes."""
    real_apply = edit_cmd.apply_edits

    def apply_then_someone_else_writes(*args, **kwargs):
        result = real_apply(*args, **kwargs)
        path.write_bytes(TASK + b"edited elsewhere\n")
        return result

    monkeypatch.setattr(edit_cmd, "apply_edits", apply_then_someone_else_writes)


def test_file_changed_during_the_edit_exits_3(task, monkeypatch, capsys):
    _someone_else_writes_during_the_edit(monkeypatch, task)
    assert cli.main(["edit", str(task), "--set", "name=Mine"]) == 3
    assert task.read_bytes() == TASK + b"edited elsewhere\n"
    assert "changed on disk" in capsys.readouterr().err


def test_a_conflict_leaves_no_backup_of_a_text_that_was_never_replaced(tmp_path, monkeypatch, capsys):
    """The backup is taken before the write; when the write finds the file changed meanwhile, nothing is
    replaced, so no stale copy is left in .daycare-gui-backups (it would hold the older of two texts)."""
    from daycare_gui.stores.common.backups import BACKUP_DIR

    (tmp_path / "settings.json").write_text("{}\n")
    path = tmp_path / "cron" / "dailycleanup" / "TASK.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(TASK)
    _someone_else_writes_during_the_edit(monkeypatch, path)
    assert cli.main(["edit", str(path), "--set", "name=Mine"]) == 3
    assert path.read_bytes() == TASK + b"edited elsewhere\n"
    assert list((tmp_path / BACKUP_DIR).glob("*.bak")) == []
    assert "kept in" not in capsys.readouterr().err


@pytest.mark.parametrize("fail_at, error", [
    ("tempfile.mkstemp", PermissionError(13, "Permission denied")),  # a read-only folder
    ("os.replace", OSError(28, "No space left on device")),
])
def test_a_file_that_cannot_be_written_is_refused_in_one_line_with_exit_2(task, monkeypatch, capsys, fail_at, error):
    """QA: `edit rodir/x.md` printed a PermissionError traceback and exited 1."""
    import tempfile

    module, name = fail_at.split(".")

    def fail(*_args, **_kwargs):
        raise error

    monkeypatch.setattr({"tempfile": tempfile, "os": os}[module], name, fail)
    before = task.read_bytes()
    assert cli.main(["edit", str(task), "--set", "name=Changed"]) == 2
    assert task.read_bytes() == before
    monkeypatch.undo()
    assert sorted(p.name for p in task.parent.iterdir()) == ["TASK.md"]  # no temporary file left behind
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert f"refused, {task} left unchanged: it cannot be written in {task.parent}: {error.strerror}" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_refused_with_exit_2(task, capsys):
    os.chmod(task.parent, 0o555)
    try:
        before = task.read_bytes()
        assert cli.main(["edit", str(task), "--set", "name=Changed"]) == 2
        assert task.read_bytes() == before
        assert "Permission denied" in capsys.readouterr().err
    finally:
        os.chmod(task.parent, 0o755)


def test_check_of_a_read_only_file_says_it_would_be_refused(task, capsys):
    os.chmod(task, 0o444)
    assert cli.main(["edit", str(task), "--set", "name=Nightly", "--check"]) == 2
    assert "would be refused (--check)" in capsys.readouterr().err
    assert task.read_bytes() == TASK

"""``daycare-gui edit`` on another kind's documents saves them as the window does: refused while the program
runs (it wrote Linggen and CianaParrot files beside a running program, exit 0, with no backup), the old
text backed up first when it does not run, and that store's other files refused plainly."""

from __future__ import annotations

import os

import pytest

from daycare_gui import cli

BACKUPS = ".daycare-gui-backups"


@pytest.fixture
def linggen(tmp_path):
    from daycare_gui.stores.linggen import write_demo

    return write_demo(tmp_path / "linggen")


@pytest.fixture
def ciana(tmp_path):
    from daycare_gui.stores.cianaparrot.demo import write_demo

    return write_demo(tmp_path / "ciana")


def _tree(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _backups(folder):
    return sorted((folder / BACKUPS).iterdir()) if (folder / BACKUPS).is_dir() else []


def test_a_linggen_agent_is_not_edited_while_linggen_runs(linggen, capsys):
    (linggen / "ling.pid").write_text(f"{os.getpid()}\n")  # a live pid: Linggen runs
    agent = linggen / "agents" / "coder.md"
    before = _tree(linggen)
    assert cli.main(["edit", str(agent), "--set", "description=Changed"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"daycare-gui edit: refused, {agent} left unchanged: Linggen is running")
    assert "Add --force to write it anyway" in err
    assert _tree(linggen) == before  # byte-identical, and no backup either


def test_a_linggen_agent_edit_keeps_a_backup_first(linggen, capsys):
    agent = linggen / "agents" / "coder.md"
    old = agent.read_bytes()
    assert cli.main(["edit", str(agent), "--set", "description=Changed"]) == 0
    assert b"description: Changed" in agent.read_bytes()
    (backup,) = _backups(linggen)
    assert backup.name.startswith("agents__coder.md.") and backup.read_bytes() == old
    assert f"the old text is kept in {backup}" in capsys.readouterr().err


def test_a_cianaparrot_document_is_not_edited_while_the_bot_runs(ciana, capsys):
    (ciana / "data" / "checkpoints.db-wal").write_bytes(b"\0" * 32)  # written just now: the bot is at work
    skill = ciana / "workspace" / "skills" / "weather" / "SKILL.md"
    before = _tree(ciana)
    assert cli.main(["edit", str(skill), "--set", "description=Changed"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"daycare-gui edit: refused, {skill} left unchanged: the CianaParrot bot is running")
    assert _tree(ciana) == before


def test_a_cianaparrot_document_edit_keeps_a_backup_first(ciana, capsys):
    skill = ciana / "workspace" / "skills" / "weather" / "SKILL.md"
    old = skill.read_bytes()
    assert cli.main(["edit", str(skill), "--set", "description=Changed"]) == 0
    assert b"description: Changed" in skill.read_bytes()
    (backup,) = _backups(ciana / "data")
    assert backup.read_bytes() == old and (backup.stat().st_mode & 0o777) == (skill.stat().st_mode & 0o777)


def test_other_files_of_such_a_store_are_refused_plainly(linggen, capsys):
    plan = next((linggen / "plans").glob("*.md"))
    assert cli.main(["edit", str(plan), "--set", "status=done"]) == 2
    assert "Linggen rewrites plan files while an agent works on them" in capsys.readouterr().err
    loose = linggen / "notes.md"
    loose.write_bytes(b"---\na: 1\n---\n")
    assert cli.main(["edit", str(loose), "--set", "a=2"]) == 2
    assert (f"it is in a Linggen store ({linggen}) and is not one of the documents daycare-gui edits there"
            in capsys.readouterr().err)
    assert loose.read_bytes() == b"---\na: 1\n---\n"

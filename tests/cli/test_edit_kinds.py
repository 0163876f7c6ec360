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


# -- the command is blind to kinds: a file is edited by the editor its store's kind offers -------------------

def test_a_kind_from_elsewhere_edits_its_own_files_through_the_same_door(tmp_path, capsys):
    from pathlib import Path

    from daycare_gui.stores import registry
    from daycare_gui.stores.api import Candidate, FileEditor, NotRecognised, StoreKind
    from daycare_gui.stores.common.edit.errors import InvalidValue

    class IniEditor(FileEditor):
        """key = value lines; only the keys the file has; refused while notes.lock is there."""

        def __init__(self, path: Path) -> None:
            self.path = path

        def folders(self):
            return [self.path.parent]

        def apply(self, data, assignments, body):
            lines = data.decode().splitlines()
            for key, value in assignments:
                at = next((i for i, line in enumerate(lines) if line.split("=")[0].strip() == key), None)
                if at is None:
                    raise InvalidValue(f"{self.path.name} has no key {key!r}")
                lines[at] = f"{key} = {value}"
            return ("\n".join(lines) + "\n").encode()

        def blocked(self):
            return "the notes program is running" if (self.path.parent / "notes.lock").exists() else None

    class Notes(StoreKind):
        name, title = "notes", "Notes"

        def probe(self, path):
            found = (Path(path) / "notes.ini").is_file()
            return Candidate(self.name, 1.0 if found else 0.0, "notes.ini" if found else "no notes.ini")

        def open(self, path, *, live=True):
            raise NotRecognised("not opened in this test")

        def file_editor(self, path):
            return IniEditor(Path(path)) if Path(path).name == "notes.ini" else None

    store = tmp_path / "notes"
    store.mkdir()
    ini = store / "notes.ini"
    ini.write_text("title = Old\ncolour = blue\n")
    registry.register("notes", Notes())
    try:
        assert cli.main(["edit", str(ini), "--set", "title=New"]) == 0
        assert ini.read_text() == "title = New\ncolour = blue\n" and "+title = New" in capsys.readouterr().out
        assert cli.main(["edit", str(ini), "--set", "size=3"]) == 2
        assert "notes.ini has no key 'size'" in capsys.readouterr().err
        (store / "notes.lock").write_text("")
        assert cli.main(["edit", str(ini), "--set", "title=Newer"]) == 2
        assert "the notes program is running" in capsys.readouterr().err and "New\n" in ini.read_text()
    finally:
        registry.unregister("notes")

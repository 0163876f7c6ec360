"""``daycare-gui upgrade PATH [--dry-run] [--no-backup]``: output and exit codes."""

from __future__ import annotations

import os

from daycare_gui.cli import main
from daycare_gui.stores.daycare.sqlite.schema_sql import MIGRATIONS_808AF509
from tests.conftest import snapshot_tree


def test_upgrade_fresh_store_then_up_to_date(fixture_copy, capsys):
    folder = fixture_copy("daycare-808af509", with_db=False)
    assert main(["upgrade", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "daycare upgrade"
    assert "Applied migrations: " + ", ".join(MIGRATIONS_808AF509) in out
    assert "Integrity check: ok" in out and "Foreign key check: ok" in out
    assert not any(line.startswith("Backup:") for line in out)  # there was no database to back up

    assert main(["upgrade", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "Storage already up to date." in out


def test_upgrade_reports_backup_location(tmp_path, capsys):
    from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
    from tests.core.migrations.helpers import migrate

    migrate(tmp_path, migrations=MIGRATIONS[:20]).close()
    assert main(["upgrade", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Applied migrations: " + ", ".join(MIGRATIONS_808AF509[20:]) in out
    backups = list(tmp_path.glob("daycare.db.backup-*"))
    assert len(backups) == 1 and f"Backup: {backups[0]}" in out


def test_no_backup_flag(tmp_path, capsys):
    from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
    from tests.core.migrations.helpers import migrate

    migrate(tmp_path, migrations=MIGRATIONS[:3]).close()
    assert main(["upgrade", str(tmp_path), "--no-backup"]) == 0
    assert "Backup:" not in capsys.readouterr().out
    assert not list(tmp_path.glob("daycare.db.backup-*"))


def test_dry_run_prints_plan_and_writes_nothing(fixture_copy, capsys):
    folder = fixture_copy("daycare-808af509", with_db=False)
    before = snapshot_tree(folder)
    assert main(["upgrade", str(folder), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "Pending migrations (26):" in out
    assert "legacy files: 2 agents, 3 sessions, 3 records" in out
    assert "agentusr1/history.jsonl:6" in out
    assert snapshot_tree(folder) == before


def test_failure_exits_1_naming_the_migration(tmp_path, capsys):
    from tests.core.migrations.test_upgrade_safety import sha, store_needing_owner_for_heartbeat

    db = store_needing_owner_for_heartbeat(tmp_path / "s")
    before = sha(db)
    assert main(["upgrade", str(db.parent), "--no-backup"]) == 1
    err = capsys.readouterr().err
    assert "Migration 20260223_add_heartbeat_users failed:" in err
    assert sha(db) == before


def test_a_failed_swap_exits_1_with_a_summary_and_keeps_the_wal(tmp_path, capsys, monkeypatch):
    """QA: the error escaped as a traceback, after the -wal holding committed data had been deleted."""
    from tests.core.migrations.test_upgrade_files import data_files, store_with_wal

    db = store_with_wal(tmp_path)
    before = data_files(db.parent)
    real_replace = os.replace

    def replace(src, dst):
        if os.fspath(dst) == os.fspath(db):
            raise PermissionError(1, "Operation not permitted")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    assert main(["upgrade", str(db.parent), "--no-backup"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert "The upgraded copy could not replace the database: [Errno 1] Operation not permitted" in err
    assert f"Nothing was changed: {db} is exactly as it was before." in err
    assert data_files(db.parent) == before


def test_refusals_exit_2(fixture_copy, capsys):
    newer = fixture_copy("daycare-newer")
    assert main(["upgrade", str(newer)]) == 2
    assert "20260304_scope_task_ids_per_user" in capsys.readouterr().err

    stuck = fixture_copy("daycare-stuck")
    assert main(["upgrade", str(stuck), "--dry-run"]) == 2
    assert "trigger dailycleanup has no task_id" in capsys.readouterr().out

    legacy = fixture_copy("daycare-808af509", with_db=False)
    (legacy / "engine.pid").write_text(f"{os.getpid()}\n")
    assert main(["upgrade", str(legacy)]) == 2
    assert "engine is running" in capsys.readouterr().err


def test_missing_path_exits_2(tmp_path, capsys):
    assert main(["upgrade", str(tmp_path / "nope")]) == 2


# -- issue 18, item 2: nothing is created in a folder that is not a Daycare store needing an upgrade ---------

def _refused_writing_nothing(folder, capsys, *extra):
    before = snapshot_tree(folder)
    names = sorted(p.name for p in folder.rglob("*"))
    assert main(["upgrade", str(folder), *extra]) == 2
    captured = capsys.readouterr()
    assert snapshot_tree(folder) == before and sorted(p.name for p in folder.rglob("*")) == names
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("daycare-gui upgrade: refused, nothing written: ")
    return lines[0]


def test_an_empty_or_foreign_folder_is_refused(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "not a Daycare data directory" in _refused_writing_nothing(empty, capsys)
    foreign = tmp_path / "foreign"
    (foreign / "photos").mkdir(parents=True)
    (foreign / "notes.txt").write_text("hello\n")
    assert "not a Daycare data directory" in _refused_writing_nothing(foreign, capsys)
    assert "not a Daycare data directory" in _refused_writing_nothing(foreign, capsys, "--dry-run")


def test_a_subfolder_of_a_store_is_refused(fixture_copy, capsys):
    store = fixture_copy("daycare-808af509", with_db=False)
    for sub in ("cron", "agents", "channels"):
        assert "not a Daycare data directory" in _refused_writing_nothing(store / sub, capsys)


def test_a_daycare_folder_with_nothing_to_import_is_refused(tmp_path, capsys):
    (tmp_path / "settings.json").write_text('{"engine": {}}\n')
    (tmp_path / "cron").mkdir()  # a folder, but no TASK.md in it
    assert "nothing to upgrade" in _refused_writing_nothing(tmp_path, capsys)


def test_someone_elses_sqlite_database_is_refused(tmp_path, capsys):
    import sqlite3

    db = tmp_path / "daycare.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    conn.commit()
    conn.close()
    before = snapshot_tree(tmp_path)
    assert main(["upgrade", str(tmp_path)]) == 2
    assert "not Daycare's" in capsys.readouterr().err
    assert snapshot_tree(tmp_path) == before


def test_the_core_refuses_too(tmp_path):
    """The window's upgrade dialog goes through the same check."""
    from daycare_gui.stores.daycare.sqlite.migrations.upgrade import plan_upgrade, run_upgrade

    result = run_upgrade(tmp_path / "daycare.db")
    assert result.refusal and "nothing to upgrade" in result.refusal
    assert plan_upgrade(tmp_path / "daycare.db").refusal == result.refusal
    assert list(tmp_path.iterdir()) == []


def test_a_single_legacy_input_is_enough_to_upgrade(tmp_path, capsys):
    (tmp_path / "heartbeat").mkdir()
    (tmp_path / "heartbeat" / "morning.md").write_text("# Morning\n\nSay hello.\n")
    assert main(["upgrade", str(tmp_path), "--no-backup"]) == 0
    assert "Applied migrations: " in capsys.readouterr().out
    assert (tmp_path / "daycare.db").exists()


def test_a_daycare_db_folder_is_refused_as_damage(tmp_path, capsys):
    (tmp_path / "daycare.db").mkdir()
    (tmp_path / "settings.json").write_text("{}")
    before = snapshot_tree(tmp_path)
    for path in (tmp_path, tmp_path / "daycare.db"):
        assert main(["upgrade", str(path), "--dry-run"]) == 2
        captured = capsys.readouterr()
        said = captured.out + captured.err
        assert f"{tmp_path / 'daycare.db'} is a folder, not a database file" in said and "PGlite" not in said
    assert snapshot_tree(tmp_path) == before


def test_pglite_store_is_refused_on_both_paths(pglite_store, capsys):
    """Issue 18, item 10: the daycare.pglite/ folder itself is a Daycare store too, and never upgraded."""
    before = snapshot_tree(pglite_store)
    for path in (pglite_store, pglite_store / "daycare.pglite"):
        assert main(["upgrade", str(path)]) == 2
        err = capsys.readouterr().err
        assert "is a PGlite (PostgreSQL) store" in err and "not a Daycare data directory" not in err
    assert snapshot_tree(pglite_store) == before


# -- the command is blind to kinds: an upgrade is what a kind offers (StoreKind.upgrader) ----------------------

def test_a_kind_from_elsewhere_upgrades_through_the_same_door(tmp_path, capsys):
    from pathlib import Path

    from daycare_gui.stores import registry
    from daycare_gui.stores.api import Candidate, NotRecognised, StoreKind, Upgrader, UpgradeReport

    class NotesUpgrade(Upgrader):
        def __init__(self, folder: Path) -> None:
            self.folder = folder

        def heading(self):
            return ["notes upgrade", f"Folder: {self.folder}"]

        def plan(self):
            return UpgradeReport(("Pending: notes.v1 → notes.v2",))

        def run(self, *, backup, progress=None):
            progress(1, 1, "rename notes.v1")
            (self.folder / "notes.v1").rename(self.folder / "notes.v2")
            return UpgradeReport(("Upgraded to notes.v2",))

    class Notes(StoreKind):
        name, title = "notes", "Notes"

        def probe(self, path):
            found = (Path(path) / "notes.v1").exists()
            return Candidate(self.name, 1.0 if found else 0.0, "a notes.v1 file" if found else "no notes.v1")

        def open(self, path, *, live=True):
            raise NotRecognised("not opened in this test")

        def upgrader(self, path):
            if not (Path(path) / "notes.v1").is_file():
                raise NotRecognised("no notes.v1 to upgrade")
            return NotesUpgrade(Path(path))

    store = tmp_path / "notes"
    store.mkdir()
    (store / "notes.v1").write_text("hello\n")
    registry.register("notes", Notes())
    try:
        assert main(["upgrade", str(store), "--dry-run"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("notes upgrade\n") and "Pending: notes.v1 → notes.v2" in out
        assert (store / "notes.v1").exists()
        assert main(["upgrade", str(store)]) == 0
        said = capsys.readouterr()
        assert "Upgraded to notes.v2" in said.out and "[1/1] rename notes.v1" in said.err
        assert sorted(p.name for p in store.iterdir()) == ["notes.v2"]
        empty = tmp_path / "empty"  # no kind takes it: the refusal of the kind asked first (Daycare)
        empty.mkdir()
        assert main(["upgrade", str(empty)]) == 2
        assert "not a Daycare data directory" in capsys.readouterr().err
    finally:
        registry.unregister("notes")

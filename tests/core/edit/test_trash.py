"""Delete into the store's trash and restore; new items never overwrite."""

from __future__ import annotations

import json
import stat

import pytest

from daycare_gui.core.demo import write_demo
from daycare_gui.core.edit.create import create_app, create_cron_task, create_heartbeat, create_skill
from daycare_gui.core.edit.errors import InvalidValue
from daycare_gui.core.edit.trash import (
    MANIFEST_NAME,
    TrashError,
    list_trash,
    move_to_trash,
    restore,
    trash_dir,
)
from daycare_gui.core.edit.views import CronTaskDoc
from daycare_gui.core.paths import resolve_paths


@pytest.fixture
def store(tmp_path):
    root = tmp_path / "daycare"
    write_demo(root)
    return resolve_paths(root)


def _tree(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_delete_folder_and_restore_round_trip(store):
    folder = store.root / "cron" / "daily-digest"
    before = _tree(folder)
    entry = move_to_trash(store, folder)
    assert not folder.exists()
    assert entry.kind == "folder"
    assert entry.stored == trash_dir(store) / entry.folder.name / "cron" / "daily-digest"
    assert _tree(entry.stored) == before
    manifest = json.loads((entry.folder / MANIFEST_NAME).read_text())
    assert manifest["original"] == str(folder) and manifest["relative"] == "cron/daily-digest"
    assert [e.original for e in list_trash(store)] == [folder]
    assert restore(entry) == folder
    assert _tree(folder) == before
    assert list_trash(store) == []


def test_delete_file_and_restore(store):
    path = store.root / "heartbeat" / "check-inbox.md"
    data = path.read_bytes()
    entry = move_to_trash(store, path)
    assert not path.exists() and entry.kind == "file"
    restore(entry)
    assert path.read_bytes() == data


def test_restore_refuses_when_something_is_there_again(store):
    path = store.root / "heartbeat" / "check-inbox.md"
    entry = move_to_trash(store, path)
    path.write_text("new")
    with pytest.raises(TrashError, match="exists again"):
        restore(entry)
    assert path.read_text() == "new" and entry.stored.exists()


def test_refuses_outside_the_store_and_protected_paths(store, tmp_path):
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("x")
    with pytest.raises(TrashError, match="not inside"):
        move_to_trash(store, outside)
    assert outside.exists()
    for protected in (store.db_path, store.root, store.settings_path):
        with pytest.raises(TrashError):
            move_to_trash(store, protected)
    entry = move_to_trash(store, store.root / "heartbeat" / "check-inbox.md")
    with pytest.raises(TrashError, match="already in the trash"):
        move_to_trash(store, entry.stored)


def test_two_deletes_in_the_same_instant_get_separate_folders(store):
    import datetime as dt

    now = dt.datetime(2026, 1, 1, 12, 0, 0)
    a = move_to_trash(store, store.root / "heartbeat" / "check-inbox.md", now=now)
    b = move_to_trash(store, store.root / "heartbeat" / "budget-watch.md", now=now)
    assert a.folder != b.folder
    assert len(list_trash(store)) == 2


def test_create_cron_task_and_refuse_overwrite(store):
    path = create_cron_task(store, "Water the plants", "0 8 * * *")
    assert path == store.legacy_dir / "cron" / "water-the-plants" / "TASK.md"
    view = CronTaskDoc.parse(path.read_bytes())
    assert view.get_field("schedule") == "0 8 * * *" and view.problems() == []
    with pytest.raises(FileExistsError):
        create_cron_task(store, "Water the plants")
    with pytest.raises(FileExistsError):
        create_cron_task(store, "Daily digest", folder_id="daily-digest")
    with pytest.raises(InvalidValue):
        create_cron_task(store, "Broken", "every day")
    assert not (store.legacy_dir / "cron" / "broken").exists()


def test_create_heartbeat_app_skill(store):
    hb = create_heartbeat(store, "Check the mail")
    assert hb == store.legacy_dir / "heartbeat" / "check-the-mail.md"
    with pytest.raises(FileExistsError):
        create_heartbeat(store, "Check the mail")
    app = create_app(store.workspace_dir / "apps", "notes", "Notes", "Keeps notes")
    assert sorted(p.name for p in app.iterdir()) == ["APP.md", "PERMISSIONS.md"]
    with pytest.raises(FileExistsError):
        create_app(store.workspace_dir / "apps", "deploy-check", "D", "d")
    assert (store.workspace_dir / "apps" / "deploy-check" / "APP.md").read_text().startswith("---\nname: deploy-check")
    skill = create_skill(store.root / "skills", "Tidy up", "Clean the desktop")
    assert skill == store.root / "skills" / "tidy-up" / "SKILL.md"


def test_the_trash_keeps_an_item_private_to_its_owner(store):
    folder = store.root / "cron" / "daily-digest"
    folder.chmod(0o700)  # its files are private through their folder, not their own modes
    entry = move_to_trash(store, folder)
    assert stat.S_IMODE(entry.folder.stat().st_mode) == 0o700

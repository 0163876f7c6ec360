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


# --- across file systems: copy, verify, then remove; the trash copy is never deleted once removal began ---


def _modes(folder):
    return {str(p.relative_to(folder)): p.stat().st_mode & 0o7777 for p in sorted(folder.rglob("*"))}


@pytest.fixture
def cross_device(monkeypatch):
    """Every rename fails as it does between two file systems (the workspace on another disk)."""
    import errno
    import os

    def rename(src, dst, *args, **kwargs):
        raise OSError(errno.EXDEV, "Invalid cross-device link", str(src), None, str(dst))

    monkeypatch.setattr(os, "rename", rename)


@pytest.fixture
def app_with_data(store):
    app = store.workspace_dir / "apps" / "deploy-check"
    for i in range(5):
        (app / f"data{i}.txt").write_text(f"precious {i}\n")
    (app / "data0.txt").chmod(0o600)
    return app


def test_cross_device_delete_copies_verifies_then_removes(store, app_with_data, cross_device):
    before, modes = _tree(app_with_data), _modes(app_with_data)
    entry = move_to_trash(store, app_with_data)
    assert not app_with_data.exists()
    assert _tree(entry.stored) == before and _modes(entry.stored) == modes  # modes kept too
    assert [e.original for e in list_trash(store)] == [app_with_data]
    assert restore(entry) == app_with_data  # back across the file systems the same way
    assert _tree(app_with_data) == before and _modes(app_with_data) == modes
    assert list_trash(store) == [] and not any(trash_dir(store).iterdir())


def test_cross_device_delete_whose_removal_fails_midway_keeps_the_full_copy(store, app_with_data, cross_device,
                                                                          monkeypatch):
    import os

    from daycare_gui.core.edit import trash

    before = _tree(app_with_data)
    real_unlink, refused = os.unlink, []

    def unlink(path, *args, **kwargs):  # the original's data3.txt cannot be removed (once)
        if os.path.basename(os.fspath(path)) == "data3.txt" and not refused:
            refused.append(path)
            raise PermissionError(1, "Operation not permitted", os.fspath(path))
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(TrashError) as failed:
        move_to_trash(store, app_with_data)
    monkeypatch.setattr(os, "unlink", real_unlink)
    # Nothing is lost: the trash holds the whole folder, the original only what could not be removed.
    (entry,) = list_trash(store)
    assert entry.original == app_with_data and _tree(entry.stored) == before
    assert _tree(app_with_data) == {"data3.txt": before["data3.txt"]}
    message = str(failed.value)
    assert str(app_with_data / "data3.txt") in message and "full copy is in the Trash" in message
    assert isinstance(failed.value, trash.TrashIncomplete) and failed.value.remaining == [app_with_data / "data3.txt"]
    # The user removes the rest by hand; the copy restores the folder byte for byte.
    (app_with_data / "data3.txt").unlink()
    app_with_data.rmdir()
    restore(entry)
    assert _tree(app_with_data) == before


def test_cross_device_copy_that_fails_deletes_nothing(store, app_with_data, cross_device, monkeypatch):
    import os
    import shutil

    before = _tree(app_with_data)
    real_copyfile = shutil.copyfile

    def copyfile(src, dst, *args, **kwargs):
        if os.path.basename(os.fspath(src)) == "data2.txt":
            raise OSError(28, "No space left on device", os.fspath(dst))
        return real_copyfile(src, dst, *args, **kwargs)

    monkeypatch.setattr(shutil, "copyfile", copyfile)
    with pytest.raises(TrashError, match="No space left.*nothing was deleted"):
        move_to_trash(store, app_with_data)
    assert _tree(app_with_data) == before
    assert list_trash(store) == [] and not any(trash_dir(store).iterdir())  # the partial copy is gone


def read_only(monkeypatch, folder):
    """``folder`` refuses new entries as a read-only folder does (simulated as well: root ignores modes)."""
    import builtins
    import errno
    import os

    folder = os.path.realpath(folder)

    def inside(path) -> bool:
        return os.path.realpath(os.fspath(path)).startswith(folder + os.sep)

    def denied(path):
        return PermissionError(errno.EACCES, "Permission denied", os.fspath(path))

    real_rename, real_open, real_mkdir = os.rename, builtins.open, os.mkdir

    def rename(src, dst, *args, **kwargs):
        if inside(src) or inside(dst):
            raise denied(dst)
        return real_rename(src, dst, *args, **kwargs)

    def open_(file, mode="r", *args, **kwargs):
        if isinstance(file, (str, bytes, os.PathLike)) and set(mode) & set("wxa+") and inside(file):
            raise denied(file)
        return real_open(file, mode, *args, **kwargs)

    def mkdir(path, *args, **kwargs):
        if inside(path):
            raise denied(path)
        return real_mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "rename", rename)
    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(os, "mkdir", mkdir)


def test_restore_into_a_read_only_folder_says_so_and_keeps_the_item(store):
    path = store.root / "heartbeat" / "check-inbox.md"
    data = path.read_bytes()
    entry = move_to_trash(store, path)
    with pytest.MonkeyPatch.context() as mp:
        read_only(mp, path.parent)
        with pytest.raises(TrashError, match="cannot restore .*Permission denied.*still in the trash"):
            restore(entry)
    assert not path.exists() and entry.stored.read_bytes() == data
    assert list_trash(store) == [entry]
    restore(entry)  # once the folder is writable again
    assert path.read_bytes() == data

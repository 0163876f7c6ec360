"""Atomic saves: keep the file mode, refuse on a content change (even with the same mtime), leave no temp files."""

from __future__ import annotations

import os
import stat

import pytest

from daycare_gui.stores.common.edit.atomic import ConflictError, load_for_edit, save_atomic


def _tmp_files(directory):
    return [p.name for p in directory.iterdir() if p.name.endswith(".tmp")]


def test_save_replaces_content_and_keeps_mode(tmp_path):
    path = tmp_path / "TASK.md"
    path.write_bytes(b"old")
    os.chmod(path, 0o640)
    loaded = load_for_edit(path)
    assert loaded.data == b"old" and loaded.mode == 0o640
    saved = save_atomic(path, b"new", expected_sha256=loaded.sha256)
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert saved.sha256 != loaded.sha256
    assert _tmp_files(tmp_path) == []


def test_content_change_with_same_mtime_is_a_conflict(tmp_path):
    path = tmp_path / "a.md"
    path.write_bytes(b"one")
    loaded = load_for_edit(path)
    path.write_bytes(b"two")
    os.utime(path, (loaded.mtime, loaded.mtime))  # a tool restored the mtime: only the hash can tell
    with pytest.raises(ConflictError) as caught:
        save_atomic(path, b"mine", expected_sha256=loaded.sha256)
    assert caught.value.current == b"two"
    assert path.read_bytes() == b"two"
    assert _tmp_files(tmp_path) == []


def test_deleted_file_is_a_conflict(tmp_path):
    path = tmp_path / "a.md"
    path.write_bytes(b"one")
    loaded = load_for_edit(path)
    path.unlink()
    with pytest.raises(ConflictError) as caught:
        save_atomic(path, b"mine", expected_sha256=loaded.sha256)
    assert caught.value.current is None
    assert not path.exists()


def test_force_overwrites_after_a_conflict(tmp_path):
    path = tmp_path / "a.md"
    path.write_bytes(b"one")
    loaded = load_for_edit(path)
    path.write_bytes(b"two")
    save_atomic(path, b"mine", expected_sha256=loaded.sha256, force=True)
    assert path.read_bytes() == b"mine"


def test_new_file_must_not_exist(tmp_path):
    path = tmp_path / "new.md"
    save_atomic(path, b"x", expected_sha256=None)
    assert path.read_bytes() == b"x"
    with pytest.raises(ConflictError):
        save_atomic(path, b"y", expected_sha256=None)


def test_failed_write_leaves_no_temp_file_and_original_intact(tmp_path, monkeypatch):
    path = tmp_path / "a.md"
    path.write_bytes(b"one")
    loaded = load_for_edit(path)

    def boom(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        save_atomic(path, b"two", expected_sha256=loaded.sha256)
    assert path.read_bytes() == b"one"
    assert _tmp_files(tmp_path) == []


def test_symlink_target_is_edited_and_link_kept(tmp_path):
    real = tmp_path / "real.md"
    real.write_bytes(b"one")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    loaded = load_for_edit(link)
    save_atomic(link, b"two", expected_sha256=loaded.sha256)
    assert link.is_symlink() and real.read_bytes() == b"two"


@pytest.mark.parametrize("force", [False, True])
def test_a_read_only_file_is_refused_and_left_as_it_is(tmp_path, force):
    # the user marked it read-only; a rename needs only the folder's permission (and root writes anything),
    # so without the check the file would be replaced and keep its 0444 with no word
    from daycare_gui.stores.common.edit.atomic import ReadOnlyError

    path = tmp_path / "a.md"
    path.write_bytes(b"one")
    os.chmod(path, 0o444)
    loaded = load_for_edit(path)
    before = os.stat(path)
    with pytest.raises(ReadOnlyError) as refused:
        save_atomic(path, b"mine", expected_sha256=loaded.sha256, force=force)
    assert str(refused.value) == f"{path} is read-only (mode 0444); nothing was written"
    assert isinstance(refused.value, PermissionError) and refused.value.strerror == str(refused.value)
    after = os.stat(path)
    assert path.read_bytes() == b"one" and (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert _tmp_files(tmp_path) == []


def test_a_read_only_target_behind_a_symlink_is_refused(tmp_path):
    from daycare_gui.stores.common.edit.atomic import ReadOnlyError

    target = tmp_path / "real.md"
    target.write_bytes(b"one")
    os.chmod(target, 0o400)
    link = tmp_path / "link.md"
    link.symlink_to(target)
    with pytest.raises(ReadOnlyError, match=r"real\.md is read-only \(mode 0400\)"):
        save_atomic(link, b"mine", expected_sha256=load_for_edit(link).sha256)
    assert target.read_bytes() == b"one" and link.is_symlink()


def test_a_save_within_the_store_refuses_a_link_leading_out(tmp_path):
    from daycare_gui.stores.common.edit.atomic import OutsideStoreError, sha256_of

    store, home = tmp_path / "store", tmp_path / "home"
    (store / "cron" / "x").mkdir(parents=True)
    home.mkdir()
    notes = home / "notes.md"
    notes.write_bytes(b"mine\n")
    task = store / "cron" / "x" / "TASK.md"
    task.symlink_to(notes)
    for force in (False, True):
        with pytest.raises(OutsideStoreError, match=f"leads to {notes}, outside the store's folders"):
            save_atomic(task, b"---\nenabled: false\n---\n", expected_sha256=sha256_of(b"mine\n"), force=force,
                        within=[store])
    assert notes.read_bytes() == b"mine\n" and task.is_symlink()
    assert sorted(p.name for p in home.iterdir()) == ["notes.md"]  # no temporary file beside it either
    kept = store / "kept.md"
    kept.write_bytes(b"old\n")
    inside = store / "cron" / "x" / "LINK.md"
    inside.symlink_to(kept)
    save_atomic(inside, b"new\n", expected_sha256=sha256_of(b"old\n"), within=[store])  # a link inside: written
    assert kept.read_bytes() == b"new\n" and inside.is_symlink()

"""Deleted items through the shared Trash capability: what the editors moved aside is listed, restored to
its place, and a planted entry is listed as not restorable and never moved — for the SQLite generation as
for a PGlite data directory."""

from __future__ import annotations

import json

import pytest

from daycare_gui.stores.api import Trash, WriteRefused
from daycare_gui.stores.common.edit.trash import MANIFEST_NAME, TRASH_NAME, move_to_trash
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.paths import resolve_paths
from daycare_gui.stores.registry import open_store


@pytest.fixture
def store(tmp_path):
    root = tmp_path / "daycare"
    write_demo(root)
    return root


def test_a_deleted_skill_is_listed_and_restored_to_its_place(store):
    skill = next((store / "skills").iterdir())
    before = (skill / "SKILL.md").read_bytes()
    move_to_trash(resolve_paths(store), skill)
    with open_store(store) as opened:
        trash = opened.capability(Trash)
        assert trash is not None and trash.where().endswith(TRASH_NAME)
        (item,) = trash.deleted()
        assert item.title == str(skill) and item.what == "folder" and item.problem is None
        assert trash.count() == 1
        said = trash.restore(item)
    assert str(skill) in said and (skill / "SKILL.md").read_bytes() == before


def test_restore_refuses_when_something_took_the_place_and_keeps_the_item(store):
    skill = next((store / "skills").iterdir())
    move_to_trash(resolve_paths(store), skill)
    skill.mkdir()
    with open_store(store) as opened:
        trash = opened.capability(Trash)
        (item,) = trash.deleted()
        with pytest.raises(WriteRefused, match="exists again"):
            trash.restore(item)
        assert trash.deleted() == [item]


def test_a_planted_entry_is_listed_as_not_restorable_and_never_moved(store, tmp_path):
    outside = tmp_path / "autostart" / "evil.desktop"
    entry = store / TRASH_NAME / "20260101-000000-000000"
    entry.mkdir(parents=True)
    (entry / "evil.desktop").write_text("[Desktop Entry]\n")
    (entry / MANIFEST_NAME).write_text(json.dumps({"original": str(outside), "relative": "evil.desktop"}))
    with open_store(store) as opened:
        trash = opened.capability(Trash)
        (item,) = trash.deleted()
        assert item.problem and trash.count() == 0
        with pytest.raises(WriteRefused, match="cannot be restored"):
            trash.restore(item)
    assert not outside.exists()


def test_every_kind_without_a_trash_offers_none(tmp_path):
    from daycare_gui.stores.demos import write_kind_demo

    root = tmp_path / "cp"
    write_kind_demo("cianaparrot", root, 1_790_000_000_000)
    with open_store(root) as opened:
        assert opened.capability(Trash) is None

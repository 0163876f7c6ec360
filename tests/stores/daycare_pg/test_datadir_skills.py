"""Skills of every source beside a PGlite store, as a user sees them in the Documents section."""

from __future__ import annotations

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.edit.atomic import sha256_of
from tests.stores.daycare_pg.datadir_files import plant_data_dir


@pytest.fixture
def store_dir(pglite_fixture, tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    plant_data_dir(pglite_fixture, home)
    return pglite_fixture


def test_skills_of_every_source_are_listed_and_labelled(store_dir):
    with registry.open_store(store_dir) as store:
        docs = store.capability(api.Documents)
        by_id = {d.id: d for d in docs.documents()}
        config = by_id["skill:config:research/weather"]
        personal = by_id["skill:user:user/1/trip-planner"]
        agents = by_id["skill:agents:notes"]
        assert (config.title, personal.title, agents.title) == ("weather", "trip-planner", "notes")
        assert "config" in config.group and "personal (user/1)" in personal.group
        assert "outside the data directory" in agents.group
        assert config.editable and personal.editable and not agents.editable
        assert b"zephyrwind" in docs.read(config) and b"quillfeather" in docs.read(personal)
        assert b"vellumkeep" in docs.read(agents)
        active = [d for d in docs.documents() if d.id.startswith("skill-active:")]
        assert len(active) == 2 and not any(d.editable for d in active)
        assert all(d.readonly_reason == "Daycare's activation copy, rewritten before each inference" for d in active)
        (old,) = [d for d in docs.documents() if d.id.startswith("skill-version:")]
        assert old.title == "trip-planner version 1" and not old.editable and b"older checklist" in docs.read(old)
        # Counted once each: 3 skills + 3 prompt files of one agent + settings.json and auth.json (as masked
        # outlines), not the skills' 3 derived copies.
        assert docs.count() == 8


def test_personal_skill_saves_with_a_backup_and_refuses_a_conflict(store_dir):
    with registry.open_store(store_dir) as store:
        docs = store.capability(api.Documents)
        ref = next(d for d in docs.documents() if d.id == "skill:user:user/1/trip-planner")
        before = docs.read(ref)
        new = before.replace(b"quillfeather", b"featherquill")
        backup = docs.save(ref, new, sha256_of(before))
        assert ref.path.read_bytes() == new and backup.read_bytes() == before
        assert ".daycare-gui-backups" in str(backup) and "skills" not in backup.parent.name
        with pytest.raises(api.WriteConflict):
            docs.save(ref, b"---\nname: x\n---\nother", sha256_of(before))
        assert ref.path.read_bytes() == new


def test_config_skill_save_refused_while_the_engine_runs_unless_forced(store_dir, monkeypatch):
    from daycare_gui.stores.daycare.engine import EngineStatus

    with registry.open_store(store_dir) as store:
        docs = store.capability(api.Documents)
        ref = next(d for d in docs.documents() if d.id == "skill:config:research/weather")
        before = docs.read(ref)
        running = EngineStatus(True, 42, True, False, False, "process 42 is alive")
        monkeypatch.setattr(store, "refresh_engine", lambda: setattr(store, "engine", running))
        with pytest.raises(api.WriteRefused, match="engine is running"):
            docs.save(ref, before + b"\nmore", sha256_of(before))
        assert ref.path.read_bytes() == before
        docs.save(ref, before + b"\nmore", sha256_of(before), force=True)
        assert ref.path.read_bytes() == before + b"\nmore"


def test_derived_copies_and_outside_skills_are_never_written(store_dir):
    with registry.open_store(store_dir) as store:
        docs = store.capability(api.Documents)
        for ref in docs.documents():
            if ref.id.startswith(("skill-active:", "skill-version:", "skill:agents:", "agent-file:")):
                before = ref.path.read_bytes()
                with pytest.raises(api.WriteRefused):
                    docs.save(ref, b"changed", sha256_of(before), force=True)
                assert ref.path.read_bytes() == before


def test_a_skill_that_is_a_pipe_or_links_out_is_not_read(store_dir, tmp_path):
    import os

    outside = tmp_path / "private.md"
    outside.write_text("---\nname: leak\n---\nthe-outside-words\n")
    link_dir = store_dir / "skills" / "linked"
    link_dir.mkdir()
    (link_dir / "SKILL.md").symlink_to(outside)
    fifo_dir = store_dir / "skills" / "piped"
    fifo_dir.mkdir()
    os.mkfifo(fifo_dir / "SKILL.md")
    with registry.open_store(store_dir) as store:
        docs = store.capability(api.Documents)
        texts = b"".join(docs.read(d) for d in docs.documents())
        assert b"the-outside-words" not in texts
        assert any("linked" in str(p.path) for p in store.problems)


def test_an_earlier_version_shows_what_changed_since(store_dir):
    with registry.open_store(store_dir) as store:
        colls = store.capability(api.Collections)
        (row,) = colls.rows("files:skill_versions", 0, 10)
        assert row.values == ("user/1", "trip-planner", "1", "+1 −1 lines")
        assert "-An older checklist." in row.markdown and "+Pack the quillfeather checklist." in row.markdown

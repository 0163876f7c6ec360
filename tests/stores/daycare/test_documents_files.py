"""Daycare's SQLite and legacy generations offer Documents and Files through the data directory's code:
what the Skills, Memory, Settings and Files pages showed, now kind-neutral — and edits that move no byte
outside the value edited."""

from __future__ import annotations

import json
import shutil

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.edit.atomic import sha256_of
from daycare_gui.stores.daycare.demo import write_demo
from tests.conftest import snapshot_tree


@pytest.fixture(scope="module")
def demo_master(tmp_path_factory):
    dest = tmp_path_factory.mktemp("demo") / "daycare"
    write_demo(dest)
    return dest


@pytest.fixture
def demo(demo_master, tmp_path):
    dest = tmp_path / "daycare"
    shutil.copytree(demo_master, dest)
    return dest


def _docs(root):
    store = registry.open_store(str(root))
    return store, store.capability(api.Documents)


def test_skills_and_memory_are_those_the_core_lists_with_source_and_index_flag(demo):
    (demo / "plugins" / "memory" / "INDEX.md").write_text("# Memory Index\n\n- people\n- home\n")
    store, docs = _docs(demo)
    with store:
        refs = docs.documents()
        inventory = store.core.files()
        skills = [r for r in refs if r.group == "Skills"]
        assert sorted(r.id for r in skills) == sorted(s.id for s in inventory.items("skills"))
        assert {r.source for r in skills} >= {"config", "user Alex Rivera"}
        memory = {r.title: r for r in refs if r.group == "Memory"}
        entities = {t for t, r in memory.items() if not t.startswith("MEMORY.md · ")}
        assert entities == {"Home", "Deployment Incidents", "People"}
        # and each user's home/knowledge/MEMORY.md, which every agent of that user reads (#33)
        homes = sorted(p for p in demo.glob("users/*/home/knowledge/MEMORY.md"))
        assert homes and sorted(r.path for t, r in memory.items() if t not in entities) == homes
        assert memory["Deployment Incidents"].flag == "not in INDEX.md"
        assert memory["People"].flag == "" and dict(memory["People"].meta)["Records"] == "3"
        assert docs.count() == len(refs)  # nothing derived in this generation


def test_settings_and_auth_are_outlines_that_hold_no_credential(demo):
    auth = json.loads((demo / "auth.json").read_text())
    planted = [v for entry in auth.values() for k, v in entry.items() if k != "type" and isinstance(v, str)]
    settings = json.loads((demo / "settings.json").read_text())
    settings["proxy"] = "http://alex:hunter2-PASSWORD@proxy.local:3128"
    (demo / "settings.json").write_text(json.dumps(settings, indent=2))
    store, docs = _docs(demo)
    with store:
        by_id = {r.id: r for r in docs.documents()}
        shown = []
        for name in ("config:settings.json", "config:auth.json"):
            ref = by_id[name]
            assert ref.secret and docs.read(ref) == b""  # the bytes never leave the store
            shown += [repr(r) for r in docs.outline(ref)]
            shown += [repr(f) + repr(v) for f, v in docs.fields(ref)]
        text = "\n".join(shown)
        assert "anthropic" in text and "github-copilot" in text and "accessToken" in text
        assert not [p for p in planted if p in text] and "hunter2-PASSWORD" not in text
        assert "proxy.local" in text


def test_a_field_edit_changes_only_that_values_bytes_in_every_line_ending_and_bom(demo):
    path = demo / "skills" / "weekly-review" / "SKILL.md"
    plain = path.read_bytes()
    variants = {"crlf": plain.replace(b"\n", b"\r\n"), "bom": b"\xef\xbb\xbf" + plain,
                "nbsp": plain.replace(b"Reflect on the week", "Reflect\u00a0on the week".encode())}
    for name, data in variants.items():
        path.write_bytes(data)
        store, docs = _docs(demo)
        with store:
            ref = next(r for r in docs.documents() if r.path == path)
            fields = dict((f.name, v) for f, v in docs.fields(ref))
            old = fields["description"].encode()
            docs.update_fields(ref, {"description": "Look back, then plan"}, sha256_of(data))
            assert path.read_bytes() == data.replace(old, b"Look back, then plan"), name


def test_unchanged_or_invalid_edits_write_nothing(demo):
    path = demo / "skills" / "weekly-review" / "SKILL.md"
    store, docs = _docs(demo)
    with store:
        ref = next(r for r in docs.documents() if r.path == path)
        before = snapshot_tree(demo)
        name = dict((f.name, v) for f, v in docs.fields(ref))["name"]
        docs.update_fields(ref, {"name": name}, sha256_of(path.read_bytes()))  # open + save unchanged
        with pytest.raises(api.WriteRefused):
            docs.update_fields(ref, {"permissions": ["@read:relative"]}, sha256_of(path.read_bytes()))
        assert snapshot_tree(demo) == before
        path.write_bytes(b"---\nname: caf\xe9\n---\nbody\n")  # not UTF-8: refused, untouched
        with pytest.raises(api.WriteRefused):
            docs.update_fields(ref, {"name": "x"}, None)
        assert path.read_bytes() == b"---\nname: caf\xe9\n---\nbody\n"


def test_a_setting_is_validated_and_spliced(demo):
    path = demo / "settings.json"
    store, docs = _docs(demo)
    with store:
        ref = next(r for r in docs.documents() if r.id == "config:settings.json")
        before = path.read_bytes()
        with pytest.raises(api.WriteRefused):
            docs.update_fields(ref, {"memory.maxEntries": "many"}, None)
        assert path.read_bytes() == before
        docs.update_fields(ref, {"memory.maxEntries": 600}, None)
        assert path.read_bytes() == before.replace(b'"maxEntries": 500', b'"maxEntries": 600')


def test_files_are_each_users_home_listed_lazily_and_never_outside(demo, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("not the store's")
    home = next((demo / "users").iterdir()) / "home"
    (home / "escape").symlink_to(outside)
    store = registry.open_store(str(demo))
    with store:
        files = store.capability(api.Files)
        roots = files.roots()
        assert len(roots) == 4 and any(r.title.startswith("Alex Rivera") for r in roots)
        root = next(r for r in roots if r.path == home)
        entries = {e.name: e for e in files.children(root.id, "")}
        assert entries["escape"].link.startswith("leads out") and not entries["escape"].is_dir
        assert files.preview(root.id, "escape").format == "none"
        assert files.preview(root.id, "../../../settings.json").format == "none"
        assert files.children(root.id, "..")[0].problem


def test_the_legacy_generation_offers_documents_and_files(fixture_copy):
    root = fixture_copy("daycare-808af509", with_db=False)
    store = registry.open_store(str(root))
    with store:
        assert store.summary().generation == "legacy-files"
        docs, files = store.capability(api.Documents), store.capability(api.Files)
        assert docs is not None and files is not None
        inventory = store.core.files()
        assert sum(1 for r in docs.documents() if r.group == "Skills") == len(inventory.items("skills"))
        assert len(files.roots()) >= len(inventory.items("user_homes"))


def test_a_skill_is_made_from_the_template_never_over_another_and_deleted_into_the_trash(demo):
    store, docs = _docs(demo)
    with store:
        fields = {f.name: f for f in docs.creatable("Skills")}
        assert set(fields) == {"location", "name", "description"} and fields["location"].choices[0] == "config skills"
        assert docs.creatable("Memory") == ()
        with pytest.raises(api.WriteRefused):
            docs.create("Skills", {"name": " "})
        path = docs.create("Skills", {"name": "Plant care", "description": "How to water plants"})
        assert path == demo / "skills" / "plant-care" / "SKILL.md"
        before = snapshot_tree(demo)
        with pytest.raises(api.WriteRefused):  # the same name again: nothing replaced
            docs.create("Skills", {"name": "Plant care", "description": "Other"})
        assert snapshot_tree(demo) == before
        ref = next(r for r in docs.documents() if r.path == path)
        assert docs.deletable(ref)
        memory = next(r for r in docs.documents() if r.group == "Memory")
        assert not docs.deletable(memory)
        said = docs.delete(ref)
        assert "trash" in said and not path.parent.exists()
        trash = store.capability(api.Trash)
        assert [d.title for d in trash.deleted()] == [str(path.parent)]

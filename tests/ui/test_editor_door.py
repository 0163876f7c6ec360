"""The file editor sees a store through its Documents only (#33): the form it shows and the save (the engine
question asked before it, the folders it stays in, the backup) come from the opened store, whatever its kind."""

from __future__ import annotations

import os

import pytest

from daycare_gui.stores import api
from daycare_gui.stores.cianaparrot import write_demo as write_ciana_demo
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.registry import open_store
from daycare_gui.ui.editors.window import make_file_editor
from tests.stores.daycare_pg.conftest import _pglite_runtime, pglite_demo, pglite_demo_master  # noqa: F401


def _editor(qtbot, store, ref):
    editor = make_file_editor(ref.path, store=store, ref=ref)
    qtbot.addWidget(editor)
    return editor


def _retype(qtbot, line, text: str) -> None:
    line.selectAll()
    qtbot.keyClicks(line, text)


def test_daycare_sqlite_skill_gets_daycares_form_from_the_store(qtbot, tmp_path):
    root = tmp_path / "daycare"
    write_demo(root)
    with open_store(root) as store:
        docs = store.capability(api.Documents)
        ref = next(d for d in docs.documents() if d.path == root / "skills" / "weekly-review" / "SKILL.md")
        before = ref.path.read_bytes()
        editor = _editor(qtbot, store, ref)
        assert editor.kind_label == "Skill (SKILL.md)"  # the store chose Daycare's skill form
        assert editor.widgets["description"].text() == "Reflect on the week and plan the next"
        rules = editor.widgets["permissions"]  # rules checked as typed, by the store's check
        qtbot.keyClicks(rules.input, "@read:notes")
        assert not rules.add_button.isEnabled() and "absolute path" in rules.message.text()
        rules.input.clear()
        _retype(qtbot, editor.widgets["description"], "Plan the week")
        editor.confirm_refused = lambda reason: pytest.fail(reason)  # no engine: the save asks nothing
        assert editor.save()
    assert ref.path.read_bytes() == before.replace(b"Reflect on the week and plan the next", b"Plan the week")


def test_a_daycare_task_file_the_documents_do_not_list_gets_its_form_and_engine_question(qtbot, tmp_path):
    root = tmp_path / "daycare"
    write_demo(root)
    task = root / "cron" / "daily-digest" / "TASK.md"
    with open_store(root) as store:
        editor = make_file_editor(task, store=store)
        qtbot.addWidget(editor)
        assert editor.kind_label == "Cron task (TASK.md)" and editor.widgets["schedule"].text()
        (root / "engine.pid").write_text(f"{os.getpid()}\n")  # the engine starts after the store was opened
        _retype(qtbot, editor.widgets["name"], "Digest")
        asked = []
        editor.confirm_refused = lambda reason: asked.append(reason) or False
        before = task.read_bytes()
        assert not editor.save() and task.read_bytes() == before
        assert asked and asked[0].startswith("Daycare's engine is running (process ")
        # told to write anyway: written, the old text kept first (the store's save, not the editor's)
        editor.confirm_refused = lambda reason: True
        assert editor.save() and b"Digest" in task.read_bytes()
        (backup,) = [f for f in root.rglob(".daycare-gui-backups/*") if f.is_file()]
        assert backup.read_bytes() == before and backup.name.startswith("cron__daily-digest__TASK.md")


def test_the_engine_question_is_the_stores_live_answer(qtbot, tmp_path):
    """Daycare's Documents answer from the pid file at each save: an engine seen at open and stopped since
    asks nothing, and one started after the store was opened refuses a Documents save (it did not: the
    SQLite store's check was what the open had seen)."""
    from daycare_gui.stores.common.edit.atomic import sha256_of

    root = tmp_path / "daycare"
    write_demo(root)
    (root / "engine.pid").write_text(f"{os.getpid()}\n")
    with open_store(root) as store:
        docs = store.capability(api.Documents)
        ref = next(d for d in docs.documents() if d.path == root / "skills" / "weekly-review" / "SKILL.md")
        editor = _editor(qtbot, store, ref)
        editor.body_edit.setPlainText(editor.body_edit.toPlainText() + "\nMine.\n")
        asked = []
        editor.confirm_refused = lambda reason: asked.append(reason) or False
        assert not editor.save() and asked[0].startswith("Daycare's engine is running")
        (root / "engine.pid").unlink()
        assert editor.save() and len(asked) == 1  # stopped since: saved without a question
        (root / "engine.pid").write_text(f"{os.getpid()}\n")
        before = ref.path.read_bytes()
        with pytest.raises(api.WriteRefused, match="engine is running"):
            docs.save(ref, before + b"\nMore.\n", sha256_of(before))
        assert ref.path.read_bytes() == before


def test_legacy_daycare_memory_entity_edits_its_records_through_the_door(qtbot, tmp_path):
    root = tmp_path / "daycare"
    write_demo(root)
    for db in root.glob("daycare.db*"):  # the files alone: the legacy generation
        db.unlink()
    path = root / "plugins" / "memory" / "incidents.md"
    with open_store(root) as store:
        assert store.summary().generation == "legacy-files"
        docs = store.capability(api.Documents)
        ref = next(d for d in docs.documents() if d.path == path)
        before = path.read_bytes()
        editor = _editor(qtbot, store, ref)
        assert editor.kind_label == "Memory entity"
        assert [editor.records.item(i).text() for i in range(editor.records.count())] == [
            "incident-2026-02-01", "incident-2026-02-27"]
        editor.records.setCurrentRow(0)
        editor.record_text.setPlainText("Rolled back: the migration timed out.")
        assert editor.add_record("incident-2026-03-02", "Disk full on the build host.") is None
        editor.undo_stack.undo()  # the added record goes again; the edited one stays
        assert editor.records.count() == 2
        assert editor.save()
    assert path.read_bytes() == before.replace(b"Rollback required due to migration timeout.",
                                               b"Rolled back: the migration timed out.")


def test_pglite_demo_skill_is_edited_through_the_same_door(qtbot, pglite_demo, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    with open_store(pglite_demo) as store:
        docs = store.capability(api.Documents)
        ref = next(d for d in docs.documents() if d.id == "skill:user:u1owner/trip-planner")
        before = ref.path.read_bytes()
        editor = _editor(qtbot, store, ref)
        assert editor.kind_label == "Skill (SKILL.md)"
        old = editor.widgets["description"].text()
        assert old and old.encode() in before
        _retype(qtbot, editor.widgets["description"], "Plans trips")
        editor.confirm_refused = lambda reason: pytest.fail(reason)  # no engine: the save asks nothing
        assert editor.is_dirty() and editor.save()
        assert ref.path.read_bytes() == before.replace(old.encode(), b"Plans trips", 1)


def test_another_kinds_document_goes_through_the_same_door(qtbot, tmp_path):
    """A CianaParrot skill: no form of Daycare's (its body is the form), and its bot's running is asked by its
    own save."""
    root = write_ciana_demo(tmp_path / "ciana")
    with open_store(root) as store:
        assert store.kind == "cianaparrot"
        docs = store.capability(api.Documents)
        ref = next(d for d in docs.documents() if d.id == "skills/weather")
        before = ref.path.read_bytes()
        editor = _editor(qtbot, store, ref)
        assert editor.kind_label == "Markdown file" and editor.widgets == {}
        body = editor.body_edit.toPlainText()
        assert "Use wttr.in for forecasts." in body
        editor.body_edit.setPlainText(body.replace("forecasts.", "forecasts and alerts."))
        (root / "data" / "checkpoints.db-wal").write_bytes(b"\0" * 32)  # the bot is at work
        asked = []  # (the kind's own refusal is the question: its save is the editor's)
        editor.confirm_refused = lambda reason: asked.append(reason) or False
        assert not editor.save() and ref.path.read_bytes() == before
        assert "the CianaParrot bot is running" in asked[0]
        (root / "data" / "checkpoints.db-wal").unlink()
        assert editor.save()
    assert ref.path.read_bytes() == before.replace(b"forecasts.", b"forecasts and alerts.")


def test_an_editor_the_cyclic_gc_takes_apart_raises_nothing(qtbot, tmp_path):
    """The editor and its header's palette watch hold each other: collected as garbage (a closed editor),
    the watch, its attributes cleared, still heard the editor's last Qt events and raised AttributeError."""
    import gc

    from daycare_gui.ui.editors import DocumentEditor

    path = tmp_path / "notes.md"
    path.write_bytes(b"# Notes\n")
    editor = DocumentEditor(path)
    del editor
    gc.collect()
    qtbot.wait(10)  # (pytest-qt fails the test on any exception raised in the event loop)

"""The editor window saves a store's listed document through the kind's own ``Documents.save``: Linggen and
CianaParrot keep the old text as a backup first, and a change made on disk since the file was opened is a
conflict the user is asked about; declined, the outside change stays and nothing of the edit is written."""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.stores.cianaparrot import write_demo as write_ciana_demo
from daycare_gui.stores.registry import open_store
from daycare_gui.ui.editors.window import make_file_editor
from tests.stores.linggen.builder import standard_home


def _linggen(tmp_path):
    home = standard_home(tmp_path / "home")
    home.flat_mission("daily-review")
    return home.root, home.root / ".daycare-gui-backups", "mission:daily-review"


def _ciana(tmp_path):
    root = write_ciana_demo(tmp_path / "ciana")
    return root, root / "data" / ".daycare-gui-backups", "skills/weather"


def _backups(folder):
    return sorted(folder.rglob("*")) if folder.is_dir() else []


def _edited(qtbot, store, doc_id):
    docs = store.capability(api.Documents)
    ref = next(d for d in docs.documents() if d.id == doc_id)
    editor = make_file_editor(ref.path, store=store, ref=ref)
    qtbot.addWidget(editor)
    body = editor.body_edit.toPlainText()
    editor.body_edit.setPlainText(body + "\nOne more line from the window.\n")
    assert editor.is_dirty()
    return editor, ref


def _check_backup_then_conflict(qtbot, tmp_path, make):
    root, backup_folder, doc_id = make(tmp_path)
    with open_store(root) as store:
        editor, ref = _edited(qtbot, store, doc_id)
        before = ref.path.read_bytes()
        assert editor.save()
        assert b"One more line from the window." in ref.path.read_bytes()
        (backup,) = [f for f in _backups(backup_folder) if f.is_file()]
        assert backup.read_bytes() == before  # the old text kept before it was replaced
        assert "the old text is kept in .daycare-gui-backups" in editor.status.text()
        assert editor.status.toolTip() == str(backup)

        editor.body_edit.setPlainText(editor.body_edit.toPlainText() + "Mine.\n")
        theirs = ref.path.read_bytes() + b"\nWritten by someone else.\n"
        ref.path.write_bytes(theirs)  # changed on disk since the editor saved
        asked = []
        editor.ask_conflict = lambda exc: asked.append(exc.current) or "cancel"
        assert editor.save() is False
        assert asked == [theirs] and ref.path.read_bytes() == theirs and editor.is_dirty()
        assert len([f for f in _backups(backup_folder) if f.is_file()]) == 1  # nothing backed up for it either


def test_a_linggen_mission_edited_in_the_window_is_backed_up_and_conflicts_are_refused(qtbot, tmp_path):
    _check_backup_then_conflict(qtbot, tmp_path, _linggen)


def test_a_cianaparrot_skill_edited_in_the_window_is_backed_up_and_conflicts_are_refused(qtbot, tmp_path):
    _check_backup_then_conflict(qtbot, tmp_path, _ciana)


def test_overwriting_a_conflict_writes_over_the_version_shown_only(qtbot, tmp_path):
    root, _backup_folder, doc_id = _linggen(tmp_path)
    with open_store(root) as store:
        editor, ref = _edited(qtbot, store, doc_id)
        theirs = ref.path.read_bytes() + b"\nTheirs.\n"
        ref.path.write_bytes(theirs)
        editor.ask_conflict = lambda exc: "overwrite"
        assert editor.save()
        assert ref.path.read_bytes() == editor.current_bytes and b"Theirs." not in ref.path.read_bytes()


def test_a_document_the_kind_keeps_read_only_is_not_written_from_the_window(qtbot, tmp_path):
    """A Linggen plan (Linggen rewrites it while an agent works): the editor's save is the kind's refusal."""
    home = standard_home(tmp_path / "home")
    with open_store(home.root) as store:
        docs = store.capability(api.Documents)
        ref = next(d for d in docs.documents() if d.id.startswith("plan:"))
        before = ref.path.read_bytes()
        editor = make_file_editor(ref.path, store=store, ref=ref)
        qtbot.addWidget(editor)
        editor.body_edit.setPlainText(editor.body_edit.toPlainText() + "\nmine\n")
        asked = []
        editor.confirm_refused = lambda reason: asked.append(reason) or True
        assert editor.save() is False
        assert ref.path.read_bytes() == before and asked == []  # no question: no answer could write it
        assert "Linggen rewrites plan files" in editor.status.text()


def test_a_daycare_task_file_the_documents_do_not_list_is_saved_by_daycares_save(qtbot, tmp_path):
    """A cron task's TASK.md, opened by its path from the Tasks page: saved by Daycare's Documents too (the
    old text kept first), and a change made on disk meanwhile is a conflict."""
    from daycare_gui.stores.daycare.demo import write_demo

    root = tmp_path / "daycare"
    write_demo(root)
    task = root / "cron" / "daily-digest" / "TASK.md"
    with open_store(root) as store:
        editor = make_file_editor(task, store=store)
        qtbot.addWidget(editor)
        editor.raw.setPlainText(editor.raw.toPlainText() + "\nOne more line from the window.\n")
        before = task.read_bytes()
        assert editor.save()
        (backup,) = [f for f in root.rglob(".daycare-gui-backups/*") if f.is_file()]
        assert backup.read_bytes() == before and b"One more line from the window." in task.read_bytes()

        editor.raw.setPlainText(editor.raw.toPlainText() + "Mine.\n")
        theirs = task.read_bytes() + b"\nWritten by someone else.\n"
        task.write_bytes(theirs)
        editor.ask_conflict = lambda exc: "cancel"
        assert editor.save() is False and task.read_bytes() == theirs

"""Agents, skills and flat missions are edited like Daycare's task files: unchanged stays byte-identical,
saves are atomic, a changed file is a conflict, and nothing is written while Linggen runs unless forced."""

import hashlib
import os

import pytest

from daycare_gui.stores.api import Documents, WriteConflict, WriteRefused
from daycare_gui.stores.linggen import KIND
from tests.stores.linggen.builder import Home, standard_home


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _docs(root) -> Documents:
    return KIND.open(root).capability(Documents)


def _doc(docs, doc_id):
    return next(d for d in docs.documents() if d.id == doc_id)


@pytest.fixture
def home(tmp_path):
    h = standard_home(tmp_path / "home")
    h.flat_mission("daily-review")
    return h


def test_documents_are_grouped(home):
    docs = _docs(home.root)
    groups = {(d.group, d.id, d.editable) for d in docs.documents()}
    assert groups == {("Agents", "agent:ling", True), ("Skills", "skill:commit", True),
                      ("Skills", "skill:review/", True), ("Missions", "mission:daily-review", True),
                      ("Plans", "plan:refactor-auth.md", False)}
    assert _doc(docs, "skill:review/").path.name == "SKILL.md"


def test_unchanged_save_writes_nothing(home):
    docs = _docs(home.root)
    ref = _doc(docs, "agent:ling")
    data = docs.read(ref)
    st = os.stat(ref.path)
    os.utime(ref.path, ns=(st.st_atime_ns, st.st_mtime_ns - 5_000_000_000))
    before = os.stat(ref.path)
    docs.save(ref, data, _sha(data))
    after = os.stat(ref.path)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_save_writes_exact_bytes_atomically_keeping_the_mode(home):
    docs = _docs(home.root)
    ref = _doc(docs, "mission:daily-review")
    os.chmod(ref.path, 0o600)
    old = docs.read(ref)
    new = old.replace(b"Review the commits.", b"Review the commits and the open issues.\r\n")
    docs.save(ref, new, _sha(old))
    assert ref.path.read_bytes() == new
    assert os.stat(ref.path).st_mode & 0o777 == 0o600
    assert [p.name for p in ref.path.parent.iterdir() if p.name.startswith(".")] == []


def test_a_file_changed_meanwhile_is_a_conflict(home):
    docs = _docs(home.root)
    ref = _doc(docs, "skill:commit")
    old = docs.read(ref)
    ref.path.write_bytes(old + b"edited by Linggen\n")
    with pytest.raises(WriteConflict):
        docs.save(ref, old + b"mine\n", _sha(old))
    assert ref.path.read_bytes() == old + b"edited by Linggen\n"


def test_refused_while_linggen_runs_unless_forced(home):
    home.pid()  # this test process stands in for a live daemon
    docs = _docs(home.root)
    ref = _doc(docs, "agent:ling")
    old = docs.read(ref)
    with pytest.raises(WriteRefused, match="Linggen is running"):
        docs.save(ref, old + b"more\n", _sha(old))
    assert ref.path.read_bytes() == old
    docs.save(ref, old + b"more\n", _sha(old), force=True)
    assert ref.path.read_bytes() == old + b"more\n"


def test_a_stale_pid_does_not_block(home):
    home.pid(2**22 + 12345)  # above the default pid_max: no such process
    docs = _docs(home.root)
    ref = _doc(docs, "agent:ling")
    old = docs.read(ref)
    docs.save(ref, old + b"x\n", _sha(old))


def test_plans_are_read_only(home):
    docs = _docs(home.root)
    ref = _doc(docs, "plan:refactor-auth.md")
    with pytest.raises(WriteRefused, match="rewrites plan files"):
        docs.save(ref, b"x", _sha(docs.read(ref)))


def test_broken_frontmatter_is_refused_unless_forced(home):
    docs = _docs(home.root)
    ref = _doc(docs, "agent:ling")
    old = docs.read(ref)
    bad = b"---\nname: [unclosed\n---\nbody\n"
    with pytest.raises(WriteRefused, match="line"):
        docs.save(ref, bad, _sha(old))
    assert ref.path.read_bytes() == old
    docs.save(ref, bad, _sha(old), force=True)
    assert ref.path.read_bytes() == bad


def test_one_refusal_names_both_the_running_linggen_and_the_broken_frontmatter(home):
    # the GUI asks "Write anyway?" once and then forces: the one question must carry every reason
    home.pid()  # this test process stands in for a live daemon
    docs = _docs(home.root)
    ref = _doc(docs, "agent:ling")
    old = docs.read(ref)
    bad = b"---\nname: [unclosed\n---\nbody\n"
    with pytest.raises(WriteRefused) as refused:
        docs.save(ref, bad, _sha(old))
    message = str(refused.value)
    assert "Linggen is running" in message
    assert "line 3" in message and "Linggen would skip this file" in message
    assert ref.path.read_bytes() == old


def test_a_read_only_document_is_refused_before_any_question(home):
    # the user marked the file read-only: no "save anyway" can write it, so that is said first
    from daycare_gui.stores.common.edit.atomic import ReadOnlyError

    home.pid()  # Linggen running would otherwise be asked about first
    docs = _docs(home.root)
    ref = _doc(docs, "agent:ling")
    os.chmod(ref.path, 0o444)
    old = docs.read(ref)
    for force in (False, True):
        with pytest.raises(ReadOnlyError, match=r"ling\.md is read-only \(mode 0444\); nothing was written"):
            docs.save(ref, old + b"more\n", _sha(old), force=force)
    assert ref.path.read_bytes() == old and os.stat(ref.path).st_mode & 0o777 == 0o444


def test_a_failed_write_leaves_the_old_file(home, monkeypatch):
    docs = _docs(home.root)
    ref = _doc(docs, "agent:ling")
    old = docs.read(ref)

    def boom(*_a, **_k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(WriteRefused, match="could not back up ling.md .*nothing was written"):  # the first write
        docs.save(ref, old + b"new\n", _sha(old))
    assert ref.path.read_bytes() == old
    assert [p.name for p in ref.path.parent.iterdir()] == ["ling.md"]


def test_a_foreign_document_is_refused(home, tmp_path):
    from daycare_gui.stores.records import DocRef

    other = tmp_path / "elsewhere.md"
    other.write_text("x")
    with pytest.raises(WriteRefused):
        _docs(home.root).save(DocRef("agent:ling", "ling", other), b"y", _sha(b"x"))
    assert other.read_text() == "x"


def test_broken_agent_frontmatter_is_listed(tmp_path):
    h = Home(tmp_path / "home")
    h.write("agents/bad.md", "---\nname: [oops\n---\nbody\n")
    h.session(h.project("/p"), "s")
    store = KIND.open(h.root)
    assert any(p.path.endswith("bad.md") and p.line in (2, 3) for p in store.problems)
    assert store.counts()["bad_yaml_files"] == 1


def test_a_broken_flat_mission_counts_as_one_bad_yaml_file(tmp_path):
    # the mission list and the document list both read mission.md; the Overview must count the file once
    h = Home(tmp_path / "home")
    h.flat_mission("m1", frontmatter="name: [unclosed\n")
    h.flat_session("s1")
    store = KIND.open(h.root)
    assert store.counts()["bad_yaml_files"] == 1
    assert store.report()["counts"]["bad_yaml_files"] == 1


def test_a_document_that_is_a_link_out_of_the_home_is_not_written_through(home, tmp_path):
    """A skill planted as a link to a file of the user's (issue 32): the save is refused, forced or not, and
    the file keeps its bytes; nothing is backed up from it either."""
    outside = tmp_path / "notes.md"
    outside.write_bytes(b"my own notes\n")
    docs = _docs(home.root)
    ref = _doc(docs, "agent:ling")
    os.unlink(ref.path)
    os.symlink(outside, ref.path)
    docs = _docs(home.root)
    ref = _doc(docs, "agent:ling")
    for force in (False, True):
        with pytest.raises(WriteRefused, match=f"leads to {outside}, outside the store"):
            docs.save(ref, b"---\nname: x\n---\n", _sha(outside.read_bytes()), force=force)
    assert outside.read_bytes() == b"my own notes\n"
    assert not (home.root / ".daycare-gui-backups").exists()

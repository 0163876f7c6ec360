"""Two project folders naming the same project path (a copied folder, one renamed, the lossy encoding) are
one project to the user: listed once with the sessions of both, said to be stored in both folders, and
counted once in the Overview, the navigation, the list caption and ``inspect``."""

from daycare_gui.stores.api import Collections, Conversations
from daycare_gui.stores.linggen import KIND
from daycare_gui.stores.records import SessionRef
from tests.stores.linggen.builder import T0, Home, line


def _home_with_a_copied_folder(root) -> Home:
    h = Home(root)
    first = h.project("/work/app", "app")  # -work-app: the folder Linggen reads
    copy = h.project("/work/app", "app", folder="-work-app-copy")
    h.session(first, "s1", "Original", T0, line("user", "ling", "in the original", T0))
    h.session(first, "s2", "Only here", T0 + 10, line("user", "ling", "second", T0 + 10))
    h.session(copy, "s1", "Copied", T0 + 20, line("user", "ling", "in the copy", T0 + 20))
    h.session(copy, "s3", "Only in the copy", T0 + 30, line("user", "ling", "third", T0 + 30))
    h.run(copy, "run-c", repo_path="/work/app", session="s1")
    h.session(h.project("/work/other", "other"), "o1")
    return h


def test_one_path_in_two_folders_is_one_project_with_the_sessions_of_both(tmp_path):
    h = _home_with_a_copied_folder(tmp_path / "home")
    store = KIND.open(h.root)
    conv = store.capability(Conversations)
    threads = conv.threads()
    assert sorted(t.title for t in threads) == ["app", "other"]
    app = next(t for t in threads if t.title == "app")
    assert app.id == "per-project:-work-app" and app.session_count == 4
    assert "stored in 2 folders: -work-app, -work-app-copy" in app.problem
    assert "only from -work-app" in app.problem and "in 2 folders" in app.subtitle
    folders = dict(app.meta)["folders"]
    assert str(h.root / "projects" / "-work-app") in folders and "-work-app-copy" in folders
    sessions = {s.ref.session_id: s for s in conv.sessions(app.id)}
    assert set(sessions) == {"s1", "s2", "s1@-work-app-copy", "s3"}  # the copied id stays its own session
    assert [m.text for m in conv.messages(sessions["s1@-work-app-copy"].ref, 0, 5)] == ["in the copy"]
    assert [m.text for m in conv.messages(sessions["s1"].ref, 0, 5)] == ["in the original"]
    assert ("id", "s1") in sessions["s1@-work-app-copy"].meta  # the real id is what the detail shows


def test_every_place_that_counts_projects_counts_it_once(tmp_path):
    h = _home_with_a_copied_folder(tmp_path / "home")
    store = KIND.open(h.root)
    conv = store.capability(Conversations)
    assert store.counts()["projects"] == 2 == conv.count()
    assert dict(store.summary().facts)["Projects"] == "2"
    assert any("more than one folder" in n for n in store.summary().notes)
    report = store.report()
    assert [p["path"] for p in report["projects"]] == ["/work/app", "/work/other"]
    app = report["projects"][0]
    assert app["folders"] == ["-work-app", "-work-app-copy"] and app["sessions"] == 4
    assert "stored in 2 folders" in app["stored_in"]
    assert store.counts()["sessions"] == 5  # nothing lost, nothing counted twice


def test_a_run_in_the_copy_opens_the_session_beside_it(tmp_path):
    h = _home_with_a_copied_folder(tmp_path / "home")
    cols = KIND.open(h.root).capability(Collections)
    run = next(r for r in cols.rows("runs", 0, 10) if r.key == "-work-app-copy/run-c")
    assert run.links[0].value == SessionRef("per-project:-work-app", "s1@-work-app-copy")


def test_search_finds_the_copy_under_its_own_ref(tmp_path):
    from daycare_gui.stores.api import SearchSource

    h = _home_with_a_copied_folder(tmp_path / "home")
    store = KIND.open(h.root)
    refs = {m.text: ref for _c, ref, m in store.capability(SearchSource).messages(None)}
    assert refs["in the copy"] == SessionRef("per-project:-work-app", "s1@-work-app-copy")
    assert refs["in the original"] == SessionRef("per-project:-work-app", "s1")


def test_a_flat_session_with_an_id_already_in_the_folder_is_listed_there_too(tmp_path):
    # before, such a flat group stayed a thread of its own: the same path was listed twice
    h = Home(tmp_path / "home")
    folder = h.project("/work/app", "app")
    h.session(folder, "s1", "Per-project", T0, line("user", "ling", "old layout", T0))
    h.flat_session("s1", "Flat copy", T0 + 5, line("user", "ling", "new layout", T0 + 5),
                   project="/work/app", project_name="app")
    store = KIND.open(h.root)
    conv = store.capability(Conversations)
    assert [t.id for t in conv.threads()] == ["per-project:-work-app"]
    refs = {s.ref.session_id for s in conv.sessions("per-project:-work-app")}
    assert refs == {"s1", "s1@flat"}
    assert conv.count() == 1 == store.counts()["projects"]

"""Projects → sessions → messages, search and activity, as a user of the window would see them."""

import json

from daycare_gui.stores.api import Charts, Conversations, SearchSource
from daycare_gui.stores.linggen import KIND
from daycare_gui.stores.records import SessionRef
from tests.stores.linggen.builder import T0, Home, line, standard_home


def _conv(root) -> Conversations:
    return KIND.open(root).capability(Conversations)


def test_projects_are_named_by_project_json_not_the_folder(tmp_path):
    h = Home(tmp_path / "home")
    folder = h.project("/a/b-c", "real name")  # folder -a-b-c would decode to /a/b/c
    h.session(folder, "s1", "Hello", T0, line("user", "ling", "hi", T0))
    h.project("/nowhere", info=False)
    conv = _conv(h.root)
    assert conv.thread_label == "Projects"
    by_id = {t.id: t for t in conv.threads()}
    real = by_id["per-project:-a-b-c"]
    assert real.title == "real name" and "/a/b-c" in real.subtitle and real.session_count == 1
    lost = by_id["per-project:-nowhere"]
    assert "no project.json" in lost.title and "no project.json" in lost.problem


def test_sessions_have_title_time_and_count(tmp_path):
    standard_home(tmp_path / "home")
    conv = _conv(tmp_path / "home")
    sessions = conv.sessions("per-project:-work-app")
    assert [s.title for s in sessions] == ["Empty one", "Fix login bug"]  # newest first
    fix = sessions[1]
    assert fix.started_at == T0 * 1000 and fix.updated_at == (T0 + 4) * 1000 and fix.message_count == 4
    empty = sessions[0]
    assert empty.message_count == 0 and empty.problem is None
    assert conv.message_count(empty.ref) == 0 and conv.messages(empty.ref, 0, 50) == []


def test_messages_carry_sender_recipient_and_observations(tmp_path):
    standard_home(tmp_path / "home")
    conv = _conv(tmp_path / "home")
    ref = SessionRef("per-project:-work-app", "sess-1700000000-aaaa0001")
    msgs = conv.messages(ref, 0, 10)
    assert [(m.role, m.author, m.recipient) for m in msgs] == [
        ("user", "user", "ling"), ("assistant", "ling", "coder"), ("tool", "ling", "ling"),
        ("assistant", "coder", "ling")]
    obs = msgs[2]
    assert obs.kind == "observation" and ("observation", "yes (a tool's output fed back to the model)") in obs.meta
    assert msgs[0].at == (T0 + 1) * 1000 and msgs[0].text == "Fix the login bug"
    assert msgs[0].raw["from_id"] == "user"
    # paging
    assert [m.id for m in conv.messages(ref, 1, 2)] == ["L2", "L3"]
    assert conv.messages(ref, 4, 10) == []


def test_plan_messages_are_rendered_as_checklists(tmp_path):
    h = Home(tmp_path / "home")
    plan = {"type": "plan", "plan": {"summary": "Payment page", "status": "approved", "items": [
        {"title": "Sketch", "status": "done"}, {"title": "Validate", "status": "in_progress",
                                                 "description": "Luhn check"},
        {"title": "Migrate", "status": "skipped"}, {"title": "Test", "status": "pending"}]}}
    free = {"type": "plan", "plan": {"summary": "Free form", "status": "planned", "plan_text": "# Steps\n1. a"}}
    h.flat_session("s1", lines=line("ling", "user", json.dumps(plan)) + line("ling", "user", json.dumps(free))
                   + line("ling", "user", json.dumps({"type": "finalize_task", "packet": {"title": "T"}})))
    conv = _conv(h.root)
    ref = SessionRef("flat:", "s1")
    first, second, third = conv.messages(ref, 0, 3)
    assert first.kind == "plan"
    assert "### Payment page" in first.text and "**Status:** approved" in first.text
    assert "- [x] Sketch" in first.text and "- [ ] Validate — *in progress*" in first.text
    assert "  Luhn check" in first.text and "~~Migrate~~" in first.text and "- [ ] Test" in first.text
    assert second.kind == "plan" and "# Steps" in second.text
    assert third.kind == "finalize_task" and '"title": "T"' in third.text


def test_bad_lines_show_in_place_and_the_rest_loads(tmp_path):
    h = Home(tmp_path / "home")
    folder = h.project("/p")
    h.session(folder, "s", lines=line("user", "ling", "one") + "garbage\n\n" + line("ling", "user", "two")
              + '{"from_id": "user", "content": "cut')
    conv = _conv(h.root)
    ref = SessionRef(f"per-project:{folder}", "s")
    assert conv.message_count(ref) == 4  # the blank line is not an entry
    msgs = conv.messages(ref, 0, 10)
    assert [m.text for m in msgs if not m.problem] == ["one", "two"]
    assert msgs[1].problem == "not JSON" and msgs[1].id == "L2"
    assert msgs[3].problem == "truncated last line" and msgs[3].id == "L5"


def test_both_layouts_side_by_side(tmp_path):
    h = standard_home(tmp_path / "home")
    h.flat_session("sess-new", "New style", T0 + 9000, line("user", "ling", "hi", T0 + 9000),
                   project="/work/app", project_name="app")
    h.flat_session("sess-free", "No project", T0 + 9100, "")
    h.flat_session("sess-other", "Elsewhere", T0 + 9200, "", project="/work/other", project_name="other")
    conv = _conv(h.root)
    threads = {t.id: t for t in conv.threads()}
    # /work/app is one project: its flat session is listed with its per-project folder, not a second time
    assert set(threads) == {"per-project:-work-app", "flat:/work/other", "flat:"}
    app = threads["per-project:-work-app"]
    assert app.subtitle.startswith("per-project and flat layouts")
    assert "per-project sessions are not read by Linggen" in app.subtitle and app.session_count == 3
    assert threads["flat:/work/other"].subtitle.startswith("flat layout")
    assert threads["flat:"].title == "Sessions without a project"
    sessions = {s.ref.session_id: s for s in conv.sessions("per-project:-work-app")}
    new = sessions["sess-new"]
    assert new.ref == SessionRef("per-project:-work-app", "sess-new")
    assert ("layout", "flat") in new.meta and ("project_name", "app") in new.meta
    assert ("layout", "per-project") in sessions["sess-1700000000-aaaa0001"].meta
    assert conv.messages(new.ref, 0, 5)[0].text == "hi"
    assert conv.count() == 2  # /work/app and /work/other; sessions without a project are no project


def test_a_growing_file_is_reindexed(tmp_path):
    h = Home(tmp_path / "home")
    path = h.flat_session("s", lines=line("user", "ling", "one"))
    conv = _conv(h.root)
    ref = SessionRef("flat:", "s")
    assert conv.message_count(ref) == 1
    with open(path, "a") as fh:
        fh.write(line("ling", "user", "two, a much longer line so that the size surely changes"))
    assert conv.message_count(ref) == 2
    assert conv.messages(ref, 1, 1)[0].text.startswith("two")


def test_search_source_yields_every_message_in_cursor_order_and_resumes(tmp_path):
    h = standard_home(tmp_path / "home")
    flat = h.flat_session("sess-f", "Flat", T0, line("user", "ling", "flat words", T0 + 2))
    store = KIND.open(h.root)
    search = store.capability(SearchSource)
    assert search.identity() == f"linggen/3:{h.root}"
    items = list(search.messages(None))
    assert len(items) == 5
    cursors = [c for c, _, _ in items]
    assert cursors == sorted(cursors) and len(set(cursors)) == 5
    assert [m.text for _, _, m in items][:3] == ["Fix the login bug", "flat words", "Please patch auth.rs"]
    ref, msg = items[1][1], items[1][2]  # same second as the next one: the session key breaks the tie
    assert ref == SessionRef("flat:", "sess-f") and msg.id == "L1"
    last = cursors[-1]
    assert list(search.messages(last)) == []
    with open(flat, "a") as fh:  # an append to any session is found after the last cursor
        fh.write(line("ling", "user", "appended later", T0 + 50))
    new = list(KIND.open(h.root).capability(SearchSource).messages(last))
    assert [m.text for _, _, m in new] == ["appended later"]


def test_activity_per_day(tmp_path):
    standard_home(tmp_path / "home")
    charts = KIND.open(tmp_path / "home").capability(Charts)
    days = charts.activity_per_day()
    assert sum(d.value for d in days) == 4 and {d.series for d in days} == {"per-project"}


def test_scan_and_pages_agree_on_what_is_bad(tmp_path):
    h = Home(tmp_path / "home")
    folder = h.project("/p")
    h.session(folder, "s", lines='{"content": NaN}\n[1, 2]\n' + line("user", "ling", "ok", T0 * 1000))
    store = KIND.open(h.root)
    assert store.counts()["messages"] == 1 and store.counts()["bad_jsonl_lines"] == 2
    msgs = store.capability(Conversations).messages(SessionRef(f"per-project:{folder}", "s"), 0, 10)
    assert [m.problem for m in msgs] == ["not JSON", "not a JSON object", None]
    assert msgs[2].at == T0 * 1000  # a timestamp already in milliseconds is kept


def test_a_session_folder_without_session_yaml_is_listed_with_a_problem(tmp_path):
    h = Home(tmp_path / "home")
    folder = h.project("/p")
    h.write(f"projects/{folder}/sessions/orphan/messages.jsonl", line("user", "ling", "hi"))
    h.flat_session("default-ok", lines="")
    h.write("sessions/default/messages.jsonl", line("user", "ling", "no session"))
    store = KIND.open(h.root)
    conv = store.capability(Conversations)
    (orphan,) = conv.sessions(f"per-project:{folder}")
    assert orphan.title == "orphan" and "no session.yaml" in orphan.problem and orphan.message_count == 1
    default = next(s for s in conv.sessions("flat:") if s.ref.session_id == "default")
    assert default.problem is None  # Linggen's catch-all session has no session.yaml by design

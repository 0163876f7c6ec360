"""``search`` and ``inspect`` asked again of an unchanged PGlite store answer from what the first run kept,
without starting PGlite (the sidecar's start is a trap here); a write by PGlite itself changes the store's
fingerprint and the next answer reads the store again; what is kept is private, masked, rebuilt when
damaged and gone once the store is."""

from __future__ import annotations

import json
import os
import shutil
import stat

import pytest
from sqlalchemy import create_engine, text

from daycare_gui.cli import main
from daycare_gui.stores.common import kept
from daycare_gui.stores.common.tree_fingerprint import fingerprint

SECRET = "sk-ant-api03-RepeatKeptSecret0123456789abcdefXYZ"


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


@pytest.fixture
def kept_home(tmp_path, monkeypatch):
    """A cache folder of this test's own: the kept records of other tests' stores are not in its way."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return cache / "daycare-gui" / "kept"


class Starts:
    """Counts the PGlite sidecars started (the only way the app runs PGlite: ``PgliteServer._spawn``)."""

    def __init__(self, monkeypatch) -> None:
        from daycare_gui.stores.daycare.pg import pglite_copy

        self.count = 0
        real = pglite_copy.PgliteServer._spawn

        def start(server, *args, **kwargs):
            self.count += 1
            return real(server, *args, **kwargs)

        monkeypatch.setattr(pglite_copy.PgliteServer, "_spawn", start)


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _write_through_pglite(folder, sql: str, params: dict) -> None:
    """A change written by PGlite itself into the folder, in place, as Daycare writes it."""
    from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
    from daycare_gui.stores.daycare.pg.runtime import ensure_runtime

    server = PgliteServer(folder, ensure_runtime(), copy=False)
    try:
        engine = create_engine(server.url)
        with engine.begin() as conn:
            conn.execute(text(sql), params)
        engine.dispose()
    finally:
        server.close()


_NEW_MESSAGE = ("INSERT INTO session_history (session_id, type, at, data) "
                "SELECT id, 'user_message', 1795000000001, CAST(:d AS jsonb) FROM sessions ORDER BY id LIMIT 1")


def _kept_files(kept_home):
    return [p for p in kept_home.rglob("*")]


def test_second_search_and_inspect_do_not_start_pglite_and_say_the_same(pglite_demo, kept_home, capsys,
                                                                       monkeypatch):
    starts = Starts(monkeypatch)
    store = str(pglite_demo)
    first = [_run(capsys, "search", store, "adapter"), _run(capsys, "inspect", store)]
    assert starts.count == 2 and all(code == 0 for code, _out, _err in first) and "adapter" in first[0][1]
    again = [_run(capsys, "search", store, "adapter"), _run(capsys, "inspect", store)]
    kept_json = [_run(capsys, "search", store, "adapter", "--json"), _run(capsys, "inspect", store, "--json")]
    assert starts.count == 2  # not one PGlite more
    assert [(c, o) for c, o, _e in again] == [(c, o) for c, o, _e in first]
    assert all("Starting PGlite" not in e for _c, _o, e in again + kept_json)
    kept.forget(os.path.realpath(pglite_demo / "daycare.pglite"))  # the same asked of the store itself
    live_json = [_run(capsys, "search", store, "adapter", "--json"), _run(capsys, "inspect", store, "--json")]
    assert starts.count == 4
    assert [(c, o) for c, o, _e in kept_json] == [(c, o) for c, o, _e in live_json]
    assert json.loads(live_json[1][1])["counts"]["session_history"] > 0
    # another query of the same unchanged store is answered from the kept index as well
    code, out, _err = _run(capsys, "search", store, "Lisbon", "--json")
    assert code == 0 and starts.count == 4 and json.loads(out)["kind"] == "daycare"
    # the store through a link (a store folder that is a link keeps working): read once as the link spells
    # it (a report names the store by that path), then answered from what that read kept
    link = pglite_demo.parent / "linked-store"
    link.symlink_to(pglite_demo, target_is_directory=True)
    via_link = [_run(capsys, "search", str(link), "adapter") for _ in range(2)]
    assert [(c, o) for c, o, _e in via_link] == [(0, first[0][1])] * 2
    assert starts.count == 5


def test_a_write_by_pglite_changes_the_fingerprint_and_the_answers(pglite_demo, kept_home, capsys, monkeypatch):
    from daycare_gui.stores.daycare.pg.kept_roots import pglite_target

    store = str(pglite_demo)
    assert _run(capsys, "search", store, "quokka", "--json")[0] == 0
    count = json.loads(_run(capsys, "inspect", store, "--json")[1])["counts"]["session_history"]
    folder = pglite_demo / "daycare.pglite"
    roots = pglite_target(store).roots
    before = fingerprint(roots)
    assert fingerprint(roots).digest == before.digest  # (reading the store changed nothing)
    _write_through_pglite(folder, _NEW_MESSAGE, {"d": json.dumps({"text": "a quokka crossed the road"})})
    assert fingerprint(roots).digest != before.digest
    starts = Starts(monkeypatch)
    found = json.loads(_run(capsys, "search", store, "quokka", "--json")[1])
    assert found["total"] == 1 and starts.count == 1  # read again, live
    assert json.loads(_run(capsys, "inspect", store, "--json")[1])["counts"]["session_history"] == count + 1
    assert starts.count == 2
    assert json.loads(_run(capsys, "search", store, "quokka", "--json")[1])["total"] == 1
    assert starts.count == 2  # and kept again


def test_kept_records_are_private_and_hold_no_secret(pglite_demo, kept_home, index_dir, capsys):
    folder = pglite_demo / "daycare.pglite"
    _write_through_pglite(folder, _NEW_MESSAGE, {"d": json.dumps({"text": f"my key is {SECRET} for the wombat"})})
    skill = pglite_demo / "skills" / "research" / "weather" / "SKILL.md"
    skill.write_text(skill.read_text() + f"\nwombat token: {SECRET}\n")
    store = str(pglite_demo)
    code, out, _err = _run(capsys, "search", store, "wombat")
    assert code == 0 and "wombat" in out and SECRET not in out
    assert _run(capsys, "inspect", store, "--json")[0] == 0
    files = _kept_files(kept_home)
    assert any(p.name == "search.json" for p in files) and any(p.name == "inspect.json" for p in files)
    for path in [kept_home, *files]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), path
    for path in [*files, *index_dir.rglob("*")]:
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
            assert SECRET[10:40].encode() not in path.read_bytes(), path


def test_a_damaged_record_is_read_again_without_a_traceback(pglite_demo, kept_home, index_dir, capsys,
                                                            monkeypatch):
    store = str(pglite_demo)
    first_search = _run(capsys, "search", store, "adapter")
    first_inspect = _run(capsys, "inspect", store, "--json")
    records = {p.name: p for p in kept_home.rglob("*.json")}
    records["search.json"].write_text('{"version": 1, "store": ')
    records["inspect.json"].write_bytes(b"\x00\xff garbage")
    for index in (index_dir / "sources").glob("*.sqlite"):  # the search index too: a cache as well
        index.write_bytes(b"not a database" * 300)
    starts = Starts(monkeypatch)
    again_search = _run(capsys, "search", store, "adapter")
    again_inspect = _run(capsys, "inspect", store, "--json")
    assert starts.count == 2  # both read the store again
    assert (again_search[:2], again_inspect[:2]) == (first_search[:2], first_inspect[:2])
    assert "Traceback" not in again_search[2] + again_inspect[2]
    assert json.loads(records["search.json"].read_text())["version"] == kept.VERSION  # written anew
    _run(capsys, "search", store, "adapter")
    assert starts.count == 2


def test_kept_records_go_when_the_store_goes(pglite_demo, kept_home, capsys):
    from daycare_gui.stores.common import leftovers

    other = pglite_demo.parent / "other"
    shutil.copytree(pglite_demo, other)
    for root in (pglite_demo, other):
        assert _run(capsys, "inspect", str(root))[0] == 0
    assert len([p for p in kept_home.iterdir()]) == 2
    shutil.rmtree(pglite_demo)
    leftovers.sweep_private_copies()  # what every start of daycare-gui runs
    left = [p for p in kept_home.iterdir()]
    assert len(left) == 1 and (left[0] / "store").read_text() == os.path.realpath(other / "daycare.pglite")


def test_a_kept_search_over_an_index_of_the_former_layout_reads_the_store_again(pglite_demo, kept_home, index_dir,
                                                                              capsys, monkeypatch):
    """What an older version kept (its index in the layout before version 4, and its state) is not answered
    from: the filters' tags of that layout are not this one's. The store is read and the index rebuilt."""
    import sqlite3

    from tests.stores.search.test_index_layout import FORMER_SCHEMA

    starts = Starts(monkeypatch)
    store = str(pglite_demo)
    first = _run(capsys, "search", store, "adapter", "--role", "assistant", "--json")
    assert first[0] == 0 and json.loads(first[1])["total"] > 0 and starts.count == 1
    # the index and the kept state as version 3 left them: the same rows in the former layout
    (path,) = (index_dir / "sources").glob("*.sqlite")
    conn = sqlite3.connect(path)
    keys = {f"t{n}": tag for n, tag in conn.execute("SELECT id, tag FROM tag_ids")}
    rows = [(r[0], r[1], " ".join(keys[t] for t in r[2].split()), *r[3:]) for r in conn.execute(
        "SELECT id, body, tags, session, message_id, role, kind, at, position FROM message_rows")]
    meta, sessions = conn.execute("SELECT * FROM meta").fetchall(), conn.execute("SELECT * FROM sessions").fetchall()
    conn.close()
    for sidecar in ("", "-wal", "-shm"):
        path.with_name(path.name + sidecar).unlink(missing_ok=True)
    former = sqlite3.connect(path)
    former.executescript(FORMER_SCHEMA)
    former.executemany("INSERT INTO meta VALUES (?, ?)", [(k, "3" if k == "version" else v) for k, v in meta])
    former.executemany("INSERT INTO sessions VALUES (?, ?, ?, ?)", sessions)
    former.executemany("INSERT INTO messages(rowid, body, tags, session, message_id, role, kind, at, position) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    former.commit()
    former.close()
    (record,) = [p for p in kept_home.rglob("search.json")]
    kept_record = json.loads(record.read_text())
    kept_record["data"]["index_state"][0] = "3"
    record.write_text(json.dumps(kept_record))
    again = _run(capsys, "search", store, "adapter", "--role", "assistant", "--json")
    assert again[0] == 0 and json.loads(again[1]) == json.loads(first[1])
    assert starts.count == 2  # the store read again (its index rebuilt), not the former layout misread


def test_what_is_kept_is_looked_up_without_asking_every_kind(pglite_demo, monkeypatch):
    """Which kind's answers were kept is decided as the open decides: Daycare's probe is certain, so no other
    kind is imported and the installed packages are not scanned for more (~0.2 s of every inspect)."""
    from daycare_gui.commands.repeat import KeptInspect
    from daycare_gui.stores import registry

    scans, loaded = [], []
    plain_load = registry.load_kind
    monkeypatch.setattr(registry, "_loaded", {})
    monkeypatch.setattr(registry, "_scanned", None)
    monkeypatch.setattr(registry, "_scan_entry_points", lambda: scans.append(1) or {})
    monkeypatch.setattr(registry, "load_kind", lambda name: loaded.append(name) or plain_load(name))
    found = KeptInspect.find(str(pglite_demo))
    assert found is not None and found.kind == "daycare"
    assert scans == [] and set(loaded) == {"daycare"}


def test_an_inspect_walks_the_pglite_folder_three_times_not_four(pglite_demo, kept_home, capsys, monkeypatch):
    """Before and after the live read (what may be kept), before and after the copy (whether the copy is the
    store as it was): the first two are one walk, the PGlite folder's fingerprint taken from the other's."""
    from daycare_gui.stores.common import tree_fingerprint

    version = os.path.realpath(pglite_demo / "daycare.pglite" / "PG_VERSION")
    walks = []
    plain = tree_fingerprint._entry

    def entry(rel, path, stack):
        if path == version:
            walks.append(rel)
        return plain(rel, path, stack)

    monkeypatch.setattr(tree_fingerprint, "_entry", entry)
    code, out, _err = _run(capsys, "inspect", str(pglite_demo))
    assert code == 0 and "session_history" in out
    assert len(walks) == 3, walks
    assert _kept_files(kept_home)  # the answer was kept: both walks around the read agreed

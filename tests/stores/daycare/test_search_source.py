"""Daycare's SQLite and legacy generations feed the shared search index (``SearchSource``): as many hits as
Daycare's own index gave for words, its filters (agent kind, lifecycle, user, record type) keeping exactly
the matching records, a history rewritten in the middle is indexed afresh, the former index file is removed,
and documents (skills, memory, prompt files, settings keys) are searched beside the messages, with secrets
kept out."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from daycare_gui.stores import registry
from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_docs import store_documents
from daycare_gui.stores.common.search_index import SourceIndex, update_documents
from daycare_gui.stores.common.search_query import SourceFilter, search_source
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.former_index import STORE_META, former_index_file
from daycare_gui.stores.daycare.sqlite.store import open_store
from tests.conftest import snapshot_tree

# Each query and the matches Daycare's own index (the former core.search) found in the demo when it was removed.
QUERIES = {"lisbon": 9, "the": 58, "gmail": 9, "flight*": 3, "weather OR calendar": 16, "report -draft": 0}


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("search-source") / "daycare"
    write_demo(dest)
    return dest


def _former_index(store_path, recorded: str | None) -> Path:
    """A file where Daycare's former index of ``store_path`` lived, saying which store it was built from."""
    path = former_index_file(os.environ["DAYCARE_GUI_SEARCH_DIR"], store_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    if recorded is not None:
        conn.execute("INSERT INTO meta VALUES (?, ?)", (STORE_META, recorded))
    conn.commit()
    conn.close()
    return path


def _new(path, text, choices=(), **kw):
    with registry.open_store(path) as store:
        source = store.capability(SearchSource)
        with SourceIndex.for_source(source) as index:
            built = update_source_index(source, index)
            update_documents(index, store_documents(store, source))
            found = search_source(index, text, SourceFilter(choices=tuple(choices)), limit=10_000, source=source,
                                  **kw)
    return built, found


def _hits(found):
    return {(h.ref.session_id, h.message_id) for h in found.hits}


def _records(path) -> dict[str, dict[str, str]]:
    """Record id → the value of each filter for it, read from the store itself."""
    conn = sqlite3.connect(f"file:{path / 'daycare.db'}?immutable=1", uri=True)
    try:
        rows = conn.execute("SELECT h.id, a.type, a.lifecycle, a.user_id, h.type FROM session_history AS h "
                            "JOIN sessions AS s ON s.id = h.session_id JOIN agents AS a ON a.id = s.agent_id")
        return {str(i): {"agent_kind": k, "lifecycle": life, "user": user, "record_type": t}
                for i, k, life, user, t in rows}
    finally:
        conn.close()


def _users(path) -> list[str]:
    conn = sqlite3.connect(f"file:{path / 'daycare.db'}?immutable=1", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT DISTINCT user_id FROM agents WHERE user_id IS NOT NULL")]
    finally:
        conn.close()


def test_as_many_hits_as_daycares_own_index_and_filters_keep_exactly_their_records(demo):
    before = snapshot_tree(demo)
    for text, total in QUERIES.items():
        _built, found = _new(demo, text)
        assert found.total == len(found.hits) == total, text
    records = _records(demo)
    cases = [("agent_kind", k) for k in ("subagent", "user", "cron")]
    cases += [("lifecycle", v) for v in ("active", "sleeping", "dead")]
    cases += [("user", u) for u in _users(demo)]
    cases += [("record_type", t) for t in ("tool_result", "user_message", "note")]
    some = 0
    for text in ("lisbon", "the"):
        every = _hits(_new(demo, text)[1])
        for name, value in cases:
            _built, found = _new(demo, text, [(name, value)])
            expected = {(s, i) for s, i in every if records[i][name] == value}
            assert _hits(found) == expected, (name, value, text)
            some += bool(expected)
    assert some >= 6  # the filters were compared on matches, not only on empty answers
    assert snapshot_tree(demo) == before


def test_the_facets_are_daycares_filters(demo):
    with registry.open_store(demo) as store:
        facets = {f.name: f for f in store.capability(SearchSource).facets()}
    assert list(facets) == ["agent_kind", "lifecycle", "user", "record_type"]
    assert ("subagent", "subagent") in facets["agent_kind"].choices
    assert {v for v, _label in facets["user"].choices} == set(_users(demo))
    assert ("tool_result", "tool_result") in facets["record_type"].choices


def test_legacy_store_gives_the_same_hits(fixture_copy):
    store = fixture_copy("daycare-808af509", with_db=False)
    _built, found = _new(store, "hello")
    assert [(h.ref.thread_id, h.ref.session_id, h.message_id) for h in found.hits] == [("agentusr1", "agentusr1#1", "2")]
    assert _new(store, "hello", [("agent_kind", "cron")])[1].total == 0
    assert _new(store, "hello", [("agent_kind", "user")])[1].total == 1
    assert _new(store, "hello", [("user", "anyone")])[1].total == 0  # legacy agents have no user yet

    # A history file that changed is indexed afresh (its fingerprint is the files' size and time).
    history = store / "agents" / "agentusr1" / "history.jsonl"
    history.chmod(0o644)
    with history.open("a") as fh:
        fh.write('{"type":"note","at":1739999009000,"text":"hello again"}\n')
    built, found = _new(store, "hello")
    assert found.total == 2 and built.status == "rebuilt"


def test_the_former_legacy_index_file_is_removed(fixture_copy, index_dir):
    store = fixture_copy("daycare-808af509", with_db=False)
    with open_store(store) as core:
        old = _former_index(core.paths.agents_dir, str(core.paths.agents_dir.resolve()))
    _new(store, "hello")
    assert not old.exists()


def test_a_history_rewritten_in_the_middle_rebuilds_the_index(tmp_path):
    dest = tmp_path / "daycare"
    write_demo(dest)
    built, found = _new(dest, "lisbon")
    assert built.status == "updated" and found.total == 9
    assert _new(dest, "lisbon")[0].status == "up to date"
    conn = sqlite3.connect(dest / "daycare.db")
    ids = [r[0] for r in conn.execute("SELECT id FROM session_history ORDER BY id")]
    # the first record (always among the sampled ones) rewritten: the last one is where it was
    conn.execute("UPDATE session_history SET data = ? WHERE id = ?",
                 (json.dumps({"text": "a zanzibar rewrite", "files": []}), ids[0]))
    conn.commit()
    built, found = _new(dest, "zanzibar")
    assert built.status == "rebuilt" and "changed" in built.reason
    assert found.total == 1 and found.hits[0].message_id == str(ids[0])
    # a record deleted in the middle: the count up to the cursor says so
    conn.execute("DELETE FROM session_history WHERE id = ?", (ids[len(ids) // 2],))
    conn.commit()
    conn.close()
    built, _found = _new(dest, "zanzibar")
    assert built.status == "rebuilt" and built.rows == len(ids) - 1


def test_the_former_daycare_index_file_is_removed(demo, index_dir):
    with open_store(demo) as core:
        db_path = core.paths.db_path.resolve()
    old = _former_index(db_path, str(db_path))
    (old.parent / f"{old.name}-wal").write_bytes(b"")
    other = index_dir / ("0" * 24 + ".sqlite")  # another store's index: left alone
    other.write_bytes(b"")
    assert old.exists()
    _new(demo, "lisbon")
    assert not old.exists() and not (old.parent / f"{old.name}-wal").exists()
    assert other.exists()
    assert list((index_dir / "sources").glob("*.sqlite"))


def test_documents_are_found_where_they_live_and_secrets_stay_out(tmp_path, index_dir):
    dest = tmp_path / "daycare"
    write_demo(dest)
    skill = dest / "skills" / "weekly-review" / "SKILL.md"
    skill.chmod(0o644)
    skill.write_text(skill.read_text() + "\nUse the quokka token sk-ant-api03-QAsecretQAsecretQAsecret0123\n")
    settings = json.loads((dest / "settings.json").read_text())
    settings["quokkaProvider"] = {"apiKey": "plainvalue-hunter2-QAsecret"}
    (dest / "settings.json").chmod(0o644)
    (dest / "settings.json").write_text(json.dumps(settings))
    agent = next(p for p in (dest / "agents").iterdir() if p.is_dir())
    (agent / "SYSTEM.md").write_text("You are the quokka keeper.\n")

    _built, found = _new(dest, "quokka*")
    where = {d.group: d for d in found.documents}
    assert set(where) == {"Skills", "Settings", "Agents' prompt files"}, where
    # keyed as the Documents section lists it, so a hit opens the skill there
    assert str(skill) in where["Skills"].where and where["Skills"].key == "config:weekly-review"
    assert where["Settings"].key == "settings:settings.json"
    assert where["Agents' prompt files"].key == f"agent-file:{agent.name}/SYSTEM.md"
    assert "documents" in found.summary
    # only documents match: the message filters leave them out
    assert _new(dest, "quokka*", [("record_type", "note")])[1].documents == []
    # secrets: a key in a skill is masked, a settings value never indexed
    assert _new(dest, "hunter2")[1].documents == [] and _new(dest, "plainvalue")[1].documents == []
    files = list((index_dir / "sources").glob("*.sqlite*"))
    assert files and not any(b"QAsecret" in f.read_bytes() for f in files)


def test_the_copy_inside_sqlite_indexes_what_the_messages_say(demo, tmp_path, monkeypatch):
    """``sqlite_feed`` (the batch copy inside SQLite, for speed) and ``messages`` (the reference) make the
    same index: the same text, tags, ids, roles, kinds, times and places in the session."""
    from daycare_gui.stores.daycare.sqlite.search import DaycareSqliteSearch

    def table(folder, feed: bool):
        monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / folder))
        if not feed:
            monkeypatch.setattr(DaycareSqliteSearch, "sqlite_feed", lambda self: None)
        with registry.open_store(demo) as store:
            source = store.capability(SearchSource)
            assert (source.sqlite_feed() is not None) == feed
            with SourceIndex.for_source(source) as index:
                update_source_index(source, index, batch=50)  # several batches
                assert update_source_index(source, index).status == "up to date"
                rows = index.conn.execute(
                    "SELECT m.rowid, body, tags, s.thread_id, s.session_id, message_id, role, kind, at, position "
                    "FROM messages AS m JOIN sessions AS s ON s.id = m.session ORDER BY m.rowid").fetchall()
                meta = {k: v for k, v in index.meta().items() if k in ("cursor", "check", "last", "rows", "roles")}
        monkeypatch.undo()
        return rows, meta

    fed, fed_meta = table("fed", True)
    streamed, streamed_meta = table("streamed", False)
    assert len(fed) == 172 and fed == streamed and fed_meta == streamed_meta


def test_secrets_among_many_records_are_masked_in_every_batch_of_the_copy(tmp_path, monkeypatch):
    """The copy inside SQLite and the messages streamed alike look at each batch's text at once and mask only
    the records that may hold a secret: planted ones (any case, first, last or amid a batch, one longer than
    the index keeps) are masked exactly as the message-by-message reference masks them, and no byte of them
    reaches the index's files."""
    from daycare_gui.stores.common import search_build, search_feed, search_index
    from daycare_gui.stores.common.search_index import BODY_LIMIT
    from daycare_gui.stores.common.secrets import mask_free_text
    from daycare_gui.stores.daycare.sqlite.search import DaycareSqliteSearch
    from tests.secret_samples import SAMPLES, leaked

    dest = tmp_path / "daycare"
    write_demo(dest)
    conn = sqlite3.connect(dest / "daycare.db")
    session = conn.execute("SELECT id FROM sessions ORDER BY id LIMIT 1").fetchone()[0]
    texts = []
    for i, sample in enumerate(SAMPLES):
        texts += [f"plain words {i}", sample.text, "more plain words"][: 1 + (i % 3) + 1]
    texts.append("x " * BODY_LIMIT + SAMPLES[0].text)  # cut at the limit, its secret beyond it
    texts.append("long " * (BODY_LIMIT // 5) + SAMPLES[1].text)  # its secret across the cut
    for text in texts:
        conn.execute("INSERT INTO session_history(session_id, type, at, data) VALUES (?, 'user_message', 1, ?)",
                     (session, json.dumps({"text": text, "files": []})))
    conn.commit()
    conn.close()

    def one_by_one(texts):  # the reference: every text masked on its own
        return [search_index._utf8(mask_free_text(t)[:BODY_LIMIT]) for t in texts]

    def table(folder, feed: bool, reference: bool = False):
        monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / folder))
        for module in (search_index, search_feed):  # and in every place of the texts looked at together
            monkeypatch.setattr(module, "MASK_CHUNK", 3)
        if not feed:
            monkeypatch.setattr(DaycareSqliteSearch, "sqlite_feed", lambda self: None)
        if reference:
            monkeypatch.setattr(search_build, "masked_texts", one_by_one)
        with registry.open_store(dest) as store:
            source = store.capability(SearchSource)
            with SourceIndex.for_source(source) as index:
                update_source_index(source, index, batch=7)  # secrets at every place in a batch
                rows = index.conn.execute("SELECT rowid, body FROM messages ORDER BY rowid").fetchall()
                path = index.path
        monkeypatch.undo()
        return rows, path

    fed, path = table("fed", True)
    streamed, streamed_path = table("streamed", False)
    reference, _ = table("reference", False, reference=True)
    assert fed == streamed == reference and len(fed) > len(texts)
    assert all(len(body) <= BODY_LIMIT for _rowid, body in fed)
    for index_path in (path, streamed_path):
        for part in [index_path, *(index_path.parent / f"{index_path.name}{s}" for s in ("-wal", "-shm"))]:
            if part.exists():
                assert leaked(part.read_bytes().decode("utf-8", "replace")) == [], part.name


def _demo_with_bytes(tmp_path, payload: bytes):
    """The demo with one more user message whose payload is ``payload``, stored as TEXT as it is (bytes that
    are not UTF-8 too): the store, an open connection to it and the message's session."""
    dest = tmp_path / "daycare"
    write_demo(dest)
    conn = sqlite3.connect(dest / "daycare.db")
    session = conn.execute("SELECT id FROM sessions ORDER BY id LIMIT 1").fetchone()[0]
    conn.execute("INSERT INTO session_history(session_id, type, at, data) VALUES (?, 'user_message', 1, "
                 "CAST(? AS TEXT))", (session, payload))
    conn.commit()
    return dest, conn, session


def test_a_record_whose_bytes_are_not_utf8_is_indexed_not_a_failed_build(tmp_path):
    """A store's text that is not UTF-8 (bytes 0xFF 0xFE written by some other tool): the build goes on (it
    stopped with a database error), the index holds UTF-8 (U+FFFD where the bytes break), the words around
    them are found and a secret in the same batch is still masked."""
    dest, conn, session = _demo_with_bytes(tmp_path, b'{"text": "zebra \xff\xfe quokka", "files": []}')
    conn.execute("INSERT INTO session_history(session_id, type, at, data) VALUES (?, 'user_message', 2, ?)",
                 (session, json.dumps({"text": "ocelot narwhal token=hunter2secret", "files": []})))
    conn.commit()
    conn.close()
    built, found = _new(dest, "quokka")
    assert built.status == "updated" and found.total == 1
    assert "zebra \ufffd\ufffd quokka" in found.hits[0].snippet.replace("\ue000", "").replace("\ue001", "")
    assert _new(dest, "narwhal")[1].total == 1 and _new(dest, "hunter2secret")[1].total == 0


def test_an_index_whose_last_record_is_not_utf8_is_updated_again_and_again(tmp_path):
    """The next search looks at the last record indexed to tell whether the history was rewritten; when that
    record's text was not UTF-8, the look failed ("cannot read this store"), and every later search with it.
    It is read as the build read it (U+FFFD where the bytes break): the index is kept and updated."""
    dest, conn, session = _demo_with_bytes(tmp_path, b'{"text": "zebra \xff quokka token=hunter2secret", "files": []}')
    built, found = _new(dest, "quokka")
    assert built.status == "updated" and found.total == 1
    again, found = _new(dest, "zebra")
    assert again.status == "up to date" and found.total == 1
    assert "hunter2secret" not in found.hits[0].snippet
    conn.execute("INSERT INTO session_history(session_id, type, at, data) VALUES (?, 'user_message', 2, ?)",
                 (session, json.dumps({"text": "ocelot after it", "files": []})))
    conn.commit()
    conn.close()
    grown, found = _new(dest, "ocelot")
    assert grown.status == "updated" and grown.added == 1 and found.total == 1

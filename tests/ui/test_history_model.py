"""MessagePagesModel (the shared conversation view's list) over a 200,000-record Daycare SQLite session:
pages by key, placeholders, bounded cache, exact alignment; and the same model over another kind's session
through KeyedPages' positional defaults."""

from __future__ import annotations

import shutil

import pytest
import shiboken6
from PySide6.QtCore import Qt

from daycare_gui.stores import api, registry
from daycare_gui.ui.models.message_pages import PLACEHOLDER, MessagePagesModel
from daycare_gui.ui.models.roles import KeyRole, RecordRole, StateRole
from daycare_gui.ui.worker import DbWorker
from tests.core.test_history_pages import BIG_SESSION, add_big_session

RECORDS = 200_000


@pytest.fixture(scope="module")
def big_store(tmp_path_factory, demo_store):
    dest = tmp_path_factory.mktemp("bighist") / "daycare"
    shutil.copytree(demo_store, dest)
    add_big_session(dest, RECORDS)
    return dest


def _open(path, session_id):
    store = registry.open_store(path)
    cap = store.capability(api.Conversations)
    return store, cap, cap.find_session(session_id)


@pytest.fixture
def setup(qtbot, big_store):
    store, cap, ref = _open(big_store, BIG_SESSION)
    worker = DbWorker("test-history")
    model = MessagePagesModel(worker, page_size=200, max_pages=8)
    yield cap, ref, model
    model.clear()
    worker.shutdown()
    store.close()
    # Delete the Qt objects now, while the application exists (not during interpreter shutdown).
    for obj in (model, worker):
        shiboken6.delete(obj)


def _wait_row(qtbot, model, row):
    model.index(row).data()
    # Generous: the model tester walks the rows on each signal, which takes seconds on a busy machine.
    qtbot.waitUntil(lambda: model.record(row) is not None, timeout=60000)
    return model.record(row)


def test_last_page_without_reading_the_session(qtbot, setup):
    # No model tester here: on every signal it walks all rows (2 million calls for 200,000 rows: 5 s a page
    # on an idle machine, over 10 s on a loaded one, which made this test flaky). The model's contract is
    # checked under a tester on a smaller session below.
    cap, ref, model = setup
    count = cap.message_count(ref)
    model.set_session(cap, ref, count, load_ids=False)
    assert model.rowCount() == RECORDS
    last = RECORDS - 1
    assert model.index(last).data() == PLACEHOLDER
    assert model.index(last).data(StateRole) == "placeholder"
    rec = _wait_row(qtbot, model, last)
    assert rec.text == f"answer {last}"
    assert model.rows_fetched <= 400  # this page (and the first, which the model tester reads), not the session
    assert str(model.index(last).data(KeyRole)) == rec.id
    assert model.index(last).data(RecordRole) is rec
    assert model.index(last).data(StateRole) == "assistant"
    assert "answer 199999" in model.index(last).data()


def test_offset_and_neighbour_pages_line_up_with_row_keys(qtbot, setup):
    cap, ref, model = setup
    ids = []
    after = None
    while True:
        chunk = cap.key_chunk(ref, after, 50_000)
        if not chunk:
            break
        ids.extend(chunk)
        after = chunk[-1]
    model.set_session(cap, ref, len(ids), load_ids=False)
    for row in (100_123, 100_123 + 200, 100_123 - 200, 0, 777):  # offset, after, before, first, offset
        assert _wait_row(qtbot, model, row).id == str(ids[row])
        assert model.record(row).text in (f"question {row}", f"looking {row}", f"answer {row}", "")
    assert model.row_of_key(ids[100_123]) == 100_123


def test_ids_arrive_in_chunks_and_cache_stays_bounded(qtbot, setup):
    cap, ref, model = setup
    model.set_session(cap, ref, RECORDS)
    qtbot.waitUntil(lambda: bool(model.ids_complete()), timeout=20000)
    jumps = range(0, RECORDS, RECORDS // 30)  # 31 far-apart jumps
    for row in jumps:
        _wait_row(qtbot, model, row)
        assert model.cached_pages() <= model.max_pages
    assert model.rows_fetched <= len(jumps) * 200
    last_jump = jumps[-1]
    assert model.row_of_key(model.key_of(last_jump)) == last_jump
    model.clear()
    assert model.rowCount() == 0 and model.cached_pages() == 0
    assert model.index(0).data(Qt.ItemDataRole.DisplayRole) is None


SMALL_SESSION = "smallsessionhistorytest01"
SMALL = 3_000  # 15 pages of 200: enough to evict from an 8-page cache, small enough for a tester


@pytest.fixture(scope="module")
def small_store(tmp_path_factory, demo_store):
    dest = tmp_path_factory.mktemp("smallhist") / "daycare"
    shutil.copytree(demo_store, dest)
    add_big_session(dest, SMALL, session_id=SMALL_SESSION)
    return dest


def test_paging_keeps_the_model_contract(qtbot, small_store, model_tester):
    store, cap, ref = _open(small_store, SMALL_SESSION)
    worker = DbWorker("test-history-small")
    model = MessagePagesModel(worker, page_size=200, max_pages=8)
    try:
        model_tester(model)  # every reset and page arrival below is checked against the whole model
        model.set_session(cap, ref, cap.message_count(ref))
        assert _wait_row(qtbot, model, SMALL - 1).text == f"answer {SMALL - 1}"  # the last page, by key
        qtbot.waitUntil(lambda: bool(model.ids_complete()), timeout=10000)  # row keys arrive in chunks
        for row in (1_234, 1_434, 1_034, 0, 2_999, 777, 2_500, 100, 1_900):  # by key, neighbours, far jumps
            rec = _wait_row(qtbot, model, row)
            assert model.row_of_key(int(rec.id)) == row
            assert rec.text in (f"question {row}", f"looking {row}", f"answer {row}", "")
            assert model.cached_pages() <= model.max_pages
        model.set_session(cap, ref, SMALL, load_ids=False)  # reopened: a reset, pages again
        assert _wait_row(qtbot, model, 1_600).text in ("question 1600", "")
        model.clear()
        assert model.rowCount() == 0 and model.cached_pages() == 0
    finally:
        worker.shutdown()
        store.close()
        for obj in (model, worker):
            shiboken6.delete(obj)


def test_a_pages_paint_token_changes_only_when_the_page_is_read_again(qtbot, small_store):
    """The row painter copies a block of rows it drew before after one check of the page's token: the token
    must change whenever the page is read again (its records may differ), and only then."""
    store, cap, ref = _open(small_store, SMALL_SESSION)
    worker = DbWorker("test-history-token")
    model = MessagePagesModel(worker, page_size=200, max_pages=2)
    try:
        model.set_session(cap, ref, SMALL, load_ids=False)
        assert model.paint_token(0) is None  # not here yet
        _wait_row(qtbot, model, 0)
        token = model.paint_token(0)
        assert token is not None and model.paint_token(199) == token  # one token for the whole page
        assert model.record(150) is not None  # decoding a row of it keeps the token
        assert model.paint_token(0) == token and model.paint_token(200) is None
        _wait_row(qtbot, model, 1_000)
        assert model.paint_token(0) == token  # shown again: now the page used last...
        _wait_row(qtbot, model, 2_000)
        assert model.cached_pages() == 2 and model.paint_token(0) == token  # ...so page 5 went, not page 0
        assert model.paint_token(1_000) is None
        assert model.record(2_000) is not None  # page 10 used last: page 0 is the oldest now...
        _wait_row(qtbot, model, 1_000)  # ...and goes
        assert model.paint_token(0) is None
        _wait_row(qtbot, model, 0)
        assert model.paint_token(0) not in (None, token)  # read again: another token
    finally:
        worker.shutdown()
        store.close()
        for obj in (model, worker):
            shiboken6.delete(obj)


@pytest.mark.parametrize("kind", ["cianaparrot", "linggen"])
def test_another_kind_pages_through_the_positional_defaults(qtbot, tmp_path, model_tester, kind):
    """The same model over a kind that offers only positions: small pages, neighbours, a far jump and the
    row keys, each row the message the kind gives at that place."""
    if kind == "cianaparrot":
        from daycare_gui.stores.cianaparrot.demo import write_demo
    else:
        from daycare_gui.stores.linggen import write_demo
    store = registry.open_store(write_demo(tmp_path / kind))
    cap = store.capability(api.Conversations)
    sessions = [s for t in cap.threads() for s in cap.sessions(t.id)]
    ref = max(sessions, key=lambda s: cap.message_count(s.ref)).ref
    total = cap.message_count(ref)
    every = cap.messages(ref, 0, total)
    worker = DbWorker(f"test-history-{kind}")
    model = MessagePagesModel(worker, page_size=2, max_pages=2)
    try:
        model_tester(model)
        model.set_session(cap, ref, total)
        for row in (total - 1, 0, 1, total // 2, total - 1):
            assert _wait_row(qtbot, model, row).id == every[row].id
            assert model.cached_pages() <= model.max_pages
        qtbot.waitUntil(lambda: bool(model.ids_complete()), timeout=10000)
        assert model.row_of_key(model.key_of(total - 1)) == total - 1
    finally:
        model.clear()
        worker.shutdown()
        store.close()
        for obj in (model, worker):
            shiboken6.delete(obj)

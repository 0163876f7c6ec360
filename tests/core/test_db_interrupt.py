"""A query nobody waits for any more stops: closing the database interrupts it at once, and a query run
inside ``cancellable`` stops soon after its flag is set. Nothing here needs Qt."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from daycare_gui.stores.common.sqlite_ro import DatabaseError, QueryInterrupted, ReadOnlyDatabase, cancellable

# Counts to a billion: minutes of work unless something stops it.
ENDLESS = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) "
           "SELECT count(*) FROM c")


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "daycare.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    conn.close()
    database = ReadOnlyDatabase(path)
    yield database
    database.close()


def _run_in_thread(fn):
    """Start ``fn`` in a thread; returns (thread, outcome list, started event)."""
    outcome: list = []
    started = threading.Event()

    def target():
        started.set()
        try:
            outcome.append(fn())
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            outcome.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    assert started.wait(5)
    return thread, outcome


def _wait_running(db, timeout=5.0):
    """Until the query holds a connection (checked out of the pool), i.e. is running."""
    end = time.monotonic() + timeout
    while db.connections_in_use() == 0:
        assert time.monotonic() < end, "the query never started"
        time.sleep(0.005)


@pytest.mark.parametrize("reader", ["rows", "fetch"])
def test_close_interrupts_a_running_query_without_waiting_for_it(db, reader):
    thread, outcome = _run_in_thread(lambda: getattr(db, reader)(ENDLESS))
    _wait_running(db)
    t = time.perf_counter()
    db.close()
    assert time.perf_counter() - t < 0.5  # close does not wait for the query
    thread.join(5)
    assert not thread.is_alive(), "the query kept running after close"
    assert isinstance(outcome[0], QueryInterrupted) and isinstance(outcome[0], DatabaseError)
    with pytest.raises(QueryInterrupted):
        db.rows("SELECT 1")  # a closed database refuses instead of reopening
    assert db.closed


def test_a_cancelled_query_stops_and_others_carry_on(db):
    flag = threading.Event()

    def cancellable_query():
        with cancellable(flag.is_set):
            return db.rows(ENDLESS)

    thread, outcome = _run_in_thread(cancellable_query)
    _wait_running(db)
    flag.set()
    thread.join(5)
    assert not thread.is_alive()
    assert isinstance(outcome[0], QueryInterrupted)
    assert db.scalar("SELECT count(*) FROM t") == 1  # the database itself stays usable
    with cancellable(lambda: False):
        assert db.scalar("SELECT count(*) FROM t") == 1

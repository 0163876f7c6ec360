"""The PGlite sidecar hands PGlite whole protocol messages, one client at a time.

pglite-socket 0.0.20 passed each socket read straight to PGlite: a message split across reads (a busy
machine, a large Bind) dropped the connection ("server closed the connection unexpectedly", seen in CI while
the demo schema was sent), and psycopg's pipelined executemany stalled. The sidecar now frames the bytes itself.
"""

from __future__ import annotations

import psycopg
import pytest

from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
from daycare_gui.stores.daycare.pg.runtime import ensure_runtime


def test_large_messages_pipelines_and_a_second_client(tmp_path):
    folder = tmp_path / "db"
    folder.mkdir()
    server = PgliteServer(folder, ensure_runtime(), copy=False)
    try:
        url = server.url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(url, autocommit=True) as conn:
            # a 3 MB query: many socket reads for one message
            assert conn.execute("SELECT length(%s)", ("x" * 3_000_000,)).fetchone() == (3_000_000,)
            # a Bind with 1,500 parameters (800 dropped the connection before)
            row = conn.execute("SELECT " + ",".join(["%s::int"] * 1500), list(range(1500))).fetchone()
            assert row[0] == 0 and row[-1] == 1499
            conn.execute("CREATE TABLE t (a int, b text)")
            with conn.cursor() as cur:  # psycopg pipelines executemany (it stalled before)
                cur.executemany("INSERT INTO t VALUES (%s, %s)", [(i, "y" * 100) for i in range(2000)])
            assert conn.execute("SELECT count(*), sum(a) FROM t").fetchone() == (2000, sum(range(2000)))
            # an error is PostgreSQL's answer to the client, and the session goes on (the sidecar asks PGlite
            # for bytes, never to throw it)
            with pytest.raises(psycopg.errors.DivisionByZero):
                conn.execute("SELECT 1 / 0")
            assert conn.execute("SELECT 2").fetchone() == (2,)
        with psycopg.connect(url) as again:  # the next client gets the same database
            assert again.execute("SELECT count(*) FROM t").fetchone() == (2000,)
    finally:
        server.close()
    assert not server.workdir.exists()

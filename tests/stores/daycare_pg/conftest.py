"""A real PostgreSQL server for the session, the pinned PGlite, and stores in temporary folders."""

from __future__ import annotations

import pytest

from tests.conftest import FIXTURES
from tests.pg_helpers import PgServer, unpack_pglite_fixture, use_test_pglite

NOW_MS = 1_795_000_000_000  # a fixed "now" (2026-11-18): demo stores are the same every run


@pytest.fixture(scope="session", autouse=True)
def _pglite_runtime():
    use_test_pglite()


@pytest.fixture(scope="session")
def pg_server():
    server = PgServer()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def pg_demo_url(pg_server):
    """A database on the server holding the demo of today's Daycare (written once per session)."""
    from daycare_gui.stores.daycare.pg.demo import write_pg_demo

    url = pg_server.create_db("daycare_demo")
    write_pg_demo(url, now_ms=NOW_MS)
    return url


@pytest.fixture
def pg_fresh_url(pg_server, request):
    """A new demo database for a test that writes."""
    from daycare_gui.stores.daycare.pg.demo import write_pg_demo

    name = "w_" + request.node.name.lower().replace("[", "_").replace("]", "")[:40]
    url = pg_server.create_db(name)
    write_pg_demo(url, now_ms=NOW_MS)
    return url


@pytest.fixture
def pglite_fixture(tmp_path):
    """The real store Daycare 7c3c466c wrote, unpacked into a temporary folder: <tmp>/daycare.pglite."""
    return unpack_pglite_fixture(FIXTURES / "daycare-pglite-7c3c466c.tar.gz", tmp_path / "store")


@pytest.fixture(scope="session")
def pglite_demo_master(tmp_path_factory):
    """Written once per session through the command line: ``demo DIR --generation pglite``."""
    from daycare_gui.cli import main

    root = tmp_path_factory.mktemp("pglite-demo") / "store"
    assert main(["demo", str(root), "--generation", "pglite", "--now", "2026-11-18T00:00Z", "--quiet"]) == 0
    assert (root / "daycare.pglite" / "PG_VERSION").is_file()
    return root


@pytest.fixture
def pglite_demo(pglite_demo_master, tmp_path):
    """A private copy of the PGlite demo store (written by PGlite itself once per session)."""
    import shutil

    dest = tmp_path / "store"
    shutil.copytree(pglite_demo_master, dest)
    return dest

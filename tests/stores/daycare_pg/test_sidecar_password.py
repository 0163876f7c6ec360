"""The PGlite sidecar lets in only who knows this start's password (issue #32): PGlite itself takes any
password, and the socket is open to every process of the user. The password never shows in the sidecar's
command line or environment, which other processes can read."""

from __future__ import annotations

import re
from pathlib import Path

import psycopg
import pytest

from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
from daycare_gui.stores.daycare.pg.runtime import ensure_runtime


def test_a_wrong_password_is_refused_and_the_right_one_reads(tmp_path):
    folder = tmp_path / "db"
    folder.mkdir()
    server = PgliteServer(folder, ensure_runtime(), copy=False)
    try:
        url = server.url.replace("postgresql+psycopg://", "postgresql://")
        password = re.match(r"postgresql://postgres:([^@]+)@/", url).group(1)
        for wrong in ("pglite", "any", password[:-1]):  # "pglite": what every client gave before
            with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
                psycopg.connect(url.replace(f":{password}@", f":{wrong}@"), connect_timeout=10)
        with psycopg.connect(url, autocommit=True) as conn:  # a refused client did not spoil the next one
            assert conn.execute("SELECT 41 + 1").fetchone() == (42,)
        proc = Path("/proc") / str(server.proc.pid)
        assert len(password) >= 32  # secrets.token_urlsafe(24)
        assert password.encode() not in (proc / "cmdline").read_bytes()
        assert password.encode() not in (proc / "environ").read_bytes()
    finally:
        server.close()

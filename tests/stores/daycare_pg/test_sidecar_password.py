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


def test_a_long_temporary_folder_still_serves_the_copy(tmp_path, monkeypatch):
    """A unix socket's path has at most 107 bytes: under a long TMPDIR (macOS's /var/folders/…, a test
    runner's) the sidecar could not listen at all. Its socket then goes to a short folder in /tmp of this
    user's own, which goes with the copy."""
    import tempfile

    long_tmp = tmp_path / ("t" * 70)
    long_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(long_tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR afresh
    folder = tmp_path / "db"
    folder.mkdir()
    server = PgliteServer(folder, ensure_runtime(), copy=False)
    try:
        assert str(server.workdir).startswith(str(long_tmp))  # the private folder stays where TMPDIR says
        short = server.socket_dir
        assert str(short).startswith("/tmp/daycare-gui-sock-") and oct(short.stat().st_mode & 0o777) == "0o700"
        url = server.url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(url, autocommit=True) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        server.close()
    assert not short.exists()

"""Real PostgreSQL and PGlite for the tests: a server started from Debian's packages in a temporary
folder (initdb, loopback, a password), and the pinned PGlite that tools/install_test_deps.sh put in
.cache/pglite. Neither reaches the network; both are stopped and removed at the end."""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PGLITE_CACHE = REPO / ".cache" / "pglite"
PASSWORD = "s3cret-Pa55"


def use_test_pglite(monkeypatch_env=os.environ) -> Path:
    """The test cache, if it is what the application itself accepts (the pinned release, file for file)."""
    from daycare_gui.stores.daycare.pg.runtime import PACKAGE, is_pinned_release

    if not is_pinned_release(PGLITE_CACHE / PACKAGE):
        raise RuntimeError(f"the pinned PGlite is not installed for the tests in {PGLITE_CACHE}, or its files "
                           "differ from the pinned release: run tools/install_test_deps.sh")
    monkeypatch_env["DAYCARE_GUI_PGLITE_DIR"] = str(PGLITE_CACHE)
    return PGLITE_CACHE


def plant_pglite(folder: Path, marker: Path) -> Path:
    """A ``node_modules/@electric-sql/pglite`` in ``folder`` that passes for the pinned release by its
    package.json and would write ``marker`` when Node loads it: a store's folder must never run it."""
    package = folder / "node_modules" / "@electric-sql" / "pglite"
    package.mkdir(parents=True)
    (package / "package.json").write_text(
        '{"name": "@electric-sql/pglite", "version": "0.3.15", "main": "index.mjs", "type": "module", '
        '"exports": {".": {"import": "./index.mjs", "require": "./index.mjs"}}}')
    code = f'import fs from "node:fs"; fs.writeFileSync({json.dumps(str(marker))}, "ran"); export class PGlite {{}}\n'
    for name in ("index.mjs", "index.js"):
        (package / name).write_text(code)
    (package / "dist").mkdir()
    (package / "dist" / "index.js").write_text(code)
    return package


def pg_bindir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL's server is not installed: apt-get install postgresql")
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """initdb + pg_ctl in ``root``; as the postgres user when the tests run as root (initdb refuses root)."""

    def __init__(self, root: Path | None = None) -> None:
        # Not under pytest's tmp folder: the postgres user (initdb refuses root) cannot enter that one.
        root = root or Path(tempfile.mkdtemp(prefix="daycare-gui-test-pg-"))
        self.root = root
        self.bindir = pg_bindir()
        self.port = _free_port()
        self.data = root / "data"
        self.user = None
        if os.geteuid() == 0:
            self.user = pwd.getpwnam("postgres")
        root.mkdir(parents=True, exist_ok=True)
        pwfile = root / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self.user:
            for p in (root, pwfile):
                os.chown(p, self.user.pw_uid, self.user.pw_gid)
        self._run([self.bindir / "initdb", "-D", self.data, "-U", "postgres", "--auth=scram-sha-256",
                   f"--pwfile={pwfile}", "-E", "UTF8", "--locale=C.UTF-8"])
        # autovacuum off: an automatic ANALYZE of a demo just written takes a transaction id at a moment of its
        # own choosing, which moves the snapshot a cache's fingerprint is taken from (the tests that count
        # reads would count one more, now and then)
        self._run([self.bindir / "pg_ctl", "-D", self.data, "-w", "-l", root / "log", "-o",
                   f"-p {self.port} -k {root} -c listen_addresses=127.0.0.1 -c autovacuum=off", "start"])

    def _run(self, cmd) -> None:
        kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid} if self.user else {}
        done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)
        if done.returncode != 0:
            raise RuntimeError(f"{Path(str(cmd[0])).name} failed: {done.stderr.strip() or done.stdout.strip()}")

    def url(self, db: str = "postgres", password: str | None = PASSWORD) -> str:
        auth = f"postgres:{password}" if password is not None else "postgres"
        return f"postgresql://{auth}@127.0.0.1:{self.port}/{db}"

    def create_db(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run([self.bindir / "pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop"])
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def unpack_pglite_fixture(tarball: Path, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
        else:  # Python before 3.11.4: the fixture is ours, but check members anyway
            tar.extractall(dest, members=[m for m in tar.getmembers() if not m.name.startswith(("/", ".."))])
    return dest


def wait_gone(path: Path, timeout: float = 5.0) -> bool:
    end = time.time() + timeout
    while path.exists() and time.time() < end:
        time.sleep(0.05)
    return not path.exists()


def traced_statements(store) -> list[str]:
    """Every statement a PG store's connection sends from now on (each of its ways to send one, wrapped),
    its whitespace folded: what a test counts when it says how many questions an open asks."""
    statements: list[str] = []
    for name in ("rows", "mappings", "rows_with"):
        plain = getattr(store.db, name)

        def seen(*args, plain=plain, name=name, **kwargs):
            sql = kwargs.get("sql", args[1] if name == "rows_with" else args[0])
            statements.append(" ".join(sql.split()))
            return plain(*args, **kwargs)

        setattr(store.db, name, seen)
    return statements

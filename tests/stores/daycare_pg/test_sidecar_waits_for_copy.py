"""The PGlite sidecar starts before the store is copied (#35): Node loads PGlite and its WebAssembly while the
copy is made, and PostgreSQL, which reads the data folder, waits until the application says the copy is whole.
A copy that fails or is cancelled kills the waiting sidecar and removes the copy; a sidecar whose application
went away before the copy was whole never touches the folder."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.opening import OpenCancelled
from daycare_gui.stores.daycare.pg import pglite_copy
from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
from daycare_gui.stores.daycare.pg.runtime import SIDECAR, ensure_runtime

WAIT_S = 120  # (a bound for a wait on a busy machine, not a timing assertion)
CHECK_WAIT_S = 30  # (the old order never starts the sidecar during the check: a bound, not a timing assertion)


def _wait_for(what, check, bound: float = WAIT_S) -> None:
    deadline = time.monotonic() + bound
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def _sidecar_serving(folder: Path) -> int | None:
    """The process id of a sidecar started on ``folder`` if one runs now: a child of this process working in
    the private folder that holds ``folder`` (its command line may read empty while Node starts)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
                if ppid == os.getpid() and os.readlink(entry / "cwd") == os.path.realpath(folder.parent):
                    return int(entry.name)
            except (OSError, ValueError, IndexError):
                continue
    return None


def test_pglite_loads_during_the_copy_and_reads_the_folder_only_once_it_is_whole(pglite_demo, monkeypatch):
    plain_copy = pglite_copy.copy_pglite
    seen = {}

    def copy(src, dest, *args, **kwargs):
        # the sidecar runs already, on this folder, and holds PostgreSQL's start while the folder is empty:
        # a PGlite that did not wait would have made a new database in it
        seen["pid"] = _sidecar_serving(dest)
        assert seen["pid"] is not None, "no sidecar runs while the store is copied"
        log = dest.parent / "sidecar.log"
        _wait_for("PGlite to load", lambda: "waiting for the data folder" in log.read_text())
        seen["empty"] = sorted(os.listdir(dest))
        return plain_copy(src, dest, *args, **kwargs)

    monkeypatch.setattr(pglite_copy, "copy_pglite", copy)
    with registry.open_store(pglite_demo) as store:
        threads = store.capability(api.Conversations).threads()
        agents = store.db.scalar("SELECT count(*) FROM agents")
        assert store.server.proc.pid == seen["pid"]  # the one started before the copy serves it
    assert seen["empty"] == []
    assert len(threads) >= 3 and agents >= 3  # the demo's agents: the copy it was told of, not a new database


@pytest.mark.parametrize("failure", [OSError(5, "Input/output error"), OpenCancelled("cancelled while copying")])
def test_a_copy_that_fails_kills_the_waiting_sidecar_and_removes_the_copy(pglite_demo, monkeypatch, failure):
    seen = {}

    def copy(src, dest, *args, **kwargs):
        seen["pid"], seen["workdir"] = _sidecar_serving(dest), dest.parent
        raise failure

    monkeypatch.setattr(pglite_copy, "copy_pglite", copy)
    with pytest.raises(type(failure)):
        PgliteServer(pglite_demo / "daycare.pglite", ensure_runtime())
    assert seen["pid"] is not None, "no sidecar ran while the store was copied"
    with pytest.raises(ProcessLookupError):  # killed, and waited for (no zombie left either)
        os.kill(seen["pid"], 0)
    assert not seen["workdir"].exists()


def test_a_sidecar_whose_input_ends_before_start_leaves_the_folder_untouched(tmp_path):
    """The application died (or gave up) while copying: the sidecar exits, and PGlite never made a database
    in the half-made folder (it makes one in an empty folder it is started on)."""
    runtime = ensure_runtime()
    data, sockets = tmp_path / "data", tmp_path / "socket"
    data.mkdir(mode=0o700)
    sockets.mkdir(mode=0o700)
    proc = subprocess.Popen([runtime.node, str(SIDECAR), str(data), str(sockets)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(tmp_path))
    try:
        proc.stdin.write(f"a-password-of-this-test\n{runtime.entry}\n")
        proc.stdin.flush()
        time.sleep(1)  # (PGlite is loading, or waits already: either way the input ends before START)
        try:
            out, _err = proc.communicate(timeout=WAIT_S)  # (closes its input)
        except subprocess.TimeoutExpired:
            pytest.fail("the sidecar did not stop when its input ended")
        assert proc.returncode != 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "READY" not in out
    assert os.listdir(data) == []


def _sidecar_children() -> list[int]:
    """Sidecars (Node running sidecar.mjs) started by this process."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
                if ppid == os.getpid() and str(SIDECAR).encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    return found


def test_node_starts_while_pglite_s_files_are_checked_and_loads_pglite_only_once_they_are(pglite_demo,
                                                                                         monkeypatch):
    """Node's own start runs while PGlite's 21 MB are hashed against the pin (runtime.py), instead of after:
    the sidecar is running during the check, and has not loaded PGlite (which it is told of on stdin only
    once the check is done)."""
    from daycare_gui.stores.daycare.pg import runtime

    real = runtime.find_runtime
    seen = {}

    def checking():
        _wait_for("the sidecar to start during the check", _sidecar_children, CHECK_WAIT_S)
        [seen["pid"]] = _sidecar_children()
        log = next(Path(f"/proc/{seen['pid']}/cwd").resolve().glob("sidecar.log"))
        time.sleep(1)  # (Node has had time to start; whatever it does, it has not been told PGlite's module)
        seen["log"] = log.read_text()
        return real()

    monkeypatch.setattr(runtime, "find_runtime", checking)
    with registry.open_store(pglite_demo) as store:
        assert store.server.proc.pid == seen["pid"]
        assert store.capability(api.Conversations).threads()
    assert "PGlite loaded" not in seen["log"]


def test_the_fingerprint_before_the_copy_is_taken_once_node_is_starting(pglite_demo, monkeypatch):
    """The store's fingerprint before its copy (pg.history_keys) is a stat of every file: taken while Node
    starts, not before Node is started. Still before the copy: the copy's fingerprint is the store as copied."""
    from daycare_gui.stores.daycare.pg import open as pg_open

    real, order = pg_open._fingerprint, []
    plain_copy = pglite_copy.copy_pglite

    def fingerprint(folder, *, handed=False):
        if handed:
            order.append(("fingerprint", bool(_sidecar_children())))
        return real(folder, handed=handed)

    def copy(*args, **kwargs):
        order.append(("copy", True))
        return plain_copy(*args, **kwargs)

    monkeypatch.setattr(pg_open, "_fingerprint", fingerprint)
    monkeypatch.setattr(pglite_copy, "copy_pglite", copy)
    with registry.open_store(pglite_demo) as store:
        assert store.capability(api.Conversations).threads()
    assert order == [("fingerprint", True), ("copy", True)]

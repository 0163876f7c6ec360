"""The shared answers to "is that program still running?": which other processes lock a file (how AgentStack
and the CianaParrot bot are seen to have their database open), and whether a pid file's process exists."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from daycare_gui.stores.common.file_locks import getlk_holder, proc_lock_holders
from daycare_gui.stores.common.processes import process_exists

# A process that takes a POSIX write lock on bytes 0..9 of a file (waiting for it if another holds it),
# says so, and keeps it until its input closes.
_LOCKER = """
import fcntl, sys
f = open(sys.argv[1], "r+b")
print("waiting", flush=True)
fcntl.lockf(f, fcntl.LOCK_EX, 10, 0)
print("locked", flush=True)
sys.stdin.read()
"""


def _locker(path):
    proc = subprocess.Popen([sys.executable, "-c", _LOCKER, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "waiting"
    return proc


def _stop(*procs):
    for proc in procs:
        proc.stdin.close()
        proc.wait(timeout=10)


def test_the_processes_locking_a_file_are_named_waiters_included(tmp_path):
    db = tmp_path / "store.db"
    db.write_bytes(b"\0" * 64)
    other = tmp_path / "other.db"
    other.write_bytes(b"\0" * 64)
    assert proc_lock_holders([db]) == []
    assert getlk_holder(db, 0, 10) == 0

    holder = _locker(db)
    try:
        assert holder.stdout.readline().strip() == "locked"
        assert proc_lock_holders([db]) == [holder.pid]
        assert proc_lock_holders([other, tmp_path / "missing.db"]) == []  # another file's lock is not this one's
        assert getlk_holder(db, 0, 10) == holder.pid
        assert getlk_holder(db, 20, 5) == 0  # a range nobody locks

        waiter = _locker(db)  # blocked behind the first: "->" in its /proc/locks line, the file open all the same
        try:
            deadline = time.monotonic() + 10
            while len(proc_lock_holders([db])) < 2 and time.monotonic() < deadline:
                time.sleep(0.02)
            assert proc_lock_holders([db]) == [holder.pid, waiter.pid]
        finally:
            _stop(holder)
            assert waiter.stdout.readline().strip() == "locked"  # it got the lock once the first let go
            _stop(waiter)
    finally:
        if holder.poll() is None:
            _stop(holder)
    assert proc_lock_holders([db]) == []


def test_a_process_is_found_until_it_is_gone():
    assert process_exists(os.getpid()) is True
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait(timeout=10)  # exited and reaped: its id names no process now
    assert process_exists(child.pid) is False
    assert process_exists(0) is None  # "0" in a pid file names no single process: it cannot be told
    assert process_exists(-5) is None

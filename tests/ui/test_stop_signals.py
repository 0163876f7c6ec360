"""The window told to stop — SIGTERM (a desktop logging out, ``timeout``), SIGHUP (its terminal closed),
SIGINT (Ctrl+C in that terminal) — quits as Ctrl+Q does: it exits, without a traceback, and the private copy
of the store it was reading (a PGlite copy, an AgentStack snapshot) is gone from the temporary folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.crash.private_stores import (
    agentstack_with_wal,
    child_env,
    hangup_as_a_terminal_sends_it,
    ours,
    short_tmp,
)

WAIT_S = 120  # a busy two-core machine: copying the store and starting Node take seconds


def _copy_ready(tmp, kind: str) -> bool:
    if kind == "pglite":  # copied and served: the sidecar's socket is there
        return any(tmp.glob("daycare-gui-pglite-*/socket/.s.PGSQL.*"))
    return any(tmp.glob("daycare-gui-agentstack-*/aistack.db"))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
@pytest.mark.parametrize("kind", ["pglite", "agentstack"])
def test_a_stop_signal_closes_the_window_and_removes_its_copy(kind, signum, tmp_path, pglite_store):
    store = pglite_store if kind == "pglite" else agentstack_with_wal(tmp_path)
    with short_tmp() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "daycare_gui", str(store)], env=child_env(tmp),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, preexec_fn=hangup_as_a_terminal_sends_it)
        try:
            deadline = time.monotonic() + WAIT_S
            while not _copy_ready(tmp, kind) and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert _copy_ready(tmp, kind), f"no copy of the store appeared: {ours(tmp)}"
            if signum == signal.SIGTERM:  # a desktop or `timeout`: to the app alone
                proc.send_signal(signum)
            else:  # the terminal: to its whole foreground group, the PGlite helper included
                os.killpg(proc.pid, signum)
            _out, err = proc.communicate(timeout=WAIT_S)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
        assert proc.returncode == 0, err
        assert "Traceback" not in err, err
        assert ours(tmp) == []

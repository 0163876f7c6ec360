"""A command told to stop — SIGTERM (``timeout``, a logout), SIGHUP (its terminal closed) — ends as Ctrl+C
ends it: the store closes, its private copy leaves the temporary folder, the exit status says which signal
(128 + its number), and no traceback is printed."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from daycare_gui.cli import main
from tests.crash.private_stores import child_env, hangup_as_a_terminal_sends_it, ours, short_tmp

# `daycare-gui search` of a PGlite store whose index build waits once it has begun: the signal comes while
# the store is open and read through its private copy.
SEARCH = """
import sys, time
from daycare_gui.stores.common import search_build

real = search_build.update_source_index

def slow(*args, **kwargs):
    print("indexing", flush=True)
    time.sleep(600)
    return real(*args, **kwargs)

search_build.update_source_index = slow
from daycare_gui.cli import main
raise SystemExit(main(["search", sys.argv[1], "hello"]))
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_search_stopped_while_indexing_a_pglite_store_removes_its_copy(signum, pglite_store, tmp_path):
    with short_tmp() as tmp:
        env = dict(child_env(tmp), DAYCARE_GUI_SEARCH_DIR=str(tmp_path / "index"))
        proc = subprocess.Popen([sys.executable, "-c", SEARCH, str(pglite_store)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=hangup_as_a_terminal_sends_it)
        try:
            assert proc.stdout.readline().strip() == "indexing"
            assert [n for n in ours(tmp) if n.startswith("daycare-gui-pglite-")]  # read through its copy
            proc.send_signal(signum)
            _out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        assert proc.returncode == 128 + signum, err
        assert f"stopped by {signum.name}" in err and "Traceback" not in err, err
        assert ours(tmp) == []


def test_a_command_gives_the_signals_back_as_it_found_them(tmp_path, capsys):
    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
    assert main(["demo", str(tmp_path / "d"), "--quiet"]) == 0
    assert {s: signal.getsignal(s) for s in before} == before

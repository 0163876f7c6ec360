"""A PGlite store's commands piped into a reader that went away: quiet, exit 0 (issue 34, item 6; search
on PGlite printed a BrokenPipeError traceback)."""

from __future__ import annotations

import pytest

from tests.cli.test_closed_pipe import run_into_closed_pipe


@pytest.mark.parametrize("command", [["search", "{store}", "the", "--index-dir", "{index}"],
                                     ["inspect", "{store}", "--json"]])
def test_pglite_commands_into_a_closed_pipe(pglite_demo_master, tmp_path, command):
    args = [a.format(store=pglite_demo_master, index=tmp_path / "index") for a in command]
    done = run_into_closed_pipe(args, tmp_path)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr

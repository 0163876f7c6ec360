"""A Linggen home whose session log is a link to a named pipe: the window opens the store (it stayed up
with nothing shown, its reader blocked for ever on the pipe) and the Problems page says the file was left
out and why."""

from __future__ import annotations

import os

from tests.hostile.guard import unblock
from tests.ui.conftest import open_and_wait, thread_rows


def test_a_piped_session_log_opens_and_is_listed_as_a_problem(qtbot, window, tmp_path):
    from tests.stores.linggen.builder import standard_home

    home = standard_home(tmp_path / "home").root
    messages = home / "projects" / "-work-app" / "sessions" / "sess-1700000000-aaaa0001" / "messages.jsonl"
    messages.unlink()
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    messages.symlink_to(pipe)
    try:
        open_and_wait(qtbot, window, home, timeout=30000)
        window.show_section("problems")
        problems = window.pane("problems")
        model = problems.model

        def said() -> list[str]:
            return [model.record(i).message for i in range(model.rowCount())
                    if model.record(i).path == str(messages)]

        qtbot.waitUntil(lambda: bool(said()), timeout=10000)
        assert said() == ["cannot read file: a named pipe (FIFO), not a regular file; not read"]
        window.show_section("conversations")
        pane = window.pane("conversations")
        qtbot.waitUntil(lambda: pane.threads.model.rowCount() > 0, timeout=10000)
        assert [r.values[0] for r in thread_rows(qtbot, pane)] == ["app"]  # the store is shown
    finally:
        for _ in range(20):  # a reader still blocked on the pipe (the code before the fix) is let go
            unblock(pipe)

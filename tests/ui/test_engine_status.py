"""The status bar's word on the system's own engine, for a kind that cannot always see it: CianaParrot's
bot in Docker Desktop leaves only its -wal/-shm here, no lock. Writes then ask first, and the status bar
says the bot *may* run — not that it runs, which nothing showed."""

from __future__ import annotations

import os
import time

from tests.stores.cianaparrot.builder import make_deployment
from tests.ui.conftest import open_and_wait


def test_leftover_wal_files_read_may_be_running_not_running(qtbot, window, tmp_path):
    deployment = make_deployment(tmp_path / "ciana")
    db = deployment / "data" / "checkpoints.db"
    old = time.time() - 600
    for suffix in ("-wal", "-shm"):
        side = db.with_name(db.name + suffix)
        side.write_bytes(b"")
        os.utime(side, (old, old))
    open_and_wait(qtbot, window, deployment)
    assert window.status_engine.text() == "engine may be running"
    assert "locks are not visible" in window.status_engine.toolTip()


def test_a_deployment_with_no_sign_of_its_bot_says_nothing_of_it(qtbot, window, tmp_path):
    deployment = make_deployment(tmp_path / "ciana")
    open_and_wait(qtbot, window, deployment)
    assert window.status_engine.text() == "" and window.status_engine.toolTip() == ""

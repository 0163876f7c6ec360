"""An edit of a PGlite store is made on a copy that is then swapped in: when that copy had to leave
something out (here a link out of the store, which it never follows), swapping it in would lose that entry
or turn it into a copy of another folder's file. The edit is refused and the folder stays as it was."""

from __future__ import annotations

import os

import pytest

from daycare_gui.stores import api, registry


def test_pglite_edit_refused_when_the_copy_left_something_out(pglite_demo, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("another folder's file\n")
    link = pglite_demo / "daycare.pglite" / "pg_stat" / "outside-link"
    link.symlink_to(outside)
    with registry.open_store(pglite_demo) as store:
        assert any(p.path == str(link) and p.message.startswith("a link out of the store") for p in store.problems)
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-plants")
        with pytest.raises(api.WriteRefused, match="pg_stat/outside-link, a link out of the store"):
            tasks.update(task, {"enabled": True})
    assert os.readlink(link) == str(outside)  # still the link it was
    assert not list(pglite_demo.glob(".daycare-gui-backup-*")) and not list(pglite_demo.glob(".daycare-gui-edit-*"))

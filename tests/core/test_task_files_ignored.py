"""Store.task_files_ignored: whether Daycare would read a task file added now (New cron/heartbeat task…)."""

from __future__ import annotations

from daycare_gui.stores.daycare.sqlite.store import open_store


def test_before_the_import_daycare_reads_task_files(fixture_copy):
    with open_store(fixture_copy("daycare-808af509", with_db=False)) as store:
        assert store.task_files_ignored() is None


def test_after_the_import_daycare_reads_only_rows(fixture_copy):
    with open_store(fixture_copy("daycare-808af509")) as store:
        reason = store.task_files_ignored()
    assert reason is not None and "20260220_import_tasks" in reason and "database" in reason


def test_a_pglite_store_reads_no_task_file(pglite_store):
    with open_store(pglite_store) as store:
        assert "PGlite" in store.task_files_ignored()

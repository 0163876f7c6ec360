"""Today's Daycare fills the tasks page's groups: cron rows and webhooks, each task in its group; it keeps one
copy of a task (its rows), so there are no copies to compare, and nothing can be made or deleted here."""

from __future__ import annotations

from daycare_gui.stores import api, registry


def test_pg_tasks_come_in_cron_and_webhook_groups(pg_demo_url):
    with registry.open_store(pg_demo_url) as store:
        tasks = store.capability(api.Tasks)
        assert tasks.groups() == (("cron", "Cron tasks"), ("webhook", "Webhooks"))
        assert tasks.reader == "Daycare"
        listed = tasks.tasks()
        assert listed and {t.schedule_kind for t in listed} <= dict(tasks.groups()).keys()
        assert all(t.copies == () and not t.ignored for t in listed)
        cron = next(t for t in listed if t.schedule_kind == "cron")
        kinds = {f.name: f.kind for f in tasks.editable(cron)}
        assert kinds["schedule"] == "schedule"  # the form says the schedule in words as it is typed
        assert tasks.create_fields("cron") == () and tasks.delete_reason(cron)

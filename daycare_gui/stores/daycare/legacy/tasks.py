"""The legacy (files-only) generation's cron and heartbeat tasks: the same adapter, with files only.

A legacy store has no database, so every task is its file, which Daycare reads; the row fields
(``editable``) are empty and a task is edited as text.
"""

from __future__ import annotations

from daycare_gui.stores.daycare.sqlite.tasks import DaycareTasks


class LegacyTasks(DaycareTasks):
    """Daycare's legacy folders: ``cron/<id>/TASK.md`` and ``heartbeat/*.md``, no rows."""

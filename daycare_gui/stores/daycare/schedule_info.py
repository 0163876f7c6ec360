"""A cron schedule summarised for display, as Daycare runs it (the code is kind-neutral and lives in
:mod:`daycare_gui.stores.common.schedule`; this name stays so older imports keep working, and names Daycare
as the task's runner)."""

from __future__ import annotations

import datetime as _dt

from daycare_gui.stores.common.schedule import ScheduleInfo
from daycare_gui.stores.common.schedule import schedule_info as _schedule_info

__all__ = ["ScheduleInfo", "schedule_info"]


def schedule_info(expr: str | None, n: int = 5, now: _dt.datetime | None = None, *,
                  enabled: bool = True) -> ScheduleInfo:
    """See :func:`daycare_gui.stores.common.schedule.schedule_info`; the notes say Daycare runs the task."""
    return _schedule_info(expr, n, now, enabled=enabled, runner="Daycare")

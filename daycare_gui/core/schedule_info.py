"""A cron schedule summarised for display: valid or not, in words, and the next run times.

The rules (what Daycare accepts) live in :mod:`daycare_gui.core.edit.schedule`; this only bundles them.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from daycare_gui.core.edit.schedule import describe_schedule, next_runs, validate_schedule


@dataclass(frozen=True)
class ScheduleInfo:
    expr: str
    error: str | None  # why Daycare cannot run it; None when valid
    words: str  # "At 07:00 AM"; empty when invalid
    next_runs: tuple[_dt.datetime, ...]

    @property
    def valid(self) -> bool:
        return self.error is None

    def summary(self) -> str:
        """One line: the words, or the error."""
        return self.words if self.valid else f"invalid: {self.error}"


def schedule_info(expr: str | None, n: int = 5, now: _dt.datetime | None = None) -> ScheduleInfo:
    text = (expr or "").strip()
    error = validate_schedule(text)
    if error:
        return ScheduleInfo(text, error, "", ())
    return ScheduleInfo(text, None, describe_schedule(text), tuple(next_runs(text, n, now)))

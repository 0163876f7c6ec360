"""A cron schedule summarised for display: valid or not, in words, and the next run times (none when the
task is disabled: its engine skips it, so listing times it "would" run misleads).

The rules (what the engine accepts) live in :mod:`daycare_gui.stores.common.edit.schedule`; this only bundles them.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from daycare_gui.stores.common.edit.schedule import describe_schedule, next_runs, validate_schedule


@dataclass(frozen=True)
class ScheduleInfo:
    expr: str
    error: str | None  # why the engine cannot run it; None when valid
    words: str  # "At 07:00 AM"; empty when invalid
    next_runs: tuple[_dt.datetime, ...]  # empty when invalid or disabled: the engine will not run it
    enabled: bool = True
    runner: str = "its engine"  # who runs the task, as the notes name it ("Daycare")

    @property
    def valid(self) -> bool:
        return self.error is None

    def summary(self) -> str:
        """One line: the words, or the error; a disabled task says so first."""
        text = self.words if self.valid else f"invalid: {self.error}"
        return text if self.enabled else f"disabled ({text})"

    def runs_note(self) -> str:
        """Why there are no next runs, or "" when there are."""
        if not self.enabled:
            return f"none: the task is disabled, so {self.runner} does not run it"
        if not self.valid:
            return f"none: {self.runner} cannot run this schedule"
        return ""


def schedule_info(expr: str | None, n: int = 5, now: _dt.datetime | None = None, *,
                  enabled: bool = True, runner: str = "its engine") -> ScheduleInfo:
    """``enabled=False`` (the task's ``enabled`` flag) keeps the words but lists no next runs; ``runner``
    names who runs the task in the notes."""
    text = (expr or "").strip()
    error = validate_schedule(text)
    if error:
        return ScheduleInfo(text, error, "", (), enabled, runner)
    runs = tuple(next_runs(text, n, now)) if enabled else ()
    return ScheduleInfo(text, None, describe_schedule(text), runs, enabled, runner)

"""Cron schedules: valid or not, in words, next runs (croniter and cron-descriptor)."""

from daycare_gui.core.schedule_info import ScheduleInfo, schedule_info

__all__ = ["ScheduleInfo", "schedule_info"]

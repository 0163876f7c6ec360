"""Reading a SQLite store beside a hot rollback journal: the same copy Daycare's reader makes (one copy of
the code, in the core)."""

from daycare_gui.core.sqlite_copy import check_regular, copy_for_reading, journal_present, wal_has_data

__all__ = ["check_regular", "copy_for_reading", "journal_present", "wal_has_data"]

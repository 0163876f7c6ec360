"""Cell formatting shared by the tables."""

import datetime

import pytest

from daycare_gui.ui.models.columns import fmt_time


@pytest.mark.parametrize("ms", [0, 1_739_999_000_000, 1_739_999_000_999, -1000, 1.5e12, 253_402_300_799_999,
                                253_402_300_800_000, 10**18, -(10**18)])
def test_fmt_time_is_the_local_time_a_datetime_would_print(ms):
    try:
        expected = datetime.datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        expected = str(ms)
    assert fmt_time(ms) == expected


def test_fmt_time_of_nothing_or_not_a_number():
    assert fmt_time(None) == "" and fmt_time("soon") == "soon"


def test_a_kinds_column_and_list_are_named_in_words():
    from daycare_gui.ui.models.columns import heading, list_title

    assert [heading(c) for c in ("updated_at", "valid from", "id", "Score (lower = better)", "Id")] == [
        "Updated at", "Valid from", "ID", "Score (lower = better)", "Id"]
    assert list_title("Tasks cron", "Versions") == "Versions: Tasks cron"
    assert list_title("Memory by namespace", "Memory") == "Memory by namespace"  # (not "Memory: Memory by…")
    assert list_title("Agent identities", "Agents") == "Agent identities"
    assert list_title("Runs", "Activity") == "Activity: Runs" and list_title("Runs") == "Runs"

"""core.display: the one place counts, numbers, times and people's names are worded (issue 18 #16)."""

from __future__ import annotations

import pytest

from daycare_gui.stores.common.wording import (
    compact_number,
    count,
    labelled,
    nice_ticks,
    person_label,
    plural_of,
    singular_of,
    time_value,
)


@pytest.mark.parametrize("noun, plural", [
    ("task", "tasks"), ("cron task", "cron tasks"), ("entity", "entities"), ("process", "processes"),
    ("match", "matches"), ("key", "keys"), ("delayed signal", "delayed signals"), ("person", "people"),
])
def test_plurals_and_back(noun, plural):
    assert plural_of(noun) == plural
    assert singular_of(plural) == noun


def test_counts_agree_with_their_number():
    assert count(1, "cron task") == "1 cron task"
    assert count(3, "entity") == "3 entities"
    assert count(0, "agent") == "0 agents"
    assert count(1_204, "record") == "1,204 records"
    assert "(s)" not in count(2, "problem") and "(ies)" not in count(2, "entity")


@pytest.mark.parametrize("n, text", [
    (0, "0"), (950, "950"), (1_000, "1k"), (1_250, "1.2k"), (20_000_000, "20M"), (150_000, "150k"),
    (2_500_000_000, "2.5B"),
])
def test_compact_numbers(n, text):
    assert compact_number(n) == text


def test_nice_ticks_are_round_and_cover_the_maximum():
    assert nice_ticks(20_000_000) == [0, 5_000_000, 10_000_000, 15_000_000, 20_000_000]
    assert nice_ticks(23) == [0, 5, 10, 15, 20, 25]
    assert nice_ticks(3) == [0, 1, 2, 3]  # counts never get fractional ticks
    assert nice_ticks(0) == [0.0, 1.0]


def test_a_person_is_their_name_else_nametag_else_id_never_id_twice():
    assert person_label("Alex Rivera", "calm-heron-417", "u1") == "Alex Rivera"
    assert person_label(None, "calm-heron-417", "u1") == "@calm-heron-417"
    assert person_label("  ", None, "u1") == "u1"
    assert labelled("Alex Rivera", "u1") == "Alex Rivera (u1)"
    assert labelled("u1", "u1") == "u1" and labelled(None, "u1") == "u1"


def test_times_are_told_by_name_and_range():
    assert time_value("created_at", 1_769_616_026_101)
    assert time_value("at", 1_769_616_026_101)  # session_history.at
    assert not time_value("at", 42)  # not epoch milliseconds
    assert not time_value("pid", 1_769_616_026_101)  # not a time column

"""core.display: the one place counts, numbers, times and people's names are worded (issue 18 #16)."""

from __future__ import annotations

import pytest

from daycare_gui.stores.common.wording import (
    byte_size,
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


def test_a_size_reads_the_same_everywhere():
    assert [byte_size(n) for n in (0, 812, 1536, 15_000, 3 * 1024**3, None)] == [
        "0 bytes", "812 bytes", "1.5 KB", "14.6 KB", "3.0 GB", ""]
    assert byte_size(2000 * 1024**3) == "2,000.0 GB"  # (no larger unit: a store is not that big)


def test_no_module_words_a_size_of_its_own():
    """Sizes were worded by six functions ("812 B" on the storage page, "812 bytes" in a leftover's message,
    "15 KB" in Linggen's data files): one now, in the wording module."""
    import re
    from pathlib import Path

    import daycare_gui

    root = Path(daycare_gui.__file__).parent
    units = re.compile(r"[\"'](?:KB|MB|GB)[\"']")
    own = [str(p.relative_to(root)) for p in root.rglob("*.py")
           if p.name != "wording.py" and units.search(p.read_text(encoding="utf-8"))]
    assert own == []


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

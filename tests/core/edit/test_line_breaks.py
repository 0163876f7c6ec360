"""EditorText: what an editor shows, and each line's own break put back after an edit."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from daycare_gui.stores.common.edit.line_breaks import EditorText, restore_line_breaks

MIXED = "a\r\nb\nc\rd\u2028e\u2029f"


def test_every_break_is_shown_as_a_line_feed_and_unchanged_text_comes_back_exactly():
    text = EditorText(MIXED)
    assert text.shown == "a\nb\nc\nd\ne\nf"
    assert text.restore(text.shown) == MIXED


def test_lines_edited_in_place_keep_their_breaks():
    assert restore_line_breaks(MIXED, "A\nb\nC\nd\nE\nf") == "A\r\nb\nC\rd\u2028E\u2029f"


def test_inserted_and_removed_lines_leave_the_others_breaks_alone():
    original = "one\r\ntwo\nthree\r\nfour\r\n"
    assert restore_line_breaks(original, "one\nnew\ntwo\nthree\nfour\n") == "one\r\nnew\r\ntwo\nthree\r\nfour\r\n"
    assert restore_line_breaks(original, "one\nthree\nfour\n") == "one\r\nthree\r\nfour\r\n"


def test_new_lines_take_the_most_common_break_or_the_default():
    assert restore_line_breaks("x\r\ny\r\nz\n", "x\ny\nz\nw") == "x\r\ny\r\nz\nw"
    assert restore_line_breaks("one line", "one line\nmore", "\r\n") == "one line\r\nmore"
    assert restore_line_breaks("a\u2028b", "a\nb\nc") == "a\u2028b\nc"  # never a separator for a new line


def test_a_break_other_than_a_line_feed_in_the_edited_text_is_kept_as_written():
    assert restore_line_breaks("a\nb\n", "a\r\nb\u2028c\n") == "a\r\nb\u2028c\n"


@given(st.lists(st.tuples(st.text(alphabet="xyz \t", max_size=4), st.sampled_from(["\n", "\r\n", "\r", "\u2028"])),
                max_size=8), st.text(alphabet="xyz", max_size=3))
def test_round_trip_and_unchanged_lines_keep_their_breaks(lines, last):
    original = "".join(line + end for line, end in lines) + last
    text = EditorText(original)
    assert text.restore(text.shown) == original
    if lines:  # change the last line only: every break stays
        edited = text.shown.rsplit("\n", 1)[0] + "\nchanged"
        assert text.restore(edited) == "".join(line + end for line, end in lines) + "changed"

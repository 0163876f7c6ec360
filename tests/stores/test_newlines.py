"""newline_of: text a splicing save inserts takes the file's own line ending."""

from __future__ import annotations

import pytest

from daycare_gui.stores.common.newlines import newline_of


@pytest.mark.parametrize("text, newline", [
    ('{\r\n  "a": 1\r\n}', "\r\n"),
    ('{\n  "a": 1\n}', "\n"),
    ('{\r  "a": 1\r}', "\r"),
    ('{"a": 1}', "\n"),  # one line: nothing to follow, the default
    ('{\r\n  "a": 1\n}', "\r\n"),  # mixed: the first break wins
    ('{\n  "a": 1\r\n}', "\n"),
])
def test_the_first_line_break_decides(text, newline):
    assert newline_of(text) == newline


def test_a_single_line_takes_the_default_given():
    assert newline_of("x", default="\r\n") == "\r\n"

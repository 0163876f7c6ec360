"""Reading how a JSON text's brackets nest before parsing it: what AgentStack's values are refused for
(nested too deep) and what tells a Linggen file cut off mid-write from one merely wrong."""

from __future__ import annotations

from daycare_gui.stores.common.json_brackets import scan


def test_brackets_inside_strings_and_escapes_do_not_count():
    assert scan('{"a": [1, {"b": "[[[{{{"}]}') == (0, 3, False)
    assert scan(r'{"quote \" [ inside": "and a \\"}') == (0, 1, False)  # an escaped quote, then an escaped backslash


def test_a_text_cut_off_mid_write_is_told_apart():
    assert scan('{"messages": [{"text": "hel') == (3, 3, True)  # inside a string, three brackets open
    assert scan('{"messages": [{"text": "hello"}') == (2, 3, False)
    assert scan('{"a": 1}}') == (-1, 1, False)  # one bracket too many closed: wrong, but not cut off


def test_deep_nesting_is_measured_without_parsing():
    deep = "[" * 5000 + "]" * 5000  # deeper than the JSON parser's recursion allows
    assert scan(deep).deepest == 5000

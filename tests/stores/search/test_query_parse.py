"""User text becomes a safe FTS5 expression: quoted terms, never raw syntax."""

import pytest

from daycare_gui.stores.common.fts import match_expression, parse_terms


def test_words_phrases_prefixes():
    assert match_expression("lisbon") == '"lisbon"'
    assert match_expression('"half marathon" lis*') == '"half marathon" AND "lis"*'
    assert match_expression("a OR b") == '("a" OR "b")'
    assert match_expression("lisbon -tiles") == '("lisbon") NOT "tiles"'


@pytest.mark.parametrize("text", ["", "   ", "*", "AND OR", "OR", "NOT", "-x", '""', "**", "--", "()", "((("])
def test_nothing_to_search(text):
    assert match_expression(text) is None


@pytest.mark.parametrize("text", ['"unterminated', 'say "hi', 'NEAR(a b)', "a:b", "col : x", "^start", "x AND",
                                  'he said ""quoted""', "a + b", "{body}: x"])
def test_syntax_is_quoted(text):
    expr = match_expression(text)
    assert expr is not None
    # every term is a double-quoted string: no bare FTS5 operator can leak through
    for item in parse_terms(text):
        if item != "OR":
            assert item.fts().startswith('"')


def test_quotes_inside_words_are_dropped():
    assert match_expression('ab"cd') == '"abcd"'


@pytest.mark.parametrize("text", ["0\x00", "lis\x00bon", "\x00", "a\x1b[31m", "tab\there"])
def test_control_characters_never_reach_fts5(text):
    """A NUL pasted into the search box once raised "unterminated string" from SQLite (CI found it)."""
    import sqlite3

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    conn.execute("INSERT INTO t VALUES ('lis bon 0 a tab here')")
    expr = match_expression(text)
    if expr is not None:
        assert "\x00" not in expr
        conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (expr,)).fetchone()

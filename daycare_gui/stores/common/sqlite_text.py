"""Text a SQLite store holds that is not UTF-8.

SQLite stores whatever bytes a program hands it as TEXT; Python's sqlite3 decodes every TEXT value as
UTF-8 and fails the whole statement at the first value that is not ("Could not decode to UTF-8 column …
with text '…'"). One such payload — written by another tool, or cut mid-character — then made a whole
session unreadable, a search fail, and the error quote that value's text, a secret in it too.

A statement that fails so is run once more with those values decoded with U+FFFD where their bytes break
(the reader sees where), and nothing else is changed: the usual statement pays nothing. A value read so is
never written back (an edit refuses such a row, see ``edit.rows``), so the store's bytes stay as they are.
"""

from __future__ import annotations

import re
import sqlite3

_NOT_UTF8 = "Could not decode to UTF-8"
# sqlite3's message ends by quoting the value it could not decode: "… column 'data' with text '…'"
_QUOTED_TEXT = re.compile(r"\s+with text '.*\Z", re.S)


def not_utf8(exc: BaseException) -> bool:
    """Whether ``exc`` is sqlite3 failing to decode a TEXT value as UTF-8."""
    return isinstance(exc, sqlite3.OperationalError) and str(exc).startswith(_NOT_UTF8)


def replacing(data: bytes) -> str:
    """A text factory: UTF-8, with U+FFFD where the bytes are not."""
    return data.decode("utf-8", "replace")


def fetch_all(conn: sqlite3.Connection, sql: str, params=()) -> list:
    """Every row of ``sql`` on ``conn``; a value that is not UTF-8 is read with U+FFFD where it breaks
    (the statement is run again, so only a store that holds one pays). ``conn`` must be this thread's alone
    for the call: its text factory is changed for the second run and then restored."""
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError as exc:
        if not not_utf8(exc):
            raise
    return run_replacing(conn, lambda: conn.execute(sql, params).fetchall())


def run_replacing(conn: sqlite3.Connection, run):
    """``run()`` (which reads through ``conn``) with values that are not UTF-8 read with U+FFFD; see
    :func:`fetch_all`."""
    previous = conn.text_factory
    conn.text_factory = replacing
    try:
        return run()
    finally:
        conn.text_factory = previous


def without_quoted_text(message: str) -> str:
    """sqlite3's message with the value it quotes left out: a payload's text (a secret in it too) must not
    reach an error on screen or in a log. "Could not decode to UTF-8 column 'data' with text 'token=…'"
    becomes "Could not decode to UTF-8 column 'data' (text that is not UTF-8)"."""
    if _NOT_UTF8 not in message:
        return message
    return _QUOTED_TEXT.sub(" (text that is not UTF-8)", message)

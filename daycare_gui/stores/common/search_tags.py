"""The filter tags of the shared search index: what a message is tagged with, and the short token each tag
is written as in the index's ``tags`` column.

A message is tagged with its role, its thread and each facet value its source gives it
(``SearchSource.tags``); a filter on them is an FTS term on ``tags``, so filters intersect posting lists. A tag's
*key* names it whatever the text it comes from ("ro" + the role, "th"/"fa" + a hash of a thread id or a facet
value). The index writes each key as a token of its own numbering (``t`` + a number, kept in its ``tag_ids``
table): three or four characters instead of eighteen, a third of all the text the tokenizer read per message
when the keys themselves were indexed. A row keeps one token per tag, as before, so BM25 (which counts every
column's tokens in a row's length) ranks exactly as it did.

The numbers are the index file's own: a search maps the keys it filters on through the same table, and a key
the index never saw becomes :data:`NO_TAG`, which no row holds.
"""

from __future__ import annotations

import hashlib
import sqlite3
from functools import lru_cache

NO_TAG = "t0"  # (numbers start at 1: no row is tagged with this)
TAG_IDS_SCHEMA = "CREATE TABLE IF NOT EXISTS tag_ids (id INTEGER PRIMARY KEY, tag TEXT NOT NULL UNIQUE);"


@lru_cache(maxsize=256)  # called once per message; a store has few roles and threads
def role_tag(role: str) -> str:
    return "ro" + ("".join(ch for ch in role if ch.isalnum()).lower() or "none")


@lru_cache(maxsize=4096)
def thread_tag(thread_id: str) -> str:
    # a hash: thread ids are any text (paths, ids with dashes) and must become one token
    return "th" + hashlib.sha1(thread_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@lru_cache(maxsize=4096)
def facet_tag(name: str, value: str) -> str:
    # a hash, as for threads: a facet's value is any text and must become one token
    return "fa" + hashlib.sha1(f"{name}\0{value}".encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _token(number: int) -> str:
    # (digits last: no Porter rule strips a suffix of digits, so a token is indexed and queried as written)
    return f"t{number}"


class TagIds:
    """The numbering of one index's tags, for one build: numbers given meanwhile are written by
    :meth:`save` (inside the build's transaction); after a rollback :meth:`forget` reads the table again."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.forget()

    def forget(self) -> None:
        self.known: dict[str, str] = {tag: _token(n) for n, tag in self.conn.execute("SELECT id, tag FROM tag_ids")}
        self.next = 1 + (self.conn.execute("SELECT max(id) FROM tag_ids").fetchone()[0] or 0)
        self.new: list[tuple[int, str]] = []

    def token(self, tag: str) -> str:
        token = self.known.get(tag)
        if token is None:
            token = self.known[tag] = _token(self.next)
            self.new.append((self.next, tag))
            self.next += 1
        return token

    def tokens(self, tags) -> str:
        return " ".join(self.token(tag) for tag in tags)

    def save(self) -> None:
        if self.new:
            self.conn.executemany("INSERT INTO tag_ids(id, tag) VALUES (?, ?)", self.new)
            self.new = []


def tag_tokens(conn: sqlite3.Connection, tags: list[str]) -> list[str]:
    """The tokens ``tags`` are indexed as in the index on ``conn`` (:data:`NO_TAG` for a tag it never saw),
    for a search's filter; in the order given, without repeats."""
    if not tags:
        return []
    found: dict[str, str] = {}
    unique = list(dict.fromkeys(tags))
    for start in range(0, len(unique), 500):  # (few: a filter's roles, or up to a few hundred threads)
        part = unique[start:start + 500]
        marks = ",".join("?" * len(part))
        found.update((tag, _token(n)) for n, tag in conn.execute(
            f"SELECT id, tag FROM tag_ids WHERE tag IN ({marks})", part))
    return list(dict.fromkeys(found.get(tag, NO_TAG) for tag in unique))

"""Is ``memory_fts`` in step with ``memory``? What a search can tell cheaply, every time it runs.

``memory_fts`` is an external-content index: it keeps only tokens and reads the text from ``memory`` by
rowid. When the two drift apart (VACUUM renumbering memory's implicit rowids, rows changed by a tool
without the triggers) a MATCH still answers from the index: its hits then name rows that no longer hold
the words, or rowids no row has, and rows never indexed are missed. FTS5's integrity check finds all of
it but reads the whole index and needs a private copy (``search.integrity_check``), too much for every
search. A search instead

* re-checks its own hits: their current text goes into a private in-memory FTS5 table with the same
  columns and tokenizer, and the same query runs on it; a hit it does not find is stale, one whose token
  counts differ from the index's was changed behind it, and every snippet is cut from the current text;
* counts the hits whose rowid no memory row has (the search's own join tells);
* compares the number of indexed documents with the number of memory rows (two counts, one statement);
* remembers a failed integrity check of this session (``store.fts_out_of_step``).

Reads the store only; the in-memory table lives and dies with the search.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from daycare_gui.stores.agentstack.database import DatabaseError
from daycare_gui.stores.common.wording import count

_TOKENIZE = re.compile(r"""\btokenize\s*=\s*('(?:[^']|'')*'|"(?:[^"]|"")*"|\w+)""", re.IGNORECASE)
REPAIR = ("Stop AgentStack, back up the file and rebuild the index (see “Check the memory search index” "
          "under Checks and repairs).")


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _tokenizer(store) -> str | None:
    """memory_fts's ``tokenize`` option as a plain string ('' when it names none), None if unreadable."""
    try:
        sql = store.db.scalar("SELECT sql FROM sqlite_master WHERE name = 'memory_fts'") or ""
    except DatabaseError:
        return None
    found = _TOKENIZE.search(sql)
    if found is None:
        return ""
    value = found.group(1)
    if value[0] in "'\"":
        value = value[1:-1].replace(value[0] * 2, value[0])
    return value


@dataclass
class Recheck:
    """What a search's own hits say about the index, from their current text."""

    stale: set[int]  # hits whose current text does not match the query: left out
    changed: set[int]  # hits that still match, but whose text changed since it was indexed
    snippets: dict[int, str]  # each matching hit's snippet, cut from its current text


def recheck(store, rowids: list[int], match: str, snippet: tuple[str, str, int]) -> Recheck | None:
    """The memory rows ``rowids`` (hits of ``match``) indexed afresh, privately: which no longer match,
    which were changed behind the index (their token counts differ from what it holds: ``*_docsize``), and
    their snippets from the current text (``snippet``: the markers and token count; the stale index would
    cut a changed text at the old words' places). None when that cannot be told here (no such columns in
    memory, a tokenizer this SQLite lacks)."""
    if not rowids:
        return Recheck(set(), set(), {})
    columns = store.columns.get("memory_fts", [])
    tokenizer = _tokenizer(store)
    if not columns or tokenizer is None or not all(store.has("memory", c) for c in columns):
        return None
    cols = ", ".join(_ident(c) for c in columns)
    marks = ", ".join("?" * len(rowids))
    # As bytes, cast back to text below: the index tokenized the stored bytes, not a repaired decoding.
    blobs = ", ".join(f"CAST({_ident(c)} AS BLOB)" for c in columns)
    try:
        texts = store.db.rows(f"SELECT rowid, {blobs} FROM memory WHERE rowid IN ({marks})", tuple(rowids))
        sizes = dict(store.db.rows(f"SELECT id, sz FROM memory_fts_docsize WHERE id IN ({marks})",
                                   tuple(rowids))) if "memory_fts_docsize" in store.shadows else None
    except DatabaseError:
        return None
    conn = sqlite3.connect(":memory:")
    try:
        options = f", tokenize='{tokenizer.replace(chr(39), chr(39) * 2)}'" if tokenizer else ""
        conn.execute(f"CREATE VIRTUAL TABLE hits USING fts5({cols}{options})")
        casts = ", ".join("CAST(? AS TEXT)" for _ in columns)
        conn.executemany(f"INSERT INTO hits (rowid, {cols}) VALUES (?, {casts})", texts)
        opened, closed, tokens = snippet
        snippets = dict(conn.execute(f"SELECT rowid, snippet(hits, -1, ?, ?, '…', {int(tokens)}) FROM hits "
                                     "WHERE hits MATCH ?", (opened, closed, match)))
        now = dict(conn.execute("SELECT id, sz FROM hits_docsize")) if sizes is not None else {}
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    changed = {r for r in snippets if sizes is not None and sizes.get(r) != now.get(r)}
    return Recheck(set(rowids) - set(snippets), changed, snippets)


def count_drift(store) -> tuple[int, int] | None:
    """(documents indexed, memory rows) when they differ; None when they agree or cannot be counted."""
    if "memory_fts_docsize" not in store.shadows:  # (columnsize=0 keeps no per-document sizes)
        return None
    try:
        indexed, rows = store.db.rows("SELECT (SELECT count(*) FROM memory_fts_docsize), "
                                      "(SELECT count(*) FROM memory)")[0]
    except DatabaseError:
        return None
    return (indexed, rows) if indexed != rows else None


def out_of_step_warning(store, *, stale: int, ghosts: int, changed: int = 0) -> str:
    """One line for the search results when the index is known or seen to be out of step; '' when not."""
    signs = []
    if stale:
        what = "an entry that no longer contains" if stale == 1 else "entries that no longer contain"
        signs.append(f"{count(stale, 'hit')} pointed at {what} the words searched")
    if changed:
        what = ("an entry changed since it was indexed" if changed == 1
                else "entries changed since they were indexed")
        signs.append(f"{count(changed, 'hit')} came from {what} (ranked by the old text)")
    if ghosts:
        what = "a memory row that no longer exists" if ghosts == 1 else "memory rows that no longer exist"
        signs.append(f"{count(ghosts, 'hit')} pointed at {what}")
    drift = count_drift(store)
    if drift is not None:
        signs.append(f"it indexes {count(drift[0], 'entry')} for {count(drift[1], 'memory row')}")
    if store.fts_out_of_step:
        signs.append("the last index check failed")
    if not signs:
        return ""
    left_out = " (left out below)" if stale or ghosts else ""
    return ("The memory search index is out of step with the memory table: " + "; ".join(signs) + left_out
            + ". Hits may be missing or wrong until it is rebuilt. " + REPAIR)

"""What every full-text index of daycare-gui shares: the SQLite FTS5 conventions and the query language.

Daycare's own index (``daycare_gui.stores.daycare.sqlite.search``) and the index any store kind feeds through
``SearchSource`` (:mod:`daycare_gui.stores.common.search_index`) both use these, so a query means the
same thing everywhere and both indexes live side by side in the user's cache folder.

The query language: words (all must match, stemmed, accents ignored), ``"exact phrases"``, ``prefix*``,
``OR`` between two terms and ``-word`` to exclude. User text never reaches FTS5 as syntax: every word or
phrase becomes a quoted FTS5 string, so ``"unterminated``, ``AND OR`` or a lone ``*`` cannot raise.
"""

from __future__ import annotations

import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from daycare_gui.stores.common.private_files import make_private_file, make_private_folders
from daycare_gui.stores.common.secrets import mask_marked_snippet

TOKENIZER = "porter unicode61 remove_diacritics 2"
# snippet() wraps matched terms in these (private-use code points never produced by the tokenizer),
# so a UI can escape everything and only then turn them into markup.
MARK_OPEN = "\ue000"
MARK_CLOSE = "\ue001"
SNIPPET_TOKENS = 16
ENV_DIR = "DAYCARE_GUI_SEARCH_DIR"  # moves every index (tests use it to stay out of the real cache)


def _cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("daycare-gui"))


def default_dir() -> Path:
    """Where indexes live: ``$DAYCARE_GUI_SEARCH_DIR``, else ``<user cache>/daycare-gui/search``."""
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    return _cache_dir() / "search"


# An index holds the text of every history it was built from: only its owner may read it. SQLite gives a
# database's -wal, -shm and -journal the mode of the database file itself, so creating that file 0600 before
# SQLite opens it covers them from their first byte.
SIDECARS = ("-wal", "-shm", "-journal")


def private_index_file(path: str | os.PathLike) -> Path:
    """Make ``path`` ready for SQLite to open as an index: its missing folders made 0700, the file made
    0600 if missing, and an existing one (with its sidecars) and the cache's own folders tightened to those
    modes. A folder named with ``$DAYCARE_GUI_SEARCH_DIR`` or ``--index-dir`` that already existed keeps its
    mode (it may be any folder of the user's); the files in it do not."""
    path = Path(path)
    cache = _cache_dir()
    make_private_folders(path.parent, ours=(cache, cache / "search", cache / "search" / "sources"))
    return make_private_file(path, SIDECARS)


def scrub_files(conn: sqlite3.Connection) -> None:
    """After an index's tables were dropped: VACUUM rewrites its file without the free pages (which still
    hold the dropped text) and the checkpoint empties its -wal. Skipped while another connection reads (a
    search in the window): the pages are reused by the rebuild anyway."""
    try:
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.OperationalError:
        pass


def connect(path: str | os.PathLike) -> sqlite3.Connection:
    """An index connection in autocommit; WAL so searches keep reading while a build writes. The file is
    made private first (:func:`private_index_file`)."""
    private_index_file(path)
    # a URI connection, so that a build can ATTACH a store by its read-only URI (SearchSource.sqlite_feed)
    conn = sqlite3.connect(f"file:{quote(str(path))}", uri=True, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


def results_summary(expression: str | None, shown: int, total: int, capped: bool, ranked_within: int | None,
                    where: str) -> str:
    """The one line under a search box, for every index: ``where`` says how the shown hits are grouped
    ("in 3 agents", "in 1 thread")."""
    if expression is None:
        return 'Type a word, a "phrase" or a prefix*.'
    if not shown:
        return "No matches."
    more = "+" if capped else ""
    text = f"{total:,}{more} {'match' if total == 1 and not more else 'matches'}; showing {shown:,} {where}"
    if ranked_within:
        text += f", best among the newest {ranked_within:,}"
    return text


def plain_snippet(snippet: str, open_: str = "[", close: str = "]") -> str:
    """A snippet on one line with its match markers as ``[`` ``]`` (or nothing), secrets masked (masked
    before the marks are put in: see :func:`~daycare_gui.stores.common.secrets.mask_marked_snippet`)."""
    return " ".join(marked_snippet(snippet, open_, close).split())


def marked_snippet(snippet: str, open_: str = MARK_OPEN, close: str = MARK_CLOSE) -> str:
    """A snippet with its secrets masked and its matches between ``open_`` and ``close``."""
    return mask_marked_snippet(snippet, MARK_OPEN, MARK_CLOSE, open_, close)


# -- the query language ------------------------------------------------------------------------------
_TOKEN = re.compile(r'(-?)"([^"]*)("?)|(\S+)')
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class Term:
    text: str
    prefix: bool = False
    phrase: bool = False
    negated: bool = False

    def fts(self) -> str:
        quoted = '"' + self.text.replace('"', '""') + '"'
        return quoted + ("*" if self.prefix else "")


def parse_terms(text: str) -> list[Term | str]:
    """Terms and the operator "OR", in order. Stray operators and empty terms are dropped."""
    out: list[Term | str] = []
    # FTS5 ends a string at a NUL, so one pasted into the box would leave an unterminated quote;
    # control characters are never part of a token anyway, so they separate words like spaces.
    text = _CONTROL.sub(" ", text or "")
    for m in _TOKEN.finditer(text):
        if m.group(4) is None:  # a "phrase" (an unterminated one runs to the end)
            body = m.group(2).strip()
            if has_word(body):
                out.append(Term(body, phrase=True, negated=m.group(1) == "-"))
            continue
        word = m.group(4)
        if word == "OR":
            out.append("OR")
            continue
        if word in ("AND", "NOT"):  # implied / spelled with '-': never FTS syntax
            continue
        negated = word.startswith("-") and len(word) > 1
        word = word[1:] if negated else word
        prefix = word.endswith("*")
        word = word.rstrip("*").replace('"', "")
        if has_word(word):
            out.append(Term(word, prefix=prefix, negated=negated))
    return out


def has_word(s: str) -> bool:
    """True if the tokenizer would find a token in ``s`` (letters, digits or other word characters)."""
    return any(ch.isalnum() for ch in s)


def match_expression(text: str) -> str | None:
    """The FTS5 MATCH expression for a user's query, or None when it has nothing to search for."""
    items = parse_terms(text)
    groups: list[list[Term]] = []  # AND of ORs
    negatives: list[Term] = []
    join_next = False
    for item in items:
        if item == "OR":
            join_next = bool(groups)
            continue
        if item.negated:
            negatives.append(item)
            join_next = False
            continue
        if join_next:
            groups[-1].append(item)
        else:
            groups.append([item])
        join_next = False
    if not groups:
        return None  # a query of only exclusions has nothing to rank or show
    parts = [g[0].fts() if len(g) == 1 else "(" + " OR ".join(t.fts() for t in g) + ")" for g in groups]
    expr = " AND ".join(parts)
    for neg in negatives:
        expr = f"({expr}) NOT {neg.fts()}"
    return expr


def recorded_meta(index_file: Path, key: str) -> str | None:
    """The text an index file records under ``key`` in its ``meta`` table, or None when it records none or
    cannot be read (opened read-only: looking never changes a cache file)."""
    try:
        conn = sqlite3.connect(f"file:{quote(str(index_file))}?mode=ro", uri=True, timeout=0.5)
    except sqlite3.Error:
        return None
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return row[0] if row and isinstance(row[0], str) else None

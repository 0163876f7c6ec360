"""Full-text search through AgentStack's own ``memory_fts`` index, and its FTS5 integrity check.

Search is read-only: a MATCH query ranked by BM25 (best first), with highlighted snippets, joined to
``memory`` by rowid as AgentStack joins it. The query uses FTS5 syntax (``term``, ``"a phrase"``,
``prefix*``, ``a OR b``); text that is not valid syntax is searched as plain words instead. Each search
also looks, cheaply, for signs that the index is out of step with ``memory`` (:mod:`.fts_sync`): hits
that no longer hold the words are left out, and a first row without a key warns about it.

The integrity check needs a connection that may write (FTS5 issues it as an INSERT), so it runs on a
private copy made with SQLite's backup API: the user's file is only read.
"""

from __future__ import annotations

import re
import sqlite3

from daycare_gui.stores.agentstack import fts_sync
from daycare_gui.stores.agentstack import values as v
from daycare_gui.stores.agentstack.database import DatabaseError, uri_of
from daycare_gui.stores.agentstack.memory_entry import ns_label
from daycare_gui.stores.common.leftovers import private_folder
from daycare_gui.stores.common.secrets import mask_marked_snippet
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.records import Link, Row

OPEN, CLOSE = "\x02", "\x03"  # highlight markers no memory text contains, replaced after the query
SNIPPET_TOKENS = 24
# AgentStack's own score, 1 + BM25/25: a better match scores lower, which the header says (best come first)
SEARCH_COLUMNS = ("Key", "Namespace", "Score (lower = better)", "Snippet")


def normalised_score(bm25: float) -> float:
    """AgentStack's 0–1 score: ``1 + bm25 / 25`` clamped, three decimals (bm25 is negative, lower = better)."""
    return round(min(1.0, max(0.0, 1 + bm25 / 25)) * 1000) / 1000


def plain_query(text: str) -> str:
    """Every word quoted, so punctuation and FTS5 operators in the text are searched, not obeyed."""
    words = re.findall(r"\w+", text)
    return " ".join('"' + w.replace('"', '""') + '"' for w in words)


def search_memory(store, query: str, limit: int = 20, *, namespace: str | None = None) -> list[Row]:
    """Memory entries matching ``query``, best first. Rows: key = the entry's id; values = (key, namespace,
    score 0–1, snippet with «highlights»); ``raw`` has the raw BM25; ``markdown`` the snippet in bold;
    a link opens the entry. When search cannot run, one row whose ``problem`` says why; when the index is
    out of step with memory, a first row without a key whose ``flag`` says so, then the hits that hold."""
    query = (query or "").strip()
    if not query:
        return []
    if "memory_fts" not in store.virtual:
        return [_unavailable("this database has no memory_fts index")]
    attempts = [query]
    fallback = plain_query(query)
    if fallback and fallback != query:
        attempts.append(fallback)
    last_error = ""
    for attempt in attempts:
        try:
            return _run(store, attempt, max(1, int(limit)), namespace, original=query)
        except DatabaseError as exc:
            last_error = str(exc)
            if "fts5" in last_error and "syntax" not in last_error and "no such column" not in last_error:
                break  # the module itself is missing: plain words will not help
    return [_unavailable(f"search failed: {last_error}")]


def _run(store, match: str, limit: int, namespace: str | None, *, original: str) -> list[Row]:
    # A LEFT JOIN, so that hits whose rowid no memory row has are seen (and counted) rather than dropped
    # unnoticed; their snippet is not asked for (FTS5 calls a missing content row a malformed database).
    sql = (f"SELECT m.id AS id, m.key AS key, m.namespace AS namespace, m.rowid AS rowid, "
           f"bm25(memory_fts) AS bm25, CASE WHEN m.rowid IS NULL THEN NULL ELSE "
           f"snippet(memory_fts, -1, ?, ?, '…', {SNIPPET_TOKENS}) END AS snippet "
           "FROM memory_fts LEFT JOIN memory m ON m.rowid = memory_fts.rowid WHERE memory_fts MATCH ?")
    params: list = [OPEN, CLOSE, match]
    if namespace is not None:
        sql += " AND m.namespace = ?"
        params.append(namespace)
    sql += " ORDER BY bm25(memory_fts), memory_fts.rowid LIMIT ?"
    params.append(limit)
    found = store.db.dicts(sql, tuple(params))
    hits = [r for r in found if r["rowid"] is not None]
    again = fts_sync.recheck(store, [r["rowid"] for r in hits], match, (OPEN, CLOSE, SNIPPET_TOKENS)) or \
        fts_sync.Recheck(set(), set(), {})
    warning = fts_sync.out_of_step_warning(store, stale=len(again.stale), ghosts=len(found) - len(hits),
                                           changed=len(again.changed))
    rows = [_warning(warning)] if warning else []
    for r in hits:
        if r["rowid"] in again.stale:  # the index says it holds the words; its text says it does not
            continue
        snippet = str(again.snippets.get(r["rowid"], r["snippet"]) or "")
        score = normalised_score(float(r["bm25"]))
        raw = {"id": r["id"], "key": r["key"], "namespace": r["namespace"], "rowid": r["rowid"],
               "bm25": r["bm25"], "score": score, "query": original, "match": match}
        # Masked before the highlights go in: «sk»-proj-… would no longer look like a key to the masker.
        snippet = mask_marked_snippet(snippet, OPEN, CLOSE, OPEN, CLOSE)
        shown = snippet.replace(OPEN, "«").replace(CLOSE, "»")
        markdown = f"**{r['key']}** · `{ns_label(r['namespace'])}` · score {score}\n\n" + \
            _escape(snippet).replace(OPEN, "**").replace(CLOSE, "**")
        rows.append(Row(str(r["id"]), (str(r["key"]), ns_label(r["namespace"]), score, v.short(shown, 300)),
                        raw=raw, markdown=markdown, links=(Link("row", ("memory", str(r["id"])), "entry"),)))
    return rows


def _escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", text)


def _unavailable(why: str) -> Row:
    return Row("", ("", "", None, why), problem=why)


def _warning(text: str) -> Row:
    """Not a hit: a warning about the hits (a row without a key whose flag says it, see the contract)."""
    return Row("", ("", "", None, text), flag=text)


# -- integrity ------------------------------------------------------------------------------------------

REBUILD_SQL = "INSERT INTO memory_fts(memory_fts) VALUES('rebuild');"

FAILED_MEANS = (
    "The search index memory_fts no longer matches the memory table. AgentStack's search then misses "
    "entries, returns the wrong ones or shows snippets of other text. The usual cause: memory's rowids "
    "were renumbered (VACUUM, which AgentStack's vacuum() runs, may do that because memory has a TEXT "
    "primary key) or rows were changed by a tool without FTS5 or with the triggers dropped. The memory "
    "rows themselves are intact. Fix: stop AgentStack, back up the file, then run "
    f"`{REBUILD_SQL}` (for example in the sqlite3 shell): the rebuild reads every memory row again and "
    "rewrites only the index. daycare-gui never writes memory_fts itself."
)


def integrity_check(store) -> tuple[bool | None, str]:
    """(passed, what it means). None when the check could not run. Reads the store; writes only a temporary
    copy, deleted after."""
    if "memory_fts" not in store.virtual:
        return None, "This database has no memory_fts index to check."
    private = private_folder("daycare-gui-fts-check-")
    try:
        copy = private.path / "check.db"
        try:
            source = store.db.open_reader()
            try:
                target = sqlite3.connect(copy)
                try:
                    source.backup(target)
                finally:
                    target.close()
            finally:
                source.close()
        except sqlite3.Error as exc:
            return None, f"Could not copy the database for the check: {exc}"
        conn = sqlite3.connect(uri_of(copy, mode="rw"), uri=True, isolation_level=None)
        try:
            conn.execute("INSERT INTO memory_fts(memory_fts, rank) VALUES('integrity-check', 1)")
        except sqlite3.Error as exc:
            message = str(exc)
            if "no such module" in message:
                return None, f"This SQLite has no FTS5 ({message}); the index cannot be checked here."
            return False, f"The FTS5 integrity check failed ({message}). {FAILED_MEANS}"
        finally:
            conn.close()
        indexed = store.db.scalar("SELECT count(*) FROM memory_fts_docsize") if "memory_fts_docsize" in \
            store.shadows else None
        rows = store.db.scalar("SELECT count(*) FROM memory")
        counted = (f" ({count(indexed, 'document')} indexed for {count(rows, 'memory row')})"
                   if indexed is not None else "")
        return True, f"The FTS5 integrity check passed: memory_fts matches the memory table{counted}."
    finally:
        private.remove()

"""What the shared search index reads besides messages: documents, and a SQLite store's feed."""

from __future__ import annotations

from daycare_gui.stores.deferred_dataclass import deferred


@deferred
class SearchDocument:
    """A document the shared search index holds beside the messages: ``key`` opens it where the store's
    quick open (``Directory``, kind "doc") or its Documents section lists it; ``where`` says where it lives
    in words ("config skill · skills/deploy/SKILL.md"); ``text`` is what is searched (secrets are masked by
    the index, and a settings file gives its keys, never its values)."""

    key: str
    title: str
    group: str  # "Skills", "Memory", "Agents' prompt files", "Settings", ...
    where: str
    text: str
    at: int | None = None  # when it last changed (ms), where known


@deferred
class SqliteFeed:
    """How a store kept in SQLite hands its messages to the search index inside SQLite (no row is decoded in
    Python): the index attaches ``uri`` (read-only: writing through it fails) as ``feed`` and runs
    ``rows_sql`` with ``:after`` and ``:last`` (integer cursors) for each batch. ``rows_sql`` selects, in cursor
    order, ``cursor, thread_id, session_id, message_id, role, kind, at, body`` from ``feed.`` tables;
    ``next_sql`` gives the cursor of the ``:n``-th message after ``:after`` (the end of a batch), or the
    last one. ``guarded_sql``, when given, is ``rows_sql`` made safe for a malformed row (slower: tried for
    a batch the fast one failed on)."""

    uri: str
    rows_sql: str
    next_sql: str
    guarded_sql: str = ""

"""Finding things in a store: the messages and documents that feed the shared full-text index
(:class:`SearchSource`), and every item worth jumping to, for quick open and deep links (:class:`Directory`)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator
from pathlib import Path

from daycare_gui.stores.api.kinds import Capability
from daycare_gui.stores.records import FilterSpec, JumpEntry, Message, SearchDocument, SessionRef, SqliteFeed


class SearchSource(Capability):
    """Feeds the shared full-text index, incrementally.

    ``identity`` names the store for the index (path or URL, no secrets); ``messages(after)`` yields
    ``(cursor, ref, message)`` in cursor order from just after ``after`` (None: from the start). The index
    remembers the last cursor and asks again from there next time.
    """

    @abstractmethod
    def identity(self) -> str: ...

    def former_identities(self) -> tuple[str, ...]:
        """The identities this store had in earlier versions of the kind (a kind changes its identity to
        have its index built afresh): their index files are this store's old ones and are removed."""
        return ()

    @abstractmethod
    def messages(self, after: str | None) -> Iterator[tuple[str, SessionRef, Message]]: ...

    def index_rows(self, after: str | None) -> Iterator[tuple] | None:
        """Optional, :meth:`messages` made lean for the index: tuples ``(cursor, thread_id, session_id,
        message_id, role, kind, at, text, tool_calls, tool_result, attachments)`` that say of each message
        exactly what its :class:`Message` says in those fields (no other field is made). Its :meth:`tags`
        are asked once per role, thread and kind (they may depend on those only). None: ``messages``."""
        return None

    # -- optional: what the shared search offers beyond words, roles, a thread and a time range ----------
    def facets(self) -> tuple[FilterSpec, ...]:
        """The store's own filters (``kind`` "choice"): Daycare's agent kind, lifecycle, user and record
        type. A facet is answered either by :meth:`tags` (a fact of the message that never changes: its
        record type) or by :meth:`facet_threads` (a fact of its thread, asked when searching because it may
        change: an agent's lifecycle). Called on a worker: it may query the store."""
        return ()

    def tags(self, ref: SessionRef, message: Message) -> tuple[tuple[str, str], ...]:
        """``(facet name, value)`` pairs indexed with ``message`` (a word each in the index's tags column,
        so a filter intersects posting lists). Changing what this answers needs a new index version."""
        return ()

    def facet_threads(self, name: str, value: str) -> frozenset[str] | None:
        """The threads whose facet ``name`` is ``value`` now (a set, maybe empty), or None when the facet
        is a message tag (:meth:`tags`)."""
        return None

    def fingerprint(self, cursor: str) -> str | None:
        """A cheap digest of the history up to ``cursor`` (a count and a few sampled rows), stored with the
        index and compared at its next update: a history rewritten in the middle is then indexed afresh,
        which the check of the last message alone cannot see. None: the kind cannot tell."""
        return None

    def location(self) -> str | None:
        """The file or folder this store lives in: its index records it and is removed from the cache once
        it no longer exists (``stores.common.index_prune``). None (a server, or the kind cannot tell): the
        index goes only after a month untouched."""
        return None

    def former_index_files(self, cache_dir: Path) -> tuple[Path, ...]:
        """Index files an earlier search of this store left in ``cache_dir`` under another layout (Daycare's
        own index before it fed the shared one); removed at the next build, with their -wal and -shm."""
        return ()

    def sqlite_feed(self) -> SqliteFeed | None:
        """Optional, for a store kept in SQLite: its messages copied into the index inside SQLite, as fast as
        a plain FTS5 build (the cursors are the integers the feed names; ``messages`` stays the reference,
        and must give the same messages, cursors and text; :meth:`tags` is then asked with the role, the
        thread and the kind only, once for each). None: ``messages`` feeds the index."""
        return None

    def documents(self) -> Iterator[SearchDocument]:
        """What people look for beside the conversations: skills, prompt files, memory, notes, settings
        (their keys, never their values), each with where it lives. Read whole at each index update (they
        are few and small, and change in place where no cursor can follow them); the index masks secrets.
        The default indexes nothing here: the index adds the store's ``Documents`` itself."""
        return iter(())


class Directory(Capability):
    """Optional: every item worth jumping to (agents, sessions, users, tasks, documents, apps, tables) as
    keys and short labels, in one cheap pass (a few narrow queries, never record bodies).

    The quick-open palette and deep links use it. A kind without it is listed through its other
    capabilities (threads and their sessions, tasks, documents, tables, small collections), which costs one
    ``sessions()`` call per thread: offer this when that is slow on a big store.
    """

    @abstractmethod
    def entries(self) -> Iterator[JumpEntry]: ...

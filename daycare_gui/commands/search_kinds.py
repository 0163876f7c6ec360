"""``daycare-gui search`` for every store kind and every Daycare generation alike: the store is opened
through the registry and searched through its ``SearchSource`` (the shared index in the user's cache
folder, built or updated first), or, for a store without one, through its lists' own indexes
(:mod:`daycare_gui.commands.search_lists`). Nothing here asks which kind it has: a store's own filters
are the facets its source declares (:data:`FACET_OPTIONS`).
"""

from __future__ import annotations

import signal
import sqlite3
import sys
import threading

from daycare_gui.commands.search_args import (
    FACET_OPTIONS,
    LIST_FILTERS,
    SHARED_FILTERS,
    choices_of,
    query_of,
    refuse_filters,
)
from daycare_gui.commands.search_output import LABEL_FACETS, Shown, print_results, thread_labels
from daycare_gui.stores.common.secrets import mask_url


class _CtrlC:
    """While the index is built, Ctrl+C is noted in a flag as well as raised. Raised inside one of SQLite's
    calls into Python (a user-defined function) a KeyboardInterrupt comes out as sqlite3.OperationalError
    ("user-defined function raised exception"), which would read as an unreadable store: the flag tells
    an interrupt from a damaged database whatever the exception's type."""

    def __init__(self) -> None:
        self.pressed = False
        self._before = None

    def _handler(self, signum, frame) -> None:
        self.pressed = True
        raise KeyboardInterrupt

    def __enter__(self) -> _CtrlC:
        if threading.current_thread() is threading.main_thread():
            before = signal.getsignal(signal.SIGINT)
            if before is not signal.SIG_IGN:  # (ignored, as under nohup: stays ignored)
                self._before = before
                signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *_exc) -> None:
        if self._before is not None:
            signal.signal(signal.SIGINT, self._before)


class IndexBusy(Exception):
    """Another process is writing the search index (a window's first build holds it for the whole build)."""

    SAID = ("daycare-gui: the search index is being written by another daycare-gui (a window indexing this "
            "store, say); search again once it is done")


def _busy_or_raise(exc: sqlite3.OperationalError, index_path) -> None:
    """Raise IndexBusy for ``exc`` when it is the index that another connection is writing now; else
    nothing (the caller re-raises: "locked" may as well be the store, read through the same connection)."""
    if "locked" not in str(exc):
        return
    try:
        conn = sqlite3.connect(f"file:{index_path}?mode=rw", uri=True, timeout=0, isolation_level=None)
    except sqlite3.Error:
        return
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
    except sqlite3.OperationalError as again:
        if "locked" in str(again) or "busy" in str(again):
            raise IndexBusy(str(exc)) from None
    finally:
        conn.close()


def build_index(build):
    """``build()`` (an index update) as both search commands run it: Ctrl+C keeps what was indexed and
    gives None (exit 130); the progress line is ended; a rebuild's reason is said."""
    try:
        with _CtrlC() as ctrl_c:
            try:
                built = build()
            except Exception:
                if not ctrl_c.pressed:
                    raise
                built = None  # what Ctrl+C became on its way out of SQLite
    except KeyboardInterrupt:
        built = None
    if built is None:
        print("\ndaycare-gui: indexing interrupted; what was indexed is kept", file=sys.stderr)
        return None
    if sys.stderr.isatty() and built.added:
        sys.stderr.write("\n")
    if built.reason:
        print(f"rebuilt the index: {built.reason}", file=sys.stderr)
    return built


def _progress_line(done: int, _total: int) -> None:
    if sys.stderr.isatty() and done:
        sys.stderr.write(f"\rindexing… {done:,} messages")
        sys.stderr.flush()


def run(args) -> int:
    from daycare_gui.commands.repeat import KeptSearch
    from daycare_gui.stores import registry
    from daycare_gui.stores.api import CannotOpen, NotRecognised
    from daycare_gui.stores.common.opening import StderrProgress, reporting
    from daycare_gui.stores.common.sqlite_ro import DatabaseError

    kind = getattr(args, "kind", None)
    if kind:
        try:
            registry.load_kind(kind)
        except registry.UnknownKind as exc:
            print(f"daycare-gui: {exc}{_facet_hint(args.path, kind)}", file=sys.stderr)
            return 2
    # a store its kind reads dearly (a PGlite copy), asked again unchanged: from what the last search kept
    kept = KeptSearch.find(args.path, kind)
    answered = kept.answer(args, print_results) if kept is not None else None
    if answered is not None:
        return answered
    stages = StderrProgress()  # a slow open (a PGlite copy) says what it is doing on stderr
    try:
        with reporting(stages):
            store = registry.open_store(args.path, kind=kind)
        stages.finish()
    except (NotRecognised, CannotOpen) as exc:
        stages.finish()
        print(f"daycare-gui: {mask_url(str(exc))}", file=sys.stderr)
        return 2
    try:
        with store:
            return _search(args, store, kept)
    except IndexBusy:
        print(IndexBusy.SAID, file=sys.stderr)
        return 1
    except (CannotOpen, sqlite3.Error, DatabaseError) as exc:
        # a store damaged past its open (a PGlite table file gone, a damaged database): said, no traceback
        print(f"daycare-gui: cannot read this store: {mask_url(str(exc))}", file=sys.stderr)
        return 1


def _search(args, store, kept) -> int:
    from daycare_gui.commands.repeat import facet_threads
    from daycare_gui.stores import registry
    from daycare_gui.stores.api import Conversations, SearchSource
    from daycare_gui.stores.common.search_build import update_source_index
    from daycare_gui.stores.common.search_docs import store_documents
    from daycare_gui.stores.common.search_index import update_documents
    from daycare_gui.stores.common.search_query import SourceFilter, search_source

    source = store.capability(SearchSource)
    title = registry.load_kind(store.kind).title or store.kind
    if source is None:
        from daycare_gui.commands.search_lists import search_lists, searchable_lists

        lists = searchable_lists(store)
        if not lists:
            print(f"daycare-gui: this {title} store offers nothing to search", file=sys.stderr)
            return 2
        refused = refuse_filters(args, LIST_FILTERS, f"this {title} store")
        if refused is not None:
            return refused
        return search_lists(args, store, lists, query_of(args))
    facets = _facets(source)
    facet_flags = {name: flag for name, (_arg, flag) in FACET_OPTIONS.items() if name in facets}
    refused = refuse_filters(args, SHARED_FILTERS + tuple(facet_flags.values()), f"this {title} store")
    if refused is not None:
        return refused
    choices = choices_of(args, facet_flags)
    _note_unknown_values(choices, facets, facet_flags)
    with open_index(source, args.index_dir) as index:
        try:
            built = build_index(lambda: update_source_index(source, index, progress=_progress_line,
                                                            rebuild=args.rebuild))
        except sqlite3.OperationalError as exc:
            _busy_or_raise(exc, index.path)
            raise
        if built is None:
            return 130
        if built.added:
            print(f"indexed {built.added:,} messages ({built.rows:,} in the index)", file=sys.stderr)
        # skills, prompt files, memory, settings keys: indexed beside the messages, masked
        update_documents(index, store_documents(store, source))
        flt = SourceFilter(roles=tuple(args.roles or ()), since=args.since, until=args.until, choices=choices)
        titles = _titles(store.capability(Conversations))
        results = search_source(index, query_of(args), flt, limit=args.limit, newest_first=args.newest,
                                titles=titles, source=source)
        # every thread facet's threads are kept for the next search; a live one needs only the labels'
        threads = facet_threads(source, facet_flags if kept is not None else
                                {n: f for n, f in facet_flags.items() if n in LABEL_FACETS})
        shown = Shown(store.kind, _places(store.capability(Conversations)), thread_labels(threads), facet_flags)
        index_path = str(index.path)
        if kept is not None:
            kept.remember(source=source, index=index, title=title, titles=titles, shown=shown,
                          threads=threads)
    print_results(args, results, index_path, shown)
    return 0


def open_index(source, index_dir):
    """The source's index; one SQLite cannot read (a damaged file, not a lock) is removed and built anew,
    said in one line: it is a cache of the store, which is where the answers come from."""
    import sqlite3

    from daycare_gui.stores.common.search_index import SourceIndex, index_file

    path = index_file(source.identity(), index_dir)
    index = None
    try:
        index = SourceIndex(path)
        index.meta()
        return index
    except sqlite3.DatabaseError as exc:
        if index is not None:
            index.close()
        if isinstance(exc, sqlite3.OperationalError):
            _busy_or_raise(exc, path)
            raise  # locked, read-only, out of space: not the file's fault
        for part in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))):
            try:
                part.unlink()
            except FileNotFoundError:
                pass
        print(f"daycare-gui: the search index {path} could not be read; building it again", file=sys.stderr)
        return SourceIndex(path)


# The search command's options for a store's facets (SearchSource.facets), as Daycare names them: a store
# offering the facet takes the option (today's Daycare on PGlite or PostgreSQL, as its SQLite generation).
def _facets(source) -> dict:
    """Facet name → its declared values (empty: any value), for the facets ``source`` offers."""
    try:
        return {f.name: tuple(v for v, _label in f.choices) for f in source.facets()}
    except Exception:  # facets are a courtesy: without them the options are refused, as before
        return {}


def _note_unknown_values(choices, facets: dict, facet_flags: dict[str, str]) -> None:
    """A filter value the store declares no such value for (a typo, most often) is said on stderr; the
    search runs anyway (it finds nothing in that facet), as a store may gain the value later."""
    for name, value in choices:
        known = facets.get(name) or ()
        if known and value not in known:
            print(f"daycare-gui: {facet_flags[name]} {value!r} is none of this store's values "
                  f"({', '.join(known)})", file=sys.stderr)


def _facet_hint(path, value: str) -> str:
    """For ``--kind VALUE`` naming no store kind: the option that takes VALUE when it is one of the store's
    facet values (``--kind subagent`` meant ``--agent-kind subagent`` before ``--kind`` named the kind)."""
    from daycare_gui.stores import registry
    from daycare_gui.stores.api import SearchSource

    try:
        candidates = registry.probe(path)
        if not candidates or not candidates[0].recognised:
            return ""
        with registry.open_store(path, kind=candidates[0].kind) as store:
            source = store.capability(SearchSource)
            facets = _facets(source) if source is not None else {}
    except Exception:  # a courtesy on the way to an error message
        return ""
    for name, values in facets.items():
        if value in values and name in FACET_OPTIONS:
            flag = FACET_OPTIONS[name][1]
            return f" (--kind names the store kind; for {name.replace('_', ' ')} {value!r} use {flag} {value})"
    return ""


def _titles(conversations) -> dict[str, str]:
    if conversations is None:
        return {}
    try:
        return {t.id: t.title for t in conversations.threads()}
    except Exception:  # names are a courtesy: ids stand in
        return {}


def _places(conversations) -> dict[str, str]:
    """Thread id → what tells the thread apart after its title (its id unless the kind says otherwise)."""
    try:
        return {t.id: conversations.thread_place(t) for t in conversations.threads()} if conversations else {}
    except Exception:  # a courtesy, as the titles are: ids stand in
        return {}

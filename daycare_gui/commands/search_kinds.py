"""``daycare-gui search`` for every store kind whose store offers ``SearchSource`` (Linggen, today's Daycare
on PGlite or PostgreSQL, …): the shared index in the user's cache folder, built or updated first.

Daycare's SQLite and legacy stores keep their own, richer index (agent kinds, lifecycles, record types) in
:mod:`daycare_gui.commands.search`, which calls :func:`dispatch` first: it answers None for those stores and
runs the search itself for any other.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

from daycare_gui.commands import options
from daycare_gui.stores.common.fts import plain_snippet
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.common.wording import words_of

# Every filter of the search command: (argument name, option). Each way of searching takes some of them;
# the others are refused in one sentence, the same for every kind (refuse_filters).
FILTERS = (("agent_kinds", "--agent-kind"), ("lifecycles", "--lifecycle"), ("user", "--user"),
           ("record_types", "--type"), ("roles", "--role"), ("since", "--since"), ("until", "--until"),
           ("rebuild", "--rebuild"), ("newest", "--newest"))
DAYCARE_FILTERS = ("--agent-kind", "--lifecycle", "--user", "--type", "--newest")  # Daycare's own index
SHARED_FILTERS = ("--role", "--since", "--until", "--rebuild", "--newest")  # the shared index
LIST_FILTERS = ()  # a kind's own full-text index of a list (AgentStack's memory)
VALUE_OPTIONS = ("--store-kind", "--role", "--since", "--until")  # options added here that take a value


def add_arguments(parser) -> None:
    group = parser.add_argument_group("stores searched through the shared index (Linggen, CianaParrot, "
                                      "Daycare on PGlite or PostgreSQL, …)")
    # the name --kind had before it meant the store kind in every command (as in inspect and export)
    group.add_argument("--store-kind", dest="kind", help=argparse.SUPPRESS)
    group.add_argument("--role", action="append", dest="roles", metavar="ROLE",
                       help="only messages of this role (user, assistant, tool, system, …)")
    options.add_since(group, "messages")
    options.add_since(group, "messages", "--until", before=True)
    group.add_argument("--rebuild", action="store_true", help="rebuild the index from scratch first")


def _query(args) -> str:
    return args.query if isinstance(args.query, str) else " ".join(args.query)


def _listed(flags) -> str:
    flags = list(flags)
    return flags[0] if len(flags) == 1 else ", ".join(flags[:-1]) + " and " + flags[-1]


def refuse_filters(args, accepted: tuple[str, ...], store: str) -> int | None:
    """Exit 2 with one sentence when a filter given does not apply to how ``store`` ("this Linggen store")
    is searched; None when every filter given does."""
    given = [flag for name, flag in FILTERS if getattr(args, name, None) and flag not in accepted]
    if not given:
        return None
    takes = f"its search takes {_listed(accepted)}" if accepted else "its search takes no filters"
    verb = "does" if len(given) == 1 else "do"
    print(f"daycare-gui: {_listed(given)} {verb} not apply to {store}; {takes}", file=sys.stderr)
    return 2


def dispatch(args) -> int | None:
    """Search PATH here unless it is a Daycare SQLite or legacy store (then None: Daycare's search runs)."""
    from daycare_gui.stores import registry
    from daycare_gui.stores.daycare.records import DESCRIPTOR_KINDS

    kind = getattr(args, "kind", None)
    try:
        if not kind:
            candidates = registry.probe(args.path)
            if not candidates or not candidates[0].recognised:
                return None  # Daycare's search says why this is not a store, as it always has
            kind = candidates[0].kind
        if kind == "daycare" and not _daycare_on_postgres(args.path):
            return refuse_filters(args, DAYCARE_FILTERS, "this Daycare store")  # (then its own search runs)
        registry.load_kind(kind)
    except registry.UnknownKind as exc:
        hint = ""
        if kind in DESCRIPTOR_KINDS:  # --kind named Daycare's agent kinds here before
            hint = f" (--kind names the store kind; for Daycare agents of kind {kind!r} use --agent-kind {kind})"
        print(f"daycare-gui: {exc}{hint}", file=sys.stderr)
        return 2
    return run(args, kind)


def _daycare_on_postgres(path: str) -> bool:
    """Whether Daycare keeps this store in PGlite or PostgreSQL (the same cases as ``DaycareKind.open``)."""
    from daycare_gui.stores.daycare.detect import detect
    from daycare_gui.stores.daycare.paths import NotADaycareDirectory, resolve_paths
    from daycare_gui.stores.daycare.pg import open as pg

    text = os.fspath(path)
    if pg.is_server_url(text):
        return True
    given = Path(text).expanduser()
    if pg.is_pglite_folder(given):
        return True
    try:
        paths = resolve_paths(given)
        return bool(pg.settings_url(paths)) or detect(paths).generation == "pglite"
    except (NotADaycareDirectory, OSError):
        return False


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


def run(args, kind: str) -> int:
    from daycare_gui.stores import registry
    from daycare_gui.stores.api import CannotOpen, Conversations, NotRecognised, SearchSource
    from daycare_gui.stores.common.opening import StderrProgress, reporting
    from daycare_gui.stores.common.search_docs import store_documents
    from daycare_gui.stores.common.search_index import update_documents, update_source_index
    from daycare_gui.stores.common.search_query import SourceFilter, search_source

    kept = None
    if kind == "daycare":  # a PGlite store asked again, unchanged: answered from what the last search kept
        from daycare_gui.commands.repeat import KeptSearch

        kept = KeptSearch.find(args.path)
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
                return search_lists(args, store, lists, _query(args))
            facet_flags = _facet_flags(source)
            refused = refuse_filters(args, SHARED_FILTERS + tuple(facet_flags.values()), f"this {title} store")
            if refused is not None:
                return refused
            with open_index(source, args.index_dir) as index:
                built = build_index(lambda: update_source_index(source, index, progress=_progress_line,
                                                                rebuild=args.rebuild))
                if built is None:
                    return 130
                if built.added:
                    print(f"indexed {built.added:,} messages ({built.rows:,} in the index)", file=sys.stderr)
                # skills, prompt files, memory, settings keys: indexed beside the messages, masked
                update_documents(index, store_documents(store, source))
                flt = SourceFilter(roles=tuple(args.roles or ()), since=args.since, until=args.until,
                                   choices=_choices(args, facet_flags))
                titles = _titles(store.capability(Conversations))
                results = search_source(index, _query(args), flt, limit=args.limit, newest_first=args.newest,
                                        titles=titles, source=source)
                places = _places(store.capability(Conversations))
                index_path = str(index.path)
                if kept is not None:
                    kept.remember(source=source, index=index, kind=store.kind, title=title, titles=titles,
                                  places=places, facet_flags=facet_flags)
    except CannotOpen as exc:  # a store damaged past its open (a PGlite table file gone): said, no traceback
        print(f"daycare-gui: cannot read this store: {mask_url(str(exc))}", file=sys.stderr)
        return 1
    print_results(args, results, index_path, store.kind, places)
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
            raise  # locked, read-only, out of space: not the file's fault
        for part in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))):
            try:
                part.unlink()
            except FileNotFoundError:
                pass
        print(f"daycare-gui: the search index {path} could not be read; building it again", file=sys.stderr)
        return SourceIndex(path)


def print_results(args, results, index_path: str, kind: str, places: dict[str, str]) -> None:
    """The matches (and documents) on stdout, as text or one JSON object."""
    from daycare_gui.commands.search_documents import as_json, describe

    documents = as_json(results.documents)
    if args.json:
        out = {**_as_json(results, index_path, kind), "documents": documents}
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(_human(results, places) + (describe(documents) if documents else ""))


# The search command's options for a store's facets (SearchSource.facets), as Daycare names them: a store
# offering the facet takes the option (today's Daycare on PGlite or PostgreSQL, as its SQLite generation).
FACET_OPTIONS = {"agent_kind": ("agent_kinds", "--agent-kind"), "lifecycle": ("lifecycles", "--lifecycle"),
                 "user": ("user", "--user"), "record_type": ("record_types", "--type")}


def _facet_flags(source) -> dict[str, str]:
    """Facet name → its option, for the facets ``source`` offers."""
    try:
        names = {f.name for f in source.facets()}
    except Exception:  # facets are a courtesy: without them the options are refused, as before
        return {}
    return {name: flag for name, (_arg, flag) in FACET_OPTIONS.items() if name in names}


def _choices(args, facet_flags: dict[str, str]) -> tuple[tuple[str, str], ...]:
    out = []
    for name in facet_flags:
        given = getattr(args, FACET_OPTIONS[name][0], None)
        for value in ([given] if isinstance(given, str) else given or ()):
            out.append((name, value))
    return tuple(out)


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


def _as_json(results, index_file: str, kind: str) -> dict:
    return {
        "query": results.query, "expression": results.expression, "index": index_file, "kind": kind,
        "total": results.total, "total_capped": results.total_capped, "ranked_within": results.ranked_within,
        "groups": [
            {"thread_id": g.thread_id, "thread": g.title,
             "sessions": [{"session_id": s.ref.session_id,
                           "hits": [{"message_id": h.message_id, "role": h.role, "kind": h.kind, "at": h.at,
                                     "snippet": plain_snippet(h.snippet)} for h in s.hits]} for s in g.sessions]}
            for g in results.groups
        ],
    }


def _human(results, places: dict[str, str]) -> str:
    lines = [results.summary]
    for g in results.groups:
        place = places.get(g.thread_id, g.thread_id)
        lines.append(f"\n{g.title}" + (f"  {place}" if place != g.title else ""))
        for s in g.sessions:
            lines.append(f"  session {s.ref.session_id}")
            for h in s.hits:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(h.at / 1000)) if h.at else "time unknown"
                # (the stored kind is a class name, "HumanMessage": shown as words)
                kind = words_of(h.kind or "")
                kind = kind[:1].lower() + kind[1:] if kind[1:2].islower() else kind  # "human message", "AI message"
                role = h.role + (f" ({kind})" if h.kind and h.kind != h.role else "")
                lines.append(f"    #{h.message_id} · {when} · {role}: {plain_snippet(h.snippet)}")
    return "\n".join(lines)

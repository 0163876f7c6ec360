"""``daycare-gui search`` for every store kind whose store offers ``SearchSource`` (Linggen, today's Daycare
on PGlite or PostgreSQL, …): the shared index in the user's cache folder, built or updated first.

Daycare's SQLite and legacy stores keep their own, richer index (agent kinds, lifecycles, record types) in
:mod:`daycare_gui.commands.search`, which calls :func:`dispatch` first: it answers None for those stores and
runs the search itself for any other.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import sys
import time
from pathlib import Path

from daycare_gui.stores.common.fts import plain_snippet
from daycare_gui.stores.common.secrets import mask_url

# what Daycare's own search does not take: (argument name, option)
_OWN_OPTIONS = (("roles", "--role"), ("since", "--since"), ("until", "--until"), ("rebuild", "--rebuild"))
VALUE_OPTIONS = ("--store-kind", "--role", "--since", "--until")  # options added here that take a value


def add_arguments(parser) -> None:
    group = parser.add_argument_group("other store kinds (searched through the shared index)")
    group.add_argument("--store-kind", metavar="NAME",
                       help="open PATH as this store kind (daycare, linggen, …) instead of detecting it; "
                            "--kind filters Daycare agents by their kind")
    group.add_argument("--role", action="append", dest="roles", metavar="ROLE",
                       help="only messages of this role (user, assistant, tool, system, …)")
    group.add_argument("--since", type=_date, metavar="YYYY-MM-DD", help="only messages from this day on (UTC)")
    group.add_argument("--until", type=_date, metavar="YYYY-MM-DD", help="only messages before this day (UTC)")
    group.add_argument("--rebuild", action="store_true", help="rebuild the index from scratch first")


def _date(text: str) -> int:
    import argparse

    try:
        day = _dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a day as YYYY-MM-DD, got {text!r}") from None
    return int(_dt.datetime(day.year, day.month, day.day, tzinfo=_dt.timezone.utc).timestamp() * 1000)


def _query(args) -> str:
    return args.query if isinstance(args.query, str) else " ".join(args.query)


def dispatch(args) -> int | None:
    """Search PATH here unless it is a Daycare SQLite or legacy store (then None: Daycare's search runs)."""
    from daycare_gui.stores import registry

    kind = getattr(args, "store_kind", None)
    try:
        if not kind:
            candidates = registry.probe(args.path)
            if not candidates or not candidates[0].recognised:
                return None  # Daycare's search says why this is not a store, as it always has
            kind = candidates[0].kind
        if kind == "daycare" and not _daycare_on_postgres(args.path):
            extra = [flag for name, flag in _OWN_OPTIONS if getattr(args, name, None)]
            if extra:
                print(f"daycare-gui: {', '.join(extra)} apply to stores searched through the shared index; "
                      "this Daycare store has its own (see --type, --kind, --lifecycle, --user)", file=sys.stderr)
                return 2
            return None
        registry.load_kind(kind)
    except registry.UnknownKind as exc:
        print(f"daycare-gui: {exc}", file=sys.stderr)
        return 2
    return run(args, kind)


def _daycare_on_postgres(path: str) -> bool:
    """Whether Daycare keeps this store in PGlite or PostgreSQL (the same cases as ``DaycareKind.open``)."""
    from daycare_gui.core.detect import detect
    from daycare_gui.core.paths import NotADaycareDirectory, resolve_paths
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


def build_index(build):
    """``build()`` (an index update) as both search commands run it: Ctrl+C keeps what was indexed and
    gives None (exit 130); the progress line is ended; a rebuild's reason is said."""
    try:
        built = build()
    except KeyboardInterrupt:
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
    from daycare_gui.stores.common.search_index import SourceIndex, update_source_index
    from daycare_gui.stores.common.search_query import SourceFilter, search_source

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
                print(f"daycare-gui: this {title} store offers no messages to search", file=sys.stderr)
                return 2
            with SourceIndex.for_source(source, args.index_dir) as index:
                built = build_index(lambda: update_source_index(source, index, progress=_progress_line,
                                                                rebuild=args.rebuild))
                if built is None:
                    return 130
                if built.added:
                    print(f"indexed {built.added:,} messages ({built.rows:,} in the index)", file=sys.stderr)
                flt = SourceFilter(roles=tuple(args.roles or ()), since=args.since, until=args.until)
                results = search_source(index, _query(args), flt, limit=args.limit, newest_first=args.newest,
                                        titles=_titles(store.capability(Conversations)))
                index_path = str(index.path)
    except CannotOpen as exc:  # a store damaged past its open (a PGlite table file gone): said, no traceback
        print(f"daycare-gui: cannot read this store: {mask_url(str(exc))}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(_as_json(results, index_path, store.kind), ensure_ascii=False, indent=2))
    else:
        print(_human(results))
    return 0


def _titles(conversations) -> dict[str, str]:
    if conversations is None:
        return {}
    try:
        return {t.id: t.title for t in conversations.threads()}
    except Exception:  # names are a courtesy: ids stand in
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


def _human(results) -> str:
    lines = [results.summary]
    for g in results.groups:
        lines.append(f"\n{g.title}" + (f"  {g.thread_id}" if g.thread_id != g.title else ""))
        for s in g.sessions:
            lines.append(f"  session {s.ref.session_id}")
            for h in s.hits:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(h.at / 1000)) if h.at else "?"
                role = h.role + (f" ({h.kind})" if h.kind and h.kind != h.role else "")
                lines.append(f"    #{h.message_id} {when} {role}: {plain_snippet(h.snippet)}")
    return "\n".join(lines)

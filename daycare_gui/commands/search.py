"""``daycare-gui search PATH QUERY…`` — full-text search across session histories and documents.

Builds or updates the search index first (the shared one the window's Search page uses, in the user's
cache directory, never in the store), with a progress line on stderr, then prints the matches grouped by
agent and session, then the documents that matched (skills, memory, prompt files, settings keys) with
where they live. A legacy store (agents' ``history.jsonl`` files, no database) is searched like any other.

The query may be several arguments and may start with ``-``: ``search PATH -draft report`` excludes
"draft". Only ``--long`` options (and ``-h``) are options; everything after ``--`` is the path and query.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time

from daycare_gui.commands import options, search_kinds  # other kinds, and Daycare on PGlite or PostgreSQL
from daycare_gui.stores.common.fts import plain_snippet
from daycare_gui.stores.common.search_index import update_source_index as update_index
from daycare_gui.stores.common.sqlite_ro import DatabaseError
from daycare_gui.stores.daycare.paths import NotADaycareDirectory
from daycare_gui.stores.daycare.records import DESCRIPTOR_KINDS, HISTORY_KINDS
from daycare_gui.stores.masking import mask_url_credentials as mask_url

_FLAGS = ("--newest", "--json", "--help")
_VALUE_OPTIONS = ("--kind", "--agent-kind", "--lifecycle", "--user", "--type", "--limit", "--index-dir", *search_kinds.VALUE_OPTIONS)


def _takes_value(option: str) -> bool:
    """Whether ``option`` (maybe abbreviated, as argparse allows) is one that takes the next argument."""
    if "=" in option:
        return False
    matches = [o for o in (*_FLAGS, *_VALUE_OPTIONS) if o.startswith(option)]
    return option in _VALUE_OPTIONS or (len(matches) == 1 and matches[0] in _VALUE_OPTIONS)


def prepare_argv(argv: list[str]) -> list[str]:
    """Options first, then ``--``, then the path and the query words, so ``-word`` is read as a query word.

    argparse would take ``-word`` for an unknown option although the query language excludes words that
    way; this command has no short options besides ``-h``, so a single dash always starts a query word.
    """
    options: list[str] = []
    words: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            words.extend(argv[i + 1:])
            break
        if arg.startswith("--") or arg == "-h":
            options.append(arg)
            if _takes_value(arg) and i + 1 < len(argv):
                options.append(argv[i + 1])
                i += 1
        else:
            words.append(arg)
        i += 1
    return [*options, "--", *words] if words else options


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def add_arguments(parser) -> None:
    parser.add_argument("path", help="a store: Daycare root, data dir or settings.json, or another kind's folder")
    parser.add_argument("query", nargs="+",
                        help='words, "exact phrases", prefix*, OR, -excluded (a leading -word is a query word)')
    options.add_kind(parser)
    parser.add_argument("--limit", type=positive_int, default=50, help="matches to show (default 50)")
    parser.add_argument("--newest", action="store_true", help="newest first instead of best match first")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--index-dir", help="where the index lives (default: the user's cache directory)")
    group = parser.add_argument_group("Daycare stores (their agents and record types)")
    group.add_argument("--agent-kind", action="append", choices=DESCRIPTOR_KINDS, dest="agent_kinds",
                       help="only agents of this kind")
    group.add_argument("--lifecycle", action="append", choices=("active", "sleeping", "dead"), dest="lifecycles",
                       help="only agents in this lifecycle")
    group.add_argument("--user", help="only agents of this user id")
    group.add_argument("--type", action="append", choices=HISTORY_KINDS, dest="record_types",
                       help="only records of this type")
    search_kinds.add_arguments(parser)


def run(args) -> int:
    # checked before anything is opened, and kept as the index keeps times (milliseconds, UTC)
    args.since, args.until = options.since_ms(args.since), options.since_ms(args.until, "--until")
    other = search_kinds.dispatch(args)  # any store but Daycare's SQLite and legacy ones
    if other is not None:
        return other
    from daycare_gui.stores import registry
    from daycare_gui.stores.api import NotRecognised

    try:
        store = registry.open_store(args.path, kind="daycare")
    except (NotADaycareDirectory, NotRecognised) as exc:
        print(f"daycare-gui: {exc}", file=sys.stderr)
        return 2
    try:
        with store:
            return _search(args, store)
    except (sqlite3.Error, DatabaseError) as exc:  # a damaged database: what is wrong, in one line
        print(f"daycare-gui: cannot read {mask_url(str(store.core.paths.db_path))}: {mask_url(str(exc))}",
              file=sys.stderr)
        return 1


def _search(args, store) -> int:
    from daycare_gui.stores.api import SearchSource
    from daycare_gui.stores.common.search_docs import store_documents
    from daycare_gui.stores.common.search_index import SourceIndex, update_documents
    from daycare_gui.stores.common.search_query import SourceFilter, search_source

    core = store.core
    source = store.capability(SearchSource)
    if source is None:
        what = "no database and no legacy agent histories" if core.db is None else "no session history"
        print(f"daycare-gui: this store has {what} to search", file=sys.stderr)
        return 2
    query = " ".join(args.query)
    with SourceIndex.for_source(source, args.index_dir) as index:
        built = search_kinds.build_index(lambda: update_index(source, index, progress=_progress_line))
        if built is None:
            return 130
        if built.added:
            print(f"indexed {built.added:,} records ({built.rows:,} in the index)", file=sys.stderr)
        update_documents(index, store_documents(store, source))
        choices = [("agent_kind", k) for k in args.agent_kinds or ()]
        choices += [("lifecycle", v) for v in args.lifecycles or ()]
        choices += [("user", args.user)] if args.user else []
        choices += [("record_type", t) for t in args.record_types or ()]
        results = search_source(index, query, SourceFilter(choices=tuple(choices)), limit=args.limit,
                                newest_first=args.newest, source=source)
        index_file = str(index.path)
    agents = _agents(core, [g.thread_id for g in results.groups])
    if args.json:
        print(json.dumps(_as_json(results, agents, index_file), ensure_ascii=False, indent=2))
    else:
        print(_human(results, agents))
    return 0


def _agents(core, ids: list[str]) -> dict[str, tuple[str, str, str]]:
    """Agent id → (name, kind, lifecycle), for the groups' headings."""
    if core.db is None:
        from daycare_gui.stores.daycare.legacy.search import legacy_agents

        known = legacy_agents(core.files())
    else:
        from daycare_gui.stores.daycare.sqlite.queries.agents import fetch_agents

        known = fetch_agents(core.db, [i for i in ids if i]) if ids else {}
    return {i: (a.name, a.type, a.lifecycle) for i, a in known.items() if i in set(ids)}


def _progress_line(done: int, _total: int) -> None:
    if sys.stderr.isatty() and done:
        sys.stderr.write(f"\rindexing… {done:,} records")
        sys.stderr.flush()


def _record_id(message_id: str):
    return int(message_id) if message_id.isdigit() else message_id


def _group(g, agents) -> tuple[str, str, str]:
    return agents.get(g.thread_id, (g.title if g.title != g.thread_id else g.thread_id or "(unknown agent)", "?", "?"))


def _plain(snippet: str) -> str:
    """A hit's snippet on one line, its matches in brackets, secrets masked (as every view masks them)."""
    return plain_snippet(snippet)


def _documents(results) -> list[dict]:
    from daycare_gui.commands.search_documents import as_json

    return as_json(results.documents)


def _as_json(results, agents, index_file: str) -> dict:
    return {
        "query": results.query, "expression": results.expression, "index": index_file,
        "total": results.total, "total_capped": results.total_capped, "ranked_within": results.ranked_within,
        "groups": [
            {"agent_id": g.thread_id, "agent": _group(g, agents)[0], "kind": _group(g, agents)[1],
             "lifecycle": _group(g, agents)[2],
             "sessions": [{"session_id": s.ref.session_id,
                           "hits": [{"record_id": _record_id(h.message_id), "type": h.kind, "at": h.at,
                                     "snippet": _plain(h.snippet)} for h in s.hits]} for s in g.sessions]}
            for g in results.groups
        ],
        "documents": _documents(results),
    }


def _human(results, agents) -> str:
    lines = [results.summary]
    for g in results.groups:
        name, kind, lifecycle = _group(g, agents)
        lines.append(f"\n{name}  [{kind}, {lifecycle}]  {g.thread_id}")
        for s in g.sessions:
            lines.append(f"  session {s.ref.session_id}")
            for h in s.hits:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(h.at / 1000)) if h.at else "?"
                lines.append(f"    #{h.message_id} {when} {h.kind}: {_plain(h.snippet)}")
    if results.documents:
        from daycare_gui.commands.search_documents import describe

        lines.append(describe(_documents(results)))
    return "\n".join(lines)

"""``daycare-gui search PATH QUERY…`` — full-text search across session histories.

Builds or updates the search index first (in the user's cache directory, never in the store), with a
progress line on stderr, then prints the matches grouped by agent and session. A legacy store (agents'
``history.jsonl`` files, no database) is searched like any other.

The query may be several arguments and may start with ``-``: ``search PATH -draft report`` excludes
"draft". Only ``--long`` options (and ``-h``) are options; everything after ``--`` is the path and query.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time

from daycare_gui.commands import search_kinds  # other kinds, and Daycare on PGlite or PostgreSQL
from daycare_gui.core.db import DatabaseError
from daycare_gui.core.paths import NotADaycareDirectory
from daycare_gui.core.records import DESCRIPTOR_KINDS, HISTORY_KINDS
from daycare_gui.core.search import (
    SearchFilter,
    SearchIndex,
    index_path,
    search,
    update_index,
)
from daycare_gui.core.search.legacy import LegacySource, update_legacy_index
from daycare_gui.core.secrets import mask_url_credentials as mask_url
from daycare_gui.core.store import open_store
from daycare_gui.stores.common.fts import plain_snippet

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
    parser.add_argument("--kind", help="open PATH as this store kind (daycare, linggen, agentstack, cianaparrot, "
                                       "…) instead of detecting it, as in inspect and export")
    parser.add_argument("--limit", type=positive_int, default=50, help="matches to show (default 50)")
    parser.add_argument("--newest", action="store_true", help="newest first instead of best match first")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--index-dir", help="where the index lives (default: the user's cache directory)")
    group = parser.add_argument_group("Daycare stores in SQLite or legacy files (their own index)")
    group.add_argument("--agent-kind", action="append", choices=DESCRIPTOR_KINDS, dest="agent_kinds",
                       help="only agents of this kind")
    group.add_argument("--lifecycle", action="append", choices=("active", "sleeping", "dead"), dest="lifecycles",
                       help="only agents in this lifecycle")
    group.add_argument("--user", help="only agents of this user id")
    group.add_argument("--type", action="append", choices=HISTORY_KINDS, dest="record_types",
                       help="only records of this type")
    search_kinds.add_arguments(parser)


def _progress_line(done: int, total: int) -> None:
    if sys.stderr.isatty():
        sys.stderr.write(f"\rindexing {done:,}/{total:,} records…")
    elif done == total and total:
        sys.stderr.write(f"indexed {done:,} records\n")
    sys.stderr.flush()


def run(args) -> int:
    other = search_kinds.dispatch(args)  # any store but Daycare's SQLite and legacy ones: the shared index
    if other is not None:
        return other
    try:
        store = open_store(args.path)
    except NotADaycareDirectory as exc:
        print(f"daycare-gui: {exc}", file=sys.stderr)
        return 2
    try:
        with store:
            return _search(args, store)
    except (sqlite3.Error, DatabaseError) as exc:  # a damaged database: what is wrong, in one line
        print(f"daycare-gui: cannot read {mask_url(str(store.paths.db_path))}: {mask_url(str(exc))}",
              file=sys.stderr)
        return 1


def _search(args, store) -> int:
    query = " ".join(args.query)
    legacy = None
    if store.db is None:  # (a PGlite store never gets here: search_kinds searches it)
        inventory = store.files()
        if not inventory.items("legacy_agents"):
            print("daycare-gui: this store has no database and no legacy agent histories to search",
                  file=sys.stderr)
            return 2
        legacy = LegacySource.from_inventory(inventory)
        path = index_path(store.paths.agents_dir, args.index_dir)
    else:
        path = index_path(store.paths.db_path, args.index_dir)
    with SearchIndex(path) as index:
        if legacy is None:
            built = search_kinds.build_index(lambda: update_index(store.db, index, progress=_progress_line))
        else:
            built = search_kinds.build_index(
                lambda: update_legacy_index(inventory, store.paths, index, progress=_progress_line))
        if built is None:
            return 130
        flt = SearchFilter(kinds=tuple(args.agent_kinds or ()), lifecycles=tuple(args.lifecycles or ()),
                           user_id=args.user, record_types=tuple(args.record_types or ()))
        results = search(index, store.db, query, flt, limit=args.limit, newest_first=args.newest,
                         legacy=legacy)
    if args.json:
        print(json.dumps(_as_json(results, str(path)), ensure_ascii=False, indent=2))
    else:
        print(_human(results))
    return 0


def _plain(snippet: str) -> str:
    """A hit's snippet on one line, its matches in brackets, secrets masked (as every view masks them)."""
    return plain_snippet(snippet)


def _as_json(results, index_file: str) -> dict:
    return {
        "query": results.query, "expression": results.expression, "index": index_file,
        "total": results.total, "total_capped": results.total_capped, "ranked_within": results.ranked_within,
        "groups": [
            {"agent_id": g.agent_id, "agent": g.name, "kind": g.kind, "lifecycle": g.lifecycle,
             "sessions": [{"session_id": s.session_id,
                           "hits": [{"record_id": h.record_id, "type": h.type, "at": h.at,
                                     "snippet": _plain(h.snippet)} for h in s.hits]} for s in g.sessions]}
            for g in results.groups
        ],
    }


def _human(results) -> str:
    lines = [results.summary]
    for g in results.groups:
        lines.append(f"\n{g.name}  [{g.kind}, {g.lifecycle}]  {g.agent_id}")
        for s in g.sessions:
            lines.append(f"  session {s.session_id}")
            for h in s.hits:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(h.at / 1000)) if h.at else "?"
                lines.append(f"    #{h.record_id} {when} {h.type}: {_plain(h.snippet)}")
    return "\n".join(lines)

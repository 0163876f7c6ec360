"""``daycare-gui search PATH QUERY…`` — full-text search across a store's conversations and documents.

Every kind and every Daycare generation is searched the same way, through the store's ``SearchSource``
(:mod:`daycare_gui.commands.search_kinds`): the shared index the window's Search page uses, in the user's
cache directory, never in the store, built or updated first with a progress line on stderr; then the
matches grouped by thread and session, then the documents that matched (skills, memory, prompt files,
settings keys) with where they live. A store's own filters (Daycare's agent kinds, lifecycles, users and
record types) are the facets its source declares.

The query may be several arguments and may start with ``-``: ``search PATH -draft report`` excludes
"draft". Only ``--long`` options (and ``-h``) are options; everything after ``--`` is the path and query.
"""

from __future__ import annotations

import argparse

from daycare_gui.commands import options, search_kinds

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
    # The values are the store's own (its source's facets): checked once the store is open, not here.
    group = parser.add_argument_group("a store's own filters (Daycare: its agents and record types)")
    group.add_argument("--agent-kind", action="append", dest="agent_kinds", metavar="KIND",
                       help="only agents of this kind (Daycare: user, cron, subagent, …)")
    group.add_argument("--lifecycle", action="append", dest="lifecycles", metavar="LIFECYCLE",
                       help="only agents in this lifecycle (active, sleeping, dead)")
    group.add_argument("--user", help="only agents of this user id")
    group.add_argument("--type", action="append", dest="record_types", metavar="TYPE",
                       help="only records of this type (user_message, assistant_message, note, …)")
    search_kinds.add_arguments(parser)


def run(args) -> int:
    # checked before anything is opened, and kept as the index keeps times (milliseconds, UTC)
    args.since, args.until = options.since_ms(args.since), options.since_ms(args.until, "--until")
    return search_kinds.run(args)

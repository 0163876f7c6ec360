"""The search command's filters, as every way of searching reads them (the live search of
:mod:`search_kinds` and the kept answer of :mod:`repeat`): which options exist, which facet each one
names, and the one sentence that refuses a filter a store's search does not take."""

from __future__ import annotations

import argparse
import sys

from daycare_gui.commands import options

# Every filter of the search command: (argument name, option). Each way of searching takes some of them;
# the others are refused in one sentence, the same for every kind (refuse_filters).
FILTERS = (("agent_kinds", "--agent-kind"), ("lifecycles", "--lifecycle"), ("user", "--user"),
           ("record_types", "--type"), ("roles", "--role"), ("since", "--since"), ("until", "--until"),
           ("rebuild", "--rebuild"), ("newest", "--newest"))
SHARED_FILTERS = ("--role", "--since", "--until", "--rebuild", "--newest")  # the shared index
LIST_FILTERS = ()  # a kind's own full-text index of a list (AgentStack's memory)
VALUE_OPTIONS = ("--store-kind", "--role", "--since", "--until")  # options added here that take a value


def add_arguments(parser) -> None:
    group = parser.add_argument_group("stores searched through the shared index (every Daycare generation, "
                                      "Linggen, CianaParrot, …)")
    # the name --kind had before it meant the store kind in every command (as in inspect and export)
    group.add_argument("--store-kind", dest="kind", help=argparse.SUPPRESS)
    group.add_argument("--role", action="append", dest="roles", metavar="ROLE",
                       help="only messages of this role (user, assistant, tool, system, …)")
    options.add_since(group, "messages")
    options.add_since(group, "messages", "--until", before=True)
    group.add_argument("--rebuild", action="store_true", help="rebuild the index from scratch first")


def query_of(args) -> str:
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


FACET_OPTIONS = {"agent_kind": ("agent_kinds", "--agent-kind"), "lifecycle": ("lifecycles", "--lifecycle"),
                 "user": ("user", "--user"), "record_type": ("record_types", "--type")}


def choices_of(args, facet_flags: dict[str, str]) -> tuple[tuple[str, str], ...]:
    out = []
    for name in facet_flags:
        given = getattr(args, FACET_OPTIONS[name][0], None)
        for value in ([given] if isinstance(given, str) else given or ()):
            out.append((name, value))
    return tuple(out)

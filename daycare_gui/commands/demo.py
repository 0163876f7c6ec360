"""``daycare-gui demo DIR [--kind KIND] [--scale small|large] [--now current|fixed|TIME]``: write a realistic
demo store of a kind (Daycare's by default; each kind's demo lives in its own package, found by kind name
through ``stores.demos``, with the options it takes besides ``--now``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from daycare_gui.stores import demos

_OPTION_DEFAULTS = {"scale": "small", "generation": "sqlite"}  # options some kinds' demos take


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, help="destination folder (must be missing or empty)")
    parser.add_argument("--kind", choices=tuple(demos.DEMOS), default="daycare",
                        help="the store kind to write: daycare (the default), linggen, agentstack or cianaparrot "
                             "(--scale and --generation are Daycare's)")
    parser.add_argument("--scale", choices=("small", "large"), default="small",
                        help="small: every kind of record, a few hundred rows; "
                             "large: 1,000 agents, 20,000 sessions, 1,000,000 history records")
    parser.add_argument("--now", default="current", type=_now, metavar="current|fixed|TIME",
                        help="the moment the demo is dated relative to. current (the default): now, floored to "
                             "the minute, so a fresh demo looks fresh (new and stuck inbox items, recent runs); "
                             "fixed: 2026-03-01 12:00 UTC; TIME: an ISO date or time such as 2026-03-01T12:00Z "
                             "(UTC unless it says otherwise). The same fixed or TIME writes the same bytes")
    parser.add_argument("--generation", choices=("sqlite", "pglite"), default="sqlite",
                        help="sqlite (the default): legacy files and daycare.db; pglite: today's Daycare, a "
                             "daycare.pglite/ folder written by PGlite itself (needs Node.js)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def _now(text: str) -> int | None:
    """``--now`` → the demo's "now" in ms (None: the fixed moment); a bad value is a usage error."""
    try:
        return demos.parse_now(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except KeyboardInterrupt:  # Ctrl+C: the writer has removed what it wrote
        print(f"\ndaycare-gui demo: interrupted; the partial demo in {args.dir} was removed", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace) -> int:
    takes = demos.command_options(args.kind)
    given = [name for name, default in _OPTION_DEFAULTS.items() if getattr(args, name) != default]
    refused = [name for name in given if name not in takes]
    if refused:
        flags = [f"--{name}" for name in refused]
        verb = "applies" if len(flags) == 1 else "apply"
        print(f"daycare-gui demo: {' and '.join(flags)} {verb} only to {_whose(refused[0])}, not to --kind "
              f"{args.kind}", file=sys.stderr)
        return 2

    def progress(done: int, total: int, message: str) -> None:
        if not args.quiet:
            print(f"[{done}/{total}] {message}", file=sys.stderr, flush=True)

    try:
        if takes:  # a demo with options of its own writes itself, and says what it wrote
            line = demos.demo_module(args.kind).write_command_demo(
                args.dir, now_ms=args.now, progress=progress, **{name: getattr(args, name) for name in takes})
        else:
            line = _write(args)
    except demos.DemoRefused as exc:
        print(f"daycare-gui demo: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # while writing (the disk filled up, a permission changed): what was written is gone
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"daycare-gui demo: cannot write the demo into {args.dir}: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    print(line)
    return 0


def _whose(option: str) -> str:
    """"Daycare's demo": the demos that take ``option``, by their kinds' titles."""
    from daycare_gui.stores import registry

    titles = [registry.load_kind(k).title or k for k in demos.DEMOS if option in demos.command_options(k)]
    return " and ".join(f"{t}'s" for t in titles) + (" demo" if len(titles) == 1 else " demos")


def _write(args: argparse.Namespace) -> str:
    """A demo without options of its own: small, dated relative to ``--now``."""
    from daycare_gui.stores import registry

    demos.refuse_unless_empty(args.dir)
    created = not args.dir.exists()
    try:
        demos.write_kind_demo(args.kind, args.dir, args.now if args.now is not None else demos.FIXED_NOW_MS)
    except BaseException:  # what was written is removed, as Daycare's demo does
        demos.remove_partial(args.dir, created)
        raise
    title = registry.load_kind(args.kind).title or args.kind
    return f"Wrote the {title} demo store in {args.dir}"

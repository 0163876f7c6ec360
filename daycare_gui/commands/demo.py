"""``daycare-gui demo DIR [--scale small|large] [--now current|fixed|TIME]``: write a realistic demo data directory."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, help="destination folder (must be missing or empty)")
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
    from daycare_gui.core.demo.ids import parse_now

    try:
        return parse_now(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from daycare_gui.core.demo import DemoError, write_demo

    def progress(done: int, total: int, message: str) -> None:
        if not args.quiet and args.scale == "large":
            print(f"[{done}/{total}] {message}", file=sys.stderr, flush=True)

    if args.generation == "pglite":
        return _pglite(args, progress)
    try:
        summary = write_demo(args.dir, scale=args.scale, now_ms=args.now, progress=progress)
    except DemoError as exc:
        print(f"daycare-gui demo: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # while writing (the disk filled up, a permission changed): what was written is gone
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"daycare-gui demo: cannot write the demo into {args.dir}: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    print(summary.describe())
    return 0


def _pglite(args: argparse.Namespace, progress) -> int:
    from daycare_gui.core.demo.ids import NOW_MS
    from daycare_gui.stores.api import CannotOpen
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    folder = args.dir / "daycare.pglite"
    if args.dir.exists() and (not args.dir.is_dir() or any(args.dir.iterdir())):
        print(f"daycare-gui demo: {args.dir} is not an empty folder", file=sys.stderr)
        return 2
    try:
        counts = write_pglite_demo(folder, now_ms=args.now if args.now is not None else NOW_MS,
                                   scale=args.scale, progress=progress)
    except (CannotOpen, OSError) as exc:
        print(f"daycare-gui demo: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote a PGlite demo store in {folder}: " + ", ".join(f"{v:,} {k}" for k, v in counts.items()))
    return 0

"""``daycare-gui demo DIR [--kind KIND] [--scale small|large] [--now current|fixed|TIME]``: write a realistic
demo store of a kind (Daycare's by default; each kind's demo lives in its own package)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from daycare_gui.stores.demos import OTHER_KINDS as DEMOS

OTHER_KINDS = tuple(DEMOS)  # the kinds besides Daycare whose demo this writes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, help="destination folder (must be missing or empty)")
    parser.add_argument("--kind", choices=("daycare", *OTHER_KINDS), default="daycare",
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
    from daycare_gui.stores.daycare.demo.ids import parse_now

    try:
        return parse_now(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except KeyboardInterrupt:  # Ctrl+C: the writer has removed what it wrote
        print(f"\ndaycare-gui demo: interrupted; the partial demo in {args.dir} was removed", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace) -> int:
    from daycare_gui.stores.daycare.demo import DemoError, write_demo

    if args.kind != "daycare":
        return _other_kind(args)

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
    from daycare_gui.stores.api import CannotOpen
    from daycare_gui.stores.daycare.demo.ids import NOW_MS
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    folder = args.dir / "daycare.pglite"
    if args.dir.exists() and (not args.dir.is_dir() or any(args.dir.iterdir())):
        print(f"daycare-gui demo: {args.dir} is not an empty folder", file=sys.stderr)
        return 2
    created = not args.dir.exists()
    try:
        counts = write_pglite_demo(folder, now_ms=args.now if args.now is not None else NOW_MS,
                                   scale=args.scale, progress=progress)
    except BaseException as exc:  # (Ctrl+C too) a half-written PGlite folder is no store: it goes
        _remove_partial(args.dir, created)
        if not isinstance(exc, (CannotOpen, OSError)):
            raise
        print(f"daycare-gui demo: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote a PGlite demo store in {folder}: " + ", ".join(f"{v:,} {k}" for k, v in counts.items()))
    return 0


def _other_kind(args: argparse.Namespace) -> int:
    """Another kind's demo, from its package: small, dated relative to ``--now``."""
    from daycare_gui.stores import registry
    from daycare_gui.stores.daycare.demo.ids import NOW_MS
    from daycare_gui.stores.demos import write_kind_demo

    given = [flag for flag, changed in (("--scale", args.scale != "small"),
                                        ("--generation", args.generation != "sqlite")) if changed]
    if given:
        verb = "applies" if len(given) == 1 else "apply"
        print(f"daycare-gui demo: {' and '.join(given)} {verb} only to Daycare's demo, not to --kind {args.kind}",
              file=sys.stderr)
        return 2
    if args.dir.exists() and (not args.dir.is_dir() or any(args.dir.iterdir())):
        print(f"daycare-gui demo: {args.dir} is not an empty folder", file=sys.stderr)
        return 2
    created = not args.dir.exists()
    try:
        write_kind_demo(args.kind, args.dir, args.now if args.now is not None else NOW_MS)
    except BaseException as exc:  # what was written is removed, as Daycare's demo does
        _remove_partial(args.dir, created)
        if isinstance(exc, OSError):
            where = f" ({exc.filename})" if exc.filename else ""
            print(f"daycare-gui demo: cannot write the demo into {args.dir}: {exc.strerror or exc}{where}",
                  file=sys.stderr)
            return 1
        raise
    title = registry.load_kind(args.kind).title or args.kind
    print(f"Wrote the {title} demo store in {args.dir}")
    return 0


def _remove_partial(folder: Path, created: bool) -> None:
    import shutil

    if created:
        shutil.rmtree(folder, ignore_errors=True)
        return
    for child in folder.iterdir() if folder.is_dir() else ():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)

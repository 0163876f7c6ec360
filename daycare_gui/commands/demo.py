"""``daycare-gui demo DIR [--scale small|large] [--now fixed|current]``: write a realistic demo data directory."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, help="destination folder (must be missing or empty)")
    parser.add_argument("--scale", choices=("small", "large"), default="small",
                        help="small: every kind of record, a few hundred rows; "
                             "large: 1,000 agents, 20,000 sessions, 1,000,000 history records")
    parser.add_argument("--now", choices=("fixed", "current"), default="fixed",
                        help="fixed: date everything relative to a fixed moment (same bytes every run, the default); "
                             "current: relative to the current time, floored to the minute, so the demo looks fresh")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def run(args: argparse.Namespace) -> int:
    from daycare_gui.core.demo import DemoError, write_demo
    from daycare_gui.core.demo.ids import current_minute_ms

    def progress(done: int, total: int, message: str) -> None:
        if not args.quiet and args.scale == "large":
            print(f"[{done}/{total}] {message}", file=sys.stderr, flush=True)

    try:
        now_ms = current_minute_ms() if getattr(args, "now", "fixed") == "current" else None
        summary = write_demo(args.dir, scale=args.scale, now_ms=now_ms, progress=progress)
    except DemoError as exc:
        print(f"daycare-gui demo: {exc}", file=sys.stderr)
        return 2
    print(summary.describe())
    return 0

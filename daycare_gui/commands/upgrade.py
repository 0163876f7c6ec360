"""``daycare-gui upgrade PATH [--dry-run] [--no-backup]``: Daycare's migrations, applied safely.

Prints what ``daycare upgrade`` prints (``Storage already up to date.`` or ``Applied migrations: a, b``), plus
the backup location and the integrity checks. Exit codes: 0 done, 1 a migration failed (nothing changed),
2 refused (engine running, newer/stuck database, PGlite store, not a Daycare folder).
"""

from __future__ import annotations

import argparse
import sys

from daycare_gui.core.migrations.upgrade import plan_upgrade, run_upgrade
from daycare_gui.core.paths import NotADaycareDirectory, resolve_paths

EXIT_OK, EXIT_FAILED, EXIT_REFUSED = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="Daycare root, data dir, settings.json or daycare.db")
    parser.add_argument("--dry-run", action="store_true", help="list pending migrations and what they would import")
    parser.add_argument("--no-backup", action="store_true", help="do not write daycare.db.backup-<time> first")


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    try:
        paths = resolve_paths(args.path)
    except NotADaycareDirectory as exc:
        print(f"daycare-gui upgrade: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    print("daycare upgrade", file=out)
    print(f"Database: {paths.db_path}", file=out)
    if args.dry_run:
        plan = plan_upgrade(paths.db_path, paths)
        for line in plan.lines():
            print(line, file=out)
        print("Dry run: nothing was written.", file=out)
        return EXIT_REFUSED if plan.refusal else EXIT_OK

    def progress(index: int, total: int, migration) -> None:
        print(f"[{index + 1}/{total}] {migration.name}", file=sys.stderr)

    result = run_upgrade(paths.db_path, paths=paths, backup=not args.no_backup, progress=progress)
    stream = sys.stderr if (result.refusal or result.failure) else out
    for line in result.summary():
        print(line, file=stream)
    if result.refusal:
        return EXIT_REFUSED
    if result.failure:
        return EXIT_FAILED
    return EXIT_OK

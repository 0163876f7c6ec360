"""``daycare-gui upgrade PATH [--dry-run] [--no-backup]``: Daycare's migrations, applied safely.

Prints what ``daycare upgrade`` prints (``Storage already up to date.`` or ``Applied migrations: a, b``), plus
the backup location and the integrity checks. Exit codes: 0 done, 1 a migration failed (nothing changed),
2 refused (engine running, newer/stuck database, PGlite store, not a Daycare folder, nothing to upgrade).

A folder that is not a Daycare store (``upgrade /tmp``, ``upgrade <store>/cron``) or that holds neither a
database nor legacy files to import is refused with one line on stderr before anything is looked at
further: an upgrade there would only create a database Daycare never asked for.
"""

from __future__ import annotations

import argparse
import sys

from daycare_gui.stores.daycare.detect import detect
from daycare_gui.stores.daycare.paths import NotADaycareDirectory, resolve_paths
from daycare_gui.stores.daycare.sqlite.migrations.store_check import nothing_to_upgrade
from daycare_gui.stores.daycare.sqlite.migrations.upgrade import plan_upgrade, run_upgrade

EXIT_OK, EXIT_FAILED, EXIT_REFUSED = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="Daycare root, data dir, settings.json or daycare.db")
    parser.add_argument("--dry-run", action="store_true", help="list pending migrations and what they would import")
    parser.add_argument("--no-backup", action="store_true", help="do not write daycare.db.backup-<time> first")


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    try:
        paths = resolve_paths(args.path)
        detection = detect(paths)
    except NotADaycareDirectory as exc:
        print(f"daycare-gui upgrade: refused, nothing written: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    empty = nothing_to_upgrade(paths.db_path) if detection.generation != "pglite" else None
    if empty:
        print(f"daycare-gui upgrade: refused, nothing written: {empty}", file=sys.stderr)
        return EXIT_REFUSED
    print("daycare upgrade", file=out)
    # the store the upgrade looked at: a path that is there (a PGlite store has no daycare.db to name)
    if paths.db_path.exists():
        print(f"Database: {paths.db_path}", file=out)
    elif paths.pglite_path.exists():
        print(f"Database: {paths.pglite_path} (PGlite)", file=out)
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

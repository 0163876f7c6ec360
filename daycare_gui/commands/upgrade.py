"""``daycare-gui upgrade PATH [--dry-run] [--no-backup]``: a store's upgrade in place, applied safely, by the
kind that offers one (:meth:`StoreKind.upgrader <daycare_gui.stores.api.StoreKind.upgrader>`: Daycare's
migrations, printed as ``daycare upgrade`` prints them — ``Storage already up to date.`` or ``Applied
migrations: a, b`` — plus the backup location and the integrity checks).

Exit codes: 0 done, 1 a step failed (nothing changed), 2 refused (engine running, newer/stuck database,
PGlite store, not a store needing an upgrade, nothing to upgrade). A refusal before anything is looked at
further (a folder that is not a store of the kind) is one line on stderr and writes nothing.
"""

from __future__ import annotations

import argparse
import sys

from daycare_gui.stores import registry
from daycare_gui.stores.api import NotRecognised, StoreKind

EXIT_OK, EXIT_FAILED, EXIT_REFUSED = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="Daycare root, data dir, settings.json or daycare.db")
    parser.add_argument("--dry-run", action="store_true", help="list pending migrations and what they would import")
    parser.add_argument("--no-backup", action="store_true", help="do not write daycare.db.backup-<time> first")


def _upgrading_kinds(path) -> list[StoreKind]:
    """The kinds that offer an upgrade, the one the path's probe ranks first first."""
    kinds = [registry.load_kind(name) for name in registry.kind_names()]
    kinds = [k for k in kinds if type(k).upgrader is not StoreKind.upgrader]
    ranked = [c.kind for c in registry.probe(path) if c.recognised]
    return sorted(kinds, key=lambda k: ranked.index(k.name) if k.name in ranked else len(ranked))


def _upgrader(path):
    """The upgrader of the first kind that takes the path; else the refusal of the first kind asked."""
    refusal = None
    for kind in _upgrading_kinds(path):
        try:
            found = kind.upgrader(path)
        except NotRecognised as exc:
            refusal = refusal or str(exc)
            continue
        if found is not None:
            return found, None
    return None, refusal or f"{path} is not a store that daycare-gui can upgrade"


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    upgrader, refusal = _upgrader(args.path)
    if upgrader is None:
        print(f"daycare-gui upgrade: refused, nothing written: {refusal}", file=sys.stderr)
        return EXIT_REFUSED
    for line in upgrader.heading():
        print(line, file=out)
    if args.dry_run:
        plan = upgrader.plan()
        for line in plan.lines:
            print(line, file=out)
        print("Dry run: nothing was written.", file=out)
        return EXIT_REFUSED if plan.refused else EXIT_OK

    def progress(done: int, total: int, step: str) -> None:
        print(f"[{done}/{total}] {step}", file=sys.stderr)

    result = upgrader.run(backup=not args.no_backup, progress=progress)
    stream = sys.stderr if (result.refused or result.failed) else out
    for line in result.lines:
        print(line, file=stream)
    if result.refused:
        return EXIT_REFUSED
    if result.failed:
        return EXIT_FAILED
    return EXIT_OK

"""``daycare-gui export PATH costs[:GROUP] [--since DATE] [--out FILE]`` — a costs table as CSV (the export
command's rules for ``--out``: atomic, mode 0600, an existing file kept unless ``--force``)."""

from __future__ import annotations

import io
import sys

from daycare_gui.commands import options
from daycare_gui.stores import registry
from daycare_gui.stores.api import Automations, CannotOpen, NotRecognised, Usage


def export_costs(args, by: str, fail, out_refused, mode: int) -> int:
    from daycare_gui.stores.common.costs import GROUPS
    from daycare_gui.stores.common.export.costs_csv import write_costs_csv
    from daycare_gui.stores.common.export.stream import write_atomically
    from daycare_gui.stores.common.run_costs import compute_costs

    if by not in GROUPS:
        return fail(f"cannot export costs:{by}: group by one of {', '.join(GROUPS)}")
    if args.format not in (None, "csv"):
        return fail("a costs table is exported as CSV (--format csv)")
    if args.records:
        return fail("--records goes with a session, not a costs table")
    since = options.since_day(args.since)
    refusal = out_refused(args.out, args.force) if args.out else None
    if refusal:
        return fail(refusal)
    try:
        store = registry.open_store(args.path, kind=args.kind, live=False)
    except (NotRecognised, CannotOpen) as exc:
        return fail(str(exc))
    with store:
        report = compute_costs(store.capability(Usage), store.capability(Automations), by, since)
    if report.empty:
        print(f"daycare-gui export: note: {report.empty}", file=sys.stderr)
    if args.out:
        try:
            rows = write_atomically(args.out, lambda handle: write_costs_csv(report, handle), replace=args.force,
                                    through_links=False, mode=mode)
        except FileExistsError:
            return fail(f"{args.out} appeared meanwhile and was kept; nothing was written (add --force to replace it)")
        except OSError as exc:
            return fail(f"cannot write {args.out}: {exc.strerror or exc}", 1)
        print(f"wrote {rows:,} cost lines to {args.out}", file=sys.stderr)
        return 0
    held = io.StringIO()
    write_costs_csv(report, held)
    sys.stdout.write(held.getvalue())
    return 0

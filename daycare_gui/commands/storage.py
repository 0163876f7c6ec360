"""``daycare-gui storage PATH [--json]`` — where a store's bytes go: tables and indexes, threads/sessions,
folders, free pages and the log, with advice and what each safe action gives back, and what this application's
own leftovers take (``prune PATH --leftovers``). Never writes."""

from __future__ import annotations

import json
import sys

from daycare_gui.commands import options
from daycare_gui.stores import registry
from daycare_gui.stores.api import CannotOpen, Conversations, NotRecognised, Storage
from daycare_gui.stores.common.secrets import mask_url

LISTED = 10  # lines per part in the text output (--json lists all)


def add_arguments(parser) -> None:
    parser.add_argument("path", help="a store: a Daycare root, data dir or postgresql:// URL, or another kind's folder")
    parser.add_argument("--json", action="store_true", help="print one JSON object (every line, sizes in bytes)")
    options.add_kind(parser)


def run(args) -> int:
    from daycare_gui.stores.common import own_leftovers
    from daycare_gui.stores.common.space import named_holders
    from daycare_gui.stores.common.wording import byte_size

    try:
        with registry.open_store(args.path, kind=args.kind, live=False) as store:
            storage = store.capability(Storage)
            report = named_holders(storage.space() if storage is not None else None,
                                   store.capability(Conversations))
            own = own_leftovers.preview(storage) if report is not None else None
    except (NotRecognised, CannotOpen) as exc:
        print(f"daycare-gui: {mask_url(str(exc))}", file=sys.stderr)
        return 2
    if report is None:
        print("daycare-gui: this kind of store does not measure its space yet", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({**report.to_dict(), "own_leftovers": {"bytes": own.size_before, "summary": own.summary,
                                                                 "files": [vars(x) for x in own.dropped]}},
                         ensure_ascii=False, indent=2))
        return 0
    out = [f"{byte_size(report.total)} on disk" + (f" (table sizes by {report.method})" if report.method else "")]
    if report.free:
        out.append(f"free pages: {byte_size(report.free)}")
    if report.wal:
        out.append(f"write-ahead log: {byte_size(report.wal)}")
    for title, lines in (("Tables and indexes", report.tables), (report.holders_title or "Holders", report.holders),
                         ("Folders", report.folders)):
        if lines:
            out.append(f"\n{title}:")
            out += [f"  {byte_size(line.bytes):>10}  {line.name}" + (f"  ({line.detail})" if line.detail else "")
                    + (f", +{byte_size(line.per_day)}/day" if line.per_day else "") for line in lines[:LISTED]]
            if len(lines) > LISTED:
                out.append(f"  … and {len(lines) - LISTED} more (--json lists all)")
    if report.advice:
        out.append("\nAdvice:")
        out += [f"  - {a}" for a in report.advice]
    for action in report.actions:
        out.append(f"\n{action.title}: gives back {byte_size(action.reclaim)}" + (f" — {action.detail}" if action.detail else ""))
    if own.dropped:
        out.append(f"\ndaycare-gui's own leftovers: {own.summary} (daycare-gui prune PATH --leftovers [--dry-run])")
    print("\n".join(out))
    return 0

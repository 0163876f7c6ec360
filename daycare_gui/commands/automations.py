"""``daycare-gui automations PATH [--task ID] [--since DATE] [--json]`` — scheduled work and its runs, any kind.

Each task or trigger with its schedule in words and its health (success rate, last error, stopped firing, runs
stuck running), then its runs newest first: started, finished, outcome and error, and what each was told from.
Never writes a byte in the store.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal

from daycare_gui.commands import options
from daycare_gui.stores import api, registry
from daycare_gui.stores.api import CannotOpen, NotRecognised
from daycare_gui.stores.common.secrets import mask_url


def add_arguments(parser) -> None:
    parser.add_argument("path", help="a store of any kind: a Daycare root or data dir, a postgresql:// URL, ...")
    parser.add_argument("--task", help="only this automation (its id, as listed, or its title)")
    options.add_since(parser, "runs started")
    parser.add_argument("--limit", type=int, default=None, help="at most this many runs per automation")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options.add_kind(parser)


def run(args) -> int:
    from daycare_gui.stores.common.opening import StderrProgress, reporting
    from daycare_gui.stores.common.run_report import automations_report

    since = options.since_ms(args.since)
    if args.limit is not None and args.limit < 0:
        print("daycare-gui automations: --limit must be 0 or more", file=sys.stderr)
        return 2
    stages = StderrProgress()
    try:
        with reporting(stages):
            store = registry.open_store(args.path, kind=args.kind, live=False)
        stages.finish()
        with store:
            cap = store.capability(api.Automations)
            report = automations_report(cap, task=args.task, since=since, limit=args.limit,
                                        usage=store.capability(api.Usage)) if cap else []
            kind = store.kind
    except (NotRecognised, CannotOpen) as exc:
        stages.finish()
        message = mask_url(str(exc))
        if args.json:
            print(json.dumps({"path": mask_url(args.path), "error": message}))
        else:
            print(f"daycare-gui: {message}", file=sys.stderr)
        return 2
    if args.task is not None and not report:
        print(f"daycare-gui automations: no automation {args.task!r} in this store", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"path": mask_url(args.path), "kind": kind, "offered": cap is not None,
                          "automations": report}, ensure_ascii=False, indent=2))
    else:
        print(_human(report))
    return 0


def _when(iso: str | None) -> str:
    return (iso or "").replace("T", " ").replace("Z", " UTC") or "—"


def _human(report: list[dict]) -> str:
    if not report:
        return "Nothing scheduled."
    lines = []
    for a in report:
        schedule = a["schedule"] or {}
        words = schedule.get("words") or schedule.get("expression") or schedule.get("kind") or "no schedule"
        if schedule and not schedule.get("enabled", True):
            words = f"disabled ({words})"
        lines.append(f"{a['title']}  [{a['id']}]{'  (deleted)' if a['deleted'] else ''}")
        lines.append(f"  schedule: {words}")
        h = a["health"]
        rate = f"{round(h['success_rate'] * 100)}% of the last {h['window']} worked" \
            if h["success_rate"] is not None else f"{h['runs_seen']} run{'' if h['runs_seen'] == 1 else 's'} seen"
        lines.append(f"  health:   {rate}")
        for problem in h["problems"]:
            lines.append(f"  ! {problem}")
        for note in a["notes"]:  # (what a person must know to read the runs right: a heartbeat batch's stamps)
            lines.append(f"  note: {note}")
        if not a["runs_told"]:
            lines.append(f"  runs cannot be told apart: {a['why']}")
        for r in a["runs"]:
            error = f": {r['error'].splitlines()[0]}" if r["error"] else ""
            cost = r.get("cost") or {}
            spent = f"  ${Decimal(cost['usd']):,.4f}" if cost.get("records") and cost["unpriced_records"] < cost["records"] \
                else ("  unpriced" if cost.get("records") else "")
            lines.append(f"    {_when(r['started'])}  {r['outcome']}{error}{spent}  ({r['certainty']}: {r['evidence']})")
        lines.append("")
    return "\n".join(lines).rstrip()

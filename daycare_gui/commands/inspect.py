"""``daycare-gui inspect PATH [--json]`` — what is in a store, of any kind. Never writes a byte there."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from daycare_gui.commands import options
from daycare_gui.stores import registry
from daycare_gui.stores.api import CannotOpen, NotRecognised
from daycare_gui.stores.common.secrets import mask_url


def add_arguments(parser) -> None:
    parser.add_argument("path", help="a store: Daycare root, data dir or settings.json, or another kind's folder")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options.add_kind(parser)
    parser.add_argument("--home-skills", action="store_true", help="also read ~/.agents/skills (Daycare)")


def run(args) -> int:
    from daycare_gui.commands.repeat import KeptInspect
    from daycare_gui.stores.common.opening import StderrProgress, reporting
    from daycare_gui.stores.report import inspect_report

    # a store its kind reads dearly (a PGlite copy), asked again unchanged: what the last inspect kept
    kept = KeptInspect.find(args.path, args.kind)
    answered = kept.report(args.home_skills) if kept is not None else None
    if answered is not None:
        return _print(args, *answered)
    stages = StderrProgress()  # a slow open (a PGlite copy) says what it is doing on stderr
    try:
        # live=False: a store whose WAL holds data is read from a private snapshot, so not even the
        # -shm read marks of the original are touched.
        with reporting(stages, meanwhile=_import_report):
            store = registry.open_store(args.path, kind=args.kind, live=False)
        stages.finish()
        with store:
            if kept is not None:
                kept.watch(store)
            report = inspect_report(store, home_skills=args.home_skills)
            title = registry.load_kind(store.kind).title or store.kind
            if kept is not None and store.kind == kept.kind:
                kept.remember(report, title, args.home_skills)
    except (NotRecognised, CannotOpen) as exc:
        stages.finish()
        return _refuse(args, exc)
    return _print(args, report, title)


def _import_report() -> None:
    """What the report reads with beyond the store (its automations' runs, costs and schedules): imported while
    a slow open waits (PGlite's start), not after it."""
    import daycare_gui.stores.common.run_costs  # noqa: F401
    import daycare_gui.stores.common.run_report  # noqa: F401


def _print(args, report: dict, title: str) -> int:
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(_human(report, title))
    return 0


def _refuse(args, exc: Exception) -> int:
    message = mask_url(str(exc))
    if args.json:
        tried = [{"kind": c.kind, "reason": mask_url(c.reason)} for c in getattr(exc, "candidates", [])]
        headline = mask_url(getattr(exc, "headline", message))
        print(json.dumps({"path": mask_url(args.path), "kind": None, "error": headline, "kinds_tried": tried}))
    else:
        print(f"daycare-gui: {message}", file=sys.stderr)
    return 2


def _existing(value) -> list[str]:
    """Of a path (or a list of them) from the report, those that exist — or a server's URL, as it is."""
    values = value if isinstance(value, list) else [value]
    return [v for v in values if isinstance(v, str) and v and ("://" in v or Path(v).exists())]


def _human(r: dict, title: str) -> str:
    lines = [f"{title} store: {r['path']}", f"  generation:   {r['generation']}"]
    for note in r.get("notes", []):
        lines.append(f"  note:         {note}")
    engine = "RUNNING — writes are unsafe" if r.get("engine_running") else "not running"
    detail = (r.get("engine") or {}).get("detail")
    lines.append(f"  engine:       {engine}" + (f" ({detail})" if detail else ""))
    if r.get("open_mode"):
        lines.append(f"  opened:       {r['open_mode']}")
    paths = {key: shown for key, value in (r.get("paths") or {}).items() if (shown := _existing(value))}
    if paths:
        lines.append("  paths:")  # only what is there: a SQLite store has no daycare.pglite to name
        for key, value in paths.items():
            lines.append(f"    {key:<14}{', '.join(value)}")
    m = r.get("migrations")
    if m:
        lines.append(f"  migrations:   {len(m['applied'])} applied, {len(m['pending'])} pending, "
                     f"{len(m['unknown'])} unknown")
        if m["pending"]:
            lines.append(f"    pending:    {', '.join(m['pending'])}")
        if m["unknown"]:
            lines.append(f"    unknown:    {', '.join(m['unknown'])}")
        if m.get("later_pending"):
            lines.append(f"    a later Daycare still lacks: {', '.join(m['later_pending'])}")
    lines.append("  counts:")
    width = max((len(k) for k in r["counts"]), default=10) + 2
    for key, value in r["counts"].items():
        shown = f"{value:>10,}" if isinstance(value, int) else f"{value!s:>10}"
        lines.append(f"    {key:<{width}}{shown}")
    problems = r["problems"]
    lines.append(f"  problems:     {len(problems)}")
    for p in problems[:200]:
        where = f"{p['path']}:{p['line']}" if p["line"] is not None else p["path"]
        lines.append(f"    [{p.get('severity', 'error')}] {where}: {p['message']}")
    if len(problems) > 200:
        lines.append(f"    … and {len(problems) - 200} more (use --json)")
    return "\n".join(lines)

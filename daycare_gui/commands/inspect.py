"""``daycare-gui inspect PATH [--json]`` — what is in a Daycare data directory. Never writes a byte there."""

from __future__ import annotations

import json
import sys

from daycare_gui.core.paths import NotADaycareDirectory
from daycare_gui.core.report import inspect_report


def add_arguments(parser) -> None:
    parser.add_argument("path", help="Daycare root, data dir or settings.json")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--home-skills", action="store_true", help="also read ~/.agents/skills")


def run(args) -> int:
    try:
        report = inspect_report(args.path, include_home_skills=args.home_skills)
    except NotADaycareDirectory as exc:
        if args.json:
            print(json.dumps({"path": args.path, "kind": None, "error": str(exc)}))
        else:
            print(f"daycare-gui: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(_human(report))
    return 0


def _human(r: dict) -> str:
    lines = [f"Daycare store: {r['path']}", f"  generation:   {r['generation']}"]
    for note in r.get("notes", []):
        lines.append(f"  note:         {note}")
    engine = "RUNNING — writes are unsafe" if r["engine_running"] else "not running"
    lines.append(f"  engine:       {engine} ({r['engine']['detail']})")
    if r.get("open_mode"):
        lines.append(f"  opened:       {r['open_mode']}")
    lines.append("  paths:")
    for key, value in r["paths"].items():
        lines.append(f"    {key:<14}{', '.join(value) if isinstance(value, list) else value}")
    m = r["migrations"]
    lines.append(f"  migrations:   {len(m['applied'])} applied, {len(m['pending'])} pending, {len(m['unknown'])} unknown")
    if m["pending"]:
        lines.append(f"    pending:    {', '.join(m['pending'])}")
    if m["unknown"]:
        lines.append(f"    unknown:    {', '.join(m['unknown'])}")
    if m.get("later_pending"):
        lines.append(f"    a later Daycare still lacks: {', '.join(m['later_pending'])}")
    lines.append("  counts:")
    width = max((len(k) for k in r["counts"]), default=10) + 2
    for key, value in r["counts"].items():
        lines.append(f"    {key:<{width}}{value:>10,}")
    problems = r["problems"]
    lines.append(f"  problems:     {len(problems)}")
    for p in problems[:200]:
        where = f"{p['path']}:{p['line']}" if p["line"] is not None else p["path"]
        lines.append(f"    [{p.get('severity', 'error')}] {where}: {p['message']}")
    if len(problems) > 200:
        lines.append(f"    … and {len(problems) - 200} more (use --json)")
    return "\n".join(lines)

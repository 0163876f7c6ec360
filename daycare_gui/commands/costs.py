"""``daycare-gui costs PATH [--by GROUP] [--since DATE] [--json]`` — what a store's model calls cost, priced
from genai-prices' bundled table, totalled by day, model, agent, task or user. Never writes a byte there."""

from __future__ import annotations

import json
import sys

from daycare_gui.commands import options
from daycare_gui.stores import registry
from daycare_gui.stores.api import Automations, CannotOpen, NotRecognised, Usage
from daycare_gui.stores.common.secrets import mask_url


def add_arguments(parser) -> None:
    parser.add_argument("path", help="a store of any kind: Daycare root, data dir or settings.json, or another "
                                     "kind's folder")
    parser.add_argument("--by", choices=("day", "model", "agent", "task", "user", "session"), default="model",
                        help="what each line totals (default: model)")
    options.add_since(parser, "calls")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options.add_kind(parser)


def run(args) -> int:
    from daycare_gui.stores.common.opening import StderrProgress, reporting
    from daycare_gui.stores.common.run_costs import compute_costs

    since = options.since_day(args.since)
    stages = StderrProgress()
    try:
        with reporting(stages):
            store = registry.open_store(args.path, kind=args.kind, live=False)
        stages.finish()
        with store:
            report = compute_costs(store.capability(Usage), store.capability(Automations), args.by, since)
    except (NotRecognised, CannotOpen) as exc:
        stages.finish()
        print(f"daycare-gui: {mask_url(str(exc))}", file=sys.stderr)
        return 2
    if args.json:
        out = report.as_dict()
        out["path"] = mask_url(str(args.path))
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(human(report))
    return 0


def human(report) -> str:
    from daycare_gui.stores.common.costs import money, total_money, unreadable_line

    lines = [f"Prices: {report.table.line()}"]
    if report.source:
        lines.append(f"Usage:  {report.source}")
    if report.empty:
        lines.append(report.empty)
        return "\n".join(lines)
    if report.unreadable.records:
        lines.append(unreadable_line(report) + "; --json lists their keys.")
    width = max([len(t.label) for t in report.totals] + [5]) + 2
    lines.append(f"{report.by.capitalize():<{width}}{'calls':>10} {'tokens':>16} {'cost':>20} {'cache':>6} "
                 f"{'saved':>9}")
    for t in report.totals + [report.overall]:
        flags = []
        if t.estimated_records:
            flags.append(f"{t.estimated_records} estimated")
        if t.unsure_records:
            flags.append("estimates cannot be told apart")
        note = f"  ({'; '.join(flags)})" if flags else ""
        share = "" if t.cache_read_share is None else f"{t.cache_read_share:.0%}"
        saved = money(t.saved) if t.saved else ""
        lines.append(f"{t.label:<{width}}{t.records:>10,} {t.tokens:>16,} {total_money(t):>20} {share:>6} "
                     f"{saved:>9}{note}")
    if report.unpriced:
        lines.append("Unpriced (not in the price table; tokens kept, not counted as $0):")
        for model, (tokens, why) in report.unpriced.items():
            lines.append(f"  {model}: {tokens:,} tokens — {why}")
    saved = [t for t in report.models_cache if t.cache_read]
    if saved:
        lines.append("Cache reads by model (share of input, saved against paying them as input):")
        for t in saved:
            lines.append(f"  {t.label}: {t.cache_read_share:.0%}, saved {money(t.saved)}")
    sessions = [t for t in report.sessions_cache if t.cache_read]
    if sessions:
        lines.append(f"Cache reads by session and model, the {min(len(sessions), 10)} that saved most of "
                     f"{len(sessions)} (--json lists them all):")
        for t in sessions[:10]:
            lines.append(f"  {t.label}: {t.cache_read_share:.0%}, saved {money(t.saved)}")
    if report.stored:
        lines.append("The store's own cost beside the recomputed one (day, model):")
        for s in report.stored:
            own = "—" if s.stored_usd is None else f"${s.stored_usd:,.4f}"
            lines.append(f"  {s.day} {s.model}: store {own}, recomputed {money(s.usd) if s.tokens else '—'} — {s.why}")
        if report.stored_note:
            lines.append(f"  {report.stored_note}")
    return "\n".join(lines)


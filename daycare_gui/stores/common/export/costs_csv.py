"""A costs table (``stores/common/costs.CostReport``) as CSV: one line per total, then the overall one.

Costs are exact decimals (``usd``) beside the rounded figure a person reads; unpriced tokens are their own
column, never folded in as $0; calls whose token counts cannot be read are a last line of their own, with no
figures (the overall line does not count them). A label from the store that a spreadsheet would run as a formula (starting
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is prefixed with ``'``: a store is untrusted.
"""

from __future__ import annotations

import csv

COLUMNS = ("group", "label", "calls", "input", "output", "cache_read", "cache_write", "tokens", "usd",
           "usd_cents", "unpriced_calls", "unpriced_tokens", "estimated_calls", "calls_estimates_unknown",
           "cache_read_share", "saved_by_cache_usd", "price_table")


def _cell(value) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def write_costs_csv(report, out) -> int:
    """Write ``report`` to the text stream ``out``; returns the number of total lines written."""
    from daycare_gui.stores.common.pricing import cents

    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    table = report.table.line()
    rows = 0
    for t in [*report.totals, report.overall]:
        share = t.cache_read_share
        writer.writerow([_cell(v) for v in (
            t.group if t is not report.overall else "", t.label, t.records, t.input, t.output, t.cache_read,
            t.cache_write, t.tokens, t.usd, cents(t.usd), t.unpriced_records, t.unpriced_tokens,
            t.estimated_records, t.unsure_records, "" if share is None else f"{share:.4f}", t.saved, table)])
        rows += 1
    lost = report.unreadable
    if lost.records:  # (after the overall line, which does not count them; no cost, not $0)
        line = dict.fromkeys(COLUMNS, "")
        line.update(group="unreadable", label=f"{lost.label}: {report.unreadable_why}", calls=lost.records,
                    price_table=table)
        writer.writerow([_cell(line[c]) for c in COLUMNS])
        rows += 1
    return rows

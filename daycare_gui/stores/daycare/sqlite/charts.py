"""Daycare's SQLite store through ``api.Charts``: history records per day (``core/queries/overview``'s
activity), tokens per model per day from the usage each assistant message records, and each model's
total from the agents' stats (what a store whose messages record no usage still says)."""

from __future__ import annotations

import datetime as _dt
import itertools
import json
import re

from daycare_gui.stores.api import Charts
from daycare_gui.stores.common.token_counts import token_count
from daycare_gui.stores.records import DayCount

# Each assistant_message carries {"tokens": {"provider", "model", "size": {"input", "output", ...}}}: summed
# per day and model here (agents.stats holds only each agent's totals, with no day). Read as Costs reads a
# call: one whose counts cannot be read (another tool's text, a list) is in no sum, and counted apart. The
# model and the four counts come in one JSON array (one parse of the record, not one per field); the usual
# array of plain numbers is read by the pattern below, anything else as JSON.
# Read a page of rows at a time (by id): a million records' rows at once would be ~100 MB.
_TOKENS_SQL = """
    SELECT id, at / 86400000, json_extract(data, '$.tokens.model', '$.tokens.size.input', '$.tokens.size.output',
                                           '$.tokens.size.cacheRead', '$.tokens.size.cacheWrite'),
           json_type(data, '$.tokens.size')
    FROM session_history
    WHERE id > :after AND type = 'assistant_message' AND json_valid(data) AND json_type(data, '$.tokens') <> 'null'
    ORDER BY id LIMIT :n
"""
_PAGE = 20_000
_PLAIN = re.compile(r'\[("(?:[^"\\]|\\.)*"|null),(\d+|null),(\d+|null),(?:\d+|null),(?:\d+|null)\]').fullmatch


def token_days(pages) -> tuple[dict[tuple[int, str], int], int]:
    """Pages of ``(id, day, [model, input, output, cacheRead, cacheWrite] as JSON text, the sizes' JSON
    type)`` rows → (input + output tokens per (day, model), the calls whose counts cannot be read)."""
    sums: dict[tuple[int, str], int] = {}
    unreadable = 0
    models: dict[str, str] = {}  # (a model's name as JSON → its text: a handful of names, decoded once each)
    for _id, day, values, sized in itertools.chain.from_iterable(pages):
        if day is None:
            continue
        plain = _PLAIN(values) if sized == "object" else None
        if plain is not None:
            name, inp, out = plain.groups()
            model = models.get(name)
            if model is None:
                model = models[name] = "" if name == "null" else str(json.loads(name))
            n = (0 if inp == "null" else int(inp)) + (0 if out == "null" else int(out))
        else:
            model, *stored = json.loads(values) if sized == "object" else (None, None)
            counts = [token_count(v) for v in stored]
            if sized != "object" or None in counts:
                unreadable += 1
                continue
            model = model if isinstance(model, str) else ""
            n = counts[0] + counts[1]
        key = (int(day), model)
        sums[key] = sums.get(key, 0) + n
    return sums, unreadable


def _day(ms: int) -> str:
    return _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc).strftime("%Y-%m-%d")


class DaycareCharts(Charts):
    def __init__(self, core) -> None:
        self.core = core

    def activity_per_day(self) -> list[DayCount]:
        from daycare_gui.stores.daycare.sqlite.queries.history import activity_per_day

        if not self.core.has_table("session_history"):
            return []
        return [DayCount(_day(ms), "", float(n)) for ms, n in activity_per_day(self.core.db)]

    _unreadable = None  # calls the last tokens_per_day left out (its counts cannot be read)

    def tokens_per_day(self) -> list[DayCount]:
        if not self.core.has_table("session_history"):
            self._unreadable = 0
            return []
        sums, self._unreadable = token_days(self._token_pages())
        return [DayCount(_day(d * 86400000), m, float(v)) for (d, m), v in sorted(sums.items())]

    def _token_pages(self):
        after = -1
        while True:
            rows = self.core.db.fetch(_TOKENS_SQL, {"after": after, "n": _PAGE})
            yield rows
            if len(rows) < _PAGE:
                return
            after = rows[-1][0]

    def unreadable_token_calls(self) -> int:
        if self._unreadable is None:
            self.tokens_per_day()
        return self._unreadable or 0

    def tokens_by_model(self) -> list[tuple[str, float]]:
        from daycare_gui.stores.daycare.sqlite.queries.agents import token_usage_by_model

        totals = token_usage_by_model(self.core.db, self.core.cols)  # largest first
        return [(f"{provider} / {model}", float(size.input + size.output)) for (provider, model), size in totals.items()]

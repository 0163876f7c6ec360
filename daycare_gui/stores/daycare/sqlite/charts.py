"""Daycare's SQLite store through ``api.Charts``: history records per day (``core/queries/overview``'s
activity), tokens per model per day from the usage each assistant message records, and each model's
total from the agents' stats (what a store whose messages record no usage still says)."""

from __future__ import annotations

import datetime as _dt

from daycare_gui.stores.api import Charts
from daycare_gui.stores.records import DayCount

# Each assistant_message carries {"tokens": {"provider", "model", "size": {"input", "output", ...}}}: summed
# per day in SQL (agents.stats holds only each agent's totals, with no day).
_TOKENS_SQL = """
    SELECT (at / 86400000) AS d, coalesce(json_extract(data, '$.tokens.model'), '') AS model,
           sum(coalesce(json_extract(data, '$.tokens.size.input'), 0)
               + coalesce(json_extract(data, '$.tokens.size.output'), 0))
    FROM session_history
    WHERE type = 'assistant_message' AND json_valid(data) AND json_type(data, '$.tokens.size') = 'object'
    GROUP BY d, model ORDER BY d, model
"""


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

    def tokens_per_day(self) -> list[DayCount]:
        if not self.core.has_table("session_history"):
            return []
        return [DayCount(_day(int(d) * 86400000), str(m), float(v)) for d, m, v in self.core.db.rows(_TOKENS_SQL)
                if d is not None]

    def tokens_by_model(self) -> list[tuple[str, float]]:
        from daycare_gui.stores.daycare.sqlite.queries.agents import token_usage_by_model

        totals = token_usage_by_model(self.core.db, self.core.cols)  # largest first
        return [(f"{provider} / {model}", float(size.input + size.output)) for (provider, model), size in totals.items()]

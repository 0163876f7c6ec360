"""Today's Daycare (PGlite / PostgreSQL) through ``api.Usage``: the tokens each ``assistant_message`` record
carries (with ``source`` "usage" or "estimate"), read in pages by row id; and, beside them, the cost Daycare
keeps itself in ``token_stats_hourly`` (USD, per hour, user, agent and "provider/model").

The hourly table is shown, never added: it counts a subset of the same calls.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator

from daycare_gui.stores.api import Usage
from daycare_gui.stores.daycare.sqlite.usage import usage_record
from daycare_gui.stores.records import StoredCost, UsageRecord

_PAGE = 2000


def _task_of(path: str) -> str:
    """``/<user>/task/<taskId>`` is the agent Daycare runs a task's triggers in."""
    parts = (path or "").strip("/").split("/")
    return parts[2] if len(parts) >= 3 and parts[1] == "task" else ""


class DaycarePgUsage(Usage):
    source = ("the tokens each assistant_message record carries (one per model call, marked usage or "
              "estimate); Daycare's hourly table (token_stats_hourly) is shown beside, not added")
    stored_cost_note = ("token_stats_hourly.cost is what Daycare priced itself (its own price table, USD, float4). "
                        "It misses calls that bypass it (compaction, memory and tool inference, context overflow) "
                        "and every estimate; its hour comes from the provider's message time, not the record's.")

    def __init__(self, store) -> None:
        self.store = store

    @property
    def db(self):
        return self.store.db

    def _agents(self) -> dict[str, tuple[str, str, str]]:
        cols = set(self.db.columns("agents"))
        name = "coalesce(name, path, id)" if "name" in cols else "coalesce(path, id)"
        user = "user_id" if "user_id" in cols else "''"
        path = "path" if "path" in cols else "''"
        rows = self.db.rows(f"SELECT id, {name}, {user}, {path} FROM agents{self.store.current('agents')}")
        return {str(i): (str(t or ""), str(u or ""), _task_of(str(p or ""))) for i, t, u, p in rows}

    def records(self, since: int | None = None) -> Iterator[UsageRecord]:
        if not (self.store.has("session_history") and self.store.has("sessions")):
            return
        agents = self._agents()
        after = -1
        while True:
            rows = self.db.rows(
                "SELECT h.id, h.session_id, s.agent_id, h.at, h.data->'tokens' "
                "FROM session_history h LEFT JOIN sessions s ON s.id = h.session_id "
                "WHERE h.id > :after AND h.type = 'assistant_message' "
                # (a call that stored tokens it said it used, whatever they hold: null is none)
                "AND jsonb_typeof(h.data->'tokens') <> 'null' "
                "AND (CAST(:since AS bigint) IS NULL OR h.at >= CAST(:since AS bigint)) "
                "ORDER BY h.id LIMIT :n", {"after": after, "since": since, "n": _PAGE})
            for row_id, session_id, agent_id, at, tokens in rows:
                agent = str(agent_id or "")
                title, user, task = agents.get(agent, ("", "", ""))
                rec = usage_record(f"h{row_id}", row_id, str(session_id or ""), agent, at, tokens,
                                   title=title, user=user, task=task)
                if rec is not None:
                    yield rec
            if len(rows) < _PAGE:
                return
            after = rows[-1][0]

    def user_names(self) -> dict[str, str]:
        from daycare_gui.stores.common.wording import person_label

        if not self.store.has("users"):
            return {}
        cols = set(self.db.columns("users"))
        pick = ", ".join(c if c in cols else f"NULL AS {c}" for c in ("id", "first_name", "last_name", "nametag"))
        rows = self.db.rows(f"SELECT {pick} FROM users{self.store.current('users')}")
        return {str(uid): person_label(" ".join(str(x) for x in (first, last) if x), nametag, str(uid))
                for uid, first, last, nametag in rows}

    def stored_costs(self) -> list[StoredCost]:
        if not self.store.has("token_stats_hourly"):
            return []
        rows = self.db.rows(
            "SELECT (hour_start / 86400000) AS d, model, sum(coalesce(cost, 0)), sum(coalesce(input_tokens, 0)), "
            "sum(coalesce(output_tokens, 0)), sum(coalesce(cache_read_tokens, 0)), "
            "sum(coalesce(cache_write_tokens, 0)) FROM token_stats_hourly GROUP BY d, model ORDER BY d, model")
        out = []
        for d, model, cost, i, o, cr, cw in rows:
            day = _dt.datetime.fromtimestamp(int(d) * 86400, tz=_dt.timezone.utc).strftime("%Y-%m-%d")
            out.append(StoredCost(day, "", str(model or ""), float(cost or 0), int(i or 0), int(o or 0),
                                  int(cr or 0), int(cw or 0)))
        return out

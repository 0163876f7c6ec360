"""A legacy (files-only) store's agents as the shared thread list: a few folders read into memory once,
so the filters and sorts the SQLite generation runs in SQL run here over those records."""

from __future__ import annotations

from daycare_gui.stores.api import THREADS
from daycare_gui.stores.daycare.sqlite.threads import AGENT_COLUMNS, AGENT_SORTS, LIFECYCLES, agent_row
from daycare_gui.stores.records import FilterSpec, Query, Row

# Sort keys over the records (the SQLite generation's AGENT_SORTS, computed in Python).
_VALUE = {"name": lambda a: a.name.casefold(), "user": lambda a: a.user_id or "",
          "tokens": lambda a: a.token_total.total}


class LegacyThreadListing:
    """Mixed into LegacyConversations, whose ``_agents()`` is ``{"agents": {id: Agent}, "sessions": …}``."""

    def thread_columns(self) -> tuple[str, ...]:
        return AGENT_COLUMNS

    def sorts(self, list_id: str) -> tuple[str, ...]:
        return tuple(AGENT_SORTS) if list_id == THREADS else ()

    def filters(self, list_id: str) -> tuple[FilterSpec, ...]:
        if list_id != THREADS:
            return ()
        kinds = sorted({a.type for a in self._agents()["agents"].values()})
        # No user filter: legacy agents have no users yet (Daycare's import creates them).
        return (FilterSpec("kind", "kind", "choice", tuple((k, k) for k in kinds)),
                FilterSpec("lifecycle", "lifecycle", "choice", tuple((s, s) for s in LIFECYCLES)),
                FilterSpec("updated", "Updated", "time"))

    def keys(self, list_id: str, query: Query) -> list[str]:
        if list_id != THREADS:
            return []
        kind, life, text = query.choice("kind"), query.choice("lifecycle"), query.text.strip().casefold()
        agents = [a for a in self._agents()["agents"].values()
                  if (not kind or a.type == kind) and (not life or a.lifecycle == life)
                  and (query.since is None or (a.updated_at or 0) >= query.since)
                  and (query.until is None or (a.updated_at or 0) < query.until)
                  and (not text or text in a.id.casefold() or text in a.name.casefold())]
        sort = AGENT_SORTS.get(query.sort, "updated_at")
        value = _VALUE.get(sort, lambda a: getattr(a, sort, None))
        descending = query.descending if query.sort else True
        agents.sort(key=lambda a: (value(a) is None, 0 if value(a) is None else value(a), a.id), reverse=descending)
        return [a.id for a in agents]

    def fetch(self, list_id: str, keys: list[str]) -> list[Row]:
        if list_id != THREADS:
            return []
        r = self._agents()
        return [agent_row(r["agents"][k], r["agents"][k].user_id or "", len(r["sessions"].get(k, ())))
                for k in keys if k in r["agents"]]

    def totals(self, list_id: str, query: Query) -> dict[str, int]:
        return {}

"""AgentStack through ``api.Usage``: the only token figure it keeps, ``agent_resource_metrics.tokens_consumed``
(input and output added together, one running total per agent, no model, written only when its resource
monitoring is on, deleted when the agent stops). One record per agent, unpriced (no model), its tokens
shown as input because AgentStack does not split them. ``resource_exhaustion_events.metrics`` holds copies of
the same running totals and is never added to them.
"""

from __future__ import annotations

from collections.abc import Iterator

from daycare_gui.stores.api import Usage
from daycare_gui.stores.common.token_counts import read_counts
from daycare_gui.stores.records import UsageRecord


class AgentStackUsage(Usage):
    source = ("agent_resource_metrics.tokens_consumed: each running agent's input and output tokens added "
              "together, with no model (so unpriced), shown as input; snapshots in resource_exhaustion_events "
              "are not added")

    def __init__(self, store) -> None:
        self.store = store

    def records(self, since: int | None = None) -> Iterator[UsageRecord]:
        rows = self.store.db.rows("SELECT agent_id, tokens_consumed, updated_at FROM agent_resource_metrics "
                                  "WHERE coalesce(tokens_consumed, 0) > 0 ORDER BY agent_id")
        for agent_id, tokens, updated in rows:
            at = updated if isinstance(updated, int) else None
            if since is not None and (at is None or at < since):
                continue
            (n,), problem = read_counts({"tokens_consumed": tokens})
            yield UsageRecord(key=f"metrics:{agent_id}", at=at, provider="", model="", input=n,
                              thread_title=str(agent_id), estimated=False, problem=problem)


def offers_usage(store) -> bool:
    return store.has("agent_resource_metrics", "tokens_consumed") and store.has("agent_resource_metrics", "agent_id")

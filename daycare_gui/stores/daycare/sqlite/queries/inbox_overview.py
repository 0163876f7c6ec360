"""The inbox as the Inbox page shows it: every item with its agent's name, age and whether it is stuck.

``now_ms`` is always passed in (never read from the clock here) so the same store gives the same answer in
tests and the caller decides what "now" is.
"""

from __future__ import annotations

from dataclasses import dataclass

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.daycare.records.subsystems import InboxItem
from daycare_gui.stores.daycare.sqlite.queries.agents import fetch_agents
from daycare_gui.stores.daycare.sqlite.queries.columns import TableColumns
from daycare_gui.stores.daycare.sqlite.queries.inbox import InboxFilter, inbox_counts, is_stuck, list_inbox


@dataclass(frozen=True)
class InboxEntry:
    item: InboxItem
    agent_name: str | None  # None when the agent row is gone (inbox.agent_id has no foreign key)
    stuck: bool
    age_ms: int

    @property
    def id(self) -> str:
        return self.item.id

    @property
    def agent_id(self) -> str:
        return self.item.agent_id

    @property
    def agent_label(self) -> str:
        return self.agent_name or f"{self.item.agent_id} (no such agent)"


@dataclass(frozen=True)
class InboxAgent:
    """An agent that has inbox items, for the agent selector."""

    agent_id: str
    name: str | None
    items: int
    stuck: int

    @property
    def label(self) -> str:
        name = self.name or self.agent_id
        return f"{name} — {count(self.items, 'item')}" + (f", {self.stuck} stuck" if self.stuck else "")


def _agent_names(db: ReadOnlyDatabase, ids: list[str], cols: TableColumns) -> dict[str, str]:
    return {aid: agent.name for aid, agent in fetch_agents(db, ids, cols).items()}


def inbox_overview(db: ReadOnlyDatabase, now_ms: int, agent_id: str | None = None, *,
                   cols: TableColumns | None = None, flt: InboxFilter | None = None,
                   after: InboxEntry | None = None, limit: int = 5000) -> list[InboxEntry]:
    """Items oldest first (all agents, or one; or as ``flt`` narrows), each with its agent's name and stuck
    flag; a page of ``limit`` that continues after the entry ``after`` by key."""
    cols = cols or TableColumns(db)
    key = (after.item.posted_at, after.item.id) if after is not None else None
    items = list_inbox(db, cols=cols, flt=flt or InboxFilter(agent_id), now_ms=now_ms, after=key, limit=limit)
    names = _agent_names(db, sorted({i.agent_id for i in items}), cols)
    return [InboxEntry(i, names.get(i.agent_id), is_stuck(i, now_ms), max(0, now_ms - i.posted_at)) for i in items]


def inbox_agents(db: ReadOnlyDatabase, now_ms: int, *, cols: TableColumns | None = None) -> list[InboxAgent]:
    """Agents with inbox items, most stuck first, then by name."""
    cols = cols or TableColumns(db)
    counts = inbox_counts(db, now_ms, cols)
    names = _agent_names(db, sorted(counts), cols)
    out = [InboxAgent(aid, names.get(aid), n, stuck) for aid, (n, stuck) in counts.items()]
    return sorted(out, key=lambda a: (-a.stuck, (a.name or a.agent_id).lower()))

"""Display names for the user and agent ids other tables mention, so every page names people the same way.

Users are few (every one is read); agents can be thousands, so only the ids asked for are read. A page asks
once per load, in the worker, and formats with :class:`Names` — a user is their name, else @nametag, else
the id; an agent is its name. The id itself goes in a tooltip or in brackets in the detail pane.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from daycare_gui.stores.common.wording import labelled, person_label
from daycare_gui.stores.daycare.sqlite.queries.agents import fetch_agents
from daycare_gui.stores.daycare.sqlite.queries.users import list_users

# Columns (in any table) that hold a users.id or an agents.id.
USER_ID_COLUMNS = frozenset({"user_id", "parent_user_id", "user_a_id", "user_b_id"})
AGENT_ID_COLUMNS = frozenset({"agent_id", "leader", "parent_agent_id"})


@dataclass(frozen=True)
class Names:
    users: dict[str, str] = field(default_factory=dict)
    agents: dict[str, str] = field(default_factory=dict)

    def user(self, ident: str | None) -> str:
        """The user's name (or @nametag); the id when the store does not know it."""
        return self.users.get(ident, ident or "") if ident else ""

    def agent(self, ident: str | None) -> str:
        return self.agents.get(ident, ident or "") if ident else ""

    def user_field(self, ident: str | None) -> str:
        """"Alex Rivera (u_1)" for the detail pane."""
        return labelled(self.users.get(ident), ident) if ident else ""

    def agent_field(self, ident: str | None) -> str:
        return labelled(self.agents.get(ident), ident) if ident else ""

    def of_column(self, column: str, value) -> str | None:
        """The label for ``value`` when ``column`` holds a user or agent id it knows, else None."""
        if not isinstance(value, str) or not value:
            return None
        if column in USER_ID_COLUMNS:
            return self.users.get(value)
        if column in AGENT_ID_COLUMNS:
            return self.agents.get(value)
        return None


def user_names(store) -> dict[str, str]:
    if store.db is None:
        return {}
    return {u.id: person_label(u.name, u.nametag, u.id) for u in list_users(store.db, store.cols)}


def load_names(store, agent_ids: Iterable[str] = ()) -> Names:
    """Every user's display name and the names of ``agent_ids`` (runs queries: call it in the worker)."""
    if store.db is None:
        return Names()
    wanted = sorted({a for a in agent_ids if isinstance(a, str) and a})
    agents = {aid: a.name for aid, a in fetch_agents(store.db, wanted, store.cols).items() if a.name}
    return Names(user_names(store), agents)


def names_for_rows(store, rows) -> Names:
    """Names for the user and agent ids in ``rows`` (``ShownRow``s of any table)."""
    agent_ids = {v for r in rows for c, v in r.values.items() if c in AGENT_ID_COLUMNS and isinstance(v, str)}
    return load_names(store, agent_ids)

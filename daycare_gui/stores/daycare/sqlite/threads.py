"""A SQLite store's agents as the shared thread list: keys filtered and sorted in SQL, rows read by key.

``core/queries/agents`` already lists only the ids in display order (``list_agent_ids``: kind, lifecycle,
user, words and time in a WHERE clause; seven sort keys computed in SQL) and reads rows by id
(``fetch_agents``). This mixin phrases them in the shared :class:`~daycare_gui.stores.api.Listing` words, so
a store of 100,000 agents is never scanned in Python.
"""

from __future__ import annotations

from daycare_gui.stores.api import THREADS, when_utc
from daycare_gui.stores.common.wording import person_label
from daycare_gui.stores.daycare.records.agents import DESCRIPTOR_KINDS
from daycare_gui.stores.daycare.records.json_values import Unparsed
from daycare_gui.stores.daycare.sqlite.queries.agents import (
    AgentFilter,
    distinct_values,
    fetch_agents,
    list_agent_ids,
)
from daycare_gui.stores.records import FilterSpec, Query, Row

# Column titles → the key list_agent_ids sorts by in SQL, in the order the cells read.
AGENT_SORTS = {"Name": "name", "Kind": "type", "Lifecycle": "lifecycle", "User": "user",
               "Created": "created_at", "Updated": "updated_at", "Tokens": "tokens"}
AGENT_COLUMNS = ("Name", "Kind", "Lifecycle", "User", "Sessions", "Created", "Updated", "Tokens")
LIFECYCLES = ("active", "sleeping", "dead")


def agent_filter(query: Query):
    """The shared query as the agents' SQL filter (``core.queries.agents.AgentFilter``)."""
    kind, life = query.choice("kind"), query.choice("lifecycle")
    return AgentFilter(kinds=(kind,) if kind else (), lifecycles=(life,) if life else (),
                       user_id=query.choice("user") or None, text=query.text,
                       updated_since=query.since, updated_until=query.until)


def agent_markdown(agent) -> str:
    """What the detail pane says of an agent beyond its columns: descriptor and permission facts, the
    problems of its row, then its system prompt."""
    facts: list[tuple[str, str]] = [("Id", agent.id), ("Active session", agent.active_session_id or "")]
    d = agent.descriptor
    if not isinstance(d, Unparsed):
        facts += [("Connector", d.connector), ("Connector user", d.user_id), ("Channel", d.channel_id),
                  ("Tag", d.tag), ("Parent agent", d.parent_agent_id), ("App", d.app_id),
                  ("Username", d.username), ("Description", d.description)]
    p = agent.permissions
    if not isinstance(p, Unparsed):
        facts += [("Working dir", p.working_dir or ""), ("Write dirs", ", ".join(p.write_dirs)),
                  ("Read dirs", ", ".join(p.read_dirs)),
                  ("Network", "" if p.network is None else str(p.network)),
                  ("Events", "" if p.events is None else str(p.events))]
    total = agent.token_total
    facts.append(("Tokens in / out", f"{total.input:,} / {total.output:,}"))
    facts += [("Problem", problem) for problem in agent.problems()]
    lines = [f"- **{label}:** `{value}`" for label, value in facts if value]
    prompt = None if isinstance(d, Unparsed) else d.system_prompt
    if prompt:
        lines += ["", "### System prompt", "", prompt]
    return "\n".join(lines)


def agent_row(agent, user_label: str, sessions: int | None) -> Row:
    return Row(agent.id, (agent.name, agent.type, agent.lifecycle, user_label, sessions,
                          when_utc(agent.created_at), when_utc(agent.updated_at), agent.token_total.total),
               raw=agent.raw, markdown=agent_markdown(agent), flag="dead" if agent.lifecycle == "dead" else "",
               problem="; ".join(agent.problems()) or None)


def session_meta(s) -> tuple[tuple[str, str], ...]:
    """A session's facts beyond the shared columns, for the detail pane (as the old Sessions table had)."""
    facts = (("Reset message", s.reset_message), ("Inference session", s.inference_session_id),
             ("Invalidated at record", getattr(s, "invalidated_at", None)),
             ("Processed until record", getattr(s, "processed_until", None)))
    return tuple((label, str(value)) for label, value in facts if value not in (None, ""))


class SqliteThreadListing:
    """Mixed into the SQLite store's Conversations (``self.core`` is its ``core.store.Store``)."""

    core = None

    def thread_columns(self) -> tuple[str, ...]:
        return AGENT_COLUMNS

    def sorts(self, list_id: str) -> tuple[str, ...]:
        return tuple(AGENT_SORTS) if list_id == THREADS else ()

    def filters(self, list_id: str) -> tuple[FilterSpec, ...]:
        if list_id != THREADS:
            return ()
        db, cols = self.core.db, self.core.cols
        users = []
        if "user_id" in cols.of("agents"):
            labels = _user_labels(db, cols, None)
            users = [(u, labels.get(u, u)) for u in distinct_values(db, "user_id", cols)]
        out = [FilterSpec("kind", "kind", "choice", tuple((k, k) for k in DESCRIPTOR_KINDS)),
               FilterSpec("lifecycle", "lifecycle", "choice", tuple((s, s) for s in LIFECYCLES))]
        if users:
            out.append(FilterSpec("user", "user", "choice", tuple(users)))
        return (*out, FilterSpec("updated", "Updated", "time"))

    def keys(self, list_id: str, query: Query) -> list[str]:
        if list_id != THREADS:
            return []
        sort = AGENT_SORTS.get(query.sort, "updated_at")
        descending = query.descending if query.sort else True  # the list's own order: latest first
        return list_agent_ids(self.core.db, agent_filter(query), sort=sort, descending=descending,
                              cols=self.core.cols)

    def fetch(self, list_id: str, keys: list[str]) -> list[Row]:
        if list_id != THREADS or not keys:
            return []
        db, cols = self.core.db, self.core.cols
        agents = fetch_agents(db, list(keys), cols)
        owners = {a.user_id for a in agents.values() if a.user_id}
        labels = _user_labels(db, cols, owners)
        counts = _session_counts(db, cols, list(agents))
        return [agent_row(a, labels.get(a.user_id, a.user_id or ""), counts.get(a.id, 0 if counts else None))
                for a in (agents[k] for k in keys if k in agents)]

    def totals(self, list_id: str, query: Query) -> dict[str, int]:
        return {}


def _user_labels(db, cols, ids: set[str] | None) -> dict[str, str]:
    """Owner id → what the User column calls them (name, else @nametag, else the id); only ``ids``."""
    if not cols.has_table("users") or ids is not None and not ids:
        return {}
    select = cols.select_list("users", ["id", "name", "nametag"])
    if ids is None:
        rows = db.rows(f"SELECT {select} FROM users")
    else:
        wanted = sorted(ids)[:900]  # a screen's owners: a handful (SQLite's variable limit is far above)
        params = {f"u{i}": v for i, v in enumerate(wanted)}
        rows = db.rows(f"SELECT {select} FROM users WHERE id IN ({', '.join(':' + k for k in params)})", params)
    return {r[0]: person_label(r[1], r[2], r[0]) for r in rows}


def _session_counts(db, cols, ids: list[str]) -> dict[str, int]:
    """Sessions per agent for the rows read (one grouped query over the agent index), {} without sessions."""
    if not ids or not cols.has_table("sessions"):
        return {}
    out: dict[str, int] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        params = {f"i{i}": v for i, v in enumerate(chunk)}
        for agent_id, n in db.rows(f"SELECT agent_id, count(*) FROM sessions WHERE agent_id IN "
                                   f"({', '.join(':' + k for k in params)}) GROUP BY agent_id", params):
            out[agent_id] = n
    return {i: out.get(i, 0) for i in ids}

"""Agents: list (filtered and sorted in SQL), one by id, token usage aggregates."""

from __future__ import annotations

from dataclasses import dataclass, field

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.records.agents import (
    AgentDescriptor,
    SessionPermissions,
    TokenEntry,
    TokenSize,
    TokenStats,
    parse_descriptor,
    parse_permissions,
    parse_stats,
    parse_tokens,
)
from daycare_gui.stores.daycare.records.json_values import Unparsed
from daycare_gui.stores.daycare.sqlite.queries.columns import TableColumns

AGENT_COLUMNS = [
    "id", "user_id", "type", "descriptor", "active_session_id", "permissions", "tokens", "stats",
    "lifecycle", "created_at", "updated_at",
]
SORTABLE = {"id", "type", "lifecycle", "user_id", "created_at", "updated_at", "name", "user", "tokens"}


@dataclass(frozen=True)
class Agent:
    id: str
    user_id: str | None
    type: str
    descriptor: AgentDescriptor | Unparsed
    active_session_id: str | None
    permissions: SessionPermissions | Unparsed
    tokens: TokenEntry | None | Unparsed
    stats: TokenStats | Unparsed
    lifecycle: str
    created_at: int | None
    updated_at: int | None
    raw: dict = field(default_factory=dict, repr=False)  # the row as stored, for the raw view

    @property
    def name(self) -> str:
        if isinstance(self.descriptor, Unparsed):
            return f"{self.id} (descriptor unreadable)"
        return self.descriptor.display_name

    @property
    def token_total(self) -> TokenSize:
        return self.stats.total if isinstance(self.stats, TokenStats) else TokenSize()

    def problems(self) -> list[str]:
        out = []
        for label, value in (("descriptor", self.descriptor), ("permissions", self.permissions),
                             ("tokens", self.tokens), ("stats", self.stats)):
            if isinstance(value, Unparsed):
                out.append(f"agent {self.id}: {label} {value.reason}")
        return out


def agent_from_row(row) -> Agent:
    m = dict(row._mapping)
    return Agent(
        id=m["id"],
        user_id=m.get("user_id"),
        type=m.get("type") or "?",
        descriptor=parse_descriptor(m.get("descriptor")),
        active_session_id=m.get("active_session_id"),
        permissions=parse_permissions(m.get("permissions")),
        tokens=parse_tokens(m.get("tokens")),
        stats=parse_stats(m.get("stats") if m.get("stats") is not None else "{}"),
        lifecycle=m.get("lifecycle") or "active",
        created_at=m.get("created_at"),
        updated_at=m.get("updated_at"),
        raw=m,
    )


@dataclass(frozen=True)
class AgentFilter:
    kinds: tuple[str, ...] = ()
    lifecycles: tuple[str, ...] = ()
    user_id: str | None = None
    text: str = ""  # matched against id and descriptor text (names, prompts) in SQL
    updated_since: int | None = None  # ms; agents active (updated) since then
    updated_until: int | None = None

    def where(self) -> tuple[str, dict]:
        parts, params = [], {}
        if self.kinds:
            keys = [f"k{i}" for i in range(len(self.kinds))]
            parts.append(f"type IN ({', '.join(':' + k for k in keys)})")
            params.update(dict(zip(keys, self.kinds)))
        if self.lifecycles:
            keys = [f"l{i}" for i in range(len(self.lifecycles))]
            parts.append(f"lifecycle IN ({', '.join(':' + k for k in keys)})")
            params.update(dict(zip(keys, self.lifecycles)))
        if self.user_id:
            parts.append("user_id = :user_id")
            params["user_id"] = self.user_id
        if self.updated_since is not None:
            parts.append("updated_at >= :since")
            params["since"] = self.updated_since
        if self.updated_until is not None:
            parts.append("updated_at < :until")
            params["until"] = self.updated_until
        if self.text.strip():
            parts.append("(id LIKE :text ESCAPE '\\' OR descriptor LIKE :text ESCAPE '\\')")
            escaped = self.text.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            params["text"] = f"%{escaped}%"
        return (" WHERE " + " AND ".join(parts)) if parts else "", params


def list_agent_ids(db: ReadOnlyDatabase, flt: AgentFilter = AgentFilter(), *, sort: str = "updated_at",
                   descending: bool = True, cols: TableColumns | None = None) -> list[str]:
    """Only the keys, in display order: a model holds these and fetches rows on demand.

    ``sort`` is a column or one of the derived keys the Agents table shows: ``name`` (the descriptor's
    display name), ``user`` (the owner's name) and ``tokens`` (total tokens over every model)."""
    cols = cols or TableColumns(db)
    if not cols.has_table("agents"):
        return []
    have = set(cols.of("agents"))
    if flt.user_id and "user_id" not in have:  # an older database without users: nothing to filter by
        flt = AgentFilter(flt.kinds, flt.lifecycles, None, flt.text, flt.updated_since, flt.updated_until)
    where, params = flt.where()
    key = _sort_key(sort if sort in SORTABLE else "id", have, cols)
    order = f"{key} {'DESC' if descending else 'ASC'}, id"
    return [r[0] for r in db.rows(f"SELECT id FROM agents{where} ORDER BY {order}", params)]


# -- sort keys computed in SQL, so a click on any header re-sorts the keys without loading rows ----------------

def _text(doc: str, key: str) -> str:
    """A descriptor key as the parser reads it: its string value, NULL when missing, empty or not a string."""
    return f"NULLIF(CASE WHEN json_type({doc}, '$.{key}') = 'text' THEN json_extract({doc}, '$.{key}') END, '')"


def _name_key() -> str:
    """``AgentDescriptor.display_name`` (and ``Agent.name`` for an unreadable descriptor) in SQL."""
    # CASE is evaluated lazily, so json_type never sees text that is not JSON (it would raise).
    doc = "(CASE WHEN json_valid(descriptor) THEN CASE WHEN json_type(descriptor) = 'object' THEN descriptor END END)"
    t = lambda key: _text(doc, key)  # noqa: E731
    kind = f"CASE WHEN json_type({doc}, '$.type') = 'text' THEN json_extract({doc}, '$.type') END"
    same = f"coalesce({t('channelId')} = {t('userId')}, 0)"
    return f"""(CASE
        WHEN ({kind}) IS NULL THEN id || ' (descriptor unreadable)'
        WHEN ({kind}) = 'user' THEN coalesce({t('connector')}, '?') || ' user ' || coalesce({t('userId')}, '?')
             || CASE WHEN {t('channelId')} IS NOT NULL AND NOT {same} THEN ' · ' || {t('channelId')} ELSE '' END
        WHEN ({kind}) = 'cron' THEN coalesce({t('name')}, 'cron ' || coalesce({t('id')}, '?'))
        WHEN ({kind}) = 'system' THEN 'system: ' || coalesce({t('tag')}, '?')
        WHEN ({kind}) = 'subagent' THEN coalesce({t('name')}, 'subagent ' || coalesce({t('id')}, '?'))
        WHEN ({kind}) = 'app' THEN coalesce({t('name')}, 'app ' || coalesce({t('appId')}, {t('id')}, '?'))
        WHEN ({kind}) = 'permanent' THEN coalesce({t('name')}, '@' || {t('username')},
                                                 'agent ' || coalesce({t('id')}, '?'))
        ELSE coalesce({t('name')}, {t('id')}, '(' || ({kind}) || ')')
    END) COLLATE NOCASE"""


def _tokens_key() -> str:
    """``Agent.token_total.total`` in SQL: every provider's every model's numeric ``total``, summed."""
    return """(SELECT coalesce(sum(CASE WHEN json_type(m.value, '$.total') IN ('integer', 'real')
                                   THEN CAST(json_extract(m.value, '$.total') AS INTEGER) ELSE 0 END), 0)
               FROM json_each(CASE WHEN json_valid(agents.stats)
                                   THEN CASE WHEN json_type(agents.stats) = 'object' THEN agents.stats END END) p,
                    json_each(CASE WHEN p.type = 'object' THEN p.value END) m
               WHERE m.type = 'object')"""


def _user_key(cols: TableColumns) -> str:
    """The owner as the User column names them (name, else @nametag, else the id)."""
    have = set(cols.of("users")) if cols.has_table("users") else set()
    name = "NULLIF(u.name, '')" if "name" in have else "NULL"
    tag = "'@' || NULLIF(u.nametag, '')" if "nametag" in have else "NULL"
    if "id" not in have:
        return "coalesce(agents.user_id, '')"
    return (f"coalesce((SELECT coalesce({name}, {tag}, u.id) FROM users u WHERE u.id = agents.user_id), "
            "agents.user_id, '') COLLATE NOCASE")


def _sort_key(sort: str, have: set[str], cols: TableColumns) -> str:
    if sort == "name":
        return _name_key() if "descriptor" in have else "id"
    if sort == "tokens":
        return _tokens_key() if "stats" in have else "0"
    if sort == "user":
        return _user_key(cols) if "user_id" in have else "''"
    return sort if sort in have else "id"


def fetch_agents(db: ReadOnlyDatabase, ids: list[str], cols: TableColumns | None = None) -> dict[str, Agent]:
    cols = cols or TableColumns(db)
    if not ids or not cols.has_table("agents"):
        return {}
    out: dict[str, Agent] = {}
    select = cols.select_list("agents", AGENT_COLUMNS)
    for start in range(0, len(ids), 500):  # stay under SQLite's variable limit
        chunk = ids[start:start + 500]
        params = {f"i{i}": v for i, v in enumerate(chunk)}
        sql = f"SELECT {select} FROM agents WHERE id IN ({', '.join(':' + k for k in params)})"
        for row in db.rows(sql, params):
            agent = agent_from_row(row)
            out[agent.id] = agent
    return out


def get_agent(db: ReadOnlyDatabase, agent_id: str) -> Agent | None:
    return fetch_agents(db, [agent_id]).get(agent_id)


def token_usage_by_model(db: ReadOnlyDatabase, cols: TableColumns | None = None) -> dict[tuple[str, str], TokenSize]:
    """Sum of every agent's ``stats`` per (provider, model), aggregated in SQL with json_each."""
    cols = cols or TableColumns(db)
    if not cols.has_table("agents") or "stats" not in cols.of("agents"):
        return {}
    sql = """
        SELECT p.key AS provider, m.key AS model,
               sum(coalesce(json_extract(m.value, '$.input'), 0)),
               sum(coalesce(json_extract(m.value, '$.output'), 0)),
               sum(coalesce(json_extract(m.value, '$.cacheRead'), 0)),
               sum(coalesce(json_extract(m.value, '$.cacheWrite'), 0)),
               sum(coalesce(json_extract(m.value, '$.total'), 0))
        FROM agents a, json_each(CASE WHEN json_valid(a.stats) THEN a.stats ELSE '{}' END) p,
             json_each(CASE WHEN json_type(p.value) = 'object' THEN p.value ELSE '{}' END) m
        GROUP BY p.key, m.key ORDER BY 7 DESC
    """
    return {(r[0], r[1]): TokenSize(int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6])) for r in db.rows(sql)}


def distinct_values(db: ReadOnlyDatabase, column: str, cols: TableColumns | None = None) -> list[str]:
    cols = cols or TableColumns(db)
    if column not in ("type", "lifecycle", "user_id") or column not in cols.of("agents"):
        return []
    return [r[0] for r in db.rows(f"SELECT DISTINCT {column} FROM agents ORDER BY 1") if r[0] is not None]

"""Today's Daycare agents (PGlite, PostgreSQL) as the shared thread list: filtered and sorted in SQL,
with the same columns and filters as a SQLite store's, where today's schema has them (no token totals:
today's ``agents`` row keeps none)."""

from __future__ import annotations

from daycare_gui.stores.api import THREADS, when_utc
from daycare_gui.stores.records import FilterSpec, Query, Row

PG_COLUMNS = ("Name", "Kind", "Lifecycle", "User", "Sessions", "Created", "Updated")
LIFECYCLES = ("active", "sleeping", "dead")


def _like(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class PgThreadListing:
    """Mixed into PgConversations (``self.db``, ``self.store`` as there)."""

    def thread_columns(self) -> tuple[str, ...]:
        return PG_COLUMNS

    def sorts(self, list_id: str) -> tuple[str, ...]:
        return PG_COLUMNS if list_id == THREADS else ()

    # -- SQL pieces ------------------------------------------------------------------------------------
    # Each agent's sessions counted in one grouped pass joined in, not a subquery per agent: Daycare's schema
    # has no index on sessions.agent_id, so a subquery per row scanned every session once per agent.
    SESSION_COUNTS = ("LEFT JOIN (SELECT agent_id, count(*) AS n FROM sessions GROUP BY agent_id) sc "
                      "ON sc.agent_id = a.id")

    def _name(self) -> str:
        return "coalesce(a.name, a.path, a.id)" if "name" in self.db.columns("agents") else "coalesce(a.path, a.id)"

    def _user_label(self) -> str:
        """The owner as the User column names them: first and last name, else @nametag, else the id."""
        if not self.store.has("users"):
            return "a.user_id"
        current = " AND u.valid_to IS NULL" if "valid_to" in self.db.columns("users") else ""
        return ("coalesce((SELECT coalesce(NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), ''), "
                f"'@' || NULLIF(u.nametag, ''), u.id) FROM users u WHERE u.id = a.user_id{current} LIMIT 1), "
                "a.user_id)")

    def _where(self, query: Query) -> tuple[list[str], dict]:
        parts = ["a.valid_to IS NULL"] if self.store.current("agents") else []
        params: dict = {}
        for name, column in (("kind", "a.kind"), ("lifecycle", "a.lifecycle"), ("user", "a.user_id")):
            value = query.choice(name)
            if value:
                parts.append(f"{column} = :{name}")
                params[name] = value
        if query.since is not None:
            parts.append("a.updated_at >= :since")
            params["since"] = int(query.since)
        if query.until is not None:
            parts.append("a.updated_at < :until")
            params["until"] = int(query.until)
        if query.text.strip():
            have = set(self.db.columns("agents"))
            columns = ["a.id"] + [f"a.{c}" for c in ("name", "path", "description", "system_prompt") if c in have]
            parts.append("(" + " OR ".join(f"{c} ILIKE :text" for c in columns) + ")")
            params["text"] = _like(query.text.strip())
        return parts, params

    # -- Listing ---------------------------------------------------------------------------------------
    def filters(self, list_id: str) -> tuple[FilterSpec, ...]:
        if list_id != THREADS:
            return ()
        current = self.store.current("agents")
        kinds = [r[0] for r in self.db.rows(f"SELECT DISTINCT kind FROM agents a{current} ORDER BY 1") if r[0]]
        users = self.db.rows(f"SELECT DISTINCT a.user_id, {self._user_label()} FROM agents a{current} ORDER BY 2")
        return (FilterSpec("kind", "kind", "choice", tuple((k, k) for k in kinds)),
                FilterSpec("lifecycle", "lifecycle", "choice", tuple((s, s) for s in LIFECYCLES)),
                FilterSpec("user", "user", "choice", tuple((u, label) for u, label in users if u)),
                FilterSpec("updated", "Updated", "time"))

    def keys(self, list_id: str, query: Query) -> list[str]:
        if list_id != THREADS:
            return []
        parts, params = self._where(query)
        key = {"Name": f"lower({self._name()})", "Kind": "a.kind", "Lifecycle": "a.lifecycle",
               "User": f"lower({self._user_label()})",
               "Sessions": "coalesce(sc.n, 0)",
               "Created": "a.created_at"}.get(query.sort, "a.updated_at")
        descending = query.descending if query.sort else True  # the list's own order: latest first
        where = (" WHERE " + " AND ".join(parts)) if parts else ""
        order = f"{key} {'DESC' if descending else 'ASC'} NULLS LAST, a.id"
        counts = f" {self.SESSION_COUNTS}" if query.sort == "Sessions" else ""
        return [r[0] for r in self.db.rows(f"SELECT a.id FROM agents a{counts}{where} ORDER BY {order}", params)]

    def fetch(self, list_id: str, keys: list[str]) -> list[Row]:
        if list_id != THREADS or not keys:
            return []
        have = set(self.db.columns("agents"))
        extra = "".join(f", a.{c}" for c in ("description", "system_prompt", "model_role", "connector_name",
                                              "parent_agent_id", "active_session_id") if c in have)
        current = ["a.valid_to IS NULL"] if self.store.current("agents") else []
        by_key: dict[str, Row] = {}
        for start in range(0, len(keys), 500):
            chunk = list(keys[start:start + 500])
            params = {f"i{i}": v for i, v in enumerate(chunk)}
            where = " AND ".join([*current, f"a.id IN ({', '.join(':' + k for k in params)})"])
            rows = self.db.mappings(
                f"SELECT a.id, {self._name()} AS title, a.kind, a.lifecycle, a.user_id, {self._user_label()} AS owner, "
                f"coalesce(sc.n, 0) AS n, a.path, a.created_at, a.updated_at{extra} FROM agents a "
                f"{self.SESSION_COUNTS} WHERE {where}", params)
            for r in rows:
                by_key[r["id"]] = _row(r)
        # The agent list's rows are read: the history's one scan (every session's record ids, for their
        # counts and pages) starts now in the background, so an agent's session list need not wait for it.
        from daycare_gui.stores.daycare.pg.history_keys import history_keys

        history = history_keys(self.store)
        if history is not None:
            history.start()
        return [by_key[k] for k in keys if k in by_key]

    def totals(self, list_id: str, query: Query) -> dict[str, int]:
        return {}


def _row(r: dict) -> Row:
    facts = [("Id", r["id"]), ("Path", r.get("path")), ("Description", r.get("description")),
             ("Model role", r.get("model_role")), ("Connector", r.get("connector_name")),
             ("Parent agent", r.get("parent_agent_id")), ("Active session", r.get("active_session_id"))]
    lines = [f"- **{label}:** `{value}`" for label, value in facts if value]
    if r.get("system_prompt"):
        lines += ["", "### System prompt", "", str(r["system_prompt"])]
    raw = {k: v for k, v in r.items() if k not in ("owner", "n", "title")}
    return Row(r["id"], (r["title"], r["kind"], r["lifecycle"], r["owner"] or "", int(r["n"] or 0),
                         when_utc(r["created_at"]), when_utc(r["updated_at"])),
               raw=raw, markdown="\n".join(lines), flag="dead" if r["lifecycle"] == "dead" else "")

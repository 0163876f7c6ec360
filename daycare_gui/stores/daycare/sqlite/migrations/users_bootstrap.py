"""20260220_users_bootstrap: one user per distinct connector identity of the user agents.

The first identity (by agent ``created_at``) becomes the owner; without any, a bare owner is created. The owner
id is baked into ``agents.user_id`` as a literal DEFAULT, exactly as Daycare does, so rows inserted later
without a user_id silently belong to that owner.
"""

from __future__ import annotations

from daycare_gui.stores.daycare.sqlite.migrations.base import MigrationContext
from daycare_gui.stores.daycare.sqlite.migrations.legacy import JsonError, js_trim, parse_json


def connector_key(descriptor_json: object) -> str | None:
    """``"<connector>:<userId>"`` of a user agent's descriptor, or None if either part is missing/blank."""
    if not isinstance(descriptor_json, str):
        return None
    try:
        parsed = parse_json(descriptor_json)
    except JsonError:
        return None
    if not isinstance(parsed, dict):
        return None
    connector, user_id = parsed.get("connector"), parsed.get("userId")
    if not isinstance(connector, str) or not isinstance(user_id, str):
        return None
    connector, user_id = js_trim(connector), js_trim(user_id)
    if not connector or not user_id:
        return None
    return f"{connector}:{user_id}"


def _sql_string_literal(value: str) -> str:
    return value.replace("'", "''")


def users_bootstrap(ctx: MigrationContext) -> None:
    conn = ctx.conn
    key_by_agent: dict[str, str] = {}
    keys_in_order: list[str] = []
    for agent_id, descriptor, _created in conn.execute(
        "SELECT id, descriptor, created_at FROM agents WHERE type = 'user' ORDER BY created_at ASC"
    ):
        key = connector_key(descriptor)
        if key is None:
            continue
        key_by_agent[agent_id] = key
        if key not in keys_in_order:
            keys_in_order.append(key)

    now = ctx.now_ms()
    owner_id = ""
    user_by_key: dict[str, str] = {}
    if not keys_in_order:
        owner_id = ctx.ids.cuid2()
        conn.execute("INSERT INTO users (id, is_owner, created_at, updated_at) VALUES (?, 1, ?, ?)", (owner_id, now, now))
    else:
        for index, key in enumerate(keys_in_order):
            user_id = ctx.ids.cuid2()
            is_owner = 1 if index == 0 else 0
            conn.execute(
                "INSERT INTO users (id, is_owner, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (user_id, is_owner, now, now),
            )
            conn.execute("INSERT INTO user_connector_keys (user_id, connector_key) VALUES (?, ?)", (user_id, key))
            user_by_key[key] = user_id
            if is_owner:
                owner_id = user_id

    existing_owner = conn.execute("SELECT id FROM users WHERE is_owner = 1 LIMIT 1").fetchone()
    if existing_owner is not None and existing_owner[0]:
        owner_id = existing_owner[0]

    if not ctx.has_column("agents", "user_id"):
        conn.execute(
            f"ALTER TABLE agents ADD COLUMN user_id TEXT NOT NULL DEFAULT '{_sql_string_literal(owner_id)}'"
        )
    for agent_id, key in key_by_agent.items():
        user_id = user_by_key.get(key)
        if user_id:
            conn.execute("UPDATE agents SET user_id = ? WHERE id = ?", (user_id, agent_id))
    conn.execute("UPDATE agents SET user_id = ? WHERE user_id IS NULL", (owner_id,))
    conn.execute("CREATE INDEX IF NOT EXISTS idx_agents_user_id ON agents(user_id)")

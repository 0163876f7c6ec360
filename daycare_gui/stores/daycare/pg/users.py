"""Today's users (PGlite, PostgreSQL) as the shared users collection: the same columns and links as a
SQLite store's. Today's schema dropped ``is_owner`` (2026-03-08): a store from before still says who owns
it; ``is_workspace`` users are marked as workspaces, ``workspace_owner_id`` (once ``parent_user_id``) is
the parent."""

from __future__ import annotations

from daycare_gui.stores.daycare.pg.shown_rows import masked_row
from daycare_gui.stores.daycare.user_rows import UserFacts, user_rows
from daycare_gui.stores.records import Row


def pg_users(store) -> list[UserFacts]:
    db = store.db
    have = set(db.columns("users"))
    current = store.current("users")
    keys: dict[str, list[str]] = {}
    if store.has("user_connector_keys"):
        for uid, key in db.rows("SELECT user_id, connector_key FROM user_connector_keys ORDER BY id"):
            keys.setdefault(uid, []).append(key)
    counts: dict[str, int] = {}
    if store.has("agents"):
        counts = {r[0]: int(r[1]) for r in db.rows(
            f"SELECT user_id, count(*) FROM agents{store.current('agents')} GROUP BY user_id")}
    order = "is_owner DESC, created_at, id" if "is_owner" in have else "created_at, id"
    out = []
    for r in db.mappings(f"SELECT * FROM users{current} ORDER BY {order}"):
        name = " ".join(p for p in (r.get("first_name"), r.get("last_name")) if p and str(p).strip()) or None
        role = "★ owner" if r.get("is_owner") else "workspace" if r.get("is_workspace") or r.get("is_swarm") else ""
        parent = r.get("workspace_owner_id") or r.get("parent_user_id")
        raw = _plain(r)
        out.append(UserFacts(str(r["id"]), name, r.get("nametag"), role, parent, tuple(keys.get(r["id"], ())),
                             counts.get(r["id"], 0), r.get("created_at"), r.get("updated_at"), raw))
    return out


def pg_user_rows(store) -> list[Row]:
    return user_rows(pg_users(store))


def _plain(row: dict) -> dict:
    plain = {k: (v if isinstance(v, (str, int, float, bool, dict, list)) or v is None else str(v))
             for k, v in row.items()}
    return masked_row(plain, "users")

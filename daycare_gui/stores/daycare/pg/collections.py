"""Today's Daycare lists (users, inbox, channels, signals, …) and every versioned table's versions."""

from __future__ import annotations

import datetime as _dt

from daycare_gui.stores import api
from daycare_gui.stores.daycare.pg.catalog import VERSIONED
from daycare_gui.stores.daycare.pg.lists import DETAILS, PgListing
from daycare_gui.stores.daycare.pg.on_store import OnStore
from daycare_gui.stores.daycare.pg.shown_rows import markdown_of, masked_row, plain_values
from daycare_gui.stores.daycare.pg.users import pg_user_rows
from daycare_gui.stores.daycare.user_rows import USERS, users_collection
from daycare_gui.stores.records import Collection, Row

# name → (title, table, order by, columns shown)
LISTS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "users": ("Users", "users", "created_at, id", ("id", "nametag", "first_name", "last_name", "timezone", "created_at")),
    "inbox": ("Inbox", "inbox", "posted_at, id", ("id", "agent_id", "type", "posted_at")),
    "channels": ("Channels", "channels", "name", ("id", "name", "leader", "user_id", "updated_at")),
    "signals": ("Signals", "signals_events", "created_at DESC, id", ("id", "type", "user_id", "created_at")),
    "subscriptions": ("Signal subscriptions", "signals_subscriptions", "id", ("id", "pattern", "agent_id", "silent")),
    "delayed": ("Delayed signals", "signals_delayed", "deliver_at, id", ("id", "type", "deliver_at", "repeat_key")),
    "processes": ("Processes", "processes", "name, id", ("id", "name", "status", "desired_state", "pid", "command")),
    "system_prompts": ("System prompts", "system_prompts", "id", ("id", "scope", "kind", "enabled", "condition")),
    "key_values": ("Key/values", "key_values", "user_id, key", ("user_id", "key", "value", "updated_at")),
    "model_role_rules": ("Model-role rules", "model_role_rules", "role, id", ("id", "role", "kind", "model", "agent_id")),
    "mini_apps": ("Mini apps", "mini_apps", "title, id", ("id", "title", "icon", "code_version", "updated_at")),
    "observation_log": ("Observation log", "observation_log", "created_at DESC, id",
                        ("id", "type", "source", "message", "created_at")),
    "voice_agents": ("Voice agents", "voice_agents", "name, id", ("id", "name", "description", "updated_at")),
}


class PgCollections(OnStore, PgListing, api.Collections):
    def __init__(self, store, files=None) -> None:
        self.store = store
        self.files = files  # datadir.collections.DataDirLists (ids "files:…"), or None

    def _lists(self) -> dict:
        return {k: v for k, v in LISTS.items() if self.store.has(v[1])}

    def collections(self) -> list[Collection]:
        out = [users_collection() if k == USERS else self.listed(Collection(k, title, tuple(c for c in cols if c in self.db.columns(table))))
               for k, (title, table, _o, cols) in self._lists().items()]
        out += self.extra_collections()  # a channel's members and messages, shown under it
        for table in VERSIONED:
            if self.store.has(table) and "valid_to" in self.db.columns(table):
                out.append(Collection(f"versions:{table}", table.replace("_", " ").capitalize(),
                                      ("id", "version", "valid from", "valid to", "what changed"), tree=True,
                                      group="Versions"))
        return out + (self.files.collections() if self.files is not None else [])

    def size(self, collection_id: str) -> int:
        if self.files is not None and self.files.owns(collection_id):
            return self.files.size(collection_id)
        if collection_id in DETAILS:
            return 0  # asked for one channel at a time (Query.parent)
        if collection_id.startswith("versions:"):
            table = collection_id.split(":", 1)[1]
            return int(self.db.scalar(f'SELECT count(*) FROM "{table}"') or 0)
        _title, table, _order, _cols = self._lists()[collection_id]
        return int(self.db.scalar(f'SELECT count(*) FROM "{table}"{self.store.current(table)}') or 0)

    def rows(self, collection_id: str, offset: int, limit: int) -> list[Row]:
        if self.files is not None and self.files.owns(collection_id):
            return self.files.rows(collection_id, offset, limit)
        if collection_id.startswith("versions:"):
            return self._versions(collection_id.split(":", 1)[1], offset, limit)
        if collection_id == USERS and self.store.has("users"):  # owner first, keys, agents: pg/users.py
            return pg_user_rows(self.store)[offset:offset + limit]
        if collection_id in DETAILS:
            return []
        if collection_id == "inbox":  # age and the stuck flag, oldest first
            from daycare_gui.stores.records import Query

            return self.fetch("inbox", self.keys("inbox", Query())[max(0, offset): max(0, offset) + limit])
        _title, table, order, cols = self._lists()[collection_id]
        shown = [c for c in cols if c in self.db.columns(table)]
        rows = self.db.mappings(f'SELECT * FROM "{table}"{self.store.current(table)} ORDER BY {order} '
                                "LIMIT :n OFFSET :o", {"n": int(limit), "o": int(offset)})
        out = []
        for r in rows:
            shown_row = masked_row(plain_values(r), table)
            key = "/".join(str(r.get(k)) for k in ("user_id", "key") if k in r) if table == "key_values" else str(r.get("id"))
            out.append(Row(key, tuple(shown_row.get(c) for c in shown), raw=shown_row,
                           markdown=markdown_of(table, shown_row)))
        return self.joined(collection_id, out)

    def _versions(self, table: str, offset: int, limit: int) -> list[Row]:
        key_cols = [c for c in ("user_id", "id", "key", "user_a_id", "user_b_id") if c in self.db.columns(table)]
        order = ", ".join([*key_cols, "version"])
        rows = self.db.mappings(f'SELECT * FROM "{table}" ORDER BY {order} LIMIT :n OFFSET :o',
                                {"n": int(limit) + 1, "o": max(0, int(offset) - 1)})
        out, previous = [], None
        if offset > 0 and rows:
            previous, rows = rows[0], rows[1:]
        for r in rows[:limit]:
            plain = masked_row(plain_values(r), table)
            ident = "/".join(str(r.get(c)) for c in key_cols)
            same = previous is not None and all(previous.get(c) == r.get(c) for c in key_cols)
            changed = _changes(masked_row(plain_values(previous), table), plain) if same else "first version"
            key = f"{ident}#{r.get('version')}"
            parent = f"{ident}#{previous.get('version')}" if same else None
            out.append(Row(key, (ident, r.get("version"), _when(r.get("valid_from")), _when(r.get("valid_to")) or
                                 "current", changed), parent=None if parent is None else _root_of(out, parent),
                           raw=plain, flag="" if r.get("valid_to") is None else ""))
            previous = r
        return out

    def row(self, collection_id: str, key: str):
        if self.files is not None and self.files.owns(collection_id):
            return next((r for r in self.files.rows(collection_id, 0, self.files.size(collection_id))
                         if r.key == key), None)
        if collection_id == USERS and self.store.has("users"):
            return next((r for r in pg_user_rows(self.store) if r.key == key), None)
        return None


def _root_of(rows: list[Row], parent_key: str) -> str:
    by_key = {r.key: r for r in rows}
    node = by_key.get(parent_key)
    while node is not None and node.parent is not None:
        node = by_key.get(node.parent)
    return node.key if node is not None else parent_key


_SKIP = {"version", "valid_from", "valid_to", "updated_at"}


def _changes(before: dict, after: dict) -> str:
    keys = [k for k in after if k not in _SKIP and before.get(k) != after.get(k)]
    return ", ".join(keys) if keys else "no field changed"


def _when(ms) -> str:
    if not isinstance(ms, int):
        return ""
    return _dt.datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M:%S")

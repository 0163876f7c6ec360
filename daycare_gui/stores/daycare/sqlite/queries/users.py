"""Users with their connector keys."""

from __future__ import annotations

from dataclasses import dataclass, field

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.common.wording import person_label
from daycare_gui.stores.daycare.sqlite.queries.columns import TableColumns

USER_COLUMNS = ["id", "is_owner", "created_at", "updated_at", "parent_user_id", "name", "nametag"]


@dataclass(frozen=True)
class User:
    id: str
    is_owner: bool
    created_at: int | None
    updated_at: int | None
    parent_user_id: str | None
    name: str | None
    nametag: str | None
    connector_keys: tuple[str, ...]
    agent_count: int
    raw: dict = field(default_factory=dict, repr=False)

    @property
    def label(self) -> str:
        who = person_label(self.name, self.nametag, self.id)
        return f"{who} (owner)" if self.is_owner else who


def list_users(db: ReadOnlyDatabase, cols: TableColumns | None = None) -> list[User]:
    cols = cols or TableColumns(db)
    if not cols.has_table("users"):
        return []
    keys: dict[str, list[str]] = {}
    if cols.has_table("user_connector_keys"):
        for uid, key in db.rows("SELECT user_id, connector_key FROM user_connector_keys ORDER BY id"):
            keys.setdefault(uid, []).append(key)
    counts: dict[str, int] = {}
    if cols.has_table("agents") and "user_id" in cols.of("agents"):
        counts = {r[0]: r[1] for r in db.rows("SELECT user_id, count(*) FROM agents GROUP BY user_id")}
    out = []
    for row in db.rows(f"SELECT {cols.select_list('users', USER_COLUMNS)} FROM users ORDER BY is_owner DESC, created_at, id"):
        m = dict(row._mapping)
        out.append(User(
            id=m["id"], is_owner=bool(m.get("is_owner")), created_at=m.get("created_at"),
            updated_at=m.get("updated_at"), parent_user_id=m.get("parent_user_id"), name=m.get("name"),
            nametag=m.get("nametag"), connector_keys=tuple(keys.get(m["id"], ())),
            agent_count=counts.get(m["id"], 0), raw=m,
        ))
    return out

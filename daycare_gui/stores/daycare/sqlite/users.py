"""A SQLite store's users as the shared users collection (``core/queries/users`` reads them)."""

from __future__ import annotations

from daycare_gui.stores.api import Collections, Listing
from daycare_gui.stores.daycare.sqlite.queries.users import list_users
from daycare_gui.stores.daycare.user_rows import USERS, UserFacts, UserListing, user_rows, users_collection
from daycare_gui.stores.records import Collection, Row


def sqlite_users(core) -> list[UserFacts]:
    return [UserFacts(u.id, u.name, u.nametag, "★ owner" if u.is_owner else "", u.parent_user_id, u.connector_keys,
                      u.agent_count, u.created_at, u.updated_at, u.raw)
            for u in list_users(core.db, core.cols)]


class SqliteUsers(UserListing, Listing, Collections):
    """The users table as a collection (the only one this generation offers so far)."""

    def __init__(self, core) -> None:
        self.core = core

    def _user_rows(self) -> list[Row]:
        return user_rows(sqlite_users(self.core))

    def collections(self) -> list[Collection]:
        return [users_collection()]

    def size(self, collection_id: str) -> int:
        if collection_id != USERS:
            return 0
        return int(self.core.db.scalar("SELECT count(*) FROM users") or 0)

    def rows(self, collection_id: str, offset: int, limit: int) -> list[Row]:
        return self.list_rows(collection_id)[offset:offset + limit]

    def row(self, collection_id: str, key: str) -> Row | None:
        return next((r for r in self.list_rows(collection_id) if r.key == key), None)

"""Daycare's users as one shared list for every generation: the owner first, then by creation; name,
nametag, connector keys, parent user and agent count, with links to the user's agents (the thread list
filtered to them) and to their parent.

Both the SQLite generation (``sqlite/users.py``) and today's schema (``pg/users.py``) hand their rows to
:func:`user_row`, so the list reads alike whichever generation a store is."""

from __future__ import annotations

from dataclasses import dataclass

from daycare_gui.stores.api import when_utc
from daycare_gui.stores.common.wording import person_label
from daycare_gui.stores.records import Collection, Link, Query, Row

USERS = "users"
USER_COLUMNS = ("Name", "Role", "Nametag", "Connector keys", "Parent user", "Agents", "Created", "Id")


def users_collection() -> Collection:
    return Collection(USERS, "Users", USER_COLUMNS, icon="system-users", keyed=False)  # a few: read whole


@dataclass(frozen=True)
class UserFacts:
    """One user as either generation stores them (``role``: "★ owner", "workspace" or "")."""

    id: str
    name: str | None
    nametag: str | None
    role: str
    parent_id: str | None
    connector_keys: tuple[str, ...]
    agents: int
    created_at: int | None
    updated_at: int | None
    raw: dict


def user_row(user: UserFacts, names: dict[str, str]) -> Row:
    """``names``: every user's label by id, so the parent is shown by name."""
    label = names.get(user.id) or person_label(user.name, user.nametag, user.id)
    parent = names.get(user.parent_id or "", user.parent_id or "")
    links = [Link("threads", Query(choices=(("user", user.id),)), f"Agents of {label} ({user.agents:,})")]
    if user.parent_id:
        links.append(Link("row", (USERS, user.parent_id), f"Parent user: {parent}"))
    facts = [("Id", user.id), ("Name", user.name or ""), ("Role", user.role.lstrip("★ ")),
             ("Nametag", f"@{user.nametag}" if user.nametag else ""), ("Parent user", parent),
             ("Agents", f"{user.agents:,}")]
    facts += [("Connector key", key) for key in user.connector_keys]
    markdown = "\n".join(f"- **{k}:** `{v}`" for k, v in facts if v)
    return Row(user.id, (label, user.role, f"@{user.nametag}" if user.nametag else "", ", ".join(user.connector_keys),
                         parent, user.agents, when_utc(user.created_at), user.id),
               raw=user.raw, markdown=markdown, links=tuple(links))


def user_rows(users: list[UserFacts]) -> list[Row]:
    """The owner first, then as the store listed them (by creation)."""
    names = {u.id: person_label(u.name, u.nametag, u.id) for u in users}
    ordered = sorted(users, key=lambda u: not u.role.startswith("★"))  # stable: the store's order kept
    return [user_row(u, names) for u in ordered]


class UserListing:
    """The users collection over ``_user_rows()`` (every user: a store holds a handful): size, pages, one
    row by key, and the Listing defaults (words and sorts) over them."""

    def _user_rows(self) -> list[Row]:
        raise NotImplementedError

    def list_columns(self, list_id: str) -> tuple[str, ...]:
        return USER_COLUMNS if list_id == USERS else ()

    def list_rows(self, list_id: str) -> list[Row]:
        return self._user_rows() if list_id == USERS else []

    def sorts(self, list_id: str) -> tuple[str, ...]:
        return USER_COLUMNS if list_id == USERS else ()

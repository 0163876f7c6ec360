"""Every item of today's Daycare (PGlite or a PostgreSQL server) for quick open, in a few narrow queries.

Without this the palette would call ``sessions()`` once per agent, and each of those counts history rows.
Only current versions of versioned tables are listed. Users and mini apps are rows of the shared
collection pane (``collection`` names it); sessions open in the shared conversation view.
"""

from __future__ import annotations

from collections.abc import Iterator

from daycare_gui.stores import api
from daycare_gui.stores.common.wording import local_time, person_label
from daycare_gui.stores.records import JumpEntry, SessionRef


class PgDirectory(api.Directory):
    def __init__(self, store) -> None:
        self.store = store

    def _select(self, table: str, wanted: tuple[str, ...]) -> str:
        cols = set(self.store.db.columns(table))
        return ", ".join(c if c in cols else f"NULL AS {c}" for c in wanted)

    def entries(self) -> Iterator[JumpEntry]:
        store, db = self.store, self.store.db
        users: dict[str, str] = {}
        if store.has("users"):
            rows = db.rows(f"SELECT {self._select('users', ('id', 'first_name', 'last_name', 'nametag'))} "
                           f"FROM users{store.current('users')}")
            for uid, first, last, nametag in rows:
                name = " ".join(x for x in (first, last) if x)
                users[uid] = person_label(name, nametag, uid)
                yield JumpEntry("user", uid, users[uid], f"@{nametag}" if nametag else "", uid, collection="users")
        agents: dict[str, str] = {}
        if store.has("agents"):
            rows = db.rows(f"SELECT {self._select('agents', ('id', 'name', 'path', 'kind', 'user_id'))} "
                           f"FROM agents{store.current('agents')}")
            for aid, name, path, kind, uid in rows:
                agents[aid] = name or path or aid
                detail = " · ".join(x for x in (kind, users.get(uid, uid), path) if x)
                yield JumpEntry("agent", aid, agents[aid], detail, aid)
        if store.has("sessions"):
            for sid, aid, at in db.rows(f"SELECT {self._select('sessions', ('id', 'agent_id', 'created_at'))} "
                                        "FROM sessions"):
                agent = agents.get(aid, aid or "?")
                yield JumpEntry("session", sid, f"{agent} — session of {local_time(at, seconds=False) or '?'}",
                                f"agent {aid}", SessionRef(aid, sid))
        tasks = store.capability(api.Tasks)
        if tasks is not None:
            for t in tasks.tasks():
                yield JumpEntry("task", t.id, t.title, " · ".join(x for x in (t.schedule_kind, t.schedule) if x),
                                (t.schedule_kind, t.id))  # (its group's section, the task)
        documents = store.capability(api.Documents)
        if documents is not None:
            for d in documents.documents():
                yield JumpEntry("doc", d.id, d.title, f"document · {d.group}", d.id)
        if store.has("mini_apps"):
            for aid, title, uid in db.rows(f"SELECT {self._select('mini_apps', ('id', 'title', 'user_id'))} "
                                           f"FROM mini_apps{store.current('mini_apps')}"):
                yield JumpEntry("app", str(aid), title or str(aid), f"mini app · {users.get(uid, uid or '')}",
                                str(aid), collection="mini_apps")
        tables = store.capability(api.Tables)
        if tables is not None:
            for t in tables.tables():
                if not t.hidden:
                    yield JumpEntry("table", t.name, t.name, "table", t.name)

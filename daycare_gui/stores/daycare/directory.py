"""Every item of a Daycare store (legacy files or SQLite) for quick open, in a few narrow queries.

Agents, sessions and users come from their tables (ids, names and times only; an agent's descriptor is
parsed for its name and dropped), tasks, apps, memory entities and skills from the file inventory the
panes share, tables from the schema. A store without a database lists its legacy agent folders and
their sessions instead.

``ref`` says where Daycare's own panes open the item: an id, ``(agent_id, session_id, None)`` for a
session, ``("legacy", agent_id, index)`` for a legacy one, ``(section, key)`` for tasks and documents.
"""

from __future__ import annotations

from collections.abc import Iterator

from daycare_gui.stores.api import Directory
from daycare_gui.stores.common.wording import local_time, person_label
from daycare_gui.stores.records import JumpEntry


class DaycareDirectory(Directory):
    def __init__(self, core) -> None:
        self.core = core

    def entries(self) -> Iterator[JumpEntry]:
        core = self.core
        users = self._users() if core.db is not None else {}
        agents = self._agents(users) if core.db is not None else self._legacy()
        yield from agents
        if core.db is not None:
            yield from self._sessions({a.key: a.label for a in agents})
        for uid, (label, detail) in users.items():
            yield JumpEntry("user", uid, label, detail, uid)
        yield from self._tasks()
        yield from self._files()
        if core.db is not None:
            for table in core.db.tables():
                yield JumpEntry("table", table, table, "table", table)

    # -- database ---------------------------------------------------------------------------------------
    def _users(self) -> dict[str, tuple[str, str]]:
        from daycare_gui.stores.daycare.sqlite.queries.users import list_users

        out = {}
        for u in list_users(self.core.db, self.core.cols):
            label = person_label(u.name, u.nametag, u.id) + (" (owner)" if u.is_owner else "")
            detail = " · ".join(x for x in (f"@{u.nametag}" if u.nametag else "", *u.connector_keys) if x)
            out[u.id] = (label, detail)
        return out

    def _agents(self, users: dict) -> list[JumpEntry]:
        from daycare_gui.stores.daycare.records.agents import parse_descriptor
        from daycare_gui.stores.daycare.records.json_values import Unparsed

        core = self.core
        if not core.has_table("agents"):
            return []
        cols = core.cols.of("agents")
        select = ", ".join(c if c in cols else f"NULL AS {c}" for c in ("id", "user_id", "type", "descriptor"))
        out = []
        for aid, uid, kind, descriptor in core.db.rows(f"SELECT {select} FROM agents"):
            if not isinstance(aid, str):
                continue
            parsed = parse_descriptor(descriptor)
            name = aid if isinstance(parsed, Unparsed) else parsed.display_name
            owner = users.get(uid, (uid or "",))[0]
            out.append(JumpEntry("agent", aid, name, " · ".join(x for x in (kind or "", owner) if x), aid))
        return out

    def _sessions(self, agent_names: dict[str, str]) -> Iterator[JumpEntry]:
        core = self.core
        if not core.has_table("sessions"):
            return
        created = "created_at" if "created_at" in core.cols.of("sessions") else "NULL"
        # One agent id and one detail line per agent, shared by its sessions' entries: the window keeps
        # them while the store is open, and a large store has 20 sessions an agent (3 MB in the 1M demo)
        shared: dict = {}
        for sid, aid, at in core.db.rows(f"SELECT id, agent_id, {created} FROM sessions"):
            if not isinstance(sid, str):
                continue
            agent = agent_names.get(aid, aid or "?")
            aid, detail = shared.get(aid) or shared.setdefault(aid, (aid, f"agent {aid}"))
            yield JumpEntry("session", sid, f"{agent} — session of {local_time(at, seconds=False) or '?'}",
                            detail, (aid, sid, None))

    # -- files ------------------------------------------------------------------------------------------
    def _legacy(self) -> list[JumpEntry]:
        from daycare_gui.stores.daycare.sqlite.queries.legacy_history import legacy_agents_as_records

        legacy = legacy_agents_as_records(self.core.files())
        out = []
        for aid, agent in legacy["agents"].items():
            out.append(JumpEntry("agent", aid, agent.name, f"{agent.type} · legacy folder", aid))
            for s in legacy["sessions"].get(aid, []):
                out.append(JumpEntry("session", s.id,
                                     f"{agent.name} — session of {local_time(s.created_at, seconds=False) or '?'}",
                                     "legacy history.jsonl", ("legacy", aid, s.raw["legacy_index"])))
        return out

    def _tasks(self) -> Iterator[JumpEntry]:
        from daycare_gui.stores.daycare.sqlite.task_overview import cron_entries, heartbeat_entries

        for kind, entries in (("cron", cron_entries), ("heartbeat", heartbeat_entries)):
            for e in entries(self.core):
                detail = " · ".join(x for x in (kind, str(e.get("schedule") or ""), e.path or "") if x)
                yield JumpEntry("task", e.id, e.name, detail, (kind, e.id))

    def _files(self) -> Iterator[JumpEntry]:
        inventory = self.core.files()
        for app in inventory.items("apps"):
            manifest = app.manifest
            title = (manifest.title or manifest.name) if manifest is not None else None
            yield JumpEntry("app", app.id, title or app.id, " · ".join(
                x for x in (app.id, app.user_id or app.scope, app.folder) if x), app.folder)
        for entity in inventory.items("memory_entities"):
            yield JumpEntry("doc", entity.path, entity.name or entity.entity, f"memory · {entity.path}",
                            ("memory", entity.path))
        for skill in inventory.items("skills"):
            yield JumpEntry("doc", skill.path, skill.name or skill.id, f"skill · {skill.id}", ("skills", skill.id))
        from daycare_gui.stores.daycare.search_documents import jump_entries

        yield from jump_entries(self.core)  # agents' prompt files, settings.json and auth.json (a few stats)
